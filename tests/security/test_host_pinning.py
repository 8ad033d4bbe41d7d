"""The player need not trust whoever mails them a game (issue 30): a player's store pins
the host key of each game it imports (`GameCreated.host_key`).

The attack: a stranger makes a game with the same players and public keys, names it `ɡ`
(U+0261, a look-alike of `g`) or `G`, and mails it "from the referee". It used to be
imported, by `import x.eml` and by `import MAILBOX`, and to become the player's default
game, on which `status` and `orders` then act. Now a game from a host key the store has
not seen is imported but never made the default without `use`, and `import` says so; one
of the same id, or of a name alike to one the store holds (case, look-alike letters), from
another key is refused naming both keys; the honest referee's next mail still imports.
"""

from __future__ import annotations

import json
import mailbox
from email.message import EmailMessage
from pathlib import Path
from uuid import UUID

import pytest

from tests.security.conftest import Table, new_game
from warscribe.engine import record, rulesets
from warscribe.engine.anchor import key_fingerprint, signed_checkpoint
from warscribe.engine.dice import new_key
from warscribe.engine.orders import new_key_pair
from warscribe.engine.ruleset import GameSpec, PlayerSpec
from warscribe.store import logfile

SCRIPT_G = "\u0261"  # LATIN SMALL LETTER SCRIPT G: a look-alike of g
STRANGE = "h"
"""A name alike to none of bob's games: the stranger's game is new, not refused."""


def mail(text: str) -> bytes:
    """A mail "from the referee" carrying `text`."""
    message = EmailMessage()
    message["From"] = "referee@example.org"
    message["To"] = "bob@example.org"
    message["Subject"] = "[warscribe] your copy"
    message.set_content("Your copy of the game.\n\n" + text)
    return bytes(message)


def mailed(table: Table, text: str, how: str) -> str:
    """`text` as bob receives it: a saved `.eml`, or a mail in his mbox (a new box each
    time: a box also holding the honest mails would import those again)."""
    if how == "eml":
        path = Path(f"mail-{len(list(table.folder.glob('mail-*')))}.eml")
        path.write_bytes(mail(text))
        return str(path)
    path = Path(f"box-{len(list(table.folder.glob('box-*')))}.mbox")
    box = mailbox.mbox(str(path))
    box.add(mail(text))
    box.close()
    return str(path)


def host_key(table: Table, store: str) -> str:
    """The fingerprint of the host key of the store's default game, from its log."""
    entries = json.loads(table.run("log", "--json", "--to", "1", store=store).stdout)
    return key_fingerprint(bytes.fromhex(entries[0]["fields"]["host_key"]))


def default_of(table: Table, store: str) -> str:
    games = json.loads(table.run("games", "--json", store=store).stdout)
    return str(next(g["name"] for g in games if g["default"]))


@pytest.fixture
def bob(table: Table) -> Table:
    """The referee's game `g` (host dice) and bob's store, which imported his copy first."""
    new_game(table, "host")
    table.run("export", "--for", "bob", "--armor", "-o", "bob.txt")
    said = table.run("import", mailed(table, Path("bob.txt").read_text(), "eml"), store="bob")
    assert "first game of this store" in said.stdout, said.output
    assert host_key(table, "referee") in said.stdout
    table.run("init", "--as", "bob", "--key", "bob.key", store="bob")
    return table


def strangers_copy(table: Table, name: str) -> str:
    """Mallory's game of the same players and public keys, named `name`, as bob's copy."""
    players = ["--player", "alice=Hothior", "--player", "bob=Mivior", "--player", "carol=Muetar"]
    keys = [a for p in ("alice", "bob", "carol") for a in ("--key", f"{p}={p}.pub")]
    table.run("new", "divine-right", *players, "--name", name, *keys, store="mallory")
    ref = ("--game", name) if name != "g" else ()
    return table.run(*ref, "export", "--for", "bob", "--armor", store="mallory").stdout


def forged_same_id(table: Table) -> str:
    """A copy of the honest game's id from a host key of the forger's: GameCreated made
    anew with that id, the chain and the checkpoint the forger's own."""
    honest = json.loads(table.run("log", "--json", "--to", "1", store="bob").stdout)[0]
    game_id = honest["fields"]["game_id"]
    private, public = new_key_pair()
    key, _ = new_key("host", None)
    players = (PlayerSpec("alice", "Hothior"), PlayerSpec("bob", "Mivior"))
    spec = GameSpec(name="g", players=players)
    entries = record.open_game(
        rulesets.get("divine-right"), spec, UUID(game_id), "host", key, host_key=public
    )
    last = entries[-1]
    checkpoint = signed_checkpoint(private, UUID(game_id), last.seq, last.chain)
    data = logfile.write(
        entries=entries,
        game_id=UUID(game_id),
        name="g",
        ruleset="divine-right",
        players=("alice", "bob"),
        checkpoint=checkpoint,
    )
    return logfile.armor(data, "")


