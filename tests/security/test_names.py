"""Names are safe to keep and to print (issue 11, "Names"): `new` refuses control
characters, look-alike players and reserved names for every rule set; whatever a log
holds is printed with its control characters shown as escapes; a PostgreSQL schema name
must be a plain SQL identifier.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner, Result

from warscribe.cli.main import cli
from warscribe.engine import names, record, rulesets
from warscribe.engine.dice import seeded_key
from warscribe.engine.errors import InvalidCommand
from warscribe.engine.ruleset import GameSpec, PlayerSpec
from warscribe.store import logfile
from warscribe.store.app import Warscribe
from warscribe.store.backends import StoreError, resolve

Run = Callable[..., Result]
ESC = "\x1b"
HOSTILE_GAME = "ours\n00000000-0000-0000-0000-000000000000  forged  divine-right  mallory"
HOSTILE_PLAYER = f"al{ESC}[2J{ESC}]0;owned\x07ice\nforged"


def spec_of(ruleset: str, *players: str, name: str = "") -> GameSpec:
    """A game of `ruleset` for `players` (eu-pop: France, Austria, ... from the example)."""
    if ruleset == "divine-right":
        return GameSpec(name=name, players=tuple(PlayerSpec(p) for p in players))
    start = resources.files("warscribe.engine.rulesets.eu_pop") / "datafiles/example-start.json"
    realms = ("France", "Austria", "England")
    return GameSpec(
        name=name,
        players=tuple(PlayerSpec(p, r) for p, r in zip(players, realms, strict=False)),
        options=(("start", start.read_text(encoding="utf-8")),),
    )


@pytest.fixture
def app(tmp_path: Path) -> Warscribe:
    return Warscribe(str(tmp_path / "names.db"))


# -- refused at `new`, for every rule set ------------------------------------------------------


RULESETS = ["divine-right", "eu-pop"]

REFUSED_PLAYERS = {
    "a newline": ("alice\nbob", "bob"),
    "terminal escapes": (HOSTILE_PLAYER, "bob"),
    "a right-to-left override": ("\u202ealice", "bob"),
    "a zero-width space": ("al\u200bice", "bob"),
    "the same name twice by case": ("alice", "ALICE"),
    "a Cyrillic look-alike": ("alice", "\u0430lice"),
    "a Greek look-alike": ("bob", "\u0392ob"),
    "a Latin look-alike of another alphabet": ("greg", "\u0261reg"),
    "the referee's name": ("referee", "bob"),
    "the referee's name disguised": ("R\u0435feree", "bob"),
    "an endless name": ("a" * (names.MAX_LENGTH + 1), "bob"),
    "an empty name": ("", "bob"),
}


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("players", REFUSED_PLAYERS.values(), ids=list(REFUSED_PLAYERS))
def test_new_refuses_unsafe_player_names(
    app: Warscribe, ruleset: str, players: tuple[str, str]
) -> None:
    with pytest.raises(InvalidCommand, match="player"):
        app.create(ruleset, spec_of(ruleset, *players), "seeded:1")
    assert app.games() == ()


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(
    "name", [HOSTILE_GAME, f"red{ESC}[31m", "x" * 200], ids=["nl", "esc", "long"]
)
def test_new_refuses_unsafe_game_names(app: Warscribe, ruleset: str, name: str) -> None:
    with pytest.raises(InvalidCommand, match="game name"):
        app.create(ruleset, spec_of(ruleset, "alice", "bob", name=name), "seeded:1")
    assert app.games() == ()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_names_are_kept_in_their_normal_form(app: Warscribe, ruleset: str) -> None:
    """NFKC: full-width letters and ligatures are stored as the letters they stand for."""
    app.create(ruleset, spec_of(ruleset, "\uff41lice", "bo\ufb00", name="\uff27ame"), "seeded:1")
    (listing,) = app.games()
    assert (listing.name, listing.players) == ("Game", ("alice", "boff"))


def test_a_fork_name_is_checked_too(app: Warscribe) -> None:
    head = app.create("divine-right", spec_of("divine-right", "alice", "bob"), "seeded:1")
    with pytest.raises(InvalidCommand, match="game name"):
        app.fork(head.game_id, 1, HOSTILE_GAME)


def test_distinct_names_pass() -> None:
    """Different people with different names, accents and scripts are fine."""
    assert names.player_names(("Zoë", "Zoe", "Олег", "Σοφία", "bob smith")) == (
        "Zoë",
        "Zoe",
        "Олег",
        "Σοφία",
        "bob smith",
    )


def test_the_cli_refuses_with_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        cli,
        ["--store", "n.db", "new", "divine-right", "--player", "alice", "--player", "\u0430lice"],
        catch_exceptions=False,
    )
    assert result.exit_code == 1 and result.output.startswith("Error: ")
    assert "alike" in result.output


# -- printed escaped, whatever a log holds -------------------------------------------------------


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Run:
    """A store that imported a log made elsewhere, whose game and player names carry a
    forged line and terminal escape codes, and a note full of them."""
    monkeypatch.chdir(tmp_path)
    game_id = UUID("11111111-1111-4111-8111-111111111111")
    spec = GameSpec(HOSTILE_GAME, (PlayerSpec(HOSTILE_PLAYER), PlayerSpec("bob")))
    key = seeded_key("11")
    entries = record.open_game(rulesets.get("divine-right"), spec, game_id, "seeded:11", key)
    players = tuple(p.name for p in spec.players)
    data = logfile.write(game_id, HOSTILE_GAME, "divine-right", players, entries)
    Path("hostile.wlog").write_bytes(data)
    runner = CliRunner()

    def invoke(*args: str) -> Result:
        result = runner.invoke(cli, ["--store", "h.db", *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result

    invoke("import", "hostile.wlog")
    invoke("note", "--at", "#1", "--as", "bob", f"fine{ESC}[8m\nforged line\rhidden")
    return invoke


@pytest.mark.parametrize(
    "command",
    [
        ("games",),
        ("status",),
        ("log",),
        ("show",),
        ("audit",),
        ("import", "hostile.wlog"),
        ("kingdoms",),
        ("vp",),
        ("hand", "--as", HOSTILE_PLAYER),
    ],
    ids=lambda command: command[0],
)
def test_text_output_shows_control_characters_as_escapes(
    hostile: Run, command: tuple[str, ...]
) -> None:
    output = hostile(*command).output
    assert ESC not in output and "\r" not in output and "\x07" not in output
    for line in output.splitlines():
        assert not line.startswith(("00000000-0000", "forged")), line


def test_games_prints_one_line_per_game(hostile: Run) -> None:
    """A newline in a game's name forged a whole line of `games`."""
    lines = hostile("games").output.splitlines()
    assert len(lines) == 1
    assert "ours\\n00000000" in lines[0] and "al\\x1b[2J" in lines[0]


