"""`reveal` before the game's end (issue 30): publishing the dice secret in the middle of
a game makes every future roll and the deck order public. It used to be recorded at once,
without a word; now `reveal` names what becomes public and needs `--yes` until the rules
say the game is over (exit 2 without it, nothing written). After the end it needs
nothing."""

from __future__ import annotations

import json

from tests.security.conftest import Table, new_game


def test_reveal_in_the_middle_of_a_game_needs_yes(table: Table) -> None:
    new_game(table, "host")
    table.run("games")
    before = table.snapshot("referee")
    result = table.run("reveal", ok=False)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    said = result.stderr
    assert "Error: " in said
    for public in ("every future roll", "deck order", "hidden card", "--yes"):
        assert public in said, said
    assert table.snapshot("referee") == before, "a refused reveal changed the store"

    said = table.run("reveal", "--yes").stdout
    assert "before the game's end" in said
    log = json.loads(table.run("log", "--json").stdout)
    assert log[-1]["event"] == "SecretRevealed"
    assert "re-derived from the dice secret" in table.run("verify").stdout


def test_eu_pop_has_no_end_so_its_reveal_always_needs_yes(table: Table) -> None:
    from importlib import resources

    start = resources.files("warscribe.engine.rulesets.eu_pop") / "datafiles/example-start.json"
    table.run(
        "new", "eu-pop", "--player", "ann=France", "--player", "ben=Austria", "--start", str(start)
    )
    said = table.run("reveal", ok=False).stderr
    assert "no end" in said and "--yes" in said, said


def test_reveal_after_the_games_end_needs_nothing(table: Table) -> None:
    table.run("new", "duel", "--player", "alice", "--player", "bob", "--health", "4")
    for _ in range(40):
        status = json.loads(table.run("status", "--json").stdout)
        if status["winner"]:
            break
        if status["commands"] == ["press", "rest"]:
            table.run("duel", "double", "rest")
        else:
            table.run("strike")
    assert status["winner"]
    said = table.run("reveal").stdout
    assert "dice secret revealed" in said and "before" not in said
