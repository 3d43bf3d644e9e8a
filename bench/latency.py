"""Latency, throughput, memory and start-up of the real bot over the loopback Discord, beside the
floor: a bare discord.py bot answering a static embed, measured in the same run.

    python -m bench.latency                 # 1,000 campaigns of 10 figures, 200 interactions/s for 30 s, bursts of 500
    python -m bench.latency --smoke         # a small, quick run (CI runs this; it asserts nothing about speed)
    python -m bench.latency --campaigns 200 --rate 100 --seconds 10 --burst 200
    python -m bench.latency --no-sharpe     # the mix before Sharpe joined it: every campaign on the map is SSG's

Latency is measured by the fake Discord from dispatching INTERACTION_CREATE to receiving the bot's
callback. Targets: p99 within 2x the floor at 200 interactions a second, no error, memory under
150 MB. It prints its figures; it never fails on them. "CPU ms" is the CPU time the bot process
spent per answer in that phase: unlike latency, a busy machine hardly changes it. "gen ms" is the
load generator's own CPU per answer (this process: both fake Discords), which the machine's two
cores share with the bot.

Both bots run side by side and take the steady load in turns, in short rounds (``--rounds``),
the floor first in one round and second in the next: a machine that slows down for a while
slows both, instead of whichever happened to be measured then. Each round's ratio is printed
too.

Each bot first takes ``--warmup`` seconds of the same steady load, enough to reach every campaign
once: what a process does the first time (a campaign's pages into SQLite's cache, code paths run
for the first time, the write-ahead log the seeding left) is then printed as its own phase and
kept out of the steady figures, which are what players meet once the bot has been up a while.
Start-up time is printed on its own as well.

``--trace`` runs both under :mod:`bench.traced` and says what the slowest answers overlapped
(garbage collections, WAL checkpoints, the event loop held); ``--keep DIR`` leaves the logs,
traces, database and every steady answer there.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AsyncExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.tail import Pause, explain, read_trace
from tests.e2e.fake_discord import FakeDiscord, FakeInteraction, FakeUser
from tests.e2e.seeding import Table, caller, new_table, seed_ssg, seeded_app
from tests.orm import orm

REPO = Path(__file__).resolve().parents[1]
RESPONSE_DEADLINE = 3.0
#: Every MAP_EVERY-th campaign fights on the bot's map: its moves are measured, and 15% of its load
#: asks for the battlefield's picture (/game status 10%, /map show 5%). Every other one of them is an
#: SSG battle on the crossroads, the rest Sharpe skirmishes on the farm (SHARPE_EVERY).
MAP_EVERY = 4
#: Of the campaigns on the map, every SHARPE_EVERY-th is a Sharpe skirmish on the farm: the man whose
#: turn it is moves a hair's breadth toward an enemy, fires once (the first time a shot comes up) and
#: then asks /sharpe targets (sight, range and cover to every enemy, measured and not rolled).
SHARPE_EVERY = 2
SHARPE_SIDES = {"british": ("rifleman", "Rifleman"), "french": ("voltigeur", "Voltigeur")}


class MeasuringDiscord(FakeDiscord):
    """The fake Discord without its schema checks, of the bot's bodies or of its own answers: here
    it measures, the tests validate. Checked, a callback's answer cost the load generator a third
    of its CPU, taken from the same two cores the bot runs on."""

    def __init__(self, **options: Any) -> None:
        super().__init__(self_check=False, **options)

    def _validate(self, schema: str, body: Any, where: str) -> list[str]:
        return []


@dataclass
class Phase:
    name: str
    #: Each answer's dispatch time (the fake Discord's monotonic clock) and its latency.
    answered: list[tuple[float, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    sent: int = 0
    elapsed: float = 0.0
    cpu_s: float = 0.0
    #: CPU time the load generator (this process, both fake Discords) spent meanwhile.
    generator_cpu_s: float = 0.0
    #: The latencies of the answers that carried the battlefield's picture (drawn for them).
    pictured: list[float] = field(default_factory=list)

    @property
    def latencies(self) -> list[float]:
        return [latency for _, latency in self.answered]

    def percentile(self, q: float, latencies: list[float] | None = None) -> float:
        chosen = self.latencies if latencies is None else latencies
        if not chosen:
            return float("nan")
        ordered = sorted(chosen)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def percentile_unpictured(self, q: float) -> float:
        """Over the answers without a picture: what a picture drawn meanwhile costs everyone else."""
        rest = list(self.latencies)
        for latency in self.pictured:
            rest.remove(latency)
        return self.percentile(q, rest)

    def row(self) -> dict[str, Any]:
        return {
            "phase": self.name,
            "sent": self.sent,
            "answered": len(self.answered),
            "errors": len(self.errors),
            "p50_ms": 1000 * self.percentile(0.50),
            "p95_ms": 1000 * self.percentile(0.95),
            "p99_ms": 1000 * self.percentile(0.99),
            "throughput": len(self.answered) / self.elapsed if self.elapsed else 0.0,
            "cpu_ms_each": 1000 * self.cpu_s / len(self.answered) if self.answered else float("nan"),
            "generator_cpu_ms_each": 1000 * self.generator_cpu_s / len(self.answered)
            if self.answered
            else float("nan"),
        }


@dataclass
class Run:
    label: str
    startup_s: float = 0.0
    peak_rss_mb: float = 0.0
    phases: list[Phase] = field(default_factory=list)
    #: What bench.traced saw in the process (``--trace``), else None.
    pauses: list[Pause] | None = None

    def steady(self) -> Phase:
        return next(phase for phase in self.phases if phase.name.startswith("steady"))


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time the process has used so far (``/proc/<pid>/stat``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


async def timed(pid: int, phase: Awaitable[Phase]) -> Phase:
    """The phase, with the CPU time the bot process spent on it: a figure that a busy machine
    does not distort the way it distorts latency."""
    before, generator_before = cpu_seconds(pid), time.process_time()
    done = await phase
    done.cpu_s = cpu_seconds(pid) - before
    done.generator_cpu_s = time.process_time() - generator_before
    return done


def peak_rss_mb(pid: int) -> float:
    """The process's high-water resident memory (Linux ``VmHWM``)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def launch(module: list[str], env: dict[str, str], log: Path, trace: Path | None) -> subprocess.Popen[bytes]:
    """``python -m`` the module, under :mod:`bench.traced` when ``trace`` names its record."""
    if trace is not None:
        module, env = ["bench.traced", *module], {**env, "BENCH_TRACE": str(trace)}
    with open(log, "ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", *module],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )


