"""The seeded game of several turns the picture tests read (tests/cli/story.py), played
once per run: those tests only read its store."""

from __future__ import annotations

import pytest

from .club import Club
from .story import play


@pytest.fixture(scope="session")
def story(tmp_path_factory: pytest.TempPathFactory) -> Club:
    played = Club(tmp_path_factory.mktemp("story"))
    play(played)
    return played
