"""The host's secrets of a store's games: sealed in the store under a key kept outside it.

For each game the host made, the store keeps its dice secret (whoever holds it predicts
every roll and opens every hidden part) and the private half of the host's signing key (it
signs the checkpoints of every exported copy), sealed with ChaCha20-Poly1305 under the
store's key, the game's id as associated data (a sealed row moved to another game does not
open), in a row written with the game in its transaction (`SealedSecrets`). The store key
is in the store's secrets file, never in the store: a copy of the store without the file
predicts nothing and signs nothing, yet verifies everything public; the file without the
store holds a key and nothing else.

* Where: beside a SQLite store (`warscribe.db` -> `warscribe.db.secrets`); for a
  PostgreSQL store, `$XDG_DATA_HOME/warscribe/HOST-PORT-DB-SCHEMA.secrets` (default
  `~/.local/share/warscribe/...`); or the path given (`--secrets`, `WARSCRIBE_SECRETS`).
* Written once, when the store's first game with secrets is made (it held every game's
  secrets and was read and rewritten whole for each new game, which made creating a game
  slow down as the host grew): made with mode 0600, created exclusively under an exclusive
  lock on `PATH.lock`, so processes creating games at once agree on one key; refused when
  group or others may read or write it, as ssh refuses a key.
* A file of the format before the store key (`warscribe-secrets/1`: each game's secrets
  in the file) keeps working: its games' secrets are read from it as before, and the store
  key is added to it, once, when the next game is made; it changes no more after that.
* Optionally sealed with a passphrase: scrypt derives a key, ChaCha20-Poly1305 seals the
  content (a wrong passphrase or an edited file fails its tag). A plain file read with a
  passphrase given is sealed with it then.
"""

from __future__ import annotations

import fcntl
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID, uuid5

import msgpack

from warscribe.engine.codec import frozen

from .atomic import write_atomically
from .backends import Backend, StoreError

SECRETS_SUFFIX = ".secrets"
LOCK_SUFFIX = ".lock"
FORMAT = "warscribe-secrets/2"  # the store key (and the games of a file of format 1)
OLD_FORMAT = "warscribe-secrets/1"  # each game's secrets in the file
FORMATS = (FORMAT, OLD_FORMAT)
MAX_SIZE = 1 << 26  # bytes: a file of format 1 holds a few dozen bytes per game
KEY_SIZE = 32
NONCE_SIZE = 12
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


NO_SECRETS = GameSecrets(dice=None, host_key=None)


def sealed_id(game_id: UUID) -> UUID:
    """The store's stream of a game's sealed secrets (`SealedSecrets`)."""
    return uuid5(game_id, "warscribe:sealed-secrets")


def default_path(backend: Backend) -> str:
    """Where a store's secrets file lives unless another path is given (beside a SQLite
    store; under the user's data folder for a database on a server)."""
    return backend.driver.secrets_path(SECRETS_SUFFIX)


def no_passphrase(new: bool) -> str | None:
    return None


