"""The host's secrets of a store's games, in a file beside the store, never inside it.

For each game the host made, the file keeps its dice secret (whoever holds it predicts
every roll and opens every hidden part) and the private half of the host's signing key
(it signs the checkpoints of every exported copy). A copy of the store without this file
predicts nothing and signs nothing, yet verifies everything public.

* Where: beside a SQLite store (`warscribe.db` -> `warscribe.db.secrets`); for a
  PostgreSQL store, `$XDG_DATA_HOME/warscribe/HOST-PORT-DB-SCHEMA.secrets` (default
  `~/.local/share/warscribe/...`); or the path given (`--secrets`, `WARSCRIBE_SECRETS`).
* Made with mode 0600 (created exclusively), replaced atomically (temporary file, fsync,
  rename); refused when group or others may read or write it, as ssh refuses a key.
* Changed under an exclusive lock on `PATH.lock`, read-modify-write, so processes adding
  games at once keep each other's secrets.
* Optionally sealed with a passphrase: scrypt derives a key, ChaCha20-Poly1305 seals the
  content (a wrong passphrase or an edited file fails its tag).
"""

from __future__ import annotations

import fcntl
import os
import stat
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from typing import Any
from uuid import UUID

import msgpack

from warscribe.engine.codec import frozen

from .atomic import write_atomically
from .backends import Backend, StoreError

SECRETS_SUFFIX = ".secrets"
LOCK_SUFFIX = ".lock"
FORMAT = "warscribe-secrets/1"
MAX_SIZE = 1 << 26  # bytes: a secrets file is a few dozen bytes per game
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**15, 8, 1
_SCRYPT_MAX_N = 2**18  # with r <= 8: at most 256 MiB; a file asking for more is refused

Passphrase = Callable[[bool], str | None]
"""Gives the passphrase (None: none); its argument says whether the file is being made."""


class SecretsError(StoreError):
    """The secrets file cannot be read or written, or lacks a secret a command needs."""


@frozen
class GameSecrets:
    """The host's secrets of one game (None: the game has no such secret)."""

    dice: bytes | None
    host_key: bytes | None


def default_path(backend: Backend) -> str:
    """Where a store's secrets file lives unless another path is given."""
    env = dict(backend.env)
    database = env.get("SQLITE_DBNAME")
    if database is not None:
        return database + SECRETS_SUFFIX
    home = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    name = "-".join(
        (
            env["POSTGRES_HOST"],
            env["POSTGRES_PORT"],
            env["POSTGRES_DBNAME"],
            env.get("POSTGRES_SCHEMA", "public"),
        )
    )
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in name)
    return os.path.join(home, "warscribe", safe + SECRETS_SUFFIX)


def no_passphrase(new: bool) -> str | None:
    return None


