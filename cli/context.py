"""The application object passed through click's context, and shared option helpers."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from warscribe.engine.errors import InvalidCommand, WarscribeError

if TYPE_CHECKING:  # the store and the engine are imported when a command first uses them
    from uuid import UUID

    from warscribe.engine.record import Entry
    from warscribe.store.app import Warscribe
    from warscribe.store.reading import GameListing, Reader, Reading, StoreOwner


class Context:
    """What every command needs: the store (opened on first use) and the chosen game. (A
    plain class: quicker to define than a dataclass, and `--help` reads it, issue 14.)"""

    def __init__(
        self,
        store: str | None,
        game_ref: str | None,
        secrets: str | None = None,
        ask_passphrase: bool = False,
    ) -> None:
        self.store = store
        self.game_ref = game_ref
        self.secrets = secrets
        self.ask_passphrase = ask_passphrase
        self._app: Warscribe | None = None
        self._reader: Reader | None = None

    @property
    def app(self) -> Warscribe:
        from warscribe.store.app import Warscribe

        if self._app is None:
            self._app = Warscribe(self.store, secrets=self.secrets, passphrase=self.passphrase)
            if self._reader is not None:  # the store reads from now on: one connection, and
                self._reader.close()  # the last to close is one that may tidy SQLite's files
                self._reader = None
        return self._app

    def reads(self) -> Reading:
        """The store to read from, for a command that only reads: the store if it is open,
        else a read-only connection to it (`Reader`: no eventsourcing to import) when it
        allows one, else the store."""
        if self._app is None and self._reader is None:
            from warscribe.store.backends import resolve
            from warscribe.store.reading import Reader

            self._reader = Reader.open(resolve(self.store))
        return self._app or self._reader or self.app

    def passphrase(self, new: bool) -> str | None:
        """The secrets file's passphrase: WARSCRIBE_PASSPHRASE, else asked for with
        --ask-passphrase (twice when it seals a new file), else none."""
        given = os.environ.get("WARSCRIBE_PASSPHRASE")
        if given is not None and not _is_text(given):
            raise click.UsageError(f"WARSCRIBE_PASSPHRASE {_not_text(given)}")
        if given or not self.ask_passphrase:
            return given or None
        answer: str = click.prompt(
            "Passphrase of the secrets file", hide_input=True, confirmation_prompt=new, err=True
        )
        return answer

    def game(self) -> GameListing:
        return self.reads().find(self.game_ref)

    def game_id(self) -> UUID:
        return self.game().game_id

    def owner(self) -> StoreOwner | None:
        """Whose store this is (`init`), if anyone's."""
        return self.reads().settings().owner

    def issue(
        self,
        name: str,
        args: tuple[tuple[str, Any], ...],
        actor: str | None,
        entered: tuple[int, ...] = (),
        host_act: str | None = None,
    ) -> list[Entry]:
        """Record a command for the chosen game; `actor` defaults to whoever must act now.
        A keyed player's command is the host's act, `host_act` its reason: `--as` naming
        one needs it (a usage error without), and a bare command given to one is refused by
        the record, except in that player's own store (`init`), where it is marked as
        typed there."""
        from warscribe.engine import rulesets
        from warscribe.engine.authority import REFEREE_NAME
        from warscribe.engine.events import Command
        from warscribe.engine.record import keyed
        from warscribe.store.views import describe, event_name

        game_id = self.game_id()
        head = self.app.head(game_id)
        who = actor or rulesets.get(head.ruleset).whose_turn(head.state) or REFEREE_NAME
        if host_act is None and keyed(head, who):
            owner = self.owner()
            if owner is not None and owner.player == who:
                host_act = f"typed in {who}'s own store"
            elif actor is not None:
                raise click.UsageError(
                    f"{who} has a recorded key: a command entered in {who}'s name is the "
                    f"host's act, so say why: --as {who} --host-act REASON"
                )
        command = Command(actor=who, name=name, args=args)
        entries = self.app.issue(game_id, command, entered, host_act)
        for entry in entries:
            say(f"#{entry.seq} {event_name(entry.event)}: {describe(entry.event)}")
        return entries

    def game_of(self, ruleset: str, command_name: str) -> GameListing:
        """The chosen game, refused unless it is a game of `ruleset`."""
        listing = self.game()
        if listing.ruleset != ruleset:
            raise WarscribeError(
                f"{command_name} is a command of {ruleset} games; "
                f"{listing.name} is a game of {listing.ruleset}"
            )
        return listing

    def close(self) -> None:
        if self._app is not None:
            self._app.close()
        if self._reader is not None:
            self._reader.close()


