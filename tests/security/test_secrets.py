"""The host's secrets are not in the store in clear (issue 11, "The host's dice secret sits
in clear in the store"), and creating a game does not slow down as the host grows (issue
31, "The referee never stops and loses nothing").

Whoever read the referee's store file predicted every roll and opened every hidden part:
the dice secret and the host's signing key were stored in it. They moved to the store's
secrets file (`warscribe.db.secrets` beside a SQLite store), made with mode 0600 and
refused when others may read it, optionally sealed with a passphrase; but that file was
read and rewritten whole for every new game (78 games a second for a host's first
thousand, 41 by game 10,000). Now each game's secrets are sealed (ChaCha20-Poly1305, the
game's id as associated data) in a row of the store written with the game, under a store
key that the secrets file holds and that is written once. A store copied without the file
predicts nothing and signs nothing, yet verifies everything public. A store an older
version wrote has its secrets sealed and its clear rows deleted when it is first opened; a
secrets file of the format before the store key keeps working.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from click.testing import CliRunner

from tests.conftest import three_players
from tests.security.conftest import Table, new_game
from warscribe.cli.main import cli
from warscribe.engine.dice import commitment
from warscribe.engine.events import Command
from warscribe.store import secrets as secrets_module
from warscribe.store.app import ConcurrentWrite, Warscribe
from warscribe.store.kept_secrets import DICE_SECRET, HOST_KEY, KeptSecret
from warscribe.store.secrets import (
    OLD_FORMAT,
    GameSecrets,
    SecretsError,
    SecretsFile,
    default_path,
    sealed_id,
)

PASSPHRASE = "correct horse battery staple"


def kept(store: str, game_id: UUID, passphrase: str | None = None) -> GameSecrets:
    """A game's secrets as a fresh open of its store finds them (sealed in the store,
    opened with the key of its secrets file, or in a secrets file of format 1)."""
    app = Warscribe(store, passphrase=lambda new: passphrase)
    try:
        found = app._kept(game_id)
    finally:
        app.close()
    assert found.dice is not None and found.host_key is not None
    return found


def store_key(path: str | Path, passphrase: str | None = None) -> bytes:
    """The store key a secrets file holds."""
    key = SecretsFile(str(path), lambda new: passphrase)._content_read().get("store-key")
    assert isinstance(key, bytes) and len(key) == 32
    return key


def game_id_of(table: Table, store: str = "referee") -> UUID:
    return UUID(table.run("games", "--json", store=store).stdout.split('"game_id": "')[1][:36])


def stored_bytes(store_url: str) -> bytes:
    """Every byte the store holds: a SQLite store's files, or a PostgreSQL schema's rows."""
    if not store_url.startswith("postgresql://"):
        folder = Path(store_url).parent
        name = Path(store_url).name
        return b"".join(
            p.read_bytes()
            for p in sorted(folder.glob(f"{name}*"))
            if not p.name.endswith((".secrets", ".lock"))
        )
    import psycopg

    from tests.conftest import PG_URL

    schema = store_url.rpartition("schema=")[2]
    with psycopg.connect(PG_URL) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = %s", (schema,)
            )
        ]
        return b"".join(
            bytes(value) if isinstance(value, bytes | memoryview) else str(value).encode()
            for table in tables
            for row in conn.execute(f"SELECT * FROM {schema}.{table}")
            for value in row
        )


def roll(app: Warscribe, game_id: UUID) -> None:
    app.issue(game_id, Command("alice", "roll", (("dice", "2d6"), ("purpose", "test"))))


# -- the store holds neither secret ------------------------------------------------------------


def test_the_store_holds_neither_the_dice_secret_nor_the_hosts_signing_key(
    store_url: str,
) -> None:
    """The raw store (SQLite's files; PostgreSQL's rows) contains neither the dice secret,
    nor the host's private key, nor the store key sealing them; it holds each game's
    secrets sealed, which open with the secrets file's key, and the dice secret is the one
    the game's commitment names."""
    app = Warscribe(store_url)
    head = app.create("divine-right", three_players(), "host")
    roll(app, head.game_id)
    fork = app.fork(head.game_id, head.seq, "what-if")
    secrets_path = app.secrets.path
    sealed = [app._sealed_row(g) for g in (head.game_id, fork.game_id)]
    app.close()
    data = stored_bytes(store_url)
    assert all(row is not None and row in data for row in sealed), "sealed in the store"
    assert store_key(secrets_path) not in data, "the store key is in the store"
    for game_id in (head.game_id, fork.game_id):
        secrets = kept(store_url, game_id)
        assert secrets.dice is not None and secrets.host_key is not None
        assert commitment(secrets.dice) == head.dice.commitment
        assert secrets.dice not in data, "the dice secret is in the store"
        assert secrets.host_key not in data, "the host's signing key is in the store"