def test_the_log_shows_one_line_per_entry(hostile: Run) -> None:
    lines = hostile("log").output.splitlines()
    assert all(line.startswith("#") for line in lines)
    assert "fine\\x1b[8m\\nforged line\\rhidden" in lines[-1]


def test_json_output_keeps_the_names_exactly(hostile: Run) -> None:
    """JSON escapes control characters itself, and a program reading it gets the name."""
    (game,) = json.loads(hostile("games", "--json").output)
    assert game["name"] == HOSTILE_GAME and game["players"][0] == HOSTILE_PLAYER


# -- the PostgreSQL schema -----------------------------------------------------------------


@pytest.mark.parametrize(
    "schema",
    ['public";DROP TABLE x;--', "a%22b", "t-1", "1abc", "", "a" * 64, "sch\u00e9ma"],
)
def test_a_schema_must_be_a_plain_identifier(schema: str) -> None:
    """`?schema=` reached eventsourcing's SQL unchecked."""
    with pytest.raises(StoreError, match="schema"):
        resolve(f"postgresql://postgres@127.0.0.1:5432/test?schema={schema}")


def test_a_plain_schema_is_accepted() -> None:
    backend = resolve("postgresql://postgres@127.0.0.1:5432/test?schema=club_2")
    assert ("POSTGRES_SCHEMA", "club_2") in backend.env
