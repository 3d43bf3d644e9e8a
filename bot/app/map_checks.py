"""Where a map is read and checked: a small one where it is asked for, a large one in the maps'
worker process, so that no import or draft holds the event loop (and every other channel's
answers) for the second a map of 500 areas takes.

The work itself is :mod:`bot.app.map_work`'s; a command waiting for it longer than Discord allows
is deferred, as one waiting for its picture is.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from bot.app import map_work
from bot.app.map_work import Change, CheckedMap, Problems, Refused
from bot.app.replies import Refusal, Reply
from bot.app.waiting import WHILE_WAITING
from bot.app.workers import WorkerPool
from bot.app.yaml_format import MAX_FILE_BYTES
from rules.battlefield import MapData

#: Every App of a process shares one pool, started on the first large map.
POOL = WorkerPool("maps")
#: A map file of at most this many bytes, or a kept map of at most this many points, is read where
#: it is asked for: a few milliseconds (the shipped maps are under 2.5 KiB and 150 points).
INLINE_BYTES = 6 * 1024
INLINE_POINTS = 300

T = TypeVar("T")


#: Whether this command's answer is already deferred if late: one timer, not two racing to defer.
_ANSWERING_LATER: ContextVar[bool] = ContextVar("answering_later", default=False)


@asynccontextmanager
async def answer_later() -> AsyncIterator[None]:
    """For as long as a command waits on a map's work (or for its channel, behind another's): its
    answer deferred if it is late, as one waiting for its picture is."""
    while_working = WHILE_WAITING.get()
    if while_working is None or _ANSWERING_LATER.get():
        yield
        return
    token = _ANSWERING_LATER.set(True)
    try:
        async with while_working(Reply()):
            yield
    finally:
        _ANSWERING_LATER.reset(token)


def group_of(campaign_id: int) -> str:
    """Whose turn a map's work waits for in the worker: a campaign's, in turn with the others'."""
    return f"campaign {campaign_id}"


async def _run(inline: bool, group: str, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` here when ``inline``, else in the worker in ``group``'s turn (the command
    deferred if it waits long)."""
    if inline:
        return fn(*args)
    async with answer_later():
        return await POOL.run(fn, *args, group=group)


def points_in(data: Any) -> int:
    """How many points a kept map (plain data) holds: what reading it costs. Anything unexpected
    counts as large, so that reading it refuses it in the worker."""
    if data is None:
        return 0
    try:
        total = sum(len(points) for points in data.get("zones", {}).values())
        for feature in data.get("features") or []:
            total += len(feature.get("area") or feature.get("line") or []) + len(feature.get("openings") or [])
        return total
    except (AttributeError, TypeError):
        return INLINE_POINTS + 1


async def draft(ruleset: str, house_rules: Mapping[str, Any] | None, data: Any, *, group: str) -> CheckedMap:
    """A campaign's kept draft, checked by its rules as they are now; a Refusal if it no longer fits."""
    found = await _run(points_in(data) <= INLINE_POINTS, group, map_work.draft_checked, ruleset, house_rules, data)
    if isinstance(found, Refused):
        raise Refusal(found.sentence)
    return found


async def edited(
    ruleset: str,
    house_rules: Mapping[str, Any] | None,
    current: Any,
    change: Change,
    *,
    group: str,
    small: bool = True,
) -> tuple[CheckedMap, str]:
    """The draft ``current`` changed by ``change`` and checked (``small``: the change adds little)."""
    inline = small and points_in(current) <= INLINE_POINTS
    found = await _run(inline, group, map_work.edited, ruleset, house_rules, current, change)
    if isinstance(found, Refused):
        raise Refusal(found.sentence)
    return found


async def imported(
    ruleset: str, house_rules: Mapping[str, Any] | None, data: bytes, *, group: str
) -> CheckedMap | Problems:
    """A map file read and checked; its size is held to the limit before anything reads it."""
    if len(data) > MAX_FILE_BYTES:
        raise Refusal(f"The file is {len(data) // 1024} KiB; the most taken is {MAX_FILE_BYTES // 1024} KiB.")
    found = await _run(len(data) <= INLINE_BYTES, group, map_work.imported, ruleset, house_rules, data)
    if isinstance(found, Refused):
        raise Refusal(found.sentence)
    return found


async def exported(the_map: MapData, header: Sequence[str], *, group: str) -> bytes:
    points = sum(len(f.points) for f in the_map.features)
    return await _run(points <= INLINE_POINTS, group, map_work.exported, the_map, header)


def close() -> None:
    """Stop the worker (the bot is closing)."""
    POOL.close()