def test_the_secrets_file_sits_beside_a_sqlite_store_and_per_database_for_postgresql(
    tmp_path: Path,
) -> None:
    from warscribe.store.backends import resolve

    assert default_path(resolve(str(tmp_path / "w.db"))) == str(tmp_path / "w.db.secrets")
    pg = default_path(resolve("postgresql://u@db.example:5433/games?schema=club"))
    assert pg == os.path.join(
        os.environ["XDG_DATA_HOME"], "warscribe", "db.example-5433-games-club.secrets"
    )


# -- a copy without the secrets file -----------------------------------------------------------


def test_a_store_copied_without_its_secrets_file_verifies_but_cannot_roll_reveal_or_sign(
    table: Table,
) -> None:
    # the referee sets up a game with host dice and rolls
    new_game(table, "host")
    table.run("roll", "2d6", "--as", "referee")
    # someone copies the store's file, but not its secrets file
    table.run("games")
    for part in table.folder.glob("referee.db*"):
        if not part.name.endswith((".secrets", ".lock", "-lock")):
            shutil.copy(part, table.folder / part.name.replace("referee", "copy"))
    assert not (table.folder / "copy.db.secrets").exists()
    # everything public still works on the copy: queries, the log, verify
    table.run("status", store="copy")
    table.run("log", store="copy")
    verified = table.run("verify", store="copy").stdout
    assert "chain intact" in verified and "not revealed yet" in verified
    assert "NOT anchored" in verified and "copy.db.secrets" in verified
    # a command that rolls derived dice is refused, naming the missing secrets file
    error = table.refused("roll", "2d6", "--as", "referee", store="copy")
    assert "copy.db.secrets" in error and "is missing" in error
    # the copy cannot reveal the secret either, nor sign an export
    assert "copy.db.secrets" in table.refused("reveal", store="copy")
    assert "copy.db.secrets" in table.refused("export", "--armor", store="copy")
    # the host reveals; now the copy's verify re-derives every roll up to the reveal...
    table.run("reveal", "--yes")
    table.run("export", "-o", "full.wlog")
    table.run("import", "full.wlog", store="copy")
    assert "re-derived from the dice secret" in table.run("verify", store="copy").stdout


# -- the file's mode ---------------------------------------------------------------------------


@pytest.fixture
def open_umask() -> Iterator[None]:
    """A umask that lets everyone read new files: the secrets file stays private anyway."""
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def test_the_secrets_file_is_private_and_one_others_may_read_is_refused(
    table: Table, open_umask: None
) -> None:
    new_game(table, "host")
    secrets = table.folder / "referee.db.secrets"
    assert stat.S_IMODE(secrets.stat().st_mode) == 0o600
    assert stat.S_IMODE((table.folder / "referee.db.secrets.lock").stat().st_mode) == 0o600
    # the file is made readable by everyone: the host's commands refuse it, like ssh does
    secrets.chmod(0o644)
    error = table.refused("roll", "2d6", "--as", "referee")
    assert "mode 0644" in error and "chmod 600" in error
    secrets.chmod(0o640)
    assert "mode 0640" in table.refused("roll", "2d6", "--as", "referee")
    # made private again, it is used
    secrets.chmod(0o600)
    table.run("roll", "2d6", "--as", "referee")


def test_no_file_is_written_over_the_secrets_file(table: Table) -> None:
    new_game(table, "host")
    before = (table.folder / "referee.db.secrets").read_bytes()
    error = table.refused("export", "-o", "referee.db.secrets", "--force")
    assert "store" in error or "key file" in error
    assert (table.folder / "referee.db.secrets").read_bytes() == before


