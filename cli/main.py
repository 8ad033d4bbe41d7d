"""`warscribe`: the command line. Thin: parses, calls the store and engine, prints."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any, BinaryIO

import click

from warscribe.engine import rulesets
from warscribe.engine.errors import InvalidCommand, WarscribeError

from . import index
from .context import (
    Context,
    check_arguments,
    emit,
    emit_json_list,
    host_act_option,
    json_option,
    pass_ctx,
    render,
    say,
)
from .files import Output, force_option, read_bytes, write_file

if TYPE_CHECKING:
    from warscribe.engine.ruleset import GameSpec
    from warscribe.store.app import Arrival

# The engine and the store are imported by the commands that use them, not with the CLI:
# `--help` and a usage error need neither (issue 14).


class WarscribeGroup(click.Group):
    """Turns every WarscribeError into `Error: ...` with exit code 1 (usage errors exit 2).

    The commands of the games and of play by email are added when one of them is first
    asked for, not when the CLI starts (a Divine Right call never imports eu-pop, a status
    never imports the signing code): the index (cli/index.py) says which module or game adds
    each of them and gives its one-line help, so `--help` lists every command without
    importing them."""

    def _lazy(self) -> Mapping[str, list[str]]:
        return index.read().get(self.name or "", {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self._lazy()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        lazy = self._lazy()
        if cmd_name not in self.commands and cmd_name in lazy:
            load(lazy[cmd_name][0])
        return self.commands.get(cmd_name)

    def _rows(self, names: list[str], limit: int) -> list[tuple[str, str]]:
        """Each command's one-line help, from the index when it is not loaded yet."""
        lazy = self._lazy()
        return [
            (
                name,
                self.commands[name].get_short_help_str(limit)
                if name in self.commands
                else click.Command(name, help=lazy[name][1]).get_short_help_str(limit),
            )
            for name in names
            if name not in self.commands or not self.commands[name].hidden
        ]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's listing, with the help of a command not loaded yet from the index."""
        names = self.list_commands(ctx)
        if names:
            with formatter.section("Commands"):
                _write_rows(
                    formatter, self._rows(names, formatter.width - 6 - max(map(len, names)))
                )

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)

        except WarscribeError as exc:
            from warscribe.store.views import escaped_lines

            raise click.ClickException(escaped_lines(str(exc))) from exc
        except Exception as exc:  # the database's own, through eventsourcing's paths
            from warscribe.store.backends import driver_error, resolve, unavailable
            from warscribe.store.views import escaped_lines

            if not driver_error(exc):
                raise
            store = ctx.find_object(Context)
            backend = resolve(store.store if store is not None else None)
            raise click.ClickException(escaped_lines(str(unavailable(backend, exc)))) from exc


class NewGroup(WarscribeGroup):
    """`new GAME`: a game's `new` is added with the game's commands (`face`)."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is None and cmd_name in rulesets.names():
            face(cmd_name)
        return self.commands.get(cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        for name in _unindexed():
            face(name)
        return super().list_commands(ctx)


class TopGroup(WarscribeGroup):
    """The record's commands; a group per game (`warscribe eu ...`, named by the topic
    prefix its rule set is registered with); and each game's commands at top level, which
    act on the current game (`--game`): a command only one game has goes to that game's
    group, one several games have (`end-phase`) to the current game's."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is not None:
            return found
        by_prefix = {entry.prefix: entry.name for entry in rulesets.registered()}
        if cmd_name in by_prefix:
            return face(by_prefix[cmd_name])
        owners = tuple(game for game, commands in _game_commands().items() if cmd_name in commands)
        return GameCommand(cmd_name, owners) if owners else None

    def list_commands(self, ctx: click.Context) -> list[str]:
        games = _game_commands()
        prefixes = [entry.prefix for entry in rulesets.registered()]
        return sorted(
            {*super().list_commands(ctx), *prefixes, *(c for g in games.values() for c in g)}
        )

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The record's commands, the games' groups, then each game's commands."""
        record = super().list_commands(ctx)
        games = _game_commands()
        widest = max(len(name) for name in [*record, *(c for g in games.values() for c in g)])
        limit = formatter.width - 6 - widest
        with formatter.section("Record commands (every game)"):
            _write_rows(formatter, self._rows(record, limit))
        with formatter.section(
            "Games (warscribe GAME COMMAND, or COMMAND alone for the current game)"
        ):
            _write_rows(
                formatter,
                [
                    (entry.prefix, f"The commands of {entry.name} games.")
                    for entry in rulesets.registered()
                ],
            )
        for game, commands in games.items():
            with formatter.section(f"{game} commands"):
                _write_rows(formatter, _game_rows(game, commands, limit))


