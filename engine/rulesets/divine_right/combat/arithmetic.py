"""The arithmetic of battle (rulebook: Combat Phase; Siege Phase): odds, ties, the siege
modifier, retreat rolls, terrain. Pure functions; the phases' commands use them."""

from __future__ import annotations

from math import ceil

from warscribe.engine.codec import frozen

HUMAN_RETREAT = 4
NON_HUMAN_RETREAT = 3
PLUNDER = 6


def odds(attackers: int, defenders: int) -> tuple[int, int]:
    """(attacker's, defender's) additions to their combat rolls: the larger strength over
    the smaller, rounded in favour of the defender (down when the attacker is larger, up
    when he is smaller)."""
    if attackers <= 0 or defenders <= 0:
        raise ValueError("both sides need a strength of at least 1")
    if attackers >= defenders:
        return attackers // defenders, 1
    return 1, ceil(defenders / attackers)


@frozen
class Battle:
    """A resolved combat: each side's modified roll and the units each must lose."""

    attacker_total: int
    defender_total: int
    attacker_losses: int
    defender_losses: int

    @property
    def tie(self) -> bool:
        return self.attacker_total == self.defender_total


def resolve(
    attackers: int,
    defenders: int,
    attacker_roll: int,
    defender_roll: int,
    attacker_bonus: int = 0,
    defender_bonus: int = 0,
) -> Battle:
    """The highest modified roll wins; the loser removes the difference. On a tie both
    lose the unmodified roll of the weaker (smaller) force, and the larger force never
    loses more than twice the smaller force's actual losses. Losses never exceed the
    units present. Strengths are after terrain (a pass doubles the defender's)."""
    a_odds, d_odds = odds(attackers, defenders)
    a_total = attacker_roll + a_odds + attacker_bonus
    d_total = defender_roll + d_odds + defender_bonus
    if a_total > d_total:
        return Battle(a_total, d_total, 0, min(a_total - d_total, defenders))
    if d_total > a_total:
        return Battle(a_total, d_total, min(d_total - a_total, attackers), 0)
    a_loss, d_loss = tie_losses(attackers, defenders, attacker_roll, defender_roll)
    return Battle(a_total, d_total, a_loss, d_loss)


def tie_losses(
    attackers: int, defenders: int, attacker_roll: int, defender_roll: int
) -> tuple[int, int]:
    """(attacker's, defender's) losses on a tie. With equal forces, the lower of the two
    unmodified rolls counts (the rulebook names no weaker side then; a stated reading)."""
    if attackers < defenders:
        weak_roll = attacker_roll
    elif defenders < attackers:
        weak_roll = defender_roll
    else:
        weak_roll = min(attacker_roll, defender_roll)
    a_loss, d_loss = min(weak_roll, attackers), min(weak_roll, defenders)
    if attackers > defenders:
        a_loss = min(a_loss, 2 * d_loss)
    elif defenders > attackers:
        d_loss = min(d_loss, 2 * a_loss)
    return a_loss, d_loss


def siege_valid(besiegers: int, defence: int, inside: int) -> bool:
    """Declaring a Siege (B): besiegers at least the intrinsic defence plus the units inside."""
    return besiegers >= defence + inside


def siege_modifier(besiegers: int, defence: int, inside: int) -> int:
    """Besiegers over (defence + units inside), fractions dropped, minus one."""
    return besiegers // (defence + inside) - 1


@frozen
class SiegeResult:
    roll: int
    modifier: int
    total: int
    result: str


def siege_attack(
    roll: int, besiegers: int, defence: int, inside: int, bonus: int = 0
) -> SiegeResult:
    """Resolving a Siege: 1 fails (a natural 1 always), 2-5 nothing, 6 or more plunders;
    `bonus` adds the roll's other modifiers (a captive monarch's -1, say)."""
    modifier = siege_modifier(besiegers, defence, inside)
    total = roll + modifier + bonus
    if roll == 1:
        result = "failed"
    elif total >= PLUNDER:
        result = "plundered"
    else:
        result = "nothing"
    return SiegeResult(roll=roll, modifier=modifier, total=total, result=result)


def plunder_points(defence: int, royal: bool) -> int:
    """5 x the castle's defence, 10 x for a royal castle."""
    return defence * (10 if royal else 5)


def retreat_needs(human: bool) -> int:
    """The lowest roll on which a unit retreats: humans (and every fleet) 4, non-humans 3."""
    return HUMAN_RETREAT if human else NON_HUMAN_RETREAT


def retreating_groups(groups: dict[str, bool], roll: int) -> tuple[str, ...]:
    """Which groups of a stack (name -> human?) may retreat on `roll`: testing the group
    with the least chance first, success lets every group go; otherwise each group whose
    own chance the roll meets may go (and the player may still keep it to fight)."""
    return tuple(name for name, human in groups.items() if roll >= retreat_needs(human))


def defence_strength(units: int, terrain: frozenset[str]) -> int:
    """Defending strength: doubled in a mountain pass."""
    return units * 2 if "PASS" in terrain else units


def defence_bonus(terrain: frozenset[str]) -> int:
    """+1 to the defender's roll in a mountain."""
    return 1 if "MOUNTAIN" in terrain else 0


def amphibious_withdrawal(survivors: int) -> int:
    """A lost amphibious attack: half the surviving attackers, rounded down, are eliminated."""
    return survivors // 2
