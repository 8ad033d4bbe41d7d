"""The referee's mailbox (issue 13, item 4): every mail of a Maildir taken at once, each
reply a real mail to the player's recorded address, sent through a local SMTP server; a
player imports a whole mailbox."""

from __future__ import annotations

import json
import mailbox
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from tests.cli.mailing import (
    PLAYERS,
    addresses,
    deliver,
    drop,
    mailed_game,
    orders_text,
    outbox,
    whose_turn,
    written,
)
from tests.security.conftest import Table, new_game, table  # noqa: F401 (the fixture)
from tests.security.fuzz_cases import MESSAGES

SHAPES = sorted(shape for shape in MESSAGES if shape != "binary attachment")


@pytest.fixture
def game(table: Table) -> Table:  # noqa: F811 (the fixture imported above)
    return mailed_game(table)


def test_the_first_run_mails_each_player_their_copy(table: Table) -> None:  # noqa: F811
    new_game(table, "seeded:1")
    addresses(table)
    drop("inbox")
    result = table.run("referee", "inbox", "--outbox", "out")
    whose = whose_turn(table)
    replies = {str(m["To"]): m for m in outbox()}
    assert sorted(replies) == [f"{p}@example.org" for p in PLAYERS]
    assert result.stdout.count("reply to") == 3
    mine = replies[f"{whose}@example.org"]
    assert mine["From"] == "referee@example.org" and mine["Message-ID"] and mine["Date"]
    assert mine["Subject"] == "[warscribe] g 1.1.random-events: your move"
    other = next(m for to, m in replies.items() if not to.startswith(whose))
    assert other["Subject"].startswith(f"[warscribe] g 1.1.random-events: waiting for {whose}")
    body = mine.get_content()
    assert body.index("Since the last mail:") < body.index("-----BEGIN WARSCRIBE LOG-----")
    assert "Now 1.1.random-events: your move: " in body
    imported = deliver(table)
    assert all("imported" in said for said in imported.values()), imported
    for player in PLAYERS:
        table.run("verify", store=player)


@pytest.mark.parametrize("shape", SHAPES)
def test_orders_mailed_in_any_mime_shape_are_recorded(game: Table, shape: str) -> None:
    whose = whose_turn(game)
    armored = orders_text(game, whose, "events roll")
    drop("inbox", MESSAGES[shape](armored, b""))
    result = game.run("referee", "inbox", "--outbox", "out")
    assert f"{whose}'s orders: 1 of 1 commands recorded" in result.stdout, result.output
    game.run("audit")


def test_a_turn_by_mail_with_quoting_forwarding_and_chatter(game: Table) -> None:
    # the player on turn answers the referee's mail, the orders quoted with CRLF lines
    whose = whose_turn(game)
    armored = orders_text(game, whose, "events roll")
    quoted = "\r\n".join("> " + line for line in armored.splitlines())
    # a chat mail and the orders arrive together; the chat is no error
    drop("inbox", written("see you friday", sender="bob@example.org"), written("Mine:", quoted))
    result = game.run("referee", "inbox", "--outbox", "out")
    assert "no orders nor log" in result.stdout
    assert f"{whose}'s orders: 1 of 1 commands recorded" in result.stdout
    # the orders' sender hears back (and is still to act); the others are not mailed
    replies = {str(m["To"]).partition("@")[0]: m for m in outbox()}
    assert sorted(replies) == [whose]
    assert "Your mail" in replies[whose].get_content()
    assert replies[whose]["In-Reply-To"]
    assert f"\n{whose} rolled " in replies[whose].get_content(), "the story of the turn"
    deliver(game)
    # the same run again: Maildir mails already seen are not read twice
    again = game.run("referee", "inbox", "--outbox", "out")
    assert "orders" not in again.stdout and not outbox()
    # a forwarded mail (message/rfc822) carries the next orders (signed unchecked: the roll
    # may have asked a question first, and the referee then returns the order with why)
    forwarded = mailbox_message(
        written("fwd", orders_text(game, whose, "--unchecked", "end-phase"))
    )
    drop("inbox", forwarded)
    game.run("referee", "inbox", "--outbox", "out", ok=False)
    deliver(game)
    heads = {json.loads(game.run("status", "--json", store=s).stdout)["chain"] for s in stores()}
    assert len(heads) == 1, "every copy mailed ends on the referee's head"


def stores() -> tuple[str, ...]:
    """The referee's store and those of the players mailed since the game began."""
    return ("referee", *(p for p in PLAYERS if len(mailbox.mbox(f"{p}.mbox")) > 1))


def mailbox_message(inner: bytes) -> bytes:
    """A mail forwarding `inner` as an attachment (message/rfc822)."""
    from email import message_from_bytes, policy
    from email.message import EmailMessage

    outer = EmailMessage()
    outer["From"] = "alice@example.org"
    outer["To"] = "referee@example.org"
    outer["Subject"] = "Fwd: my turn"
    outer.set_content("Forwarding my orders.")
    outer.add_attachment(message_from_bytes(inner, policy=policy.default))
    return bytes(outer)


