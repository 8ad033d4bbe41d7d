"""The docs stay true: every test docs/security.md names as the proof of a guarantee exists;
the README's quick start leaves `warscribe` on the PATH."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_test_the_security_page_names_exists() -> None:
    page = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    sources = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("test_*.py"))
    files = {p.name for p in (ROOT / "tests").rglob("test_*.py")}
    named_tests = set(re.findall(r"\b(test_\w+)\b(?!\.py)", page))
    named_files = set(re.findall(r"\b(test_\w+\.py)\b", page))
    assert named_tests, "the page names its tests"
    missing = sorted(t for t in named_tests if f"def {t}(" not in sources)
    assert not missing, f"docs/security.md names tests that do not exist: {missing}"
    assert named_files <= files, sorted(named_files - files)


def test_the_readme_quick_start_puts_warscribe_on_the_path() -> None:
    """Issue 32: after the quick start `warscribe` was not found, and the README never
    said to activate the virtual environment its commands install into. The quick start
    activates it before the README's first bare `warscribe` command."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"^(\.|source) \.venv/bin/activate$", quick_start, re.MULTILINE)
    lines = readme.splitlines()
    fences = [n for n, line in enumerate(lines) if line.startswith("```")]
    in_code = {
        n for start, end in zip(fences[::2], fences[1::2], strict=True) for n in range(start, end)
    }
    first = min(n for n in in_code if lines[n].startswith("warscribe "))
    assert any(".venv/bin/activate" in line for line in lines[:first]), lines[first]


def _command_lines(path: Path) -> list[tuple[int, str]]:
    """The `warscribe ...` lines of a page's code blocks (continued lines joined, a
    trailing comment, pipe or redirection left out)."""
    found: list[tuple[int, str]] = []
    inside = False
    lines = path.read_text(encoding="utf-8").splitlines()
    number = 0
    while number < len(lines):
        line = lines[number]
        number += 1
        if line.startswith("```"):
            inside = not inside
            continue
        text = line.strip()
        if not inside or not text.startswith("warscribe "):
            continue
        start = number
        while text.endswith("\\") and number < len(lines):
            text = text[:-1] + " " + lines[number].strip()
            number += 1
        found.append((start, text.split(" #", 1)[0]))
    return found


def _parses(words: list[str]) -> str | None:
    """Why click refuses `warscribe WORDS` as a command line (None: it reads), without
    running it: a game's command typed at top level is read by each game that has it."""
    import warnings

    import click

    from warscribe.cli.main import GameCommand, cli, face

    warnings.filterwarnings("ignore", "'protected_args' is deprecated", DeprecationWarning)
    try:
        ctx = cli.make_context("warscribe", words)
        group: click.Command = cli
        args = [*ctx.protected_args, *ctx.args]
        while isinstance(group, click.Group) and args:
            name, command, args = group.resolve_command(ctx, args)
            assert command is not None and name is not None
            if isinstance(command, GameCommand):
                reasons = [
                    _read(face(game).get_command(ctx, name), name, args, ctx)
                    for game in command.owners
                ]
                return None if None in reasons else reasons[0]
            ctx = command.make_context(name, args, parent=ctx)
            group, args = command, [*ctx.protected_args, *ctx.args]
    except click.BadParameter:  # a file or a value only a real store would hold
        return None
    except click.UsageError as exc:
        return exc.format_message()
    return None


def _read(command: object, name: str, args: list[str], parent: object) -> str | None:
    import click

    assert isinstance(command, click.Command) and isinstance(parent, click.Context)
    try:
        command.make_context(name, list(args), parent=parent)
    except click.BadParameter:
        return None
    except click.UsageError as exc:
        return exc.format_message()
    return None


def test_every_command_line_of_the_docs_reads() -> None:
    """Issue 32: the docs spoke the engine's words (`take-loan count=1`, refused). Every
    `warscribe` line of a code block of the README and docs/ is read by the command line
    as it is (options, arguments, subcommands), without running it."""
    import shlex

    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    refused = []
    for page in pages:
        for number, line in _command_lines(page):
            words = shlex.split(line)[1:]
            cut = [i for i, word in enumerate(words) if word in ("|", ">", "&&", ";", "<")]
            why = _parses(words[: cut[0]] if cut else words)
            if why is not None:
                refused.append(f"{page.name}:{number}: {line}: {why}")
    assert not refused, "\n".join(refused)
