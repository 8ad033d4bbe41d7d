"""A dishonest host choosing a player's roll (issue 30). In record version 1 the rolls of
a player's signed orders derived from the head they were received at and from the game's
roll number, and the host decides both: a note, a ruling or a few free rolls of his own
recorded before `import-orders` (or only computed, as he holds the secret) gave him a
choice of outcomes for bob's `events roll`. In record version 2 a roll is the ECVRF output
of the host's dice key over the batch's signature and the roll's place in the batch, its
proof in the log: nothing the host records first changes it, and every copy checks every
roll when it arrives, with nothing revealed."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner

from tests.security.conftest import Table, new_game, rebuilt
from warscribe.cli.main import cli
from warscribe.engine import vrf
from warscribe.engine.dice import seeded_key
from warscribe.engine.errors import LogError
from warscribe.engine.events import Command, DiceRolled, GameCreated, OrdersReceived, SecretDraw
from warscribe.engine.orders import Orders, public_key_of, sign
from warscribe.engine.record import Entry, fold, open_game, record_command, record_orders, verify
from warscribe.engine.ruleset import GameSpec, PlayerSpec
from warscribe.engine.rulesets import get
from warscribe.store import logfile

GAME = UUID(int=30)
KEYS = {"alice": bytes(range(32)), "bob": bytes(range(32, 64))}
HOST_DICE = seeded_key("issue 30: a secret only the host holds")


def whose_turn(table: Table, store: str = "referee") -> str:
    status = json.loads(table.run("status", "--json", store=store).stdout)
    player: str = status["whose_turn"]
    return player


def batch_rolls(table: Table, store: str) -> list[DiceRolled]:
    """The rolls of the last signed orders of the game in `store`."""
    entries = logfile.read(table.run("export", "--armor", store=store).stdout.encode()).entries
    last = max(e.seq for e in entries if isinstance(e.event, OrdersReceived))
    return [e.event for e in entries if e.seq > last and isinstance(e.event, DiceRolled)]


def first_players_orders(table: Table) -> str:
    """A host game; the player on turn imports his copy and writes his `events roll`
    (orders.txt), against the head he was sent: who he is."""
    new_game(table, "host")
    player = whose_turn(table)
    table.run("export", "--for", player, "--armor", "-o", "copy.txt")
    table.run("import", "copy.txt", store=player)
    table.run("init", "--as", player, "--key", f"{player}.key", store=player)
    table.run("orders", "-o", "orders.txt", "events roll", store=player)
    return player


def copy_store(table: Table, name: str) -> None:
    """The host's scratch copy of his store, secrets file and all."""
    for path in table.folder.glob("referee.db*"):
        if not path.name.endswith(("lock", "-shm")):
            shutil.copy(path, table.folder / path.name.replace("referee", name, 1))


def test_what_the_host_records_before_the_orders_changes_none_of_their_dice(
    table: Table,
) -> None:
    """Issue 30, attack 1: bob's signed `events roll` is taken in the host's store as it
    is, after a note, and after free rolls and another note, on scratch copies: the
    Random Events roll is the same in all three, proof and all."""
    first_players_orders(table)
    copy_store(table, "noted")
    copy_store(table, "rolled")
    table.run("note", "--at", "#1", "orders received, thanks (i)", store="noted")
    for _ in range(3):
        table.run("roll", "--as", "referee", "--purpose", "the host's own", store="rolled")
    table.run("note", "--at", "#1", "orders received, thanks (ii)", store="rolled")
    for store in ("referee", "noted", "rolled"):
        table.run("import-orders", "orders.txt", store=store)
    taken = [batch_rolls(table, store) for store in ("referee", "noted", "rolled")]
    assert taken[0] and taken[0][0].proof is not None
    assert [[(r.values, r.proof) for r in rolls] for rolls in taken] == [
        [(r.values, r.proof) for r in taken[0]]
    ] * 3
    assert taken[2][0].index == taken[0][0].index + 3, "the game's roll numbers did move"


def test_a_players_copy_checks_every_roll_mid_game_without_reveal(table: Table) -> None:
    """Every roll a player's copy holds is checked by its `verify` as it arrives: the
    Random Events roll of the first player's orders and every public roll of the set-up."""
    player = first_players_orders(table)
    table.run("import-orders", "orders.txt")
    table.run("export", "--for", player, "--armor", "--force", "-o", "copy.txt")
    table.run("import", "copy.txt", store=player)
    report = json.loads(table.run("verify", "--json", store=player).stdout)
    hidden = sum(
        isinstance(e.event, SecretDraw) for e in logfile.read(Path("copy.txt").read_bytes()).entries
    )
    assert report["secret_known"] is False
    assert report["rolls_checked"] == report["rolls"] - hidden > 0


