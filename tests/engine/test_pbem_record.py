"""The record's side of play by email: leaf commitments and disclosures, redaction,
concealed shuffles, signed orders in the log, rulings and the audit, for both rule sets."""

from __future__ import annotations

import dataclasses
from typing import Any
from uuid import UUID

import pytest

from tests.engine.eu_pop.table import Table as EuTable
from tests.engine.eu_pop.table import position
from warscribe.engine.audit import DIFFERENCE, RULING, audit
from warscribe.engine.dice import seeded_key
from warscribe.engine.errors import LogError
from warscribe.engine.events import Command, Disclosed, GameCreated, Opening, SecretDraw
from warscribe.engine.hidden import check_disclosure, commit, disclose, leaf_digests, redacted
from warscribe.engine.orders import Orders, public_key_of, sign
from warscribe.engine.record import (
    Entry,
    fold,
    next_chain,
    open_game,
    record_command,
    record_orders,
    verify,
)
from warscribe.engine.ruleset import GameSpec, PlayerSpec
from warscribe.engine.rulesets import get
from warscribe.engine.rulesets.divine_right.events import (
    DiplomacyDeckShuffled,
    PersonalitiesDealt,
    PersonalityRevealed,
)
from warscribe.engine.rulesets.eu_pop.events import LoanTaken

GAME = UUID(int=99)
KEYS = {"alice": bytes(32), "bob": bytes(range(32))}


def dr_game(seed: str = "7") -> list[Entry]:
    spec = GameSpec("t", (PlayerSpec("alice", "Hothior"), PlayerSpec("bob", "Mivior")))
    keys = tuple((n, public_key_of(k)) for n, k in KEYS.items())
    return open_game(get("divine-right"), spec, GAME, f"seeded:{seed}", seeded_key(seed), keys)


def rechain(entries: list[Entry]) -> list[Entry]:
    out, chain = [], bytes(32)
    for entry in entries:
        entry = dataclasses.replace(entry, chain=next_chain(chain, entry))
        out.append(entry)
        chain = entry.chain
    return out


def test_shuffles_of_hidden_decks_are_secret_draws_and_verify_when_redacted() -> None:
    entries = dr_game()
    kinds = [type(e.event) for e in entries]
    for hidden in (PersonalitiesDealt, DiplomacyDeckShuffled):
        assert kinds[kinds.index(hidden) - 1] is SecretDraw
    stripped = [
        dataclasses.replace(e, event=redacted(e.event), salt=None) if e.salt else e for e in entries
    ]
    assert [e.chain for e in stripped] == [e.chain for e in entries]
    report = verify(stripped)
    assert report.rolls_checked == report.rolls, "the secret (seed) re-derives hidden draws"
    draw = next(e for e in stripped if isinstance(e.event, SecretDraw))
    assert draw.event.values is None  # type: ignore[attr-defined]


def test_one_personality_card_is_published_and_checked_alone() -> None:
    entries = dr_game()
    dealt = next(e for e in entries if isinstance(e.event, PersonalitiesDealt))
    event = dealt.event
    assert isinstance(event, PersonalitiesDealt) and event.cards and dealt.salt
    kingdom = event.kingdoms[2]
    revealed = PersonalityRevealed(kingdom=kingdom, card=event.cards[2])
    wanted = revealed.discloses(event)
    assert wanted == (("cards", 2),)
    disclosed = disclose(dealt.seq, event, dealt.salt, wanted)
    assert [o.value for o in disclosed.openings] == [event.cards[2]]
    check_disclosure(disclosed, dealt.digest, 99)
    lie = dataclasses.replace(disclosed.openings[0], value=event.cards[3])
    with pytest.raises(LogError, match="does not match"):
        check_disclosure(dataclasses.replace(disclosed, openings=(lie,)), dealt.digest, 99)
    assert commit(dealt.salt, {"cards": event.cards, "pool": event.pool}, 2) == dealt.digest
    assert len(leaf_digests(dealt.salt, {"cards": event.cards, "pool": event.pool})) > 10


def test_a_forged_disclosure_in_a_log_is_caught_by_verify() -> None:
    entries = dr_game()
    deck = next(e for e in entries if isinstance(e.event, DiplomacyDeckShuffled))
    assert deck.salt is not None
    opened = disclose(deck.seq, deck.event, deck.salt, (("cards", 0),))
    forged = Disclosed(
        seq=deck.seq,
        openings=(Opening(0, "cards", 0, "no-such-card", opened.openings[0].salt),),
        leaves=opened.leaves,
    )
    head = fold(entries)
    tail = Entry(seq=head.seq + 1, event=forged, chain=b"")
    with pytest.raises(LogError, match=f"#{head.seq + 1}"):
        verify(rechain([*entries, tail]))
    honest = Entry(seq=head.seq + 1, event=opened, chain=b"")
    assert verify(rechain([*entries, honest])).disclosures_checked == 1


