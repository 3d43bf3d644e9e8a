"""Fixtures for the end-to-end tests: the fake Discord, and the real bot process talking to it.

* ``fake``: a :class:`FakeDiscord` on a free loopback port. At teardown the test fails if the bot
  (or the test) left any breach of Discord's rules in ``fake.breaches``. Options for one test:
  ``@pytest.mark.fake_discord(heartbeat_interval_ms=250, response_deadline=0.5, ...)``. Its
  deadline for a first response is :data:`RESPONSE_DEADLINE_IN_TESTS`, not Discord's 3 seconds:
  a test checks what the bot answers, and must pass on a loaded machine where the bot's process may
  wait seconds for a core (how fast it answers is measured by ``python -m bench.latency``).
* ``bot``: the real bot (``python -m bot run --db <tmp>``) as a subprocess pointed at ``fake``
  through ``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL``; ready once it has synced its commands
  and identified. ``await bot.restart()`` kills it and starts it again on the same database and
  data folder. At teardown it is stopped (SIGTERM, then SIGKILL) and the test fails if its log
  holds a traceback. Extra environment for one test: ``@pytest.mark.bot_env(DEV_GUILD_ID="{guild}")``
  (``{guild}`` and ``{channel}`` stand for the fake's default guild and channel ids).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from tests.e2e.fake_discord import FakeDiscord

#: The fake's deadline for an interaction's first response in the tests (Discord's is 3 seconds,
#: ``FakeDiscord``'s default). A test waits this long for an answer before it fails.
RESPONSE_DEADLINE_IN_TESTS = 30.0

REPO = Path(__file__).resolve().parents[2]
#: Settings of the developer's own shell that must not leak into the bot under test.
SCRUBBED = (
    "DISCORD_TOKEN",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "DEV_GUILD_ID",
    "DATABASE_URL",
    "SKIRMISH_GM_DATA",
    "XDG_DATA_HOME",
    "LOG_LEVEL",
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "fake_discord(**options): keyword arguments for this test's FakeDiscord")
    config.addinivalue_line("markers", "bot_env(**env): extra environment variables for the bot process")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Any:
    """A failing test shows the end of the bot's log and the fake's breaches beside its traceback."""
    outcome = yield
    report = outcome.get_result()
    if not report.failed or report.when != "call":
        return
    handle: BotProcess | None = getattr(item, "_skirmish_bot", None)
    if handle is not None:
        report.sections.append(("skirmish-gm log (end)", handle.log_tail()))
    fake: FakeDiscord | None = getattr(item, "_fake_discord", None)
    if fake is not None and fake.breaches:
        report.sections.append(("fake Discord breaches", "\n".join(str(b) for b in fake.breaches)))


@pytest_asyncio.fixture
async def fake(request: pytest.FixtureRequest) -> AsyncIterator[FakeDiscord]:
    marker = request.node.get_closest_marker("fake_discord")
    options = {"response_deadline": RESPONSE_DEADLINE_IN_TESTS, **(marker.kwargs if marker else {})}
    discord = FakeDiscord(**options)
    await discord.start()
    request.node._fake_discord = discord
    try:
        yield discord
    finally:
        await discord.stop()
    if discord.breaches:
        listed = "\n".join(f"  {b}" for b in discord.breaches)
        pytest.fail(f"{len(discord.breaches)} breach(es) of Discord's rules:\n{listed}", pytrace=False)


class BotProcess:
    """The real bot, run as ``python -m bot run`` against the fake Discord."""

    def __init__(self, fake: FakeDiscord, folder: Path, extra_env: dict[str, str] | None = None) -> None:
        self.fake = fake
        self.folder = folder
        self.db_path = folder / "skirmish.sqlite3"
        self.data_dir = folder / "data"
        self.log_path = folder / "bot.log"
        self.extra_env = dict(extra_env or {})
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        folder.mkdir(parents=True, exist_ok=True)

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
        env.update(
            {
                "DISCORD_TOKEN": self.fake.token,
                "DISCORD_API_BASE": self.fake.api_base,
                "DISCORD_GATEWAY_URL": self.fake.gateway_url,
                "SKIRMISH_GM_DATA": str(self.data_dir),
                "LOG_LEVEL": "INFO",
                "PYTHONUNBUFFERED": "1",
            }
        )
        env.update(self.extra_env)
        return env

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    async def start(self, timeout: float = 120.0) -> None:
        """Start the bot; return once it has synced its commands (now or before) and identified."""
        sessions_before = len(self.fake.sessions)
        self.process = self._launch()
        deadline = time.monotonic() + timeout
        while True:
            session = self.fake.session
            synced = bool(self.fake.global_commands or any(self.fake.guild_commands.values()))
            if len(self.fake.sessions) > sessions_before and session is not None and session.ready and synced:
                return
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the bot exited with {self.process.returncode} before it was ready:\n{self.log_tail()}"
                )
            if time.monotonic() > deadline:
                raise TimeoutError(f"the bot was not ready after {timeout:g} s:\n{self.log_tail()}")
            await asyncio.sleep(0.02)

    def _launch(self) -> subprocess.Popen[bytes]:
        """``python -m bot run`` with its output appended to the log (quick: it returns at once)."""
        self.starts += 1
        with open(self.log_path, "ab") as log:
            log.write(f"----- start {self.starts} -----\n".encode())
            log.flush()
            return subprocess.Popen(
                [sys.executable, "-m", "bot", "run", "--db", str(self.db_path)],
                cwd=REPO,
                env=self.env(),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )

    async def stop(self, grace: float = 20.0) -> int | None:
        """SIGTERM, then SIGKILL after ``grace`` seconds; the exit code."""
        process = self.process
        if process is None:
            return None
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + grace
            while process.poll() is None and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            if process.poll() is None:
                process.kill()
                while process.poll() is None:
                    await asyncio.sleep(0.02)
        return process.returncode

    async def restart(self) -> None:
        """Kill the bot and start it again on the same database and data folder."""
        await self.stop()
        await self.start()

    def log_text(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def log_tail(self, lines: int = 80) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])


@pytest_asyncio.fixture
async def bot(fake: FakeDiscord, tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[BotProcess]:
    marker = request.node.get_closest_marker("bot_env")
    ids = {"guild": fake.guild.id, "channel": fake.channel.id}
    extra = {key: str(value).format(**ids) for key, value in (marker.kwargs if marker else {}).items()}
    handle = BotProcess(fake, tmp_path / "bot", extra)
    request.node._skirmish_bot = handle
    try:
        await handle.start()
        yield handle
    finally:
        await handle.stop()
    text = handle.log_text()
    if "Traceback" in text:
        pytest.fail(f"the bot's log holds a traceback:\n{handle.log_tail(120)}", pytrace=False)
