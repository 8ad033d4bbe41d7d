"""Divine Right sieges from the command line (table dice): a neutral castle besieged by
movement, its kingdom invaded, the siege made invalid by the units it sets up inside,
the besiegers displaced as asked; the `sieges` query (text, --json, --at); refusals
(exit 1, naming the rule); an example in every new command's help."""

from __future__ import annotations

from pathlib import Path

from .club import Club, new_three
from .test_pbem_game import example

to_phase = example("board_shots").to_phase  # quiet phases to a player's phase


def seq_of(output: str, event: str) -> str:
    line = next(line for line in output.splitlines() if f" {event}:" in line)
    return line.split()[0]


def test_a_neutral_castle_besieged_and_the_besiegers_displaced(tmp_path: Path) -> None:
    """Siege Phase › Declaring a Siege, Besieging Neutral Castles; Activation of Invaded
    Inactive Kingdoms; Besieger Displacement."""
    club = Club(tmp_path)
    new_three(club, "table:muscaster")
    assert club.ok("sieges") == "no castle is under siege\n"
    assert club.json("sieges") == []

    # carol marches three armies from Pennol towards Muscaster, a castle of inactive Immer
    to_phase(club, 1, "carol", "Siege Phase")
    refused = club.run("siege", "attack", "Muscaster")
    assert refused.exit_code == 1
    assert "carol does not besiege Muscaster" in refused.output
    assert "(Siege Phase › Resolving a Siege (Siege Attack))" in refused.output
    club.ok("end-phase")
    club.ok("move", "Muetar-A1", "Muetar-A2", "Muetar-A3", "--path", "19,10,18,9,18,8,17,7")

    # turn 2: they enter Muscaster: a siege is declared; Immer joins another player and
    # sets up two armies inside: 3 against 3 + 2, the besiegers must go at once
    to_phase(club, 2, "carol", "Movement Phase")
    output = club.ok("move", "17,7", "--path", "17,8,16,8,Muscaster")
    assert "SiegeDeclared" in output and "KingdomActivated" in output
    status = club.json("status")
    assert status["pending"]["kind"] == "displace" and status["whose_turn"] == "carol"
    assert "INVALID" in club.ok("sieges")
    row = club.json("sieges")[0]
    assert (row["castle"], row["besieging"], row["inside"], row["valid"]) == (
        "Muscaster",
        3,
        2,
        False,
    )
    refused = club.run("move", "Muetar-A4", "--path", "24,10")
    assert refused.exit_code == 1 and "must first decide" in refused.output

    # carol displaces them next door: the siege is over
    club.ok("siege", "displace", "--to", "16,8")
    assert club.json("sieges") == []
    declared = seq_of(output, "SiegeDeclared")
    assert club.json("sieges", "--at", declared)[0]["castle"] == "Muscaster"
    assert club.json("sieges", "--at", "2.1.random-events") == []


def test_every_siege_and_combat_command_has_an_example() -> None:
    """Each command's help ends with an example (the CLI contract)."""
    from click.testing import CliRunner

    from warscribe.cli.main import cli

    runner = CliRunner()
    for words in (
        ("siege", "attack"),
        ("siege", "displace"),
        ("siege", "keep"),
        ("siege", "lift"),
        ("breakout",),
        ("attack", "declare"),
        ("attack", "resolve"),
        ("retreat", "roll"),
        ("retreat", "to"),
        ("retreat", "stand"),
        ("pursue",),
        ("sortie",),
        ("losses",),
        ("advance", "into"),
        ("advance", "none"),
        ("sieges",),
    ):
        result = runner.invoke(cli, [*words, "--help"])
        assert result.exit_code == 0 and "Example:" in result.output, words
