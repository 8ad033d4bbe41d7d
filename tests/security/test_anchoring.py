"""A doctored player copy passed (issue 10, hole 4): bob changed a combat die in his
redacted copy and rebuilt the chain; a fresh store imported it and the referee's
`audit --file` said `0 differ`. Every copy the host sends now carries the host's
signature over its last entry (a checkpoint); fingerprints compare heads out of band."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from tests.security.conftest import Table, host_enters, new_game, rebuilt, rewrite
from warscribe.engine.events import DiceRolled
from warscribe.engine.record import Entry
from warscribe.store import logfile


def play_random_events(table: Table, *dice: str) -> None:
    """The host rolls for random events for the player on turn, at the referee's store."""
    host_enters(table, "events", "roll", *dice)


def copy_for(table: Table, player: str) -> logfile.LogFile:
    table.run("export", "--for", player, "-o", f"{player}.wlog")
    return logfile.read(Path(f"{player}.wlog").read_bytes())


def other_die(entry: Entry) -> Entry:
    event = entry.event
    assert isinstance(event, DiceRolled)
    values = (event.values[0] % 6 + 1, *event.values[1:])
    return dataclasses.replace(entry, event=dataclasses.replace(event, values=values))


def last_roll(entries: tuple[Entry, ...]) -> int:
    return max(e.seq for e in entries if isinstance(e.event, DiceRolled))


def test_a_doctored_copy_with_its_chain_rebuilt_is_refused(table: Table) -> None:
    """A changed die is refused by its own proof (record version 2), by any copy, with no
    secret; a change the proofs do not cover (the roll's purpose) by the checkpoint."""
    new_game(table, "host")
    play_random_events(table)
    log = copy_for(table, "bob")
    seq = last_roll(log.entries)
    Path("doctored.wlog").write_bytes(rewrite(log, rebuilt(list(log.entries), seq, other_die)))
    error = table.refused("import", "doctored.wlog", store="fresh")
    assert f"#{seq}: roll" in error and "does not match its proof" in error
    referee = table.run("audit", "--file", "doctored.wlog", ok=False)
    assert referee.exit_code == 1 and referee.stderr.startswith("Error: ")
    assert f"#{seq}: roll" in referee.stderr and "does not match its proof" in referee.stderr
    Path("doctored.wlog").write_bytes(rewrite(log, rebuilt(list(log.entries), seq, other_purpose)))
    error = table.refused("import", "doctored.wlog", store="fresh")
    assert "the host's signature does not cover this entry" in error


def other_purpose(entry: Entry) -> Entry:
    event = entry.event
    assert isinstance(event, DiceRolled)
    return dataclasses.replace(entry, event=dataclasses.replace(event, purpose="a lucky roll"))


def test_a_public_contradiction_in_a_redacted_copy_is_a_difference(table: Table) -> None:
    """Table dice (entered by hand): random events 3+4 = 7, nothing happens. Bob's copy
    says 6+6 and keeps the recorded outcome: that contradicts public information only, so
    the audit reports it as a difference, not as hidden."""
    new_game(table, "table")
    play_random_events(table, "--roll", "3", "--roll", "4")
    log = copy_for(table, "bob")
    seq = last_roll(log.entries)

    def sixes(entry: Entry) -> Entry:
        return dataclasses.replace(entry, event=dataclasses.replace(entry.event, values=(6, 6)))

    Path("doctored.wlog").write_bytes(rewrite(log, rebuilt(list(log.entries), seq, sixes)))
    audited = table.run("audit", "--file", "doctored.wlog", "--json", store="fresh", ok=False)
    assert audited.exit_code == 1
    report = json.loads(audited.stdout)
    assert not report["complete"], "a player's copy"
    kinds = {f["kind"] for f in report["findings"]}
    assert kinds == {"difference"}, report["findings"]


def test_a_cut_tail_is_refused(table: Table) -> None:
    new_game(table, "host")
    play_random_events(table)
    log = copy_for(table, "bob")
    cut = list(log.entries[:-2])
    Path("cut.wlog").write_bytes(rewrite(log, cut))
    error = table.refused("import", "cut.wlog", store="fresh")
    assert f"checkpoint is for entry #{log.to_seq}" in error and "cut or extended tail" in error


def test_a_copy_without_its_checkpoint_is_refused(table: Table) -> None:
    new_game(table, "host")
    log = copy_for(table, "bob")
    Path("bare.wlog").write_bytes(rewrite(log, list(log.entries), checkpoint=None))
    error = table.refused("import", "bare.wlog", store="fresh")
    assert "carries no checkpoint" in error


def test_a_players_store_passes_the_hosts_checkpoint_on(table: Table) -> None:
    new_game(table, "host")
    play_random_events(table)
    copy_for(table, "bob")
    table.run("import", "bob.wlog", store="bob")
    verified = json.loads(table.run("verify", "--json", store="bob").stdout)
    assert verified["anchor"].startswith("anchored by the host's signature at #")
    table.run("export", "-o", "passed-on.wlog", store="bob")
    table.run("import", "passed-on.wlog", store="friend")
    assert table.run("verify", store="friend").stdout.startswith("ok: ")


def test_fingerprints_compare_heads_out_of_band(table: Table) -> None:
    new_game(table, "host")
    play_random_events(table)
    head = json.loads(table.run("status", "--json").stdout)["head"]
    copy_for(table, "bob")
    table.run("import", "bob.wlog", store="bob")
    assert table.run("verify", "--against", head, store="bob").exit_code == 0
    seq, digits = head.split()
    wrong = f"{seq} {'0' * 16 if digits[0] != '0' else 'f' * 16}"
    error = table.refused("verify", "--against", wrong, store="bob")
    assert "the copies differ" in error
    assert "bad fingerprint" in table.refused("verify", "--against", "#3 xyz", store="bob")


@pytest.mark.parametrize("dice", ["seeded:anchor", "table:anchor"])
def test_games_with_public_dice_need_no_host_key(table: Table, dice: str) -> None:
    new_game(table, dice)
    table.run("export", "-o", "full.wlog")
    assert logfile.read(Path("full.wlog").read_bytes()).checkpoint is None
    table.run("import", "full.wlog", store="fresh")


def test_a_fork_in_a_players_store_verifies_and_stays_there(table: Table) -> None:
    """A what-if line a player forks in his own store: the host signs nothing of it, so
    `verify` says so (no error) and `export` refuses to send an unanchored copy."""
    new_game(table, "host")
    copy_for(table, "bob")
    table.run("import", "bob.wlog", store="bob")
    table.run("fork", "--at", "1.1.random-events", "--name", "what-if", store="bob")
    verified = json.loads(table.run("--game", "what-if", "verify", "--json", store="bob").stdout)
    assert verified["anchor"].startswith("a fork made in this store")
    error = table.refused("--game", "what-if", "export", "-o", "fork.wlog", store="bob")
    assert "cannot be mailed" in error
