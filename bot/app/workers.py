"""Worker processes for work that holds the GIL: a small pool started lazily with ``spawn``, at a
lower CPU priority than the bot, that leaves when the bot does.

The battlefield's pictures are drawn in one (``bot/app/pictures.py``), and /odds runs its
enumerations and simulations in another, so neither a drawing nor a second or two of Python
arithmetic holds up another command's answer.

Nothing a player starts may hold a worker for ever, nor make another group wait behind it:

* every job has a time budget; a job still running at its budget plus a grace is stopped (its
  process killed; the next job gets a new one) and its caller gets :class:`OutOfTime`, a sentence;
* jobs are queued by group (a channel, a game), one at a time per group, and the groups are served
  in turn: a group's tenth job waits for its own nine, never another group's;
* a group may have only a few jobs waiting: past them it is refused with :class:`Overloaded`.

The processes are the pool's own (not a ``ProcessPoolExecutor``, which cannot stop one job): each
serves jobs over a pipe, says when it has one (so its budget does not count the seconds a new process
takes to start), and sends back the result or the exception.
"""

from __future__ import annotations

import asyncio
import importlib
import itertools
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from bot.app.replies import Refusal

log = logging.getLogger("skirmish_gm.workers")

#: How much lower a worker's CPU priority is than the bot's (os.nice).
WORKER_NICENESS = 10
#: How often a worker looks whether the bot that started it is still there.
PARENT_CHECK_S = 1.0
#: The seconds a job may run when neither its pool nor its caller says.
JOB_SECONDS = 30.0
#: Seconds past its budget before a job is stopped: a job that keeps its own budget (/odds) is
#: answering by then, and a loaded machine may have slowed it.
GRACE_S = 5.0
#: Seconds a worker may take to start and take its job (spawn and imports, on a loaded machine).
START_S = 60.0
#: Jobs one group may have waiting, besides the one being worked on.
WAITING_PER_GROUP = 3

OVERLOADED = "Too much is already being worked out for this channel: nothing was changed. Ask again in a moment."
OUT_OF_TIME = "That took more than {seconds:g} seconds to work out and was stopped: nothing was changed."

T = TypeVar("T")
#: Names the jobs run without a group, each a group of its own.
_ungrouped = itertools.count(1)


class Overloaded(Refusal):
    """The group already has :data:`WAITING_PER_GROUP` jobs waiting."""


class OutOfTime(Refusal):
    """The job outran its budget (and the grace): it was stopped and its worker replaced."""

    def __init__(self, seconds: float) -> None:
        super().__init__(OUT_OF_TIME.format(seconds=seconds))
        self.seconds = seconds


class WorkerDied(RuntimeError):
    """A worker died under a job twice running (a bug, or the machine out of memory)."""


def leave_with(parent: int, niceness: int = WORKER_NICENESS) -> None:
    """In a worker: yield the CPU to the bot, and exit when the bot that started it is gone (a bot
    killed outright would otherwise leave its worker waiting for work for ever)."""
    os.nice(niceness)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os._exit(0)

    threading.Thread(target=watch, name="leave-with-the-bot", daemon=True).start()


def serve(conn: Connection, parent: int, niceness: int, preload: Sequence[str]) -> None:
    """A worker process: jobs ``(fn, args)`` in, ``("started", None)`` then ``("done", result)`` or
    ``("failed", exception)`` out, until the pipe closes (the bot closed it, or is gone)."""
    leave_with(parent, niceness)
    for module in preload:
        importlib.import_module(module)
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        except Exception as exc:  # the job did not unpickle: the caller's bug, told to the caller
            if not _told(conn, ("failed", exc)):
                return
            continue
        if not _told(conn, ("started", None)):
            return
        try:
            answer: tuple[str, Any] = ("done", fn(*args))
        except Exception as exc:
            answer = ("failed", exc)
        if not _told(conn, answer):
            return


def _told(conn: Connection, message: tuple[str, Any]) -> bool:
    """``message`` sent to the bot; False when the bot is gone (the pipe broke: a bot killed or
    restarted meanwhile), which ends the worker quietly. A result or an exception that does not
    pickle is told as a failure instead."""
    try:
        try:
            conn.send(message)
        except (EOFError, OSError):
            raise
        except Exception as exc:
            conn.send(("failed", RuntimeError(f"{message[0]} with what cannot be sent back: {exc!r}")))
    except (EOFError, OSError):
        return False
    return True


