"""A Divine Right battle played end to end from the command line (table dice, entered
with --roll): carol's Muetaran armies march on alice's Hothiorans over three game turns,
declare and resolve an attack; alice decides her retreat (`--as alice`), both choose
their own losses, carol pursues or lets go and advances or not; the record is then
examined (`stacks --json`, `log`) and checked (`verify`, `audit`). Then alice's fleets
carry two armies to Colist, where bob's fleets are within the walls: bob decides whether
they come out (`sortie`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .club import Club, new_three
from .test_divine_right_battle_cli import to_phase

DEFENCE, FRONT, AWAY = "14,16", "15,16", "14,15"  # alice's stack, carol's, a space next to both


MARCH = {
    # turn 1: alice marches Hothior-A3 and A4 out of Castle Lapspell; carol marches
    # Muetar-A9 and A10 out of Plibba
    1: {
        "alice": ("Castle Lapspell", "--path", "13,17"),
        "carol": ("Muetar-A9", "Muetar-A10", "--path", "16,14"),
    },
    # turn 2: carol climbs the hills of 15,15; alice goes on to 14,16
    2: {"carol": ("16,14", "--path", "15,15"), "alice": ("13,17", "--path", DEFENCE)},
}


def march(tmp_path: Path) -> Club:
    """Turns 1-3: two Hothioran armies leave Castle Lapspell, two Muetaran armies leave
    Plibba; they end next to each other, at carol's turn-3 Combat Phase. Each turn's
    moves are made in that turn's player order (drawn from the record)."""
    club = Club(tmp_path)
    new_three(club, "table:battle")
    for turn, moves in MARCH.items():
        left = dict(moves)
        while left:
            player = to_phase(club, turn, tuple(left), "Movement Phase")
            club.ok("move", *left.pop(player))
    # turn 3: carol comes down next to her
    to_phase(club, 3, "carol", "Movement Phase")
    club.ok("move", "15,15", "--path", FRONT)
    club.ok("end-phase")
    assert club.json("status")["phase"] == "Combat Phase"
    return club


def units_at(club: Club, hex_: str) -> list[str]:
    wanted = [int(v) for v in hex_.split(",")]
    stacks: list[dict[str, Any]] = club.json("stacks")
    return sorted(u["unit"] for s in stacks if s["hex"] == wanted for u in s["units"])


def pending(club: Club) -> tuple[str, str, list[str]]:
    asked = club.json("status")["pending"]
    return asked["player"], asked["kind"], asked["options"]


def checked(club: Club) -> str:
    """`verify` and `audit` pass; the log's text."""
    assert club.ok("verify").startswith("ok: ")
    audit = club.run("audit")
    assert audit.exit_code == 0, audit.output
    assert " 0 differ from the rules" in audit.output
    return club.ok("log")


def test_the_defender_stands_and_both_sides_choose_their_losses(tmp_path: Path) -> None:
    """Combat Phase › Making Attacks (the owner decides which units are lost); Retreat
    Before Combat (a failed roll, then standing); Advance After Combat (nothing vacated:
    nobody is asked)."""
    club = march(tmp_path)
    # carol declares her only attack: both her armies against alice's stack
    club.ok("attack", "declare", f"{FRONT}>{DEFENCE}")
    # carol resolves it: alice is asked first whether she retreats
    output = club.ok("attack", "resolve", "1")
    assert "AttackBegun" in output
    assert pending(club)[:2] == ("alice", "retreat")
    # carol may not decide it for her (exit 1)
    refused = club.run("retreat", "stand", "--roll", "4", "--roll", "3", "--as", "carol")
    assert refused.exit_code == 1 and "alice must decide" in refused.output
    # alice rolls to retreat: 2, humans need 4-6, nobody goes
    output = club.ok("retreat", "roll", DEFENCE, "--roll", "2", "--as", "alice")
    assert "allowed=[]" in output
    # alice stands: carol 4+1 against alice 3+1, alice loses one army
    output = club.ok("retreat", "stand", "--roll", "4", "--roll", "3", "--as", "alice")
    assert "attacker_total=5 defender_total=4 attacker_losses=0 defender_losses=1" in output
    assert pending(club) == ("alice", "losses", ["Hothior-A3", "Hothior-A4"])
    # carol may not choose alice's losses (exit 1)
    refused = club.run("losses", "Hothior-A3", "--as", "carol")
    assert refused.exit_code == 1 and "alice must decide" in refused.output
    # alice chooses to lose Hothior-A4; the attack is over, nothing to advance into
    output = club.ok("losses", "Hothior-A4", "--as", "alice")
    assert "UnitsEliminated: player=alice units=['Hothior-A4']" in output
    assert "AttackEnded: number=1" in output
    assert club.json("status")["pending"] is None
    assert units_at(club, DEFENCE) == ["Hothior-A3"]
    assert units_at(club, FRONT) == ["Muetar-A10", "Muetar-A9"]
    # afterwards the log shows alice's decisions; verify and audit pass
    log = checked(club)
    assert "alice: retreat-stand" in log and "alice: losses units=Hothior-A4" in log


