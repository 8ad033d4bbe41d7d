"""The warscribe application on eventsourcing: one aggregate stream per game.

A game's stream holds its log entries, one stored event each, at version == sequence
number. A catalog aggregate lists the games of the store (from the chained GameCreated
and GameForked entries, never from what a file's header says); a separate aggregate per
game keeps, in a player's store, the newest checkpoint the host signed. The host's
secrets (the dice secret and the host's signing key) are never in the store in clear: each
game's are sealed in a row of their own, under the store key that only the store's secrets
file holds (`warscribe.store.secrets`); a store made by an older version, which kept them
in the store in clear, has them sealed and the clear rows deleted when it is first opened.

A stored snapshot is only ever a shortcut: it is served only when it has the current
shape and ends at the chain hash of the stored entry of its version, and `verify` checks
every snapshot against the replay of the entries below it (a failing one is deleted).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import (
    IntegrityError,
    OperationalError,
    PersistenceError,
    StoredEvent,
    Transcoder,
)

from warscribe.engine import names, record, rulesets
from warscribe.engine.anchor import (
    Checkpoint,
    check_checkpoint,
    fingerprint,
    key_fingerprint,
    parse_fingerprint,
    signed_checkpoint,
)
from warscribe.engine.codec import frozen
from warscribe.engine.dice import SecretUnknown, new_key, parse_mode, seeded_key
from warscribe.engine.errors import DiceError, LogError, WarscribeError
from warscribe.engine.events import (
    AnswerApplied,
    Command,
    CommandIssued,
    GameCreated,
    GameForked,
    HostActed,
    OrdersReceived,
)
from warscribe.engine.orders import Orders, SignedOrders, new_key_pair, public_key_of
from warscribe.engine.record import Entry, Head, Refused
from warscribe.engine.ruleset import GameSpec, PlayerSpec

from . import reading, writing
from .backends import (
    Backend,
    StoreError,
    StoreUnavailable,
    Turn,
    Writer,
    driver_error,
    resolve,
    unavailable,
)
from .index import Index
from .reading import (
    CATALOG_ID,
    DEFAULTS_ID,
    SETTINGS_ID,
    GameListing,
    Reading,
    StoreOwner,
    snapshot_state,
)
from .secrets import (
    NO_SECRETS,
    GameSecrets,
    Passphrase,
    SecretsFile,
    default_path,
    no_passphrase,
    sealed_id,
)
from .transcoder import MsgpackTranscoder

if TYPE_CHECKING:  # log files, the audit and the aggregates: by the calls that use them
    from .aggregates import Game
    from .anchors import Anchors
    from .forks import ForkFound
    from .heads import Heads
    from .logfile import LogFile
    from .registry import Catalog, Settings

SNAPSHOT_INTERVAL = 100


_OPEN_ATTEMPTS = 3
_IDS_PER_QUERY = 500
WRITE_ATTEMPTS = 5  # decisions of a direct command whose write another writer beat
_RETRY_PAUSE = 0.002  # seconds; the random pause before the n-th retry is up to 2**n of these


def seeded_game_id(ruleset: str, seed: str, name: str) -> UUID:
    """A seeded game's id follows from its rule set, seed and name, so the same `new`
    gives the same log anywhere (dice are derived from the game id as well as the seed)."""
    return uuid5(NAMESPACE_URL, f"warscribe:seeded-game:{ruleset}:{seed}:{name}")


HOST_SECRET_SIZE = 32


class NewDice(NamedTuple):
    """A new game's dice key and id, and the host's secrets and public key (none for a
    public seed, whose id `seeded_game_id` gives)."""

    key: bytes
    game_id: UUID
    kept: GameSecrets | None = None
    host_public: bytes | None = None


def host_dice(mode: str, seed: str | None, secret: bytes | None = None) -> NewDice:
    """A new game's dice: fresh random secrets, or those a host's `secret` fixes (`new
    --host-secret`, for tests and examples that replay a game of host dice), each a
    domain-separated SHA-256 of it. A key the host chose binds his rolls as a fresh one
    does: docs/security.md, *A host who chooses his own secret*."""
    if secret is None:
        key, _ = new_key(mode, seed)
        if seed is not None:
            return NewDice(key, uuid4())
        private, public = new_key_pair()
        return NewDice(key, uuid4(), GameSecrets(dice=key, host_key=private), public)
    if mode != "host":
        raise DiceError(f"a host secret fixes the dice of host dice, not of {mode!r} dice")
    if len(secret) < HOST_SECRET_SIZE:
        raise DiceError(
            f"a host secret of {len(secret)} bytes is too short: give at least {HOST_SECRET_SIZE}"
        )

    def part(label: bytes) -> bytes:
        return hashlib.sha256(b"warscribe host secret " + label + b" " + secret).digest()

    dice, private = part(b"dice"), part(b"key")
    game_id = UUID(bytes=part(b"game")[:16], version=4)
    return NewDice(dice, game_id, GameSecrets(dice, private), public_key_of(private))


class RevealBeforeEnd(WarscribeError):
    """`reveal` of a game that is not over, not confirmed (a usage error of the CLI)."""


class ConcurrentWrite(StoreError):
    """Another writer recorded to the game between our read and our write."""


def _aggregate_state(game: Game) -> dict[str, Any]:
    """What a snapshot of `game` holds (eventsourcing's `Snapshot.take`)."""
    return {k: v for k, v in vars(game).items() if k not in ("_id", "_version", "_pending_events")}


_Aggregate = TypeVar("_Aggregate", bound=Aggregate)


def _tip(cls: type[_Aggregate], aggregate_id: UUID, version: int) -> _Aggregate:
    """An aggregate at `version` with none of its state: to append events to."""
    aggregate: _Aggregate = object.__new__(cls)
    vars(aggregate).update(_id=aggregate_id, _version=version, _pending_events=[])
    return aggregate


def _game(game_id: UUID, state: dict[str, Any], version: int) -> Game:
    """The Game of an aggregate state at `version`, as eventsourcing's `Snapshot.mutate`
    makes it (without making a snapshot event to mutate: a kept head is one per command)."""
    from .aggregates import Game

    game: Game = _tip(Game, game_id, version)
    vars(game).update(state)
    return game


class Warscribe(Application[UUID], Reading):
    """The store of games: create, record, read, import."""

    index: Index

    name = "warscribe"
    log_section_size = 500

    # eventsourcing reads these when it saves: the aggregates are imported by then
    @property
    def snapshotting_intervals(self) -> dict[type[Any], int]:  # type: ignore[override]
        from .aggregates import Game

        return {Game: SNAPSHOT_INTERVAL}

    @property
    def snapshotting_projectors(self) -> dict[type[Any], Any]:  # type: ignore[override]
        from .aggregates import Game, project_game

        return {Game: project_game}

    def __init__(
        self,
        backend: Backend | str | None = None,
        *,
        snapshots: bool = True,
        cache: bool = True,
        secrets: str | None = None,
        passphrase: Passphrase = no_passphrase,
    ) -> None:
        """Open a store; `secrets` is the path of its secrets file (default: beside a SQLite
        store, see `secrets.default_path`), `passphrase` gives the file's passphrase."""
        self.backend = backend if isinstance(backend, Backend) else resolve(backend)
        self.driver = self.backend.driver
        self.secrets = SecretsFile(secrets or default_path(self.backend), passphrase)
        env = self.driver.eventsourcing_env()
        env["IS_SNAPSHOTTING_ENABLED"] = "y" if snapshots else "n"
        env["CREATE_TABLE"] = "n"  # see _open_tables
        self._heads: OrderedDict[UUID, tuple[dict[str, Any], int]] = OrderedDict()
        self._secrets: dict[UUID, GameSecrets] = {}
        self._cache = cache
        self._writer: Writer | None = None
        try:
            super().__init__(env=env)
            self._open_tables()
        except Exception as exc:
            cause = exc.__cause__ if isinstance(exc, StoreUnavailable) else exc
            if cause is not None and driver_error(cause):
                raise StoreError(f"cannot open store {self.backend.describe()}: {cause}") from exc
            raise

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        super().close()

    def _open_tables(self) -> None:
        """One query on an open that finds the store in step: the catalog's index exists
        (it is made after every other table) and covers the catalog, and no secret is
        left to move out. Otherwise the missing tables are made, the index is rebuilt
        from the catalog and the secrets an older version kept are moved out."""
        driver = self.driver
        self._events_table = driver.table(self.recorder)
        snapshots = self.snapshots.recorder if self.snapshots is not None else None
        self._snapshots_table = driver.table(snapshots) if snapshots is not None else None
        self._writer = driver.writer(self.recorder, self._snapshots_table)
        self.index = Index(CATALOG_ID, self._select, self._events_table, driver, self.recorder)
        state = self.index.state()
        if state is None:
            self._create_tables()
            self.index.create_tables()
            state = (False, True)
        in_step, kept = state
        if not in_step:
            catalog = self._catalog()
            try:
                self.index.rebuild(catalog.games if catalog else ())
            except IntegrityError:  # another open rebuilt it at the same time
                if self.index.state() is None:
                    raise
            kept = True
        if kept:
            self._move_old_secrets()
            self.index.secrets_moved()
        driver.opened()

    def _create_tables(self) -> None:
        """Run eventsourcing's schema statements only for a table that is missing, not on
        every open: re-running them while others wrote failed on PostgreSQL with `tuple
        concurrently updated`. Two first opens creating the tables at once: the loser
        looks again. The snapshots table is made by an open that takes none too: the next
        may."""
        snapshots = (
            self.snapshots.recorder
            if self.snapshots is not None
            else self.factory.aggregate_recorder(purpose="snapshots")
        )
        recorders: list[Any] = [self.recorder, snapshots]
        for recorder in recorders:
            for attempt in range(1, _OPEN_ATTEMPTS + 1):
                if self.driver.table_exists(recorder):
                    break
                try:
                    recorder.create_table()
                except Exception as exc:
                    if not self.driver.raced(exc) or attempt == _OPEN_ATTEMPTS:
                        raise

    def _move_old_secrets(self) -> None:
        """Move the secrets an older version kept in the store in clear (KeptSecret
        aggregates) to sealed rows (`SealedSecrets`), then delete the clear rows in one
        transaction (SQLite overwrites the freed space and folds its write-ahead log back;
        PostgreSQL vacuums the table). The sealed rows are written first: a failure
        between the two steps leaves both, and the next open finishes the move. A store
        without such rows is not changed."""
        from .kept_secrets import DICE_SECRET, HOST_KEY, KeptSecret

        kept = {
            KeptSecret.id_for(g.game_id, what): (g.game_id, what)
            for g in self.games()
            for what in (DICE_SECRET, HOST_KEY)
        }
        found: dict[UUID, dict[str, bytes]] = {}
        rows = self._select_streams(list(kept))
        for stored in rows:
            game_id, what = kept[UUID(str(stored.originator_id))]
            event: Any = self.mapper.to_domain_event(stored)
            found.setdefault(game_id, {})[what] = event.key
        if not found:
            return
        sealed = [
            aggregate
            for g, k in found.items()
            if self._sealed_row(g) is None
            for aggregate in self._sealed(g, GameSecrets(k.get(DICE_SECRET), k.get(HOST_KEY)))
        ]
        if sealed:
            self._save(*sealed, what="the move of the secrets an older version kept")
        self._delete_streams([UUID(str(r.originator_id)) for r in rows])

    def _select_streams(self, ids: Sequence[UUID]) -> list[StoredEvent]:
        """Every stored event of the aggregates `ids`, in one query per few hundred ids."""
        found: list[StoredEvent] = []
        for start in range(0, len(ids), _IDS_PER_QUERY):
            chunk = ids[start : start + _IDS_PER_QUERY]
            query = (
                "SELECT originator_id, originator_version, topic, state FROM "
                f"{self._events_table} WHERE originator_id IN ({', '.join('?' * len(chunk))})"
            )
            rows = self._select(query, [self._key_of(i) for i in chunk])
            found += [StoredEvent(UUID(str(i)), v, t, bytes(s)) for i, v, t, s in rows]
        return found

    def _delete_streams(self, ids: Sequence[UUID]) -> None:
        """Delete every stored event of the aggregates `ids` in one transaction, leaving no
        copy of their bytes where the database lets us (`Driver.delete_streams`)."""
        keys = [self._key_of(i) for i in ids]
        self.driver.delete_streams(self.recorder, self._events_table, keys)

    def construct_transcoder(self) -> Transcoder:
        return MsgpackTranscoder()

    # -- catalog -------------------------------------------------------------------------

    def _catalog(self) -> Catalog | None:
        from .registry import Catalog

        try:
            catalog: object = self.repository.get(CATALOG_ID)
        except AggregateNotFoundError:
            return None
        assert isinstance(catalog, Catalog)
        return catalog

    def _settings(self, stream: UUID = SETTINGS_ID) -> Settings:
        """The settings aggregate of `stream` (the settings, or the defaults: see
        `reading.DEFAULTS_ID`), to trigger a change on: at its stored version, with no
        state (nothing is read from it: `settings` reads the newest event of each kind).
        Replaying it, one DefaultChosen a game, made creating a game grow with the store."""
        from .registry import Settings

        version = self._stream_version(stream)
        if version is None:
            return Settings._create(Settings.Created, id=stream)
        return _tip(Settings, stream, version)

    def _catalog_tip(self) -> Catalog | None:
        """The catalog aggregate to list a game on: at its stored version, without the
        games before (which listing one never reads: the index answers whether a name is
        taken). Loading them, from a snapshot every ten listings, made creating a game
        grow with the store: a thousandth game decoded 999 listings."""
        from .registry import Catalog

        version = self._stream_version(CATALOG_ID)
        if version is None:
            return None
        catalog = _tip(Catalog, CATALOG_ID, version)
        catalog.games = ()
        return catalog

    def _stream_version(self, aggregate_id: UUID) -> int | None:
        """The stored version of an aggregate (None: it has no events), in one query."""
        rows = self._select(
            f"SELECT max(originator_version) FROM {self._events_table} WHERE originator_id = ?",
            (self._key_of(aggregate_id),),
        )
        version: int | None = rows[0][0]
        return version

    def _chosen(self, game_id: UUID) -> Settings:
        """The settings with `game_id` made the default (to save with whatever made it)."""
        from .registry import Settings

        settings = self._settings(DEFAULTS_ID)
        if self.settings().default != game_id:
            settings.trigger_event(Settings.DefaultChosen, game_id=game_id)
        return settings

    def use(self, game_id: UUID) -> None:
        """Make `game_id` the game commands act on when none is named."""
        self._save(self._chosen(game_id), what="`use`")

    def set_owner(self, owner: StoreOwner) -> None:
        """Say whose store this is (`init`)."""
        from .registry import Settings

        settings = self._settings()
        settings.trigger_event(Settings.OwnerSet, owner=owner)
        self._save(settings, what="`init`")

    def _listed(self, catalog: Catalog | None, listing: GameListing) -> Catalog:
        """`catalog` (see `_catalog_tip`) with `listing` added; a name alike to one the
        store's index holds (`names.likeness`: the same but for case or look-alike
        letters) is refused (and the index's unique name refuses a racing twin)."""
        from .registry import Catalog

        if catalog is None:
            catalog = Catalog._create(Catalog.Created, id=CATALOG_ID)
        found = self.index.alike(listing.name)
        if found:
            other = found[0]
            alike = "" if other.name == listing.name else f", alike to {listing.name!r}"
            raise StoreError(
                f"the store already has a game named {other.name!r}{alike}: the games of "
                "a store need names told apart by eye (the same but for case or look-alike "
                "letters is one name); choose another --name"
            )
        catalog.trigger_event(Catalog.Listed, listing=listing)
        return catalog

    # -- writing -------------------------------------------------------------------------

    def _save(self, *aggregates: Aggregate, what: str, turn: Turn | None = None) -> None:
        try:
            self._write(aggregates, turn)
        except IntegrityError as exc:
            raise ConcurrentWrite(
                f"the game moved on while {what} was being decided (another writer recorded "
                "first); nothing was written: reload with `status` and give the command again"
            ) from exc
        except writing.OutcomeUnknown as exc:
            raise StoreUnavailable(
                f"the store {self.backend.describe()} stopped answering as {what} was "
                f"committed, and whether it was recorded cannot be known yet ({exc}): look "
                "with `log` once the store answers, before giving it again"
            ) from exc
        except OperationalError as exc:
            raise StoreUnavailable(
                f"the store {self.backend.describe()} is busy or unavailable ({exc}); "
                "nothing was written"
            ) from exc

    def _write(self, aggregates: Sequence[Aggregate], turn: Turn | None = None) -> None:
        """The aggregates' new events in one transaction (`writing`: eventsourcing's
        `save` and `put` did more work for each call than the rest of recording a
        command), on the connection of the writer's `turn` if it holds one, with a
        snapshot of each aggregate whose version passed a multiple of its interval. The
        last multiple a write passes is snapshotted at the version the aggregate is at
        now, taken from it in memory and written in the same transaction (a command
        writing #100 and #101 is snapshotted at #101: reading #100 back from the store cost
        more than the rest of the command, and a transaction of its own a commit more);
        any earlier multiple of a long run (an import) is read back from the store after
        the write, so the snapshots stay about an interval apart."""
        written = [
            (aggregate, event) for aggregate in aggregates for event in aggregate.collect_events()
        ]
        rows = writing.stored_events([event for _, event in written], self.mapper.to_stored_event)
        taken, earlier = self._snapshots_due(written)
        assert self._writer is not None  # made at the open
        self._writer.insert(rows, taken, turn)
        for aggregate, version in earlier:  # a cache: the write stands without them
            projector = self.snapshotting_projectors.get(type(aggregate))
            with contextlib.suppress(PersistenceError):
                if projector is None:
                    self.take_snapshot(aggregate.id, version)
                else:
                    self.take_snapshot(aggregate.id, version, projector)

    def _snapshots_due(
        self, written: Sequence[tuple[Aggregate, Any]]
    ) -> tuple[list[StoredEvent], list[tuple[Aggregate, int]]]:
        """The stored snapshots a write puts with its events (of the aggregates in memory,
        at the version they are at), and the (aggregate, version) of those to take after
        it, from the store (an earlier multiple of the interval in a long run)."""
        if self.snapshots is None:
            return [], []
        intervals = self.snapshotting_intervals  # a property that makes its table
        taken: list[StoredEvent] = []
        earlier: list[tuple[Aggregate, int]] = []
        for aggregate, event in written:
            interval = intervals.get(type(aggregate))
            version = event.originator_version
            if interval is None or version % interval:
                continue
            if aggregate.version - version < interval:
                snapshot = type(aggregate).Snapshot.take(aggregate)
                taken.append(self.snapshots.mapper.to_stored_event(snapshot))
            else:
                earlier.append((aggregate, version))
        return taken, earlier

    def create(
        self,
        ruleset_name: str,
        spec: GameSpec,
        dice_mode: str,
        player_keys: Sequence[tuple[str, bytes]] = (),
        host_secret: bytes | None = None,
    ) -> Head:
        """Create a game: GameCreated, the players' public keys, the rule set's set-up, the
        dice secret, the listing. The names are checked here for every rule set
        (`warscribe.engine.names`) and kept in their normal form. `host_secret` fixes the
        host's secrets of a game of host dice (see `host_dice`)."""
        from .aggregates import Game

        ruleset = rulesets.get(ruleset_name)
        mode, seed = parse_mode(dice_mode)
        key, game_id, kept, host_public = host_dice(mode, seed, host_secret)
        given = names.game_name(spec.name) if spec.name else ""
        if seed is None:
            name = given or f"{ruleset_name}-{str(game_id)[:8]}"
        else:
            name = given or names.game_name(f"{ruleset_name}-{seed}")
            game_id = seeded_game_id(ruleset_name, seed, name)
        players = names.player_names(p.name for p in spec.players)
        kept_players = tuple(
            PlayerSpec(n, p.choice) for n, p in zip(players, spec.players, strict=True)
        )
        spec = GameSpec(name=name, players=kept_players, options=spec.options)
        entries = record.open_game(
            ruleset, spec, game_id, dice_mode, key, player_keys, host_key=host_public
        )
        game = Game.start(entries)
        players_named = tuple(p.name for p in spec.players)
        listing = GameListing(game_id, spec.name, ruleset_name, players_named, None, host_public)
        catalog = self._listed(self._catalog_tip(), listing)
        sealed = self._sealed(game_id, kept)
        self._save(game, catalog, self._chosen(game_id), *sealed, what="the new game")
        return game.head

    def _sealed(self, game_id: UUID, kept: GameSecrets | None) -> list[Aggregate]:
        """The row to save with a new game whose host's secrets are `kept`: sealed under
        the store key (`SecretsFile.seal`), written in the game's own transaction, so a
        game is never stored without them, nor they without it."""
        if kept is None:
            return []
        from .aggregates import SealedSecrets

        self._secrets[game_id] = kept
        sealed = self.secrets.seal(game_id, kept)
        return [SealedSecrets._create(SealedSecrets.Created, id=sealed_id(game_id), sealed=sealed)]

    def _kept(self, game_id: UUID) -> GameSecrets:
        """The host's secrets of a game: its sealed row opened with the secrets file's
        store key, else its entry in a secrets file of format 1 (none: NO_SECRETS)."""
        found = self._secrets.get(game_id)
        if found is None:
            sealed = self._sealed_row(game_id)
            if sealed is None:
                found = self.secrets.old(game_id)
            else:
                found = self.secrets.opened(game_id, sealed)
            if found is None:
                return NO_SECRETS
            self._secrets[game_id] = found
        return found

    def _sealed_row(self, game_id: UUID) -> bytes | None:
        """The sealed secrets the store holds for a game (`SealedSecrets`), if any."""
        from warscribe.engine import codec

        rows = self._select(
            f"SELECT state FROM {self._events_table} WHERE originator_id = ?",
            (self._key_of(sealed_id(game_id)),),
        )
        if not rows:
            return None
        sealed: bytes = codec.decode(bytes(rows[0][0]))["sealed"]
        return sealed

    def fork(self, game_id: UUID, version: int, name: str) -> Head:
        """A new game: this game's log up to `version`, then GameForked; the original is
        untouched. Forks happen between decisions (before a command or signed orders)."""
        from .aggregates import Game

        name = names.game_name(name)
        listing = self.find(str(game_id))
        head = self.head(game_id, version)
        at, *following = self.entries(game_id, version, version + 1)
        if isinstance(at.event, AnswerApplied | HostActed) or (
            following
            and not isinstance(following[0].event, CommandIssued | OrdersReceived | HostActed)
        ):
            raise StoreError(
                f"#{version} is inside a decision: fork at a phase, or at the #SEQ just "
                "before a command"
            )
        position = rulesets.get(head.ruleset).position(head.state)
        fork_id = uuid4()
        forked = record.fork(head, fork_id, name, game_id, position)
        game = Game.start([*self.entries(game_id, 1, version), forked], game_id=fork_id)
        child = GameListing(
            fork_id, name, listing.ruleset, listing.players, (game_id, version), head.host_key
        )
        catalog = self._listed(self._catalog_tip(), child)
        dice = self._key(game_id, head) if head.dice.seed is None else None
        host_key = self._kept(game_id).host_key
        kept = GameSecrets(dice, host_key) if dice is not None or host_key is not None else None
        self._save(game, catalog, *self._sealed(fork_id, kept), what="the fork")
        return game.head

    def secret(self, game_id: UUID) -> bytes | None:
        """The dice key this store can roll with (seeded: from the seed; host/table: kept)."""
        return self._key(game_id, self.head(game_id))

    def _key(self, game_id: UUID, head: Head) -> bytes | None:
        if head.secret is not None:
            return head.secret
        if head.dice.seed is not None:
            return seeded_key(head.dice.seed)
        return self._kept(game_id).dice

    # -- anchoring -----------------------------------------------------------------------

    def is_host(self, game_id: UUID) -> bool:
        """Whether this store holds the host's signing key of the game (in its secrets file)."""
        return self._kept(game_id).host_key is not None

    def latest_checkpoint(self, game_id: UUID) -> Checkpoint | None:
        """The newest checkpoint of the host's this store received (a player's store)."""
        return self._anchors(game_id).latest

    def _anchors(self, game_id: UUID) -> Anchors:
        """The game's anchors (new and empty, unsaved, when nothing was kept yet)."""
        from .anchors import Anchors

        try:
            anchors: Anchors = self.repository.get(Anchors.id_for(game_id))
        except AggregateNotFoundError:
            anchors = Anchors._create(Anchors.Created, id=Anchors.id_for(game_id))
        return anchors

    def checkpoint(self, game_id: UUID, seq: int, chain: bytes) -> Checkpoint | None:
        """The host's signature over entry `seq`: made now by the host's store, else the one
        this store received for exactly that entry (None: nobody vouches for it here)."""
        private = self._kept(game_id).host_key
        if private is not None:
            return signed_checkpoint(private, game_id, seq, chain)
        latest = self.latest_checkpoint(game_id)
        return latest if latest is not None and latest.seq == seq else None

    def _anchored(self, game_id: UUID, checkpoint: Checkpoint) -> Anchors:
        from .anchors import Anchors

        anchors = self._anchors(game_id)
        anchors.trigger_event(Anchors.Anchored, checkpoint=checkpoint)
        return anchors

    def issue(
        self,
        game_id: UUID,
        command: Command,
        entered: Sequence[int] = (),
        host_act: str | None = None,
    ) -> list[Entry]:
        """Decide and record one command (`record.record_typed`: a keyed player's only as the
        host's act, `host_act` its reason); all its entries or none. When another writer
        recorded first, the command is decided again on the new head (rules, dice and all)
        and recorded if still legal, up to WRITE_ATTEMPTS decisions with a short random
        pause between them. (Signed orders are never retried: see `record_orders`.)

        A process that kept the game's head of its last load or write (`_remember`)
        decides first on that head, in its turn, without reading the store: if another
        writer recorded since, the write finds the versions taken and fails whole (nothing
        is written, no roll is shown), and so does a refusal; either is then decided again
        on the store's head at once."""
        attempt = 1
        kept = self._cached(game_id)
        while True:
            try:
                turn_of = self._turn(game_id, ahead=kept is not None)
                with turn_of as turn, self._rolling(game_id, f"`{command.name}`"):
                    game = kept if kept is not None else self.load(game_id)
                    key = self._key(game_id, game.head)
                    entries = record.record_typed(game.head, command, key, entered, host_act)
                    game.append(entries)
                    self._save(game, what=f"`{command.name}`", turn=turn)
            except WarscribeError as exc:
                if isinstance(exc, StoreUnavailable):  # never retried: see `postgresql.settle`
                    self._heads.pop(game_id, None)  # the next command reads the store's head
                    raise
                retry = kept is not None or isinstance(exc, ConcurrentWrite)
                if not retry or attempt == WRITE_ATTEMPTS:
                    raise
                if kept is None:
                    time.sleep(random.uniform(0, _RETRY_PAUSE * 2**attempt))
                kept = None
                attempt += 1
                continue
            except Exception as exc:  # taking or ending the turn, on a failing connection
                if not driver_error(exc):
                    raise
                self._heads.pop(game_id, None)
                raise unavailable(self.backend, exc) from exc
            self._remember(game)
            return entries

    @contextmanager
    def _rolling(self, game_id: UUID, what: str) -> Iterator[None]:
        """A derived roll this store cannot make: the error names the secrets file."""
        try:
            yield
        except SecretUnknown as exc:
            raise self.secrets.missing(game_id, what) from exc

    @contextmanager
    def _turn(self, game_id: UUID, ahead: bool = False) -> Iterator[Turn | None]:
        """Direct commands to a store take turns from reading the head to writing after
        it, across processes (the backend's `Driver.turn`: a lock file beside a SQLite
        store, an advisory lock on PostgreSQL, whose connection the write then uses), so
        that they do not
        decide on a head another is about to move.

        `ahead`: the command is decided on a head this process kept, reading nothing. On
        PostgreSQL its write then takes the turn in its own transaction if the turn is
        free: no round trip before deciding, and nothing written
        while another writer holds the turn. A write that finds the turn or its versions
        taken writes nothing and is decided again in a turn of its own."""
        with self.driver.turn(self.recorder, game_id, ahead) as turn:
            yield turn

    @contextmanager
    def referee_run(self) -> Iterator[None]:
        """Hold the store's referee lock while the block runs: one `referee` run at a time
        takes a store's mail (a lock file beside a SQLite store, STORE-referee; a session
        advisory lock on PostgreSQL). Another run holding it is waited for up to the
        store's lock timeout (WARSCRIBE_LOCK_TIMEOUT), then StoreError, nothing done."""
        with self.driver.exclusive(self.recorder, "referee") as taken:
            if not taken:
                raise StoreError(
                    f"another `referee` run is taking the mail of {self.backend.describe()} "
                    f"(waited {self.driver.lock_timeout:g} s): nothing was read; run it "
                    "again when it ends"
                )
            yield

    def record_orders(
        self, game_id: UUID, orders: Orders, signed: bytes, signature: bytes
    ) -> tuple[list[Entry], Refused | None]:
        """Record a player's checked, signed orders: OrdersReceived and its commands up to
        the first one refused (see `record.record_orders`), which is returned with the rest.
        Never retried: orders name the head they were written against, and if another
        writer moved it first they are stale (ConcurrentWrite)."""
        game = self.load(game_id)
        key = self._key(game_id, game.head)
        with self._rolling(game_id, f"{orders.player}'s orders"):
            entries, refused = record.record_orders(game.head, orders, signed, signature, key)
        game.append(entries)
        self._save(game, what=f"{orders.player}'s orders")
        self._remember(game)
        return entries, refused

    def reveal(self, game_id: UUID, before_end: bool = False) -> tuple[list[Entry], bool]:
        """Record the game's dice secret; its entries, and whether the game was not over.
        Before the rules say the game is over it makes every future roll public, so it
        needs `before_end` (`reveal --yes`)."""
        game = self.load(game_id)
        if game.head.secret is not None:
            raise WarscribeError("the dice secret of this game is already revealed")
        key = self.secret(game_id)
        if key is None:
            raise self.secrets.missing(game_id, "`reveal`")
        ruleset = game.head.ruleset
        over = rulesets.get(ruleset).over(game.head.state)
        if not before_end and not over:
            why = (
                "the game is not over"
                if over is not None
                else f"{ruleset} has no end of the game in its rules, so its game is never over"
            )
            raise RevealBeforeEnd(
                f"{why}: revealing its dice secret now makes every future roll public, and "
                "the deck order with every hidden card drawn from it (a dice dispute is "
                "settled with `verify`, which checks every roll's proof); give --yes to "
                "reveal it anyway. Nothing was written."
            )
        entries = record.reveal(game.head, key)
        game.append(entries)
        self._save(game, what="`reveal`")
        return entries, not over

    # -- reading -------------------------------------------------------------------------

    def load(self, game_id: UUID, version: int | None = None) -> Game:
        """The game at `version` (default: now) as the aggregate a write appends to (see
        `_read`)."""
        state, at = self._read(game_id, version)
        return _game(game_id, state, at)

    def _select(self, query: str, params: Sequence[Any]) -> list[Any]:
        """The rows of one read-only query (`?` marks), as plain tuples, outside any
        transaction (the backend's `Driver.select`). A failure of the database is a
        `StoreUnavailable` naming the store."""
        try:
            return self.driver.select(self.recorder, query, params)
        except Exception as exc:
            if driver_error(exc):
                raise unavailable(self.backend, exc) from exc
            raise

    def _remember(self, game: Game) -> None:
        """Keep the newest head in memory: the next load reads only what came after it."""
        self._keep(game.id, _aggregate_state(game), game.version)

    def _cached(self, game_id: UUID) -> Game | None:
        """The game at the newest head this process kept of it, if it kept one."""
        kept = self._heads.get(game_id)
        return _game(game_id, *kept) if kept is not None else None

    # -- verifying -----------------------------------------------------------------------

    def verify_game(self, game_id: UUID, against: str | None = None) -> GameCheck:
        """`verify` of a stored game: the record's checks of every entry (`record.verify`),
        the head's anchor (the host's checkpoint this store holds), every stored snapshot
        against the replay of the entries below it (a failing one is deleted, then
        reported), and the head against a fingerprint given out of band. The log is read
        a page at a time, in passes: memory does not grow with its length."""
        replay = _Replaying(self, game_id, self.stored_log(game_id))
        report = record.verify(
            replay, key=self.secret(game_id), earlier=lambda seq: self.entry(game_id, seq)
        )
        if against is not None:
            _check_fingerprint(self.entry(game_id, parse_fingerprint(against)[0]), against)
        head, checked = self._snapshots_checked(game_id, replay)
        return GameCheck(
            report=report,
            fingerprint=fingerprint(head.seq, head.chain),
            anchor=self._anchor_state(game_id, head, replay.forked),
            snapshots_checked=checked,
        )

    def check_copy(self, log: LogFile) -> list[str]:
        """Check a whole copy of a log as `audit --file` does: `record.verify` with every
        die this store can derive (LogError at the first bad entry); then, reported, not
        raised, so the audit still shows what the copy says: a copy the host's checkpoint
        does not anchor, and the first entry where it differs from this store's log."""
        known = self.listing(log.game_id) is not None
        record.verify(log.entries, key=self.secret(log.game_id) if known else None)
        problems: list[str] = []
        try:
            self._check_anchor(log.game_id, _host_key(log.entries), log.entries, log.checkpoint)
        except LogError as exc:
            problems.append(str(exc))
        if known:
            stored = self.entries(log.game_id, 1, log.to_seq)
            for mine, theirs in zip(stored, log.entries, strict=False):
                if mine.chain != theirs.chain:
                    problems.append(f"#{mine.seq}: the copy differs from this store's log here")
                    break
        return problems

    def _anchor_state(self, game_id: UUID, head: Head, forked: tuple[UUID, int] | None) -> str:
        """How the head is anchored; `forked`: the (parent, seq) of the log's last
        GameForked (the replay that made `head` found it), None if it has none."""
        if head.host_key is None:
            seeded = head.dice.seed is not None
            return "no host key (seeded dice)" if seeded else "no host key (an older game)"
        if self.is_host(game_id):
            return "this store is the host's: it signs every copy it exports"
        latest = self.latest_checkpoint(game_id)
        if latest is None and forked is not None:
            return (
                f"a fork made in this store from #{forked[1]}: the host signs no copy of it, "
                "so it stays here (the parent game is anchored as its own)"
            )
        if latest is None:
            return (
                "NOT anchored: this store holds no checkpoint of the host's, nor the host's "
                f"signing key (not in the secrets file {self.secrets.path}; a copy of the "
                "host's store without it?), so nothing here vouches that this is the host's log"
            )
        at = self.entry(game_id, latest.seq) if 1 <= latest.seq <= head.seq else None
        if at is None:
            raise LogError("no checkpoint of the host's anchors this copy", head.seq)
        check_checkpoint(latest, head.host_key, game_id, at.seq, at.chain)
        tail = (
            f"; #{latest.seq + 1}..#{head.seq} were recorded here" if head.seq > latest.seq else ""
        )
        return f"anchored by the host's signature at #{latest.seq}{tail}"

    def _snapshots_checked(self, game_id: UUID, replay: _Replaying) -> tuple[Head, int]:
        """The head of the replay and how many stored snapshots it checked; a snapshot that
        does not match the replay at its version is deleted and reported."""
        head, versions = replay.head, replay.versions
        bad = replay.bad + [v for v in versions if head is None or v > head.seq]
        for version in bad:
            self._drop_snapshot(game_id, version)
        if bad:
            self._heads.pop(game_id, None)
            raise LogError(
                f"the stored snapshot at #{', #'.join(map(str, bad))} does not match the replay "
                "of the entries below it (edited?); it was deleted and will not be served",
                bad[0],
            )
        if head is None:
            raise LogError("the log is empty")
        return head, len(versions)

    def _snapshot_versions(self, game_id: UUID) -> list[int]:
        """The versions of the game's stored snapshots, in order (their heads unread)."""
        if self.snapshots is None:
            return []
        query = (
            f"SELECT originator_version FROM {self._snapshots_table} "
            "WHERE originator_id = ? ORDER BY originator_version"
        )
        return [row[0] for row in self._select(query, (self._key_of(game_id),))]

    def _snapshot_head(self, game_id: UUID, version: int) -> Head | None:
        """The head the stored snapshot at `version` holds (None: none it can read),
        read as a load reads it (`reading.snapshot_state`: no aggregate class needed)."""
        query = (
            f"SELECT state FROM {self._snapshots_table} "
            "WHERE originator_id = ? AND originator_version = ?"
        )
        rows = self._select(query, (self._key_of(game_id), version))
        state = snapshot_state(bytes(rows[0][0])) if rows else None
        head = state.get("head") if state is not None else None
        return head if isinstance(head, Head) else None

    def _drop_snapshot(self, game_id: UUID, version: int) -> None:
        assert self.snapshots is not None
        statement = (
            f"DELETE FROM {self._snapshots_table} "
            "WHERE originator_id = ? AND originator_version = ?"
        )
        key = (self._key_of(game_id), version)
        self.driver.execute(self.snapshots.recorder, statement, key)

    def stored_log(self, game_id: UUID, start: int = 1, stop: int | None = None) -> StoredLog:
        """The entries `start`..`stop` as a log a check can read more than once, a page at
        a time each time (see `StoredLog`)."""
        return StoredLog(self, game_id, start, stop)

    # -- importing -----------------------------------------------------------------------

    def import_log(self, log: LogFile) -> Imported:
        """Import a parsed log file (see `import_entries`). Its header is not covered by the
        chain: it must agree with what the chained entries (or, for a continuation, the
        store's listing of the game) say, and the listing is made from the entries."""
        if log.from_seq == 1 and log.entries:
            with _untrusted(log.entries):
                listing: GameListing | None = listing_of(log.entries)
        else:
            listing = self.listing(log.game_id)
        if listing is not None:
            said = (log.name, log.ruleset, log.players)
            chained = (listing.name, listing.ruleset, listing.players)
            if said != chained:
                raise LogError(
                    f"the file's header says {_header_text(said)}, but the game's own entries "
                    f"say {_header_text(chained)}: the header is not covered by the chain, "
                    "so the file is refused"
                )
        return self.import_entries(log.game_id, log.entries, log.checkpoint, log.heads)

    def import_entries(
        self,
        game_id: UUID,
        entries: Sequence[Entry],
        checkpoint: Checkpoint | None = None,
        heads: Heads = (),
    ) -> Imported:
        """Append a verified, re-decided run of entries (all or none); returns how many
        were new, and how a game new to the store arrived. A game with a host key takes
        only a run whose last entry the host signed (`checkpoint`), so a rebuilt chain or a
        cut tail is refused. The players' signed `heads` carried beside them are checked
        against this copy's chain (see `_check_heads`): a fork refuses the run and keeps
        the evidence.

        The store pins each game to the host key of its GameCreated: a file of a game it
        holds, or of a name alike to one of its games, from another host key is refused,
        naming both keys. A game new to the store becomes the default game only when it
        is the store's first, or comes from a host key one of its games has; a game from
        a host it has not seen, or without a host key (nothing vouches for whoever made
        it), waits for `use` (`Arrival`)."""
        from .aggregates import Game

        known = self.listing(game_id) is not None
        if not known:
            if not entries or entries[0].seq != 1:
                first = entries[0].seq if entries else 1
                raise LogError(
                    f"this file continues game {game_id} from #{first}, but the store does not "
                    "have that game: import its log from #1 first",
                    first,
                )
            host_key = _host_key(entries)
            with _untrusted(entries):
                record.verify(entries)
                self._check_anchor(game_id, host_key, entries, checkpoint)
                listing = listing_of(entries)
                self._check_pins(listing)
                _redecide(entries, 1)
                game = Game.start(entries, game_id=game_id)
                self._check_heads(game.head, heads, _Carried(entries, checkpoint))
            arrival = Arrival(
                name=listing.name,
                host_key=host_key,
                first=self.index.empty(),
                seen=host_key is not None and self.index.host_seen(host_key),
                fork=listing.parent is not None,
            )
            self._save(
                game,
                self._listed(self._catalog_tip(), listing),
                *self._default_after(arrival, game_id),
                *self._keep_checkpoint(game_id, checkpoint),
                what="the import",
            )
            return Imported(len(entries), arrival)
        game = self.load(game_id)
        created = entries[0].event if entries and entries[0].seq == 1 else None
        if isinstance(created, GameCreated) and created.host_key != game.head.host_key:
            raise LogError(
                f"this file is game {created.name!r} ({game_id}) from host "
                f"{key_fingerprint(created.host_key)}, but this store pinned that game to "
                f"host {key_fingerprint(game.head.host_key)} when it first imported it: "
                "the file is refused (whoever sent it is not that game's host)",
                1,
            )
        stored = game.head
        _heads_carried(stored, entries, heads)
        beyond = self._check_heads(stored, heads, _Stored(self, stored))
        with _untrusted(entries):
            self._verify_run(game_id, stored, entries)
            self._check_anchor(game_id, stored.host_key, entries, checkpoint)
            new = _continuation(self, game_id, stored, entries)
            if new:
                _redecide(new, new[0].seq, stored, lambda: self.entries(game_id, 1, new[0].seq - 1))
                game.append(new)
            self._check_heads(stored, beyond, _Carried(new, checkpoint))
        if new:
            self._save(game, *self._keep_checkpoint(game_id, checkpoint), what="the import")
        return Imported(len(new))

    def _check_pins(self, listing: GameListing) -> None:
        """Refuse a new game named alike to a game of the store that another host key
        (or none) is pinned to: it would pass for that game."""
        for other in self.index.alike(listing.name):
            created = next(self.entries(other.game_id, 1, 1)).event
            pinned = created.host_key if isinstance(created, GameCreated) else None
            if pinned != listing.host_key:
                raise LogError(
                    f"this file is game {listing.name!r} ({listing.game_id}) from host "
                    f"{key_fingerprint(listing.host_key)}, but this store's game "
                    f"{other.name!r} ({other.game_id}), a name alike, is pinned to host "
                    f"{key_fingerprint(pinned)}: the file is refused (a game named like one "
                    "of yours from another host would pass for it)",
                    1,
                )

    def _default_after(self, arrival: Arrival, game_id: UUID) -> list[Settings]:
        """The default game's change an import of a new game makes: the game itself when
        `arrival.default`; else, in a store that never chose one (written before the
        choice was kept), the game that was the default, so the new one cannot become it
        by being the newest."""
        if arrival.default:
            return [self._chosen(game_id)]
        if arrival.first or self.settings().default is not None:
            return []
        return [self._chosen(self.find(None).game_id)]

    def _check_heads(self, head: Head, heads: Heads, held: _Held) -> Heads:
        """Check the players' signed heads a copy carries: each must be signed with its
        player's key recorded in the game and name this game, or the copy is refused (a
        relay or a stranger may add bytes to a mail); each naming an entry `held` holds
        must name its chain hash, or the host showed that player another history: the
        evidence is kept (nothing else is written) and a ForkError raised. The heads
        naming entries `held` does not hold are returned, unchecked."""
        from .forks import refusal
        from .views import escaped

        keys = dict(head.keys)
        for signed in heads:
            orders = signed.orders
            whose = f"{escaped(orders.player)}'s signed head (orders written at #{orders.seq})"
            if orders.game_id != head.game_id:
                raise LogError(f"{whose} names game {orders.game_id}, not this one: refused")
            key = keys.get(orders.player)
            if key is None or not signed.signed_by(key):
                raise LogError(
                    f"{whose} is not signed with the key the game records for "
                    f"{escaped(orders.player)}: refused (altered, or added by someone else)"
                )
        beyond = []
        for signed in heads:
            orders = signed.orders
            ours = held.chain(orders.seq)
            if ours is None:
                beyond.append(signed)
            elif ours != orders.chain:
                found = self._keep_fork(head.game_id, signed, ours, held.checkpoint())
                raise refusal(found, held.name)
        return tuple(beyond)

    def _keep_fork(
        self, game_id: UUID, signed: SignedOrders, ours: bytes, checkpoint: Checkpoint | None
    ) -> ForkFound:
        """Keep the evidence of a fork (once), alone in its own write."""
        from .anchors import Anchors
        from .forks import ForkFound

        found = ForkFound(signed.orders.seq, signed.signed, signed.signature, ours, checkpoint)
        anchors = self._anchors(game_id)
        if found not in anchors.forks:
            anchors.trigger_event(Anchors.Forked, fork=found)
            self._save(anchors, what="the evidence of a fork")
        return found

    def forks(self, game_id: UUID) -> tuple[ForkFound, ...]:
        """The evidence of forks of the game this store kept (see `forks`)."""
        return self._anchors(game_id).forks

    @staticmethod
    def _check_anchor(
        game_id: UUID,
        host_key: bytes | None,
        entries: Sequence[Entry],
        checkpoint: Checkpoint | None,
    ) -> None:
        if host_key is not None and entries:
            check_checkpoint(checkpoint, host_key, game_id, entries[-1].seq, entries[-1].chain)

    def _keep_checkpoint(self, game_id: UUID, checkpoint: Checkpoint | None) -> list[Anchors]:
        """The checkpoint to keep (a player's store), when it is newer than the one kept."""
        if checkpoint is None or self.is_host(game_id):
            return []
        latest = self.latest_checkpoint(game_id)
        if latest is not None and latest.seq >= checkpoint.seq:
            return []
        return [self._anchored(game_id, checkpoint)]

    def _verify_run(self, game_id: UUID, head: Head, entries: Sequence[Entry]) -> None:
        """Check a run of entries against the store's chain at the point it starts from."""
        first = entries[0].seq if entries else head.seq + 1
        if first > head.seq + 1:
            raise LogError(
                f"the file starts at #{first} but the store ends at #{head.seq}: entries "
                f"#{head.seq + 1}..#{first - 1} are missing",
                head.seq + 1,
            )
        if first == 1:
            record.verify(entries, key=self.secret(game_id))
            return
        created = next(self.entries(game_id, 1, 1)).event
        assert isinstance(created, GameCreated)
        record.verify(
            entries,
            base=head if head.seq == first - 1 else self.head(game_id, version=first - 1),
            created=created,
            key=self.secret(game_id),
            earlier=lambda seq: next(self.entries(game_id, seq, seq), None),
        )


class _Held:
    """Entries a check of signed heads compares them with: the chain hash of an entry
    (None: not held here), the host's checkpoint covering them, and how an error says it."""

    name = ""

    def chain(self, seq: int) -> bytes | None:
        raise NotImplementedError

    def checkpoint(self) -> Checkpoint | None:
        raise NotImplementedError


class _Stored(_Held):
    """The entries this store holds up to `head`."""

    name = "this copy"

    def __init__(self, app: Warscribe, head: Head) -> None:
        self.app, self.head = app, head

    def chain(self, seq: int) -> bytes | None:
        found = self.app.entry(self.head.game_id, seq) if 1 <= seq <= self.head.seq else None
        return None if found is None else found.chain

    def checkpoint(self) -> Checkpoint | None:
        game_id, head = self.head.game_id, self.head
        return self.app.checkpoint(game_id, head.seq, head.chain) or self.app.latest_checkpoint(
            game_id
        )


class _Carried(_Held):
    """The entries a copy carries (checked, not yet written), and its checkpoint."""

    name = "the log it came with"

    def __init__(self, entries: Sequence[Entry], checkpoint: Checkpoint | None) -> None:
        self.chains = {entry.seq: entry.chain for entry in entries}
        self.covering = checkpoint

    def chain(self, seq: int) -> bytes | None:
        return self.chains.get(seq)

    def checkpoint(self) -> Checkpoint | None:
        return self.covering


@frozen
class Arrival:
    """How a game new to the store arrived with an import: its name and host key (None:
    it has none), whether it is the store's first game, whether a game of the store
    comes from the same host key, whether it is a fork."""

    name: str
    host_key: bytes | None
    first: bool
    seen: bool
    fork: bool

    @property
    def default(self) -> bool:
        """Made the default game: the store's first, or from a host it has seen (a fork
        never is, as when it is made)."""
        return not self.fork and (self.first or self.seen)


@frozen
class Imported:
    """What an import took: how many entries were new, and the game's arrival when the
    store did not have it."""

    added: int
    arrival: Arrival | None = None


@frozen
class StoredLog:
    """A game's stored entries `start`..`stop`, read from the store a page at a time each
    time it is iterated: a check that passes over a long log twice (`record.verify`
    looking for a revealed secret first, `audit` for the rulings) holds one page, never
    the log."""

    app: Warscribe
    game_id: UUID
    start: int = 1
    stop: int | None = None

    def __iter__(self) -> Iterator[Entry]:
        return self.app.entries(self.game_id, self.start, self.stop)


class _Replaying:
    """A stored log as `verify` reads it, folded as the entries pass (a run at a time, up
    to a stored snapshot's version, at most a page: no head made per entry), each stored
    snapshot compared with the replay at its version when the fold reaches it: the log
    is read and decoded once for the record's checks, the snapshots' and the anchor's
    look for a fork (a pass for each decoded it three times). What the last pass read to
    its end found stands (`record.verify` reads the log to its end unless it raises)."""

    def __init__(self, app: Warscribe, game_id: UUID, log: StoredLog) -> None:
        self.app, self.game_id, self.log = app, game_id, log
        self.versions = app._snapshot_versions(game_id)
        self.head: Head | None = None
        self.bad: list[int] = []
        self.forked: tuple[UUID, int] | None = None  # the last GameForked's (parent, seq)

    def __iter__(self) -> Iterator[Entry]:
        wanted = set(self.versions)
        head: Head | None = None
        bad: list[int] = []
        run: list[Entry] = []
        forked: tuple[UUID, int] | None = None
        for entry in self.log:
            yield entry
            run.append(entry)
            if type(entry.event) is GameForked:
                forked = (entry.event.parent, entry.event.at_seq)
            if entry.seq not in wanted and len(run) < reading.PAGE:
                continue
            head, run = record.fold(run, head), []
            if entry.seq in wanted and self.app._snapshot_head(self.game_id, entry.seq) != head:
                bad.append(entry.seq)
        if run:
            head = record.fold(run, head)
        self.head, self.bad, self.forked = head, bad, forked


@frozen
class GameCheck:
    """What `verify_game` found."""

    report: record.Verification
    fingerprint: str
    anchor: str
    snapshots_checked: int


def _check_fingerprint(entry: Entry | None, given: str) -> None:
    """The entry a fingerprint names (None: this copy lacks it) must be the one it names."""
    seq, digits = parse_fingerprint(given)
    if entry is None:
        raise LogError(f"the fingerprint names entry #{seq}, which this copy does not have")
    if not entry.chain.hex().startswith(digits):
        raise LogError(
            f"this copy's entry is {fingerprint(seq, entry.chain)}, not the "
            f"#{seq} {digits} given: the copies differ at or before it",
            seq,
        )


def _heads_carried(stored: Head, entries: Sequence[Entry], heads: Heads) -> None:
    """A copy continuing a game of record version 2 that records signed orders carries
    the signed head of each player whose orders it records (the referee's mails and
    `export --armor` always do): a host who stripped them would be caught by no crossing
    mail. Refused otherwise, nothing written."""
    if stored.record_version < 2:
        return
    sent = sorted(
        {
            e.event.player
            for e in entries
            if e.seq > stored.seq and isinstance(e.event, OrdersReceived)
        }
    )
    carried = {signed.orders.player for signed in heads}
    missing = [player for player in sent if player not in carried]
    if missing:
        from .views import escaped

        raise LogError(
            f"this copy records signed orders of {', '.join(escaped(p) for p in missing)} "
            "but carries no signed head of theirs (the HEADS block a referee's mail and "
            "`export --armor` carry): refused, since a copy stripped of them could hide two "
            "histories; ask for the mail again, or an armored export",
            next(e.seq for e in entries if isinstance(e.event, OrdersReceived)),
        )


def listing_of(entries: Iterable[Entry]) -> GameListing:
    """A game as its own chained entries name it: GameCreated, and the last GameForked."""
    listing: GameListing | None = None
    for entry in entries:
        event = entry.event
        if listing is None:
            if not isinstance(event, GameCreated):
                raise LogError("a game log must begin with GameCreated", entry.seq)
            listing = GameListing(
                event.game_id, event.name, event.ruleset, event.players, None, event.host_key
            )
        elif isinstance(event, GameForked):
            parent = (event.parent, event.at_seq)
            listing = dataclasses.replace(
                listing, game_id=event.game_id, name=event.name, parent=parent
            )
    if listing is None:
        raise LogError("a game log must begin with GameCreated")
    return listing


def _header_text(said: tuple[str, str, tuple[str, ...]]) -> str:
    name, ruleset, players = said
    return f"{name!r} ({ruleset}; players {', '.join(players) or 'none'})"


def _host_key(entries: Sequence[Entry]) -> bytes | None:
    """The host's key a log names in its GameCreated, if it has one."""
    created = entries[0].event
    return created.host_key if isinstance(created, GameCreated) else None


@contextmanager
def _untrusted(entries: Sequence[Entry]) -> Iterator[None]:
    """Checking entries from a file: whatever goes wrong is a LogError naming them (the
    last line of defence behind the checks of `logfile.read`; nothing is written)."""
    try:
        yield
    except WarscribeError:
        raise
    except Exception as exc:
        span = f"#{entries[0].seq}..#{entries[-1].seq}" if entries else "the file"
        raise LogError(
            f"the entries {span} of the file cannot be checked "
            f"({type(exc).__name__}: {exc}); nothing was imported",
            entries[0].seq if entries else None,
        ) from None


def _redecide(
    log: Sequence[Entry],
    first: int,
    base: Head | None = None,
    before: Callable[[], Iterable[Entry]] = lambda: (),
) -> None:
    """Re-decide the commands from `first` on with their recorded dice: a file whose
    outcomes are not what the rules give is refused at the first such entry.

    `log` is the whole log, or the new entries continuing the stored ones (`before`) from
    their head `base`. A run that begins a decision is audited from `base` alone, so one
    mailed turn costs the same in a long game as in a short one: it finds at least every
    difference the whole log would (a stored ruling or a copy's missing hidden part can
    only excuse one), so when it finds none, neither would the whole log; when it finds
    one, the whole log is audited to tell the difference from what a ruling or a hidden
    part excuses."""
    from warscribe.engine.audit import audit

    continuing = base is not None and isinstance(log[0].event, CommandIssued | HostActed)
    if continuing and not audit(log, first=first, base=base).differences:
        return
    if base is not None:
        log = [*before(), *log]
    report = audit(log, first=first)
    if report.differences:
        found = report.differences[0]
        what = found.refusal or "the rules give a different outcome than the file records"
        raise LogError(f"{what} ({found.rule}); see `audit` for every difference", found.seq)


def _continuation(
    app: Warscribe, game_id: UUID, head: Head, entries: Sequence[Entry]
) -> list[Entry]:
    """The entries beyond the store's head, after checking the overlap is identical."""
    overlap = [e for e in entries if e.seq <= head.seq]
    if overlap:
        stored = app.entries(game_id, overlap[0].seq, overlap[-1].seq)
        for mine, theirs in zip(stored, overlap, strict=False):
            if mine.chain != theirs.chain:
                raise LogError(
                    "the file and the store disagree here (another line of play?)", mine.seq
                )
    return [e for e in entries if e.seq > head.seq]
