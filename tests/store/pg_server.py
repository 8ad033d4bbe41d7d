"""A PostgreSQL server of a test's own, in a temporary folder on a free port, to stop,
restart and cut off (`tests/store/test_postgres_faults.py`); and a proxy in front of it
that loses the answer to a write."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import select
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

QUIET = 0.3  # seconds without a word from the server: it has answered all it was sent


def _binaries() -> Path | None:
    """The folder of `initdb` and `pg_ctl`, the newest installed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_major)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def _major(path: str) -> int:
    version = Path(path).parent.parent.name
    return int(version) if version.isdigit() else 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class Server:
    """A PostgreSQL server of our own (run as the `postgres` user when the tests run as
    root: the server refuses root), trust authentication on 127.0.0.1."""

    def __init__(self, binaries: Path, user: pwd.struct_passwd | None) -> None:
        self.binaries = binaries
        self.user = user
        self.root = Path(tempfile.mkdtemp(prefix="warscribe-pg-"))
        if user is not None:
            os.chown(self.root, user.pw_uid, user.pw_gid)
        self.data = self.root / "data"
        self.port = _free_port()
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-N")

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        as_user: dict[str, Any] = (
            {"user": self.user.pw_uid, "group": self.user.pw_gid} if self.user else {}
        )
        subprocess.run(
            [str(self.binaries / tool), *args],
            check=True,
            capture_output=True,
            cwd=self.root,
            **as_user,
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c max_connections=40"
        )
        log = str(self.root / "server.log")
        self._run("pg_ctl", "-D", str(self.data), "-l", log, "-o", options, "-w", "start")

    def stop(self) -> None:
        """An immediate stop: every session cut, no checkpoint (a crash, as far as the
        store can tell)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def admin(self) -> Any:
        import psycopg

        return psycopg.connect(self.url, autocommit=True)

    def end_sessions(self) -> int:
        """End every client session but the one asking; how many there were."""
        with self.admin() as conn:
            rows = conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'"
            ).fetchall()
        return len(rows)

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def own_server() -> Iterator[Server]:
    """A started server of our own; skipped with the reason where PostgreSQL's server
    binaries are not installed, or no user but root could run one (never under CI=true:
    there the test fails instead)."""
    binaries = _binaries()
    user = None
    reason = None if binaries else "PostgreSQL's server binaries (initdb, pg_ctl) are absent"
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            reason = reason or "running as root, and there is no `postgres` user to run a server"
    if reason is not None or binaries is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but no PostgreSQL server can be started: {reason}")
        pytest.skip(reason)
    server = Server(binaries, user)
    try:
        server.start()
        yield server
    finally:
        server.remove()


class LosingProxy:
    """A TCP proxy in front of a server. Armed with a marker, the first client message
    holding it is passed on, with whatever follows, and the server's every answer to it
    kept back; once the server has gone quiet the client's connection is cut: the server
    did the work, and the client never heard."""

    def __init__(self, port: int) -> None:
        self.target = ("127.0.0.1", port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.marker: bytes | None = None
        self.cut = threading.Event()
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def arm(self, marker: bytes) -> None:
        self.cut.clear()
        self.marker = marker

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, client: socket.socket, server: socket.socket) -> None:
        losing = False
        quiet_since = time.monotonic()
        with client, server:
            while True:
                ready, _, _ = select.select([client, server], [], [], 0.05)
                if losing and not ready and time.monotonic() - quiet_since > QUIET:
                    self.cut.set()
                    return  # both closed: the client hears nothing more
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        return
                    if sock is client:
                        with self._lock:
                            if self.marker is not None and self.marker in data:
                                self.marker, losing = None, True
                        server.sendall(data)
                        quiet_since = time.monotonic()
                    elif losing:
                        quiet_since = time.monotonic()  # kept back
                    else:
                        client.sendall(data)

    def close(self) -> None:
        self.listener.close()
