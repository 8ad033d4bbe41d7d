"""Play by email between three stores: the referee's and two players', through signed
orders and armored exports mangled by mail; a hidden card drawn, held, played and checked;
refused orders; the audit; forks; notes and rulings.

Dice derive from the game id and the chain, so the tests fix the id of the games they
create and the players' keys (Ed25519 signatures are deterministic), then pick a seed
whose random events ask nobody for a choice by playing the same orders through the record
first: the game played through the command line is then exactly the one simulated.
"""

from __future__ import annotations

import dataclasses
import json
import quopri
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from warscribe.cli.main import cli
from warscribe.engine.dice import seeded_key
from warscribe.engine.errors import WarscribeError
from warscribe.engine.orders import Orders, public_key_of, sign
from warscribe.engine.record import Head, fold, next_chain, open_game, record_orders
from warscribe.engine.ruleset import GameSpec, PlayerSpec
from warscribe.engine.rulesets import get
from warscribe.engine.rulesets.divine_right.events import DiplomacyAttempted
from warscribe.store import logfile
from warscribe.store.app import seeded_game_id
from warscribe.store.orders import KeyFile, write_key

PLAYERS = (("alice", "Hothior"), ("bob", "Mivior"))
PRIVATE = {"alice": bytes(range(32)), "bob": bytes(range(32, 64))}
QUIET_TURN = ("events roll", "end-phase", "diplomacy draw", "diplomacy pass") + ("end-phase",) * 4
TARGET = "Neuth"

Plan = list[tuple[str, tuple[str, ...]]]


def mail(text: str) -> str:
    """What a mail client may do to a pasted block: quoted-printable, quoting, CRLF."""
    encoded = quopri.encodestring(text.encode(), quotetabs=False).decode()
    quoted = "\r\n".join("> " + line + "  " for line in encoded.splitlines())
    return "Here are my orders.\r\n\r\n" + quoted + "\r\n-- \r\nsent from a phone\r\n"


# -- the planned game, simulated through the record ------------------------------------------


def plan(seed: str) -> Plan | None:
    """The orders of a game where the first player draws a card, holds it through the
    other player's turn and plays it in turn 2; None when a random event asks for a choice."""
    spec = GameSpec("pbem", tuple(PlayerSpec(n, k) for n, k in PLAYERS))
    keys = tuple((n, public_key_of(PRIVATE[n])) for n, _ in PLAYERS)
    key = seeded_key(seed)
    game_id = seeded_game_id(
        "divine-right", seed, "pbem"
    )  # the id `new --dice seeded:SEED --name pbem` gives
    head = fold(open_game(get("divine-right"), spec, game_id, f"seeded:{seed}", key, keys))
    ruleset = get("divine-right")
    steps: Plan = []
    try:
        holder = ruleset.whose_turn(head.state)
        while head.state.number < 2 or ruleset.whose_turn(head.state) != holder:
            player = ruleset.whose_turn(head.state)
            assert player is not None
            steps.append((player, QUIET_TURN))
            head = _play(head, player, QUIET_TURN, key)
        assert holder is not None
        head = _play(head, holder, QUIET_TURN[:3], key)
        steps.append((holder, QUIET_TURN[:3]))
        card = head.state.player(holder).hand[0]
        play = (f"diplomacy activate {TARGET} --card {card}",)
        head = _play(head, holder, play, key)
        steps.append((holder, play))
    except WarscribeError:
        return None
    return steps


def _play(head: Head, player: str, commands: tuple[str, ...], key: bytes) -> Head:
    from warscribe.cli.generated import parse_line

    read = [parse_line(None, "divine-right", line, player) for line in commands]
    orders = Orders(
        game_id=head.game_id,
        player=player,
        position=get("divine-right").position(head.state),
        seq=head.seq,
        chain=head.chain,
        commands=tuple((c.name, c.args) for c in read),
        lines=commands,
    )
    signed = orders.encode()
    entries, refused = record_orders(head, orders, signed, sign(PRIVATE[player], signed), key)
    if refused is not None:
        raise refused.reason
    return fold(entries, head)


def quiet_game() -> tuple[str, Plan]:
    for n in range(1, 400):
        steps = plan(str(n))
        if steps is not None:
            return str(n), steps
    raise AssertionError("no seed gives a game without random-event choices")


# -- the command line -------------------------------------------------------------------------


