"""Each game presents itself (issue 34, move 6): the CLI's `map`, `view` and queries ask the
game's presenter (`warscribe.engine.presenter`), so no module of the CLI names a game, and a
game without a board or a presenter says so, or is shown without one, like any other."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from click.testing import CliRunner, Result

from warscribe.cli import main
from warscribe.engine import rulesets
from warscribe.engine.presenter import BARE, presenter_of

CLI = Path(main.__file__).parent
GAMES = re.compile(r"divine[-_ ]?right|eu[-_]pop|\bduel\b", re.IGNORECASE)


def _named(path: Path) -> list[str]:
    """Every import, name, attribute and string of a module naming a game."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import | ast.ImportFrom):
            words = [getattr(node, "module", None) or "", *(a.name for a in node.names)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            words = [node.value]
        elif isinstance(node, ast.Name | ast.Attribute | ast.FunctionDef | ast.ClassDef):
            words = [getattr(node, "id", None) or getattr(node, "attr", None) or node.name]
        else:
            continue
        found += [f"{path.name}:{node.lineno}: {w}" for w in words if GAMES.search(w)]
    return found


def test_no_module_of_the_cli_imports_or_names_a_game() -> None:
    """Code, not its words for people: docstrings, comments and examples in help may name a
    game; an import, a name or a string the code compares may not."""
    named = [hit for path in sorted(CLI.glob("*.py")) for hit in _named(path) if _code(hit)]
    assert named == []


def _code(hit: str) -> bool:
    """A hit that is code: not a sentence (help, a docstring) with a game in it."""
    text = hit.split(": ", 1)[1]
    return " " not in text.strip()


def test_the_check_catches_a_module_naming_a_game(tmp_path: Path) -> None:
    module = tmp_path / "bad.py"
    module.write_text(
        "from warscribe.engine.rulesets.divine_right import RULESET\nGAME = 'eu-pop'\n",
        encoding="utf-8",
    )
    assert [hit for hit in _named(module) if _code(hit)] == [
        "bad.py:1: warscribe.engine.rulesets.divine_right",
        "bad.py:2: eu-pop",
    ]


def run(store: Path, *args: str) -> Result:
    return CliRunner().invoke(main.cli, ["--store", str(store), *args])


def test_a_game_without_a_board_says_so_and_is_viewed_without_one(tmp_path: Path) -> None:
    store = tmp_path / "duel.db"
    new = ["new", "duel", "--player", "alice", "--player", "bob", "--health", "12"]
    assert run(store, *new, "--dice", "seeded:duel").exit_code == 0
    assert presenter_of(rulesets.get("duel")) is BARE
    refused = run(store, "map")
    assert refused.exit_code == 1
    assert refused.stderr.startswith("Error: ") and "has no board" in refused.stderr
    assert "Traceback" not in refused.output
    page = tmp_path / "duel.html"
    assert run(store, "view", "-o", str(page)).exit_code == 0
    data = page.read_text(encoding="utf-8").split('id="data">', 1)[1].split("</script>")[0]
    shown = json.loads(data)
    assert shown["board"] is None and shown["entries"]
    assert {frame["overlay"] for frame in shown["frames"]} == {None}


def test_each_game_names_a_presenter_it_has() -> None:
    for name in ("divine-right", "eu-pop"):
        presenter = presenter_of(rulesets.get(name))
        assert presenter is not BARE and presenter.queries
        assert set(presenter.queries) <= {*rulesets.get(name).projections, "hand", "reach"}
    assert presenter_of(rulesets.get("divine-right")).board is not None
    assert presenter_of(rulesets.get("eu-pop")).board is None


def test_map_help_needs_no_game(tmp_path: Path) -> None:
    """`map --help` where there is no game yet: the record's `map` says what it does (in a
    game, its board's own `map --help` lists that board's options)."""
    shown = run(tmp_path / "empty.db", "map", "--help")
    assert shown.exit_code == 0 and "The board of the current game" in shown.output