class SecretsFile:
    """One store's secrets file: the store key, read when first needed and kept."""

    def __init__(self, path: str, passphrase: Passphrase = no_passphrase) -> None:
        self.path = path
        self._passphrase = passphrase
        self._given: str | None = None
        self._asked = False
        self._content: dict[str, Any] | None = None
        self._sealed = False  # whether the file read last was sealed with a passphrase

    def seal(self, game_id: UUID, secrets: GameSecrets) -> bytes:
        """`secrets` sealed under the store key (made now if the store has none yet), the
        game's id as associated data: a random nonce, then the ciphertext and its tag."""
        from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

        nonce = os.urandom(NONCE_SIZE)
        content = _pack({"dice": secrets.dice, "host-key": secrets.host_key})
        return nonce + ChaCha20Poly1305(self._store_key()).encrypt(nonce, content, game_id.bytes)

    def opened(self, game_id: UUID, sealed: bytes) -> GameSecrets | None:
        """The secrets `sealed` holds for `game_id` (None: this file has no store key, or
        there is no file); refused when they do not open with the file's key."""
        key = self._content_read().get("store-key")
        if key is None:
            return None
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

        try:
            content = ChaCha20Poly1305(key).decrypt(
                sealed[:NONCE_SIZE], sealed[NONCE_SIZE:], game_id.bytes
            )
            return _game(_unpack(content))
        except (InvalidTag, ValueError, TypeError, msgpack.UnpackException):
            raise SecretsError(
                f"the secrets of game {game_id} in the store do not open with the key of the "
                f"secrets file {self.path}: it is another store's file, or the store's row "
                "was altered"
            ) from None

    def old(self, game_id: UUID) -> GameSecrets | None:
        """The game's secrets in a file of format 1 (None: it has none for the game)."""
        entry = self._content_read().get("games", {}).get(game_id.bytes)
        if entry is None:
            return None
        try:
            return _game(entry)
        except (TypeError, ValueError) as exc:
            raise SecretsError(f"the secrets file {self.path} is damaged: {exc}") from None

    def missing(self, game_id: UUID, what: str) -> SecretsError:
        """The error of a command that needs a secret the file does not have."""
        where = "has no entry for this game" if os.path.exists(self.path) else "is missing"
        return SecretsError(
            f"{what} needs the host's secret of game {game_id}, and the secrets file "
            f"{self.path} {where}: only the host's store with its secrets file can do this "
            "(a copy of a store without it verifies and answers queries, nothing more; "
            "give the file's path with --secrets)"
        )

    def _store_key(self) -> bytes:
        """The store key, made and written (once, locked) when the file has none."""
        key = self._content_read().get("store-key")
        if key is not None:
            return bytes(key)
        with self._locked():
            content = self._read()  # another process may have made it meanwhile
            if "store-key" not in content:
                content = {**content, "store-key": os.urandom(KEY_SIZE)}
                self._write(content)
            self._content = content
        return bytes(content["store-key"])

    def _content_read(self) -> dict[str, Any]:
        """What the file holds (read once, or again while it had no store key); a plain
        file read with a passphrase given is sealed with it."""
        if self._content is None or "store-key" not in self._content:
            content = self._read()
            if content and not self._sealed and self._passphrase_for(new=False) is not None:
                with self._locked():
                    content = self._read()
                    if not self._sealed:
                        self._write(content)
            self._content = content
        return self._content

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

    def _read(self) -> dict[str, Any]:
        """The file's content: its store key and (format 1) its map of games, each game's
        16 id bytes to its entry, as stored (an entry is checked when it is read out)."""
        self._sealed = False
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
            return self._content_of(data)
        except (ValueError, TypeError, KeyError, msgpack.UnpackException) as exc:
            raise SecretsError(f"the secrets file {self.path} is damaged: {exc}") from None

    def _content_of(self, data: bytes) -> dict[str, Any]:
        outer = _unpack(data)
        written = outer.get("format")
        if written not in FORMATS:
            raise ValueError(f"not a {FORMAT} file")
        self._sealed = "sealed" in outer
        inner = _unpack(self._open_sealed(outer, written)) if self._sealed else outer
        content: dict[str, Any] = {}
        if "games" in inner or written == OLD_FORMAT:
            games = inner["games"]
            if not isinstance(games, dict):
                raise TypeError("games is not a map")
            if not all(type(key) is bytes and len(key) == 16 for key in games):
                raise TypeError("a game's id is not 16 bytes")
            content["games"] = games
        if "store-key" in inner or written == FORMAT:
            key = _bytes(inner["store-key"])
            if len(key) != KEY_SIZE:
                raise ValueError(f"its store key is not {KEY_SIZE} bytes")
            content["store-key"] = key
        return content

    def _open_sealed(self, outer: dict[str, Any], written: str) -> bytes:
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
                _bytes(outer["nonce"]), _bytes(outer["sealed"]), written.encode()
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

    def _write(self, content: dict[str, Any]) -> None:
        """Write `content`: of format 2 once it has a store key (a file of format 1
        sealed with a passphrase before any new game keeps its format)."""
        written = FORMAT if "store-key" in content else OLD_FORMAT
        data = _pack({"format": written, **content})
        exists = os.path.lexists(self.path)
        passphrase = self._passphrase_for(new=not exists)
        if passphrase is not None:
            salt, nonce = os.urandom(16), os.urandom(NONCE_SIZE)
            key = _derive(passphrase, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
            from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

            sealed = ChaCha20Poly1305(key).encrypt(nonce, data, written.encode())
            scrypt = {"salt": salt, "n": SCRYPT_N, "r": SCRYPT_R, "p": SCRYPT_P}
            data = _pack({"format": written, "scrypt": scrypt, "nonce": nonce, "sealed": sealed})
        try:
            write_atomically(self.path, data, 0o600, replace=exists)
        except OSError as exc:
            raise SecretsError(
                f"cannot write the secrets file {self.path}: {exc.strerror or exc}; "
                "nothing was changed"
            ) from None
        self._sealed = passphrase is not None


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
