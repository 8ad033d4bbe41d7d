"""The host's secrets are not in the store (issue 11, "The host's dice secret sits in clear
in the store").

Whoever read the referee's store file predicted every roll and opened every hidden part:
the dice secret and the host's signing key were stored in it. They now live in the store's
secrets file (`warscribe.db.secrets` beside a SQLite store), made with mode 0600 and
refused when others may read it, optionally sealed with a passphrase. A store copied
without it predicts nothing and signs nothing, yet verifies everything public. A store an
older version wrote has its secrets moved out when it is first opened.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
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
from warscribe.store.app import ConcurrentWrite, Warscribe
from warscribe.store.kept_secrets import DICE_SECRET, HOST_KEY, KeptSecret
from warscribe.store.secrets import GameSecrets, SecretsError, SecretsFile, default_path

PASSPHRASE = "correct horse battery staple"


def kept(path: str | Path, game_id: UUID, passphrase: str | None = None) -> GameSecrets:
    """A game's secrets as its secrets file holds them."""
    found = SecretsFile(str(path), lambda new: passphrase).get(game_id)
    assert found is not None and found.dice is not None and found.host_key is not None
    return found


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
    """The raw store (SQLite's files; PostgreSQL's rows) does not contain the dice secret
    nor the host's private key; the secrets file does, and the dice secret is the one the
    game's commitment names."""
    app = Warscribe(store_url)
    head = app.create("divine-right", three_players(), "host")
    roll(app, head.game_id)
    fork = app.fork(head.game_id, head.seq, "what-if")
    secrets_path = app.secrets.path
    app.close()
    data = stored_bytes(store_url)
    for game_id in (head.game_id, fork.game_id):
        secrets = kept(secrets_path, game_id)
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
    secrets = kept(path, game_id, PASSPHRASE)
    sealed = path.read_bytes()
    assert secrets.dice not in sealed and secrets.host_key not in sealed
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
    assert kept(path, game_id, PASSPHRASE) == secrets


def test_an_edited_sealed_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.secrets"
    secrets = SecretsFile(str(path), lambda new: PASSPHRASE)
    game_id = UUID(int=7)
    secrets.add({game_id: GameSecrets(dice=b"d" * 32, host_key=b"h" * 32)})
    data = bytearray(path.read_bytes())
    data[-3] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(SecretsError, match=r"wrong passphrase .*altered"):
        SecretsFile(str(path), lambda new: PASSPHRASE).get(game_id)


@pytest.mark.parametrize(
    ("games", "error"),
    [
        ({UUID(int=7).bytes: b"not a map"}, "a game's entry is not a map"),
        ({UUID(int=7).bytes: {"dice": "text", "host-key": None}}, "str where bytes"),
        ({b"short": {"dice": None, "host-key": None}}, "not 16 bytes"),
        ([1, 2], "games is not a map"),
    ],
)
def test_a_damaged_secrets_file_is_an_error_naming_it(
    tmp_path: Path, games: Any, error: str
) -> None:
    """Each game's entry is read out of the file's map when that game's secrets are
    needed (reading all of them on every call grew with the host's games): a damaged
    entry is still refused, by name, whenever it is read, and so is a damaged map."""
    import msgpack

    path = tmp_path / "x.secrets"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(fd, msgpack.packb({"format": "warscribe-secrets/1", "games": games}))
    os.close(fd)
    with pytest.raises(SecretsError, match=f"{path} is damaged: .*{error}"):
        SecretsFile(str(path)).get(UUID(int=7))
    with pytest.raises(SecretsError, match=f"{path} is damaged: .*{error}"):
        SecretsFile(str(path)).add({UUID(int=7): GameSecrets(dice=b"d" * 32, host_key=None)})


# -- an older store ----------------------------------------------------------------------------


def write_as_older_versions_did(store_url: str) -> tuple[UUID, GameSecrets]:
    """A store as versions before the secrets file left it: a host game whose dice secret
    and signing key are KeptSecret aggregates in the store, and no secrets file."""
    app = Warscribe(store_url)
    head = app.create("divine-right", three_players(), "host")
    roll(app, head.game_id)
    path = app.secrets.path
    secrets = kept(path, head.game_id)
    app._save(
        *(
            KeptSecret._create(
                KeptSecret.Created, id=KeptSecret.id_for(head.game_id, what), key=key
            )
            for what, key in ((DICE_SECRET, secrets.dice), (HOST_KEY, secrets.host_key))
        ),
        what="the secrets, kept the old way",
    )
    app.close()
    os.remove(path)
    assert secrets.dice is not None and secrets.dice in stored_bytes(store_url)
    return head.game_id, secrets


def test_an_older_store_has_its_secrets_moved_out_when_first_opened(store_url: str) -> None:
    game_id, secrets = write_as_older_versions_did(store_url)
    # the new version opens it: the secrets are in the secrets file, and gone from the store
    app = Warscribe(store_url)
    assert kept(app.secrets.path, game_id) == secrets
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
    again = Warscribe(store_url)
    assert kept(again.secrets.path, game_id) == secrets
    again.close()


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
    """Each creation reads, changes and replaces the secrets file under its lock: four
    processes creating games at once lose none of each other's secrets (without the
    lock, one's replacement drops what another just added)."""
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
    file = SecretsFile(app.secrets.path)
    for game_id in made:
        secrets = file.get(game_id)
        assert secrets is not None and secrets.dice is not None
        assert commitment(secrets.dice) == app.head(game_id).dice.commitment
    app.close()
