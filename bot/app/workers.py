"""Worker processes for work that holds the GIL: a small pool started lazily with ``spawn``, at a
lower CPU priority than the bot, that leaves when the bot does and is started again if it dies.

The battlefield's pictures are drawn in one (``bot/app/pictures.py``), and /odds runs its
enumerations and simulations in another, so neither a drawing nor a second or two of Python
arithmetic holds up another command's answer.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import ParamSpec, TypeVar

log = logging.getLogger("skirmish_gm.workers")

#: How much lower a worker's CPU priority is than the bot's (os.nice).
WORKER_NICENESS = 10
#: How often a worker looks whether the bot that started it is still there.
PARENT_CHECK_S = 1.0

P = ParamSpec("P")
T = TypeVar("T")


def leave_with(parent: int, niceness: int = WORKER_NICENESS) -> None:
    """In a worker: yield the CPU to the bot, and exit when the bot that started it is gone (a bot
    killed outright would otherwise leave its worker waiting for work for ever)."""
    os.nice(niceness)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os._exit(0)

    threading.Thread(target=watch, name="leave-with-the-bot", daemon=True).start()


class WorkerPool:
    """At most ``workers`` processes, started on the first job (or :meth:`warm`)."""

    def __init__(self, name: str, workers: int = 1, niceness: int = WORKER_NICENESS) -> None:
        self.name = name
        self.workers = workers
        self.niceness = niceness
        self._pool: ProcessPoolExecutor | None = None

    def executor(self) -> ProcessPoolExecutor:
        """The pool, started now if it was not."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=leave_with,
                initargs=(os.getpid(), self.niceness),
            )
        return self._pool

    @property
    def started(self) -> bool:
        return self._pool is not None

    def warm(self) -> None:
        """Start the processes now, so the first job does not wait for them to import."""
        self.executor().submit(int)

    def close(self) -> None:
        """Stop the workers; a job still running is abandoned (its caller gets CancelledError)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args)`` in a worker; ``fn`` and its arguments must pickle (a module's function,
        plain data). A pool whose process died is replaced and the job tried once more."""
        loop = asyncio.get_running_loop()
        call = functools.partial(fn, *args, **kwargs)
        try:
            return await loop.run_in_executor(self.executor(), call)
        except BrokenProcessPool:
            log.warning("the %s worker died: starting another", self.name)
            self.close()
            return await loop.run_in_executor(self.executor(), call)
