"""Hostile input ended in a Python traceback (issue 11, item 1): one damaged byte or one
wrong-typed value in a file reached code that trusted it. Every entry point that reads
untrusted bytes now ends in `Error: ...` (exit 1) naming the entry or line, the store left
as it was. One test per cause the fuzzer found, each through the real command."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest

from tests.security.conftest import Table, new_game, rebuilt, rewrite
from tests.security.fuzz_cases import _nested_sets
from warscribe.engine import codec
from warscribe.engine.events import Note
from warscribe.engine.record import Entry
from warscribe.store import app as store_app
from warscribe.store import logfile

EXT = msgpack.ExtType
NOTE = 16  # the note's entry in the exported log


@pytest.fixture
def exported(table: Table) -> list[Any]:
    """The raw header and entry maps of a game's log (the last entry, #16: a note), ready
    to be damaged."""
    new_game(table, "seeded:1")
    table.run("note", "--at", "#13", "a comment")
    table.run("export", "-o", "full.wlog")
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, use_list=True)
    unpacker.feed(Path("full.wlog").read_bytes())
    return list(unpacker)


def refused_file(table: Table, items: list[Any], match: str) -> str:
    """Import the maps as a log file into a fresh store: refused with `match`."""
    Path("bad.wlog").write_bytes(b"".join(msgpack.packb(i, use_bin_type=True) for i in items))
    error = table.refused("import", "bad.wlog", store="fresh")
    assert match in error, error
    return error


def test_a_non_ascii_character_inside_an_armored_block_is_an_error(table: Table) -> None:
    """290 fuzz cases: a mail client transcoded one character of the base64 (ValueError
    from base64.b64decode)."""
    new_game(table, "seeded:1")
    text = table.run("export", "--armor").stdout.splitlines()
    text[6] = text[6][:20] + "é" + text[6][21:]
    Path("bad.txt").write_text("\n".join(text), encoding="utf-8")
    assert "the armored log is damaged" in table.refused("import", "bad.txt", store="fresh")


def test_an_entry_topic_that_is_not_text_is_an_error(table: Table, exported: list[Any]) -> None:
    exported[3]["topic"] = 5
    refused_file(table, exported, "#3: the entry's topic must be text")


def test_an_entry_salt_that_is_not_bytes_is_an_error(table: Table, exported: list[Any]) -> None:
    salted = next(i for i, item in enumerate(exported[1:], 1) if item.get("salt"))
    exported[salted]["salt"] = "sixteen chars!!!"
    refused_file(table, exported, f"#{salted}: the entry's salt is not 16 bytes")


@pytest.mark.parametrize(
    ("key", "value"),
    [("from_seq", "1"), ("to_seq", 1.5), ("players", "alice"), ("players", (1, 2))],
)
def test_header_fields_of_the_wrong_type_are_an_error(
    table: Table, exported: list[Any], key: str, value: Any
) -> None:
    exported[0][key] = value
    refused_file(table, exported, "the log header's")


BAD_EXTENSIONS = {
    "a Decimal that is no number (decimal.InvalidOperation)": EXT(codec.EXT_DECIMAL, b"abc"),
    "a Fraction 1/0 (ZeroDivisionError)": EXT(codec.EXT_FRACTION, b"1/0"),
    "sets nested 2,000 deep (RecursionError)": _nested_sets(2000),
    "a set of maps (unhashable)": EXT(codec.EXT_SET, msgpack.packb({"a": 1})),
    "a UUID of 3 bytes": EXT(codec.EXT_UUID, b"abc"),
    "a datetime that is not one": EXT(codec.EXT_DATETIME, b"\xff\xfe"),
    "an unknown enum value": EXT(codec.EXT_ENUM, msgpack.packb(("dr.UnitKind", "dragon"))),
    "an enum of a topic that is not an enum": EXT(
        codec.EXT_ENUM, msgpack.packb(("warscribe.Note", 1))
    ),
    "a record of the wrong length": [EXT(codec.EXT_DATACLASS, b"warscribe.DataRef"), 1],
}


@pytest.mark.parametrize("bad", sorted(BAD_EXTENSIONS))
def test_bad_extension_payloads_are_an_error(table: Table, exported: list[Any], bad: str) -> None:
    """engine/codec.py `_ext_hook` let each of these escape as its own exception."""
    exported[NOTE]["fields"]["text"] = BAD_EXTENSIONS[bad]
    refused_file(table, exported, f"#{NOTE}: ")


@pytest.mark.parametrize("bad", sorted(BAD_EXTENSIONS))
def test_bad_extension_payloads_in_the_header_are_an_error(
    table: Table, exported: list[Any], bad: str
) -> None:
    """In the header, only ValueError and msgpack's own errors were caught."""
    exported[0]["name"] = BAD_EXTENSIONS[bad]
    refused_file(table, exported, "not a warscribe log file")


