"""A three-player game played through six game turns, as a transcript: two activations,
a banishing failure, a siege declared and a royal castle plundered, a battle with a
retreat and an advance, a monarch captured, and a forced peace; `vp`, `kingdoms`,
`sieges` and `banishments` checked as play goes and at earlier positions afterwards.

The board is arranged (`put`) only where marching the armies there would take turns of
quiet movement; every siege, battle, capture and peace is played through commands.
Quiet phases are played by `Table.to_phase` (random events: 7, no event; diplomacy:
draw, no task). Dice are entered by hand. Player order is drawn each turn (derived from
the record, and so from the data files' digests: a change to the data redraws it): carol,
alice, bob on turn 1; bob, carol, alice on turns 2, 3 and 4; alice, carol, bob on turn 5;
carol, bob, alice on turn 6.
"""

from __future__ import annotations

from typing import Any

from warscribe.engine.events import Event
from warscribe.engine.rulesets.divine_right.events import (
    BattleFought,
    CastlePlundered,
    ForcedPeaceBegan,
    HeroFateRolled,
    KingdomActivated,
    MonarchCaptured,
    SiegeDeclared,
    UnitsAdvanced,
    UnitsRetreated,
)
from warscribe.engine.rulesets.divine_right.projections import PROJECTIONS
from warscribe.engine.rulesets.divine_right.state import State

from .board import put
from .play import Table, of


class Transcript(Table):
    """A table that keeps the game as each phase began (`TURN.PLAYER-TURN.PHASE`)."""

    def __init__(self) -> None:
        super().__init__()
        self.positions: dict[str, State] = {}

    def do(self, name: str, *rolls: int, by: str | None = None, **args: Any) -> list[Event]:
        events = super().do(name, *rolls, by=by, **args)
        turn = self.state.turn
        if turn is not None:
            self.positions.setdefault(turn.label, self.state)
        return events

    def to_turn(self, number: int) -> None:
        """Play quiet phases to the start of game turn `number` (whoever is first)."""
        while self.state.number < number:
            turn = self.state.turn
            assert turn is not None
            self.to_phase(turn.number, turn.order[-1], "combat")
            self.do("end-phase")


def query(state: State, name: str) -> Any:
    return PROJECTIONS[name](state)


def status(state: State, kingdom: str) -> dict[str, Any]:
    rows: list[dict[str, Any]] = query(state, "kingdoms")
    return next(row for row in rows if row["kingdom"] == kingdom)


def totals(state: State) -> dict[str, int]:
    points: dict[str, int] = query(state, "vp")["totals"]
    return points


def banished(state: State, player: str) -> list[tuple[str, int | None]]:
    return [(b["kingdom"], b["until_turn"]) for b in query(state, "banishments")[player]]


