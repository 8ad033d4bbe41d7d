"""The Divine Right rule set: decide and evolve over the game state."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from warscribe.engine.codec import sorted_map
from warscribe.engine.dice import Dice
from warscribe.engine.errors import InvalidCommand
from warscribe.engine.events import Command, DataRef, Event, GameCreated
from warscribe.engine.orders import Answers
from warscribe.engine.ruleset import GameSpec, LegalCommand, names

from . import (
    answers,
    diplomacy,
    heroes,
    legal,
    projections,
    random_events,
    reentry,
    turn,
)
from .combat import fight, resolve
from .data import DRData, load_custom
from .evolving import Outcome, evolve
from .movement import fleets, move
from .placement import choice
from .rulebook import RULEBOOK
from .sections import (
    ACTIVATION_ATTEMPTS,
    ACTIVATION_OF_KINGDOMS,
    ADVANCE_AFTER_COMBAT,
    AMPHIBIOUS_ATTACKS,
    ASSASSINATION_ATTEMPTS,
    BESIEGER_DISPLACEMENT,
    BREAKOUTS,
    CAPTURE_OF_A_MONARCH,
    DEACTIVATION_ATTEMPTS,
    DIPLOMACY_CARDS,
    DUELING,
    FATE_ROLL,
    FORCED_PEACE_ATTEMPTS,
    GAME_TURN,
    INACTIVE_KINGDOMS,
    INSIDE_OUTSIDE,
    MAKING_ATTACKS,
    MOVEMENT_PHASE,
    ONGOING_SIEGES,
    RANDOM_EVENTS_PHASE,
    REENTRY,
    RESOLVING_A_SIEGE,
    RESOLVING_DIPLOMACY,
    RETREAT_BEFORE_COMBAT,
    RIVER_FLEETS,
    SHIPWRECKED_HEROES,
    TRANSPORTING_TROOPS,
)
from .setup import check_players, setup_events
from .siege import phase
from .state import KingdomState, State
from .tables import Rulebook

Decision = Callable[[State, Command, DRData, Dice], Outcome]

COMMANDS: dict[str, Decision] = {
    "end-phase": turn.end_phase,
    "diplomacy-draw": diplomacy.draw,
    "diplomacy-activate": diplomacy.activation,
    "diplomacy-deactivate": diplomacy.deactivation,
    "diplomacy-assassinate": diplomacy.assassination,
    "diplomacy-duel": diplomacy.duel,
    "diplomacy-force-peace": diplomacy.forced_peace,
    "diplomacy-pass": diplomacy.pass_,
    "discard": diplomacy.discard,
    "rejoin": reentry.rejoin,
    **random_events.COMMANDS,
    **move.COMMANDS,
    "embark": fleets.embark,
    "debark": fleets.debark,
    "prisoner-execute": heroes.execute,
    "prisoner-free": heroes.free,
    "castaway-stay": heroes.castaway_decision,
    "castaway-eliminate": heroes.castaway_decision,
    **phase.COMMANDS,
    **resolve.COMMANDS,
    "losses": fight.take_losses,
    **choice.COMMANDS,
}


ARGS: dict[str, tuple[str, ...]] = {
    "end-phase": (),
    "diplomacy-draw": (),
    "diplomacy-activate": ("kingdom", "card"),
    "diplomacy-deactivate": ("kingdom", "card"),
    "diplomacy-assassinate": ("kingdom",),
    "diplomacy-duel": ("player",),
    "diplomacy-force-peace": ("kingdom",),
    "diplomacy-pass": (),
    "discard": ("cards",),
    "events-roll": (),
    "events-lose": ("unit", "units"),
    "events-replace": ("unit", "at"),
    "events-reinforce": ("kind", "unit", "at"),
    "events-decline": (),
    "rejoin": ("consent",),
    "move": ("units", "path", "leader"),
    "ferry": ("units", "path", "leader", "fleet"),
    "embark": ("fleet", "units"),
    "debark": ("fleet", "units"),
    "inside": ("units",),
    "outside": ("units",),
    "search": ("units",),
    "disband": ("units",),
    "prisoner-execute": ("kingdom",),
    "prisoner-free": ("kingdom",),
    "siege-attack": ("castles",),
    "siege-displace": ("units", "to", "lose"),
    "siege-keep": ("kingdom",),
    "siege-lift": ("kingdom", "to"),
    "breakout": ("castle",),
    "attack-declare": ("attacks",),
    "attack-resolve": ("number", "retreated"),
    "retreat-roll": ("space", "fleets", "groups"),
    "retreat-to": ("to", "space", "fleets", "groups", "heroes"),
    "retreat-stand": (),
    "losses": ("units",),
    "advance-into": ("to", "units", "inside"),
    "advance-none": (),
    "sortie": ("units",),
    "sortie-none": (),
    "pursue": ("units",),
    "pursue-none": (),
    "place": ("units", "at"),
    "castaway-stay": (),
    "castaway-eliminate": (),
}


SECTIONS: dict[str, str] = {
    "end-phase": GAME_TURN,
    "events-": RANDOM_EVENTS_PHASE,
    "diplomacy-draw": DIPLOMACY_CARDS,
    "discard": DIPLOMACY_CARDS,
    "diplomacy-activate": ACTIVATION_ATTEMPTS,
    "diplomacy-deactivate": DEACTIVATION_ATTEMPTS,
    "diplomacy-assassinate": ASSASSINATION_ATTEMPTS,
    "diplomacy-duel": DUELING,
    "diplomacy-force-peace": FORCED_PEACE_ATTEMPTS,
    "diplomacy-pass": RESOLVING_DIPLOMACY,
    "rejoin": REENTRY,
    "move": MOVEMENT_PHASE,
    "ferry": RIVER_FLEETS,
    "embark": TRANSPORTING_TROOPS,
    "debark": TRANSPORTING_TROOPS,
    "inside": INSIDE_OUTSIDE,
    "outside": INSIDE_OUTSIDE,
    "search": FATE_ROLL,
    "disband": INACTIVE_KINGDOMS,
    "prisoner-": CAPTURE_OF_A_MONARCH,
    "castaway-": SHIPWRECKED_HEROES,
    "siege-attack": RESOLVING_A_SIEGE,
    "siege-displace": BESIEGER_DISPLACEMENT,
    "siege-keep": ONGOING_SIEGES,
    "siege-lift": ONGOING_SIEGES,
    "breakout": BREAKOUTS,
    "attack-": MAKING_ATTACKS,
    "losses": MAKING_ATTACKS,
    "retreat-": RETREAT_BEFORE_COMBAT,
    "pursue": RETREAT_BEFORE_COMBAT,
    "advance-": ADVANCE_AFTER_COMBAT,
    "sortie": AMPHIBIOUS_ATTACKS,
    "place": ACTIVATION_OF_KINGDOMS,
}


def rule_of(command: str) -> str | None:
    """The rulebook section a command is decided by (the audit cites it)."""
    if command in SECTIONS:
        return SECTIONS[command]
    return next((s for prefix, s in SECTIONS.items() if command.startswith(prefix)), None)


def _check_args(command: Command) -> None:
    allowed = ARGS.get(command.name)
    extra = [name for name, _ in command.args if allowed is not None and name not in allowed]
    if extra:
        raise InvalidCommand(
            f"`{command.name}` takes no {', '.join(extra)} in divine-right "
            f"(its arguments: {', '.join(allowed or ()) or 'none'})",
            GAME_TURN,
        )


class DivineRight:
    """Divine Right, basic game."""

    name = "divine-right"
    rulebook: Rulebook = RULEBOOK
    projections: Mapping[str, Callable[[Any], Any]] = projections.PROJECTIONS

    def validate_spec(self, spec: GameSpec) -> tuple[DataRef, ...]:
        data = load_custom(_custom(spec.options))
        check_players(spec, data)
        return data.refs

    def setup(self, state: State, spec: GameSpec, dice: Dice) -> list[Event]:
        return setup_events(spec, load_custom(_custom(spec.options)), dice)

    def decide(self, state: State, command: Command, dice: Dice) -> list[Event]:
        decision = COMMANDS.get(command.name)
        if decision is None:
            raise InvalidCommand(
                f"unknown command {command.name!r}; "
                f"commands now: {', '.join(self.legal_commands(state))}",
                GAME_TURN,
            )
        _check_args(command)
        data = data_of(state)
        out = decision(state, command, data, dice)
        turn.settle(out, data, dice)
        return out.events

    def evolve(self, state: State | None, event: Event) -> State:
        if state is None:
            assert isinstance(event, GameCreated)
            return _created(event, load_custom(_custom(event.options)))
        return evolve(state, event)

    def position(self, state: State) -> str | None:
        return state.turn.label if state.turn else None

    def whose_turn(self, state: State) -> str | None:
        if state.turn is None or state.outcome is not None:
            return None
        pending = state.turn.progress.pending
        return pending.player if pending else state.turn.player

    def legal(self, state: State) -> tuple[LegalCommand, ...]:
        return legal.legal(state, data_of(state), self.decide)

    def legal_commands(self, state: State) -> tuple[str, ...]:
        return names(self.legal(state), self.whose_turn(state), legal.spelled)

    def summary(self, state: State) -> dict[str, Any]:
        return projections.summary(state)

    def rule_of(self, command: str) -> str | None:
        return rule_of(command)

    def check_answer(self, args: tuple[tuple[str, Any], ...]) -> None:
        answers.check(args)

    def standing_answer(
        self, state: State, player: str, given: Answers, following: Command | None
    ) -> tuple[int, Command] | None:
        return answers.standing_answer(state, data_of(state), self.decide, player, given, following)


def _custom(options: tuple[tuple[str, Any], ...]) -> tuple[tuple[str, str], ...]:
    """A group's own data files, as given to `new` and recorded in GameCreated."""
    files: tuple[tuple[str, str], ...] = dict(options).get("data_files", ())
    return files


def data_of(state: State) -> DRData:
    """The data the game was created with."""
    return load_custom(state.custom_data)


def _created(event: GameCreated, data: DRData) -> State:
    options = dict(event.options)
    return State(
        players=(),
        kingdoms=sorted_map({k.name: KingdomState(name=k.name) for k in data.basic_kingdoms()}),
        units={},
        mercenary_pool=tuple(m.id for m in data.mercenaries),
        reentry=bool(options.get("reentry", False)),
        custom_data=_custom(event.options),
        data=tuple((ref.name, ref.digest) for ref in event.data),
    )