class GameCommand(click.Command):
    """A game's command typed at top level: run by the game group of the game that has it
    (of the current game, when several games have a command of that name)."""

    def __init__(self, name: str, owners: tuple[str, ...]) -> None:
        super().__init__(
            name,
            callback=None,
            add_help_option=False,
            context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
            help=f"A command of {', '.join(owners)} games.",
        )
        self.owners = owners

    def invoke(self, ctx: click.Context) -> Any:
        game = self.owners[0]
        if len(self.owners) > 1:
            current = ctx.find_object(Context)
            assert current is not None
            listing = current.game()
            if listing.ruleset not in self.owners:
                raise WarscribeError(
                    f"{self.name} is a command of {' and '.join(self.owners)} games; "
                    f"{listing.name} is a game of {listing.ruleset}"
                )
            game = listing.ruleset
        command = face(game).get_command(ctx, self.name or "")
        assert command is not None
        with command.make_context(self.name, list(ctx.args), parent=ctx.parent) as sub:
            return command.invoke(sub)


_FIRST_COLUMN_MOST = 30  # write_dl's col_max: a longer name puts its text on a line of its own


def _write_rows(formatter: click.HelpFormatter, rows: list[tuple[str, str]]) -> None:
    """`formatter.write_dl(rows)`, for a listing of commands: when every name fits click's
    first column and every help its line (a short help is cut to fit), the rows are written
    as they are; `write_dl` wraps each text again, most of a `--help` (issue 14)."""
    first = max((len(name) for name, _ in rows), default=0)
    room = formatter.width - first - 4
    if first > _FIRST_COLUMN_MOST or any(
        len(text) > room or text != text.strip() or not text.isprintable() for _, text in rows
    ):
        formatter.write_dl(rows)
        return
    indent = " " * formatter.current_indent
    formatter.write(
        "".join(
            f"{indent}{name:<{first + 2}}{text}\n" if text else f"{indent}{name}\n"
            for name, text in rows
        )
    )


def _game_rows(game: str, commands: Mapping[str, str], limit: int) -> list[tuple[str, str]]:
    loaded = _FACES.get(game)
    return [
        (
            name,
            loaded.commands[name].get_short_help_str(limit)
            if loaded is not None and name in loaded.commands
            else click.Command(name, help=text).get_short_help_str(limit),
        )
        for name, text in sorted(commands.items())
    ]


def _unindexed() -> list[str]:
    """The registered games the index does not list (a game a test adds)."""
    return [e.name for e in rulesets.registered() if e.name not in index.read().get("new", {})]


def _game_commands() -> dict[str, dict[str, str]]:
    """Each game's commands, with their one-line help, from the index (or, for a game it
    does not list, from its group)."""
    found: dict[str, dict[str, str]] = {}
    unindexed = _unindexed()
    for entry in rulesets.registered():
        if entry.name not in unindexed:
            commands = index.read().get(entry.prefix, {})
            found[entry.name] = {name: row[1] for name, row in commands.items()}
        else:
            group = face(entry.name)
            found[entry.name] = {
                name: command.get_short_help_str(10_000) for name, command in group.commands.items()
            }
    return found