class SecretsFile:
    """One store's secrets file (read when first needed, then again when a game is missing)."""

    def __init__(self, path: str, passphrase: Passphrase = no_passphrase) -> None:
        self.path = path
        self._passphrase = passphrase
        self._given: str | None = None
        self._asked = False
        self._games: dict[bytes, Any] | None = None

    def get(self, game_id: UUID) -> GameSecrets | None:
        """The game's secrets, None if the file (or the file's entry) is missing. Only this
        game's entry is read out of the file's map (a host's file of 10,000 games took
        33 ms to read whole, on every call that rolled)."""
        key = game_id.bytes
        if self._games is None or key not in self._games:
            self._games = self._read()
        entry = self._games.get(key)
        return None if entry is None else self._entry(entry)

    def missing(self, game_id: UUID, what: str) -> SecretsError:
        """The error of a command that needs a secret the file does not have."""
        where = "has no entry for this game" if os.path.exists(self.path) else "is missing"
        return SecretsError(
            f"{what} needs the host's secret of game {game_id}, and the secrets file "
            f"{self.path} {where}: only the host's store with its secrets file can do this "
            "(a copy of a store without it verifies and answers queries, nothing more; "
            "give the file's path with --secrets)"
        )

    def add(self, games: Mapping[UUID, GameSecrets]) -> None:
        """Keep the secrets of `games` (locked read-modify-write; atomic replace). A game
        already in the file with other secrets is refused. The other games' entries are
        written back as read, not made into records and back (which made adding a game
        grow with the file: 53 ms at 10,000 games)."""
        with self._locked():
            current = self._read()
            for game_id, secrets in games.items():
                kept = current.get(game_id.bytes)
                if kept is not None and self._entry(kept) != secrets:
                    raise SecretsError(
                        f"the secrets file {self.path} already holds other secrets for game "
                        f"{game_id}; nothing was changed"
                    )
            added = {k.bytes: {"dice": v.dice, "host-key": v.host_key} for k, v in games.items()}
            self._write({**current, **added})

    def discard(self, game_ids: Collection[UUID]) -> None:
        """Forget games that were never stored (their creation failed)."""
        with self._locked():
            gone = {game_id.bytes for game_id in game_ids}
            self._write({k: v for k, v in self._read().items() if k not in gone})

    def _entry(self, value: Any) -> GameSecrets:
        try:
            return _game(value)
        except (TypeError, ValueError) as exc:
            raise SecretsError(f"the secrets file {self.path} is damaged: {exc}") from None

    # -- the file -------------------------------------------------------------------------

    @contextmanager
    def _locked(self) -> Iterator[None]:
        folder = os.path.dirname(os.path.abspath(self.path))
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            fd = os.open(self.path + LOCK_SUFFIX, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        except OSError as exc:
            raise SecretsError(f"cannot lock the secrets file {self.path}: {exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # releases the lock

    def _read(self) -> dict[bytes, Any]:
        """The file's map of games: each game's 16 id bytes to its entry, as stored (each
        entry is checked when it is read out: `_entry`)."""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW)
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise SecretsError(f"cannot read the secrets file {self.path}: {exc}") from None
        try:
            found = os.fstat(fd)
            if not stat.S_ISREG(found.st_mode):
                raise SecretsError(f"the secrets file {self.path} is not a regular file")
            if found.st_mode & 0o077:
                raise SecretsError(
                    f"the secrets file {self.path} has mode {stat.S_IMODE(found.st_mode):04o}: "
                    "others may read it, so it is refused (anyone who reads it predicts every "
                    f"roll); make it private with `chmod 600 {self.path}`"
                )
            with os.fdopen(fd, "rb", closefd=False) as stream:
                data = stream.read(MAX_SIZE + 1)
        finally:
            os.close(fd)
        if len(data) > MAX_SIZE:
            raise SecretsError(f"the secrets file {self.path} is too large to be one")
        try:
            return self._games_of(data)
        except (ValueError, TypeError, KeyError, msgpack.UnpackException) as exc:
            raise SecretsError(f"the secrets file {self.path} is damaged: {exc}") from None

    def _games_of(self, data: bytes) -> dict[bytes, Any]:
        outer = _unpack(data)
        if outer.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} file")
        inner = _unpack(self._open_sealed(outer)) if "sealed" in outer else outer
        games = inner["games"]
        if not isinstance(games, dict):
            raise TypeError("games is not a map")
        if not all(type(key) is bytes and len(key) == 16 for key in games):
            raise TypeError("a game's id is not 16 bytes")
        return games

    def _open_sealed(self, outer: dict[str, Any]) -> bytes:
        passphrase = self._passphrase_for(new=False)
        if passphrase is None:
            raise SecretsError(
                f"the secrets file {self.path} is sealed with a passphrase: give it in "
                "WARSCRIBE_PASSPHRASE or with --ask-passphrase"
            )
        kdf = outer["scrypt"]
        n, r, p = (int(kdf[k]) for k in ("n", "r", "p"))
        if not (2 <= n <= _SCRYPT_MAX_N and 1 <= r <= 8 and 1 <= p <= 4):
            raise ValueError("its scrypt parameters are out of bounds")
        key = _derive(passphrase, _bytes(kdf["salt"]), n, r, p)
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

        try:
            return ChaCha20Poly1305(key).decrypt(
                _bytes(outer["nonce"]), _bytes(outer["sealed"]), FORMAT.encode()
            )
        except InvalidTag:
            raise SecretsError(
                f"wrong passphrase for the secrets file {self.path} (or the file was altered)"
            ) from None

    def _passphrase_for(self, new: bool) -> str | None:
        if not self._asked:
            self._given = self._passphrase(new) or None
            self._asked = True
        return self._given

    def _write(self, games: dict[bytes, Any]) -> None:
        content = _pack({"format": FORMAT, "games": games})
        exists = os.path.lexists(self.path)
        passphrase = self._passphrase_for(new=not exists)
        if passphrase is not None:
            salt, nonce = os.urandom(16), os.urandom(12)
            key = _derive(passphrase, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
            from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

            sealed = ChaCha20Poly1305(key).encrypt(nonce, content, FORMAT.encode())
            scrypt = {"salt": salt, "n": SCRYPT_N, "r": SCRYPT_R, "p": SCRYPT_P}
            content = _pack({"format": FORMAT, "scrypt": scrypt, "nonce": nonce, "sealed": sealed})
        try:
            write_atomically(self.path, content, 0o600, replace=exists)
        except OSError as exc:
            raise SecretsError(
                f"cannot write the secrets file {self.path}: {exc.strerror or exc}; "
                "nothing was changed"
            ) from None
        self._games = games


def _derive(passphrase: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    """The key a passphrase seals the file with (cryptography is imported here, when a file
    is sealed: most calls never need it, and it costs a CLI call's start-up; issue 14)."""
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    return Scrypt(salt=salt, length=32, n=n, r=r, p=p).derive(passphrase.encode())


def _pack(value: dict[Any, Any]) -> bytes:
    packed: bytes = msgpack.packb(value, use_bin_type=True)
    return packed


def _unpack(data: bytes) -> dict[Any, Any]:
    value = msgpack.unpackb(data, raw=False, strict_map_key=False)
    if not isinstance(value, dict):
        raise TypeError("not a map")
    return value


def _bytes(value: Any) -> bytes:
    if not isinstance(value, bytes):
        raise TypeError(f"{type(value).__name__} where bytes were expected")
    return value


def _game(value: Any) -> GameSecrets:
    if not isinstance(value, dict):
        raise TypeError("a game's entry is not a map")
    dice, host_key = value.get("dice"), value.get("host-key")
    return GameSecrets(
        dice=None if dice is None else _bytes(dice),
        host_key=None if host_key is None else _bytes(host_key),
    )