def test_the_defender_retreats_next_door_and_is_pursued(tmp_path: Path) -> None:
    """Combat Phase › Retreat Before Combat (units that retreated still next to their
    attackers may be attacked all the same); Making Attacks (the attacker's losses are
    his to choose); Advance After Combat."""
    club = march(tmp_path)
    # carol declares and resolves her attack on alice's stack
    club.ok("attack", "declare", f"{FRONT}>{DEFENCE}")
    club.ok("attack", "resolve", "1")
    # alice rolls 5: her armies may go; she takes them to 14,15, still next to carol's
    club.ok("retreat", "roll", DEFENCE, "--roll", "5", "--as", "alice")
    output = club.ok("retreat", "to", AWAY, "--as", "alice")
    assert "UnitsRetreated: player=alice units=['Hothior-A3', 'Hothior-A4']" in output
    assert pending(club) == ("carol", "pursue", ["Hothior-A3", "Hothior-A4"])
    # carol pursues: 2+1 against 3+1, she loses one army and chooses which
    output = club.ok("pursue", "--roll", "2", "--roll", "3")
    assert "attacker_total=3 defender_total=4 attacker_losses=1 defender_losses=0" in output
    assert pending(club) == ("carol", "losses", ["Muetar-A10", "Muetar-A9"])
    output = club.ok("losses", "Muetar-A10")
    assert "UnitsEliminated: player=carol units=['Muetar-A10']" in output
    assert pending(club) == ("carol", "advance", [DEFENCE])
    # the defending space was vacated by the retreat: carol may advance, and does not
    output = club.ok("advance", "none")
    assert "AttackEnded: number=1" in output
    assert club.json("status")["pending"] is None
    assert units_at(club, AWAY) == ["Hothior-A3", "Hothior-A4"]
    assert units_at(club, FRONT) == ["Muetar-A9"]
    assert units_at(club, DEFENCE) == []
    # afterwards the log shows carol's decisions; verify and audit pass
    log = checked(club)
    assert "carol: pursue" in log and "carol: losses units=Muetar-A10" in log


def test_the_retreat_is_let_go_and_the_attacker_advances(tmp_path: Path) -> None:
    """Combat Phase › Retreat Before Combat (the attacker may let them go); Advance After
    Combat (into the vacated space)."""
    club = march(tmp_path)
    # carol declares and resolves her attack on alice's stack
    club.ok("attack", "declare", f"{FRONT}>{DEFENCE}")
    club.ok("attack", "resolve", "1")
    # alice rolls 6 and retreats to 14,15
    club.ok("retreat", "roll", DEFENCE, "--roll", "6", "--as", "alice")
    club.ok("retreat", "to", AWAY, "--as", "alice")
    # carol lets them go: no battle; she is asked about the vacated space
    output = club.ok("pursue", "--none")
    assert "BattleFought" not in output
    assert pending(club) == ("carol", "advance", [DEFENCE])
    # carol advances one army into it
    output = club.ok("advance", "into", DEFENCE, "Muetar-A9")
    assert "UnitsAdvanced: player=carol units=['Muetar-A9']" in output
    assert "AttackEnded: number=1" in output
    assert units_at(club, DEFENCE) == ["Muetar-A9"]
    assert units_at(club, FRONT) == ["Muetar-A10"]
    assert units_at(club, AWAY) == ["Hothior-A3", "Hothior-A4"]
    # carol ends her Combat Phase: the game goes on
    club.ok("end-phase")
    # the log shows carol's decisions; verify and audit pass
    log = checked(club)
    assert "carol: pursue-none" in log and "carol: advance-into" in log


def test_the_defender_destroyed_and_no_advance(tmp_path: Path) -> None:
    """Combat Phase › Making Attacks (a loser with fewer units than the difference loses
    them all); Advance After Combat (the attacker may stay)."""
    club = march(tmp_path)
    # carol declares and resolves her attack; alice stands at once
    club.ok("attack", "declare", f"{FRONT}>{DEFENCE}")
    club.ok("attack", "resolve", "1")
    # 6+1 against 1+1: both of alice's armies are eliminated, nothing to choose
    output = club.ok("retreat", "stand", "--roll", "6", "--roll", "1", "--as", "alice")
    assert "UnitsEliminated: player=alice units=['Hothior-A3', 'Hothior-A4']" in output
    assert pending(club) == ("carol", "advance", [DEFENCE])
    # carol stays where she is
    output = club.ok("advance", "none")
    assert "AttackEnded: number=1" in output
    assert units_at(club, DEFENCE) == []
    assert units_at(club, FRONT) == ["Muetar-A10", "Muetar-A9"]
    # verify and audit pass
    checked(club)


