"""What every benchmark shares: an installed copy of warscribe, honest timing, a realistic
game, and the stores it runs on.

* **Installed, not editable.** This machine exports PYTHONDONTWRITEBYTECODE=1, so an
  editable install (`pip install -e .`) compiles every module again on every CLI call and
  start-up figures would measure the compiler. `installed()` makes (once, under the
  system's temporary folder) a virtualenv with a plain `pip install .` of this checkout,
  compiles it to bytecode, and every benchmark runs under that copy: importing this module
  runs the script again under the installed python unless it already runs under one.
  Set WARSCRIBE_BENCH_PYTHON=PATH to use an interpreter you installed warscribe into
  yourself.
* **Honest ratios.** A ratio is a measured time over a floor measured in the same run,
  on the same data: the two are alternated (floor, work, floor, work, ...), each the
  minimum of at least five runs, and a floor keeps none of its results.
* **A realistic game.** `play` plays seeded quiet turns of Divine Right through the
  store, as a referee would with the CLI: random events rolled and answered, a diplomacy
  card drawn and an ambassador sent, every question of the rules answered with the first
  options offered, the other phases ended.
* **Figures written down by the run.** Any benchmark given `--results` also writes what
  it printed into its own section of benchmarks/RESULTS.md (the date, the command, the
  machine line and every figure), replacing that section's last run: the current figures
  are the benchmarks' own words, never copied by hand (docs/performance.md).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import datetime
import hashlib
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PG_URL = os.environ.get("WARSCRIBE_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")
RUNS = 5
PROBES = 10_000  # calls per timing of a machine probe (`machine`)


def started(
    doc: str, prefix: str, counts: dict[str, int], flags: tuple[str, ...] = ()
) -> tuple[argparse.Namespace, Path]:
    """A benchmark's start: its command line parsed (an integer `--NAME` per `counts`,
    defaulting to its value, then a switch per `flags`), the machine line printed, and a
    fresh temporary folder `warscribe-PREFIX-...` for its files."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    for name, default in counts.items():
        parser.add_argument(f"--{name}", type=int, default=default)
    for flag in flags:
        parser.add_argument(f"--{flag}", action="store_true")
    args = parser.parse_args()
    print(machine(), flush=True)
    return args, Path(tempfile.mkdtemp(prefix=f"warscribe-{prefix}-"))


def report(name: str, ratio: float, target: float | None) -> bool:
    """Print `NAME ratio=X target=Y` (and whether it is met); True when it is. A figure
    with no target (a peer's, beside ours) prints `target=none (informational)`."""
    ok = target is None or ratio <= target
    shown = "none (informational)" if target is None else target
    print(f"{name} ratio={ratio:.3f} target={shown}{'' if ok else '  MISSED'}", flush=True)
    return ok


def report_time(name: str, p95: float, median: float, target: float) -> bool:
    """Print `NAME p95=Xms target=Yms` (a time against an absolute target, with the median
    beside it, and whether the target is met); True when it is."""
    ok = p95 <= target
    shown = f"p95={p95 * 1000:.1f}ms median={median * 1000:.1f}ms target={target * 1000:.0f}ms"
    print(f"{name} {shown}{'' if ok else '  MISSED'}", flush=True)
    return ok


