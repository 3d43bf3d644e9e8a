"""Bounded work: how much one member firing the heaviest work the rules allow slows everyone else.

    python -m bench.bounded              # 20 channels, /roll at 20/s, 4 rounds of 10 s quiet and 10 s loaded
    python -m bench.bounded --smoke      # tiny and quick (CI runs it; it asserts nothing about speed)
    python -m bench.bounded --trace      # the bot under bench.traced: the longest steps of its event loop

The real bot over the loopback Discord (:mod:`bench.latency`'s machinery). Players in ``--channels``
other channels roll dice (``/roll 2d6``) at a steady ``--rate``; in turns, a "quiet" stretch and a
"loaded" one, in which one game master fires, as fast as the rules let her:

* ``/map import`` of the heaviest legal map (:mod:`bench.heavy_map`: 500 areas, 254 KiB) in her
  campaign between battles, ``--imports`` of them in flight at any time (each is answered, then
  sent again);
* ``/odds`` of a Sharpe rifleman's shot across that map in a battle fought on it (another of her
  channels), one question at a time, as /odds allows a player.

It prints each stretch's /roll latency (p50, p95, p99, measured by the fake Discord from dispatch
to the bot's answer), the ratio of the loaded p99 to the quiet one (the target: within 1.5x), and
how much heavy work was answered meanwhile. It prints; it never fails on a figure.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.heavy_map import heavy_map
from bench.latency import (
    MeasuringDiscord,
    Phase,
    bot_env,
    combine,
    drive,
    launch,
    peak_rss_mb,
    steady_generator,
    stop,
    timed,
    wait_ready,
)
from bench.tail import explain, read_trace, step_cpu_s
from tests.e2e.attachments import AttachmentHost, Upload, send_slash_with_files
from tests.e2e.fake_discord import FakeDiscord, FakeInteraction
from tests.e2e.seeding import Table, caller, new_table, seeded_app

#: The two sides of the Sharpe battle fought on the heavy map, and each side's men.
SIDES = {"british": ("rifleman", "Rifleman"), "french": ("voltigeur", "Voltigeur")}
MEN = 5
#: How long one heavy answer may take before the loop gives up on it and sends the next, and how
#: long the heavy channels wait after a refusal (a question still being worked out, say).
HEAVY_TIMEOUT_S = 120.0
REFUSED_PAUSE_S = 0.5
#: How long what is still in flight after a loaded stretch may take before the next quiet one.
DRAIN_S = 90.0


@dataclass
class Heavy:
    """What the heavy channel sent and got back during the loaded stretches."""

    imports_sent: int = 0
    odds_sent: int = 0
    imports: int = 0
    odds: int = 0
    refused: list[str] = field(default_factory=list)
    unanswered: int = 0


@dataclass
class Setup:
    rolling: list[Table]
    importing: Table
    asking: Table
    shooter: str
    target: str
    side_player: Any


async def seed(db_path: Path, fake: FakeDiscord, channels: int) -> Setup:
    """The campaigns: ``channels`` on a table whose players roll; the game master's campaign on the
    map between battles (she imports there); and her Sharpe battle on the heavy map, both sides
    deployed (a player asks the odds of a shot there)."""
    tables = [new_table(fake, n) for n in range(channels + 2)]
    importing, asking, rolling = tables[0], tables[1], tables[2:]
    importing.gm = asking.gm  # one game master, two of her channels
    app = await seeded_app(db_path, seed=11)
    for n, table in enumerate(rolling):
        await app.campaigns.campaign_new(caller(fake, table.gm, table.channel, 0), f"Table {n}", "ssg", "table")
    await app.campaigns.campaign_new(caller(fake, importing.gm, importing.channel, 0), "Heavy maps", "sharpe", "map")
    gm = caller(fake, asking.gm, asking.channel, 0)
    await app.campaigns.campaign_new(gm, "Heavy battle", "sharpe", "map")
    players = {"british": asking.red, "french": asking.blue}
    for n, (side, user) in enumerate(players.items(), start=1):
        player = caller(fake, user, asking.channel, n)
        asked = await app.campaigns.campaign_join(player, side)
        assert asked.decision is not None
        await app.decisions.decide(gm, "approve", asked.decision.decision_id)
        kind, name = SIDES[side]
        for k in range(MEN):
            await app.rosters.roster_add(player, f"{name} {k + 1}", kind)
    imported = await app.maps.map_import(gm, "heavy.yaml", heavy_map(tuple(SIDES)))
    assert imported.cards[0].title == "Map imported", imported.cards[0].description
    await app.games.game_start(gm)
    for n, user in enumerate(players.values(), start=1):
        await app.maps.deploy(caller(fake, user, asking.channel, n))
    shooter, side = await first_to_act(app, asking)
    target = f"{SIDES['french' if side == 'british' else 'british'][1]} 1"
    await app.store.db.close()
    return Setup(rolling, importing, asking, shooter, target, players[side])


async def first_to_act(app: Any, table: Table) -> tuple[str, str]:
    """The man whose turn it is in ``table``'s battle, and his side."""
    from sqlalchemy import select

    from bot.store.schema import Campaign, Game
    from rules import get_engine
    from tests.orm import orm

    engine = get_engine("sharpe")
    async with orm(app.store.db) as s:
        game = await s.scalar(select(Game).join(Campaign).where(Campaign.channel_id == table.channel.id))
        assert game is not None
        state = engine.load_state(game.state)
    active = next(c for c in state.characters if c.name == state.active)
    return active.name, active.side