F = TypeVar("F", bound=Callable[..., Any])

STORE_INT_MAX = 2**63 - 1
"""The largest number a store holds (a signed 64-bit integer: SQLite's INTEGER,
PostgreSQL's BIGINT); a number given on the command line must lie within +-this."""

_pass_context = click.make_pass_decorator(Context)


def pass_ctx(command: F) -> F:
    """click's pass decorator for `Context`, which first checks every argument of the
    command being run (`check_arguments`): every command of warscribe is passed its
    context this way, so none uses an argument unchecked."""
    passed = _pass_context(command)

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        check_arguments(click.get_current_context())
        return passed(*args, **kwargs)

    return run  # type: ignore[return-value]


def check_arguments(ctx: click.Context) -> None:
    """Refuse, as a usage error naming it (exit 2), an argument or option of `ctx`'s
    command that is not text (bytes of another encoding than UTF-8 on the command line,
    which Python hands over as lone surrogates: no store, file or terminal takes them) or
    a number no store can hold."""
    for param in ctx.command.params:
        for value in _leaves(ctx.params.get(param.name or "")):
            if isinstance(value, str) and not _is_text(value):
                raise click.BadParameter(_not_text(value), ctx=ctx, param=param)
            if isinstance(value, int) and not -STORE_INT_MAX - 1 <= value <= STORE_INT_MAX:
                raise click.BadParameter(
                    f"{value} is out of range: a store holds numbers up to {STORE_INT_MAX}",
                    ctx=ctx,
                    param=param,
                )


def _leaves(value: Any) -> Iterable[Any]:
    """The values a parameter holds (a list's, a tuple's, one by one)."""
    if isinstance(value, tuple | list):
        for item in value:
            yield from _leaves(item)
    elif not isinstance(value, bool):
        yield value


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _not_text(value: str) -> str:
    """What is wrong with a value holding bytes that are not UTF-8, those bytes shown."""
    try:
        raw = value.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raw = value.encode("utf-8", "backslashreplace")
    shown = repr(raw[:40])[1:] + ("..." if len(raw) > 40 else "")
    return (
        f"{shown} is not UTF-8 text (bytes of another encoding): give it in UTF-8, "
        "the encoding warscribe reads arguments in"
    )


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")

HOST_ACT = ("--host-act", "host_act")
HOST_ACT_HELP = (
    "The host enters this command for a player whose key is recorded (with --as), and says "
    "why: it is recorded and shown as the host's act, not as the player's signed play."
)
host_act_option = click.option(*HOST_ACT, default=None, metavar="REASON", help=HOST_ACT_HELP)

dice_option = click.option(
    "--dice",
    default="host",
    show_default=True,
    metavar="host|table[:SEED]|seeded:SEED",
    help="host: secret dice with a commitment; table: physical dice entered by hand; "
    "seeded:SEED: reproducible dice for tests and examples (table:SEED: hand-entered dice, "
    "cards shuffled from the public seed).",
)

# Hidden from --help: for tests and examples that must replay a game of host dice (the
# host's secrets follow from the file's bytes; docs/security.md says why that is safe).
host_secret_option = click.option(
    "--host-secret",
    "host_secret",
    default=None,
    hidden=True,
    type=click.Path(exists=True, dir_okay=False),
    help="A file whose bytes fix the host's dice key, signing key and the game id (--dice host).",
)


