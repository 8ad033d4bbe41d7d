"""`warscribe serve` through Flask's test client: the page and its Content-Security-Policy,
the player's panels and story, a turn written by choosing offers and a reachable space
(each line dry-run as it is added, a bad one refused), signed, mailed and recorded by the
referee; the session's token on every POST; escaping; the command itself."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.cli.test_mailbox import Collect, smtp_server
from tests.security.conftest import Table, table
from tests.security.test_dry_run_orders import players_store
from warscribe.cli.context import Context
from warscribe.cli.main import cli
from warscribe.cli.pbem import checked_orders
from warscribe.engine import rulesets
from warscribe.store.mailbox import SmtpServer

from .conftest import opened

__all__ = ["smtp_server", "table"]  # the fixtures

TURN_START = ("events roll", "end-phase", "diplomacy draw", "diplomacy pass") + ("end-phase",) * 2
"""A quiet player turn up to its Movement Phase (the Siege Phase comes before it)."""
STACK = "Hothior-A5 Hothior-A6"  # alice's stack at Tadafat


@pytest.fixture
def moving(client: tuple[Any, str]) -> tuple[Any, str]:
    """The client of the player's page with the turn written up to its Movement Phase
    (`TURN_START`, each line chosen from the offers)."""
    for line in TURN_START:
        offer(client, line)
    return client


def post(client: tuple[Any, str], url: str, body: Any = None) -> Any:
    browser, token = client
    return browser.post(url, json=body or {}, headers={"X-Warscribe-Token": token})


def offer(client: tuple[Any, str], line: str, **values: str) -> dict[str, Any]:
    """Add the offer whose line is `line`, each choice's value as `values` give (as the
    page lists it), else its first."""
    browser, _ = client
    offers = browser.get("/api/state").get_json()["offers"]
    index = [o["text"] for o in offers].index(line)
    choices = offers[index]["choices"]
    chosen = {
        c["key"]: c["values"].index(values[c["key"]]) if c["key"] in values else 0 for c in choices
    }
    answer = post(client, "/api/line", {"offer": index, "chosen": chosen})
    assert answer.status_code == 200, answer.get_json()
    state: dict[str, Any] = answer.get_json()
    return state


def test_the_page_allows_only_its_own_script(client: tuple[Any, str]) -> None:
    browser, token = client
    answer = browser.get("/")
    policy = answer.headers["Content-Security-Policy"]
    nonce = re.search(r"script-src 'nonce-([^']+)'", policy)
    assert nonce is not None and "unsafe-inline" not in policy and "default-src 'none'" in policy
    page = answer.get_data(as_text=True)
    assert page.count("<script") == 1 and f'<script nonce="{nonce[1]}">' in page
    assert f'<style nonce="{nonce[1]}">' in page  # the board's own style too
    assert "frame-ancestors 'none'" in policy and answer.headers["X-Frame-Options"] == "DENY"
    assert browser.get("/").headers["Content-Security-Policy"] != policy  # a nonce a response
    assert token and 'class="board"' in page


def test_the_players_page_shows_the_hand_the_banishments_and_the_story(
    client: tuple[Any, str],
) -> None:
    state = client[0].get("/api/state").get_json()
    assert state["player"] == "alice" and state["whose_turn"] == "alice"
    panels = {panel["title"]: panel["text"] for panel in state["panels"]}
    assert panels["hand"] == "alice: no cards" and "alice: none" in panels["banishments"]
    assert "turn 1: the randomizer chits" in state["story"][-1]
    steps = client[0].get("/api/story").get_json()["story"]  # for the slider, by position
    told = [line for step in steps for line in step["lines"]]
    assert told[-len(state["story"]) :] == state["story"] and len(steps) > 1
    assert all(f"== {step['position']} ==" == step["lines"][0] for step in steps[1:])
    assert state["offers"] == [{"text": "events roll", "choices": []}]
    assert 'class="counter' in state["overlay"]


def test_a_post_without_the_sessions_token_is_refused(client: tuple[Any, str]) -> None:
    browser, token = client
    assert browser.post("/api/line", json={"offer": 0, "chosen": {}}).status_code == 403
    wrong = {"X-Warscribe-Token": token + "x"}
    assert browser.post("/api/sign", json={}, headers=wrong).status_code == 403
    assert browser.get("/api/state").get_json()["lines"] == []


def test_a_line_the_page_cannot_add_is_refused_and_nothing_added(
    moving: tuple[Any, str],
) -> None:
    far = post(moving, "/api/line", {"stack": STACK, "space": "1,1"})
    assert far.status_code == 422 and far.get_json()["error"] == "the stack cannot reach 1,1 now"
    stale = post(moving, "/api/line", {"offer": 99, "chosen": {}})
    assert stale.status_code == 422 and "no longer made" in stale.get_json()["error"]
    assert moving[0].get("/api/state").get_json()["lines"] == list(TURN_START)
    assert moving[0].get("/orders.eml").status_code == 422  # nothing signed yet


def test_a_line_the_dry_run_refuses_is_named(stores: tuple[Any, str]) -> None:
    from warscribe.web.turn import Refused, Turn

    ctx = Context(f"{stores[1]}.db", None)
    turn = Turn(ctx, stores[1])
    with pytest.raises(Refused, match=r"line 1 \(`end-phase`\) of the orders: .*events roll"):
        turn.add("end-phase")
    assert turn.lines == []
    ctx.close()


def test_a_turn_chosen_on_the_page_is_signed_mailed_and_recorded(
    moving: tuple[Any, str], stores: tuple[Callable[..., Result], str]
) -> None:
    run, _ = stores
    reach = moving[0].get(f"/api/reach?stack={STACK}").get_json()["reach"]
    space = ",".join(map(str, reach[0]["space"]))
    moved = post(moving, "/api/line", {"stack": STACK, "space": space})
    assert moved.status_code == 200, moved.get_json()
    assert moved.get_json()["lines"][-1] == reach[0]["command"]
    assert moved.get_json()["ahead"].endswith("movement"), moved.get_json()["ahead"]
    for _ in range(2):
        offer(moving, "end-phase")
    signed = post(moving, "/api/sign").get_json()["signed"]
    assert signed.startswith("-----BEGIN WARSCRIBE ORDERS-----")
    mail = moving[0].get("/orders.eml")
    assert mail.headers["Content-Disposition"] == 'attachment; filename="orders.eml"'
    Path("orders.eml").write_bytes(mail.get_data())
    recorded = run("import-orders", "orders.eml").stdout
    assert f"StackMoved: player=alice units={STACK.split()}" in recorded, recorded
    assert "now: bob to play" in recorded


def test_every_text_is_escaped_and_a_hosts_store_opens_as_the_referee(tmp_path: Path) -> None:
    from warscribe.web.app import make_app

    store = str(tmp_path / "host.db")
    name = "<img src=x onerror=alert(1)>&"
    players = ["--player", "a", "--player", "b", "--dice", "seeded:1", "--name"]
    made = CliRunner().invoke(cli, ["--store", store, "new", "divine-right", *players, name])
    assert made.exit_code == 0, made.output
    ctx = Context(store, None)
    browser = make_app(ctx).test_client()
    page = browser.get("/").get_data(as_text=True)
    assert name not in page and "&lt;img src=x onerror=alert(1)&gt;&amp;: the referee" in page
    state = browser.get("/api/state")
    data = state.get_json()  # the name in the story, sent escaped
    assert "<img" in " ".join(data["story"]) and "<img" not in state.get_data(as_text=True)
    assert data["player"] is None and data["offers"] == []
    assert "hand" not in {panel["title"] for panel in data["panels"]}
    ctx.close()


def test_serve_says_where_it_listens_and_what_it_exposes(
    stores: tuple[Callable[..., Result], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import warscribe.web.app

    served: list[tuple[str, int]] = []
    monkeypatch.setattr(
        warscribe.web.app, "serve", lambda app, host, port: served.append((host, port))
    )
    run, player = stores
    local = run("serve", "--port", "8123", store=f"{player}.db")
    assert "serving pbem as alice at http://127.0.0.1:8123/" in local.stderr
    assert "warning" not in local.stderr
    wide = run("serve", "--host", "0.0.0.0", store=f"{player}.db")
    assert "warning: listening on 0.0.0.0" in wide.stderr
    assert served == [("127.0.0.1", 8123), ("0.0.0.0", 8765)]
    far = run("serve", "--port", "65536", store=f"{player}.db", ok=False)
    assert far.exit_code == 2 and "65536 is out of range: a port is 0 to 65535" in far.output


def test_what_the_store_records_between_two_requests_is_shown(
    client: tuple[Any, str], stores: tuple[Callable[..., Result], str]
) -> None:
    """The page keeps what a head of the game gives (the story, the offers, the reach)
    only while the store's head stays: an entry recorded by another process shows."""
    run, player = stores
    before = client[0].get("/api/state").get_json()
    assert before["offers"] == [{"text": "events roll", "choices": []}]
    run("events", "roll", store=f"{player}.db")  # another process, on the same store
    after = client[0].get("/api/state").get_json()
    assert "alice rolled 7 for the random event: No Event" in after["story"][-1]
    assert after["offers"][0] == {"text": "end-phase", "choices": []}
    added = post(client, "/api/line", {"offer": 0, "chosen": {}})  # offered at the new head
    assert added.status_code == 200 and added.get_json()["lines"] == ["end-phase"]