@click.group(cls=TopGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--store",
    envvar="WARSCRIBE_STORE",
    metavar="PATH_OR_URL",
    help="SQLite file (default ./warscribe.db) or postgresql:// URL; env WARSCRIBE_STORE.",
)
@click.option(
    "--secrets",
    envvar="WARSCRIBE_SECRETS",
    metavar="PATH",
    help="The host's secrets file (default: STORE.secrets beside a SQLite store; "
    "$XDG_DATA_HOME/warscribe/HOST-PORT-DB-SCHEMA.secrets for PostgreSQL); env WARSCRIBE_SECRETS.",
)
@click.option(
    "--ask-passphrase",
    is_flag=True,
    help="Ask for the passphrase sealing the secrets file (or set WARSCRIBE_PASSPHRASE).",
)
@click.option(
    "--game",
    "game_ref",
    envvar="WARSCRIBE_GAME",
    metavar="ID_OR_NAME",
    help="The game to act on (default: the newest game of the store).",
)
@click.pass_context
def cli(
    ctx: click.Context,
    store: str | None,
    secrets: str | None,
    ask_passphrase: bool,
    game_ref: str | None,
) -> None:
    """warscribe keeps the record of a board wargame: every decision and die roll is an
    event in a tamper-evident log that anyone can replay, query and verify.

    \b
    Example:
      warscribe new divine-right --player alice --player bob --player carol --dice seeded:1
      warscribe status
    """
    check_arguments(ctx)
    context = Context(
        store=store, game_ref=game_ref, secrets=secrets, ask_passphrase=ask_passphrase
    )
    ctx.obj = context
    ctx.call_on_close(context.close)


@cli.group(cls=NewGroup)
def new() -> None:
    """Create a new game of a rule set.

    \b
    Example:
      warscribe new divine-right --player alice=Mivior --player bob
    """


def create(
    ctx: Context,
    ruleset: str,
    spec: GameSpec,
    dice: str,
    as_json: bool,
    player_keys: tuple[tuple[str, bytes], ...] = (),
    host_secret: bytes | None = None,
) -> None:
    from warscribe.store.views import escaped

    head = ctx.app.create(ruleset, spec, dice, player_keys, host_secret)
    listing = ctx.app.find(str(head.game_id))
    rs = rulesets.get(head.ruleset)
    data = {
        "game_id": head.game_id,
        "name": listing.name,
        "ruleset": head.ruleset,
        "dice": head.dice.mode,
        "commitment": head.dice.commitment,
        "entries": head.seq,
        "position": rs.position(head.state),
        **rs.summary(head.state),
    }
    text = (
        f"created {escaped(listing.name)} ({head.game_id}), {head.seq} entries, "
        f"dice {head.dice.mode}\ndice commitment {head.dice.commitment.hex()}\n"
        + _status_text(rs, head.state)
    )
    emit(data, as_json, text)


def _status_text(rs: Any, state: Any, player: str | None = None) -> str:
    """Where the game stands in a few lines: the position and the summary's plain values
    (`status --json` has the rest), who must act and on what, and what `player` (else
    whoever must act) may type now, in the CLI's own words."""
    from warscribe.store.views import escaped

    from .generated import cli_words

    summary = {"position": rs.position(state), **rs.summary(state)}
    plain = [
        f"{key}: {render(value)}"
        for key, value in summary.items()
        if value is not None and not isinstance(value, (dict, list, tuple))
    ]
    lines = ["  ".join(plain)]
    whose = rs.whose_turn(state)
    pending = summary.get("pending")
    if isinstance(pending, dict) and pending.get("player"):
        why = cli_words(rs.name, str(pending.get("why")))
        lines.append(escaped(f"{pending['player']} must answer {pending.get('kind')}: {why}"))
    player = player or whose
    if player is None:
        return "\n".join([*lines, "nobody can act now"])
    typed = may_type(rs, state, player)
    if not typed:
        return "\n".join(lines)
    lines.append(escaped(f"{player} may type:"))
    lines += [escaped(f"  {hint['text']}") for hint in typed]
    asks = {hint["ask"]: None for hint in typed if "ask" in hint}  # each once, in order
    return "\n".join([*lines, *(escaped(ask) for ask in asks)])


def may_type(rs: Any, state: Any, player: str) -> list[dict[str, Any]]:
    """The commands `player` may give now, as command lines with their choices."""
    from . import generated

    offers = [offer for offer in rs.legal(state) if offer.actor == player]
    return generated.hints(rs.name, offers)


GAMES_SHOWN = 20  # `games` lists the newest this many unless told otherwise


