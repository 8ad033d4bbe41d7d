"""Mail that stopped the referee for good (issue 31): MIME nested past what Python's mail
library recurses through, header encodings it fails on or decodes to CR LF, a replayed
mail whose Message-ID broke the replies, armor scanned in time growing with the square of
its size, two runs at once and a run killed midway. Each mail now ends taken or set aside
in INBOX.quarantine, every run goes on with the others, and a stopped run is finished by
the next with no false "replayed", no reply lost and none sent twice. Real Maildirs."""

from __future__ import annotations

import json
import mailbox
import os
import random
import time
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

import pytest

from tests.cli.mailing import PLAYERS, drop, mailed_game, orders_text, outbox, whose_turn, written
from tests.security.conftest import Table
from tests.security.fuzz_cases import hostile_mail, nested_mime
from warscribe.store import armor
from warscribe.store import mailbox as mb
from warscribe.store import orders as orders_file
from warscribe.store.app import Warscribe

FUZZ_SECONDS = float(os.environ.get("FUZZ_SECONDS", "10"))
SEED = int(os.environ.get("FUZZ_SEED", "31"))


@pytest.fixture
def game(table: Table) -> Table:
    """A game of three with addresses; every player has their copy; the outbox is empty;
    every player asked for a mail on every run with something new (`--notify every`), so
    that each run's replies to all of them are counted."""
    mailed_game(table)
    for player in PLAYERS:
        table.run("address", player, "--notify", "every")
    return table


def entries(table: Table) -> int:
    return int(json.loads(table.run("status", "--json").stdout)["seq"])


def unseen(folder: str = "inbox") -> list[str]:
    return os.listdir(Path(folder, "new"))


def replies() -> dict[str, list[Any]]:
    """The outbox's replies by recipient (the local part of To)."""
    out: dict[str, list[Any]] = {}
    for message in outbox():
        out.setdefault(str(message["To"]).partition("@")[0], []).append(message)
    return out


def headed(header: bytes, body: str) -> bytes:
    """A plain mail with the header lines given (raw, as a hostile sender writes them)."""
    top = b"To: referee@example.org\nSubject: my turn\n" + header
    if b"From:" not in header:
        top = b"From: alice@example.org\n" + top
    return top + b"\n\n" + body.encode()


def nested(body: str, depth: int, style: str) -> bytes:
    top = b"From: alice@example.org\nTo: referee@example.org\nSubject: fwd\nMIME-Version: 1.0\n"
    return top + nested_mime(body.encode(), depth, style)


@pytest.mark.parametrize(("depth", "style"), [(1200, "message"), (1000, "mixed"), (400, "mixed")])
def test_mime_nested_past_the_bound_is_set_aside_and_the_others_are_taken(
    game: Table, depth: int, style: str
) -> None:
    """1,200 nested message/rfc822 parts (a RecursionError before anything was taken),
    1,000 nested multipart/mixed, 400 nested (recorded, then mark_seen crashed writing it
    again): the mail is moved to INBOX.quarantine with its reason, the referee's own
    address is told, and the orders of the other mail are recorded and replied to."""
    whose = whose_turn(game)
    poison = nested(orders_text(game, whose, "events roll"), depth, style)
    good = written(orders_text(game, whose, "events roll"))
    drop("inbox", poison, good)
    result = game.run("referee", "inbox", "--outbox", "out", ok=False)
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert f"{whose}'s orders: 1 of 1 commands recorded" in result.stdout
    assert "multipart or message parts, more than 64: not read (set aside in" in result.stdout
    assert unseen() == []
    aside = mailbox.Maildir("inbox.quarantine", create=False)
    (key,) = aside.keys()
    assert aside.get_bytes(key) == poison, "the mail is moved as it came"
    assert "more than 64" in Path("inbox.quarantine", f"{key}.reason").read_text()
    told = replies()
    assert sorted(told) == sorted((*PLAYERS, "referee"))
    assert all(len(each) == 1 for each in told.values())
    assert key in told["referee"][0].get_content()
    again = game.run("referee", "inbox", "--outbox", "out")
    assert again.stdout.strip() == "", "the next run has nothing left to do"


