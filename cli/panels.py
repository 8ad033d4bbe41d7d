"""The panels a reader sees beside the board, in the words the player types: the decision
asked, then each query of the game's presenter that needs nothing but the reader (the
player's hand, the banishments...). Shared by `view --for PLAYER` (cli/viewer.py) and
`serve`'s pages (web/)."""

from __future__ import annotations

from typing import Any

from warscribe.engine import rulesets
from warscribe.engine.events import Command
from warscribe.engine.presenter import FLAG, READER, Asked, Query, presenter_of
from warscribe.store.views import escaped_lines, jsonable, printable

from .generated import cli_words, command_line


def panels(
    ruleset_name: str, state: Any, reader: str | None, *, own: bool = False
) -> list[dict[str, str]]:
    """The panels `reader` (None: the referee) sees in `state`, each a title and its text
    (escaped); `own`: only the decision asked and the queries of the reader's own."""
    ruleset = rulesets.get(ruleset_name)
    pending = ruleset.summary(state).get("pending")
    shown = []
    if isinstance(pending, dict):
        why = cli_words(ruleset_name, str(pending.get("why")))
        said = f"{pending.get('player')} must answer {pending.get('kind')}: {why}"
        shown.append({"title": "Pending decision", "text": escaped_lines(said)})
    for name, query in presenter_of(ruleset).queries.items():
        kinds = {param.kind for param in query.params}
        wanted = READER in kinds if own else True
        if kinds <= {READER, FLAG} and wanted and (reader is not None or READER not in kinds):
            text = _answered(ruleset_name, state, name, query, reader)
            shown.append({"title": name, "text": escaped_lines(text)})
    return shown


def _answered(ruleset_name: str, state: Any, name: str, query: Query, reader: str | None) -> str:
    """The query `name` asked by `reader` (its flags off), as text."""

    def words(command: Command) -> str:
        return command_line(ruleset_name, command)

    values = {p.name: reader if p.kind == READER else False for p in query.params}
    found = query.data or _projection(rulesets.get(ruleset_name), name)
    data = found(state, Asked(values, words))
    return query.text(printable(jsonable(data)), Asked(printable(values), words))


def _projection(ruleset: Any, name: str) -> Any:
    projection = ruleset.projections[name]
    return lambda state, asked: projection(state)