@cli.command()
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=GAMES_SHOWN,
    show_default=True,
    help="List the newest this many games.",
)
@click.option("--all", "every", is_flag=True, help="List every game (overrides --limit).")
@json_option
@pass_ctx
def games(ctx: Context, limit: int, every: bool, as_json: bool) -> None:
    """List the games in the store, the newest last; `*` marks the default game (see
    `use`). A store of many games shows its newest 20 (and says how many it holds): see
    --limit and --all.

    \b
    Example:
      warscribe --store club.db games --json
      warscribe --store host.db games --limit 100
    """

    from warscribe.store.views import escaped

    reads = ctx.reads()
    if every:
        listing = reads.games()
        total = len(listing)
    else:
        listing, total = reads.newest_games(limit)
    default = reads.find(None).game_id if listing else None
    rows = [
        {
            "game_id": g.game_id,
            "name": g.name,
            "ruleset": g.ruleset,
            "players": g.players,
            "parent": g.parent,
            "default": g.game_id == default,
        }
        for g in listing
    ]
    names = {g.game_id: escaped(g.name) for g in listing}
    lines = [
        f"{'*' if g.game_id == default else ' '} {g.game_id}  {names[g.game_id]}  {g.ruleset}  "
        f"{escaped(', '.join(g.players))}"
        + (
            f"  (fork of {names.get(g.parent[0], g.parent[0])} at #{g.parent[1]})"
            if g.parent
            else ""
        )
        for g in listing
    ]
    if total > len(listing):
        lines.append(
            f"(the newest {len(listing)} of {total} games: --all lists every one, "
            "--limit N the newest N)"
        )
    emit(rows, as_json, "\n".join(lines) or "no games")


@cli.command()
@click.option(
    "--as",
    "player",
    default=None,
    metavar="PLAYER",
    help="Whose view (default: the store's owner, see `init`; else whoever must act).",
)
@json_option
@pass_ctx
def status(ctx: Context, player: str | None, as_json: bool) -> None:
    """Whose turn it is, the phase, and what you (the store's owner, or --as) may type
    now, as command lines with their choices (the same lines `orders` takes); the head's
    fingerprint (#SEQ and 16 hex digits of its chain hash) to compare with other players.

    \b
    Example:
      warscribe status
      warscribe status --as bob --json
    """
    from warscribe.engine import rulesets
    from warscribe.engine.anchor import fingerprint
    from warscribe.store.views import escaped

    reads = ctx.reads()
    listing = reads.find(ctx.game_ref)
    head = reads.head(listing.game_id)
    rs = rulesets.get(head.ruleset)
    data = {
        "game_id": head.game_id,
        "name": listing.name,
        "ruleset": head.ruleset,
        "seq": head.seq,
        "chain": head.chain,
        "dice": head.dice.mode,
        "dice_revealed": head.secret is not None,
        "position": rs.position(head.state),
        "whose_turn": rs.whose_turn(head.state),
        "commands": rs.legal_commands(head.state),
        **rs.summary(head.state),
    }
    pending = data.get("pending")
    if isinstance(pending, dict) and isinstance(pending.get("why"), str):
        from .generated import cli_words

        data["pending"] = {**pending, "why": cli_words(head.ruleset, pending["why"])}
    data["head"] = fingerprint(head.seq, head.chain)
    text = f"{escaped(listing.name)} ({head.ruleset}), head {data['head']}\n"
    owner = reads.settings().owner
    player = player or (owner.player if owner is not None else None)
    if player is not None:
        if player not in listing.players:
            raise InvalidCommand(f"{player!r} is not a player of {listing.name}", "status")
        data["you"] = player
        data["next"] = next_for(player, data)
        mine = data["whose_turn"] == player
        text += escaped(f"{player}: {'your move' if mine else data['next']}") + "\n"
    viewer = player or data["whose_turn"]
    data["may_type"] = may_type(rs, head.state, viewer) if viewer else []
    text += _status_text(rs, head.state, player)
    emit(data, as_json, text)


