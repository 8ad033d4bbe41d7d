"""What the installed distributions give warscribe, worked out once and remembered between
runs: the rule sets of the entry-point group `warscribe.rulesets` (engine/rulesets) and the
command line's index of commands (cli/main.py).

Working either out imports every game (and `importlib.metadata`, a third of a `--help`), so
each is written to a cache file at first use and read back by later runs while the same
distributions are installed. A cache is keyed by them: the name (with its version) and the
modification time of each `*.dist-info` (or `*.egg-info`) folder on `sys.path` (an
install, an upgrade, a reinstall or an uninstall changes it), and, for the sources a cache
was made from that no install copied (an editable install, a checkout), each file's
modification time.

The cache folder is $WARSCRIBE_CACHE, else $XDG_CACHE_HOME/warscribe, else ~/.cache/warscribe;
when it cannot be written, each run works the tables out again.
"""

from __future__ import annotations

import os
import sys
import zlib
from collections.abc import Callable

_MEMO: dict[str, str] = {}
_METADATA = (".dist-info", ".egg-info")  # the folders of installed distributions
_INSTALLED: list[str] = []  # the distributions' part of the key, once a process


def folder() -> str:
    """Where the caches are kept."""
    found = os.environ.get("WARSCRIBE_CACHE")
    if found:
        return found
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "warscribe")


def cached(kind: str, make: Callable[[], str]) -> str:
    """The text `make()` gives for what is installed now: from this process's memory, else
    from the cache file `kind` when its key still holds, else made and written there."""
    if kind in _MEMO:
        return _MEMO[kind]
    path = os.path.join(folder(), f"{kind}-{zlib.crc32(repr(sys.path).encode()):08x}.tsv")
    text = _read(path)
    if text is None:
        text = make()
        _write(path, text, _sources())
    _MEMO[kind] = text
    return text


def forget() -> None:
    """Work everything out again on next use (a test put a distribution on `sys.path`)."""
    _MEMO.clear()
    _INSTALLED.clear()


def _installed() -> str:
    """The key's first part: every `*.dist-info` folder on `sys.path`, with its time."""
    if not _INSTALLED:
        found = []
        for place in sys.path:
            try:
                names = sorted(n for n in os.listdir(place or ".") if n.endswith(_METADATA))
            except OSError:
                continue
            for name in names:
                found.append(f"{name}@{os.stat(os.path.join(place or '.', name)).st_mtime_ns}")
        _INSTALLED.append(" ".join(found))
    return _INSTALLED[0]


def _sources() -> list[str]:
    """The source files of the modules loaded that no install copied (outside every `sys.path`
    folder holding distributions, and outside Python's own library)."""
    installed = tuple(
        os.path.join(os.path.abspath(p), "")
        for p in sys.path
        if p and os.path.isdir(p) and any(n.endswith(_METADATA) for n in os.listdir(p))
    )
    library = os.path.join(os.path.dirname(os.__file__), "")
    files = (getattr(module, "__file__", None) for module in list(sys.modules.values()))
    return sorted(
        {f for f in files if f and not f.startswith((*installed, library)) and os.path.isfile(f)}
    )


def _key(sources: list[str]) -> str:
    stamped = (f"{path}@{os.stat(path).st_mtime_ns}" for path in sources)
    return "\t".join([_installed(), *stamped])


def _read(path: str) -> str | None:
    """The text of the cache at `path`, None when it is missing, its key no longer holds,
    or someone else could have written it (it names the modules a run imports)."""
    try:
        with open(path, encoding="utf-8") as file:
            found = os.fstat(file.fileno())
            if found.st_uid != os.getuid() or found.st_mode & 0o022:
                return None
            key, sources, text = file.read().split("\n", 2)
        if _key(sources.split("\t") if sources else []) == key:
            return text
    except (OSError, ValueError):
        pass
    return None


def _write(path: str, text: str, sources: list[str]) -> None:
    """Write the cache, the user's alone (a file replaced whole: a run reading it meanwhile
    sees the old)."""
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        part = f"{path}.{os.getpid()}"
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        with open(os.open(part, flags, 0o600), "w", encoding="utf-8") as file:
            file.write("\n".join([_key(sources), "\t".join(sources), text]))
        os.replace(part, path)
    except OSError:
        pass
