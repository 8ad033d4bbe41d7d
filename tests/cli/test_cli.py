"""The command-line contract: names, JSON output, exit codes, export/import/verify."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from warscribe.cli.main import cli

PLAYERS = ["--player", "a", "--player", "b", "--player", "c"]


@pytest.fixture
def run(cli_folder: Path):  # type: ignore[no-untyped-def]
    runner = CliRunner()

    def invoke(*args: str, store: str | None = "game.db") -> Result:
        full = (["--store", store] if store else []) + list(args)
        return runner.invoke(cli, full, catch_exceptions=False)

    return invoke


def as_json(result: Result) -> object:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_done_when_walkthrough(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    created = as_json(run("new", "divine-right", *PLAYERS, "--dice", "seeded:1", "--json"))
    assert created["ruleset"] == "divine-right" and created["dice"] == "seeded"  # type: ignore[index]
    status = as_json(run("status", "--json"))
    assert status["position"] == "1.1.random-events"  # type: ignore[index]
    pending = status["pending"]  # type: ignore[index]
    first = status["order"][0]  # type: ignore[index]
    assert status["whose_turn"] == (pending["player"] if pending else first)
    shown = as_json(run("show", "--at", "1.1.random-events", "--json"))
    assert shown["turn"] == 1 and len(shown["players"]) == 3  # type: ignore[index]
    assert run("export", "-o", "game.wlog").exit_code == 0
    imported = run("import", "game.wlog", store="other.db")
    assert imported.exit_code == 0, imported.output
    verified = run("verify", store="other.db")
    assert verified.exit_code == 0 and verified.output.startswith("ok:")
    assert as_json(run("status", "--json", store="other.db")) == status


def test_default_store_is_warscribe_db_and_env_sets_it(run, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    assert run("new", "divine-right", *PLAYERS, "--dice", "seeded:2", store=None).exit_code == 0
    assert (tmp_path / "warscribe.db").exists()
    monkeypatch.setenv("WARSCRIBE_STORE", str(tmp_path / "env.db"))
    assert run("new", "divine-right", *PLAYERS, "--dice", "seeded:2", store=None).exit_code == 0
    assert (tmp_path / "env.db").exists()


def test_games_lists_every_game_and_game_selects_one(run) -> None:  # type: ignore[no-untyped-def]
    run("new", "divine-right", *PLAYERS, "--name", "first", "--dice", "seeded:1")
    run("new", "divine-right", *PLAYERS, "--name", "second", "--dice", "seeded:2")
    listed = as_json(run("games", "--json"))
    assert [g["name"] for g in listed] == ["first", "second"]  # type: ignore[index, union-attr]
    assert as_json(run("--game", "first", "status", "--json"))["name"] == "first"  # type: ignore[index]
    assert as_json(run("status", "--json"))["name"] == "second"  # type: ignore[index]


def test_games_lists_the_newest_twenty_of_a_large_store_and_says_how_many_it_holds(
    run, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """A host's store of many games: `games` prints a page (the newest, oldest of them
    first) and how many games there are, `--all` every one, `--limit N` the newest N."""
    from warscribe.engine.ruleset import GameSpec, PlayerSpec
    from warscribe.store.app import Warscribe

    app = Warscribe(str(tmp_path / "game.db"))
    two = (PlayerSpec("a"), PlayerSpec("b"))
    for n in range(23):
        app.create("divine-right", GameSpec(name=f"g{n:02}", players=two), f"seeded:{n}")
    app.close()
    shown = run("games").stdout.splitlines()
    assert [line[2:].split()[1] for line in shown[:-1]] == [f"g{n:02}" for n in range(3, 23)]
    assert shown[-1] == "(the newest 20 of 23 games: --all lists every one, --limit N the newest N)"
    assert shown[-2].startswith("* "), "the newest game is the default"
    assert len(as_json(run("games", "--all", "--json"))) == 23  # type: ignore[arg-type]
    newest = as_json(run("games", "--limit", "2", "--json"))
    assert [g["name"] for g in newest] == ["g21", "g22"]  # type: ignore[index, union-attr]
    assert "--all" not in run("games", "--limit", "23").stdout, "every game shown: no footer"
    refused = run("games", "--limit", "0")
    assert refused.exit_code == 2 and "--limit" in refused.output


def test_chosen_identity_is_honoured(run) -> None:  # type: ignore[no-untyped-def]
    result = as_json(
        run("new", "divine-right", "--player", "a=Mivior", "--player", "b=muetar", "--json")
    )
    kingdoms = {p["player"]: p["kingdom"] for p in result["players"]}  # type: ignore[index]
    assert kingdoms == {"a": "Mivior", "b": "Muetar"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["new", "divine-right", "--player", "a"], "2 to 6 players"),
        (
            [
                "new",
                "divine-right",
                *PLAYERS,
                "--player",
                "d",
                "--player",
                "e",
                "--player",
                "f",
                "--player",
                "g",
            ],
            "2 to 6",
        ),
        (["new", "divine-right", "--player", "a=Atlantis", "--player", "b"], "not a kingdom"),
        (["new", "divine-right", "--player", "a=Pon", "--player", "b=Pon"], "chosen by two"),
        (["new", "divine-right", "--player", "a", "--player", "a"], "distinct"),
        (["new", "divine-right", *PLAYERS, "--dice", "loaded"], "dice mode"),
    ],
)
def test_bad_new_is_an_error_with_exit_1_and_no_game(run, args, message) -> None:  # type: ignore[no-untyped-def]
    result = run(*args)
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and message in result.stderr
    assert "no game" in run("status").stderr


def test_usage_errors_exit_2(run) -> None:  # type: ignore[no-untyped-def]
    assert run("new", "divine-right").exit_code == 2
    assert run("log", "--from", "zero").exit_code == 2
    assert run("no-such-command").exit_code == 2


def test_log_and_positions(run) -> None:  # type: ignore[no-untyped-def]
    run("new", "divine-right", *PLAYERS, "--dice", "seeded:3")
    lines = as_json(run("log", "--json"))
    assert lines[0]["event"] == "GameCreated" and lines[0]["seq"] == 1  # type: ignore[index]
    some = as_json(run("log", "--from", "2", "--to", "4", "--json"))
    assert [e["seq"] for e in some] == [2, 3, 4]  # type: ignore[union-attr, index]
    assert run("show", "--at", "#2", "--json").exit_code == 0
    bad = run("show", "--at", "9.1.combat")
    assert bad.exit_code == 1 and "has not reached" in bad.stderr
    assert run("show", "--at", "#99999").exit_code == 1


def test_an_unknown_phase_is_an_error_naming_it_and_the_phases(run) -> None:  # type: ignore[no-untyped-def]
    """Issue 32: `show --at 2.2.banana` said the game had not reached the position; a
    phase the game does not have is a bad position, named with the phases it has."""
    run("new", "divine-right", *PLAYERS, "--dice", "seeded:3")
    for query in ("show", "kingdoms", "vp"):
        bad = run(query, "--at", "2.2.banana")
        assert bad.exit_code == 1 and bad.stderr.startswith("Error: "), bad.stderr
        assert "has not reached" not in bad.stderr
        assert (
            "bad position '2.2.banana': divine-right has no phase 'banana'; its phases are "
            "random-events, diplomacy, siege, movement, combat"
        ) in bad.stderr
    assert "has not reached" in run("show", "--at", "9.1.Combat").stderr


def test_armored_export_survives_mail_quoting(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run("new", "divine-right", *PLAYERS, "--dice", "seeded:4")
    run("roll", "2d6")
    armored = run("export", "--armor").stdout
    mangled = "Hi all, the log:\r\n\r\n" + "\r\n".join(
        "> " + line + "  " for line in armored.splitlines()
    )
    (tmp_path / "mail.txt").write_text(mangled + "\r\n-- \r\nsig\r\n")
    result = run("import", "mail.txt", store="mail.db")
    assert result.exit_code == 0, result.output
    assert run("verify", store="mail.db").exit_code == 0


def test_import_refuses_another_games_file_and_leaves_the_store_alone(run) -> None:  # type: ignore[no-untyped-def]
    run("new", "divine-right", *PLAYERS, "--name", "mine", "--dice", "seeded:5")
    run(
        "new", "divine-right", *PLAYERS, "--name", "theirs", "--dice", "seeded:6", store="theirs.db"
    )
    run("export", "-o", "theirs.wlog", store="theirs.db")
    before = run("log", "--json").stdout
    result = run("--game", "mine", "import", "theirs.wlog")
    assert result.exit_code == 1 and "not of mine" in result.stderr
    assert run("--game", "mine", "log", "--json").stdout == before


def test_import_of_a_damaged_file_names_the_entry(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run("new", "divine-right", *PLAYERS, "--dice", "seeded:7")
    run("export", "-o", "game.wlog")
    data = (tmp_path / "game.wlog").read_bytes()
    (tmp_path / "cut.wlog").write_bytes(data[: len(data) - 40])
    result = run("import", "cut.wlog", store="fresh.db")
    assert result.exit_code == 1 and result.stderr.startswith("Error: #")
    assert "no game" in run("status", store="fresh.db").stderr


def test_verify_fails_with_exit_1_naming_the_entry(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import dataclasses
    import sqlite3

    from warscribe.engine import codec

    run("new", "divine-right", *PLAYERS, "--dice", "seeded:8")
    conn = sqlite3.connect(tmp_path / "game.db")
    where = "WHERE originator_version = 5 AND topic = 'warscribe:Game.Recorded'"
    state = codec.decode(conn.execute(f"SELECT state FROM stored_events {where}").fetchone()[0])
    entry = state["entry"]
    forged = dataclasses.replace(entry, event=dataclasses.replace(entry.event, player="mallory"))
    forged_state = codec.encode({**state, "entry": forged})
    conn.execute(f"UPDATE stored_events SET state = ? {where}", (forged_state,))
    conn.commit()
    result = run("verify")
    assert result.exit_code == 1 and result.stderr.startswith("Error: #5:")


def test_reveal_in_host_mode_makes_dice_checkable(run) -> None:  # type: ignore[no-untyped-def]
    run("new", "divine-right", *PLAYERS)
    run("roll", "2d6")
    assert "re-derived" in run("verify").stdout, "the host's own store knows the secret"
    run("export", "-o", "before.wlog")
    run("import", "before.wlog", store="player.db")
    assert "cannot be checked" in run("verify", store="player.db").stdout
    assert run("roll", "1d6", store="player.db").exit_code == 1, "a player's copy cannot roll"
    assert run("reveal", "--yes").exit_code == 0
    run("export", "-o", "after.wlog")
    assert run("import", "after.wlog", store="player.db").exit_code == 0
    report = as_json(run("verify", "--json", store="player.db"))
    assert report["secret_known"] and report["rolls_checked"] == report["rolls"] > 0  # type: ignore[index]
    assert run("reveal").exit_code == 1


def test_every_command_has_an_example_in_its_help(run) -> None:  # type: ignore[no-untyped-def]
    def walk(group, prefix):  # type: ignore[no-untyped-def]
        for name, command in group.commands.items():
            yield [*prefix, name], command
            if hasattr(command, "commands"):
                yield from walk(command, [*prefix, name])

    for path, _ in walk(cli, []):
        text = run(*path, "--help", store=None).output
        assert "Example" in text, path


def test_a_games_help_lists_its_commands_phase_by_phase(run) -> None:  # type: ignore[no-untyped-def]
    """The Game Turn: `warscribe dr --help` reads the rule book's declared phases, in the
    order they are played, then what every phase and a decision asked allow."""
    text = run("dr", "--help", store=None).output
    titles = [
        "Random Events Phase:",
        "Diplomacy Phase:",
        "Siege Phase:",
        "Movement Phase:",
        "Combat Phase:",
        "Every phase:",
        "Answers to a decision:",
    ]
    assert [text.index(t) for t in titles] == sorted(text.index(t) for t in titles)
    movement = text[text.index("Movement Phase:") : text.index("Combat Phase:")]
    assert "  move " in movement and "  embark " in movement and "attack" not in movement