class _Died(Exception):
    """The worker's pipe closed under a job: its process is gone."""


class _Worker:
    """One process and the parent's end of its pipe."""

    def __init__(self, pool: WorkerPool) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=serve,
            args=(child, os.getpid(), pool.niceness, pool.preload),
            name=f"skirmish-gm {pool.name} worker",
            daemon=True,
        )
        self.process.start()
        child.close()

    async def send(self, message: object, seconds: float) -> None:
        """In a thread: a job's data may outgrow the pipe while a new process is still starting."""
        try:
            async with asyncio.timeout(seconds):
                await asyncio.to_thread(self.conn.send, message)
        except (BrokenPipeError, ConnectionResetError, EOFError, OSError) as exc:
            raise _Died from exc

    async def receive(self, seconds: float) -> tuple[str, Any]:
        """The worker's next message; TimeoutError after ``seconds``."""
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        fd = self.conn.fileno()

        def readable() -> None:
            if not ready.done():
                ready.set_result(None)

        loop.add_reader(fd, readable)
        try:
            async with asyncio.timeout(seconds):
                await ready
        finally:
            loop.remove_reader(fd)
        try:  # in a thread: a picture's bytes may come in several writes of a niced process
            message: tuple[str, Any] = await asyncio.to_thread(self.conn.recv)
        except (EOFError, OSError) as exc:
            raise _Died from exc
        return message

    def kill(self) -> None:
        """Stop the process now; it is reaped in a thread, so the caller never waits on it."""
        self.process.kill()
        self.conn.close()
        threading.Thread(target=self.process.join, name="reap-a-worker", daemon=True).start()


@dataclass(eq=False)
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    group: str
    seconds: float
    future: asyncio.Future[Any]


@dataclass
class _Loop:
    """What the pool keeps for the event loop it serves (tests run many loops in one process)."""

    loop: asyncio.AbstractEventLoop
    waiting: OrderedDict[str, deque[_Job]] = field(default_factory=OrderedDict)
    running: set[str] = field(default_factory=set)
    tasks: dict[asyncio.Task[None], _Job] = field(default_factory=dict)


