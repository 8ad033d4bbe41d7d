"""A three-player Divine Right game of two full game turns, played by email as a group
plays it: a referee's store and three players' stores, each player's whole player turn in
one signed orders mail (phase by phase, with standing answers), every mail through the
referee's Maildir (`warscribe referee`), every reply saved by its player and imported.
At the end every copy verifies, the referee's audit passes, and the mails each player
sent per player turn are counted (the target is 1.3 at most), and the referee's mails
each player received per player turn of the game (the target is 1.5 at most: the referee
mails only whom a run concerns, `warscribe address NAME --notify`).

The players are small bots: each plans its player turn on its own copy with the rule
set's `legal` (engine/ruleset.py), preferring sieges and battles: its stacks march on the
nearest castle not its own or on the enemy, it attacks whatever stands next to it (a
player who has not yet mailed orders has no standing answers: it is left alone until
they have). Mails come from a `warscribe` run in this process (each command as it would
be typed, printed with --verbose); the mail itself is written with Python's `email`
package, as a mail client would.

    python3 examples/pbem_game.py --seed 3 [--folder DIR] [--verbose]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import mailbox
import re
import shlex
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from warscribe.cli.generated import command_line
from warscribe.cli.main import cli
from warscribe.engine.events import Command
from warscribe.engine.orders import public_key_of
from warscribe.engine.rulesets import get
from warscribe.engine.rulesets.divine_right.evolving import scratch_dice
from warscribe.engine.rulesets.divine_right.movement.move import destinations
from warscribe.engine.rulesets.divine_right.ruleset import data_of
from warscribe.engine.rulesets.divine_right.state import State
from warscribe.engine.rulesets.divine_right.turn import pending_kinds
from warscribe.engine.rulesets.divine_right.units import enemies, is_fleet, is_hero
from warscribe.store.app import Warscribe
from warscribe.store.orders import KeyFile, write_key

KINGDOMS = {"alice": "Hothior", "bob": "Mivior", "carol": "Muetar"}
TURNS = 2
TARGET = 1.3
REFEREE_TARGET = 1.5
MOST_MAILS = 40  # a game that needs more is stuck
RULES = get("divine-right")
# The standing answers every player gives: stand, lose the cheapest units, never pursue,
# advance or sortie, and the first answer the rules allow to every other question.
POLICY = {
    "retreat": "stand",
    "losses": "cheapest",
    "storm": "cheapest",
    "mutiny": "cheapest",
    "epidemic": "cheapest",
    "desertion": "cheapest",
    "pursue": "none",
    "advance": "none",
    "sortie": "none",
}
ANSWER_NAMES = {"retreat": "retreat-stand", "pursue": "pursue-none", "advance": "advance-none"}


def answers_line() -> str:
    return "answer " + " ".join(f"{k}={POLICY.get(k, 'first')}" for k in pending_kinds())


def order_line(command: Command) -> str:
    """A command as an orders line, as typed on the command line (`move Hothior-A1 --path
    10,16`): the one place that writes them."""
    return command_line(RULES.name, command)


# -- the bot: a player turn planned on the player's own copy --------------------------------------


def plan(state: State, me: str, answered: set[str]) -> list[str]:
    """The orders for the rest of `me`'s player turn: standing answers, then every command,
    found by playing the turn on `state` with scratch dice (the real dice are the
    referee's: the plan holds whatever they give, unless they take a unit it moves)."""
    lines = [answers_line()]
    moved = False
    given: set[str] = set()
    assert state.turn is not None
    mine = (state.turn.number, state.turn.player_turn)
    while RULES.whose_turn(state) == me or _asked_of_other(state, me):
        assert state.turn is not None
        if (state.turn.number, state.turn.player_turn) != mine:
            break
        pending = state.turn.progress.pending
        if pending is not None:
            state = _settled(state)
            continue
        if state.turn.phase == "movement" and not moved:
            moved = True
            for command in _marches(state, me, answered):
                lines.append(order_line(command))
                state = _settled(_apply(state, command))
            continue
        command = _next_command(state, me, answered, given)
        given.add(command.name)
        lines.append(order_line(command))
        state = _apply(state, command)
    return lines


def _asked_of_other(state: State, me: str) -> bool:
    turn = state.turn
    return turn is not None and turn.player == me and turn.progress.pending is not None


def _apply(state: State, command: Command) -> State:
    for event in RULES.decide(state, command, scratch_dice()):
        state = RULES.evolve(state, event)
    return state


def _settled(state: State) -> State:
    """The decisions asked, each given as a standing answer gives it."""
    while state.turn is not None and state.turn.progress.pending is not None:
        state = _apply(state, _answer(state))
    return state


def _answer(state: State) -> Command:
    """The answer the standing answers give (close enough for planning): the named
    answer where the policy names one, else the first offered."""
    assert state.turn is not None and state.turn.progress.pending is not None
    offers = RULES.legal(state)
    wanted = ANSWER_NAMES.get(state.turn.progress.pending.kind)
    chosen = next((o for o in offers if o.name == wanted), offers[0])
    return chosen.command(**{key: values[0] for key, values in chosen.domains})


def _next_command(state: State, me: str, answered: set[str], given: set[str]) -> Command:
    """Roll, draw and hold (the card drawn is not known yet: the diplomacy phase is not
    asked of `legal`), attack a siege, declare every attack and resolve them; else end
    the phase."""
    assert state.turn is not None
    if state.turn.phase == "diplomacy":
        name = next((n for n in ("diplomacy-draw", "diplomacy-pass") if n not in given), None)
        return Command(me, name or "end-phase", ())
    offers = {o.name: o for o in RULES.legal(state)}
    for name in ("events-roll", "siege-attack"):
        if name in offers:
            return offers[name].command()
    if "attack-resolve" in offers:
        offer = offers["attack-resolve"]
        return offer.command(**{key: values[0] for key, values in offer.domains})
    attacks = _attacks(state, me, answered)
    if attacks:
        return Command(me, "attack-declare", (("attacks", attacks),))
    return offers["end-phase"].command()


def _attacks(state: State, me: str, answered: set[str]) -> tuple[str, ...]:
    """One attack on each space next to `me`'s stacks (each stack attacks once) where only
    players with standing answers stand."""
    found: dict[str, str] = {}
    for offer in RULES.legal(state):
        if offer.name != "attack-declare":
            continue
        for attack in sorted({a for offered in offer.values("attacks") for a in offered}):
            source, _, target = attack.partition(">")
            hexes = target.split(",")
            if len(hexes) != 2 or not all(h.isdigit() for h in hexes):
                continue  # a two-space or amphibious attack: the bots make plain ones
            defenders = enemies(state, me, (int(hexes[0]), int(hexes[1])))
            if source not in found.values() and all(
                state.controller(u) in answered for u in defenders
            ):
                found.setdefault(target, source)
    return tuple(f"{source}>{target}" for target, source in found.items())


def _marches(state: State, me: str, answered: set[str]) -> Iterator[Command]:
    """Each land stack of `me` (its armies: heroes stay home) to the space nearest a castle
    not its own or an enemy that has standing answers (into the castle: a siege; next to
    the enemy: a battle)."""
    data = data_of(state)
    targets = _targets(state, me, answered)
    if not targets:
        return
    stacks: dict[tuple[int, int], list[str]] = {}
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        mobile = not (is_fleet(unit) or is_hero(unit) or unit.aboard or unit.inside)
        if state.controller(unit) == me and mobile:
            stacks.setdefault(unit.hex, []).append(unit.id)
    taken: set[tuple[int, int]] = set()
    for space, ids in sorted(stacks.items()):
        reach = destinations(state, data, me, tuple(ids))
        if not reach:
            continue

        def distance(to: tuple[int, int]) -> int:
            return min(data.map.distance(to, t) for t in targets if t not in taken)

        best = min(reach, key=lambda to: (distance(to), to))
        if distance(best) >= distance(space):
            continue
        taken.add(best)
        path = reach[best]
        move = Command(me, "move", (("units", tuple(ids)), ("path", path)))
        yield move
        state = _settled(_apply(state, move))


def _targets(state: State, me: str, answered: set[str]) -> list[tuple[int, int]]:
    """Castles of other kingdoms (no unit of `me` in them) and spaces next to enemies."""
    data = data_of(state)
    mine = state.player(me).kingdom
    found = [
        castle.hex
        for castle in data.castles.values()
        if castle.basic and castle.kingdom not in (mine, None)
    ]
    for unit in state.units.values():
        owner = state.controller(unit)
        if owner not in (me, None) and owner in answered and not is_hero(unit):
            found += data.map.neighbours(*unit.hex)
    return found


# -- the table: stores, mailboxes, the referee -----------------------------------------------------


@dataclass
class Game:
    """A game by mail in `folder`: the stores, the mailboxes, the mails counted."""

    folder: Path
    seed: int
    verbose: bool = False
    runner: CliRunner = field(default_factory=CliRunner)
    mails: Counter[str] = field(default_factory=Counter)
    turns: Counter[str] = field(default_factory=Counter)
    received: Counter[str] = field(default_factory=Counter)
    game_turns: int = TURNS

    def ws(self, store: str, *args: str, ok: bool = True) -> str:
        """`warscribe --store STORE.db ARGS`, run in this process."""
        if self.verbose:
            print("$ warscribe --store", f"{store}.db", shlex.join(args))
        db = str(self.folder / f"{store}.db")
        result = self.runner.invoke(cli, ["--store", db, *args], catch_exceptions=False)
        if ok and result.exit_code != 0:
            raise RuntimeError(f"{store}: {shlex.join(args)}: {result.output}")
        if self.verbose and result.output.strip():
            print(result.output.rstrip())
        return result.output

    def path(self, name: str) -> str:
        return str(self.folder / name)

    def status(self, store: str) -> Any:
        return json.loads(self.ws(store, "status", "--json"))

    def set_up(self) -> None:
        """Keys, the game with the keys and the addresses, every player's first copy."""
        keys = []
        for player in KINGDOMS:
            self.key_pair(player)
            keys += ["--key", f"{player}={self.path(player)}.pub"]
        players = [f"--player={p}={k}" for p, k in KINGDOMS.items()]
        self.ws(
            "referee", "new", "divine-right", *players, *self.dice(), "--name", "by-mail", *keys
        )
        for player in (*KINGDOMS, "referee"):
            self.ws("referee", "address", player, f"{player}@example.org")
        mailbox.Maildir(self.path("inbox"), create=True)
        self.referee_runs()
        for player in KINGDOMS:
            self.ws(player, "init", "--as", player, "--key", f"{self.path(player)}.key")

    def dice(self) -> list[str]:
        """The dice of the game: seeded, public (examples/pbem_host_game.py: the host's)."""
        return ["--dice", f"seeded:{self.seed}"]

    def key_pair(self, player: str) -> None:
        """What `warscribe keys new PLAYER` does, from a key derived from the seed: the
        keys are in the game's first entry, which every roll derives from, so a seed
        replays the same game."""
        private = hashlib.sha256(f"pbem-game {self.seed} {player}".encode()).digest()
        for kind, key in (("private", private), ("public", public_key_of(private))):
            text = write_key(KeyFile(kind, player, key))
            (self.folder / f"{player}.{kind[:3] if kind == 'public' else 'key'}").write_text(text)

    def referee_runs(self) -> str:
        """The referee takes every mail, replies; each player saves and imports theirs."""
        said = self.ws("referee", "referee", self.path("inbox"), "--outbox", self.path("out"))
        box = mailbox.Maildir(self.path("out"), create=True)
        for key in list(box.iterkeys()):
            message = message_from_bytes(box.get_bytes(key), policy=policy.default)
            player = str(message["To"]).partition("@")[0]
            self.received[player] += 1
            saved = self.folder / f"{player}-{self.received.total():03}.eml"
            saved.write_bytes(box.get_bytes(key))
            self.ws(player, "import", str(saved))
            box.remove(key)
        return said

    def write(self, player: str) -> None:
        """The player plans the rest of their turn on their copy, signs it, mails it."""
        orders = self.orders_of(player)
        message = EmailMessage()
        message["From"] = f"{player}@example.org"
        message["To"] = "referee@example.org"
        message["Subject"] = f"by-mail: {player}'s orders"
        message["Date"] = formatdate()
        message["Message-ID"] = make_msgid()
        message.set_content(f"My orders.\n\n{orders.read_text()}")
        mailbox.Maildir(self.path("inbox")).add(message)
        self.mails[player] += 1

    def orders_of(self, player: str) -> Path:
        """The rest of the player's turn, planned on their copy, signed into a file."""
        app = Warscribe(self.path(f"{player}.db"))
        listing = app.find(None)
        state = app.head(listing.game_id).state
        answered = {
            e.event.player  # type: ignore[attr-defined]
            for e in app.entries(listing.game_id)
            if type(e.event).__name__ == "OrdersReceived"
        } | {player}
        lines = plan(state, player, answered)
        orders = self.folder / f"{player}-orders.txt"
        while not self.signed(player, lines, orders):
            pass
        return orders

    def signed(self, player: str, lines: list[str], orders: Path) -> bool:
        """`orders` runs them on the player's copy first: a line it refuses (a unit the
        random events took, a castle Bad Omens keep the stack out of) is struck out and
        the rest signed again."""
        written = self.folder / f"{player}-plan.txt"
        written.write_text("\n".join(lines) + "\n")
        said = self.ws(
            player, "orders", "--file", str(written), "-o", str(orders), "--force", ok=False
        )
        refused = re.match(r"Error: line (\d+) ", said)
        if refused is None:
            return True
        del lines[int(refused[1]) - 1]
        return False

    def play(self) -> None:
        """Until turn 3 begins: whoever their copy says must act writes their orders."""
        while self.status("referee")["turn"] <= self.game_turns:
            if sum(self.mails.values()) >= MOST_MAILS:
                raise RuntimeError(f"stuck: {self.status('referee')}")
            for player in KINGDOMS:
                if self.status(player)["whose_turn"] == player:
                    self.write(player)
            said = self.referee_runs()
            if "refused" in said:
                raise RuntimeError(said)
            if self.verbose:
                print(said)

    def checked(self) -> list[str]:
        """Every copy verifies; the referee's audit passes; the log holds a battle and a
        siege (the names of the events found). A player turn ends with its Combat Phase,
        or where the player is eliminated in it (`PlayerTurnEnded`)."""
        for store in ("referee", *KINGDOMS):
            self.ws(store, "verify")
        self.ws("referee", "audit")
        log = json.loads(self.ws("referee", "log", "--json"))
        self.turns = Counter(
            entry["fields"]["player"]
            for entry in log
            if entry["event"] == "PlayerTurnEnded"
            or (entry["event"] == "PhaseEnded" and entry["fields"]["phase"] == "combat")
        )
        names = {entry["event"] for entry in log}
        return sorted(names & {"BattleFought", "SiegeDeclared"})

    def figure(self) -> tuple[float, dict[str, float]]:
        """Mails per player turn: on average, and each player's (the player turns each
        had: an eliminated player has fewer)."""
        each = {p: self.mails[p] / self.turns[p] for p in KINGDOMS if self.turns[p]}
        return sum(self.mails.values()) / sum(self.turns.values()), each

    def referee_figure(self) -> tuple[float, dict[str, float]]:
        """The referee's mails per player per player turn: the mails each player received
        over the player turns of the game (everyone's), and their average."""
        turns = self.turns.total()
        each = {p: self.received[p] / turns for p in KINGDOMS}
        return sum(each.values()) / len(each), each


def figure_line(average: float, each: dict[str, float], what: str = "mails") -> str:
    per = ", ".join(f"{p} {n:.1f}" for p, n in each.items())
    return f"{what} per player turn: {average:.2f} ({per})"


def played(seed: int, folder: Path, verbose: bool = False) -> tuple[Game, list[str]]:
    game = Game(folder, seed, verbose)
    game.set_up()
    game.play()
    return game, game.checked()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--folder", type=Path, default=None)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    folder = args.folder or Path(tempfile.mkdtemp(prefix="pbem-"))
    game, found = played(args.seed, folder, args.verbose)
    average, each = game.figure()
    mailed, received = game.referee_figure()
    print(
        f"seed {args.seed}: {figure_line(average, each)}; "
        f"{figure_line(mailed, received, 'referee mails per player')}; {', '.join(found)}"
    )
    cheap = average <= TARGET and mailed <= REFEREE_TARGET
    return 0 if cheap and found == ["BattleFought", "SiegeDeclared"] else 1


if __name__ == "__main__":
    sys.exit(main())
