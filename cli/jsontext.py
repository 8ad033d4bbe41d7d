"""JSON text as `json.dumps(value, indent=2)` writes it, made faster for the plain data of
`--json` (issue 14): with an indent, json encodes in Python, a generator per level and an
isinstance test per value, which made `log --json` three times `log`. Maps with text keys,
lists, text and whole numbers are written here (text by json's own C escaper); anything
else is handed to `json.dumps` itself, so the bytes are json's
(`tests/cli/test_jsontext.py`)."""

from __future__ import annotations

import json
from typing import Any

_TEXT = json.encoder.encode_basestring_ascii
_WORDS = {True: "true", False: "false", None: "null"}


def indented(value: Any, pad: str = "") -> str:
    """`json.dumps(value, indent=2)`, every line after the first led by `pad` too (JSON
    text holds no newline of its own: each one is indentation)."""
    cls = type(value)
    if cls is str:
        return _TEXT(value)
    if cls is dict:
        if not value:
            return "{}"
        inner = pad + "  "
        parts = []
        for key, item in value.items():
            if type(key) is not str:  # json's own rules for other keys
                return _json(value, pad)
            parts.append(f"{inner}{_TEXT(key)}: {indented(item, inner)}")
        return "{\n" + ",\n".join(parts) + "\n" + pad + "}"
    if cls is list:
        if not value:
            return "[]"
        inner = pad + "  "
        return (
            "[\n" + ",\n".join([inner + indented(item, inner) for item in value]) + "\n" + pad + "]"
        )
    if cls is int:
        return int.__repr__(value)
    if cls is bool or value is None:
        return _WORDS[value]
    return _json(value, pad)


def _json(value: Any, pad: str) -> str:
    return json.dumps(value, indent=2).replace("\n", "\n" + pad)
