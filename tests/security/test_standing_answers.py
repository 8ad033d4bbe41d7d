"""Standing answers (issue 13): a decision the rules ask of a player is answered from the
`answer KIND=POLICY` lines of their signed orders. The answer must come from what the
player signed: a referee who names a line the player never signed fails `verify`, and one
who gives another command than the signed answer gives fails `audit` (and so `import`).

The game: alice plays the Trolls, so the set-up asks her where the Trollish monarch
enters play (Special Rules for Select Kingdoms › Trolls) before play may begin."""

from __future__ import annotations

from uuid import UUID

import pytest

from warscribe.engine.audit import STANDING, audit
from warscribe.engine.errors import LogError
from warscribe.engine.events import AnswerApplied, Command, CommandIssued, OrdersReceived
from warscribe.engine.orders import Orders
from warscribe.engine.record import (
    Entry,
    advance,
    chain_events,
    fold,
    record_command,
    verify,
)
from warscribe.engine.rulesets import get
from warscribe.store.orders import check_answers

from .trolls import PLACE, Commands, TrollGame

GAME = TrollGame(UUID(int=13), "a")
KEY = GAME.key


def start() -> list[Entry]:
    return GAME.start()


def send(log: list[Entry], player: str, commands: Commands) -> list[Entry]:
    """`player`'s signed orders, written against the end of `log`, recorded there."""
    return GAME.received(log, GAME.written(log, player, commands))


def test_the_troll_monarch_is_placed_from_alices_standing_answer() -> None:
    """Alice mails only a standing answer: it places her monarch, recorded as her own
    decision, with the line of her orders it came from; then play may begin."""
    log = start()
    assert get("divine-right").whose_turn(fold(log).state) == "alice"
    entries = send(log, "alice", PLACE)
    received, applied, issued = (e.event for e in entries[:3])
    assert isinstance(received, OrdersReceived) and received.accepted == 0
    assert applied == AnswerApplied(player="alice", orders=entries[0].seq, line=0)
    assert isinstance(issued, CommandIssued) and issued.actor == "alice"
    assert issued.name == "place" and "The Crag" in str(issued.args), "the first space offered"
    log += entries
    turn = fold(log).state.turn
    assert turn is not None and turn.progress.pending is None, "play may begin"
    assert verify(log).orders_checked == 1
    assert not audit(log).differences


def _forge(log: list[Entry], applied: AnswerApplied, command: Command) -> list[Entry]:
    """A referee's log: alice's orders, then `applied` and `command` as they please, the
    chain rebuilt and every outcome decided by the rules."""
    entries = send(log, "alice", PLACE)
    head = fold(entries[:1], fold(log))
    marked = chain_events(head.seq, head.chain, [applied], KEY, GAME.game_id)
    decided = record_command(advance(head, marked[0]), command, KEY)
    return [*log, entries[0], *marked, *decided]


def test_a_referee_cannot_give_another_answer_than_the_signed_one() -> None:
    """The referee places alice's monarch elsewhere and says her standing answer did: the
    chain and the rules' outcome of that placement are sound, so `verify` passes, but the
    audit re-derives the answer and finds the difference."""
    log = start()
    seq = len(log) + 1
    elsewhere = Command("alice", "place", (("at", "The Face"),))
    forged = _forge(log, AnswerApplied("alice", seq, 0), elsewhere)
    verify(forged)
    differences = audit(forged).differences
    assert [d.rule for d in differences] == [STANDING]
    assert differences[0].command == elsewhere


def test_an_answer_no_signed_line_gives_fails_verify() -> None:
    """The referee names a line of alice's orders that holds no standing answer, or
    orders that are not her last: the answer is one nobody signed."""
    log = start()
    seq = len(log) + 1
    place = Command("alice", "place", (("at", "The Crag"),))
    with pytest.raises(LogError, match="an answer nobody signed"):
        verify(_forge(log, AnswerApplied("alice", seq, 1), place))
    with pytest.raises(LogError, match="an answer nobody signed"):
        verify(_forge(log, AnswerApplied("alice", seq - 1, 0), place))
    with pytest.raises(LogError, match="an answer nobody signed"):
        verify(_forge(log, AnswerApplied("bob", seq, 0), place))


def test_an_answer_given_as_another_players_command_fails_verify() -> None:
    log = start()
    roll = Command("bob", "roll", (("dice", "1d6"),))
    forged = _forge(log, AnswerApplied("alice", len(log) + 1, 0), roll)
    with pytest.raises(LogError, match="given as bob's command"):
        verify(forged)


def test_a_standing_answer_that_does_not_fit_is_refused_naming_its_line() -> None:
    for bad, said in (
        ((("retreat", "cheapest"),), "retreat=cheapest: answer retreat with one of"),
        ((("losess", "cheapest"),), "no decision 'losess'"),
        ((("attack", "2"),), "an answer names a decision"),
    ):
        orders = Orders(GAME.game_id, "alice", None, 1, b"", (("end-phase", ()), ("answer", bad)))
        with pytest.raises(Exception, match="line 2 \\(`answer`\\)") as refused:
            check_answers("divine-right", orders)
        assert said in str(refused.value)


def test_the_rolls_of_an_answer_are_bound_to_the_head_its_batch_was_received_at() -> None:
    """An answer's command counts for no command of the batch and rolls from the batch's
    opener: a player cannot move a roll by adding or removing answers."""
    log = start()
    entries = send(log, "alice", PLACE)
    head = fold(entries, fold(log))
    assert head.opener == fold(log).chain and head.batch == 0 and head.answering is None
    assert head.standing == (("alice", entries[0].seq, ((0, PLACE[0][1]),)),)
