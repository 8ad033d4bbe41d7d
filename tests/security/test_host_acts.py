"""The host put words in a player's mouth (issue 30): in the referee's store a bare command
went to whoever had to act, with no `--as` and no signed orders (`warscribe events roll`
was recorded as `CommandIssued: alice: events-roll`), and alice's copy verified as
`ok: ... signed orders ... anchored by the host's signature`, its story telling the
command as hers: a whole player turn could be played for her.

A keyed player's decisions are now their signed orders only. The host may still enter a
command in their name (a timeout, a correction), but only as its own act, with a reason
(`--as alice --host-act REASON`): `HostActed` is recorded just before the command,
`verify` counts it apart in every copy, and `log --story`, `audit` and `view` tell it as
the host's. In a game of record version 2 (`GameCreated.record_version`) a keyed
player's command that is none of their signed orders, no standing answer of theirs and
not so marked fails `verify`; an older log still verifies, the command counted as the
host's."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from uuid import UUID

import pytest

from tests.security.conftest import Table, host_enters, new_game, on_turn, rewrite
from warscribe.engine.dice import seeded_key
from warscribe.engine.errors import IllegalCommand, LogError
from warscribe.engine.events import Command, CommandIssued, HostActed
from warscribe.engine.orders import public_key_of
from warscribe.engine.record import (
    Entry,
    fold,
    next_chain,
    open_game,
    record_command,
    record_typed,
    verify,
)
from warscribe.engine.ruleset import GameSpec, PlayerSpec
from warscribe.engine.rulesets import get
from warscribe.store import logfile
from warscribe.store.app import Warscribe

REASON = "no orders by the deadline"


def copy_of(table: Table, player: str) -> None:
    """`player`'s store holds the copy the host exports for them."""
    table.run("export", "--for", player, "-o", f"{player}.wlog")
    table.run("import", f"{player}.wlog", store=player)


def without_host_acts(entries: tuple[Entry, ...]) -> list[Entry]:
    """What a dishonest host makes of its log: the HostActed entries dropped, the entries
    after them renumbered and the chain rebuilt."""
    out: list[Entry] = []
    chain = bytes(32)
    for entry in (e for e in entries if not isinstance(e.event, HostActed)):
        entry = dataclasses.replace(entry, seq=len(out) + 1)
        entry = dataclasses.replace(entry, chain=next_chain(chain, entry))
        out.append(entry)
        chain = entry.chain
    return out


def test_a_bare_command_for_a_keyed_player_is_refused_in_the_hosts_store(table: Table) -> None:
    new_game(table, "host")
    whose = on_turn(table)
    error = table.refused("events", "roll")
    assert f"{whose} has a recorded key" in error
    assert f"--as {whose} --host-act REASON" in error
    assert f"--as {whose} --host-act REASON" in table.refused("roll", "2d6")


def test_naming_a_keyed_player_needs_the_host_act_and_its_reason(table: Table) -> None:
    """`--as alice` without `--host-act` is a usage error (exit 2); an empty reason, one
    with control characters, or a host act for the referee's own note is refused (exit 1);
    orders never carry one. Nothing is recorded."""
    new_game(table, "host")
    whose = on_turn(table)
    before = table.snapshot("referee")
    for args in (("events", "roll"), ("note", "--at", "#1", "my plan")):
        missing = table.run(*args, "--as", whose, ok=False)
        assert missing.exit_code == 2, missing.output
        assert f"--as {whose} --host-act REASON" in missing.stderr
    assert table.snapshot("referee") == before
    assert "needs a reason" in table.refused("events", "roll", "--as", whose, "--host-act", " ")
    forged_line = table.refused("events", "roll", "--as", whose, "--host-act", "late\nTurn 2, ")
    assert "control or invisible characters" in forged_line
    assert "has no recorded key" in table.refused("note", "--at", "#1", "x", "--host-act", "y")
    copy_of(table, whose)
    table.run("init", "--as", whose, "--key", f"{whose}.key", store=whose)
    ordered = f"events roll --host-act '{REASON}'"
    line = table.run("orders", "-o", "o.txt", ordered, store=whose, ok=False)
    assert line.exit_code == 2 and "drop --host-act" in line.stderr


def test_a_host_act_is_recorded_as_such_and_every_copy_counts_it_apart(table: Table) -> None:
    new_game(table, "host")
    whose = on_turn(table)
    told = table.run("events", "roll", "--as", whose, "--host-act", REASON).stdout
    assert f"HostActed: the host enters the next command for {whose}: {REASON}" in told
    copy_of(table, whose)
    for store in ("referee", whose):
        checked = table.run("verify", store=store).stdout
        assert checked.startswith("ok: ") and f"1 entry entered by the host for {whose}" in checked
        report = json.loads(table.run("verify", "--json", store=store).stdout)
        assert report["host_entered"] == {whose: 1}
    story = table.run("log", "--story", store=whose).stdout
    assert f"\nthe host for {whose} ({REASON}): {whose} rolled " in story
    assert f"\n{whose} rolled " not in story, "the command is not told as the player's own"
    audit = table.run("audit", store=whose).stdout
    assert f"the host for {whose} ({REASON}): events-roll (entered by the host" in audit
    assert "1 entered by the host in a player's name" in audit
    acts = json.loads(table.run("audit", "--json", store=whose).stdout)["host_acts"]
    assert [(a["player"], a["reason"], a["command"]) for a in acts] == [
        (whose, REASON, "events-roll")
    ]