def next_for(player: str, status: dict[str, Any]) -> str:
    """`your move: …` or `waiting for carol (losses)`, for the store's owner."""
    whose = status["whose_turn"]
    if whose is None:
        return "nobody can act now"
    if whose == player:
        return "your move: " + ", ".join(status["commands"])
    pending = status.get("pending")
    kind = f" ({pending['kind']})" if isinstance(pending, dict) and "kind" in pending else ""
    return f"waiting for {whose}{kind}"


@cli.command("use")
@click.argument("game")
@pass_ctx
def use(ctx: Context, game: str) -> None:
    """Make GAME (name, id or id prefix) the game commands act on when --game is not given.

    \b
    Example:
      warscribe use what-if
    """
    listing = ctx.app.find(game)
    ctx.app.use(listing.game_id)
    say(f"the default game is now {listing.name} ({listing.game_id})")


@cli.command("init")
@click.option("--as", "player", required=True, metavar="PLAYER", help="Your name in your games.")
@click.option(
    "--key",
    "key_path",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="Your private key file (from `keys new`): `orders` signs with it.",
)
@pass_ctx
def init(ctx: Context, player: str, key_path: str | None) -> None:
    """Say whose store this is: `status` then says "your move" or whom it waits for, and
    `hand` and `orders` need no --as (nor --key).

    \b
    Example:
      warscribe --store alice.db init --as alice --key alice.key
    """
    from warscribe.store.orders import read_key
    from warscribe.store.reading import StoreOwner

    key_file = None
    if key_path is not None:
        key = read_key(read_bytes(key_path), "private")
        if key.player != player:
            raise InvalidCommand(
                f"{key_path} is {key.player}'s private key, not {player}'s", "init"
            )
        key_file = os.path.realpath(key_path)
    ctx.app.set_owner(StoreOwner(player=player, key_file=key_file))
    say(f"this store is {player}'s" + (f"; orders are signed with {key_path}" if key_file else ""))


@cli.command()
@click.option("--from", "start", type=click.IntRange(min=1), default=1, help="First entry.")
@click.option("--to", "stop", type=click.IntRange(min=1), default=None, help="Last entry.")
@click.option(
    "--story",
    "as_story",
    is_flag=True,
    help="One sentence per decision (rule, dice, outcome), the positions as headings.",
)
@json_option
@pass_ctx
def log(ctx: Context, start: int, stop: int | None, as_story: bool, as_json: bool) -> None:
    """The game's log: one line per entry with its position; or, with --story, one
    sentence per decision in the rulebook's words.

    \b
    Example:
      warscribe log --from 1 --to 20
      warscribe log --story
    """
    from warscribe.store.views import describe, entry_json, event_name

    game_id = ctx.game_id()
    if as_story:
        from warscribe.store.story import story

        # the position before the first line comes from a snapshot: the cost is that of
        # the lines printed, not of the entries before them
        reads = ctx.reads()
        head = reads.head(game_id, start - 1) if start > 1 else None
        lines = story(reads.entries(game_id, start, stop), head)
        if as_json:
            emit_json_list(lines)
            return
        for line in lines:
            say(line)
        return
    rows = ctx.reads().positioned(game_id, start, stop)
    if as_json:  # as text and as JSON, a line at a time: the log is never held whole
        emit_json_list(entry_json(e, pos) for e, pos in rows)
        return
    for e, pos in rows:
        say(f"#{e.seq:<5} {pos or '-':<22} {event_name(e.event):<22} {describe(e.event)}")


@cli.command()
@click.option(
    "--at",
    "position",
    default=None,
    metavar="POSITION",
    help="TURN.PLAYER-TURN.PHASE (e.g. 1.1.random-events) or #SEQ; default: now.",
)
@json_option
@pass_ctx
def show(ctx: Context, position: str | None, as_json: bool) -> None:
    """The game as it stood at a position (the start of a phase, or just after an entry).

    \b
    Example:
      warscribe show --at 1.1.random-events --json
    """
    from warscribe.engine import rulesets

    game_id = ctx.game_id()
    reads = ctx.reads()
    head = reads.head(game_id, reads.version_at(game_id, position))
    rs = rulesets.get(head.ruleset)
    views = {name: fn(head.state) for name, fn in rs.projections.items()}
    data = {"seq": head.seq, "position": rs.position(head.state), **rs.summary(head.state), **views}
    emit(data, as_json)


