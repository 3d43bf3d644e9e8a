"""The pace scheduler: a background task of the bot that keeps the turn deadlines.

Every poll it brings the deadlines in step with the games, applies the timeouts that are due and
posts the reminders that are due, each in the campaign's channel through the bot's REST client.
All of its state is in the database (see :mod:`bot.app.pace`), so it starts where it left off:
its first tick, at once on start, catches up on whatever fell due while the bot was down.

Time comes from ``app.pace_clock``, so tests drive :meth:`PaceScheduler.tick` with a fake clock
and never sleep; the poll interval follows the length of a deadline hour (30 s for a real hour,
a fraction of a second for a test bot whose hour is a few seconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from bot.adapter.owed import Post
from bot.app.pace import PaceNotice

if TYPE_CHECKING:
    from bot.app.service import App

log = logging.getLogger("skirmish_gm.scheduler")

POLL_MAX = 30.0
POLL_MIN = 0.2


def poll_interval(hour: timedelta) -> float:
    """How often to look: 1/120 of a deadline hour (30 s for a real one), at least 0.2 s."""
    return max(POLL_MIN, min(POLL_MAX, hour.total_seconds() / 120))


class PaceScheduler:
    def __init__(self, app: App, post: Post, *, poll: float | None = None) -> None:
        self.app = app
        self.post = post
        self.poll = poll if poll is not None else poll_interval(app.hour_length())
        self._task: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()

    async def tick(self) -> list[PaceNotice]:
        """One look: sync, then timeouts, then reminders. Returns what was posted (or tried)."""
        now = self.app.pace_clock()
        sent: list[PaceNotice] = []
        try:
            await self.app.pace.sync_deadlines(now)
        except Exception:
            log.exception("could not bring the deadlines in step with the games")
        for deadline_id in await self._ids(self.app.pace.due_timeouts, now):
            try:
                notice = await self.app.apply_timeout(deadline_id, now)
            except Exception:
                log.exception("could not apply the timeout of deadline %s", deadline_id)
                continue
            if notice is None:
                continue
            sent.append(notice)
            try:
                await self.post(notice.channel_id, notice.reply)
            except Exception as exc:
                log.warning(
                    "deadline %s passed, but its message could not be posted in %s: %r",
                    deadline_id,
                    notice.channel_id,
                    exc,
                )
        for deadline_id in await self._ids(self.app.pace.due_reminders, now):
            try:
                notice = await self.app.pace.send_reminder(deadline_id, now)
            except Exception:
                log.exception("could not write the reminder of deadline %s", deadline_id)
                continue
            if notice is None:
                continue
            try:
                await self.post(notice.channel_id, notice.reply)
            except Exception as exc:
                log.warning("could not post the reminder of deadline %s (trying again later): %r", deadline_id, exc)
                await self.app.pace.release_reminder(deadline_id, now)
                continue
            sent.append(notice)
        return sent

    async def _ids(self, query: Callable[..., Awaitable[list[int]]], now: Any) -> list[int]:
        try:
            return await query(now)
        except Exception:
            log.exception("could not read the due deadlines")
            return []

    async def run(self) -> None:
        """Tick until stopped; a failed tick is logged and the next one comes as usual."""
        log.info("pace scheduler started (every %.1f s)", self.poll)
        while not self._stopping.is_set():
            try:
                await self.tick()
            except Exception:
                log.exception("the pace scheduler's tick failed")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), self.poll)

    def start(self) -> None:
        if self._task is None:
            self._stopping.clear()
            self._task = asyncio.create_task(self.run(), name="pace-scheduler")

    async def stop(self) -> None:
        """Let the tick in progress finish (its transactions are short), then stop."""
        task, self._task = self._task, None
        if task is None:
            return
        self._stopping.set()
        try:
            await asyncio.wait_for(task, timeout=10)
        except (TimeoutError, asyncio.CancelledError):
            task.cancel()
