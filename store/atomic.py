"""Writing one file atomically: its bytes go to a temporary file in the same folder,
flushed to disk, then renamed into place, and the folder entry is flushed too. A failure
leaves the old file (or no file) as it was, and no debris."""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Callable
from typing import BinaryIO


def write_atomically(
    path: str, data: bytes | Callable[[BinaryIO], object], mode: int, *, replace: bool
) -> None:
    """Write `data` (bytes, or what writes them to a file) to `path` with permission bits
    `mode`. Without `replace` the finished file is hard-linked into place, so a file that
    already exists (even one that appeared meanwhile) is never replaced: FileExistsError.
    Any other failure: OSError (or whatever `data` raises)."""
    import tempfile  # here: a store opened only to read writes no file (issue 14)

    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(
        dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp"
    )
    try:
        with os.fdopen(fd, "wb") as out:
            os.fchmod(out.fileno(), mode)
            if isinstance(data, bytes):
                out.write(data)
            else:
                data(out)
            out.flush()
            os.fsync(out.fileno())
        _put_in_place(temporary, path, replace)
        _sync_folder(folder)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


def _put_in_place(temporary: str, path: str, replace: bool) -> None:
    if replace:
        os.replace(temporary, path)
        return
    try:
        os.link(temporary, path)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP):
            raise
        if os.path.lexists(path):  # a file system without hard links
            raise FileExistsError(errno.EEXIST, "File exists", path) from None
        os.replace(temporary, path)


def _sync_folder(folder: str) -> None:
    """Flush the folder entry, so the renamed file survives a crash."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.EBADF):  # folders that cannot be synced
            raise
    finally:
        os.close(fd)