def keyed_game() -> list[Entry]:
    """Alice (Hothior) and bob (Mivior) with their keys, record version 2."""
    spec = GameSpec("t", (PlayerSpec("alice", "Hothior"), PlayerSpec("bob", "Mivior")))
    keys = tuple((n, public_key_of(k)) for n, k in KEYS.items())
    return open_game(get("divine-right"), spec, GAME, "host", HOST_DICE, keys)


def written(log: list[Entry], *commands: str) -> Orders:
    """The player on turn's orders of `commands`, written against the end of `log`."""
    head = fold(log)
    player = get("divine-right").whose_turn(head.state)
    assert player is not None
    return Orders(GAME, player, None, head.seq, head.chain, tuple((c, ()) for c in commands))


def received(log: list[Entry], orders: Orders) -> list[Entry]:
    """`log` with the signed `orders` recorded at its end."""
    signed = orders.encode()
    key = KEYS[orders.player]
    entries, refused = record_orders(fold(log), orders, signed, sign(key, signed), HOST_DICE)
    assert refused is None
    return [*log, *entries]


def last_roll(log: list[Entry]) -> Entry:
    return next(e for e in reversed(log) if isinstance(e.event, DiceRolled))


def test_the_host_computing_branches_gets_one_outcome() -> None:
    """What the host could compute on his own (he holds the key): any number of notes and
    free rolls before the orders give the orders one and the same roll."""
    start = keyed_game()
    orders = written(start, "events-roll")
    outcomes = set()
    for extra in range(6):
        log = list(start)
        for k in range(extra):
            note = (("text", f"thanks ({k})"), ("first", 1), ("last", 1), ("position", None))
            log += record_command(fold(log), Command("referee", "note", note), HOST_DICE)
            log += record_command(fold(log), Command("referee", "roll", ()), HOST_DICE)
        outcomes.add(last_roll(received(log, orders)).event.values)
    assert len(outcomes) == 1


def test_a_roll_edited_with_its_chain_rebuilt_is_caught_by_its_proof() -> None:
    """No secret needed: the proof of the edited roll does not give its numbers, and a
    proof made for another input (another place in the batch) does not check."""
    start = keyed_game()
    log = received(start, written(start, "events-roll"))
    roll = last_roll(log)
    assert isinstance(roll.event, DiceRolled)
    first = roll.event
    face = 1 if first.values[0] != 1 else 2
    edited = rebuilt(
        log,
        roll.seq,
        lambda e: dataclasses.replace(
            e, event=dataclasses.replace(first, values=(face, *first.values[1:]))
        ),
    )
    with pytest.raises(LogError, match="does not match"):
        verify(edited)
    other = vrf.prove(HOST_DICE, b"another input")
    forged = rebuilt(
        log,
        roll.seq,
        lambda e: dataclasses.replace(e, event=dataclasses.replace(first, proof=other)),
    )
    with pytest.raises(LogError, match="its proof does not check"):
        verify(forged)
    report = verify(log)  # the host's copy: its hidden draws are checked by their proofs too
    assert report.rolls_checked == report.rolls > 0 and not report.secret_known


SMALL_ORDER = bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")
"""A point of order 2 of edwards25519 (y = -1)."""


@pytest.mark.parametrize(
    "public",
    [
        SMALL_ORDER,
        bytes(32),  # no point
        vrf.public_key(HOST_DICE)[:31],
        None,
    ],
    ids=["small-order", "not-a-point", "short", "missing"],
)
def test_a_game_whose_dice_key_is_unfit_is_refused(public: bytes | None) -> None:
    """A host key with which one input could have several outputs (or none) is refused
    where the game is created: `verify` fails at GameCreated, naming the key."""
    log = keyed_game()

    def unfit(entry: Entry) -> Entry:
        created = entry.event
        assert isinstance(created, GameCreated)
        dice = dataclasses.replace(created.dice, public=public)
        return dataclasses.replace(entry, event=dataclasses.replace(created, dice=dice))

    with pytest.raises(LogError, match="public dice key is unfit") as caught:
        verify(rebuilt(log, 1, unfit))
    assert caught.value.seq == 1


def test_a_key_with_a_small_order_part_is_unfit() -> None:
    """A key with a torsion part (the honest key plus a point of order 2) decodes, is of
    no small order, and would still let one input have two outputs: refused."""
    import nacl.bindings as sodium

    mixed = sodium.crypto_core_ed25519_add(vrf.public_key(HOST_DICE), SMALL_ORDER)
    assert vrf.key_problem(mixed) is not None
    assert vrf.key_problem(vrf.public_key(HOST_DICE)) is None


