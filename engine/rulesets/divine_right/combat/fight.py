"""A battle fought through: the Combat Roll of both sides with every modifier, the losses
each owner chooses, heroes' fates, the withdrawal after a lost amphibious attack, and
the advance after combat offered to the attacker (Combat Phase › Making Attacks,
Modifying the Combat Roll, Ties, Effects of Terrain on Combat, Amphibious Attacks,
Advance After Combat; Siege Phase › Breakouts; Heroes › Hero Combat Bonus; Capture of a
Monarch; Shipwrecked Heroes).

The fight in progress is `Progress.fight`; each decision it needs is asked of its player
(`DecisionAsked`) and play goes on from its answer: `losses units=A,B,...` for the units
lost (also the unit a failed siege roll costs), then the advance (see `resolve`).

Readings (docs/divine-right.md): a personality's +1/-1 for "his regulars" counts when
they are at least half the side's combat units; a monarch lends his combat bonus to a
force he is with that holds no other kingdom's regulars, one monarch per side; a
mountain's +1 counts when every defending space is a mountain; a pass doubles the
strength of the units defending in it; the loser's losses never exceed his units there.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from warscribe.engine.commands import Call
from warscribe.engine.errors import IllegalCommand
from warscribe.engine.events import Event

from ..arguments import label, names
from ..data import CombatCondition, CombatModifier, CombatWho, DRData, hex_distance
from ..events import (
    AdvanceDeclined,
    AttackBegun,
    AttackEnded,
    BattleFought,
    DefendersStood,
    UnitsAdvanced,
    UnitsEliminated,
    UnitsRetreated,
    WithdrawalLosses,
)
from ..evolving import Decision
from ..heroes import absent_monarch_modifiers, shipwreck, stack_losses
from ..kingdoms import effects
from ..movement.fleets import aboard
from ..placement.deployment import monarch_id
from ..sections import MAKING_ATTACKS
from ..siege.declare import BREAKOUT, engage
from ..special_kingdoms import canal_defence
from ..state import MERCENARY, Fight, Hex, Pending, State, Unit
from ..tables import Answer, Evolvers
from ..turn import asked_now, offered_units
from ..units import castle, castle_side, is_fleet, is_hero, remove
from .arithmetic import amphibious_withdrawal, defence_bonus, defence_strength, odds, resolve

LOSSES, ADVANCE, RETREAT = "losses", "advance", "retreat"
LAND, FLEET, AMPHIBIOUS, BREAKOUT_KIND = "land", "fleet", "amphibious", "breakout"
BEFORE, BATTLE, WITHDRAWAL = "before battle", "battle", "withdrawal"


def the_fight(state: State) -> Fight | None:
    return state.turn.progress.fight if state.turn else None


def fight_now(state: State) -> Fight:
    """The fight a decision answers (one is in progress whenever its decisions are asked)."""
    current = the_fight(state)
    assert current is not None
    return current


def living(state: State, ids: Iterable[str]) -> list[Unit]:
    return [state.units[u] for u in ids if u in state.units]


def defenders_left(state: State, fight: Fight) -> list[Unit]:
    """The defending units still engaged: on the map, not retreated from this attack."""
    return [u for u in living(state, fight.defenders) if u.id not in fight.retreated]


def attackers_left(state: State, fight: Fight, helpers: bool = True) -> list[Unit]:
    ids = (*fight.attackers, *fight.helpers) if helpers else fight.attackers
    return living(state, ids)


def other(fight: Fight, player: str) -> str:
    return fight.defender if player == fight.attacker else fight.attacker


# -- the Combat Roll ----------------------------------------------------------------------------


def fight(d: Decision) -> None:
    """Both sides roll; the difference (or, on a tie, the weaker side's roll) is lost."""
    current = the_fight(d.state)
    assert current is not None
    attackers = attackers_left(d.state, current)
    defenders = defenders_left(d.state, current)
    if not attackers or not defenders:
        after_battle(d)
        return
    attacking = len(attackers)
    defending = _defending_strength(d, current, defenders)
    a_odds, d_odds = odds(attacking, defending)
    a_mods = _attack_modifiers(d, current, attackers)
    d_mods = _defence_modifiers(d.state, d.data, current, defenders, attacking)
    a_roll = d.dice.roll(f"Combat Roll: {current.attacker} attacking")
    d_roll = d.dice.roll(f"Combat Roll: {current.defender} defending")
    battle = resolve(
        attacking,
        defending,
        a_roll.values[0],
        d_roll.values[0],
        sum(v for _, v in a_mods),
        sum(v for _, v in d_mods),
    )
    ratio = f"odds {a_odds} to {d_odds} ({attacking} against {defending})"
    d.emit(
        a_roll,
        d_roll,
        BattleFought(
            number=current.number,
            kind=current.kind,
            attacker=current.attacker,
            defender=current.defender,
            attacking=attacking,
            defending=defending,
            attacker_roll=a_roll.values[0],
            defender_roll=d_roll.values[0],
            attacker_modifiers=((ratio, a_odds), *a_mods),
            defender_modifiers=((ratio, d_odds), *d_mods),
            attacker_total=battle.attacker_total,
            defender_total=battle.defender_total,
            attacker_losses=min(battle.attacker_losses, attacking),
            defender_losses=min(battle.defender_losses, len(defenders)),
        ),
    )
    proceed(d)


def _defending_strength(d: Decision, current: Fight, defenders: list[Unit]) -> int:
    if current.kind == BREAKOUT_KIND:
        return len(defenders)
    total = 0
    for space in sorted({u.hex for u in defenders}):
        here = sum(u.hex == space for u in defenders)
        total += defence_strength(here, _terrain(d.data, space))
    return total


def _terrain(data: DRData, hex_: Hex) -> frozenset[str]:
    place = data.map.get(*hex_)
    return frozenset(str(t) for t in place.terrain) if place else frozenset()


def _attack_modifiers(d: Decision, current: Fight, attackers: list[Unit]) -> list[tuple[str, int]]:
    heroes = _heroes_with(d.state, current.attacker, {u.hex for u in attackers})
    return modifiers(d.state, d.data, attackers, heroes, attacking=True)


def _defence_modifiers(
    state: State, data: DRData, current: Fight, defenders: list[Unit], attacking: int
) -> list[tuple[str, int]]:
    heroes = _heroes_with(state, current.defender, set(current.spaces))
    mods = modifiers(state, data, defenders, heroes, attacking=False)
    if current.kind == BREAKOUT_KIND:
        return mods
    if all(defence_bonus(_terrain(data, u.hex)) for u in defenders):
        mods.append(("defending in a mountain", 1))
    if current.kind == LAND:
        for space in sorted({u.hex for u in defenders}):
            fleets = _supporting_fleets(state, current.attacker, space)
            canal = canal_defence(data, space, attacking, fleets)
            if canal:
                mods.append(("the canals of Parros", canal))
    return mods


def _supporting_fleets(state: State, player: str, hex_: Hex) -> int:
    """The player's fleets beside (or in) the space: enough of them to carry the land
    attackers means the attack has the support of fleets."""
    return sum(
        1
        for u in state.units.values()
        if is_fleet(u) and state.controller(u) == player and hex_distance(u.hex, hex_) <= 1
    )


def _heroes_with(state: State, player: str, spaces: set[Hex]) -> list[Unit]:
    return [
        u
        for u in state.units.values()
        if is_hero(u) and u.hex in spaces and state.controller(u) == player and u.aboard is None
    ]


def modifiers(
    state: State,
    data: DRData,
    units: Sequence[Unit],
    heroes: Sequence[Unit],
    attacking: bool,
    siege: bool = False,
) -> list[tuple[str, int]]:
    """A side's personality modifiers (its kingdoms' regulars; the one monarch leading it)
    and the -1 of a captive or shipwrecked monarch (Heroes › Hero Combat Bonus; Capture
    of a Monarch; Shipwrecked Heroes)."""
    force = [u for u in units if not is_hero(u)]
    mods = _regular_modifiers(state, data, force, siege)
    mods += _leader_modifier(state, data, force, heroes, siege)
    mods += list(absent_monarch_modifiers(state, data, force, attacking))
    return mods


def _regular_modifiers(
    state: State, data: DRData, force: list[Unit], siege: bool
) -> list[tuple[str, int]]:
    mods = []
    regulars = [u for u in force if u.kingdom != MERCENARY]
    for kingdom in sorted({u.kingdom for u in regulars}):
        share = sum(u.kingdom == kingdom for u in regulars)
        for effect in effects(state, data, kingdom):
            if not _applies(effect, CombatWho.REGULARS, siege):
                continue
            assert isinstance(effect, CombatModifier)
            if effect.condition == CombatCondition.ALWAYS or share * 2 >= len(force):
                mods.append((f"personality of {kingdom}'s monarch: his regulars", effect.value))
    return mods


def _leader_modifier(
    state: State, data: DRData, force: list[Unit], heroes: Sequence[Unit], siege: bool
) -> list[tuple[str, int]]:
    best: tuple[str, int] | None = None
    for hero in heroes:
        if hero.id != monarch_id(hero.kingdom):
            continue
        others = any(u.kingdom not in (hero.kingdom, MERCENARY) for u in force)
        for effect in effects(state, data, hero.kingdom):
            if _applies(effect, CombatWho.LED_FORCE, siege) and not others:
                assert isinstance(effect, CombatModifier)
                if best is None or effect.value > best[1]:
                    best = (f"led by the monarch of {hero.kingdom}", effect.value)
    return [best] if best else []


def _applies(effect: object, who: CombatWho, siege: bool) -> bool:
    return isinstance(effect, CombatModifier) and effect.who == who and (effect.siege or not siege)


# -- losses --------------------------------------------------------------------------------------


def proceed(d: Decision) -> None:
    """Carry the fight on: each side's losses (asked of its owner when he has a choice),
    the withdrawal of a lost amphibious attack, then the advance."""
    while True:
        current = the_fight(d.state)
        if current is None or current.stage not in (BATTLE, WITHDRAWAL):
            return
        if current.due:
            if _losses_due(d, current, *current.due[0]):
                return
        elif current.failed:
            survivors = len(attackers_left(d.state, current, helpers=False))
            count = amphibious_withdrawal(survivors)
            event = WithdrawalLosses(current.number, current.attacker, survivors, count)
            d.emit(event)
        else:
            after_battle(d)
            return


def _losses_due(d: Decision, current: Fight, player: str, count: int) -> bool:
    """Take the player's losses: all his units when they are no more than the losses,
    else ask him which (True: asked, play waits)."""
    candidates = loss_candidates(d.state, current, player)
    if count < len(candidates):
        why = f"choose the {count} unit(s) {player} loses in {_title(current)}"
        d.ask(LOSSES, player, tuple(candidates), count=count, why=why)
        return True
    units = living(d.state, candidates)
    eliminate(d, player, units, other(current, player), _title(current), True)
    return False


def _title(current: Fight) -> str:
    return "the breakout" if current.number == 0 else f"attack {current.number}"


def loss_candidates(state: State, current: Fight, player: str) -> list[str]:
    """The units the player may lose: those engaged on his side (the units inside a
    besieged castle that assisted an amphibious attack are spared its withdrawal)."""
    if player == current.defender:
        return [u.id for u in defenders_left(state, current)]
    helpers = current.stage != WITHDRAWAL
    return [u.id for u in attackers_left(state, current, helpers=helpers)]


def eliminate(
    d: Decision,
    player: str,
    units: Sequence[Unit],
    enemy: str | None,
    why: str,
    losses: bool = False,
) -> None:
    """Units lost: the units aboard lost fleets go with them (heroes aboard roll, and may
    be cast away); the heroes of each stack that lost units roll (trigger 1)."""
    for fleet in units:
        if is_fleet(fleet) and aboard(d.state, fleet):
            shipwreck(d, fleet, by=enemy)
    ids = tuple(u.id for u in units if u.id in d.state.units)
    d.emit(UnitsEliminated(player=player, units=ids, why=why, losses=losses))
    if enemy is None:
        return
    for hex_ in sorted({u.hex for u in units}):
        stack_losses(d, hex_, player, enemy)


def take_losses(d: Decision) -> None:
    """`losses units=A,B,...`: the units the player chooses to lose."""
    pending = asked_now(d.state)
    chosen = names(d.call.get("units"), MAKING_ATTACKS)
    wrong = [u for u in chosen if u not in pending.options]
    if wrong:
        raise IllegalCommand(
            f"{', '.join(wrong)} cannot be lost here; choose from {', '.join(pending.options)}",
            MAKING_ATTACKS,
        )
    if len(chosen) != pending.count:
        raise IllegalCommand(
            f"name {pending.count} unit(s) to lose, not {len(chosen)}", MAKING_ATTACKS
        )
    units = [d.state.units[u] for u in chosen]
    current = the_fight(d.state)
    enemy = other(current, pending.player) if current else _castle_side(d, units[0])
    why = _title(current) if current else "a failed siege roll"
    eliminate(d, pending.player, units, enemy, why, True)
    proceed(d)


def chosen(call: Call, pending: Pending, rule: str, refusal: str) -> tuple[str, ...]:
    """The units an answer names (`units`; by default all those offered), each one offered
    (else refused: `refusal` says why)."""
    named = call.get("units")
    units = names(named, rule) if named else pending.options
    wrong = [u for u in units if u not in pending.options]
    if wrong:
        raise IllegalCommand(
            f"{', '.join(wrong)} {refusal} (choose from {', '.join(pending.options)})", rule
        )
    return tuple(units)


def answer_units(
    d: Decision,
    ask: tuple[str, str],
    event: Callable[..., Event],
    then: Callable[[Decision], None],
    *,
    none: bool = False,
) -> None:
    """Answer the decision asked (`ask`: its rule and why a unit is refused) with the units
    the call names (see `chosen`; no units at all when `none`): `event` records them for
    the fight being resolved, and `then` carries the fight on."""
    rule, refusal = ask
    pending = asked_now(d.state)
    units = () if none else chosen(d.call, pending, rule, refusal)
    d.emit(event(number=fight_now(d.state).number, player=pending.player, units=units))
    then(d)


def _castle_side(d: Decision, unit: Unit) -> str | None:
    found = castle(d.state, d.data, unit.hex)
    return castle_side(d.state, found) if found else None


# -- after the battle ------------------------------------------------------------------------


def after_battle(d: Decision) -> None:
    """The attacker may advance into a space the defenders vacated (or, relieving a siege,
    into the castle, win or lose); else the attack is over."""
    current = the_fight(d.state)
    assert current is not None
    options = advance_options(d, current)
    if options and attackers_left(d.state, current, helpers=False):
        why = (
            f"attack {current.number}: advance into {' or '.join(options)} "
            "(advance into SPACE UNIT...), or not (advance none)"
        )
        d.ask(ADVANCE, current.attacker, tuple(options), count=0, why=why)
        return
    d.emit(AttackEnded(number=current.number, why="resolved"))


def advance_options(d: Decision, current: Fight) -> list[str]:
    """The spaces the attacker may advance into: those whose defending units are all
    gone, and a relieved castle."""
    if current.kind == BREAKOUT_KIND:
        return []
    options = [label(d.data, s) for s in current.spaces if vacated(d.state, current, s)]
    if current.relief is not None and current.relief not in options:
        options.append(current.relief)
    return options


def vacated(state: State, current: Fight, space: Hex) -> bool:
    """No defending unit is left outside in the space (no land unit, after an amphibious
    attack)."""
    return not any(
        u.hex == space and not u.inside and (current.kind != AMPHIBIOUS or not is_fleet(u))
        for u in defenders_left(state, current)
    )


# -- evolve --------------------------------------------------------------------------------------


def close_pending(state: State, *kinds: str) -> State:
    """The state with the decision asked now answered, if it is of one of `kinds`."""
    pending = state.turn.progress.pending if state.turn else None
    if pending is not None and pending.kind in kinds:
        return state.with_progress(pending=None)
    return state


def _with_fight(state: State, **changes: Any) -> State:
    current = the_fight(state)
    assert current is not None
    return state.with_progress(fight=dataclasses.replace(current, **changes))


def _begun(state: State, event: AttackBegun) -> State:
    current = Fight(
        number=event.number,
        kind=event.kind,
        attacker=event.attacker,
        defender=event.defender,
        attackers=event.attackers,
        defenders=event.defenders,
        spaces=event.spaces,
        stage=BEFORE,
        relief=event.relief,
        helpers=event.helpers,
    )
    state = state.with_progress(fight=current)
    if event.kind == BREAKOUT_KIND:
        state = engage(state, event.attackers, BREAKOUT)
    return state


def _fought(state: State, event: BattleFought) -> State:
    due = ((event.attacker, event.attacker_losses), (event.defender, event.defender_losses))
    failed = event.kind == AMPHIBIOUS and event.attacker_losses >= event.defender_losses
    state = close_pending(state, RETREAT)
    assert state.turn is not None
    defended = [u.id for u in defenders_left(state, fight_now(state))]
    state = state.with_progress(fought=(*state.turn.progress.fought, *defended))
    return _with_fight(state, stage=BATTLE, due=tuple(d for d in due if d[1]), failed=failed)


def _eliminated(state: State, event: UnitsEliminated) -> State:
    state = remove(state, event.units)
    if not event.losses:
        return state
    state = close_pending(state, LOSSES)
    current = the_fight(state)
    if current is None:
        return state
    due = tuple(d for d in current.due if d[0] != event.player)
    return _with_fight(state, due=due)


def _withdrawal(state: State, event: WithdrawalLosses) -> State:
    due = ((event.player, event.count),) if event.count else ()
    return _with_fight(state, stage=WITHDRAWAL, due=due, failed=False)


def _stood(state: State, event: DefendersStood) -> State:
    return close_pending(state, RETREAT)


def _retreated(state: State, event: UnitsRetreated) -> State:
    moved = [dataclasses.replace(state.units[u], hex=event.hex, inside=False) for u in event.units]
    state = state.with_units(moved)
    assert state.turn is not None
    state = state.with_progress(retreated=(*state.turn.progress.retreated, *event.units))
    current = the_fight(state)
    if current is None:
        return state
    tries = list(current.tries)
    open_tries = [i for i, t in enumerate(tries) if t.space == event.start and not t.gone]
    if open_tries:
        tries[open_tries[-1]] = dataclasses.replace(tries[open_tries[-1]], gone=True)
    retreated = (*current.retreated, *event.units)
    state = _with_fight(state, tries=tuple(tries), retreated=retreated)
    current = the_fight(state)
    if current is not None and not defenders_left(state, current):
        state = close_pending(state, RETREAT)
    return state


def _advanced(state: State, event: UnitsAdvanced) -> State:
    moved = [
        dataclasses.replace(state.units[u], hex=event.hex, inside=event.inside) for u in event.units
    ]
    carried = [
        dataclasses.replace(state.units[u], hex=event.hex, inside=event.inside, aboard=None)
        if event.landed
        else dataclasses.replace(state.units[u], hex=event.hex)
        for u in event.carried
    ]
    return close_pending(state.with_units([*moved, *carried]), ADVANCE)


def _declined(state: State, event: AdvanceDeclined) -> State:
    return close_pending(state, ADVANCE)


def _ended(state: State, event: AttackEnded) -> State:
    assert state.turn is not None
    attacks = tuple(
        dataclasses.replace(a, resolved=True) if a.number == event.number else a
        for a in state.turn.progress.attacks
    )
    return close_pending(state.with_progress(fight=None, attacks=attacks), RETREAT, ADVANCE)


DECISIONS: dict[str, Answer] = {
    LOSSES: Answer(offered_units),
}


EVOLVERS: Evolvers = {
    AttackBegun: _begun,
    BattleFought: _fought,
    UnitsEliminated: _eliminated,
    WithdrawalLosses: _withdrawal,
    DefendersStood: _stood,
    UnitsRetreated: _retreated,
    UnitsAdvanced: _advanced,
    AdvanceDeclined: _declined,
    AttackEnded: _ended,
}
