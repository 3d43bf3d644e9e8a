"""Pictures of the battlefield: drawn off the event loop, after the command's transaction, and kept
by what they show.

A command that shows the map puts a :class:`~bot.app.replies.PictureOrder` on its :class:`Reply` (the view to draw
and the card that shows it). :meth:`Pictures.attach` draws it once the command's transaction is
over (so no lock is held while Pillow works), in a worker process, and keeps the PNG by its key: a
game's id, version and focus (a game's version changes with every write of its state), or a map
draft's content. A second ``/map show`` of the same game at the same version costs nothing.

A process, not a thread: most of a drawing is Python holding the GIL, and in a thread the 70-150
ms it takes stalled every other command's answer (the benchmark's p99 went from 1.2 to 15 times
the floor with a quarter of its campaigns on the map). The worker is started with ``spawn`` (the
bot has threads a fork would copy mid-lock), once, and started again if it ever dies or is stopped
(a picture is given :data:`PICTURE_SECONDS`; one game's pictures never hold up another's).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from contextlib import AbstractAsyncContextManager, nullcontext
from typing import ParamSpec

from bot.app.replies import PictureOrder, Refusal, Reply
from bot.app.waiting import PICTURE_FOLLOWS, WHILE_WAITING
from bot.app.workers import WorkerPool
from bot.render.battlefield import draw_field
from rules.battlefield import FieldView, Terrain

log = logging.getLogger("skirmish_gm.pictures")

#: The name of the attached picture, as the card that shows it names it.
MAP_PICTURE = "map.png"
#: Pictures kept at the most (one is a couple of hundred kilobytes).
CAPACITY = 32
P = ParamSpec("P")

#: Seconds a picture may take to draw (70-150 ms on an idle machine) before its worker is stopped
#: and the reply goes without it.
PICTURE_SECONDS = 20.0
#: The process's one drawing worker (every App in a process shares it: tests build many).
DRAWING = WorkerPool("drawing", seconds=PICTURE_SECONDS, preload=("bot.render.battlefield",))


class Pictures:
    """The pictures this process drew lately, least recently used dropped first."""

    def __init__(
        self,
        capacity: int = CAPACITY,
        drawer: Callable[[FieldView, Terrain], bytes] = draw_field,
        *,
        in_process: bool | None = None,
    ) -> None:
        """``in_process``: draw in a worker process (the default for :func:`draw_field`), else in a
        thread (a drawer a test gives, which need not be picklable)."""
        self.capacity = capacity
        self.drawer = drawer
        self.in_process = drawer is draw_field if in_process is None else in_process
        self._kept: OrderedDict[tuple[Hashable, ...], bytes] = OrderedDict()
        self._drawing: dict[tuple[Hashable, ...], asyncio.Future[bytes]] = {}

    def warm(self) -> None:
        """Start the worker now (it imports Pillow and the geometry: about a second), so the first
        picture a player asks for is not the one that waits for it."""
        if self.in_process:
            DRAWING.warm()

    def close(self) -> None:
        if self.in_process:
            DRAWING.close()

    async def _draw(self, order: PictureOrder) -> bytes:
        if self.in_process:
            return await DRAWING.run(self.drawer, order.view, order.terrain, group=order.group)
        return await asyncio.get_running_loop().run_in_executor(None, self.drawer, order.view, order.terrain)

    async def png(self, order: PictureOrder) -> bytes:
        """The picture ``order`` asks for: kept, being drawn for another command, or drawn now."""
        kept = self._kept.get(order.key)
        if kept is not None:
            self._kept.move_to_end(order.key)
            return kept
        drawing = self._drawing.get(order.key)
        if drawing is not None:
            return await asyncio.shield(drawing)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._drawing[order.key] = future
        try:
            data = await self._draw(order)
        except Exception as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: a command waiting on it gets it, nobody else is told
            raise
        except BaseException:
            future.cancel()
            raise
        finally:
            self._drawing.pop(order.key, None)
        future.set_result(data)
        self._kept[order.key] = data
        while len(self._kept) > self.capacity:
            self._kept.popitem(last=False)
        return data

    async def attach(self, reply: Reply) -> Reply:
        """The reply with its ordered picture attached. A picture that cannot be drawn is left out
        (the log gets why): the command it illustrates has already been done."""
        order, reply.picture = reply.picture, None
        if order is None:
            return reply
        try:
            async with self._waiting(reply, order):
                data = await self.png(order)
        except Refusal as busy:  # too many pictures of one game at once, or one that took too long
            log.warning("the map was not drawn: %s", busy.message)
            return reply
        except Exception as exc:
            log.error("drawing the map failed", exc_info=exc)
            return reply
        reply.files.append((MAP_PICTURE, data))
        if 0 <= order.card < len(reply.cards):
            reply.cards[order.card].image = MAP_PICTURE
        return reply

    def _waiting(self, reply: Reply, order: PictureOrder) -> AbstractAsyncContextManager[object]:
        """What the front end does while ``reply`` waits for a picture not kept already."""
        while_waiting = WHILE_WAITING.get()
        if while_waiting is None or order.key in self._kept:
            return nullcontext()
        return while_waiting(reply)

    def drawn(self, command: Callable[P, Awaitable[Reply]], *, follows: bool = False) -> Callable[P, Awaitable[Reply]]:
        """``command`` with the picture its reply orders attached; with ``follows`` (an action), left
        for the front end to add after the answer when it says so (:data:`PICTURE_FOLLOWS`) and the
        picture is not kept already."""

        async def run(*args: P.args, **kwargs: P.kwargs) -> Reply:
            reply = await command(*args, **kwargs)
            order = reply.picture
            if follows and order is not None and order.key not in self._kept and PICTURE_FOLLOWS.get():
                return reply
            return await self.attach(reply)

        run.__doc__ = command.__doc__
        return run

    def __len__(self) -> int:
        return len(self._kept)
