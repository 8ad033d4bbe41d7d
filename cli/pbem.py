"""Play by email on the command line: keys, signed orders, the audit, forks and notes."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click

from warscribe.engine import rulesets
from warscribe.engine.audit import DIFFERENCE, AuditReport, Finding, audit
from warscribe.engine.authority import REFEREE_NAME
from warscribe.engine.common import event_from
from warscribe.engine.dryrun import (
    DECISION,
    MOST_BRANCHES,
    REFUSED,
    UNKNOWN,
    WAITING,
    Branch,
    DryRun,
    Stop,
    dry_run,
)
from warscribe.engine.errors import (
    DiceError,
    InvalidCommand,
    RuleError,
    WarscribeError,
)
from warscribe.engine.events import HostActed
from warscribe.engine.orders import ANSWER, Orders, new_key_pair
from warscribe.engine.record import Entry, Head
from warscribe.store import logfile
from warscribe.store import orders as orders_file
from warscribe.store.views import describe, escaped, event_name, jsonable, printable

from .context import Context, emit, host_act_option, json_option, pass_ctx, say
from .files import Output, force_option, read_bytes, write_file, write_files
from .positions import resolve_position, resolve_span

at_option = click.option(
    "--at",
    "position",
    required=True,
    metavar="POSITION",
    help="TURN.PLAYER-TURN.PHASE (the phase as it began) or #SEQ.",
)


# -- keys ---------------------------------------------------------------------------------


@click.group()
def keys() -> None:
    """A player's key pair for signing orders.

    \b
    Example:
      warscribe keys new alice        # alice.key (keep it), alice.pub (send it)
    """


@keys.command("new")
@click.argument("player")
@click.option(
    "-o", "--output", "prefix", default=None, metavar="PREFIX", help="Files PREFIX.key/.pub."
)
@pass_ctx
def keys_new(ctx: Context, player: str, prefix: str | None) -> None:
    """Make an Ed25519 key pair: PLAYER.key stays with the player (it signs their
    orders), PLAYER.pub goes to the referee for `new --key PLAYER=PLAYER.pub`.

    \b
    Example:
      warscribe keys new alice -o keys/alice
    """
    from warscribe.engine import names

    player = names.player_names((player,))[0]
    if prefix is None and (player in (".", "..") or any(c in player for c in "/\\")):
        raise click.BadParameter(
            f"{player!r} names the key files {player}.key and {player}.pub, which stay in "
            "this folder: a key's name has no / or \\ and is not . or .. (give -o PREFIX to "
            "write them elsewhere)",
            param_hint="PLAYER",
        )
    base = Path(player if prefix is None else prefix)
    if base.name in ("", ".", ".."):
        raise click.BadParameter(f"{prefix!r} names no file", param_hint="'-o' / '--output'")
    private, public = new_key_pair()
    secret_path, public_path = base.with_suffix(".key"), base.with_suffix(".pub")
    write_files(
        (
            Output(str(secret_path), _key_text("private", player, private), private=True),
            Output(str(public_path), _key_text("public", player, public)),
        ),
        force=False,
        store=ctx.store,
    )
    click.echo(f"{secret_path}: {player}'s private key (keep it; it signs your orders)")
    click.echo(f"{public_path}: {player}'s public key {public.hex()[:16]}... (send it)")


def _key_text(kind: str, player: str, key: bytes) -> bytes:
    return orders_file.write_key(orders_file.KeyFile(kind, player, key)).encode()


# -- orders -------------------------------------------------------------------------------


def parse_answer(text: str) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """A standing answer, `answer KIND=POLICY ...` (shell quoting), as (name, args)."""
    words = shlex.split(text)
    args = []
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise click.UsageError(f"bad answer {word!r}: write KIND=POLICY")
        args.append((key, value))
    return words[0], tuple(args)


def parse_lines(
    ctx: Context, ruleset: str, player: str, lines: list[str]
) -> tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]:
    """Each line of orders as the command it gives: written as after `warscribe` on the
    command line and read by the CLI's own commands, or a standing answer. A line that
    does not read is refused naming it (a usage error, exit 2; one the data refuses, 1)."""
    from .generated import parse_line

    found = []
    for number, text in enumerate(lines, 1):
        try:
            if text.split(maxsplit=1)[:1] == [ANSWER]:
                found.append(parse_answer(text))
                continue
            command = parse_line(ctx, ruleset, text, player)
        except click.UsageError as exc:
            raise click.UsageError(
                f"line {number} (`{text}`) of the orders: {exc.format_message()}"
            ) from None
        except WarscribeError as exc:
            kind = type(exc) if isinstance(exc, RuleError) else WarscribeError
            raise kind(f"line {number} (`{text}`) of the orders: {exc.message}", exc.rule) from None
        found.append((command.name, command.args))
    return tuple(found)


@click.command()
@click.argument("commands", nargs=-1)
@click.option(
    "--as",
    "player",
    default=None,
    metavar="PLAYER",
    help="Who gives the orders (default: the store's owner, see `init`).",
)
@click.option(
    "--key",
    "key_path",
    default=None,
    type=click.Path(exists=True, dir_okay=False),
    help="The player's private key file (from `keys new`; default: the owner's, see `init`).",
)
@click.option(
    "--file",
    "command_file",
    type=click.File("r"),
    default=None,
    help="Commands one per line (# starts a comment), after those given as arguments.",
)
@click.option("-o", "--output", default=None, help="File to write (default: standard output).")
@click.option(
    "--unchecked",
    is_flag=True,
    help="Sign without the dry run against your copy (the referee checks them anyway).",
)
@force_option
@pass_ctx
def orders(
    ctx: Context,
    commands: tuple[str, ...],
    player: str | None,
    key_path: str | None,
    command_file: Any,
    output: str | None,
    unchecked: bool,
    force: bool,
) -> None:
    """Write signed orders against your copy of the log, to mail to the referee. Each
    command is written as after `warscribe` on the command line (as `status` shows what
    you may type), one argument or line each; `answer KIND=POLICY` lines are standing
    answers to the decisions the rules may ask of you (see docs/pbem.md). The orders are
    first run against your copy: a command the rules refuse there is named (line and
    text) and nothing is signed; what would run, and where it would stop (another
    player's decision, dice only the referee rolls), is printed.

    \b
    Example:
      warscribe orders -o orders.txt 'diplomacy draw' \\
        'diplomacy activate Neuth --card bribe+1#1' end-phase \\
        'move Hothior-A1 --path 10,16,11,15' 'answer losses=cheapest retreat=stand'
    """
    lines = _order_lines(commands, command_file)
    player, key_path = _signer(ctx, player, key_path)
    written, text, plan = _sign_and_write(ctx, player, lines, key_path, unchecked)
    _deliver(written, text, plan, output, ctx, force)


def _order_lines(commands: tuple[str, ...], command_file: Any) -> list[str]:
    """The orders' lines: the commands given as arguments, then the file's (no comments)."""
    lines = list(commands)
    if command_file is not None:
        lines += [ln.strip() for ln in command_file if ln.strip() and not ln.startswith("#")]
    if not lines:
        raise click.UsageError("give at least one command (as arguments or with --file)")
    return lines


def _signer(ctx: Context, player: str | None, key_path: str | None) -> tuple[str, str]:
    """Who gives the orders and their private key file (by default, the store's owner's)."""
    owner = ctx.owner()
    player = player or (owner.player if owner else None)
    if player is None:
        raise click.UsageError("say who gives the orders with --as (or once, with `init --as`)")
    if key_path is None and owner is not None and owner.player == player:
        key_path = owner.key_file
    if key_path is None:
        raise click.UsageError("give the private key with --key (or once, with `init --key`)")
    if not Path(key_path).is_file():
        raise WarscribeError(f"the private key file {key_path} is missing (see `init --key`)")
    return player, key_path


def checked_orders(
    ctx: Context, player: str, lines: list[str], checked: bool = True
) -> tuple[Orders, list[str]]:
    """The orders `lines` give for `player` against the head of the store's copy: every
    line read (a line that does not read is refused naming it), the standing answers
    checked and, when `checked`, the dry run (`_dry_run`: a line the rules refuse is
    refused naming it); with what the dry run says they would do."""
    head, written = _written_orders(ctx, player, lines)
    orders_file.check_answers(head.ruleset, written)
    return written, _dry_run(ctx, head, written, lines) if checked else []


def _written_orders(ctx: Context, player: str, lines: list[str]) -> tuple[Head, Orders]:
    """The game's head and `player`'s orders of `lines` against it (not yet signed)."""
    listing = ctx.game()
    if player not in listing.players:
        raise InvalidCommand(f"{player!r} is not a player of {listing.name}", "orders")
    head = ctx.app.head(listing.game_id)
    written = Orders(
        game_id=listing.game_id,
        player=player,
        position=rulesets.get(head.ruleset).position(head.state),
        seq=head.seq,
        chain=head.chain,
        commands=parse_lines(ctx, head.ruleset, player, lines),
        lines=tuple(lines),
    )
    return head, written


def _sign_and_write(
    ctx: Context, player: str, lines: list[str], key_path: str, unchecked: bool
) -> tuple[Orders, str, list[str]]:
    """The orders checked (the dry run, unless unchecked) and signed: the orders, their
    armored text and what the dry run says they would do."""
    private = orders_file.read_key(read_bytes(key_path), "private")
    written, plan = checked_orders(ctx, player, lines, checked=not unchecked)
    return written, orders_file.write_orders(written, private), plan


def _deliver(
    written: Orders, text: str, plan: list[str], output: str | None, ctx: Context, force: bool
) -> None:
    """Write the signed orders to `output` (standard output: None; an existing file only
    when forced), saying what would run."""
    if output is not None:
        write_file(Output(output, text.encode()), force=force, store=ctx.store)
    for said in plan:
        click.echo(said, err=True)
    if output is None:
        click.echo(text, nl=False)
        return
    click.echo(
        f"{len(written.lines)} orders of {written.player} at #{written.seq} "
        f"({written.position}) signed into {output}",
        err=True,
    )


def _dry_run(ctx: Context, head: Head, written: Orders, lines: list[str]) -> list[str]:
    """Run the orders against the player's copy before they are signed: refuse (naming the
    line) what the rules refuse there whatever the dice give; otherwise what would run,
    and where it would stop (under which outcomes of dice only the referee can roll)."""
    run = dry_run(head, written, ctx.app.secret(written.game_id))
    refused = run.refusal()
    if refused is not None:
        assert isinstance(refused.reason, RuleError)
        where = f"line {refused.line + 1} (`{lines[refused.line]}`)"
        whatever = ""
        if run.rolled:
            given = "whatever the dice give" if run.sampled is None else "under every one checked"
            whatever = f" ({given}: {_branches(run)}; --unchecked signs it anyway)"
        from .generated import cli_words

        said = cli_words(head.ruleset, refused.reason.message)
        message = f"{where} of the orders: {said}{whatever}"
        raise type(refused.reason)(message, refused.reason.rule)
    if not run.rolled:
        return _one_way(run.branches[0], lines, head.ruleset)
    plan = [f"  past dice only the referee can roll: checked under {_branches(run)}"]
    for line in run.lines:
        plan.append(f"  line {line + 1}: {lines[line]}")
        plan += [
            _stopped(run, stop, branches, head.ruleset) for stop, branches in run.stops_at(line)
        ]
    return plan


def _one_way(branch: Branch, lines: list[str], ruleset: str) -> list[str]:
    """What the orders do where the copy rolls every die they need (or they need none)."""
    from .generated import command_line

    plan = [
        f"  {answered}'s standing answer: {command_line(ruleset, command)}"
        if line is None
        else f"  line {line + 1}: {lines[line]}"
        for line, command, answered in branch.ran
    ]
    stop = branch.stop
    if stop is None:
        return [*plan, "  the orders run to their end in this copy"]
    where = f"line {stop.line + 1} (`{lines[stop.line]}`)"
    if stop.kind == UNKNOWN:
        return [*plan, f"  not checked from {where} on: this copy cannot tell ({_unknown(stop)})"]
    return [*plan, f"  would stop at {where}: waiting for {stop.who}: {_message(stop, ruleset)}"]


def _branches(run: DryRun) -> str:
    if run.sampled is None:
        return f"each of the {len(run.branches)} outcomes (every value of every die)"
    return (
        f"{len(run.branches)} outcomes drawn at random (seed {run.sampled}): the dice have "
        f"more than {MOST_BRANCHES} outcomes, the most a dry run decides"
    )


def _stopped(run: DryRun, stop: Stop, branches: list[Branch], ruleset: str) -> str:
    """How the `branches` stop (all alike), and under which outcomes."""
    what = {
        REFUSED: "refused",
        DECISION: f"stops for {stop.who}'s choice",
        WAITING: f"waits for {stop.who}",
        UNKNOWN: f"not checked (this copy cannot tell: {_unknown(stop)})",
    }[stop.kind]
    if run.sampled is None:
        chance = sum(b.chance for b in branches)
        share = f"{len(branches)} of {len(run.branches)} outcomes, {chance:.1%}"
    else:
        share = f"{len(branches)} of the {len(run.branches)} drawn"
    outcomes = "; ".join(dict.fromkeys(_outcome(b) for b in branches))
    return f"    {what} if {outcomes} ({share}): {_message(stop, ruleset)}"


def _outcome(branch: Branch) -> str:
    """A branch's outcome as what its rolls decided (the roll itself, where nothing
    followed it)."""
    said = [
        f"{event_name(after)} {describe(after)}" if after is not None else describe(rolled)
        for rolled, after in branch.rolls
    ]
    return ", ".join(dict.fromkeys(said))


def _message(stop: Stop, ruleset: str) -> str:
    """Why the branch stopped, in the words the player types."""
    from .generated import cli_words

    reason = stop.reason
    return cli_words(ruleset, reason.message if isinstance(reason, WarscribeError) else str(reason))


def _unknown(stop: Stop) -> str:
    if isinstance(stop.reason, DiceError):
        return "it rolls dice only the referee can roll"
    return "it depends on hidden information this copy lacks"


@click.command("import-orders")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@pass_ctx
def import_orders(ctx: Context, file: str) -> None:
    """Referee: check a player's signed orders (signature, player, turn and phase, the
    log position they were written against) and record them, dice rolled by the record.
    Forged, replayed, stale or out-of-turn orders are refused, and nothing is recorded.
    The commands are recorded up to the first one the rules refuse (or that must wait for
    another player); that one and the rest are returned with the reason, exit 1.

    \b
    Example:
      warscribe import-orders alice-orders.txt
    """
    received = orders_file.read_orders(read_bytes(file))
    if ctx.game_ref is not None and ctx.game_id() != received.orders.game_id:
        raise WarscribeError(f"the orders are for game {received.orders.game_id}, not this one")
    entries, refused = orders_file.receive(ctx.app, received)
    for entry in entries:
        say(f"#{entry.seq} {event_name(entry.event)}: {describe(entry.event)}")
    say(who_acts(ctx, received.orders.game_id))
    if refused is not None:
        raise _returned(ctx, received.orders, refused.index, refused.reason)


def _returned(ctx: Context, orders: Orders, index: int, reason: object) -> WarscribeError:
    """The error of orders recorded up to command `index`, the rest returned (the reason in
    the words the player types)."""
    from .generated import cli_words

    steps = orders.steps()
    returned = [orders.line(line) for line, _ in steps[index:]]
    why = cli_words(ctx.app.find(str(orders.game_id)).ruleset, str(reason))
    return WarscribeError(
        f"recorded {index} of {len(steps)} commands of {orders.player}'s orders; command "
        f"{index + 1} (`{returned[0]}`) was refused: {why}. Returned unrecorded: "
        + "; ".join(returned)
    )


def who_acts(ctx: Context, game_id: Any) -> str:
    """Who must act now, and on what (the decision asked, when one is): the reply's line
    the players read first."""
    head = ctx.app.head(game_id)
    ruleset = rulesets.get(head.ruleset)
    whose = ruleset.whose_turn(head.state)
    pending = ruleset.summary(head.state).get("pending")
    if whose is None:
        return "now: nobody can act"
    if isinstance(pending, dict) and pending.get("player") == whose:
        from .generated import cli_words

        why = cli_words(head.ruleset, str(pending.get("why")))
        return f"now: {whose} must answer {pending.get('kind')}: {why}"
    return f"now: {whose} to play ({ruleset.position(head.state)})"


# -- audit --------------------------------------------------------------------------------


@click.command("audit")
@click.option("--turn", type=click.IntRange(min=1), default=None, help="Only this game turn.")
@click.option("--from", "start", type=click.IntRange(min=1), default=1, help="First entry.")
@click.option("--to", "stop", type=click.IntRange(min=1), default=None, help="Last entry.")
@click.option(
    "--file",
    "log_file",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="Audit a whole log file (binary or armored) instead of a game of the store.",
)
@json_option
@pass_ctx
def audit_command(
    ctx: Context,
    turn: int | None,
    start: int,
    stop: int | None,
    log_file: str | None,
    as_json: bool,
) -> None:
    """Re-decide every recorded command from the recorded state and dice, and show each
    difference from the record with its entry and rule. Exit 1 when the rules disagree, or
    when this store kept evidence of a fork (both signed heads are shown).
    `import` refuses a log whose outcomes differ; `--file` audits such a log as it came.

    \b
    Example:
      warscribe audit --turn 3
      warscribe audit --from 120 --to 180 --json
      warscribe audit --file disputed.txt
    """
    from warscribe.store.forks import ForkFound, shown, summary, told

    if turn is not None and (start != 1 or stop is not None):
        raise click.UsageError("give --turn or --from/--to, not both")
    problems: list[str] = []
    if log_file is not None:
        parsed = logfile.read(read_bytes(log_file))
        if parsed.from_seq != 1:
            raise click.UsageError("--file needs a whole log, from entry #1")
        problems = ctx.app.check_copy(parsed)
        entries: Iterable[Entry] = parsed.entries
        found: tuple[ForkFound, ...] = ()
    else:
        game_id = ctx.game_id()
        entries = ctx.app.stored_log(game_id)  # read a page at a time, twice: see `audit`
        found = ctx.app.forks(game_id)
    report = audit(entries, first=start, last=stop, turn=turn)
    emit(
        {**_audit_json(report), "problems": problems, "forks": [shown(f) for f in found]},
        as_json,
        "\n".join([*map(told, found), _audit_text(report)]),
    )
    if found:
        problems.append(summary(found))
    if problems:
        raise WarscribeError("; ".join(problems))
    if report.differences:
        click.get_current_context().exit(1)


def _by(actor: str, acted: HostActed | None) -> str:
    """Who gave a command, as the audit says it: the player, or the host for them."""
    return f"the host for {actor} ({acted.reason})" if acted is not None else actor


def _finding_json(f: Finding) -> dict[str, Any]:
    return {
        "kind": f.kind,
        "seq": f.seq,
        "command_seq": f.command_seq,
        "command": f"{_by(f.command.actor, f.acted)}: {f.command.name}",
        "rule": f.rule,
        "recorded": describe(f.recorded) if f.recorded else None,
        "rules_give": describe(f.expected) if f.expected else f.refusal,
        "ruling": f.ruling.text if f.ruling else None,
        "ruling_seq": f.ruling_seq,
        "fields": [
            {"field": name, "recorded": jsonable(mine), "rules_give": jsonable(rules)}
            for name, mine, rules in f.fields()
        ],
    }


def _audit_json(report: AuditReport) -> dict[str, Any]:
    return {
        "ok": not report.differences,
        "decisions": report.decisions,
        "complete": report.complete,
        "findings": [_finding_json(f) for f in report.findings],
        "host_acts": [
            {"seq": seq, "player": acted.player, "reason": acted.reason, "command": issued.name}
            for seq, issued, acted in report.host_acts
        ],
    }


def _finding_text(f: Finding) -> str:
    data = printable(_finding_json(f))
    head = f"#{f.seq} {f.kind} [{f.rule}] in {data['command']} (#{f.command_seq})"
    if f.kind != DIFFERENCE and f.ruling is not None and f.ruling_seq != f.command_seq:
        head += f", overruled by #{f.ruling_seq}: {data['ruling']}"
    elif f.ruling is not None:
        return f"{head}: {data['ruling']}"
    if data["fields"]:
        return "\n".join(
            [head]
            + [
                f"    {d['field']}: recorded {d['recorded']}, rules give {d['rules_give']}"
                for d in data["fields"]
            ]
        )
    what = data["recorded"] or "nothing"
    return f"{head}\n    recorded:   {what}\n    rules give: {data['rules_give'] or 'nothing'}"


def _audit_text(report: AuditReport) -> str:
    lines = [_finding_text(f) for f in report.findings]
    lines += [
        f"#{seq} {_by(issued.actor, acted)}: {issued.name} (entered by the host, not signed)"
        for seq, issued, acted in report.host_acts
    ]
    summary = (
        f"{report.decisions} decisions re-decided: {len(report.differences)} differ from the rules"
    )
    if report.host_acts:
        summary += f", {len(report.host_acts)} entered by the host in a player's name"
    if not report.complete:
        summary += " (this copy lacks others' hidden information: the referee's copy settles it)"
    return "\n".join([*lines, summary])


# -- fork and notes -------------------------------------------------------------------------


@click.command()
@at_option
@click.option("--name", required=True, help="The new game's name.")
@json_option
@pass_ctx
def fork(ctx: Context, position: str, name: str, as_json: bool) -> None:
    """A new game going on from a position of this one (which stays as it is).

    \b
    Example:
      warscribe fork --at 3.2.diplomacy --name what-if
      warscribe --game what-if status
    """
    listing = ctx.game()
    version = resolve_position(ctx.app, listing.game_id, position)
    assert version is not None
    head = ctx.app.fork(listing.game_id, version, name)
    kept = ctx.app.find(str(head.game_id)).name  # the name as kept (see engine/names.py)
    data = {"game_id": head.game_id, "name": kept, "parent": listing.game_id, "at_seq": version}
    text = f"forked {kept} ({head.game_id}) from {escaped(listing.name)} at #{version}"
    emit(data, as_json, text)


@click.command()
@click.argument("text")
@at_option
@click.option("--as", "author", default=REFEREE_NAME, show_default=True, help="Who writes it.")
@host_act_option
@click.option("--ruling", is_flag=True, help="A referee's ruling that overrides the rules.")
@click.option(
    "--impose",
    multiple=True,
    metavar="TOPIC JSON",
    help="With --ruling: an event the ruling imposes, e.g. "
    '\'dr.AmbassadorBanished {"player": "bob", "kingdom": "Neuth", "until": 5, "why": "x"}\'.',
)
@pass_ctx
def note(
    ctx: Context,
    text: str,
    position: str,
    author: str,
    host_act: str | None,
    ruling: bool,
    impose: tuple[str, ...],
) -> None:
    """Attach a comment, or a referee's ruling, to a position of the game.

    \b
    Example:
      warscribe note --at 2.1.diplomacy "bob agreed to redo this roll"
      warscribe note --ruling --at '#212' "the bribe counts: card text" \\
        --impose 'dr.PointsScored {"player": "alice", "deed": "ruling", "points": 1}'
    """
    if impose and not ruling:
        raise click.UsageError("--impose belongs to a --ruling")
    args = _note_args(ctx, text, position, impose if ruling else None)
    ctx.issue("ruling" if ruling else "note", args, author, host_act=host_act)


def _note_args(
    ctx: Context, text: str, position: str, impose: tuple[str, ...] | None
) -> tuple[tuple[str, Any], ...]:
    """A note's arguments: its text, the entries `position` spans, the position when it
    is one (not #SEQ), and, for a ruling (`impose` not None), the events it imposes."""
    first, last = resolve_span(ctx.app, ctx.game_id(), position)
    label = position if not position.startswith("#") else None
    args: list[tuple[str, Any]] = [
        ("text", text),
        ("first", first),
        ("last", last),
        ("position", label),
    ]
    if impose is not None:
        args.append(("impose", tuple(_imposed(spec) for spec in impose)))
    return tuple(args)


def _imposed(spec: str) -> Any:
    topic, _, fields = spec.strip().partition(" ")
    try:
        values = json.loads(fields or "{}")
    except (json.JSONDecodeError, RecursionError) as exc:
        raise click.UsageError(f"--impose {spec!r}: the fields are not JSON ({exc})") from None
    if not isinstance(values, dict):
        raise click.UsageError(f"--impose {spec!r}: give the fields as a JSON object")
    return event_from(topic, values)


def register(cli: click.Group) -> None:
    for command in (keys, orders, import_orders, audit_command, fork, note):
        cli.add_command(command)