def machine() -> str:
    """A line saying how fast this machine runs Python beside C, printed before the
    figures: a ratio of our work (Python) to its floor (sqlite3 and msgpack, C) moves with
    it, the same code giving `status` 1.23 on one VM of our kind and 1.63 on another.
    Both probes are the minimum of fifteen timings taken in turns: a call of a Python
    function that copies a record's fields with one changed (what an evolver does most),
    and `msgpack.unpackb` of plain values of about the size of a stored entry (C alone: a
    stored row's markers would add msgpack's `ExtType`, made in Python)."""
    import platform

    import msgpack  # here: this module may be imported under a python without it

    fields = {f"field_{i}": i for i in range(20)}

    def replaced(values: dict[str, int]) -> dict[str, int]:
        return {**values, "field_3": 0}

    row = msgpack.packb([[7, "x" * 40, b"y" * 32, None, [1, 2, 3]]] * 6)

    def probe(call: Callable[[], object]) -> Callable[[], None]:
        def run() -> None:
            for _ in range(PROBES):  # each result dropped, as a floor's
                call()

        return run

    python, unpack = alternated(
        probe(lambda: replaced(fields)), probe(lambda: msgpack.unpackb(row)), 15
    )
    python, unpack = python / PROBES, unpack / PROBES
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        lines = Path("/proc/cpuinfo").read_text().splitlines()
        models = [line for line in lines if line.startswith("model name")]
        cpu = models[0].partition(":")[2].strip() if models else cpu
    return (
        f"# machine: {cpu}, {os.cpu_count()} cores, {platform.python_implementation()} "
        f"{platform.python_version()}; a Python record copy {python * 1e9:.0f} ns, "
        f"msgpack.unpackb of a {len(row)}-byte row {unpack * 1e9:.0f} ns (Python/C "
        f"{python / unpack:.2f}: the higher, the worse our ratios here)"
    )


def alternated(
    floor: Callable[[], object], work: Callable[[], object], runs: int = RUNS
) -> tuple[float, float]:
    """(floor, work) seconds: each the minimum of `runs` timings, taken in turns."""
    floors: list[float] = []
    works: list[float] = []
    for _ in range(max(runs, RUNS)):
        for fn, times in ((floor, floors), (work, works)):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
    return min(floors), min(works)