def test_hidden_draws_are_checked_by_a_players_copy_once_the_secret_is_revealed() -> None:
    """The deck's shuffles keep their numbers and proofs in the referee's private part: a
    player's copy cannot check them mid-game, and checks every one after `reveal`."""
    from warscribe.engine.record import reveal
    from warscribe.store.logfile import redact_for

    start = keyed_game()
    log = received(start, written(start, "events-roll"))
    hidden = sum(isinstance(e.event, SecretDraw) for e in log)
    assert hidden
    mine = list(redact_for(log, "bob"))
    before = verify(mine)
    assert before.rolls_checked == before.rolls - hidden
    revealed = [*mine, *reveal(fold(log), HOST_DICE)]
    after = verify(revealed)
    assert after.secret_known and after.rolls_checked == after.rolls
    shuffle = next(e for e in log if isinstance(e.event, SecretDraw))
    assert shuffle.event.proof is not None and shuffle.event.values is not None
    wrong = rebuilt(
        revealed,
        shuffle.seq,
        lambda e: dataclasses.replace(e, digest=bytes(32)),
    )
    with pytest.raises(LogError):
        verify(wrong)


def test_a_batch_cut_short_at_a_command_the_rules_accept_is_a_difference() -> None:
    """The host records the first of bob's two notes and returns the second, which the
    rules take there: bob would sign it again, and had it rolled, it would roll anew. The
    audit (so every player's `import`) finds it; a batch returned at a command the rules
    refuse (a second `events roll`) is no difference."""
    from warscribe.engine.audit import audit
    from warscribe.engine.record import _batch

    start = keyed_game()
    note = ("note", (("text", "hello"), ("first", 1), ("last", 1), ("position", None)))
    head = fold(start)
    player = get("divine-right").whose_turn(head.state)
    assert player is not None
    orders = Orders(GAME, player, None, head.seq, head.chain, (note, note))
    signed = orders.encode()
    cut, _ = _batch(head, orders, signed, sign(KEYS[player], signed), HOST_DICE, 1)
    found = audit([*start, *cut]).differences
    assert [f.command.name for f in found] == ["note"]
    assert "returned command 2 (`note`)" in (found[0].refusal or "")
    twice = written(start, "events-roll", "events-roll")
    signed = twice.encode()
    log, returned = record_orders(head, twice, signed, sign(KEYS[player], signed), HOST_DICE)
    assert returned is not None and returned.index == 1
    assert not audit([*start, *log]).differences


def test_a_host_secret_given_to_new_replays_the_game_and_binds_its_rolls(tmp_path: Path) -> None:
    """`new --host-secret FILE` (tests and examples; hidden from --help): the same secret
    gives the same game id, dice commitment, dice key and entries, so a game of host dice
    replays; a player's copy of it verifies, anchored by the host's signature, without
    the secret; only host dice take one, of 32 bytes at least."""
    secret = tmp_path / "host-secret"
    secret.write_text("a host's secret of at least thirty-two bytes")
    made = []
    for name in ("one", "two"):
        store = str(tmp_path / f"{name}.db")
        new = ["new", "divine-right", "--player", "alice", "--player", "bob"]
        result = CliRunner().invoke(
            cli, ["--store", store, *new, "--host-secret", str(secret), "--json"]
        )
        assert result.exit_code == 0, result.output
        made.append(json.loads(result.stdout))
        copy = tmp_path / f"{name}-alice.wlog"
        exported = CliRunner().invoke(
            cli, ["--store", store, "export", "--for", "alice", "-o", str(copy)]
        )
        assert exported.exit_code == 0, exported.output
        made.append(copy.read_bytes())
    assert made[0] == made[2] and made[1] == made[3]
    assert made[0]["dice"] == "host"
    alice = str(tmp_path / "alice.db")
    CliRunner().invoke(cli, ["--store", alice, "import", str(tmp_path / "one-alice.wlog")])
    verified = CliRunner().invoke(cli, ["--store", alice, "verify"])
    said = verified.output
    assert verified.exit_code == 0 and "anchored by the host's signature" in said, said
    assert "the dice secret is not revealed" in said  # the player's copy never holds it
    new = [
        "--store",
        str(tmp_path / "x.db"),
        "new",
        "divine-right",
        "--player",
        "a",
        "--player",
        "b",
    ]
    seeded = CliRunner().invoke(cli, [*new, "--dice", "seeded:1", "--host-secret", str(secret)])
    assert seeded.exit_code == 1 and "Error: a host secret fixes the dice of host dice" in (
        seeded.output
    )
    secret.write_text("short")
    short = CliRunner().invoke(cli, [*new, "--host-secret", str(secret)])
    assert short.exit_code == 1 and "too short" in short.output
    shown = CliRunner().invoke(cli, ["new", "divine-right", "--help"])
    assert "--host-secret" not in shown.output
