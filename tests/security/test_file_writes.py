"""No command destroys an existing file: `-o` never overwrites without `--force`, never
the open store (nor its -wal/-shm files) nor a key file even with it, never writes through
a symbolic link, writes atomically, and a missing folder is a clean `Error:`.

Each test reproduces a way a file was lost before (issue 11, "Files destroyed").
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from warscribe.cli.main import cli
from warscribe.store.app import Warscribe

Run = Callable[..., Result]
PLAYERS = ("--player", "alice", "--player", "bob", "--player", "carol")


@pytest.fixture
def run(cli_folder: Path) -> Run:
    """A club folder holding `warscribe.db` (one seeded game) and alice's key pair."""
    runner = CliRunner()

    def invoke(*args: str) -> Result:
        return runner.invoke(cli, list(args), catch_exceptions=False)

    assert invoke("new", "divine-right", *PLAYERS, "--dice", "seeded:5").exit_code == 0
    assert invoke("keys", "new", "alice").exit_code == 0
    return invoke


def refused(result: Result, *words: str) -> None:
    """A clean refusal: `Error: ...` naming why, exit 1, no traceback."""
    assert result.exit_code == 1, result.output
    assert result.output.startswith("Error: "), result.output
    for word in words:
        assert word in result.output, result.output


def files(folder: Path) -> dict[str, bytes]:
    """Every file of the folder and its content (links read through, if they lead anywhere)."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def orders_args(output: str, *extra: str) -> tuple[str, ...]:
    return ("orders", "--as", "alice", "--key", "alice.key", "-o", output, *extra, "end-phase")


# -- the open store --------------------------------------------------------------------------


@pytest.mark.parametrize("force", [(), ("--force",)], ids=["plain", "force"])
def test_export_over_the_store_it_reads_is_refused(
    run: Run, tmp_path: Path, force: tuple[str, ...]
) -> None:
    """`export -o warscribe.db` wrote the log over the store: the store was gone."""
    before = (tmp_path / "warscribe.db").read_bytes()
    refused(run("export", "-o", "warscribe.db", *force), "store")
    assert (tmp_path / "warscribe.db").read_bytes() == before
    app = Warscribe(str(tmp_path / "warscribe.db"))
    assert len(app.games()) == 1
    app.close()


@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-journal", "-lock"])
def test_the_store_s_sqlite_side_files_are_refused_even_with_force(run: Run, suffix: str) -> None:
    """The write-ahead log and shared memory file are part of the store, present or not."""
    refused(run("export", "-o", f"warscribe.db{suffix}", "--force"), "store")


def test_another_name_of_the_store_is_refused(run: Run, tmp_path: Path) -> None:
    """A hard link (same inode) or a path through `..` is still the store."""
    os.link(tmp_path / "warscribe.db", tmp_path / "alias.db")
    (tmp_path / "sub").mkdir()
    refused(run("export", "-o", "alias.db", "--force"), "store")
    refused(run("export", "-o", "sub/../warscribe.db", "--force"), "store")


# -- key files --------------------------------------------------------------------------------


@pytest.mark.parametrize("force", [(), ("--force",)], ids=["plain", "force"])
def test_orders_over_the_private_key_are_refused(
    run: Run, tmp_path: Path, force: tuple[str, ...]
) -> None:
    """`orders -o alice.key` wrote the orders over the private key that signed them."""
    before = (tmp_path / "alice.key").read_bytes()
    refused(run(*orders_args("alice.key", *force)), "key")
    assert (tmp_path / "alice.key").read_bytes() == before


def test_a_key_file_by_its_content_is_refused_even_with_force(run: Run, tmp_path: Path) -> None:
    """A file that holds a warscribe key is a key file whatever it is called."""
    (tmp_path / "backup.txt").write_bytes((tmp_path / "alice.key").read_bytes())
    before = files(tmp_path)
    refused(run(*orders_args("backup.txt", "--force")), "key")
    refused(run(*orders_args("alice.pub", "--force")), "key")
    assert files(tmp_path) == before


def test_keys_new_does_not_overwrite_a_public_key(run: Run, tmp_path: Path) -> None:
    """`keys new` silently replaced NAME.pub when only NAME.key was gone."""
    (tmp_path / "alice.key").unlink()
    before = files(tmp_path)
    refused(run("keys", "new", "alice"), "alice.pub")
    assert files(tmp_path) == before


def test_keys_new_writes_a_private_key_only_its_owner_reads(run: Run, tmp_path: Path) -> None:
    assert run("keys", "new", "bob").exit_code == 0
    assert (tmp_path / "bob.key").stat().st_mode & 0o777 == 0o600
    assert "PUBLIC KEY" in (tmp_path / "bob.pub").read_text()


# -- ordinary files ---------------------------------------------------------------------------


def test_an_existing_file_is_kept_unless_forced(run: Run, tmp_path: Path) -> None:
    """Without --force an existing file is refused; with it, replaced."""
    (tmp_path / "game.txt").write_text("my notes")
    refused(run("export", "--armor", "-o", "game.txt"), "--force")
    refused(run(*orders_args("game.txt")), "--force")
    assert (tmp_path / "game.txt").read_text() == "my notes"
    assert run("export", "--armor", "-o", "game.txt", "--force").exit_code == 0
    assert (tmp_path / "game.txt").read_text().startswith("-----BEGIN WARSCRIBE")


def test_a_new_file_is_written_with_the_usual_permissions(run: Run, tmp_path: Path) -> None:
    mask = os.umask(0o022)
    try:
        assert run("export", "-o", "game.wlog").exit_code == 0
    finally:
        os.umask(mask)
    assert (tmp_path / "game.wlog").stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize("force", [(), ("--force",)], ids=["plain", "force"])
def test_no_write_through_a_symbolic_link(run: Run, tmp_path: Path, force: tuple[str, ...]) -> None:
    """`-o link` wrote to wherever the link pointed (here: a file outside the folder, and a
    dangling link that would have created one)."""
    outside = tmp_path.parent / f"{tmp_path.name}-outside.txt"
    outside.write_text("not yours")
    (tmp_path / "link.txt").symlink_to(outside)
    (tmp_path / "dangling.txt").symlink_to(tmp_path.parent / f"{tmp_path.name}-new.txt")
    refused(run("export", "--armor", "-o", "link.txt", *force), "symbolic link")
    refused(run(*orders_args("dangling.txt", *force)), "symbolic link")
    assert outside.read_text() == "not yours"
    assert not (tmp_path.parent / f"{tmp_path.name}-new.txt").exists()


def test_a_missing_folder_is_a_clean_error(run: Run, tmp_path: Path) -> None:
    """`export -o missing/dir/x` ended in a FileNotFoundError traceback."""
    refused(run("export", "-o", "missing/dir/x"), "missing")
    refused(run(*orders_args("missing/dir/x")), "missing")
    refused(run("keys", "new", "bob", "-o", "missing/dir/bob"), "missing")


def test_a_failed_write_leaves_the_old_file_and_no_debris(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Atomic: the new content goes to a temporary file in the same folder, flushed to
    disk, then renamed over the old one; a failure before the rename changes nothing."""
    (tmp_path / "game.txt").write_text("my notes")
    before = files(tmp_path)

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    refused(run("export", "--armor", "-o", "game.txt", "--force"), "No space left")
    refused(run("export", "--armor", "-o", "new.txt"), "No space left")
    assert files(tmp_path) == before