@pytest.mark.parametrize("depth", [65, 500])
def test_deep_nesting_in_a_field_is_an_error(table: Table, exported: list[Any], depth: int) -> None:
    """A field nested deeper than the encoder's recursion (RecursionError in the canonical
    encoder); anything over 64 levels is refused."""
    value: Any = "deep"
    for _ in range(depth):
        value = [value]
    exported[NOTE]["fields"]["text"] = value
    refused_file(table, exported, f"#{NOTE}: ")


def test_deep_nesting_in_the_bytes_is_an_error(table: Table, exported: list[Any]) -> None:
    header = msgpack.packb(exported[0], use_bin_type=True)
    Path("bad.wlog").write_bytes(header + b"\x91" * 5000 + b"\x00")
    assert "#1: entry cannot be read" in table.refused("import", "bad.wlog", store="fresh")


def _with_text(value: Any) -> Callable[[Entry], Entry]:
    def change(entry: Entry) -> Entry:
        event = object.__new__(Note)
        object.__setattr__(event, "__dict__", {**vars(entry.event), "text": value})
        return dataclasses.replace(entry, event=event)

    return change


@pytest.mark.parametrize("value", [5, ("a", "b"), {"k": 1}, None, b"bytes"])
def test_an_event_field_of_the_wrong_type_is_an_error_even_with_the_chain_rebuilt(
    table: Table, value: Any
) -> None:
    """A note whose text is not text, every chain hash after it recomputed: the right
    key with the wrong type reached the rules (`describe`, the fold) and crashed there."""
    new_game(table, "seeded:1")
    table.run("note", "--at", "#13", "a comment")
    table.run("export", "-o", "full.wlog")
    log = logfile.read(Path("full.wlog").read_bytes())
    changed = rebuilt(list(log.entries), NOTE, _with_text(value))
    Path("bad.wlog").write_bytes(rewrite(log, changed))
    error = table.refused("import", "bad.wlog", store="fresh")
    assert f"#{NOTE}: bad event: Note field 'text'" in error


def test_a_nested_record_field_of_the_wrong_type_is_an_error(
    table: Table, exported: list[Any]
) -> None:
    """GameCreated's data references are records; their own fields are checked too."""
    data = exported[1]["fields"]["data"]
    data[0][1] = 7  # DataRef(kind=7, ...)
    error = refused_file(table, exported, "#1: bad event: GameCreated field 'data'")
    assert "'kind'" in error