def _orders(entries: list[Entry], player: str, *commands: str) -> list[Entry]:
    head = fold(entries)
    orders = Orders(GAME, player, None, head.seq, head.chain, tuple((c, ()) for c in commands))
    signed = orders.encode()
    entries, refused = record_orders(
        head, orders, signed, sign(KEYS[player], signed), seeded_key("7")
    )
    assert refused is None
    return entries


def test_signed_orders_in_the_log_are_checked_against_the_recorded_key() -> None:
    entries = dr_game()
    player = get("divine-right").whose_turn(fold(entries).state)
    assert player is not None
    log = entries + _orders(entries, player, "events-roll")
    assert verify(log).orders_checked == 1
    issued = log[len(entries) + 1]
    other = dataclasses.replace(issued.event, name="diplomacy-draw")
    with pytest.raises(LogError, match="signed orders"):
        verify(rechain([*log[: len(entries) + 1], dataclasses.replace(issued, event=other)]))


def test_the_audit_works_for_eu_pop_and_names_its_rule() -> None:
    table = EuTable(position())
    table.do("alice", "take-loan")
    assert audit(table.entries).findings == []
    loan = next(e for e in table.entries if isinstance(e.event, LoanTaken))
    edited = [
        dataclasses.replace(e, event=dataclasses.replace(e.event, ducats=50))  # type: ignore[type-var]
        if e.seq == loan.seq
        else e
        for e in table.entries
    ]
    report = audit(rechain(edited))
    assert [(f.kind, f.seq) for f in report.findings] == [(DIFFERENCE, loan.seq)]
    assert "Take/Repay Loan" in report.findings[0].rule
    verify(rechain(edited))


def test_a_ruling_is_reported_as_a_ruling_and_overrules_differences() -> None:
    table = EuTable(position())
    table.do("alice", "take-loan")
    loan = next(e for e in table.entries if isinstance(e.event, LoanTaken))
    args: tuple[tuple[str, Any], ...] = (
        ("text", "the banker was generous"),
        ("first", loan.seq),
        ("last", loan.seq),
        ("position", None),
    )
    entries = table.entries + record_command(
        table.head, Command("referee", "ruling", (*args, ("impose", ()))), table.key
    )
    edited = [
        dataclasses.replace(e, event=dataclasses.replace(e.event, ducats=50))  # type: ignore[type-var]
        if e.seq == loan.seq
        else e
        for e in entries
    ]
    kinds = [f.kind for f in audit(rechain(edited)).findings]
    assert kinds == [RULING, RULING], "the overruled difference and the ruling itself"


def test_a_run_that_starts_inside_a_batch_of_orders_verifies() -> None:
    """A tail exported from an entry inside a player's batch (`export --from`): the run
    is checked against the head before it, whose batch of orders is still open."""
    entries = dr_game()
    player = get("divine-right").whose_turn(fold(entries).state)
    assert player is not None
    log = entries + _orders(entries, player, "roll", "roll")
    second = max(i for i, e in enumerate(log) if type(e.event).__name__ == "CommandIssued")
    created = log[0].event
    assert isinstance(created, GameCreated)
    report = verify(log[second:], base=fold(log[:second]), created=created)
    assert report.entries == len(log) - second


def test_a_run_inside_a_batch_still_holds_its_commands_to_the_signed_orders() -> None:
    """The referee cannot put words in a player's mouth by starting a tail inside the
    player's batch: the signed orders are found in the entries before the run."""
    entries = dr_game()
    player = get("divine-right").whose_turn(fold(entries).state)
    assert player is not None
    log = entries + _orders(entries, player, "roll", "roll")
    second = max(i for i, e in enumerate(log) if type(e.event).__name__ == "CommandIssued")
    other = dataclasses.replace(log[second].event, name="note")
    forged = rechain([*log[:second], dataclasses.replace(log[second], event=other)])
    created = log[0].event
    assert isinstance(created, GameCreated)
    with pytest.raises(LogError, match="signed orders"):
        verify(
            forged[second:],
            base=fold(forged[:second]),
            created=created,
            earlier=lambda seq: forged[seq - 1],
        )
