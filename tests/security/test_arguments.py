"""Every argument of every command is checked before use (issue 31, "The referee never
stops and loses nothing").

Found: bytes of another encoding than UTF-8 on the command line (Latin-1 `é`, which Python
hands over as the lone surrogate `'\\udce9'`) in `note`, `roll --purpose`, `address` or
`--game` ended in a traceback; so did `log --from 1000000000000000000000000000000`
(OverflowError), while `export --from` with it wrote an empty file; `keys new` with a
5,000-character or an empty name; and `keys new ../escape` wrote its key files outside
the folder. Now every argument and option of every command (the game commands generated
from the rule sets' tables included) is checked where the command is passed its context
(`cli.context.pass_ctx`, `check_arguments`): text that is not UTF-8 and a number no
store holds are usage errors naming the argument, exit 2, with nothing written.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest

from tests.security.conftest import Table
from warscribe.cli.main import GameCommand, cli, load_all
from warscribe.engine import rulesets
from warscribe.engine.rulebook import RuleBook

LATIN_1 = "caf\udce9"  # `café` typed in a Latin-1 terminal, as Python reads argv
HUGE = "1000000000000000000000000000000"

load_all()


def _commands(group: click.Group, path: tuple[str, ...] = ()) -> Iterator[Any]:
    """(words, command) of every command under `group`, through its sub-groups; a game's
    command typed at top level (`GameCommand`) is the game group's, walked there."""
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is None or isinstance(command, GameCommand):
            continue
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))
        else:
            yield (*path, name), command


def _integer_args() -> set[tuple[str, ...]]:
    """(words..., argument) of each argument the rule sets read as a whole number (typed
    as text on the command line, read by the engine's `integer` kind)."""
    found: set[tuple[str, ...]] = set()
    for entry in rulesets.registered():
        book = rulesets.get(entry.name)
        if not isinstance(book, RuleBook):
            continue
        for spec in book.commands.values():
            words = (spec.group, spec.sub or spec.name) if spec.group else (spec.name,)
            for arg in spec.args:
                if arg.kind.wanted.startswith("a whole number"):
                    found.add((entry.prefix, *words, arg.name))
    return found


INTEGER_ARGS = _integer_args()


def _cases() -> Iterator[Any]:
    top = [p for p in cli.params if isinstance(p, click.Option) and not p.is_flag]
    for param in top:  # the options of `warscribe` itself, before a command
        yield pytest.param((), "status", param, LATIN_1, id=f"warscribe {param.opts[0]}")
    for words, command in _commands(cli):
        for param in command.params:
            if isinstance(param, click.Option) and param.is_flag:
                continue
            if isinstance(param.type, click.types.IntParamType):
                values = [HUGE]
            elif (*words, param.name) in INTEGER_ARGS:
                values = [LATIN_1, HUGE]
            else:
                values = [LATIN_1]
            for value in values:
                shown = "latin-1" if value == LATIN_1 else "huge"
                name = param.opts[0] if isinstance(param, click.Option) else param.name
                yield pytest.param(
                    words, command, param, value, id=f"{' '.join(words)} {name} {shown}"
                )


def _line(command: click.Command, target: click.Parameter, value: str) -> list[str]:
    """A command line giving `value` to `target`, and a placeholder to every other
    required parameter (`_placeholder`)."""
    options: list[str] = []
    arguments: list[str] = []
    for param in command.params:
        given = value if param is target else _placeholder(param) if param.required else None
        if given is None:
            continue
        if isinstance(param, click.Option):
            options += [param.opts[0], given]
        else:
            arguments.append(given)
    return [*options, *arguments]


def _placeholder(param: click.Parameter) -> str:
    """A value a required parameter takes: `x` (a file), or `d` for a folder."""
    folder = isinstance(param.type, click.Path) and not param.type.file_okay
    return "d" if folder else "x"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A referee's store holding one game with host dice (a secrets file beside it), and
    a file `x`; shared by every case, each of which must leave it as it was."""
    path = tmp_path_factory.mktemp("arguments")
    here = os.getcwd()
    os.chdir(path)
    try:
        table = Table(path)
        players = ("--player", "alice", "--player", "bob", "--player", "carol")
        table.run("new", "divine-right", *players, "--name", "g")
        (path / "x").write_text("x")
        (path / "d").mkdir()
        yield path
    finally:
        os.chdir(here)


def refused(table: Table, args: list[str], env: dict[str, str] | None = None) -> str:
    """Run a command that must be refused: `Error:`, exit 1 or 2, no traceback, the
    store (its files and its secrets file) unchanged byte for byte; the error text."""
    before = table.snapshot("referee")
    result = table.runner.invoke(cli, ["--store", "referee.db", *args], env=env)
    assert result.exit_code in (1, 2), (args, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), (args, result.exception)
    assert "Error: " in result.stderr, result.output
    assert "Traceback" not in result.output
    assert table.snapshot("referee") == before, "a refused command changed the store"
    return result.stderr


@pytest.mark.parametrize(("words", "command", "param", "value"), list(_cases()))
def test_every_argument_of_every_command_is_checked_before_use(
    folder: Path, words: tuple[str, ...], command: Any, param: click.Parameter, value: str
) -> None:
    table = Table(folder)
    if not words:  # an option of `warscribe` itself, then a command
        args = [*_line(cli, param, value), command]
    else:
        args = [*words, *_line(command, param, value)]
    error = refused(table, args)
    if isinstance(param.type, click.types.IntParamType) or value == LATIN_1:
        # a file that must exist is looked for first, by its bytes: none is there
        looked_for = isinstance(param.type, click.Path | click.File) and (
            "does not exist" in error or "No such file" in error
        )
        assert "is not UTF-8" in error or "out of range" in error or looked_for, error
        assert error.startswith("Usage:"), "a usage error (exit 2) names the argument"
        hint = param.opts[0] if isinstance(param, click.Option) else param.human_readable_name
        assert hint in error, error


def test_an_environment_variable_of_another_encoding_is_refused(folder: Path) -> None:
    table = Table(folder)
    assert "'--game'" in refused(table, ["status"], env={"WARSCRIBE_GAME": LATIN_1})
    error = refused(table, ["roll", "2d6"], env={"WARSCRIBE_PASSPHRASE": LATIN_1})
    assert "WARSCRIBE_PASSPHRASE" in error


def test_a_games_command_typed_at_top_level_is_checked_too(folder: Path) -> None:
    table = Table(folder)
    assert "'--as'" in refused(table, ["end-phase", "--as", LATIN_1])
    assert "'--path'" in refused(table, ["move", "x", "--path", LATIN_1])


def test_export_from_past_the_end_is_an_error_not_an_empty_file(folder: Path) -> None:
    table = Table(folder)
    error = refused(table, ["export", "--from", "999", "-o", "tail.wlog"])
    assert "past the end of the log" in error
    assert not (folder / "tail.wlog").exists()


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("a" * 5000, "at most 64"),
        ("", "needs a name"),
        ("referee", "the record uses"),
        ("bad\x1bname", "control or invisible"),
        ("../escape", "stay in this folder"),
        ("keys/alice", "stay in this folder"),
        ("..", "stay in this folder"),
    ],
)
def test_key_names_are_checked_like_player_names_and_stay_in_the_folder(
    folder: Path, name: str, said: str
) -> None:
    table = Table(folder)
    before = sorted(p.name for p in folder.parent.iterdir())
    assert said in refused(table, ["keys", "new", name])
    assert sorted(p.name for p in folder.parent.iterdir()) == before
    assert not list(folder.glob("*.key"))