def test_an_unexpected_failure_while_importing_names_the_entries(
    table: Table, exported: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last line of defence: whatever escapes the checks while an imported file is
    verified and re-decided is a LogError, and nothing is written."""

    def broken(log: Any, first: int) -> None:
        raise KeyError("kingdom")

    monkeypatch.setattr(store_app, "_redecide", broken)
    Path("bad.wlog").write_bytes(Path("full.wlog").read_bytes())
    error = table.refused("import", "bad.wlog", store="fresh")
    assert f"#1: the entries #1..#{NOTE} of the file cannot be checked (KeyError" in error


def test_a_key_file_that_is_not_utf8_is_an_error(table: Table) -> None:
    table.run("keys", "new", "alice")
    lines = Path("alice.pub").read_bytes().splitlines()
    lines[3] = b"\xff\xfe" + lines[3][2:]
    Path("bad.pub").write_bytes(b"\n".join(lines))
    error = table.refused(
        "new", "divine-right", "--player", "alice", "--player", "bob", "--key", "alice=bad.pub"
    )
    assert "the armored public key is damaged" in error


def test_a_key_file_naming_no_player_is_an_error(table: Table) -> None:
    from warscribe.store.armor import armor

    data = codec.encode(
        {"format": "warscribe-key", "kind": "public", "player": 5, "key": b"k" * 32}
    )
    Path("bad.pub").write_text(armor(data, "PUBLIC KEY"))
    error = table.refused(
        "new", "divine-right", "--player", "alice", "--player", "bob", "--key", "alice=bad.pub"
    )
    assert "does not name its player" in error


def test_orders_whose_fields_have_the_wrong_types_are_an_error(table: Table) -> None:
    from warscribe.engine.orders import FORMAT, VERSION, sign
    from warscribe.store.armor import armor
    from warscribe.store.orders import ORDERS_FORMAT, ORDERS_KIND

    new_game(table, "seeded:1")
    body = {
        "format": FORMAT,
        "version": VERSION,
        "game_id": "x",
        "player": 5,
        "position": None,
        "seq": "14",
        "chain": 10**9,
        "commands": "roll",
    }
    errors = []
    for wrong in ({"game_id": 3}, {"game_id": "72d8fb3e-f744-5715-9840-e00f64e883b7"}):
        signed = codec.encode({**body, **wrong})
        data = codec.encode(
            {"format": ORDERS_FORMAT, "orders": signed, "signature": sign(b"k" * 32, signed)}
        )
        Path("bad.txt").write_text(armor(data, ORDERS_KIND))
        errors.append(table.refused("import-orders", "bad.txt"))
    assert "game id is not text" in errors[0]
    assert "the orders cannot be read: Orders field 'player'" in errors[1]


@pytest.mark.parametrize("position", ["#²", "#" + "9" * 5000, "#-1", "#"])
def test_a_bad_position_string_is_an_error(table: Table, position: str) -> None:
    """`"²".isdigit()` is true and `int("²")` fails; a 5,000-digit number is over the
    int conversion limit."""
    new_game(table, "seeded:1")
    assert "bad position" in table.refused("show", "--at", position)


@pytest.mark.parametrize("seq", ["²", "9" * 5000])
def test_a_bad_fingerprint_is_an_error(table: Table, seq: str) -> None:
    """`verify --against`: a digit that int() does not take, or too many of them."""
    new_game(table, "seeded:1")
    assert "bad fingerprint" in table.refused("verify", "--against", f"#{seq} aabbccdd11")


@pytest.mark.parametrize(
    "fields",
    ['{"player": 5, "deed": "x", "points": 1}', "[" * 100_000 + "]" * 100_000],
)
def test_a_ruling_imposing_badly_typed_or_deep_json_is_an_error(table: Table, fields: str) -> None:
    """A wrong type is refused by the rules' check (exit 1); JSON nested past the parser's
    recursion is a usage error like any JSON that does not parse (exit 2)."""
    new_game(table, "seeded:1")
    impose = ("--impose", f"dr.PointsScored {fields}")
    result = table.run("note", "--ruling", "--at", "#13", "x", *impose, ok=False)
    assert result.exit_code in (1, 2) and result.output.count("Error: ") == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("option", ["--deck", "--personalities", "--map"])
def test_a_data_file_that_is_not_utf8_is_an_error(table: Table, option: str) -> None:
    Path("data.json").write_bytes(b'{"cards": "\xff"}')
    error = table.refused(
        "new", "divine-right", "--player", "a", "--player", "b", option, "data.json"
    )
    assert "data.json is not UTF-8 text" in error


def test_an_eu_pop_start_file_that_is_not_utf8_is_an_error(table: Table) -> None:
    Path("start.json").write_bytes(b"\xff\xfe{}")
    error = table.refused(
        "new", "eu-pop", "--player", "a=France", "--player", "b=Austria", "--start", "start.json"
    )
    assert "start.json is not UTF-8 text" in error


DEEP_JSON = "[" * 5000 + "]" * 5000


@pytest.mark.parametrize("option", ["--deck", "--personalities", "--map"])
def test_a_data_file_nested_past_the_json_parser_is_an_error(table: Table, option: str) -> None:
    """json.loads raised RecursionError, which the data loader did not catch."""
    Path("data.json").write_text(DEEP_JSON)
    error = table.refused(
        "new", "divine-right", "--player", "a", "--player", "b", option, "data.json"
    )
    assert "is not valid JSON" in error


def test_an_eu_pop_start_file_nested_past_the_json_parser_is_an_error(table: Table) -> None:
    Path("start.json").write_text(DEEP_JSON)
    players = ("--player", "a=France", "--player", "b=Austria")
    error = table.refused("new", "eu-pop", *players, "--start", "start.json")
    assert "the starting position is not JSON" in error
