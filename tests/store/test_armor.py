"""Armored files survive what mail does to text, and damage is caught."""

from __future__ import annotations

import base64
import hashlib
import os
import quopri

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


def as_html(text: str, line: str = "{}<br>\n") -> str:
    """Text pasted into an HTML mail: '>' and '&' escaped, each line in `line`."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    body = "".join(line.format(part or "&nbsp;") for part in escaped.splitlines())
    return f'<html><body><div dir="ltr">{body}</div></body></html>'


MANGLED = {
    "a UTF-8 byte-order mark before the block": lambda t: "\ufeff" + t,
    "zero-width spaces in the data": lambda t: t.replace("\n", "\u200b\n"),
    "lines ended by <br>": as_html,
    "lines in <div> wrappers": lambda t: as_html(t, "<div>{}</div>"),
    "lines in <p> wrappers": lambda t: as_html(t, '<p class="x">{}</p>'),
    "quoted as &gt; in HTML": lambda t: as_html("\n".join("> " + x for x in t.splitlines())),
    "HTML sent quoted-printable": lambda t: quopri.encodestring(as_html(t).encode()).decode(),
    "CRLF and trailing spaces": lambda t: t.replace("\n", "  \r\n"),
    "the BEGIN line joined to the text before it": lambda t: "see below: " + t,
    "the END line joined to the data": lambda t: t.replace("\n-----END", "-----END"),
    "a soft break inside the BEGIN line": lambda t: t.replace("BEGIN WAR", "BEGIN WA=\nR"),
}


@pytest.mark.parametrize("mangling", sorted(MANGLED))
def test_what_mail_clients_do_is_undone(mangling: str) -> None:
    assert dearmor(MANGLED[mangling](armor(DATA, "LOG")), "LOG") == DATA


def test_a_transcoded_character_in_the_data_is_damage_not_a_crash() -> None:
    lines = armor(DATA, "LOG").splitlines()
    lines[4] = lines[4][:10] + "é" + lines[4][11:]
    with pytest.raises(ArmorError, match="damaged"):
        dearmor("\n".join(lines), "LOG")
