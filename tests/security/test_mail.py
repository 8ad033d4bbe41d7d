"""Armor that mail clients produce was refused (issue 11, item 2): 23 of 350 validly
mangled files. A saved mail message (`.eml`) is accepted as it is by `import`,
`import-orders` and wherever a key file is read, in every MIME shape, the messages here
written by Python's `email` package."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest

from tests.security.conftest import Table, new_game
from tests.security.fuzz_cases import MESSAGES


@pytest.fixture
def exported(table: Table) -> tuple[str, bytes]:
    new_game(table, "seeded:1")
    table.run("export", "-o", "full.wlog")
    return table.run("export", "--armor").stdout, Path("full.wlog").read_bytes()


@pytest.mark.parametrize("shape", sorted(MESSAGES))
def test_a_log_mailed_in_any_mime_shape_imports(
    table: Table, exported: tuple[str, bytes], shape: str
) -> None:
    Path("mail.eml").write_bytes(MESSAGES[shape](*exported))
    result = table.run("import", "mail.eml", store="fresh")
    assert result.stdout.startswith("imported 14 new entries of g"), result.output
    table.run("verify", store="fresh")


def test_a_message_without_the_block_is_refused(table: Table) -> None:
    message = EmailMessage()
    message["From"] = "alice@example.org"
    message["Subject"] = "forgot the attachment"
    message.set_content("Oops.")
    Path("mail.eml").write_bytes(bytes(message))
    assert "not a warscribe log file" in table.refused("import", "mail.eml", store="fresh")


def mailed(text: str, cte: str | None = "quoted-printable") -> bytes:
    message = EmailMessage()
    message["From"] = "alice@example.org"
    message["To"] = "referee@example.org"
    message["Subject"] = "my orders"
    message.set_content("Here they are.\n\n" + text, cte=cte)
    return bytes(message)


def test_orders_mailed_as_a_message_import(table: Table) -> None:
    new_game(table, "seeded:1")
    table.run("orders", "--as", "alice", "--key", "alice.key", "-o", "orders.txt", "roll 1d6")
    Path("orders.eml").write_bytes(mailed(Path("orders.txt").read_text(), "base64"))
    assert "DiceRolled" in table.run("import-orders", "orders.eml").stdout


def test_a_public_key_mailed_as_a_message_is_read(table: Table) -> None:
    for player in ("alice", "bob"):
        table.run("keys", "new", player)
        Path(f"{player}.eml").write_bytes(mailed(Path(f"{player}.pub").read_text()))
    players = ("--player", "alice", "--player", "bob")
    keys = ("--key", "alice=alice.eml", "--key", "bob=bob.eml")
    table.run("new", "divine-right", *players, "--dice", "seeded:2", *keys)