@cli.command()
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="File to write (default: standard output).",
)
@click.option(
    "--from", "start", type=click.IntRange(min=1), default=1, help="First entry to export."
)
@click.option("--armor", is_flag=True, help="ASCII-armored text that survives an email body.")
@force_option
@click.option(
    "--for",
    "player",
    default=None,
    metavar="PLAYER",
    help="The copy PLAYER may see: their own hidden parts, everyone else's removed.",
)
@pass_ctx
def export(
    ctx: Context, output: str | None, start: int, armor: bool, force: bool, player: str | None
) -> None:
    """Write the game's log (or its tail from --from) as a log file; with --for, the copy
    a player may see, which verifies against the same chain as the full log. The host's
    store signs the last entry (a checkpoint); a player's store passes on the host's.
    With --armor, every player's latest signed orders (the heads they were written
    against) go beside the log, for the importer to check against their own chain.

    \b
    Example:
      warscribe export -o game.wlog
      warscribe export --from 120 --armor > turn7.txt
      warscribe export --for alice --armor -o alice.txt
    """
    import shutil
    import tempfile

    from warscribe.engine.anchor import fingerprint
    from warscribe.store import heads, logfile
    from warscribe.store.mailbox import write_copy

    listing = ctx.game()
    if player is not None and player not in listing.players:
        raise InvalidCommand(f"{player!r} is not a player of {listing.name}", "export")
    if output is None and not armor and sys.stdout.isatty():
        raise click.UsageError(
            "refusing to write a binary log to a terminal: use -o FILE or --armor"
        )
    with tempfile.TemporaryFile() as spool:  # the log is written an entry at a time
        last = write_copy(ctx.app, listing, player, start, spool)
        if last is None:
            end = ctx.app.head(listing.game_id).seq
            raise WarscribeError(
                f"--from {start} is past the end of the log (#1..#{end}): nothing to export"
            )
        shown = fingerprint(last.seq, last.chain)
        signed_heads = heads.armor(heads.latest(ctx.app, listing.game_id)) if armor else ""

        def payload(out: BinaryIO) -> None:
            spool.seek(0)
            if armor:
                out.writelines(logfile.armored(spool, shown))
                out.write(signed_heads.encode())
            else:
                shutil.copyfileobj(spool, out)

        if output is None:
            payload(sys.stdout.buffer)
            return
        write_file(Output(output, payload), force=force, store=ctx.store)
    click.echo(
        f"exported entries #{start}..#{last.seq} to {output}; head {shown}",
        err=True,
    )


@cli.command("import")
@click.argument("file", type=click.Path(exists=True, allow_dash=True))
@pass_ctx
def import_(ctx: Context, file: str) -> None:
    """Append a log file (binary or armored, or the mail that carried it) to the store:
    all of it or nothing. A mailbox (a Maildir, an mbox, a folder of .eml files) imports
    every log mailed in it, in order, each all or nothing.

    The file must continue the store's chain and, in a game with a host key, end at the
    entry the host signed; a file of another game, or a truncated or edited one, is refused
    naming the first bad entry, and the store is left as it was. The players' signed
    heads a mail carries beside the log must be theirs and name this copy's chain: one
    naming another chain hash is a fork (the host showed that player another history),
    refused with its evidence kept for `audit`.

    A game's first import pins it to its host key: a file of it, or of a game named alike
    to one of the store's, from another key is refused. A new game from a host key the
    store has not seen (or with none) is not made the default game: `use` it to play it.

    \b
    Example:
      warscribe --store mine.db import game.wlog
      warscribe --store mine.db import ~/Mail/game
    """
    from warscribe.engine.anchor import fingerprint
    from warscribe.store import logfile
    from warscribe.store.mailbox import is_mailbox
    from warscribe.store.views import escaped

    if file != "-" and is_mailbox(file):
        load("mailbox")
        from .mailbox import import_mailbox

        import_mailbox(ctx, file)
        return
    parsed = logfile.read(read_bytes(file))
    if ctx.game_ref is not None:
        wanted = ctx.game()
        if wanted.game_id != parsed.game_id:
            raise WarscribeError(
                f"the file is a log of game {parsed.game_id} ({parsed.name}), "
                f"not of {wanted.name} ({wanted.game_id})"
            )
    imported = ctx.app.import_log(parsed)
    head = ""
    if parsed.entries:
        head = f"; head {fingerprint(parsed.to_seq, parsed.entries[-1].chain)}"
    say(
        f"imported {imported.added} new entries of {escaped(parsed.name)} "
        f"(file #{parsed.from_seq}..#{parsed.to_seq}{head})"
    )
    if imported.arrival is not None:
        say(arrived(imported.arrival))


