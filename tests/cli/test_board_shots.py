"""Issue 33: the README's pictures of the Divine Right board at a battle and at a siege
(docs/battle.png, docs/siege.png) are made by a command, examples/board_shots.py, run
here in a temporary folder so that it cannot rot: the game it plays still reaches its
battle and its siege, each picture shows the words telling them and the siege's ring,
and Chromium draws both."""

from __future__ import annotations

import os
import re
import shutil
import struct
from pathlib import Path

import pytest

from .test_pbem_game import example
from .test_viewer_browser import _colours


def test_the_readme_pictures_of_a_battle_and_a_siege_are_made_by_the_example(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("chromium") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("no Chromium in CI (.ci/run installs it)")
        pytest.skip("no Chromium to draw a PNG (apt-get install chromium)")
    shots = example("board_shots")
    drawn: list[str] = []
    real = shots.to_png

    def to_png(picture: str) -> bytes:
        drawn.append(picture)
        return bytes(real(picture))

    monkeypatch.setattr(shots, "to_png", to_png)
    assert shots.main([str(tmp_path)]) == 0
    battle, siege = drawn
    # who fought, how many, what each lost; who besieges what, its ring round the castle
    assert ">battle: carol 4 against alice 2</tspan>" in battle
    assert ">lost: carol 0, alice 1</tspan>" in battle
    assert ">siege: carol besieges Castle Lapspell</tspan>" in siege
    assert re.search(r'<circle class="siege" data-hex="13,18"', siege)
    assert re.search(r'<g class="counter field" data-hex="13,18"[^>]* data-count="4"', siege)
    for name in ("battle.png", "siege.png"):
        png = (tmp_path / name).read_bytes()
        assert struct.unpack(">II", png[16:24]) == (880, 500), name  # the IHDR's size
        assert len(_colours(png)) > 20, f"{name}: a blank picture has a handful of colours"
