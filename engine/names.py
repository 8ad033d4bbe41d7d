"""Names given to `new` (a game's, its players'), and the reason of a host's act: checked
once, for every rule set.

A name is kept in Unicode normal form NFKC (full-width letters, ligatures and the like
become the letters they stand for), 1 to `MAX_LENGTH` characters, without control or
format characters (newlines, terminal escape codes, right-to-left overrides, zero-width
characters), so printing it cannot forge a line or drive a terminal.

Players must be told apart by eye: no two players' names may be alike, and no player may
take a name the record uses itself (`RESERVED`: the referee, who writes notes and rulings).
So must the games of one store (`likeness`: the store refuses a game whose name is alike
to one it holds, at `new`, `fork` and `import`).
Two names are alike when they are equal after case folding, or after mapping look-alike
letters to the Latin letters they resemble and case folding. The look-alike table is
deliberately small: the common Cyrillic and Greek letters that look like Latin ones
(Cyrillic а, е, о, р, с, у, х..., Greek Α, Β, ο, ρ, ν...) and the Latin letters of other
alphabets that read as plain ones (the IPA's script ɡ and ɑ, dotless ı, small capitals
ᴀ, ᴄ, ʜ...); it is not the full Unicode confusables list, and does not map digits, nor plain
Latin letters to each other.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from .authority import REFEREE_NAME
from .errors import InvalidCommand

RULE = "warscribe names"
MAX_LENGTH = 64
HOST_ACTS = "warscribe host acts"
MAX_REASON = 200
RESERVED = (REFEREE_NAME,)  # actors the record itself uses (`warscribe.engine.authority`)

# Unicode categories never allowed in a name: control, format, surrogate, private use,
# unassigned, line and paragraph separators.
UNPRINTABLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

_LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic
        "А": "A", "а": "a", "В": "B", "Е": "E", "е": "e", "Ѕ": "S", "ѕ": "s",
        "І": "I", "і": "i", "Ј": "J", "ј": "j", "К": "K", "к": "k", "М": "M",
        "Н": "H", "О": "O", "о": "o", "Р": "P", "р": "p", "С": "C", "с": "c",
        "Т": "T", "У": "Y", "у": "y", "Х": "X", "х": "x", "Һ": "H", "һ": "h",
        "Ӏ": "I", "ӏ": "l", "ԁ": "d", "Ԛ": "Q", "ԛ": "q", "Ԝ": "W", "ԝ": "w",
        "Ү": "Y", "ү": "y",
        # Greek
        "Α": "A", "α": "a", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "η": "n",
        "Ι": "I", "ι": "i", "Κ": "K", "κ": "k", "Μ": "M", "Ν": "N", "ν": "v",
        "Ο": "O", "ο": "o", "Ρ": "P", "ρ": "p", "Τ": "T", "Υ": "Y", "υ": "u",
        "Χ": "X", "χ": "x", "γ": "y", "μ": "u",
        # Latin letters of other alphabets (IPA, small capitals, dotless)
        "ɡ": "g", "ɑ": "a", "ı": "i", "ȷ": "j", "ɩ": "i", "ɪ": "i", "ĸ": "k",
        "ᴀ": "a", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ɢ": "g", "ʜ": "h", "ᴊ": "j",
        "ᴋ": "k", "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ʀ": "r",
        "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y", "ᴢ": "z",
    }
)  # fmt: skip


def normal(name: str, what: str) -> str:
    """`name` in NFKC, checked: not empty, not too long, nothing unprintable."""
    return _kept(name, what, "a name", MAX_LENGTH, RULE)


def host_reason(text: str) -> str:
    """The reason the host gives for a command it enters in a keyed player's name (a
    `HostActed`), as it is kept: checked as a name is, up to `MAX_REASON` characters."""
    return _kept(text, "the host's act", "a reason", MAX_REASON, HOST_ACTS)


def _kept(text: str, what: str, needs: str, most: int, rule: str) -> str:
    kept = unicodedata.normalize("NFKC", text)
    if not kept.strip():
        raise InvalidCommand(f"{what} needs {needs}", rule)
    if len(kept) > most:
        raise InvalidCommand(
            f"{what} {kept[:20]!r}... is {len(kept)} characters long: at most {most}", rule
        )
    bad = sorted({c for c in kept if unicodedata.category(c) in UNPRINTABLE})
    if bad:
        shown = ", ".join(f"U+{ord(c):04X}" for c in bad)
        raise InvalidCommand(
            f"{what} {kept!r} holds control or invisible characters ({shown})", rule
        )
    return kept


def game_name(name: str) -> str:
    """A game's name as it is kept."""
    return normal(name, "the game name")


def player_names(players: Iterable[str]) -> tuple[str, ...]:
    """The players' names as they are kept; refused if two are alike or one is reserved."""
    kept = tuple(normal(name, "a player") for name in players)
    seen: dict[str, str] = {key: name for name in RESERVED for key in likeness(name)}
    for name in kept:
        for key in likeness(name):
            other = seen.get(key)
            if other in RESERVED:
                raise InvalidCommand(
                    f"a player cannot be called {name!r}: the record uses {other!r} itself", RULE
                )
            if other is not None:
                raise InvalidCommand(
                    f"players need distinct names: {other!r} and {name!r} are alike (the "
                    "same but for case or look-alike letters), choose names told apart by eye",
                    RULE,
                )
        seen.update(dict.fromkeys(likeness(name), name))
    return kept


def likeness(name: str) -> set[str]:
    """What a name is compared by: in NFKC, case-folded, and with look-alikes mapped as
    well (a name read from a log file may not have been kept in NFKC)."""
    kept = unicodedata.normalize("NFKC", name)
    return {kept.casefold(), kept.translate(_LOOK_ALIKES).casefold()}