def arrived(arrival: Arrival) -> str:
    """What `import` says of a game new to the store: the host key it is pinned to, and
    whether it became the default game (see `Warscribe.import_entries`)."""
    from warscribe.engine.anchor import key_fingerprint
    from warscribe.store.views import escaped

    name = escaped(arrival.name)
    key = key_fingerprint(arrival.host_key)
    if arrival.first:
        made = "a fork, not the default" if arrival.fork else "made the default game"
        return (
            f"first game of this store: {name!r} from a host it has not seen before ({key}), "
            f"pinned to it; {made}, since the store holds no other: compare its head's "
            "fingerprint with the other players' by another channel (`verify --against`)"
        )
    if arrival.default or arrival.fork:
        return f"new game {name!r} ({key}), pinned to it"
    if arrival.host_key is None:
        new = "has no host key: nothing vouches for whoever made it (seeded dice, or an older game)"
    else:
        new = f"from a host this store has not seen ({key})"
    return f"new game {name!r} {new}: not made the default; 'warscribe use {name}' to play it"


@cli.command()
@click.option(
    "--against",
    metavar="FINGERPRINT",
    default=None,
    help="A head as another copy shows it ('#SEQ HEX', from `status` or a mail): "
    "fail unless this copy has the same entry there.",
)
@json_option
@pass_ctx
def verify(ctx: Context, against: str | None, as_json: bool) -> None:
    """Check the chain, every hidden part, every signed order, the host's checkpoint,
    every stored snapshot and (once the secret is known) every die. Fails when this store
    kept evidence of a fork (the host showed another player another history; `audit`
    shows it).

    \b
    Example:
      warscribe verify
      warscribe verify --against '#233 a3f9c1d27be01f44'
    """
    from warscribe.store.forks import shown, summary

    game_id = ctx.game_id()
    checked = ctx.app.verify_game(game_id, against)
    forks = ctx.app.forks(game_id)
    report = checked.report
    hidden = (
        f"; {report.private_checked} hidden parts and "
        f"{report.disclosures_checked} disclosures checked"
    )
    if report.orders_checked:
        hidden += f"; {report.orders_checked} signed orders"
    for player, count in report.host_entered.items():
        entries = "entry" if count == 1 else "entries"
        hidden += f"; {count} {entries} entered by the host for {player}"
    data = {
        "ok": True,
        **report.__dict__,
        "head": checked.fingerprint,
        "anchor": checked.anchor,
        "snapshots_checked": checked.snapshots_checked,
        "forks": [shown(fork) for fork in forks],
    }
    dice = (
        f"{report.rolls_checked} of {report.rolls} rolls re-derived from the dice secret"
        if report.secret_known
        else f"{report.rolls} rolls; the dice secret is not revealed yet, so they cannot be checked"
    )
    if report.rolls_entered:
        dice += f"; {report.rolls_entered} entered by hand"
    emit(
        data,
        as_json,
        f"ok: {report.entries} entries, chain intact, head {checked.fingerprint}; {dice}{hidden}"
        f"; {checked.snapshots_checked} snapshots checked; {checked.anchor}",
    )
    if forks:
        raise WarscribeError(summary(forks))