# -- a passphrase ------------------------------------------------------------------------------


def test_a_passphrase_seals_the_secrets_file_and_a_wrong_one_is_refused(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the referee sets a passphrase, then sets up the game: the file is sealed with it
    monkeypatch.setenv("WARSCRIBE_PASSPHRASE", PASSPHRASE)
    new_game(table, "host")
    table.run("roll", "2d6", "--as", "referee")
    game_id = game_id_of(table)
    path = table.folder / "referee.db.secrets"
    secrets = kept("referee.db", game_id, PASSPHRASE)
    sealed = path.read_bytes()
    assert store_key(path, PASSPHRASE) not in sealed
    # without the passphrase, public commands still work; rolling asks for it
    monkeypatch.delenv("WARSCRIBE_PASSPHRASE")
    table.run("status")
    assert "sealed with a passphrase" in table.refused("roll", "2d6", "--as", "referee")
    # a wrong passphrase is refused
    monkeypatch.setenv("WARSCRIBE_PASSPHRASE", "incorrect horse")
    assert "wrong passphrase" in table.refused("roll", "2d6", "--as", "referee")
    # asked for at the terminal, the right one works
    monkeypatch.delenv("WARSCRIBE_PASSPHRASE")
    result = CliRunner().invoke(
        cli,
        ["--store", "referee.db", "--ask-passphrase", "roll", "2d6", "--as", "referee"],
        input=PASSPHRASE + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "DiceRolled" in result.output
    assert kept("referee.db", game_id, PASSPHRASE) == secrets


def test_a_plain_secrets_file_is_sealed_when_read_with_a_passphrase(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file is written once: a plain one given a passphrase later is sealed the first
    time a command reads it with the passphrase."""
    new_game(table, "host")
    path = table.folder / "referee.db.secrets"
    key = store_key(path)
    monkeypatch.setenv("WARSCRIBE_PASSPHRASE", PASSPHRASE)
    table.run("roll", "2d6", "--as", "referee")
    assert key not in path.read_bytes()
    assert store_key(path, PASSPHRASE) == key
    monkeypatch.delenv("WARSCRIBE_PASSPHRASE")
    assert "sealed with a passphrase" in table.refused("roll", "2d6", "--as", "referee")


def test_an_older_plain_file_is_sealed_in_its_own_format(tmp_path: Path) -> None:
    """A file of format 1 read with a passphrase is sealed keeping its games and its
    format: it holds no store key until the next game is made."""
    import msgpack

    path = tmp_path / "x.secrets"
    entry = {"dice": b"d" * 32, "host-key": b"h" * 32}
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(fd, msgpack.packb({"format": OLD_FORMAT, "games": {UUID(int=7).bytes: entry}}))
    os.close(fd)
    found = SecretsFile(str(path), lambda new: PASSPHRASE).old(UUID(int=7))
    assert found == GameSecrets(dice=b"d" * 32, host_key=b"h" * 32)
    assert msgpack.unpackb(path.read_bytes())["format"] == OLD_FORMAT
    assert b"d" * 32 not in path.read_bytes()
    assert SecretsFile(str(path), lambda new: PASSPHRASE).old(UUID(int=7)) == found


def test_an_edited_sealed_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.secrets"
    SecretsFile(str(path), lambda new: PASSPHRASE)._store_key()
    data = bytearray(path.read_bytes())
    data[-3] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(SecretsError, match=r"wrong passphrase .*altered"):
        SecretsFile(str(path), lambda new: PASSPHRASE).old(UUID(int=7))


@pytest.mark.parametrize(
    ("content", "error"),
    [
        ({"format": OLD_FORMAT, "games": {UUID(int=7).bytes: b"not a map"}}, "not a map"),
        (
            {"format": OLD_FORMAT, "games": {UUID(int=7).bytes: {"dice": "text"}}},
            "str where bytes",
        ),
        ({"format": OLD_FORMAT, "games": {b"short": {"dice": None}}}, "not 16 bytes"),
        ({"format": OLD_FORMAT, "games": [1, 2]}, "games is not a map"),
        ({"format": "warscribe-secrets/2", "store-key": b"short"}, "not 32 bytes"),
        ({"format": "warscribe-secrets/2", "store-key": "text"}, "str where bytes"),
        ({"format": "warscribe-secrets/9"}, "not a warscribe-secrets/2 file"),
    ],
)
def test_a_damaged_secrets_file_is_an_error_naming_it(
    tmp_path: Path, content: Any, error: str
) -> None:
    """A file of either format is checked when read; a format-1 game's entry when that
    game's secrets are needed (reading all of them on every call grew with the host's
    games): a damaged entry is still refused, by name, whenever it is read."""
    import msgpack

    path = tmp_path / "x.secrets"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(fd, msgpack.packb(content))
    os.close(fd)
    with pytest.raises(SecretsError, match=f"{path} is damaged: .*{error}"):
        SecretsFile(str(path)).old(UUID(int=7))
    if isinstance(content.get("games"), dict) and len(next(iter(content["games"]))) == 16:
        return  # one game's entry: read when that game's secrets are needed, not before
    with pytest.raises(SecretsError, match=f"{path} is damaged: .*{error}"):
        SecretsFile(str(path)).seal(UUID(int=7), GameSecrets(dice=b"d" * 32, host_key=None))


# -- a host's scale ----------------------------------------------------------------------------


def test_the_bytes_written_to_the_secrets_file_per_game_do_not_grow_with_the_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The secrets file is written when the store's first host game is made, and never
    again: its store key seals every later game's secrets into the store (it was read
    and rewritten whole for each game, so a host's 10,000th game wrote 0.96 MiB)."""
    written: list[int] = []
    write = secrets_module.write_atomically

    def counted(path: str, data: bytes, *args: Any, **kwargs: Any) -> None:
        written.append(len(data))
        write(path, data, *args, **kwargs)

    monkeypatch.setattr(secrets_module, "write_atomically", counted)
    store = str(tmp_path / "host.db")
    app = Warscribe(store)
    per_game = []
    for _ in range(12):
        before = sum(written)
        head = app.create("divine-right", three_players(), "host")
        per_game.append(sum(written) - before)
    app.fork(head.game_id, head.seq, "what-if")
    app.close()
    assert per_game[0] > 0 and per_game[1:] == [0] * 11, per_game
    assert len(written) == 1, "the file was written once"
    assert (tmp_path / "host.db.secrets").stat().st_size == written[0]
    assert kept(store, head.game_id).dice is not None


def test_a_sealed_secret_moved_to_another_game_does_not_open(tmp_path: Path) -> None:
    """A game's sealed secrets carry its id as associated data: whoever edits the store
    cannot give one game another's dice secret or signing key."""
    store = str(tmp_path / "host.db")
    app = Warscribe(store)
    one = app.create("divine-right", three_players(), "host").game_id
    other = app.create("divine-right", three_players(), "host").game_id
    app.close()
    with sqlite3.connect(store) as conn:
        conn.execute(
            "UPDATE stored_events SET state = (SELECT state FROM stored_events WHERE "
            "originator_id = ?) WHERE originator_id = ?",
            (sealed_id(one).hex, sealed_id(other).hex),
        )
    app = Warscribe(store)
    assert app._kept(one).dice is not None
    with pytest.raises(SecretsError, match=f"game {other} in the store do not open"):
        app._kept(other)
    app.close()


def test_an_older_secrets_file_keeps_working(tmp_path: Path) -> None:
    """A secrets file of format 1 (each game's secrets in it, as before the store key) is
    read as before; the next game made adds the store key to it, once, keeping the older
    games' entries, which are read from it from then on (they are not moved)."""
    import msgpack

    store = str(tmp_path / "host.db")
    path = tmp_path / "host.db.secrets"
    app = Warscribe(store)
    old = app.create("divine-right", three_players(), "host")
    secrets = app._kept(old.game_id)
    app._delete_streams([sealed_id(old.game_id)])  # as the older version stored it
    app.close()
    entry = {"dice": secrets.dice, "host-key": secrets.host_key}
    path.unlink()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(fd, msgpack.packb({"format": OLD_FORMAT, "games": {old.game_id.bytes: entry}}))
    os.close(fd)
    # the host's store goes on with the older game: it rolls and signs
    app = Warscribe(store)
    roll(app, old.game_id)
    assert app.is_host(old.game_id)
    assert app.checkpoint(old.game_id, 1, old.chain) is not None
    # a new game adds the store key to the file, once; the older game's entry stays
    new = app.create("divine-right", three_players(), "host")
    app.close()
    upgraded = msgpack.unpackb(path.read_bytes())
    assert upgraded["format"] == "warscribe-secrets/2"
    assert upgraded["games"] == {old.game_id.bytes: entry}
    assert kept(store, old.game_id) == secrets
    assert kept(store, new.game_id).dice is not None
    size = path.stat().st_size
    again = Warscribe(store)
    again.create("divine-right", three_players(), "host")
    again.close()
    assert path.stat().st_size == size


# -- an older store ----------------------------------------------------------------------------


def write_as_older_versions_did(store_url: str) -> tuple[UUID, GameSecrets]:
    """A store as versions before the secrets file left it: a host game whose dice secret
    and signing key are KeptSecret aggregates in the store, in clear, and no secrets file
    (nor a sealed row)."""
    app = Warscribe(store_url)
    head = app.create("divine-right", three_players(), "host")
    roll(app, head.game_id)
    path = app.secrets.path
    secrets = app._kept(head.game_id)
    app._save(
        *(
            KeptSecret._create(
                KeptSecret.Created, id=KeptSecret.id_for(head.game_id, what), key=key
            )
            for what, key in ((DICE_SECRET, secrets.dice), (HOST_KEY, secrets.host_key))
        ),
        what="the secrets, kept the old way",
    )
    app._delete_streams([sealed_id(head.game_id)])
    app.close()
    os.remove(path)
    assert secrets.dice is not None and secrets.dice in stored_bytes(store_url)
    return head.game_id, secrets


def test_an_older_store_has_its_secrets_moved_out_when_first_opened(store_url: str) -> None:
    game_id, secrets = write_as_older_versions_did(store_url)
    # the new version opens it: the secrets are sealed in the store, and gone in clear
    app = Warscribe(store_url)
    assert app._kept(game_id) == secrets
    data = stored_bytes(store_url)
    assert secrets.dice is not None and secrets.host_key is not None
    assert secrets.dice not in data and secrets.host_key not in data
    # the host's store goes on as before: it rolls, signs and reveals
    roll(app, game_id)
    assert app.is_host(game_id)
    app.reveal(game_id, before_end=True)
    assert app.verify_game(game_id).report.secret_known
    app.close()
    # opening it again changes nothing
    assert kept(store_url, game_id) == secrets


# -- two processes creating games --------------------------------------------------------------

GAMES_EACH = 4
CREATORS = 4


def _creator(url: str, results: Any) -> None:
    """Create GAMES_EACH host games (again when another writer beat it to the catalog)."""
    try:
        app = Warscribe(url)
        made: list[str] = []
        while len(made) < GAMES_EACH:
            try:
                made.append(str(app.create("divine-right", three_players(), "host").game_id))
            except ConcurrentWrite:
                continue
        app.close()
    except Exception as exc:
        results.put(("error", repr(exc)))
        return
    results.put(("ok", made))


def test_processes_creating_games_at_once_all_keep_their_secrets(store_url: str) -> None:
    """The store key is made under the secrets file's lock, the file read again once the
    lock is held: four processes creating a store's first games at once agree on one key,
    and none loses the secrets of its games (without the lock, one's key replaced
    another's, whose games' sealed secrets then opened with neither)."""
    Warscribe(store_url).close()
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    workers = [context.Process(target=_creator, args=(store_url, results)) for _ in range(CREATORS)]
    for worker in workers:
        worker.start()
    answers = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=30)
    assert all(kind == "ok" for kind, _ in answers), answers
    made = {UUID(g) for _, games in answers for g in games}
    app = Warscribe(store_url)
    assert {g.game_id for g in app.games()} == made
    for game_id in made:
        secrets = app._kept(game_id)
        assert secrets.dice is not None
        assert commitment(secrets.dice) == app.head(game_id).dice.commitment
    app.close()
