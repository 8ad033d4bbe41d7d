"""Writing files without destroying any: the one way every command writes a file.

* an existing file is replaced only with `--force`;
* never the open store (by real path or same inode, with SQLite's -wal, -shm and -journal
  files, the writers' -lock file and the host's secrets file, present or not) nor an
  existing key file (named *.key or *.secrets, or holding a warscribe key block) — not
  even with `--force`;
* never through a symbolic link, never over something that is not a regular file;
* atomically: the bytes go to a temporary file in the same folder, flushed to disk, then
  renamed into place (without `--force`, hard-linked, so a file that appeared meanwhile is
  not replaced either); a failure leaves the old file as it was and no debris;
* a missing folder or a failing disk is a clean `Error:`.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Callable, Sequence
from typing import BinaryIO, NamedTuple

import click

from warscribe.engine.errors import WarscribeError
from warscribe.store.backends import StoreError, resolve

KEY_SCAN_LIMIT = 1 << 24  # bytes of an existing file searched for a key block
_SCAN_SLICE = 1 << 20  # bytes read at a time
_SCAN_OVERLAP = 1 << 10  # bytes kept from the slice before: a BEGIN line across two slices

force_option = click.option(
    "--force",
    is_flag=True,
    help="Replace FILE if it exists (never the store or a key file).",
)


class FileRefused(WarscribeError):
    """A file was not written: it would have destroyed something, or the disk refused."""


class Output(NamedTuple):
    """A file to write: where, what, and whether only its owner may read it (a named
    tuple: quicker to define than a dataclass, and `--help` reads it, issue 14)."""

    path: str
    data: bytes | Callable[[BinaryIO], object]  # the bytes, or what writes them to a file
    private: bool = False


def write_file(output: Output, *, force: bool, store: str | None) -> None:
    """Write one file (see the module's rules); `store` is the store this command opened."""
    write_files((output,), force=force, store=store)


def write_files(outputs: Sequence[Output], *, force: bool, store: str | None) -> None:
    """Write several files, all checked before the first is written; if one fails, the
    files this call created are removed again."""
    protected = _store_files(store)
    replacing = [_check(o.path, force, protected) for o in outputs]
    created: list[str] = []
    try:
        for output, mode in zip(outputs, replacing, strict=True):
            _atomic_write(output, mode, force)
            if mode is None:
                created.append(output.path)
    except BaseException:
        for path in created:
            with contextlib.suppress(OSError):
                os.unlink(path)
        raise


def _store_files(store: str | None) -> tuple[str, ...]:
    """The real paths of a store's files: a SQLite store's own, and the host's secrets
    file (at its default place) with its lock."""
    from warscribe.store.secrets import LOCK_SUFFIX, default_path  # here: --help needs none

    try:
        backend = resolve(store)
    except StoreError:
        return ()
    secrets = os.path.realpath(default_path(backend))
    return (*backend.driver.files(), secrets, secrets + LOCK_SUFFIX)


def _check(path: str, force: bool, protected: tuple[str, ...]) -> int | None:
    """Refuse a write that would destroy something; the mode of the file it replaces
    (None when it creates one)."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FileRefused(f"cannot write {path}: folder {folder} does not exist")
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        found = None
    if found is not None and stat.S_ISLNK(found.st_mode):
        raise FileRefused(
            f"{path} is a symbolic link: refusing to write through it (give the real path)"
        )
    if found is not None and not stat.S_ISREG(found.st_mode):
        raise FileRefused(f"{path} exists and is not a regular file")
    if _is_store(path, found, protected):
        raise FileRefused(f"{path} is the store this command reads: refusing to write over it")
    if found is None:
        return None
    from warscribe.store.secrets import SECRETS_SUFFIX

    if path.lower().endswith((".key", SECRETS_SUFFIX)) or _holds_key(path):
        raise FileRefused(f"{path} is a key file: refusing to write over it, even with --force")
    if not force:
        raise FileRefused(f"{path} exists: give --force to replace it")
    return stat.S_IMODE(found.st_mode)


def _is_store(path: str, found: os.stat_result | None, protected: tuple[str, ...]) -> bool:
    if os.path.realpath(path) in protected:
        return True
    if found is None:
        return False
    for other in protected:
        with contextlib.suppress(OSError):
            theirs = os.stat(other)
            if (theirs.st_dev, theirs.st_ino) == (found.st_dev, found.st_ino):
                return True
    return False


def _holds_key(path: str) -> bool:
    """Whether an existing file holds an armored warscribe key (even one mangled by mail),
    in its first KEY_SCAN_LIMIT bytes, read a slice at a time (a long log being replaced
    is not read whole)."""
    from warscribe.store import armor
    from warscribe.store.orders import KEY_KINDS

    kept = b""
    try:
        with open(path, "rb") as existing:
            for _ in range(KEY_SCAN_LIMIT // _SCAN_SLICE):
                data = existing.read(_SCAN_SLICE)
                if not data:
                    return False
                window = kept + data
                if any(armor.is_armored(window, kind) for kind in KEY_KINDS.values()):
                    return True
                kept = window[-_SCAN_OVERLAP:]
    except OSError:
        return False
    return False


def _atomic_write(output: Output, replacing: int | None, force: bool) -> None:
    from warscribe.store.atomic import write_atomically  # here: most commands write no file

    path = output.path
    if output.private:
        mode = 0o600
    elif replacing is not None:
        mode = replacing
    else:
        mode = 0o666 & ~_umask()
    try:
        write_atomically(path, output.data, mode, replace=force)
    except FileExistsError:
        raise FileRefused(f"{path} exists: give --force to replace it") from None
    except OSError as exc:
        raise FileRefused(f"cannot write {path}: {exc.strerror or exc}") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# -- reading ------------------------------------------------------------------------------

READ_LIMIT = 64 * 1024 * 1024
"""The most bytes read from a file given on the command line (a bound on hostile input)."""


class UnreadableFile(WarscribeError):
    """A file given on the command line cannot be read, or is not text where text is due."""


def read_bytes(path: str) -> bytes:
    """The bytes of `path` (`-`: standard input), at most READ_LIMIT of them."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read(READ_LIMIT + 1)
        else:
            with open(path, "rb") as file:
                data = file.read(READ_LIMIT + 1)
    except OSError as exc:
        raise UnreadableFile(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > READ_LIMIT:
        raise UnreadableFile(f"{path} is larger than {READ_LIMIT} bytes")
    return data


def read_text(path: str) -> str:
    """The text of `path`, which must be UTF-8 (a byte-order mark is dropped)."""
    try:
        return read_bytes(path).decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise UnreadableFile(f"{path} is not UTF-8 text (byte {exc.start})") from None
