"""The index of the commands the CLI adds on first use (cli/main.py's `WarscribeGroup`): for
each group (`cli`, the top level; `new`; each game's, by its prefix), each command with the
CLI module or the game that adds it and its one-line help. `--help` lists every command
from it without importing them (issue 14).

It is made from what is installed, never kept by hand: at first use, from the record's own
modules and every installed game (engine/rulesets), then cached until another distribution
is installed (engine/installed.py). A game a test adds (`rulesets.added`) is not in it: its
commands are made when it is listed.
"""

from __future__ import annotations

from importlib import import_module

import click

from warscribe.engine import installed, rulesets

Index = dict[str, dict[str, list[str]]]
"""group name -> command name -> [the CLI module or game adding it, its one-line help]"""

_READ: list[Index] = []


def read() -> Index:
    """The index of what is installed (made and cached on first use)."""
    if not _READ:
        index: Index = {}
        for line in installed.cached("commands", text).splitlines():
            group, command, *entry = line.split("\t")
            index.setdefault(group, {})[command] = entry
        _READ.append(index)
    return _READ[0]


def text() -> str:
    """The index's text: a line per command (group, command name, the CLI module or game
    adding it, its one-line help, tab-separated)."""
    from . import main

    rows: list[tuple[str, str, str, click.Command]] = []
    for module, add in main.REGISTER.items():
        adds = click.Group()
        add(import_module(f"{__package__}.{module}"), adds)
        rows += [("cli", name, module, command) for name, command in adds.commands.items()]
    for entry in rulesets.discovered():
        face = main.face(entry.name)  # and its `new` (a RuleBook's)
        made = main.new.commands.get(entry.name)
        rows += [("new", entry.name, entry.name, made)] if made is not None else []
        rows += [(entry.prefix, name, entry.name, cmd) for name, cmd in face.commands.items()]
    return "".join(
        f"{group}\t{name}\t{source}\t{command.get_short_help_str(limit=10_000)}\n"
        for group, name, source, command in sorted(rows, key=lambda row: row[:2])
    )
