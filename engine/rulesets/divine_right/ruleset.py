"""The Divine Right rule set on the one core (`warscribe.engine.rulebook.RuleBook`): its
commands (`specs`), its evolvers and hooks (`rulebook`), projections and what `new` takes."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from warscribe.engine.codec import sorted_map
from warscribe.engine.commands import FILE_TEXT, FLAG, Arg, CommandSpec
from warscribe.engine.dice import Dice
from warscribe.engine.events import Command, DataRef, Event, GameCreated
from warscribe.engine.rulebook import Evolvers, Hook, NewSpec, RuleBook, Waiting
from warscribe.engine.ruleset import GameSpec, LegalCommand, Projection

from . import answers, domains, projections, turn
from .data import DRData, load_custom
from .evolving import asking, asking_next, next_decision
from .rulebook import RULEBOOK
from .sections import GAME_TURN, VICTORY
from .setup import check_players, setup_events
from .specs import GROUPS, data_of
from .state import KingdomState, State
from .tables import Rulebook

if TYPE_CHECKING:  # signed orders: imported where they are read, not with the rules
    from warscribe.engine.orders import Answers

DATA_FILES = ("deck", "personalities", "map")
"""The options of `new` that replace a data file (recorded together as `data_files`)."""


def _created(event: GameCreated) -> State:
    data = load_custom(_custom(event.options))
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


EVOLVERS = Evolvers(
    "Divine Right",
    _created,
    {kind: asking_next(evolver) for kind, evolver in RULEBOOK.evolvers.items()},
    tuple(RULEBOOK.informational),
)
_EVOLVERS = RULEBOOK.evolvers
_UNCHANGED = RULEBOOK.informational - {GameCreated}


class DivineRight(RuleBook[State]):
    """Divine Right, basic game."""

    name = "divine-right"
    prefix = "dr"
    rule = GAME_TURN
    commands: Mapping[str, CommandSpec[State]] = domains.SPECS
    on_trial = domains.TRIED
    evolvers = EVOLVERS
    hooks = (Hook("settle", turn.settle),)
    projections: Mapping[str, Projection] = projections.PROJECTIONS
    groups = GROUPS
    sequence = RULEBOOK.phases
    turn_order = RULEBOOK.turn_order
    over_rule = VICTORY
    asking = staticmethod(asking)
    presenter = f"{__package__}.present.presenter:PRESENTER"
    new = NewSpec(
        "Set up a Divine Right basic game: identity cards, deployment, personality cards, "
        "the diplomacy deck and turn 1's player order, all recorded.",
        (
            "new divine-right --player alice --player bob=Muetar --dice seeded:7",
            "new divine-right --player a --player b --deck our-deck.json",
            "new divine-right --player a --player b --key a=a.pub --key b=b.pub",
        ),
        player="NAME[=KINGDOM]",
        player_help="A player (2-6); =KINGDOM chooses the identity card instead of drawing it.",
        options=(
            Arg(
                "reentry",
                FLAG,
                "Optional rule: eliminated players may re-enter with a new kingdom.",
            ),
            Arg("deck", FILE_TEXT, "Your edition's diplomacy deck file."),
            Arg("personalities", FILE_TEXT, "Your edition's personality card file."),
            Arg("map", FILE_TEXT, "A corrected map file."),
        ),
    )
    rulebook: Rulebook = RULEBOOK

    def evolve(self, state: State | None, event: Event) -> State:
        """What `EVOLVERS` does, in one call for an event of a game under way (a replay
        folds thousands, most of them the record's own): the rulebook's evolver for its
        class then the next queued decision, or the state unchanged; the initial state,
        and any event the rulebook does not name, go through `EVOLVERS`."""
        if state is not None:
            cls = event.__class__
            evolver = _EVOLVERS.get(cls)
            if evolver is not None:
                return next_decision(evolver(state, event))
            if cls in _UNCHANGED:
                return state
        return self.evolvers.evolve(state, event)

    def options(self, given: tuple[tuple[str, Any], ...]) -> tuple[tuple[str, Any], ...]:
        """`reentry` as given; the data files together as `data_files` (kind, text)."""
        found = dict(given)
        files = tuple((kind, found[kind]) for kind in DATA_FILES if kind in found)
        reentry = (("reentry", True),) if found.get("reentry") else ()
        return reentry + ((("data_files", files),) if files else ())

    def validate_spec(self, spec: GameSpec) -> tuple[DataRef, ...]:
        data = load_custom(_custom(spec.options))
        check_players(spec, data)
        return data.refs

    def setup(self, state: State, spec: GameSpec, dice: Dice) -> list[Event]:
        return setup_events(state, spec, load_custom(_custom(spec.options)), dice)

    def data(self, state: State) -> DRData:
        return data_of(state)

    def pending(self, state: State) -> Waiting | None:
        waiting = state.turn.progress.pending if state.turn else None
        return Waiting(waiting.kind, waiting.player, waiting.why) if waiting else None

    def current_phase(self, state: State) -> str | None:
        return state.turn.phase if state.turn else None

    def on_turn(self, state: State) -> str | None:
        return state.turn.player if state.turn else None

    def position(self, state: State) -> str | None:
        return state.turn.label if state.turn else None

    def whose_turn(self, state: State) -> str | None:
        if state.turn is None or state.outcome is not None:
            return None
        pending = state.turn.progress.pending
        return pending.player if pending else state.turn.player

    _last_legal: tuple[State, tuple[LegalCommand, ...]] | None = None

    def legal(self, state: State) -> tuple[LegalCommand, ...]:
        """What the rules accept now; kept for the last state asked about (a status asks
        for the commands, the lines to type and the text, all of one state)."""
        last = self._last_legal
        if last is not None and last[0] is state:
            return last[1]
        offers = super().legal(state)
        self._last_legal = (state, offers)
        return offers

    def offered(self, state: State) -> Iterator[tuple[str, CommandSpec[State]]]:
        """The answers to the decision asked, else the phase's commands of whose turn it
        is (`RuleBook.offered`); and, at any time, rejoining to the eliminated players."""
        if state.turn is None or state.outcome is not None:
            return
        yield from super().offered(state)
        rejoin = self.commands["rejoin"]
        yield from ((p.name, rejoin) for p in state.players if p.eliminated)

    def context(self, state: State) -> DRData:
        return data_of(state)

    def summary(self, state: State) -> dict[str, Any]:
        return projections.summary(state)

    def over(self, state: State) -> bool:
        """Ended by Victory A (one player monarch left) or B (after turn 20): `GameEnded`."""
        return state.outcome is not None

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