def test_a_from_whose_encoded_word_holds_a_line_break_is_taken_without_it(game: Table) -> None:
    """`From: =?utf-8?q?x=0D=0Ay?= <m@evil.test>` was a ValueError: the raw header's
    address is taken, and the reply goes to the recorded address as ever."""
    whose = whose_turn(game)
    mail = headed(
        b"From: =?utf-8?q?x=0D=0Ay?= <m@evil.test>", orders_text(game, whose, "events roll")
    )
    drop("inbox", mail)
    result = game.run("referee", "inbox", "--outbox", "out")
    assert f"from m@evil.test: {whose}'s orders: 1 of 1 commands recorded" in result.stdout
    assert sorted(replies()) == sorted(PLAYERS)


@pytest.mark.parametrize(
    "message_id",
    [b"<>", b"<=?utf-8?q?a=0D=0Ab?=@evil.test>", b"=?utf-8?q?=0D=0ABcc:_m@evil.test?="],
)
def test_a_message_id_that_is_no_plain_msg_id_is_dropped(game: Table, message_id: bytes) -> None:
    """`Message-ID: <>` was an IndexError; one that decodes to CR LF went into the reply's
    In-Reply-To and the reply step crashed. Only a plain msg-id is kept."""
    whose = whose_turn(game)
    drop("inbox", headed(b"Message-ID: " + message_id, orders_text(game, whose, "events roll")))
    result = game.run("referee", "inbox", "--outbox", "out")
    assert f"{whose}'s orders: 1 of 1 commands recorded" in result.stdout
    mine = replies()[whose][0]
    assert mine["In-Reply-To"] is None and "Your mail" in mine.get_content()


def test_a_replayed_mail_with_a_hostile_message_id_leaves_everyone_mailed(game: Table) -> None:
    """Anyone can mail an old signed orders block again (every copy of the log holds it):
    refused as replayed, its Message-ID (CR LF once decoded) was copied into the replies'
    In-Reply-To, and the reply step crashed on every run: nobody was mailed."""
    whose = whose_turn(game)
    block = orders_text(game, whose, "events roll")
    drop("inbox", written(block))
    game.run("referee", "inbox", "--outbox", "out")
    for folder in ("new", "cur"):
        for name in os.listdir(Path("out", folder)):
            os.unlink(Path("out", folder, name))
    replay = headed(b"Message-ID: <=?utf-8?q?x=0D=0Ay?=@evil.test>", block)
    drop("inbox", replay, written("see you friday", sender="bob@example.org"))
    game.run("address", "carol", "carol@example.net")  # something for the replies to say
    result = game.run("referee", "inbox", "--outbox", "out", ok=False)
    assert "refused: replayed" in result.stdout and "Traceback" not in result.output
    mine = replies()[whose]
    assert len(mine) == 1 and mine[0]["In-Reply-To"] is None
    assert "refused: replayed" in mine[0].get_content()


