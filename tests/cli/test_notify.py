"""Mail only to whom it concerns (issue 32): the referee mails the player who must act, a
player whose mail it took or refused, and the others once a game turn (`address NAME
--notify turn`, the default), on every run (`every`) or never (`none`); the mail to the
player who must act carries every entry since their last mail, and a mail superseded
before it was sent is not sent."""

from __future__ import annotations

import json
import mailbox
import re
import shlex
from pathlib import Path

from tests.cli.mailing import PLAYERS, addresses, deliver, drop, orders_text, outbox, written
from tests.cli.test_mailbox import Collect, smtp_server  # noqa: F401 (the fixture)
from tests.security.conftest import Table, new_game, table  # noqa: F401 (the fixture)
from warscribe.cli.generated import command_line
from warscribe.engine.rulesets import get
from warscribe.store.app import Warscribe

RULES = get("divine-right")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "pbem.md"


def status(game: Table) -> dict[str, object]:
    return dict(json.loads(game.run("status", "--json").stdout))


def host_step(game: Table) -> None:
    """The host enters the next command for the player on turn (rolling the random events,
    else ending the phase, else the first choice the rules offer)."""
    app = Warscribe("referee.db")
    state = app.head(app.find(None).game_id).state
    offers = {offer.name: offer for offer in RULES.legal(state)}
    offer = next((offers[n] for n in ("events-roll", "end-phase") if n in offers), None)
    offer = offer or next(iter(offers.values()))
    command = offer.command(**{key: values[0] for key, values in offer.domains})
    line = shlex.split(command_line(RULES.name, command))
    game.run(*line, "--as", str(RULES.whose_turn(state)), "--host-act", "the test plays")


def run_referee(game: Table, ok: bool = True) -> dict[str, str]:
    """A referee run; what each player it mailed said importing the reply (every reply
    is delivered to its player's mbox, which they import whole)."""
    game.run("referee", "inbox", "--outbox", "out", ok=ok)
    mailed = {str(m["To"]).partition("@")[0] for m in outbox()}
    imported = deliver(game)
    assert all("refused" not in said for said in imported.values()), imported
    return {player: imported[player] for player in mailed}


def started(game: Table, dice: str = "seeded:1", **notify: str) -> None:
    """The game, the addresses, each player's `--notify`, the first run (everyone mailed)."""
    new_game(game, dice)
    addresses(game)
    for player, how in notify.items():
        game.run("address", player, "--notify", how)
    drop("inbox")
    assert set(run_referee(game)) == set(PLAYERS)


def test_a_run_where_bob_acts_mails_bob_and_the_others_once_a_game_turn(
    table: Table,  # noqa: F811
) -> None:
    """Host dice: the long copies each player imports at last carry the host's checkpoint
    and the signed heads, which `import` checks (host pin, forks) on the whole span."""
    started(table, "host")
    bob_acted = False
    while status(table)["turn"] == 1:
        if status(table)["whose_turn"] == "bob" and not bob_acted:
            # bob, whose copy the referee mailed when he had to act, mails his orders
            bob_acted = True
            drop("inbox", written(orders_text(table, "bob", "events roll")))
            assert set(run_referee(table)) == {"bob"}
            continue
        host_step(table)
        now = status(table)
        if now["turn"] == 1:
            assert set(run_referee(table)) == {now["whose_turn"]}, now["position"]
    assert bob_acted
    # game turn 2 begins: its digest to the others, each a long catch-up copy with the
    # signed heads (bob's orders), imported whole
    imported = run_referee(table)
    assert set(imported) == set(PLAYERS)
    spans = [int(re.findall(r"imported (\d+) new entries", said)[-1]) for said in imported.values()]
    assert max(spans) > 20, imported
    # the rest of the game turn mails whoever acts
    host_step(table)
    assert set(run_referee(table)) == {status(table)["whose_turn"]}
    for player in PLAYERS:
        table.run("verify", store=player)
        said = table.run("audit", store=player).stdout
        assert "fork" not in said


def test_notify_every_and_none(table: Table) -> None:  # noqa: F811
    """bob asks for every mail, carol for none: bob is mailed on every run with something
    new; carol only when she must act or a mail of hers was taken or refused (never the
    digest); alice (turn) when she must act and once a game turn."""
    started(table, alice="turn", bob="every")
    table.run("address", "carol", "--notify", "none")  # once she has her first copy
    said = table.run("address").stdout
    assert "bob: bob@example.org (notify: every)" in said
    assert "carol: carol@example.org (notify: none)" in said
    # carol mails orders out of turn: refused, and she is told (and no one else)
    assert status(table)["whose_turn"] != "carol"
    drop("inbox", written(orders_text(table, "carol", "--unchecked", "end-phase")))
    table.run("referee", "inbox", "--outbox", "out", ok=False)
    assert [str(m["To"]) for m in outbox()] == ["carol@example.org"]
    assert "refused" in outbox()[0].get_content()
    deliver(table)
    while status(table)["turn"] == 1:
        host_step(table)
        now = status(table)
        expected = {now["whose_turn"], "bob"} | ({"alice"} if now["turn"] == 2 else set())
        assert set(run_referee(table)) == expected, now["position"]