def test_signing_checks_the_lines_again_at_the_head_the_store_has_then(
    client: tuple[Any, str], stores: tuple[Callable[..., Result], str]
) -> None:
    """A line the dry run passed is refused at signing when the store has moved on since
    (another process recorded the same roll): nothing is signed."""
    run, player = stores
    offer(client, "events roll")
    run("events", "roll", store=f"{player}.db")  # another process, on the same store
    refused = post(client, "/api/sign")
    assert refused.status_code == 422, refused.get_json()
    assert "line 1 (`events roll`)" in refused.get_json()["error"]
    assert client[0].get("/orders.eml").status_code == 422  # nothing signed


def test_a_line_taken_back_leaves_the_plan_and_head_a_fresh_dry_run_gives(
    moving: tuple[Any, str], stores: tuple[Callable[..., Result], str]
) -> None:
    from warscribe.cli.pbem import checked_orders
    from warscribe.web.turn import Turn, view

    _, player = stores
    for _ in range(2):
        state = post(moving, "/api/undo").get_json()
    assert state["lines"] == list(TURN_START[:-2])
    fresh = Context(f"{player}.db", None)
    turn = Turn(fresh, player)
    turn.lines = state["lines"]
    turn.plan = checked_orders(fresh, player, state["lines"])[1]
    again = view(turn)
    assert state["plan"] == turn.plan and state["plan"][-2] == "  line 4: diplomacy pass"
    assert state["ahead"] == again["ahead"] and state["offers"] == again["offers"]
    fresh.close()