def read_host_secret(path: str | None) -> bytes | None:
    """The bytes of `--host-secret FILE` (without the whitespace around them)."""
    from .files import read_bytes

    return None if path is None else read_bytes(path).strip()


def name_option(ruleset: str) -> Callable[[F], F]:
    """`--name` for `new RULESET`."""
    return click.option(
        "--name", default=None, help=f"A name for the game (default: {ruleset}-ID)."
    )


def say(text: str, err: bool = False) -> None:
    """Print text for a person: every line with its control characters shown as escapes
    (values from a log are escaped one by one where they are put into the text, so a
    newline inside one cannot forge a line; this catches whatever else reaches here)."""

    from warscribe.store.views import escaped_lines

    click.echo(escaped_lines(text), err=err)


def emit(data: Any, as_json: bool, text: str | None = None) -> None:
    """Print `data` as JSON (which escapes control characters itself), or `text`
    (default: a readable rendering of `data`)."""
    from warscribe.store.views import jsonable

    if as_json:
        from .jsontext import indented  # here: a call without --json never imports json

        click.echo(indented(jsonable(data)))
    else:
        say(text if text is not None else render(data))


def emit_json_list(items: Iterable[Any]) -> None:
    """Print `items` as the JSON list `emit` prints, an item at a time: a long list (a
    log) is never held whole."""
    from warscribe.store.views import jsonable

    from .jsontext import indented

    opening = "[\n  "
    for item in items:
        click.echo(opening + indented(jsonable(item), "  "), nl=False)
        opening = ",\n  "
    click.echo("[]" if opening == "[\n  " else "\n]")


def render(data: Any, indent: int = 0) -> str:
    """`data` as indented text for a person: nothing as `-`, yes/no for flags, `none` for
    an empty list (never Python's None, True, False or [])."""
    from warscribe.store.views import escaped, jsonable

    pad = "  " * indent
    value = jsonable(data)
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            if isinstance(item, dict | list) and item:
                lines.append(f"{pad}{escaped(key)}:")
                lines.append(render(item, indent + 1))
            else:
                lines.append(f"{pad}{escaped(key)}: {_plain(item)}")
        return "\n".join(lines)
    if isinstance(value, list):
        return "\n".join(
            f"{pad}- "
            + (render(item, indent + 1).lstrip() if isinstance(item, dict | list) else _plain(item))
            for item in value
        )
    return f"{pad}{_plain(value)}"


_PLAIN = {None: "-", True: "yes", False: "no"}


def _plain(value: Any) -> str:
    from warscribe.store.views import escaped

    if value is None or isinstance(value, bool):
        return _PLAIN[value]
    if value == [] or value == {}:
        return "none"
    return escaped(str(value))


def parse_player(text: str) -> tuple[str, str | None]:
    name, sep, choice = text.partition("=")
    if not name or (sep and not choice):
        raise InvalidCommand(f"bad --player {text!r}: write NAME or NAME=SIDE", "new")
    return name, choice or None


def read_public_keys(pairs: tuple[str, ...]) -> tuple[tuple[str, bytes], ...]:
    """`NAME=PUBKEYFILE` options as (player, public key)."""
    from warscribe.store.orders import read_key

    from .files import read_bytes

    out = []
    for pair in pairs:
        name, sep, path = pair.partition("=")
        if not name or not sep or not path:
            raise click.UsageError(f"bad --key {pair!r}: write NAME=PUBKEYFILE")
        key = read_key(read_bytes(path), "public")
        if key.player != name:
            raise InvalidCommand(f"{path} is {key.player}'s public key, not {name}'s", "new")
        out.append((name, key.key))
    return tuple(out)


key_option = click.option(
    "--key",
    "keys_given",
    multiple=True,
    metavar="NAME=PUBKEYFILE",
    help="A player's public key (from `keys new`): their orders must be signed with it.",
)
