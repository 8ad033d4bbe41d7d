"""`--json` text (`cli/jsontext.py`, issue 14): the same characters `json.dumps(value,
indent=2)` writes, for any plain data and for every entry of a random game's log."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from warscribe.cli.jsontext import indented
from warscribe.store.views import entry_json, jsonable

from ..engine.random_play import new_game, play
from ..engine.test_random_play import DR_SPEC

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()  # NaN and the infinities too, as json writes them
    | st.text()  # control characters and any code point: json's escapes
)
_KEYS = st.text() | st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=5), inner, max_size=4)
        | st.dictionaries(_KEYS, inner, max_size=3)
    ),
    max_leaves=25,
)


@given(_VALUES, st.sampled_from(["", "  ", "    "]))
def test_the_text_is_jsons_indented_text(value: Any, pad: str) -> None:
    assert indented(value, pad) == json.dumps(value, indent=2).replace("\n", "\n" + pad)


def test_every_entry_of_a_random_games_log_is_written_as_json_writes_it() -> None:
    game = play(new_game("divine-right", DR_SPEC, 5), random.Random(5), 120, lambda _: None)  # type: ignore[arg-type]
    for entry in game.log:
        item = jsonable(entry_json(entry, None))
        assert indented(item, "  ") == json.dumps(item, indent=2).replace("\n", "\n  ")