async def answered(fake: FakeDiscord, inter: FakeInteraction) -> tuple[list[str], str]:
    """The titles of the answer to ``inter`` (none if it never came), and its first description."""
    try:
        result = await fake._result(inter, HEAVY_TIMEOUT_S)
    except TimeoutError:  # deferred, and not answered in the fake's minute
        return [], ""
    return [str(t) for t in result.titles], str((result.embeds or [{}])[0].get("description") or "")[:200]


async def keep_importing(
    fake: FakeDiscord, cdn: AttachmentHost, setup: Setup, heavy: Heavy, data: bytes, until: asyncio.Event
) -> None:
    n = 0
    while not until.is_set():
        n += 1
        heavy.imports_sent += 1
        inter = await send_slash_with_files(
            fake,
            cdn,
            setup.importing.gm,
            "map import",
            at=setup.importing.channel,
            file=Upload(f"heavy-{n}.yaml", data),
        )
        titles, said = await answered(fake, inter)
        if titles == ["Map imported"]:
            heavy.imports += 1
        elif titles:
            heavy.refused.append(f"/map import: {said}")
            await asyncio.sleep(REFUSED_PAUSE_S)
        else:
            heavy.unanswered += 1


async def keep_asking(fake: FakeDiscord, setup: Setup, heavy: Heavy, until: asyncio.Event) -> None:
    action = f'sharpe shoot shooter:"{setup.shooter}" target:"{setup.target}"'
    while not until.is_set():
        heavy.odds_sent += 1
        inter = await fake.send_slash(setup.side_player, "odds", at=setup.asking.channel, action=action)
        titles, said = await answered(fake, inter)
        if titles and titles != ["Not done"]:
            heavy.odds += 1
        elif titles:
            heavy.refused.append(f"/odds: {said}")
            await asyncio.sleep(REFUSED_PAUSE_S)
        else:
            heavy.unanswered += 1