def test_a_game_of_sieges_battles_captures_and_forced_peace() -> None:
    game = Transcript()
    assert game.state.turn is not None and game.state.turn.order == ("carol", "alice", "bob")

    # Turn 1, carol: nothing happens at random (7); her ambassador wins Pon (6).
    game.do("events-roll", 3, 4)
    game.do("end-phase")
    game.do("diplomacy-draw")
    events = game.do("diplomacy-activate", 6, kingdom="Pon")
    assert of(events, KingdomActivated)[0].ally == "carol"

    # Turn 1, alice: her ambassador wins Immer (6); its king and three armies go within
    # the walls of Castle Altarr.
    game.to_phase(1, "alice", "diplomacy")
    game.do("diplomacy-draw")
    game.do("diplomacy-activate", 6, kingdom="Immer")
    game.to_phase(1, "alice", "movement")
    game.do("inside", units="Castle Altarr")

    # Turn 2 begins: two alliances, no siege, no banishment, no points.
    game.to_turn(2)
    start = game.state
    assert (status(start, "Pon")["ally"], status(start, "Immer")["ally"]) == ("carol", "alice")
    assert query(start, "sieges") == [] and banished(start, "alice") == []
    assert set(totals(start).values()) == {0}

    # Turn 2, carol: six Muetaran armies (marched up beside Castle Altarr) enter it: 6
    # against its defence 3 and the 3 armies inside: a siege is declared.
    game.to_phase(2, "carol", "movement")
    for unit in ("Muetar-A1", "Muetar-A2", "Muetar-A3", "Muetar-A4", "Muetar-A5", "Muetar-A6"):
        put(game, unit, (13, 6))
    events = game.do("move", units="13,6", path="Castle Altarr")
    assert of(events, SiegeDeclared)[0].castle == "Castle Altarr"

    # Turn 2, alice: a Black Magic +3 on Zorn fails (1): her ambassador is banished from
    # Zorn for four full turns (until turn 7).
    game.to_phase(2, "alice", "diplomacy")
    game.do("diplomacy-draw")
    game.do("diplomacy-activate", 1, kingdom="Zorn", card="black-magic+3#1")
    assert banished(game.state, "alice") == [("Zorn", 7)]

    # Turn 3 begins: the siege stands, valid, 6 against 3 + 3.
    game.to_turn(3)
    siege = query(game.state, "sieges")[0]
    assert (siege["castle"], siege["besieger"], siege["besieging"], siege["inside"]) == (
        "Castle Altarr",
        "carol",
        6,
        3,
    )
    assert siege["valid"] and not siege["displaced_at_end_of_turn"]

    # Turn 3, carol: her Siege Roll is a 6: Castle Altarr is plundered, its three armies
    # eliminated; the king of Immer inside rolls a 6 and is captured (held at Pennol).
    game.to_phase(3, "carol", "siege")
    events = game.do("siege-attack", 6, 6, castles="Castle Altarr")
    assert of(events, CastlePlundered)[0].eliminated == ("Immer-A1", "Immer-A2", "Immer-A3")
    assert of(events, HeroFateRolled)[0].result == "captured"
    assert of(events, MonarchCaptured)[0].prison == "Pennol"

    # Turn 3, alice: four Hothioran armies (brought beside Plibba) attack the two Muetaran
    # armies at 16,14 and 15,15 together.
    game.to_phase(3, "alice", "movement")
    for unit in ("Hothior-A1", "Hothior-A2", "Hothior-A3", "Hothior-A4"):
        put(game, unit, (15, 14))
    put(game, "Muetar-A9", (16, 14))
    put(game, "Muetar-A10", (15, 15))
    game.to_phase(3, "alice", "combat")
    game.do("attack-declare", attacks=("15,14>16,14,15,15",))
    game.do("attack-resolve", number=1)

    # carol rolls to retreat the army at 16,14 (5: humans go on 4-6) and takes it to
    # 16,13; the army at 15,15 stands.
    game.do("retreat-roll", 5, by="carol", space="16,14")
    events = game.do("retreat-to", by="carol", space="16,14", to="16,13")
    assert of(events, UnitsRetreated)[0].units == ("Muetar-A9",)

    # The battle: 4 against 1, odds 4 to 1: 3+4 against 2+1: carol loses her army.
    events = game.do("retreat-stand", 3, 2, by="carol")
    battle = of(events, BattleFought)[0]
    assert (battle.attacker_total, battle.defender_total, battle.defender_losses) == (7, 3, 1)

    # alice advances two armies into the vacated 15,15.
    events = game.do("advance-into", to="15,15", units="Hothior-A1,Hothior-A2")
    assert of(events, UnitsAdvanced)[0].hex == (15, 15)

    # Turn 4 begins: carol has 30 for the capture of an allied monarch and 30 (10 x 3)
    # for a plundered royal castle; no siege is left; Immer's king is her captive.
    game.to_turn(4)
    assert totals(game.state) == {"alice": 0, "bob": 0, "carol": 60}
    assert query(game.state, "sieges") == []
    assert status(game.state, "Immer")["monarch"] == "captive of carol"

    # Turn 4, carol: her ambassador passes; she holds Immer's king and occupies its
    # plundered royal castle: her Forced Peace roll is a 5, for 1 turn (until turn 6).
    game.to_phase(4, "carol", "diplomacy")
    game.do("diplomacy-draw")
    game.do("diplomacy-pass")
    events = game.do("diplomacy-force-peace", 5, 1, kingdom="Immer")
    assert of(events, ForcedPeaceBegan)[0].until == 6

    # Turn 5 begins: Immer is under Forced Peace; its king is no longer a captive.
    game.to_turn(5)
    immer = status(game.state, "Immer")
    assert (immer["status"], immer["forced_peace_until"]) == ("forced peace", 6)
    assert immer["monarch"] == "off the map"

    # Turn 6 begins: the Forced Peace is over; alice is still banished from Zorn.
    game.to_turn(6)
    orders = [game.positions[f"{n}.1.random-events"].turn for n in range(3, 7)]
    assert [o.order for o in orders if o is not None] == [
        ("bob", "carol", "alice"),
        ("bob", "carol", "alice"),
        ("alice", "carol", "bob"),
        ("carol", "bob", "alice"),
    ]
    assert status(game.state, "Immer")["status"] == "inactive"
    assert banished(game.state, "alice") == [("Zorn", 7)]
    assert totals(game.state)["carol"] == 60

    # Rewinding: the record still shows each earlier position as it was.
    at = game.positions
    assert query(at["3.1.random-events"], "sieges")[0]["castle"] == "Castle Altarr"
    assert query(at["3.2.siege"], "sieges")[0]["valid"]
    assert totals(at["3.2.siege"])["carol"] == 0
    assert totals(at["3.2.movement"])["carol"] == 60
    assert status(at["4.2.diplomacy"], "Immer")["status"] == "active"
    assert status(at["4.2.siege"], "Immer")["status"] == "forced peace"
    assert banished(at["2.3.diplomacy"], "alice") == []
    assert banished(at["2.3.siege"], "alice") == [("Zorn", 7)]