def bot_env(fake: FakeDiscord, data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DEV_GUILD_ID", "XDG_DATA_HOME")}
    env.update(
        {
            "DISCORD_TOKEN": fake.token,
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "SKIRMISH_GM_DATA": str(data_dir),
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
        }
    )
    return env


async def wait_ready(fake: FakeDiscord, process: subprocess.Popen[bytes], log: Path, timeout: float = 60.0) -> float:
    started = time.perf_counter()
    while True:
        session = fake.session
        synced = bool(fake.global_commands or any(fake.guild_commands.values()))
        if session is not None and session.ready and synced:
            return time.perf_counter() - started
        if process.poll() is not None:
            raise RuntimeError(f"the bot exited before it was ready:\n{log.read_text()[-3000:]}")
        if time.perf_counter() - started > timeout:
            raise TimeoutError(f"not ready after {timeout} s")
        await asyncio.sleep(0.01)


async def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        for _ in range(250):
            if process.poll() is not None:
                return
            await asyncio.sleep(0.02)
        process.kill()


Send = Callable[[int], Any]


@contextmanager
def steady_generator() -> Iterator[None]:
    """No garbage collection in this process (the fake Discord and the load) while it measures.

    A collection here pauses dispatching; the interactions due meanwhile then go out at once and
    queue at the bot, and that queue, the load generator's own hiccup, would be charged to the
    bot's latency (and more to a slower bot than to the floor).
    """
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


async def drive(fake: FakeDiscord, name: str, send: Send, *, rate: float, seconds: float) -> Phase:
    """``send(n)`` at a steady ``rate`` for ``seconds``; every answer's latency."""
    phase = Phase(name)
    count = max(1, int(rate * seconds))
    inflight: list[FakeInteraction] = []
    start = time.perf_counter()
    for n in range(count):
        target = start + n / rate
        delay = target - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        inflight.append(await send(n))
    await settle(fake, inflight, phase)
    phase.elapsed = time.perf_counter() - start
    return phase


async def burst(fake: FakeDiscord, name: str, send: Send, *, size: int) -> Phase:
    phase = Phase(name)
    start = time.perf_counter()
    inflight = list(await asyncio.gather(*(send(n) for n in range(size))))
    await settle(fake, inflight, phase)
    phase.elapsed = time.perf_counter() - start
    return phase


async def settle(fake: FakeDiscord, inflight: list[FakeInteraction], phase: Phase) -> None:
    phase.sent += len(inflight)
    # As long as the fake waits (30 s): an answer later than Discord's 3 s is measured, not lost.
    deadline = time.perf_counter() + max(RESPONSE_DEADLINE, fake.response_deadline) + 2
    while time.perf_counter() < deadline and any(i.responded_at is None for i in inflight):
        await asyncio.sleep(0.01)
    for inter in inflight:
        if inter.responded_at is None:
            phase.errors.append(f"{inter.label}: no answer")
            continue
        phase.answered.append((inter.created, inter.responded_at - inter.created))
        data = (inter.response if isinstance(inter.response, dict) else {}).get("data") or {}
        if any((e.get("image") or {}).get("url") == "attachment://map.png" for e in data.get("embeds") or []):
            phase.pictured.append(inter.responded_at - inter.created)
        titles = [e.get("title") for e in data.get("embeds") or []]
        if "Not done" in titles:
            description = (data.get("embeds") or [{}])[0].get("description")
            phase.errors.append(f"{inter.label}: refused: {description}")


@dataclass
class Subject:
    """One bot under test: its process, its fake Discord and how to send it a command."""

    run: Run
    fake: FakeDiscord
    process: subprocess.Popen[bytes]
    send: Send
    trace: Path | None = None
    steady: Phase | None = None


async def start_floor(stack: AsyncExitStack, args: argparse.Namespace, folder: Path) -> Subject:
    run = Run("bare discord.py bot (static embed)")
    fake = await stack.enter_async_context(MeasuringDiscord(response_deadline=30))
    users = [fake.add_user(f"player{n}") for n in range(50)]
    log = folder / "bare.log"
    trace = folder / "bare.trace" if args.trace else None
    process = launch(["bench.bare_bot"], bot_env(fake, folder / "bare-data"), log, trace)
    stack.push_async_callback(stop, process)
    run.startup_s = await wait_ready(fake, process, log)

    async def send(n: int) -> FakeInteraction:
        return await fake.send_slash(users[n % len(users)], "ping")

    return Subject(run, fake, process, send, trace)


async def start_bot(stack: AsyncExitStack, args: argparse.Namespace, folder: Path) -> Subject:
    kinds = [battlefield_of(n, args.sharpe) for n in range(args.campaigns)]
    maps, sharpe = len(kinds) - kinds.count("table"), kinds.count("sharpe")
    run = Run(f"Skirmish GM ({args.campaigns} campaigns of 10 figures, {maps} on the map, {sharpe} Sharpe)")
    fake = await stack.enter_async_context(MeasuringDiscord(response_deadline=30))
    tables = [new_table(fake, n) for n in range(args.campaigns)]
    db_path = folder / "bench.sqlite3"
    seeding = time.perf_counter()
    app = await seeded_app(db_path, seed=7)
    for n, table in enumerate(tables):
        if kinds[n] == "sharpe":
            await seed_sharpe(app, fake, table, per_side=5)
        else:
            await seed_ssg(app, fake, table, per_side=5, battlefield=kinds[n])
    movers = await active_players(app, tables, kinds)
    await app.store.db.close()
    print(f"seeded {args.campaigns} campaigns in {time.perf_counter() - seeding:.1f} s", file=sys.stderr)
    log = folder / "bot.log"
    trace = folder / "bot.trace" if args.trace else None
    process = launch(["bot", "run", "--db", str(db_path)], bot_env(fake, folder / "bot-data"), log, trace)
    stack.push_async_callback(stop, process)
    run.startup_s = await wait_ready(fake, process, log)
    rng = random.Random(3)

    fired: set[int] = set()

    async def send(n: int) -> FakeInteraction:
        table, mover, figures, enemies = movers[n % len(movers)]
        roll = rng.random()
        if kinds[n % len(movers)] == "sharpe":
            return await send_sharpe(fake, table, mover, figures[0], enemies, roll, fired)
        if roll < 0.5:
            figure = figures[n % len(figures)]
            if enemies:  # on the map: a hair's breadth toward an enemy, measured and checked
                toward = enemies[n % len(enemies)]
                return await fake.send_slash(
                    mover, "ssg move", at=table.channel, figure=figure, toward=toward, distance=0.01
                )
            return await fake.send_slash(mover, "ssg move", at=table.channel, figure=figure, distance=0.01)
        if roll < (0.6 if enemies else 0.7):  # on the map, /game status draws the table: asked less
            return await fake.send_slash(table.gm, "game status", at=table.channel)
        if roll < 0.65 and enemies:
            return await fake.send_slash(table.gm, "map show", at=table.channel)
        return await fake.send_slash(mover, "roll", at=table.channel, dice="2d6")

    return Subject(run, fake, process, send, trace)


def battlefield_of(n: int, sharpe: bool = True) -> str:
    """Campaign ``n``'s battle: "table" (SSG typed), "map" (SSG on the crossroads) or "sharpe" (the
    farm; with ``sharpe`` False every campaign on the map is SSG's, the mix before Sharpe joined it)."""
    if n % MAP_EVERY != MAP_EVERY - 1:
        return "table"
    return "sharpe" if sharpe and (n // MAP_EVERY) % SHARPE_EVERY == SHARPE_EVERY - 1 else "map"


async def seed_sharpe(app: Any, fake: FakeDiscord, table: Table, *, per_side: int = 5) -> None:
    """A Sharpe skirmish in ``table.channel`` on the farm map: riflemen against voltigeurs, both
    sides deployed, the order of movement rolled (the seeded dice) and the first man to act."""
    gm, players = caller(fake, table.gm, table.channel, 0), {"british": table.red, "french": table.blue}
    await app.campaigns.campaign_new(gm, f"Campaign {table.channel.name}", "sharpe", "map")
    for n, (side, user) in enumerate(players.items(), start=1):
        player = caller(fake, user, table.channel, n)
        asked = await app.campaigns.campaign_join(player, side)
        await app.decisions.decide(gm, "approve", asked.decision.decision_id)
        kind, name = SHARPE_SIDES[side]
        for k in range(per_side):
            await app.rosters.roster_add(player, f"{name} {k + 1}", kind)
    await app.maps.map_new(gm, "farm")
    await app.games.game_start(gm)
    for n, (_, user) in enumerate(players.items(), start=1):
        await app.maps.deploy(caller(fake, user, table.channel, n))


async def send_sharpe(
    fake: FakeDiscord, table: Table, mover: FakeUser, man: str, enemies: list[str], roll: float, fired: set[int]
) -> FakeInteraction:
    """The Sharpe campaigns' load: half moves toward an enemy, 15% pictures, 25% shots (the man's
    first is fired, the rest asked as /sharpe targets), the rest rolls."""
    enemy = enemies[int(roll * 1000) % len(enemies)]
    if roll < 0.5:
        return await fake.send_slash(mover, "sharpe move", at=table.channel, toward=enemy, distance=0.01)
    if roll < 0.6:
        return await fake.send_slash(table.gm, "game status", at=table.channel)
    if roll < 0.65:
        return await fake.send_slash(table.gm, "map show", at=table.channel)
    if roll < 0.9:
        if table.channel.id not in fired:
            fired.add(table.channel.id)
            return await fake.send_slash(mover, "sharpe shoot", at=table.channel, target=enemies[0])
        return await fake.send_slash(mover, "sharpe targets", at=table.channel, shooter=man)
    return await fake.send_slash(mover, "roll", at=table.channel, dice="2d6")


def combine(total: Phase | None, part: Phase) -> Phase:
    """The rounds of one bot's steady load, as one phase."""
    if total is None:
        return part
    total.answered += part.answered
    total.errors += part.errors
    total.sent += part.sent
    total.elapsed += part.elapsed
    total.cpu_s += part.cpu_s
    total.generator_cpu_s += part.generator_cpu_s
    total.pictured += part.pictured
    return total


async def measure(args: argparse.Namespace, folder: Path) -> tuple[Run, Run, list[float]]:
    """Both bots, the steady load in alternating rounds, then a burst each; each round's p99 ratio."""
    async with AsyncExitStack() as stack:
        floor = await start_floor(stack, args, folder)
        ours = await start_bot(stack, args, folder)
        seconds = args.seconds / args.rounds
        name = f"steady {args.rate:g}/s"
        round_ratios = []
        with steady_generator():
            offset = int(args.rate * args.warmup)
            if args.warmup > 0:
                for subject in (floor, ours):
                    subject.run.phases.append(
                        await timed(
                            subject.process.pid,
                            drive(subject.fake, "warm-up", subject.send, rate=args.rate, seconds=args.warmup),
                        )
                    )
            for number in range(args.rounds):
                order = (floor, ours) if number % 2 == 0 else (ours, floor)
                measured = {}
                for subject in order:
                    part = await timed(
                        subject.process.pid,
                        drive(
                            subject.fake,
                            name,
                            lambda n, send=subject.send, base=offset: send(base + n),
                            rate=args.rate,
                            seconds=seconds,
                        ),
                    )
                    measured[id(subject)] = part
                    subject.steady = combine(subject.steady, part)
                offset += int(args.rate * seconds)
                round_ratios.append(measured[id(ours)].percentile(0.99) / measured[id(floor)].percentile(0.99))
            for subject in (floor, ours):
                subject.run.phases.append(subject.steady)
                subject.run.phases.append(
                    await timed(
                        subject.process.pid,
                        burst(subject.fake, f"burst of {args.burst}", subject.send, size=args.burst),
                    )
                )
        for subject in (floor, ours):
            subject.run.peak_rss_mb = peak_rss_mb(subject.process.pid)
            if subject.trace is not None:
                subject.run.pauses = read_trace(subject.trace)
        ours.fake.take_breaches()
        return floor.run, ours.run, round_ratios


async def active_players(
    app: Any, tables: list[Table], kinds: list[str]
) -> list[tuple[Table, FakeUser, list[str], list[str]]]:
    """Each table's player to move, their figures, and (on the map) the enemy figures they move toward."""
    from sqlalchemy import select

    from bot.store.schema import Campaign, Game
    from rules import get_engine

    engine = get_engine("ssg")
    sharpe = get_engine("sharpe")
    found = []
    async with orm(app.store.db) as s:
        for n, table in enumerate(tables):
            game = await s.scalar(select(Game).join(Campaign).where(Campaign.channel_id == table.channel.id))
            assert game is not None
            if kinds[n] == "sharpe":  # one man acts at a time: the first in the order
                state = sharpe.load_state(game.state)
                active = next(c for c in state.characters if c.name == state.active)
                enemies = [c.name for c in state.characters if c.side != active.side]
                found.append((table, table.red if active.side == "british" else table.blue, [active.name], enemies))
                continue
            side = engine.whose_turn(engine.load_state(game.state))
            figures = [f["name"] for f in game.state["figures"] if f["side"] == side]
            enemies = [f["name"] for f in game.state["figures"] if f["side"] != side] if game.state.get("field") else []
            found.append((table, table.red if side == "red" else table.blue, figures, enemies))
    return found


def error_kinds(errors: list[str]) -> Counter[str]:
    """Errors by command and what went wrong ("/map show: no answer"), without who sent them."""
    kinds: Counter[str] = Counter()
    for error in errors:
        label, _, what = error.partition(": ")
        command = label.split(" by ")[0]
        kinds[f"{command}: {what[:100]}"] += 1
    return kinds


def report(floor: Run, ours: Run, round_ratios: list[float]) -> dict[str, Any]:
    rows = []
    print(
        f"\n{'run':<44} {'phase':<16} {'sent':>6} {'ok':>6} {'err':>4} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'per s':>7} {'CPU ms':>7} {'gen ms':>7}"
    )
    for run in (floor, ours):
        for phase in run.phases:
            row = phase.row()
            rows.append({"run": run.label, **row})
            print(
                f"{run.label:<44} {row['phase']:<16} {row['sent']:>6} {row['answered']:>6} {row['errors']:>4} "
                f"{row['p50_ms']:>8.1f} {row['p95_ms']:>8.1f} {row['p99_ms']:>8.1f} {row['throughput']:>7.1f} {row['cpu_ms_each']:>7.2f} {row['generator_cpu_ms_each']:>7.2f}"
            )
    print()
    for run in (floor, ours):
        print(f"{run.label:<44} start-up {run.startup_s:6.2f} s   peak memory {run.peak_rss_mb:6.1f} MB")
    ratios = {}
    for mine, base in zip(ours.phases, floor.phases, strict=False):
        ratios[mine.name] = mine.percentile(0.99) / base.percentile(0.99) if base.latencies else float("nan")
        print(f"p99 ratio, {mine.name}: {ratios[mine.name]:.2f}x the floor")
    print("p99 ratio, each steady round: " + ", ".join(f"{r:.2f}x" for r in round_ratios))
    steady = ours.steady()
    if steady.pictured:
        unpictured = steady.percentile_unpictured(0.99) / floor.steady().percentile(0.99)
        ratios["steady, answers without a picture"] = unpictured
        print(
            f"steady: {len(steady.pictured)} answers carried the battlefield's picture: p50 "
            f"{1000 * steady.percentile(0.5, steady.pictured):.0f} ms, p95 {1000 * steady.percentile(0.95, steady.pictured):.0f} ms, "
            f"p99 {1000 * steady.percentile(0.99, steady.pictured):.0f} ms; the other answers' p99 is {unpictured:.2f}x the floor"
        )
    tails = {}
    for run in (floor, ours):
        if run.pauses is not None:
            tails[run.label] = explain(run.steady().answered, run.pauses)
            for line in tails[run.label]:
                print(f"{run.label}, steady: {line}")
    errors = [e for p in ours.phases for e in p.errors]
    print(f"errors: {len(errors)}" + (f" (first: {errors[0]})" if errors else ""))
    for kind, count in error_kinds(errors).most_common():
        print(f"  {count} x {kind}")
    return {
        "rows": rows,
        "ratios": ratios,
        "round_ratios": round_ratios,
        "errors": len(errors),
        "error_kinds": dict(error_kinds(errors)),
        "memory_mb": {"floor": floor.peak_rss_mb, "bot": ours.peak_rss_mb},
        "startup_s": {"floor": floor.startup_s, "bot": ours.startup_s},
        "tails": tails,
    }


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--campaigns", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=200.0, help="interactions a second in the steady phase")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the steady phase lasts")
    parser.add_argument("--burst", type=int, default=500, help="interactions fired at once in the burst phase")
    parser.add_argument(
        "--warmup",
        type=float,
        default=5.0,
        help="seconds of the steady load each bot takes first, reported on its own and left out of the "
        "steady figures (the first pass over every campaign after a start)",
    )
    parser.add_argument(
        "--rounds", type=int, default=6, help="the steady phase is taken in this many turns by each bot"
    )
    parser.add_argument(
        "--no-sharpe",
        dest="sharpe",
        action="store_false",
        help="every campaign on the map is SSG's (the mix before Sharpe's campaigns joined it)",
    )
    parser.add_argument("--smoke", action="store_true", help="20 campaigns, 40/s for 2 s in 2 rounds, a burst of 40")
    parser.add_argument(
        "--trace",
        action="store_true",
        help="run both bots under bench.traced and say what their slowest answers overlapped",
    )
    parser.add_argument(
        "--keep",
        type=Path,
        help="leave the databases, logs, traces and each steady answer (dispatch time, latency) in this folder",
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.smoke:
        args.campaigns, args.rate, args.seconds, args.burst, args.rounds, args.warmup = 20, 40.0, 2.0, 40, 2, 0.5
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    return args


async def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse(argv)
    with tempfile.TemporaryDirectory(prefix="skirmish-bench-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        floor, ours, round_ratios = await measure(args, folder)
        figures = report(floor, ours, round_ratios)
    if args.keep:
        for run, name in ((floor, "floor"), (ours, "bot")):
            (args.keep / f"{name}.answers").write_text(
                "".join(f"{c:.6f} {1000 * lag:.3f}\n" for c, lag in run.steady().answered)
            )
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, default=str))
    return figures


if __name__ == "__main__":
    asyncio.run(main())