def test_a_stack_clicked_again_after_its_move_reaches_from_where_it_went(
    moving: tuple[Any, str],
) -> None:
    reach = moving[0].get(f"/api/reach?stack={STACK}").get_json()["reach"]
    space = ",".join(map(str, reach[-1]["space"]))
    assert post(moving, "/api/line", {"stack": STACK, "space": space}).status_code == 200
    again = moving[0].get(f"/api/reach?stack={STACK}").get_json()
    assert again != {"reach": reach}, again
    post(moving, "/api/undo")
    assert moving[0].get(f"/api/reach?stack={STACK}").get_json() == {"reach": reach}


BATTLE_STACK = "Neuth-A1 Neuth-A2 Neuth-A3 Neuth-A4 Neuth-A5 Neuth-A6 Neuth-monarch"
CARD = "diplomacy activate KINGDOM --card 'black-magic+2#3'"
ATTACK = "attack declare 'Neuth-A1,Neuth-A2,Neuth-A3,Neuth-A4,Neuth-A5,Neuth-A6>2,1'"
LOST = "Neuth-A4 Neuth-A5 Neuth-A6"


def test_a_whole_turn_plays_a_card_attacks_and_answers_the_losses(
    battle: tuple[Callable[..., Result], str],
) -> None:
    """Bob's turn 2 of the battle game: a card from his hand activates a kingdom chosen
    from the offer's domain; his stack moves by its reach next to alice's and attacks
    (Combat Phase › Declaring Attacks); alice's standing answer stands; the losses he
    must choose (3 units: Combat Phase › Combat Results) are offered as units to tick,
    and the turn is recorded as the page wrote it."""
    run, _ = battle
    with opened("bob.db") as client:
        state = _to_the_battle(client)
        pending = {panel["title"]: panel["text"] for panel in state["panels"]}["Pending decision"]
        assert pending == "bob must answer losses: choose the 3 unit(s) bob loses in attack 1"
        assert "  alice's standing answer: retreat stand" in state["plan"]
        (losses,) = state["offers"]
        assert losses["text"] == "losses UNIT..." and LOST.split() in losses["choices"][0]["parts"]
        offer(client, "losses UNIT...", units=LOST)
        state = offer(client, "end-phase")
        assert state["ahead"] == "2.2.random-events" and state["offers"] == []
        post(client, "/api/sign")
        Path("orders.eml").write_bytes(client[0].get("/orders.eml").get_data())
    recorded = run("import-orders", "orders.eml").stdout
    assert "DiplomacyAttempted: player=bob kingdom=Mivior" in recorded, recorded
    assert f"UnitsEliminated: player=bob units={LOST.split()}" in recorded, recorded
    assert "now: alice to play" in recorded