@cli.command()
@click.option(
    "--yes",
    is_flag=True,
    help="Reveal before the game's end: every future roll, the deck order and every "
    "hidden card drawn from it become public.",
)
@pass_ctx
def reveal(ctx: Context, yes: bool) -> None:
    """Record the host's dice secret, once the game is over, so that everyone can re-derive
    every roll and hidden part. Before the end it makes every future roll, the deck order
    and every hidden card drawn from it public, and needs --yes. A dice dispute in the
    middle of a game is settled with `verify`, not with this.

    \b
    Example:
      warscribe reveal && warscribe verify
    """
    from warscribe.store.app import RevealBeforeEnd

    try:
        entries, early = ctx.app.reveal(ctx.game_id(), before_end=yes)
    except RevealBeforeEnd as exc:
        raise click.UsageError(str(exc)) from None
    said = f"dice secret revealed at #{entries[-1].seq}: every roll can now be checked"
    if early:
        said += (
            "; revealed before the game's end: every future roll and the deck order are "
            "public from now on"
        )
    click.echo(said)


@cli.command()
@click.argument("dice", default="1d6")
@click.option("--purpose", default="free roll", help="What the roll is for (recorded).")
@click.option(
    "--as", "actor", default=None, help="Who rolls (default: the player whose turn it is)."
)
@host_act_option
@click.option("--roll", "entered", type=int, multiple=True, help="Table dice: the values thrown.")
@pass_ctx
def roll(
    ctx: Context,
    dice: str,
    purpose: str,
    actor: str | None,
    host_act: str | None,
    entered: tuple[int, ...],
) -> None:
    """Record a roll outside the rules (a house rule, a referee's ruling).

    \b
    Example:
      warscribe roll 2d6 --purpose "weather (house rule)" --as referee
    """
    ctx.issue("roll", (("dice", dice), ("purpose", purpose)), actor, entered, host_act)


def main() -> None:
    """The console script."""
    cli()


# The CLI modules adding commands of the record (to the group given), on first use.
REGISTER: dict[str, Callable[[ModuleType, click.Group], None]] = {
    "pbem": lambda module, group: module.register(group),
    "mailbox": lambda module, group: module.register(group),
    "viewer": lambda module, group: group.add_command(module.view),
    "board": lambda module, group: group.add_command(module.MAP),
    "serve": lambda module, group: group.add_command(module.serve),
}
_LOADED: set[str] = set()
_FACES: dict[str, click.Group] = {}


def face(game: str) -> click.Group:
    """The group of the game `game` (`warscribe dr ...`), made on first use: the queries
    and the `map` its presenter shows, then one command per command spec of its rule set,
    and its `new`."""
    from warscribe.engine.rulebook import RuleBook

    from .generated import GameGroup

    if game not in _FACES:
        entry = next(e for e in rulesets.registered() if e.name == game)
        group = GameGroup(entry.prefix, help=f"The commands of {game} games.")
        _FACES[game] = group
        book = rulesets.get(game)
        _add_presented(group, game, book)
        if isinstance(book, RuleBook):
            from . import generated

            generated.add_face(group, game, book)
            new.add_command(generated.new_command(book))
    return _FACES[game]


def _add_presented(group: click.Group, game: str, book: Any) -> None:
    """The game's queries as its presenter writes them, and its board's `map`."""
    from warscribe.engine.presenter import presenter_of

    from .board import map_command
    from .queries import query_command

    presenter = presenter_of(book)
    for name, query in presenter.queries.items():
        group.add_command(query_command(game, name, query, presenter.at_help))
    if presenter.board is not None:
        group.add_command(map_command(game, presenter.board, presenter.at_help))


def _forget(game: str) -> None:
    """Drop the group and `new` of a game no longer known (a test's own, `rulesets.added`)."""
    _FACES.pop(game, None)
    new.commands.pop(game, None)


rulesets.on_forget(_forget)


def load(module: str) -> None:
    """Add the commands of the CLI module `module` (one of REGISTER's), or of the game
    `module` (a rule set's name), once."""
    if module in rulesets.names():
        face(module)
    elif module not in _LOADED:
        _LOADED.add(module)
        REGISTER[module](import_module(f"{__package__}.{module}"), cli)


def load_all() -> None:
    """Add every command (`--help` is checked against this in tests/cli/test_index.py)."""
    for module in (*REGISTER, *rulesets.names()):
        load(module)
