"""Sieges (rulebook: Siege Phase, all subsections): a siege `declare`d, checked and ended
as units come and go, and the Siege Phase's commands (`phase`: siege attacks, besieger
displacement, breakouts, the vetoes of sieges in deactivations)."""