def test_past_host_dice_the_page_shows_the_dry_runs_verdicts(table: Table) -> None:
    """In a player's copy of a game of host dice the page cannot know the roll: it shows
    what the dry run says under each outcome (as `orders` prints it), and offers the
    next lines at the first outcome (Play by email › the dry run looks past the dice)."""
    from warscribe.engine.dryrun import outcome
    from warscribe.web.turn import Turn

    player = players_store(table)
    with opened(f"{player}.db") as client:
        offer(client, "events roll")
        state = offer(client, "end-phase")
        assert state["plan"][0].startswith("  past dice only the referee can roll: checked under")
        assert any(f"stops for {player}'s choice if RandomEventRolled" in s for s in state["plan"])
        turn = Turn(Context(f"{player}.db", None), player)
        turn.lines = ["events roll", "end-phase"]
        written, _ = checked_orders(turn.ctx, player, turn.lines, checked=False)
        first = outcome(turn.head(), written, turn.ctx.app.secret(turn.head().game_id))
        assert state["ahead"] == rulesets.get(first.ruleset).position(first.state)
        assert len(state["offers"]) == len(turn.offers(first)) > 0
        turn.ctx.close()


def test_the_signed_orders_are_sent_to_the_referees_address_through_smtp(
    stores: tuple[Callable[..., Result], str], smtp_server: tuple[Collect, int]
) -> None:
    """`serve --smtp`: the mail goes to the referee's address this store records, from the
    player's, through that server; the referee records what arrives."""
    run, player = stores
    handler, port = smtp_server
    run("address", "referee", "ref@example.org", store=f"{player}.db")
    run("address", player, f"{player}@example.org", store=f"{player}.db")
    with opened(f"{player}.db", SmtpServer(False, "127.0.0.1", port)) as client:
        early = post(client, "/api/send")
        assert early.status_code == 422 and early.get_json()["error"] == "sign the orders first"
        assert offer(client, "events roll")["sends"] is True
        post(client, "/api/sign")
        sent = post(client, "/api/send")
    assert sent.get_json() == {"sent": "sent to ref@example.org: orders of alice in pbem"}
    ((to, message),) = handler.received
    assert to == ["ref@example.org"] and b"From: alice@example.org" in message
    Path("orders.eml").write_bytes(message)
    assert "RandomEventRolled" in run("import-orders", "orders.eml").stdout


def test_without_smtp_the_page_sends_nothing(client: tuple[Any, str]) -> None:
    assert offer(client, "events roll")["sends"] is False
    post(client, "/api/sign")
    refused = post(client, "/api/send")
    assert refused.status_code == 422 and "serve it with --smtp URL" in refused.get_json()["error"]


def _to_the_battle(client: tuple[Any, str]) -> dict[str, Any]:
    """Bob's turn up to his attack resolved: the page's state then."""
    for line in ("events roll", "end-phase", "diplomacy draw"):
        offer(client, line)
    state = client[0].get("/api/state").get_json()
    hand = {panel["title"]: panel["text"] for panel in state["panels"]}["hand"]
    assert hand == "bob: black-magic+2#3, hidden"  # the card drawn now is the referee's
    offer(client, CARD, kingdom="Mivior")
    offer(client, "end-phase")
    offer(client, "end-phase")
    reach = client[0].get(f"/api/reach?stack={BATTLE_STACK}").get_json()["reach"]
    assert "1,1" in {",".join(map(str, r["space"])) for r in reach}
    post(client, "/api/line", {"stack": BATTLE_STACK, "space": "1,1"})
    offer(client, "end-phase")
    offer(client, ATTACK)
    return offer(client, "attack resolve 1")