def test_a_player_imports_an_mbox_and_a_folder_of_eml_files(game: Table) -> None:
    whose = whose_turn(game)
    drop("inbox", written(orders_text(game, whose, "events roll")))
    game.run("referee", "inbox", "--outbox", "out")
    Path("saved").mkdir()
    for number, message in enumerate(outbox()):
        if str(message["To"]).startswith(whose):
            Path(f"saved/{number}.eml").write_bytes(bytes(message))
    result = game.run("import", "saved")
    assert "imported" in result.stdout and "new entries of g" in result.stdout
    assert whose_turn(game) == json.loads(game.run("status", "--json").stdout)["whose_turn"]


def test_returned_commands_are_reported_as_the_player_typed_them(game: Table) -> None:
    """Issue 32: the referee listed a batch's returned commands in the engine's words
    (`move units=Immer-A6 path=...`); it gives the lines the player wrote."""
    whose = whose_turn(game)
    drop(
        "inbox",
        written(
            orders_text(
                game,
                whose,
                "--unchecked",
                "events roll",
                "end-phase",
                "diplomacy draw",
                "diplomacy draw",
            )
        ),
    )
    result = game.run("referee", "inbox", "--outbox", "out", ok=False)
    said = result.stdout.split("Returned unrecorded: ", 1)[1].splitlines()[0]
    assert "=" not in said and said.endswith("diplomacy draw"), said


@pytest.mark.parametrize("made", [("Maildir", ()), ("box", ("cur", "new"))])
def test_a_folder_meant_as_a_maildir_without_its_subfolders_is_refused(
    game: Table, made: tuple[str, tuple[str, ...]]
) -> None:
    """Issue 32: a plain folder named `Maildir` (without cur/, new/ and tmp/) was read as a
    folder of `.eml` files, none found, without a word."""
    name, subs = made
    Path(name).mkdir()
    for sub in subs:
        (Path(name) / sub).mkdir()
    said = game.refused("referee", name, "--outbox", "out")
    assert "is no Maildir: it lacks" in said and "tmp/" in said
    assert "is no Maildir" in game.refused("import", name)


# -- sending ----------------------------------------------------------------------------------


class Collect:
    """An SMTP handler keeping every message delivered."""

    def __init__(self) -> None:
        self.received: list[tuple[list[str], bytes]] = []

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        self.received.append((envelope.rcpt_tos, envelope.content))  # type: ignore[attr-defined]
        return "250 OK"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def smtp_server() -> Iterator[tuple[Collect, int]]:
    """A real SMTP server on 127.0.0.1 (aiosmtpd), plain: a local relay."""
    handler, port = Collect(), free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


def test_replies_are_sent_through_a_local_smtp_server(
    table: Table,  # noqa: F811
    smtp_server: tuple[Collect, int],
) -> None:
    handler, port = smtp_server
    new_game(table, "seeded:1")
    addresses(table)
    drop("inbox")
    result = table.run("referee", "inbox", "--outbox", "out", "--smtp", f"smtp://127.0.0.1:{port}")
    assert sorted(to for tos, _ in handler.received for to in tos) == [
        f"{p}@example.org" for p in PLAYERS
    ]
    assert result.stdout.count("sent to ") == 3
    assert all(b"-----BEGIN WARSCRIBE LOG-----" in data for _, data in handler.received)
    box = mailbox.Maildir("out")
    assert not list(Path("out/new").iterdir()) and len(box) == 3, "sent mails are marked seen"


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key (the test's own certificate authority)."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "server.pem", folder / "server-key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


def test_starttls_and_a_login_from_the_environment(
    table: Table,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The server demands STARTTLS before AUTH; the login comes from the environment."""
    import ssl

    from aiosmtpd.smtp import AuthResult

    cert, key = self_signed(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    logins: list[tuple[bytes, bytes]] = []

    def authenticator(*args: object) -> AuthResult:
        data = args[-1]
        logins.append((data.login, data.password))  # type: ignore[attr-defined]
        return AuthResult(success=data.password == b"s3cret")  # type: ignore[attr-defined]

    handler, port = Collect(), free_port()
    controller = Controller(
        handler,
        hostname="127.0.0.1",
        port=port,
        tls_context=context,
        require_starttls=True,
        authenticator=authenticator,
        auth_require_tls=True,
    )
    controller.start()
    try:
        new_game(table, "seeded:1")
        addresses(table)
        drop("inbox")
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))
        monkeypatch.setenv("WARSCRIBE_SMTP_USER", "ref")
        monkeypatch.setenv("WARSCRIBE_SMTP_PASSWORD", "s3cret")
        table.run("referee", "inbox", "--outbox", "out", "--smtp", f"smtp://127.0.0.1:{port}")
    finally:
        controller.stop()
    assert logins == [(b"ref", b"s3cret")]
    assert len(handler.received) == 3
