"""The core's queue of decisions (The Game Turn: a pending decision): one asked, the
others behind it, first in, first out, whatever game keeps them."""

from __future__ import annotations

from warscribe.engine.pending import asked, following, withdrawn


def test_a_decision_asked_while_another_waits_is_queued_behind_it() -> None:
    now, queue = asked(None, (), "losses")
    assert (now, queue) == ("losses", ())
    now, queue = asked(now, queue, "retreat")
    now, queue = asked(now, queue, "advance")
    assert (now, queue) == ("losses", ("retreat", "advance"))


def test_once_the_decision_asked_is_settled_the_first_queued_is_asked() -> None:
    assert following(None, ("retreat", "advance")) == ("retreat", ("advance",))
    assert following("losses", ("retreat",)) == ("losses", ("retreat",))
    assert following(None, ()) == (None, ())


def test_a_withdrawn_decision_leaves_the_others_in_their_order() -> None:
    assert withdrawn("losses", ("retreat",), lambda k: k == "losses") == (None, ("retreat",))
    queue = ("retreat", "advance", "retreat")
    assert withdrawn("losses", queue, lambda k: k == "retreat") == (
        "losses",
        ("advance", "retreat"),
    )