def honest_next_mail_imports(table: Table, how: str) -> None:
    """The referee records a roll and mails bob the entries since his copy: taken, and `g`
    is still his game."""
    seq = len(json.loads(table.run("log", "--json", store="bob").stdout))
    table.run("roll", "1d6", "--as", "alice")
    text = table.run("export", "--for", "bob", "--armor", "--from", str(seq + 1)).stdout
    said = table.run("import", mailed(table, text, how), store="bob")
    assert "imported 2 new entries of g" in said.stdout, said.output
    assert default_of(table, "bob") == "g"


@pytest.mark.parametrize("how", ["eml", "mailbox"])
def test_a_look_alike_game_from_a_stranger_is_not_made_the_default(bob: Table, how: str) -> None:
    said = bob.run("import", mailed(bob, strangers_copy(bob, STRANGE), how), store="bob")
    assert "from a host this store has not seen" in said.stdout, said.output
    assert host_key(bob, "mallory") in said.stdout
    assert f"'warscribe use {STRANGE}'" in said.stdout
    assert default_of(bob, "bob") == "g"
    assert json.loads(bob.run("status", "--json", store="bob").stdout)["name"] == "g"
    honest_next_mail_imports(bob, how)


@pytest.mark.parametrize("name", ["G", "g", SCRIPT_G])
@pytest.mark.parametrize("how", ["eml", "mailbox"])
def test_a_game_named_alike_a_pinned_one_from_another_key_is_refused(
    bob: Table, how: str, name: str
) -> None:
    path = mailed(bob, strangers_copy(bob, name), how)
    if how == "eml":
        said = bob.refused("import", path, store="bob")
    else:
        before = bob.snapshot("bob")
        result = bob.run("import", path, store="bob", ok=False)
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert bob.snapshot("bob") == before, "a refused mail changed the store"
        said = result.stdout
        assert "refused:" in said
    assert host_key(bob, "referee") in said and host_key(bob, "mallory") in said, said
    assert "'g'" in said
    assert default_of(bob, "bob") == "g"
    honest_next_mail_imports(bob, how)


@pytest.mark.parametrize("how", ["eml", "mailbox"])
def test_a_game_of_a_pinned_id_from_another_key_is_refused(bob: Table, how: str) -> None:
    path = mailed(bob, forged_same_id(bob), how)
    if how == "eml":
        said = bob.refused("import", path, store="bob")
    else:
        result = bob.run("import", path, store="bob", ok=False)
        assert result.exit_code == 1 and "Traceback" not in result.output
        said = result.stdout
    assert host_key(bob, "referee") in said and "pinned" in said, said
    honest_next_mail_imports(bob, how)


def test_use_makes_a_new_hosts_game_the_default_and_game_finds_exact_names_only(
    bob: Table,
) -> None:
    bob.run("import", mailed(bob, strangers_copy(bob, STRANGE), "eml"), store="bob")
    assert "no game 'G'" in bob.refused("--game", "G", "status", store="bob")
    assert "no game 'H'" in bob.refused("--game", "H", "status", store="bob")
    bob.run("use", STRANGE, store="bob")
    assert default_of(bob, "bob") == STRANGE


def test_new_and_fork_refuse_a_name_alike_to_a_game_of_the_store(table: Table) -> None:
    new_game(table, "seeded:1")
    said = table.refused("new", "divine-right", "--player", "a", "--player", "b", "--name", "G")
    assert "alike" in said and "'g'" in said
    assert "alike" in table.refused("fork", "--at", "1.1.random-events", "--name", "G")


def test_a_game_without_a_host_key_is_not_made_the_default_of_a_store_with_games(
    bob: Table,
) -> None:
    bob.run(
        "new",
        "divine-right",
        "--player",
        "x",
        "--player",
        "y",
        "--name",
        "s",
        "--dice",
        "seeded:2",
        store="seed",
    )
    text = bob.run("export", "--armor", store="seed").stdout
    said = bob.run("import", mailed(bob, text, "eml"), store="bob")
    assert "no host key" in said.stdout and "not made the default" in said.stdout, said.output
    assert default_of(bob, "bob") == "g"