def test_a_host_act_for_a_player_makes_their_pending_orders_stale(table: Table) -> None:
    new_game(table, "host")
    whose = on_turn(table)
    copy_of(table, whose)
    table.run("init", "--as", whose, "--key", f"{whose}.key", store=whose)
    table.run("orders", "-o", "orders.txt", "events roll", store=whose)
    host_enters(table, "events", "roll", reason=REASON)
    error = table.refused("import-orders", "orders.txt")
    assert "stale: written at #" in error
    assert f"the host entered a command for {whose} since (#" in error and REASON in error


def test_in_a_players_own_store_their_command_is_marked_as_typed_there(table: Table) -> None:
    """Seeded dice, so a player's store can roll: alice's own command in her store is not
    refused but marked (it is not signed either); in bob's store it is refused."""
    new_game(table, "seeded:own")
    whose = on_turn(table)
    other = "bob" if whose != "bob" else "carol"
    for player in (whose, other):
        copy_of(table, player)
        table.run("init", "--as", player, "--key", f"{player}.key", store=player)
    assert f"--as {whose} --host-act REASON" in table.refused("events", "roll", store=other)
    told = table.run("events", "roll", store=whose).stdout
    assert f"the next command for {whose}: typed in {whose}'s own store" in told
    assert f"1 entry entered by the host for {whose}" in table.run("verify", store=whose).stdout


def test_no_fork_starts_between_a_host_act_and_its_command(table: Table) -> None:
    new_game(table, "host")
    host_enters(table, "events", "roll", reason=REASON)
    table.run("export", "-o", "full.wlog")
    log = logfile.read(Path("full.wlog").read_bytes())
    seq = next(e.seq for e in log.entries if isinstance(e.event, HostActed))
    assert "inside a decision" in table.refused("fork", "--at", f"#{seq}", "--name", "w")
    table.run("fork", "--at", f"#{seq - 1}", "--name", "before-the-act")


def test_a_hosts_log_with_the_mark_dropped_and_re_signed_fails_verify(table: Table) -> None:
    """The host drops its HostActed entry, rebuilds the chain and signs the new head with
    its own key: the copy is anchored, but the command reads as one alice never signed."""
    new_game(table, "host")
    whose = host_enters(table, "events", "roll", reason=REASON)
    table.run("export", "--for", "bob", "-o", "bob.wlog")
    log = logfile.read(Path("bob.wlog").read_bytes())
    forged = without_host_acts(log.entries)
    head = forged[-1]
    app = Warscribe("referee.db")
    try:
        checkpoint = app.checkpoint(log.game_id, head.seq, head.chain)
    finally:
        app.close()
    Path("forged.wlog").write_bytes(rewrite(log, forged, checkpoint=checkpoint))
    error = table.refused("import", "forged.wlog", store="bob")
    issued = next(e.seq for e in forged if getattr(e.event, "name", None) == "events-roll")
    assert f"#{issued}: `events-roll` is recorded as {whose}'s command" in error
    assert "not marked as the host's act" in error


def _keyed_game(version: int) -> tuple[list[Entry], str]:
    """A game with the players' keys, of record `version`, in which a bare command for the
    player on turn was recorded as earlier versions of the host's store did, unmarked; and
    that player."""
    spec = GameSpec("old", (PlayerSpec("alice", "Hothior"), PlayerSpec("bob", "Mivior")))
    keys = tuple((n, public_key_of(bytes([i]) * 32)) for i, n in enumerate(("alice", "bob")))
    key = seeded_key("old")
    ruleset = get("divine-right")
    log = open_game(ruleset, spec, UUID(int=30), "seeded:old", key, keys, record_version=version)
    head = fold(log)
    whose = ruleset.whose_turn(head.state)
    assert whose is not None
    return [*log, *record_command(head, Command(whose, "events-roll"), key)], whose


@pytest.mark.parametrize("version", [1, 2])
def test_an_unmarked_keyed_command_fails_a_version_2_log_and_counts_in_an_older_one(
    version: int,
) -> None:
    log, whose = _keyed_game(version)
    issued = next(e.seq for e in log if getattr(e.event, "name", None) == "events-roll")
    if version == 1:
        assert verify(log).host_entered == {whose: 1}, "counted apart, not refused"
        return
    with pytest.raises(LogError) as refused:
        verify(log)
    assert refused.value.seq == issued and f"{whose} has a recorded key" in str(refused.value)


def test_an_older_log_still_imports_and_verifies_with_the_hosts_commands_counted(
    table: Table,
) -> None:
    log, whose = _keyed_game(1)
    created = log[0].event
    Path("old.wlog").write_bytes(
        logfile.write(
            entries=log,
            game_id=UUID(int=30),
            name="old",
            ruleset="divine-right",
            players=("alice", "bob"),
            checkpoint=None,
        )
    )
    assert getattr(created, "record_version", None) == 1
    table.run("import", "old.wlog", store="old")
    checked = table.run("verify", store="old").stdout
    assert checked.startswith("ok: ") and f"1 entry entered by the host for {whose}" in checked


def test_the_record_marks_a_host_act_and_refuses_an_unmarked_one() -> None:
    """The engine's rule, whatever calls it: `record_typed` records HostActed before a
    keyed player's command, and refuses one without a reason."""
    played, whose = _keyed_game(2)
    log = played[: next(i for i, e in enumerate(played) if isinstance(e.event, CommandIssued))]
    head = fold(log)
    command = Command(whose, "events-roll")
    with pytest.raises(IllegalCommand, match=f"{whose} has a recorded key"):
        record_typed(head, command, seeded_key("old"))
    marked = record_typed(head, command, seeded_key("old"), host_act=REASON)
    assert marked[0].event == HostActed(player=whose, reason=REASON)
    assert verify([*log, *marked]).host_entered == {whose: 1}
