"""A game master importing the heaviest legal map, several copies at once, holds up no other
channel: the files are read and checked off the bot's event loop (``bot/app/map_checks.py``), and
/campaign info in another channel is answered meanwhile.

The bot runs under :mod:`bench.traced`, which records every step of its event loop that took 5 ms
or more with the CPU time the loop's thread spent in it: a figure a loaded machine hardly changes.
No step may hold the loop for a quarter of a second of its own work; reading and checking such a
file on the loop was one step of half a second to a second and a half.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bench.heavy_map import heavy_map
from bench.tail import read_trace, step_cpu_s
from tests.e2e.attachments import AttachmentHost, Upload, send_slash_with_files
from tests.e2e.conftest import REPO, BotProcess
from tests.e2e.fake_discord import FakeDiscord, FakeInteraction, InteractionResult
from tests.e2e.seeding import caller, new_table, seeded_app

#: The most CPU one step of the event loop may take (seconds): generous beside the few
#: milliseconds a command's step takes, short of the import's half second or more.
HELD_AT_MOST_S = 0.25
IMPORTS_AT_ONCE = 4
SETTLE_S = 300.0


class TracedBot(BotProcess):
    """The real bot under :mod:`bench.traced`, its event loop's steps written to ``trace``."""

    def __init__(self, fake: FakeDiscord, folder: Path) -> None:
        self.trace = folder / "bot.trace"
        super().__init__(fake, folder, {"BENCH_TRACE": str(self.trace)})

    def _launch(self) -> subprocess.Popen[bytes]:
        self.starts += 1
        with open(self.log_path, "ab") as log:
            return subprocess.Popen(
                [sys.executable, "-m", "bench.traced", "bot", "run", "--db", str(self.db_path)],
                cwd=REPO,
                env=self.env(),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )


@pytest_asyncio.fixture
async def traced_bot(fake: FakeDiscord, tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[TracedBot]:
    handle = TracedBot(fake, tmp_path / "bot")
    request.node._skirmish_bot = handle
    try:
        await handle.start(timeout=120)
        yield handle
    finally:
        await handle.stop()
    if "Traceback" in handle.log_text():
        pytest.fail(f"the bot's log holds a traceback:\n{handle.log_tail(120)}", pytrace=False)


async def settled(fake: FakeDiscord, inter: FakeInteraction) -> InteractionResult:
    return await fake._result(inter, SETTLE_S)


async def test_heavy_map_imports_leave_the_event_loop_to_other_channels(
    fake: FakeDiscord, traced_bot: TracedBot
) -> None:
    data = heavy_map(("british", "french"))
    importing, asking = new_table(fake, 0), new_table(fake, 1)
    app = await seeded_app(traced_bot.db_path)
    gm = caller(fake, importing.gm, importing.channel, 0)
    await app.campaign_new(gm, "Heavy maps", "sharpe", "map")
    await app.campaign_new(caller(fake, asking.gm, asking.channel, 0), "Elsewhere", "ssg", "table")
    await app.store.db.close()

    async with AttachmentHost() as cdn:
        started = time.monotonic()
        imports = [
            await send_slash_with_files(
                fake, cdn, importing.gm, "map import", at=importing.channel, file=Upload(f"heavy-{n}.yaml", data)
            )
            for n in range(IMPORTS_AT_ONCE)
        ]
        waiting = asyncio.gather(*(settled(fake, inter) for inter in imports))
        infos = []
        while not waiting.done() and time.monotonic() - started < SETTLE_S:
            infos.append(await fake.send_slash(asking.gm, "campaign info", at=asking.channel))
            await asyncio.sleep(0.3)
        imported = await waiting
    for _ in range(60):  # once one is answered in time, every step before it is in the trace
        last = await settled(fake, await fake.send_slash(asking.gm, "campaign info", at=asking.channel))
        if last.titles:
            break

    steps = [p for p in read_trace(traced_bot.trace) if p.kind == "step" and p.start >= started]
    longest = max(steps, key=step_cpu_s, default=None)
    held = step_cpu_s(longest) if longest is not None else 0.0
    assert held < HELD_AT_MOST_S, f"a step held the event loop for {1000 * held:.0f} ms of CPU: {longest}"

    assert [r.titles for r in imported] == [["Map imported"]] * IMPORTS_AT_ONCE
    answered = [await settled(fake, inter) for inter in infos]
    assert answered and all(r.titles == ["Campaign: Elsewhere"] for r in answered)