def two_unsent(game: Table) -> str:
    """Two runs without --smtp, each mailing the player on turn (the host acted for
    them): two unsent mails to that player in the outbox's new/. The player."""
    started(game)
    whose = str(status(game)["whose_turn"])
    for _ in range(2):
        host_step(game)
        game.run("referee", "inbox", "--outbox", "out")
    assert len(list(Path("out/new").iterdir())) == 2
    return whose


def holds_every_entry(game: Table, player: str, sent: bytes) -> None:
    """The player imports the one mail sent and their copy ends on the referee's head."""
    Path("sent.eml").write_bytes(sent)
    game.run("import", "sent.eml", store=player)
    mine = json.loads(game.run("status", "--json", store=player).stdout)
    assert mine["chain"] == status(game)["chain"]


def test_a_mail_superseded_before_it_was_sent_is_not_sent(
    table: Table,  # noqa: F811
    smtp_server: tuple[Collect, int],  # noqa: F811
) -> None:
    """Runs without --smtp leave two mails to the player on turn in the outbox; the run
    with --smtp sends the newer only (it carries all the older did), moves the older aside
    and says so; the player imports what was sent and holds every entry."""
    handler, port = smtp_server
    whose = two_unsent(table)
    result = table.run("referee", "inbox", "--outbox", "out", "--smtp", f"smtp://127.0.0.1:{port}")
    lines = result.stdout.splitlines()
    skipped = [line for line in lines if line.startswith(f"not sent to {whose}@example.org: ")]
    sent = [line for line in lines if line.startswith(f"sent to {whose}@example.org: ")]
    assert len(skipped) == 1 and "superseded by " in skipped[0], result.stdout
    assert len(sent) == 1, result.stdout
    assert [tos for tos, _ in handler.received] == [[f"{whose}@example.org"]]
    assert not list(Path("out/new").iterdir())
    flags = sorted(path.name.rpartition(",")[2] for path in Path("out/cur").iterdir())
    assert flags == ["S", "T"], "the sent mail is seen, the superseded one trashed"
    holds_every_entry(table, whose, handler.received[0][1])
    # a later run sends nothing again, and posts no superseded mail again
    again = table.run("referee", "inbox", "--outbox", "out", "--smtp", f"smtp://127.0.0.1:{port}")
    assert "sent to" not in again.stdout and len(handler.received) == 1


def test_the_subjects_are_those_docs_pbem_md_gives(table: Table) -> None:  # noqa: F811
    """docs/pbem.md gives the subject format (`Subject: [warscribe] GAME POSITION: your
    move` or `…: waiting for carol (losses)`): every reply's subject is of that form."""
    text = " ".join(DOCS.read_text().split())
    found = re.search(r"`Subject: ([^`]+): your move` or `…: waiting for carol \(losses\)`", text)
    assert found is not None, "docs/pbem.md gives no subject format"
    head = re.escape(found[1]).replace("GAME", "g").replace("POSITION", r"\d+\.\d+\.[a-z-]+")
    form = re.compile(rf"{head}: (your move|waiting for \w+( \(\w+\))?)")
    started(table)
    subjects = [str(m["Subject"]) for p in PLAYERS for m in mailbox.mbox(f"{p}.mbox")]
    assert len(subjects) == 3 and any(s.endswith("your move") for s in subjects), subjects
    for subject in subjects:
        assert form.fullmatch(subject), (found[0], subject)


def test_a_send_that_fails_after_a_mail_was_superseded_loses_nothing(
    table: Table,  # noqa: F811
    smtp_server: tuple[Collect, int],  # noqa: F811
) -> None:
    """The older mail is moved aside before anything is sent: when the server then fails
    (as a kill would stop the run), the newer one waits in new/ and the next run sends
    it, and the superseded one never goes out."""
    handler, port = smtp_server
    whose = two_unsent(table)
    failed = table.run(
        "referee", "inbox", "--outbox", "out", "--smtp", "smtp://127.0.0.1:1", ok=False
    )
    assert failed.exit_code == 1 and "sending through 127.0.0.1:1 failed" in failed.stderr
    assert len(list(Path("out/new").iterdir())) == 1
    sent = table.run("referee", "inbox", "--outbox", "out", "--smtp", f"smtp://127.0.0.1:{port}")
    assert sent.stdout.count("sent to ") == 1 and "not sent" not in sent.stdout
    holds_every_entry(table, whose, handler.received[0][1])