def test_armor_is_scanned_in_time_linear_in_the_mails_size() -> None:
    """1 MB of empty BEGIN/END pairs took 5 to 14 s (the scan sliced the rest of the line
    list for each block): an 8 MiB mail was minutes of the referee's CPU."""
    pair = f"{armor.begin('ORDERS')}\n{armor.end('ORDERS')}\n"
    body = pair * min((mb.MAX_MAIL_BYTES - 200) // len(pair), mb.MAX_MAIL_LINES // 2 - 10)
    letter = mb.Letter("big", headed(b"", body))
    assert letter.data is not None and len(letter.data) <= mb.MAX_MAIL_BYTES
    started = time.process_time()
    with pytest.raises(armor.ArmorError, match="no Checksum line"):
        mb.opened(letter)
    assert time.process_time() - started < 2.0


def test_a_mail_of_too_many_lines_is_set_aside_unparsed() -> None:
    """2.8 million lines of quoting (8 MiB) cost Python's mail parser seconds before
    anything was scanned: a mail of more lines than a mail of armored lines at the largest
    size holds is unreadable, counted before it is parsed."""
    letter = mb.Letter("quoted", headed(b"", "> \n" * (mb.MAX_MAIL_LINES + 1)))
    with pytest.raises(mb.Unreadable, match="lines, more than"):
        mb.opened(letter)


def test_a_second_run_at_once_waits_or_is_refused_cleanly(
    game: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two runs at once each replied to everyone (bob was told "recorded" and "refused"
    for one mail): one run at a time holds the store's referee lock, and another waits
    up to the store's lock timeout, then stops with an `Error:`, reading nothing."""
    whose = whose_turn(game)
    drop("inbox", written(orders_text(game, whose, "events roll")))
    monkeypatch.setenv("WARSCRIBE_LOCK_TIMEOUT", "1")
    other = Warscribe("referee.db")
    try:
        with other.referee_run():
            result = game.run("referee", "inbox", "--outbox", "out", ok=False)
    finally:
        other.close()
    assert result.exit_code == 1 and result.stderr.startswith("Error: another `referee` run")
    assert len(unseen()) == 1 and not outbox(), "nothing was read nor written"
    taken = game.run("referee", "inbox", "--outbox", "out")
    assert f"{whose}'s orders: 1 of 1 commands recorded" in taken.stdout
    assert all(len(each) == 1 for each in replies().values())


class Crash(Exception):
    """The process killed between two steps."""


def _crash_after(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> None:
    """Step `name` of `module` runs, then the process dies (the first time only)."""
    real = getattr(module, name)

    def step(*args: Any, **kwargs: Any) -> Any:
        real(*args, **kwargs)
        monkeypatch.setattr(module, name, real)
        raise Crash(name)

    monkeypatch.setattr(module, name, step)


def _crash_before(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> None:
    real = getattr(module, name)

    def step(*args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(module, name, real)
        raise Crash(name)

    monkeypatch.setattr(module, name, step)


STEPS = [
    ("after", orders_file, "receive"),  # orders recorded, the mail not journalled
    ("before", mb, "put_away"),  # journalled, still in new/
    ("after", mb, "put_away"),  # moved, no reply decided
    ("before", mb, "post"),  # replies decided, none in the outbox
    ("after", mb, "post"),  # replies in the outbox, not journalled as posted
]


@pytest.mark.parametrize(("when", "module", "name"), STEPS, ids=[f"{w}-{n}" for w, _, n in STEPS])
def test_a_run_killed_between_steps_is_finished_by_the_next(
    game: Table, monkeypatch: pytest.MonkeyPatch, when: str, module: Any, name: str
) -> None:
    """After a kill between recording orders and marking the mail seen, the next run told
    the sender "refused: replayed" for orders it had recorded; a kill around the outbox
    lost or doubled replies. Each step is journalled before the next, so the next run
    reports the orders as recorded and every player gets exactly one reply."""
    whose = whose_turn(game)
    drop("inbox", written(orders_text(game, whose, "events roll")))
    before = entries(game)
    (_crash_after if when == "after" else _crash_before)(monkeypatch, module, name)
    crashed = game.run("referee", "inbox", "--outbox", "out", ok=False)
    assert isinstance(crashed.exception, Crash), crashed.output
    result = game.run("referee", "inbox", "--outbox", "out")
    assert "replayed" not in result.stdout
    assert entries(game) > before
    assert unseen() == []
    told = replies()
    assert sorted(told) == sorted(PLAYERS)
    assert all(len(each) == 1 for each in told.values()), {p: len(m) for p, m in told.items()}
    assert told[whose][0].get_content().count("Your mail") == 1
    assert "commands recorded" in told[whose][0].get_content() or "recorded at #" in (
        told[whose][0].get_content()
    )
    assert game.run("referee", "inbox", "--outbox", "out").stdout.strip() == ""


def test_no_hostile_mail_escapes_the_referees_reading() -> None:
    """The referee's fuzzer (seeded, time-boxed): hostile mails (`fuzz_cases.hostile_mail`:
    MIME nested up to 1,200 deep, header encodings the library fails on) are read, or
    refused as a MailError (ArmorError for a damaged block); the envelope holds nothing but
    a plain address and a plain msg-id; a sound one yields its block."""
    rng = random.Random(SEED)
    block = armor.armor(b"signed orders", orders_file.ORDERS_KIND)
    deadline = time.monotonic() + FUZZ_SECONDS
    count = 0
    while time.monotonic() < deadline and count < 2000:
        case = hostile_mail(rng, block)
        where = f"case {count} (seed {SEED}): {case.what}"
        try:
            envelope, carried = mb.opened(mb.Letter("m", case.data))
        except (mb.MailError, armor.ArmorError):
            assert not case.must_import, where
        else:
            assert envelope.message_id is None or mb.plain_message_id(envelope.message_id)
            assert envelope.sender == "" or envelope.sender.isprintable(), where
            assert carried is not None or not case.must_import, where
        count += 1
    assert count >= 50, "the fuzzer ran too few cases to mean anything"


VALID_CHATS = 20


def test_a_mailbox_of_hostile_and_valid_mails_is_taken_with_one_reply_each(game: Table) -> None:
    """1,000 mails, seeded: hostile ones (nested MIME, header encodings, replays with
    hostile ids, damaged armor, garbage) and valid ones (the orders of the player on turn,
    chat, a player's log). Every valid one is taken, every other set aside or refused,
    each player replied to exactly once, the referee told of the mails set aside."""
    rng = random.Random(SEED)
    whose = whose_turn(game)
    old = orders_text(game, whose, "roll 1d6")
    drop("inbox", written(old))
    game.run("referee", "inbox", "--outbox", "out")
    from tests.cli.mailing import deliver

    deliver(game)
    whose = whose_turn(game)
    valid = [written(orders_text(game, whose, "events roll"), sender=f"{whose}@example.org")]
    valid += [written(f"chat {n}", sender="bob@example.org") for n in range(VALID_CHATS)]
    valid.append(written(game.run("export", "--for", "carol", "--armor").stdout))
    hostile: list[bytes] = []
    while len(hostile) + len(valid) < 1000:
        pick = rng.random()
        if pick < 0.5:
            hostile.append(hostile_mail(rng, orders_text(game, whose, "events roll")).data)
        elif pick < 0.7:
            header = rng.choice([b"<>", b"<=?utf-8?q?x=0D=0Ay?=@evil.test>", b"<a@b> <c>"])
            hostile.append(headed(b"Message-ID: " + header, old))
        elif pick < 0.85:
            damaged = bytearray(old.encode())
            damaged[rng.randrange(60, len(damaged) - 40)] ^= 1
            hostile.append(written(damaged.decode("utf-8", "replace")))
        else:
            hostile.append(b"From: m@evil.test\n" + rng.randbytes(rng.randint(0, 2000)))
    mails = valid + hostile
    rng.shuffle(mails)
    drop("inbox", *mails)
    before = entries(game)
    result = game.run("referee", "inbox", "--outbox", "out", ok=False)
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert f"{whose}'s orders: 1 of 1 commands recorded" in result.stdout
    assert result.stdout.count("no orders nor log") >= VALID_CHATS
    assert "log: 0 new entries" in result.stdout
    assert entries(game) > before
    assert unseen() == []
    told = replies()
    assert sorted(told) == sorted((*PLAYERS, "referee"))
    assert all(len(each) == 1 for each in told.values()), {p: len(m) for p, m in told.items()}
    mine = told[whose][0].get_content()
    assert mine.count("commands recorded") == 1
    aside = len(mailbox.Maildir("inbox.quarantine", create=False))
    assert aside > 0 and told["referee"][0].get_content().count("set aside in") == aside
    for message in outbox():
        message_from_bytes(bytes(message), policy=policy.default)  # every reply is sound
    assert game.run("referee", "inbox", "--outbox", "out").stdout.strip() == ""


def test_one_referee_run_at_a_time_on_postgresql(monkeypatch: pytest.MonkeyPatch) -> None:
    """On PostgreSQL the referee lock is a session advisory lock on a connection of its
    own: a second run waits, then stops with a StoreError; the lock goes with the run."""
    from tests.conftest import drop_pg_schema, fresh_pg_url, require_postgres
    from warscribe.store.backends import StoreError

    require_postgres()
    monkeypatch.setenv("WARSCRIBE_LOCK_TIMEOUT", "1")
    url = fresh_pg_url()
    first, second = Warscribe(url), Warscribe(url)
    try:
        refused = pytest.raises(StoreError, match="another `referee` run")
        with first.referee_run(), refused, second.referee_run():
            pass
        with second.referee_run():
            pass
    finally:
        first.close()
        second.close()
        drop_pg_schema(url)
