"""The log file's header was not authenticated (issue 10, hole 5): an edited header renamed
a game, added a player or relabelled its rule set, and the poison went out again with
every re-export. Every byte that decides anything is covered by the chain or refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.security.conftest import Table, new_game, rewrite
from warscribe.store import logfile

HEADERS = {
    "a renamed game": {"name": "renamed"},
    "an added player": {"players": ("alice", "bob", "carol", "mallory")},
    "a relabelled rule set": {"ruleset": "eu-pop"},
}


@pytest.fixture
def exported(table: Table) -> logfile.LogFile:
    new_game(table, "host")
    table.run("export", "-o", "full.wlog")
    return logfile.read(Path("full.wlog").read_bytes())


@pytest.mark.parametrize("edit", sorted(HEADERS))
def test_a_header_that_disagrees_with_the_chain_is_refused(
    table: Table, exported: logfile.LogFile, edit: str
) -> None:
    Path("edited.wlog").write_bytes(rewrite(exported, list(exported.entries), **HEADERS[edit]))
    error = table.refused("import", "edited.wlog", store="fresh")
    assert "the header is not covered by the chain" in error
    table.run("import", "full.wlog", store="fresh")
    error = table.refused("import", "edited.wlog", store="fresh")
    assert "the header is not covered by the chain" in error, "a continuation is checked too"


def test_the_listing_comes_from_the_chained_entries(
    table: Table, exported: logfile.LogFile
) -> None:
    table.run("import", "full.wlog", store="fresh")
    listed = table.run("games", "--json", store="fresh").stdout
    assert '"g"' in listed and "mallory" not in listed


def test_an_unknown_key_in_an_entry_is_refused(table: Table, exported: logfile.LogFile) -> None:
    """A one-byte flip of the `scheme` key to `schere` was accepted."""
    data = Path("full.wlog").read_bytes()
    assert b"\xa6scheme" in data
    Path("flipped.wlog").write_bytes(data.replace(b"\xa6scheme", b"\xa6schere", 1))
    error = table.refused("import", "flipped.wlog", store="fresh")
    assert "unknown keys 'schere'" in error


def test_trailing_bytes_after_the_last_entry_are_refused(
    table: Table, exported: logfile.LogFile
) -> None:
    Path("tail.wlog").write_bytes(Path("full.wlog").read_bytes() + b"\x92\x01")
    error = table.refused("import", "tail.wlog", store="fresh")
    assert "bytes after the last entry" in error


def test_an_armored_block_without_its_checksum_is_refused(table: Table) -> None:
    new_game(table, "host")
    text = table.run("export", "--armor").stdout
    lines = [line for line in text.splitlines() if not line.startswith("Checksum:")]
    body = next(i for i, line in enumerate(lines) if len(line) == 64)
    changed = "B" if lines[body][10] != "B" else "C"
    lines[body] = lines[body][:10] + changed + lines[body][11:]
    Path("edited.txt").write_text("\n".join(lines) + "\n")
    error = table.refused("import", "edited.txt", store="fresh")
    assert "has no Checksum line" in error