def cpu_of(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    """CPU seconds (user + system) of a fresh process running `argv` (getrusage counts in
    microseconds; os.times only in clock ticks of 10 ms)."""
    import resource

    def spent() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    before = spent()
    subprocess.run(argv, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL)
    return spent() - before


def alternated_cpu(
    floor: list[str], work: list[str], cwd: Path, env: dict[str, str], runs: int = RUNS
) -> tuple[float, float]:
    """(floor, work) CPU seconds of fresh processes: each the minimum of `runs`, in turns."""
    floors: list[float] = []
    works: list[float] = []
    for _ in range(max(runs, RUNS)):
        floors.append(cpu_of(floor, cwd, env))
        works.append(cpu_of(work, cwd, env))
    return min(floors), min(works)


def installed() -> Path:
    """The python of a virtualenv holding a non-editable install of this checkout (made on
    first use, and again whenever the checkout's sources change), compiled to bytecode."""
    python = os.environ.get("WARSCRIBE_BENCH_PYTHON")
    if python:
        return Path(python)
    venv = Path(tempfile.gettempdir()) / f"warscribe-bench-{source_digest()}"
    py = venv / "bin" / "python"
    if not py.exists():
        print(f"# installing warscribe (non-editable) into {venv}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(py), "-m", "pip", "install", "-q", f"{ROOT}[postgres]"]
        subprocess.run(pip, check=True)
        compile_all = (
            "import compileall, site; compileall.compile_dir(site.getsitepackages()[0], quiet=1)"
        )
        subprocess.run([str(py), "-c", compile_all], check=True, env=_bytecode_env())
    return py


def source_digest() -> str:
    """A digest of this checkout's sources (the package and its build settings)."""
    digest = hashlib.sha256()
    for path in sorted(ROOT.glob("*/**/*")):
        if path.is_file() and path.parts[len(ROOT.parts)] in ("engine", "store", "cli", "web"):
            digest.update(str(path.relative_to(ROOT)).encode() + path.read_bytes())
    for build in ("pyproject.toml", "setup.py"):
        digest.update((ROOT / build).read_bytes())
    return digest.hexdigest()[:12]


def run_installed() -> None:
    """Run this script again under the installed copy (`installed`) unless it already runs
    under one: the figures are those of what users install, not of this checkout."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("warscribe.engine")
    except ModuleNotFoundError:
        spec = None
    origin = spec.origin if spec else None
    if origin and not Path(origin).resolve().is_relative_to(ROOT):
        return
    py = installed()
    if Path(sys.executable).absolute() == py.absolute():
        return  # WARSCRIBE_BENCH_PYTHON names this very interpreter (an editable install)
    os.execv(str(py), [str(py), *sys.argv])


def _bytecode_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def pg_store(label: str) -> str | None:
    """A fresh PostgreSQL schema's store URL, or None (said on stderr) when none answers."""
    try:
        import psycopg

        schema = f"bench_{label}_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(PG_URL, autocommit=True, connect_timeout=3) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
    except Exception as exc:  # whatever fails, there is no PostgreSQL to use here
        print(f"# no PostgreSQL at {PG_URL}: {exc}", file=sys.stderr)
        return None
    return f"{PG_URL}?schema={schema}"


def drop_pg(store: str) -> None:
    import psycopg

    schema = store.rpartition("schema=")[2]
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@contextmanager
def pg_pair(first: str, second: str) -> Iterator[tuple[str, str] | None]:
    """Two fresh PostgreSQL stores, dropped afterwards (None when no server answers)."""
    stores = (pg_store(first), pg_store(second))
    try:
        a, b = stores
        yield (a, b) if a is not None and b is not None else None
    finally:
        for store in stores:
            if store is not None:
                drop_pg(store)


def store_pairs(
    folder: Path, names: tuple[str, str], sqlite_only: bool
) -> Iterator[tuple[str, str, str]]:
    """The two stores a benchmark runs on, each time with its label: two SQLite files
    `NAME.db` in `folder`, then (unless `sqlite_only`, and when a server answers) two fresh
    PostgreSQL stores of those names, dropped afterwards."""
    yield str(folder / f"{names[0]}.db"), str(folder / f"{names[1]}.db"), "sqlite"
    if sqlite_only:
        return
    with pg_pair(*names) as stores:
        if stores is not None:
            yield (*stores, "postgresql")


PLAYERS = ("alice", "bob", "carol", "dave", "erin")
AMBASSADORS = ("Neuth", "Ghem", "Zorn", "Pon", "Hothior", "Mivior", "Muetar", "Rombune")


def new_game(
    app: Any,
    name: str,
    dice: str = "seeded:1",
    players: tuple[str, ...] = PLAYERS,
    host_secret: bytes | None = None,
) -> Any:
    """A Divine Right game for `players` (5 by default); its head. `host_secret` fixes the
    dice of a game of host dice (the same game played again rolls the same)."""
    from warscribe.engine.ruleset import GameSpec, PlayerSpec

    spec = GameSpec(name=name, players=tuple(PlayerSpec(p) for p in players))
    return app.create("divine-right", spec, dice, host_secret=host_secret)


def random_game(app: Any, seed: int = 1, turns: int = 20, dice: str = "seeded") -> uuid.UUID:
    """A seeded random-play game of Divine Right for five players, imported into `app`; its
    id. Each command is drawn at random among those the rules' `legal` offers (the rule
    set's own random play: moves, sieges, battles, diplomacy, every question answered)
    until turn `turns` is over. Playing takes tens of seconds, so the game is kept as a
    log file under the temporary folder, one per seed; every run imports it (verified and
    re-decided, as any import), and plays it again when the rules now refuse it. Its dice
    are seeded by `seed`; with `dice="host"`, the host's (fixed by `seed`, and whose key
    the store importing it lacks, as a player's copy: it cannot roll them)."""
    from warscribe.engine.errors import WarscribeError
    from warscribe.store import logfile

    suffix = "" if dice == "seeded" else f"-{dice}"
    cached = Path(tempfile.gettempdir()) / f"warscribe-bench-game-{seed}-{turns}{suffix}.log"
    for attempt in (1, 2):
        if attempt == 2 or not cached.exists():
            print(f"# playing random game {seed} ({turns} turns) into {cached}", file=sys.stderr)
            partial = cached.with_suffix(".partial")
            partial.write_bytes(_random_play(seed, turns, dice))
            partial.replace(cached)
        log = logfile.read(cached.read_bytes())
        try:
            app.import_log(log)
        except WarscribeError as exc:  # rules changed since: the old log no longer decides
            if attempt == 2:
                raise
            print(f"# the cached game is refused ({exc}): playing it again", file=sys.stderr)
            continue
        break
    game_id: uuid.UUID = log.game_id
    return game_id


def _random_play(seed: int, turns: int, dice: str) -> bytes:
    """The log file of the game `random_game` plays."""
    from warscribe.engine import rulesets
    from warscribe.engine.errors import RuleError
    from warscribe.engine.ruleset import draw
    from warscribe.store import logfile
    from warscribe.store.app import Warscribe

    rs = rulesets.get("divine-right")
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="warscribe-bench-play-") as folder:
        app = Warscribe(str(Path(folder) / "play.db"))
        if dice == "seeded":
            game_id = new_game(app, "bench", dice=f"seeded:{seed}").game_id
        else:
            fixed = hashlib.sha256(f"benchmark host {seed}".encode()).digest()
            game_id = new_game(app, "bench", dice=dice, host_secret=fixed).game_id
        head = app.head(game_id)
        while head.state.number <= turns and not rs.summary(head.state)["game_over"]:
            command = draw(rs.legal(head.state), rng)
            if command is None:
                break
            with contextlib.suppress(RuleError):  # `legal` offers what the rules accept
                app.issue(game_id, command)
            head = app.head(game_id)
        entries = list(app.entries(game_id))
        signed = app.checkpoint(game_id, head.seq, head.chain)  # the host's (host dice)
        players = head.players
        data: bytes = logfile.write(game_id, "bench", "divine-right", players, entries, signed)
        app.close()
    return data


HOUSE_ROLL = ("roll", (("dice", "2d6"), ("purpose", "weather (house rule)")))


def play_turn(app: Any, game_id: uuid.UUID, seed: int = 1) -> int:
    """Play the current player's turn to its end (the next player's first command); the
    number of entries the game then holds."""
    from warscribe.engine import rulesets

    rs = rulesets.get("divine-right")

    def whose() -> tuple[Any, Any]:
        summary = rs.summary(app.head(game_id).state)
        return summary["turn"], summary["player"]

    now = whose()
    return play(app, game_id, 10**9, seed, until=lambda: whose() != now)


def play(
    app: Any,
    game_id: uuid.UUID,
    entries: int,
    seed: int = 1,
    house_rolls: int = 0,
    until: Callable[[], bool] = lambda: False,
) -> int:
    """Play quiet turns of the game until it holds at least `entries` entries or is over
    (a Divine Right game ends after turn 20: about 2,200 entries for five players), with
    `house_rolls` referee's rolls outside the rules after each command (how a game grows
    past what 20 turns hold); the number of entries it holds."""
    from warscribe.engine import rulesets
    from warscribe.engine.errors import WarscribeError
    from warscribe.engine.events import Command

    rng = random.Random(seed)
    rs = rulesets.get("divine-right")
    head = app.head(game_id)
    while head.seq < entries:
        summary = rs.summary(head.state)
        if summary["game_over"] or until():
            break
        commands = rs.legal_commands(head.state)
        who = rs.whose_turn(head.state) or "referee"
        for name, args in _choices(summary, commands, head.state, rng):
            try:
                app.issue(game_id, Command(who, name, args))
                break
            except WarscribeError:
                continue
        else:
            raise RuntimeError(f"no command the quiet player knows fits {commands} {summary}")
        for _ in range(house_rolls):
            app.issue(game_id, Command("referee", *HOUSE_ROLL))
        head = app.head(game_id)
    return int(head.seq)


Choice = tuple[str, tuple[tuple[str, Any], ...]]


def _choices(
    summary: dict[str, Any], commands: Any, state: Any, rng: random.Random
) -> list[Choice]:
    """The commands a quiet player would try now, best first."""
    pending = summary["pending"]
    if pending:
        return _answers(pending)
    if "events roll" in commands:
        return [("events-roll", ())]
    if "diplomacy draw" in commands:
        return [("diplomacy-draw", ())]
    tries: list[Choice] = []
    if "diplomacy activate" in commands and rng.random() < 0.5:
        tries.append(("diplomacy-activate", (("kingdom", rng.choice(AMBASSADORS)),)))
    if "discard" in commands and "end-phase" not in commands:
        player = state.player(summary["player"])
        tries.append(("discard", (("cards", (player.hand[0],)),)))
    return [*tries, ("end-phase", ())]


def _answers(pending: dict[str, Any]) -> list[Choice]:
    kind, options, count = pending["kind"], pending["options"], pending["count"]
    if kind in ("storm", "mutiny", "epidemic", "desertion"):
        return [("events-lose", (("units", ",".join(options[:count])),))]
    what, _, place = options[0].partition(" at ")
    tries: list[Choice] = [
        ("place", (("units", what), ("at", place))),
        ("place", (("at", place),)),
    ]
    if what.startswith("steal "):
        tries.append(("events-reinforce", (("unit", what.split()[1]), ("at", place))))
    elif what in ("army", "fleet"):
        tries.append(("events-reinforce", (("kind", what), ("at", place))))
    else:
        tries.append(("events-replace", (("unit", what), ("at", place))))
        tries.append(("events-reinforce", (("unit", what), ("at", place))))
    return tries


RESULTS = ROOT / "benchmarks" / "RESULTS.md"
RESULTS_HEAD = """# Benchmark results

Written by the benchmarks themselves: each section is the last run of one script given
`--results` (`python3 benchmarks/replay.py --results`), with the machine's load average as
it ended (a shared machine's load moves the ratios). What the figures mean and how they
are measured: [docs/performance.md](../docs/performance.md).
"""


class _Tee:
    """Standard output that keeps a copy of what is written to it."""

    def __init__(self, out: Any) -> None:
        self.out = out
        self.seen: list[str] = []

    def write(self, text: str) -> int:
        self.seen.append(text)
        return int(self.out.write(text))

    def flush(self) -> None:
        self.out.flush()


def record_results() -> None:
    """With `--results` (taken out of the arguments the script reads), what the run prints
    is also written into benchmarks/RESULTS.md when it ends, unless it failed."""
    if "--results" not in sys.argv:
        return
    sys.argv.remove("--results")
    tee = _Tee(sys.stdout)
    sys.stdout = tee
    failed: list[object] = []
    hook = sys.excepthook

    def noted(kind: type[BaseException], value: BaseException, trace: Any) -> None:
        failed.append(value)
        hook(kind, value, trace)

    sys.excepthook = noted
    script = Path(sys.argv[0]).name
    command = " ".join(["python3", f"benchmarks/{script}", *sys.argv[1:]])

    def written() -> None:
        if not failed:
            write_results(script, command, "".join(tee.seen))

    atexit.register(written)


def write_results(script: str, command: str, printed: str) -> None:
    """`printed` as the section of `script` in RESULTS.md (the sections kept in name order)."""
    if " ratio=" not in printed and " p95=" not in printed:
        return  # no figure printed: the last run's stay
    sections: dict[str, str] = {}
    if RESULTS.exists():
        for part in RESULTS.read_text(encoding="utf-8").split("\n## ")[1:]:
            name, _, body = part.partition("\n")
            sections[name] = body
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = " ".join(f"{figure:.2f}" for figure in os.getloadavg())
    sections[script] = (
        f"\n{when}, load average {load}, `{command}`:\n\n```\n{printed.rstrip()}\n```\n"
    )
    body = "".join(f"\n## {name}\n{sections[name]}" for name in sorted(sections))
    RESULTS.write_text(RESULTS_HEAD + body, encoding="utf-8")


run_installed()
record_results()
