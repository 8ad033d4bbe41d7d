"""Issue 32: `orders` in a player's store of a game of host dice checks the batch past the
rolls only the referee can make: a line refused whatever the dice give is refused at
signing, naming the line and the rule; a line stopped under some outcomes is signed, with
those outcomes named."""

from __future__ import annotations

from pathlib import Path

from .conftest import Table, new_game, on_turn

KINGDOMS = {"alice": "Hothior", "bob": "Mivior", "carol": "Muetar"}


def players_store(table: Table) -> str:
    """A host game; the player on turn imports their copy and says it is theirs."""
    new_game(table, "host")
    player = on_turn(table)
    table.run("export", "--for", player, "--armor", "-o", "copy.txt")
    table.run("import", "copy.txt", store=player)
    table.run("init", "--as", player, "--key", f"{player}.key", store=player)
    return player


def test_a_line_refused_whatever_the_dice_give_is_not_signed(table: Table) -> None:
    player = players_store(table)
    other, kingdom = next((p, k) for p, k in KINGDOMS.items() if p != player)
    lines = ("events roll", "end-phase", "diplomacy draw", f"diplomacy activate {kingdom}")
    said = table.refused("orders", "-o", "orders.txt", *lines, store=player)
    assert f"line 4 (`diplomacy activate {kingdom}`) of the orders: {kingdom} is not" in said
    assert f"(it is {other}'s)" in said
    assert "whatever the dice give: each of the" in said or "under every one checked" in said
    assert "(Diplomacy Phase › Activation Attempts)" in said
    assert not Path("orders.txt").exists()


def test_a_line_stopped_under_some_outcomes_is_signed_with_them_named(table: Table) -> None:
    player = players_store(table)
    result = table.run("orders", "-o", "orders.txt", "events roll", "end-phase", store=player)
    assert Path("orders.txt").exists()
    said = result.stderr
    assert "past dice only the referee can roll: checked under" in said
    assert f"stops for {player}'s choice if RandomEventRolled" in said
    assert "event=No Event" not in said, "nothing is asked then: the line runs"
    assert "not checked" not in said
