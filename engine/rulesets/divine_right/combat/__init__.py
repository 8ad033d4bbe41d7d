"""The Combat Phase (rulebook: Combat Phase, all subsections; Siege Phase › Breakouts,
Non-siege Attacks by Besiegers): `declare` the phase's attacks, `retreat` before combat
(and pursue), `resolve` an attack (sortie, advance after combat), the `fight` itself
(Combat Roll, losses, heroes' fates) and its `arithmetic` (odds, ties, terrain)."""