async def measure(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    async with AsyncExitStack() as stack:
        fake = await stack.enter_async_context(MeasuringDiscord(response_deadline=30))
        cdn = await stack.enter_async_context(AttachmentHost())
        db_path = folder / "bench.sqlite3"
        seeding = time.perf_counter()
        setup = await seed(db_path, fake, args.channels)
        print(f"seeded {args.channels + 2} campaigns in {time.perf_counter() - seeding:.1f} s", file=sys.stderr)
        log = folder / "bot.log"
        trace = folder / "bot.trace" if args.trace else None
        process = launch(["bot", "run", "--db", str(db_path)], bot_env(fake, folder / "bot-data"), log, trace)
        stack.push_async_callback(stop, process)
        startup = await wait_ready(fake, process, log)
        data = heavy_map(tuple(SIDES))
        rng = random.Random(5)

        sent = itertools.count()

        async def roll(_: int) -> FakeInteraction:
            table = setup.rolling[next(sent) % len(setup.rolling)]
            user = (table.red, table.blue, table.gm)[rng.randrange(3)]
            return await fake.send_slash(user, "roll", at=table.channel, dice="2d6")

        quiet: Phase | None = None
        loaded: Phase | None = None
        heavy = Heavy()
        seconds = args.seconds / args.rounds
        with steady_generator():
            measuring_from = time.monotonic()
            if args.warmup > 0:
                await drive(fake, "warm-up", roll, rate=args.rate, seconds=args.warmup)
            for _ in range(args.rounds):
                part = await timed(process.pid, drive(fake, "quiet", roll, rate=args.rate, seconds=seconds))
                quiet = combine(quiet, part)
                until = asyncio.Event()
                firing = [
                    asyncio.create_task(keep_importing(fake, cdn, setup, heavy, data, until))
                    for _ in range(args.imports)
                ]
                firing.append(asyncio.create_task(keep_asking(fake, setup, heavy, until)))
                await asyncio.sleep(args.lead)  # the heavy work under way before the rolls are measured
                part = await timed(process.pid, drive(fake, "loaded", roll, rate=args.rate, seconds=seconds))
                loaded = combine(loaded, part)
                until.set()  # what is in flight is answered before the next quiet stretch
                _, late = await asyncio.wait(firing, timeout=DRAIN_S)
                for task in late:
                    task.cancel()
                await asyncio.gather(*late, return_exceptions=True)
        assert quiet is not None and loaded is not None
        memory = peak_rss_mb(process.pid)
        steps = [p for p in read_trace(trace) if p.start >= measuring_from] if trace is not None else []
        fake.take_breaches()
    return report(quiet, loaded, heavy, startup, memory, steps)


def report(
    quiet: Phase, loaded: Phase, heavy: Heavy, startup: float, memory: float, steps: list[Any]
) -> dict[str, Any]:
    rows = [quiet.row(), loaded.row()]
    print(
        f"\n{'/roll in other channels':<28} {'sent':>6} {'ok':>6} {'err':>4} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}"
    )
    for row in rows:
        print(
            f"{row['phase']:<28} {row['sent']:>6} {row['answered']:>6} {row['errors']:>4} "
            f"{row['p50_ms']:>8.1f} {row['p95_ms']:>8.1f} {row['p99_ms']:>8.1f}"
        )
    ratio = loaded.percentile(0.99) / quiet.percentile(0.99) if quiet.latencies else float("nan")
    print(f"\np99 loaded / quiet: {ratio:.2f}x (target: within 1.5x)")
    print(
        f"heavy channels, while loaded: {heavy.imports} of {heavy.imports_sent} heaviest map imports and "
        f"{heavy.odds} of {heavy.odds_sent} /odds answered, {len(heavy.refused)} refused, {heavy.unanswered} unanswered"
        + (f" (first refusal: {heavy.refused[0]})" if heavy.refused else "")
    )
    print(f"bot: start-up {startup:.2f} s, peak memory {memory:.1f} MB")
    if steps:
        for line in explain(loaded.answered, steps):
            print(f"loaded /roll: {line}")
    longest = sorted((p for p in steps if p.kind == "step"), key=step_cpu_s, reverse=True)[:3]
    for step in longest:
        print(f"a long step of the event loop: {1000 * step_cpu_s(step):.0f} ms CPU, {step.detail[:160]}")
    errors = quiet.errors + loaded.errors
    print(f"errors: {len(errors)}" + (f" (first: {errors[0]})" if errors else ""))
    return {
        "rows": rows,
        "ratio": ratio,
        "imports": heavy.imports,
        "imports_sent": heavy.imports_sent,
        "odds": heavy.odds,
        "odds_sent": heavy.odds_sent,
        "refused": heavy.refused,
        "unanswered": heavy.unanswered,
        "errors": len(errors),
        "longest_steps_ms": [1000 * step_cpu_s(s) for s in longest],
        "memory_mb": memory,
        "startup_s": startup,
    }


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--channels", type=int, default=20, help="the other channels, whose players roll")
    parser.add_argument("--rate", type=float, default=20.0, help="/roll a second, over the other channels")
    parser.add_argument("--seconds", type=float, default=40.0, help="the quiet stretches' time, and the loaded ones'")
    parser.add_argument("--rounds", type=int, default=4, help="quiet and loaded take turns this many times")
    parser.add_argument("--imports", type=int, default=8, help="heaviest map imports in flight at once")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of /roll first, not measured")
    parser.add_argument("--lead", type=float, default=3.0, help="seconds between a stretch's heavy work and its rolls")
    parser.add_argument("--smoke", action="store_true", help="4 channels, 10/s, 1 round of 2 s each, 1 import at once")
    parser.add_argument("--trace", action="store_true", help="run the bot under bench.traced; print its longest steps")
    parser.add_argument("--keep", type=Path, help="leave the database, log and trace in this folder")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.smoke:
        args.channels, args.rate, args.seconds, args.rounds, args.imports = 4, 10.0, 2.0, 1, 1
        args.warmup, args.lead = 0.5, 1.0
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    return args


async def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse(argv)
    with tempfile.TemporaryDirectory(prefix="skirmish-bounded-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        figures = await measure(args, folder)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, default=str))
    return figures


if __name__ == "__main__":
    asyncio.run(main())
