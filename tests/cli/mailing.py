"""A referee's mailbox and the players' for the tests: mails written by Python's `email`
package into Maildirs, replies taken out of the outbox and delivered to each player's mbox,
which the player imports."""

from __future__ import annotations

import mailbox
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from tests.security.conftest import Table, new_game

PLAYERS = ("alice", "bob", "carol")


def mailed_game(table: Table) -> Table:
    """A game of three with keys and addresses; the referee's first run mails each player
    their copy, which each imports from their mbox."""
    new_game(table, "seeded:1")
    addresses(table)
    drop("inbox")
    table.run("referee", "inbox", "--outbox", "out")
    deliver(table)
    return table


def addresses(table: Table) -> None:
    """The referee records every player's address and their own."""
    for player in PLAYERS:
        table.run("address", player, f"{player}@example.org")
    table.run("address", "referee", "referee@example.org")


def drop(inbox: str, *mails: bytes) -> None:
    """Mails arrive in the referee's Maildir."""
    box = mailbox.Maildir(inbox, create=True)
    for data in mails:
        box.add(data)


def written(*parts: str, sender: str = "alice@example.org") -> bytes:
    """A plain mail of the given text."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "referee@example.org"
    message["Subject"] = "my turn"
    message["Message-ID"] = make_msgid()
    message.set_content("\n\n".join(parts))
    return bytes(message)


def orders_text(table: Table, player: str, *commands: str) -> str:
    """The player's signed orders against their copy, as armored text."""
    signing = ("orders", "--as", player, "--key", f"{player}.key", *commands)
    return table.run(*signing, store=player).stdout


def outbox(folder: str = "out") -> list[Any]:
    """The replies in the outbox, as messages (sent or not)."""
    box = mailbox.Maildir(folder, create=True)
    return [message_from_bytes(box.get_bytes(key), policy=policy.default) for key in box.iterkeys()]


def deliver(table: Table, folder: str = "out") -> dict[str, str]:
    """Each reply of the outbox goes to its player's mbox (the outbox is emptied), and each
    player imports their whole mbox: what `import` said, by player."""
    box = mailbox.Maildir(folder, create=True)
    for key in box.iterkeys():
        message = box[key]
        player = str(message["To"]).partition("@")[0]
        mine = mailbox.mbox(f"{player}.mbox")
        mine.add(message)
        mine.close()
    box.clear()
    return {
        player: table.run("import", f"{player}.mbox", store=player).stdout
        for player in PLAYERS
        if Path(f"{player}.mbox").exists()
    }


def whose_turn(table: Table) -> str:
    import json

    return str(json.loads(table.run("status", "--json").stdout)["whose_turn"])
