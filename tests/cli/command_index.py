"""cli/commands.tsv, the commands the CLI adds on first use, made from the CLI itself:

    python -m tests.cli.command_index cli/commands.tsv

Run it again whenever a command of a game (its specs, cli/divine_right.py, cli/eu_pop.py)
or of cli/pbem.py is added, renamed or its help's first sentence changes
(tests/cli/test_index.py fails until then). Needs a fresh process: it loads the modules
one by one to see what each adds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import click

from warscribe.cli import main
from warscribe.engine import rulesets


def groups() -> dict[str, click.Group]:
    return {"cli": main.cli, "new": main.new}


def text() -> str:
    """The index's text (a line per command: group, command name, the cli module or game
    that adds it, its one-line help, tab-separated), from what each adds to each group:
    the record's modules to the top level, each game to its own group and to `new`."""
    found: dict[str, dict[str, tuple[str, str]]] = {name: {} for name in groups()}
    for module in (*main._REGISTER, *rulesets.names()):
        before = {name: set(group.commands) for name, group in groups().items()}
        main.load(module)
        for name, group in groups().items():
            for command in sorted(set(group.commands) - before[name]):
                short = group.commands[command].get_short_help_str(limit=10_000)
                found[name][command] = (module, short)
    for entry in rulesets.registered():
        face = main.face(entry.name)
        found[entry.prefix] = {
            command: (entry.name, face.commands[command].get_short_help_str(limit=10_000))
            for command in sorted(face.commands)
        }
    return "".join(
        f"{group}\t{command}\t{module}\t{short}\n"
        for group, commands in found.items()
        for command, (module, short) in commands.items()
    )


def main_(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, nargs="?", help="where to write (default: stdout)")
    out = parser.parse_args(argv).out
    if out is None:
        sys.stdout.write(text())
    else:
        out.write_text(text(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main_())