def sail_on_colist(tmp_path: Path) -> Club:
    """Turns 1-2: bob's fleets go within the walls of Colist; alice's two fleets embark the
    armies of Port Lork and sail beside it; alice's turn-2 Combat Phase."""
    club = Club(tmp_path)
    new_three(club, "table:battle")
    # turn 1: bob takes his four fleets inside the castle-port of Colist
    to_phase(club, 1, "bob", "Movement Phase")
    club.ok("inside", "Mivior-F1", "Mivior-F2", "Mivior-F3", "Mivior-F4")
    # turn 2: alice embarks an army on each fleet at Port Lork
    to_phase(club, 2, "alice", "Movement Phase")
    club.ok("embark", "Hothior-F1", "Hothior-A1")
    club.ok("embark", "Hothior-F2", "Hothior-A2")
    # turn 2: alice's fleets sail along the coast to 5,21, beside Colist
    club.ok("move", "Hothior-F1", "Hothior-F2", "--path", "9,18,8,18,7,19,7,20,6,20,5,21")
    club.ok("end-phase")
    # alice declares the amphibious attack on Colist and resolves it: bob is asked first
    club.ok("attack", "declare", "amphibious:Hothior-F1,Hothior-F2>Colist")
    output = club.ok("attack", "resolve", "1")
    assert "kind=amphibious attacker=alice defender=bob" in output
    assert pending(club) == ("bob", "sortie", [f"Mivior-F{n}" for n in range(1, 5)])
    return club


def colist(club: Club) -> dict[str, bool]:
    """bob's units at Colist, and whether each is inside the walls."""
    stacks: list[dict[str, Any]] = club.json("stacks")
    return {u["unit"]: u["inside"] for s in stacks if s["place"] == "Colist" for u in s["units"]}


def test_a_fleet_comes_out_of_the_castle_port_and_stays_out(tmp_path: Path) -> None:
    """Combat Phase › Amphibious Attacks: fleets inside a castle-port may come outside to
    defend if their owner desires; they remain outside after the battle. Heroes › Hero
    Fate Roll (the monarch whose stack lost units)."""
    club = sail_on_colist(tmp_path)
    # alice may not decide for bob's fleets (exit 1)
    refused = club.run("sortie", "Mivior-F1", "--as", "alice")
    assert refused.exit_code == 1 and "bob must decide" in refused.output
    # bob brings Mivior-F1 out; he is then asked about retreating
    output = club.ok("sortie", "Mivior-F1", "--as", "bob")
    assert "FleetsCameOut: number=1 player=bob units=['Mivior-F1']" in output
    assert pending(club)[:2] == ("bob", "retreat")
    # bob stands: 6+1 against 4+1, four against four; he loses two units
    output = club.ok("retreat", "stand", "--roll", "6", "--roll", "4", "--as", "bob")
    assert "attacking=4 defending=4" in output and "defender_losses=2" in output
    assert pending(club) == ("bob", "losses", ["Mivior-A1", "Mivior-A2", "Mivior-A3", "Mivior-F1"])
    # bob loses two armies; his monarch's Hero Fate Roll is a 4: no effect
    output = club.ok("losses", "Mivior-A2", "Mivior-A3", "--roll", "4", "--as", "bob")
    assert "HeroFateRolled: hero=Mivior-monarch" in output and "result=no effect" in output
    assert "AttackEnded: number=1" in output
    assert colist(club) == {
        "Mivior-A1": False,
        "Mivior-F1": False,
        "Mivior-F2": True,
        "Mivior-F3": True,
        "Mivior-F4": True,
        "Mivior-monarch": False,
    }
    # the log shows bob's decision; verify and audit pass
    log = checked(club)
    assert "bob: sortie units=Mivior-F1" in log


def test_the_fleets_stay_within_the_walls_and_the_attacker_loses(tmp_path: Path) -> None:
    """Combat Phase › Amphibious Attacks (coming out is the owner's choice; a failed
    amphibious attack withdraws); Making Attacks (the attacker chooses her losses)."""
    club = sail_on_colist(tmp_path)
    # bob keeps his fleets within the walls
    output = club.ok("sortie", "--none", "--as", "bob")
    assert "FleetsCameOut: number=1 player=bob units=[]" in output
    # bob stands: 2+1 against 5+1, alice loses three of her four units
    output = club.ok("retreat", "stand", "--roll", "2", "--roll", "5", "--as", "bob")
    assert "attacking=4 defending=3" in output and "attacker_losses=3" in output
    assert pending(club) == (
        "alice",
        "losses",
        ["Hothior-A1", "Hothior-A2", "Hothior-F1", "Hothior-F2"],
    )
    # alice loses Hothior-F2 (its cargo with it) and Hothior-A1; Hothior-F1 withdraws
    output = club.ok("losses", "Hothior-F2", "Hothior-A2", "Hothior-A1")
    assert "CargoLost: fleet=Hothior-F2 units=['Hothior-A2']" in output
    assert "WithdrawalLosses: number=1 player=alice survivors=1" in output
    assert "AttackEnded: number=1" in output
    assert units_at(club, "5,21") == ["Hothior-F1"]
    assert all(inside for unit, inside in colist(club).items() if "-F" in unit)
    # the log shows both decisions; verify and audit pass
    log = checked(club)
    assert "bob: sortie-none" in log and "alice: losses" in log