@pytest.fixture
def run(cli_folder: Path) -> Callable[..., Result]:
    for name, private in PRIVATE.items():
        (cli_folder / f"{name}.key").write_text(write_key(KeyFile("private", name, private)))
        public = KeyFile("public", name, public_key_of(private))
        (cli_folder / f"{name}.pub").write_text(write_key(public))
    runner = CliRunner()

    def invoke(*args: str, store: str = "referee.db", ok: bool = True) -> Result:
        result = runner.invoke(cli, ["--store", store, *args], catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, result.output
        return result

    return invoke


def as_json(result: Result) -> Any:
    return json.loads(result.stdout)


def new_game(run: Callable[..., Result], seed: str) -> None:
    players = [a for name, kingdom in PLAYERS for a in ("--player", f"{name}={kingdom}")]
    keys = [a for name, _ in PLAYERS for a in ("--key", f"{name}={name}.pub")]
    run("new", "divine-right", *players, *keys, "--dice", f"seeded:{seed}", "--name", "pbem")
    sync(run)


def sync(run: Callable[..., Result]) -> None:
    """The referee mails each player their copy (replacing last time's); each imports it
    into their own store."""
    for name, _ in PLAYERS:
        run("export", "--for", name, "--armor", "--force", "-o", f"to-{name}.txt")
        path = Path(f"to-{name}.txt")
        path.write_text(mail(path.read_text()))
        run("import", str(path), store=f"{name}.db")


def write_orders(
    run: Callable[..., Result], player: str, *commands: str, key: str = "", checked: bool = True
) -> None:
    """The player writes signed orders (with their own key unless `key` names another)
    against their copy, to orders.txt (replacing the last ones); `checked=False` signs
    them without the dry run (orders the referee must refuse)."""
    key = key or f"{player}.key"
    unchecked = () if checked else ("--unchecked",)
    written = ("-o", "orders.txt", "--force", *unchecked, *commands)
    run("orders", "--as", player, "--key", key, *written, store=f"{player}.db")


def send_orders(run: Callable[..., Result], player: str, commands: tuple[str, ...]) -> Result:
    """The player writes signed orders against their copy, mails them; the referee imports."""
    write_orders(run, player, *commands)
    Path("orders.txt").write_text(mail(Path("orders.txt").read_text()))
    return run("import-orders", "orders.txt", ok=False)


@pytest.fixture
def started(run: Callable[..., Result]) -> tuple[Callable[..., Result], Plan]:
    seed, steps = quiet_game()
    new_game(run, seed)
    return run, steps


def up_to_the_card(run: Callable[..., Result], steps: Plan) -> tuple[str, str]:
    """Every player's orders but the last (the holder's, which play the card he holds),
    each copy synced after each: the holder, in his Diplomacy Phase, and another player."""
    holder = steps[0][0]
    for player, commands in steps[:-1]:
        assert send_orders(run, player, commands).exit_code == 0
        sync(run)
    return holder, next(n for n, _ in PLAYERS if n != holder)


def test_a_game_by_email_between_three_stores(started: tuple[Callable[..., Result], Plan]) -> None:
    run, steps = started
    holder, other = up_to_the_card(run, steps)
    held = as_json(run("hand", "--as", holder, "--json", store=f"{holder}.db"))["cards"]
    card = held[0]
    seen = as_json(run("hand", "--as", holder, "--json", store=f"{other}.db"))["cards"]
    assert seen == ["hidden"] * len(held), "the other sees how many cards, not which"
    assert card in steps[-1][1][0], "the card held is the one the plan plays"

    played = send_orders(run, holder, steps[-1][1])
    assert played.exit_code == 0, played.output
    sync(run)
    heads = {
        as_json(run("status", "--json", store=s))["chain"]
        for s in ("referee.db", "alice.db", "bob.db")
    }
    assert len(heads) == 1, "the three copies end on the same chain"
    theirs = run("log", "--json", store=f"{other}.db")
    published = [e for e in as_json(theirs) if e["event"] == "Disclosed"]
    assert any(o["value"] == card for e in published for o in e["fields"]["openings"])
    for store in ("referee.db", "alice.db", "bob.db"):
        report = as_json(run("verify", "--json", store=store))
        assert report["disclosures_checked"] >= 1 and report["orders_checked"] == len(steps)
    assert as_json(run("audit", "--json"))["ok"]


def test_status_in_a_players_store_while_another_holds_hidden_cards(
    started: tuple[Callable[..., Result], Plan],
) -> None:
    """Issue 32: `status --json` in a player's store ended in a StopIteration traceback
    while another player, in his Diplomacy Phase, held cards that copy hides: the
    commands offered to him were tried with the card `hidden`, which names no card of
    the deck. The status answers, offering him no card it cannot see."""
    run, steps = started
    holder, other = up_to_the_card(run, steps)
    status = as_json(run("status", "--json", store=f"{other}.db"))
    assert (status["whose_turn"], status["phase"]) == (holder, "Diplomacy Phase")
    seen = as_json(run("hand", "--as", holder, "--json", store=f"{other}.db"))["cards"]
    assert seen and set(seen) == {"hidden"}
    assert "diplomacy activate" in status["commands"]
    assert "hidden" not in json.dumps(status["may_type"])
    # his own store, which shows his cards, offers them too (to play or to discard)
    theirs = as_json(run("status", "--json", store=f"{holder}.db"))
    assert set(status["commands"]) < set(theirs["commands"])


def test_a_players_copy_hides_the_others_cards_and_verifies(
    started: tuple[Callable[..., Result], Plan],
) -> None:
    run, steps = started
    holder = steps[0][0]
    other = next(n for n, _ in PLAYERS if n != holder)
    send_orders(run, holder, steps[0][1])
    run("export", "--for", other, "-o", "theirs.wlog")
    copy = logfile.read(Path("theirs.wlog").read_bytes())
    full = logfile.read(run("export", "--armor").stdout.encode())
    assert [e.chain for e in copy.entries] == [e.chain for e in full.entries]
    hidden = [e for e in copy.entries if e.digest is not None]
    assert hidden and all(e.salt is None for e in hidden), "nothing hidden is left to the other"
    mine = logfile.read(run("export", "--for", holder, "--armor").stdout.encode())
    drawn = [e for e in mine.entries if type(e.event).__name__ == "DiplomacyCardDrawn"]
    assert drawn and drawn[0].salt is not None and drawn[0].event.card  # type: ignore[attr-defined]


def refused(run: Callable[..., Result], reason: str) -> None:
    before = run("log", "--json").stdout
    result = run("import-orders", "orders.txt", ok=False)
    assert result.exit_code == 1 and reason in result.stderr, result.output
    assert run("log", "--json").stdout == before, "the store is unchanged"


def test_forged_orders_are_refused(started: tuple[Callable[..., Result], Plan]) -> None:
    run, steps = started
    player, commands = steps[0]
    other = next(n for n, _ in PLAYERS if n != player)
    forged = KeyFile("private", player, PRIVATE[other])  # the other signs as the player
    Path("forged.key").write_text(write_key(forged))
    write_orders(run, player, *commands, key="forged.key")
    refused(run, "forged")


def test_altered_orders_are_refused_as_forged(started: tuple[Callable[..., Result], Plan]) -> None:
    run, steps = started
    player, commands = steps[0]
    write_orders(run, player, *commands)
    from warscribe.store import orders as orders_file

    signed = orders_file.read_orders(Path("orders.txt").read_bytes())
    altered = dataclasses.replace(
        signed.orders, commands=(("diplomacy-pass", ()),), lines=("diplomacy pass",)
    )
    from warscribe.engine import codec
    from warscribe.store import armor

    data = codec.encode(
        {
            "format": orders_file.ORDERS_FORMAT,
            "orders": altered.encode(),
            "signature": signed.signature,
        }
    )
    Path("orders.txt").write_text(armor.armor(data, orders_file.ORDERS_KIND))
    refused(run, "forged")


def test_replayed_orders_are_refused(started: tuple[Callable[..., Result], Plan]) -> None:
    run, steps = started
    player, commands = steps[0]
    write_orders(run, player, *commands)
    run("import-orders", "orders.txt")
    refused(run, "replayed")


def test_stale_orders_are_refused(started: tuple[Callable[..., Result], Plan]) -> None:
    """Orders written before the player's own last orders were recorded are stale (a note
    in between would not make them so: see tests/security/test_stale_orders.py)."""
    run, steps = started
    player, commands = steps[0]
    assert send_orders(run, player, commands[:1]).exit_code == 0
    write_orders(run, player, *commands[1:], checked=False)
    refused(run, "stale")


def test_out_of_turn_orders_are_refused(started: tuple[Callable[..., Result], Plan]) -> None:
    run, steps = started
    player = steps[0][0]
    other = next(n for n, _ in PLAYERS if n != player)
    write_orders(run, other, "events roll")
    refused(run, "out of turn")


def test_orders_against_another_log_are_refused(
    started: tuple[Callable[..., Result], Plan],
) -> None:
    run, steps = started
    player, commands = steps[0]
    run(
        "note",
        "--at",
        "1.1.random-events",
        "the player's copy never saw this",
        store=f"{player}.db",
    )
    write_orders(run, player, *commands)
    refused(run, "this log ends at")


def test_orders_the_rules_refuse_from_their_first_command_record_nothing(
    started: tuple[Callable[..., Result], Plan],
) -> None:
    run, steps = started
    player = steps[0][0]
    write_orders(run, player, "diplomacy draw", "events roll", checked=False)
    refused(run, "Random Events Phase")


def test_orders_are_recorded_up_to_the_first_command_the_rules_refuse(
    started: tuple[Callable[..., Result], Plan],
) -> None:
    """The roll made is recorded; the refused command and the rest come back with the
    reason (exit 1), naming the command."""
    run, steps = started
    player = steps[0][0]
    write_orders(run, player, "events roll", "diplomacy draw", "end-phase", checked=False)
    result = run("import-orders", "orders.txt", ok=False)
    assert result.exit_code == 1
    assert "recorded 1 of 3 commands" in result.stderr and "Random Events Phase" in result.stderr
    assert "Returned unrecorded: diplomacy draw; end-phase" in result.stderr
    log = as_json(run("log", "--json"))
    start = max(i for i, e in enumerate(log) if e["event"] == "OrdersReceived")
    assert log[start]["fields"]["accepted"] == 1
    issued = [e["fields"]["name"] for e in log[start:] if e["event"] == "CommandIssued"]
    assert issued == ["events-roll"]
    assert any(e["event"] == "DiceRolled" for e in log[start:])
    assert run("verify").exit_code == 0
    assert run("audit").exit_code == 0


# -- audit, forks, notes --------------------------------------------------------------------


def rechained(entries: list[Any], seq: int, change: Callable[[Any], Any]) -> list[Any]:
    """The log with entry `seq`'s event changed and every chain hash rebuilt after it."""
    out, chain = [], bytes(32)
    for entry in entries:
        if entry.seq == seq:
            entry = dataclasses.replace(entry, event=change(entry.event))
        entry = dataclasses.replace(entry, chain=next_chain(chain, entry))
        out.append(entry)
        chain = entry.chain
    return out


def test_the_audit_catches_a_hand_edited_outcome(
    started: tuple[Callable[..., Result], Plan],
) -> None:
    run, steps = started
    for player, commands in steps:
        assert send_orders(run, player, commands).exit_code == 0
        sync(run)
    log = logfile.read(run("export", "--armor").stdout.encode())
    attempt = next(e for e in log.entries if isinstance(e.event, DiplomacyAttempted))

    def flipped(event: DiplomacyAttempted) -> DiplomacyAttempted:
        return dataclasses.replace(event, total=event.total + 3, succeeded=not event.succeeded)

    edited = rechained(list(log.entries), attempt.seq, flipped)
    data = logfile.write(log.game_id, log.name, log.ruleset, log.players, edited)
    Path("edited.wlog").write_bytes(data)
    refused = run("import", "edited.wlog", store="judge.db", ok=False)
    assert refused.exit_code == 1 and f"#{attempt.seq}:" in refused.stderr, "import re-decides"
    assert "no game" in run("status", store="judge.db", ok=False).stderr, "nothing was written"
    result = run("audit", "--file", "edited.wlog", store="judge.db", ok=False)
    assert result.exit_code == 1, "the rebuilt chain verifies, the audit does not"
    assert f"#{attempt.seq} difference [Diplomacy Phase › Activation Attempts]" in result.stdout
    total = attempt.event.total
    assert f"total: recorded {total + 3}, rules give {total}" in result.stdout, "field by field"
    succeeded = attempt.event.succeeded
    assert f"succeeded: recorded {not succeeded}, rules give {succeeded}" in result.stdout
    turn = as_json(run("audit", "--file", "edited.wlog", "--turn", "2", "--json", ok=False))
    assert [f["seq"] for f in turn["findings"]] == [attempt.seq]
    assert as_json(
        run("audit", "--file", "edited.wlog", "--turn", "1", "--json", store="judge.db")
    )["ok"]
    mine = as_json(run("audit", "--file", "edited.wlog", "--turn", "1", "--json", ok=False))
    assert mine["problems"] == [f"#{attempt.seq}: the copy differs from this store's log here"]


def test_fork_at_a_phase_and_both_lines_go_on(started: tuple[Callable[..., Result], Plan]) -> None:
    run, steps = started
    player, commands = steps[0]
    assert send_orders(run, player, commands).exit_code == 0
    phase = "1.1.diplomacy"
    original = run("log", "--json").stdout
    forked = as_json(run("--game", "pbem", "fork", "--at", phase, "--name", "what-if", "--json"))
    assert run("--game", "pbem", "log", "--json").stdout == original, "the original is untouched"
    listed = as_json(run("games", "--json"))
    child = next(g for g in listed if g["name"] == "what-if")
    parent = as_json(run("games", "--json"))[0]["game_id"]
    assert child["parent"] == [parent, forked["at_seq"]]
    assert "fork of pbem" in run("games").stdout
    assert as_json(run("--game", "what-if", "status", "--json"))["position"] == phase
    what_if = ("--as", player, "--host-act", "what if")  # the referee plays the line out
    run("--game", "what-if", "diplomacy", "draw", *what_if)
    run("--game", "what-if", "diplomacy", "pass", *what_if)
    run("--game", "pbem", "roll", "2d6", "--as", "referee")
    for game in ("pbem", "what-if"):
        assert run("--game", game, "verify").exit_code == 0
    run("--game", "what-if", "export", "-o", "fork.wlog")
    run("import", "fork.wlog", store="other.db")
    assert as_json(run("games", "--json", store="other.db"))[0]["parent"] == child["parent"]
    assert as_json(run("--game", "what-if", "audit", "--json"))["ok"]


def test_notes_and_rulings_are_recorded_and_the_audit_names_rulings(
    started: tuple[Callable[..., Result], Plan],
) -> None:
    run, steps = started
    player, commands = steps[0]
    assert send_orders(run, player, commands).exit_code == 0
    run("note", "--at", "1.1.diplomacy", "nice draw", "--as", player, "--host-act", "by phone")
    banish = json.dumps({"player": player, "kingdom": TARGET, "until": 3, "why": "rude"})
    run(
        "note",
        "--ruling",
        "--at",
        "1.1.diplomacy",
        "the envoy insulted the king",
        "--impose",
        f"dr.AmbassadorBanished {banish}",
    )
    log = run("log").stdout
    assert f"note by {player} on 1.1.diplomacy" in log and "RULING by referee" in log
    assert any(b["kingdom"] == TARGET for b in as_json(run("banishments", "--json"))[player])
    report = as_json(run("audit", "--json"))
    assert report["ok"] and [f["kind"] for f in report["findings"]] == ["ruling"]
    assert "envoy" in run("audit").stdout
    bad = run("note", "--ruling", "--at", "#2", "x", "--impose", "dr.Nothing {}", ok=False)
    assert bad.exit_code == 1 and "cannot make" in bad.stderr


def test_orders_are_dry_run_before_signing_and_a_refusal_names_the_line(
    started: tuple[Callable[..., Result], Plan],
) -> None:
    """A typo, a line the command line would not take, or an illegal command is refused in
    the player's own store, naming its line and text (exit 2 for a line that does not
    read, 1 for what the rules refuse), and nothing is signed or written; good orders
    print what they would do, line by line as written."""
    run, steps = started
    player = steps[0][0]
    Path("orders.txt").unlink(missing_ok=True)
    for commands, code, said in (
        (("events roll", "mvoe x"), 2, "line 2 (`mvoe x`) of the orders: no command 'mvoe'"),
        (("events-roll",), 2, "write it as on the command line: `events roll`"),
        (("events roll --as nobody",), 2, "orders are " + player + "'s own commands"),
        (("events roll --roll 3",), 2, "orders take no --roll"),
        (("hand",), 2, "line 1 (`hand`) of the orders: `hand` is a query"),
        (("move",), 2, "line 1 (`move`) of the orders: Missing argument"),
        (("end-phase",), 1, "line 1 (`end-phase`) of the orders: roll the random events first"),
        (("events roll", "answer retreat=cheapest"), 1, "line 2 (`answer`) of the orders"),
    ):
        result = run(
            "orders", "--as", player, "--key", f"{player}.key", "-o", "orders.txt", *commands,
            store=f"{player}.db", ok=False,
        )  # fmt: skip
        assert result.exit_code == code and said in result.stderr, result.output
        assert not Path("orders.txt").exists(), "nothing is written"
    write_orders(run, player, "events roll", "answer storm=cheapest mutiny=cheapest")
    assert Path("orders.txt").exists()
