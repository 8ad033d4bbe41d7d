"""Armored files survive what mail does to text, and damage is caught."""

from __future__ import annotations

import base64
import hashlib
import os

import pytest

from warscribe.store.armor import ArmorError, armor, dearmor

DATA = os.urandom(700)


def soft_wrapped(text: str, width: int = 30) -> str:
    """Quoted-printable as a mail client writes it: '=' escaped, long lines soft-broken."""
    out = []
    for line in text.replace("=", "=3D").splitlines():
        while len(line) > width:
            out.append(line[:width] + "=")
            line = line[width:]
        out.append(line)
    return "\n".join(out)


def test_quoted_printable_quoting_crlf_and_trailing_spaces() -> None:
    mailed = soft_wrapped(armor(DATA, "LOG"))
    quoted = "\r\n".join("> > " + line + "   " for line in mailed.splitlines())
    assert dearmor("Hello,\r\n\r\n" + quoted + "\r\n-- \r\nme", "LOG") == DATA


def test_blocks_written_with_base64_padding_still_read() -> None:
    data = b"x" * 100  # 100 bytes: two '=' of padding
    text = base64.b64encode(data).decode()
    check = f"Checksum: {hashlib.sha256(data).hexdigest()[:16]}"
    old = "\n".join(
        ["-----BEGIN WARSCRIBE LOG-----", check, "", text, "-----END WARSCRIBE LOG-----"]
    )
    assert dearmor(soft_wrapped(old), "LOG") == data
    assert dearmor(old, "LOG") == data


def test_lines_rewrapped_shorter_still_read() -> None:
    text = armor(DATA, "ORDERS")
    lines = text.splitlines()
    rewrapped = [
        piece
        for line in lines
        for piece in ([line] if "-" in line or ":" in line else [line[:20], line[20:]])
    ]
    assert dearmor("\n".join(rewrapped), "ORDERS") == DATA


def test_a_damaged_block_is_refused() -> None:
    text = armor(DATA, "LOG")
    lines = text.splitlines()
    lines[4] = lines[4][:10] + ("A" if lines[4][10] != "A" else "B") + lines[4][11:]
    with pytest.raises(ArmorError, match="checksum"):
        dearmor("\n".join(lines), "LOG")
    with pytest.raises(ArmorError, match="no -----BEGIN WARSCRIBE ORDERS"):
        dearmor(text, "ORDERS")