class WorkerPool:
    """At most ``workers`` processes, started on the first job (or :meth:`warm`); jobs run within
    ``seconds`` unless their caller says otherwise (see the module's docstring)."""

    def __init__(
        self,
        name: str,
        workers: int = 1,
        niceness: int = WORKER_NICENESS,
        *,
        seconds: float = JOB_SECONDS,
        grace: float = GRACE_S,
        waiting_per_group: int = WAITING_PER_GROUP,
        preload: Sequence[str] = (),
    ) -> None:
        self.name = name
        self.workers = workers
        self.niceness = niceness
        self.seconds = seconds
        self.grace = grace
        self.waiting_per_group = waiting_per_group
        self.preload = tuple(preload)
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._here: _Loop | None = None
        #: Counts the pool's closings: a job driven before the latest one is not tried again.
        self._epoch = 0

    @property
    def started(self) -> bool:
        return bool(self._idle or self._busy)

    @property
    def pids(self) -> list[int]:
        """The worker processes' ids (for a test, or an operator's ``ps``)."""
        return [w.process.pid for w in [*self._idle, *self._busy] if w.process.pid is not None]

    def warm(self) -> None:
        """Start the processes now, so the first job does not wait for them to import."""
        while len(self._idle) + len(self._busy) < self.workers:
            self._idle.append(_Worker(self))

    def close(self) -> None:
        """Stop the workers; a job still running or waiting is abandoned (its caller gets
        CancelledError)."""
        self._epoch += 1
        for worker in [*self._idle, *self._busy]:
            worker.kill()
        self._idle.clear()
        self._busy.clear()
        here, self._here = self._here, None
        if here is not None:
            for task, job in list(here.tasks.items()):
                task.cancel()
                job.future.cancel()
            for jobs in here.waiting.values():
                for job in jobs:
                    job.future.cancel()

    async def run(self, fn: Callable[..., T], *args: Any, group: str | None = None, seconds: float | None = None) -> T:
        """``fn(*args)`` in a worker; ``fn`` and its arguments must pickle (a module's function,
        plain data). ``group``'s jobs run one at a time, in turn with other groups' (without a group
        a job is a group of its own: never refused, run in its turn); a job running past ``seconds``
        (the pool's by default) and the grace is stopped with :class:`OutOfTime`. A worker that dies
        under a job is replaced and the job tried once more."""
        here = self._bound()
        key = group if group is not None else f"job {next(_ungrouped)}"
        queued = here.waiting.get(key)
        if queued is not None and len(queued) >= self.waiting_per_group:
            raise Overloaded(OVERLOADED)
        job = _Job(fn, args, key, self.seconds if seconds is None else seconds, here.loop.create_future())
        here.waiting.setdefault(key, deque()).append(job)
        self._pump(here)
        try:
            return await asyncio.shield(job.future)
        except asyncio.CancelledError:
            if not job.future.done():  # still waiting: it never runs; running: its answer is dropped
                jobs = here.waiting.get(key)
                if jobs is not None and job in jobs:
                    jobs.remove(job)
                    if not jobs:
                        del here.waiting[key]
                job.future.cancel()
            raise

    def _bound(self) -> _Loop:
        """The state kept for the running loop; a new loop (a new test) starts afresh, and the
        workers busy for a loop that is gone are stopped (nobody waits for their answers)."""
        loop = asyncio.get_running_loop()
        if self._here is None or self._here.loop is not loop:
            for worker in self._busy:
                worker.kill()
            self._busy.clear()
            self._here = _Loop(loop)
        return self._here

    def _pump(self, here: _Loop) -> None:
        """Start the next job of each group in turn while a worker is free."""
        while here.waiting and (self._idle or len(self._busy) < self.workers):
            key = next((k for k in here.waiting if k not in here.running), None)
            if key is None:
                return
            jobs = here.waiting[key]
            job = jobs.popleft()
            if jobs:
                here.waiting.move_to_end(key)
            else:
                del here.waiting[key]
            if job.future.done():
                continue
            worker = self._idle.pop() if self._idle else _Worker(self)
            self._busy.add(worker)
            here.running.add(key)
            task = here.loop.create_task(self._drive(here, worker, job), name=f"{self.name} job")
            here.tasks[task] = job
            task.add_done_callback(lambda done: here.tasks.pop(done, None))

    async def _drive(self, here: _Loop, worker: _Worker | None, job: _Job) -> None:
        epoch = self._epoch
        try:
            for attempt in (1, 2):
                assert worker is not None
                try:
                    kind, value = await self._attempt(worker, job)
                except _Died:
                    self._drop(worker)
                    worker = None
                    if epoch != self._epoch:  # the pool was closed under it
                        job.future.cancel()
                        return
                    if attempt == 2:
                        _settle(job, exception=WorkerDied(f"the {self.name} worker died twice under one job"))
                        return
                    log.warning("the %s worker died: starting another", self.name)
                    worker = _Worker(self)
                    self._busy.add(worker)
                    continue
                except TimeoutError:
                    log.warning("a %s job ran past %g seconds: its worker is stopped", self.name, job.seconds)
                    self._drop(worker)
                    worker = None
                    _settle(job, exception=OutOfTime(job.seconds))
                    return
                if kind == "done":
                    _settle(job, result=value)
                else:
                    _settle(job, exception=value)
                return
        finally:
            here.running.discard(job.group)
            if job.group in here.waiting:  # its next job waits for the other groups' turns
                here.waiting.move_to_end(job.group)
            if worker is not None and worker in self._busy:
                self._busy.discard(worker)
                self._idle.append(worker)
            if self._here is here:
                self._pump(here)

    async def _attempt(self, worker: _Worker, job: _Job) -> tuple[str, Any]:
        await worker.send((job.fn, job.args), START_S)
        kind, value = await worker.receive(START_S)
        if kind != "started":
            return kind, value
        return await worker.receive(job.seconds + self.grace)

    def _drop(self, worker: _Worker) -> None:
        self._busy.discard(worker)
        worker.kill()


def _settle(job: _Job, *, result: Any = None, exception: BaseException | None = None) -> None:
    if job.future.done():
        return
    if exception is not None:
        job.future.set_exception(exception)
    else:
        job.future.set_result(result)
