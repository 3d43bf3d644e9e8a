"""Many self-played battles in worker processes, each battle watched by the parent: a worker that
sends nothing for ``hang`` seconds (a line that never comes back) is killed, its battle reported
as a hang with the lines it had played, and a new worker takes the next battle."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from bot.selfplay.battle import Battle, Outcome

#: Seconds a worker may stay silent (one line running) before it counts as hung.
HANG = 120.0
#: Seconds a new worker may take to start (spawn, imports) before its first line.
START = 300.0


@dataclass(frozen=True)
class Job:
    ruleset: str
    seed: int
    where: str | None = None
    allow: frozenset[str] = frozenset()


def jobs(
    rulesets: Sequence[str], battles: int, seed: int, where: str | None = None, allow: frozenset[str] = frozenset()
) -> list[Job]:
    """``battles`` battles of each ruleset, seeds ``seed``, ``seed + 1``, …"""
    return [Job(slug, seed + n, where, allow) for slug in rulesets for n in range(battles)]


def _worker(conn: Connection, workdir: str) -> None:
    """A worker process: plays the battles it is sent, telling the parent each line first."""
    import logging

    logging.basicConfig(level=logging.CRITICAL)
    while True:
        job = conn.recv()
        if job is None:
            return
        battle = Battle(
            job.ruleset,
            job.seed,
            Path(workdir) / f"{job.ruleset}-{job.seed}",
            where=job.where,
            on_line=conn.send,
            allow=job.allow,
        )
        try:
            outcome = asyncio.run(battle.play())
        except Exception as exc:  # the harness itself broke: still a failed battle, with its lines
            outcome = battle.outcome
            outcome.failure = outcome.failure or f"the battle stopped: {type(exc).__name__}: {exc}"
            outcome.lines = list(battle.table.lines) if hasattr(battle, "table") else []
        conn.send(asdict(outcome))


@dataclass
class _Running:
    process: multiprocessing.process.BaseProcess
    conn: Connection
    job: Job | None = None
    lines: list[str] = field(default_factory=list)
    heard: float = 0.0
    #: Whether it said anything about its job yet (a new process takes a while to start).
    spoke: bool = False


def run(
    todo: Sequence[Job],
    *,
    workers: int = 1,
    hang: float = HANG,
    workdir: Path | None = None,
    report: Callable[[Outcome], None] | None = None,
    target: Callable[[Connection, str], None] | None = None,
) -> list[Outcome]:
    """Play every job on ``workers`` processes; the outcomes in the order they finished.
    (``target`` is the worker process's function, :func:`_worker` unless a test gives another.)"""
    base = workdir or Path(tempfile.mkdtemp(prefix="selfplay-"))
    context = multiprocessing.get_context("spawn")
    queue: Iterator[Job] = iter(todo)
    running: list[_Running] = []
    outcomes: list[Outcome] = []

    def start() -> _Running:
        parent, child = context.Pipe()
        process = context.Process(target=target or _worker, args=(child, str(base)), daemon=True)
        process.start()
        child.close()
        return _Running(process, parent)

    def give(worker: _Running) -> bool:
        job = next(queue, None)
        worker.job, worker.lines, worker.heard, worker.spoke = job, [], time.monotonic(), False
        worker.conn.send(job)
        return job is not None

    def finished(outcome: Outcome) -> None:
        outcomes.append(outcome)
        if report is not None:
            report(outcome)

    for _ in range(max(1, min(workers, len(todo)))):
        worker = start()
        running.append(worker)
        if not give(worker):
            break
    while any(w.job is not None for w in running):
        busy = [w for w in running if w.job is not None]
        ready = wait([w.conn for w in busy], timeout=1.0)
        now = time.monotonic()
        for worker in busy:
            if worker.conn in ready:
                try:
                    message: Any = worker.conn.recv()
                except EOFError:
                    message = None
                worker.heard, worker.spoke = now, True
                if isinstance(message, str):
                    worker.lines.append(message)
                    continue
                if isinstance(message, dict):
                    finished(Outcome(**message))
                    give(worker)
                    continue
            limit = hang if worker.spoke else max(hang, START)
            if worker.job is not None and (now - worker.heard > limit or not worker.process.is_alive()):
                job = worker.job
                gone = "stopped answering" if worker.process.is_alive() else "died"
                worker.process.kill()
                worker.process.join()
                line = worker.lines[-1] if worker.lines else "(before its first line)"
                failure = f"the worker {gone}: no answer within {limit:.0f} s to {line!r} (a hang)"
                finished(Outcome(job.ruleset, job.seed, job.where or "?", failure=failure, lines=worker.lines))
                running.remove(worker)
                fresh = start()
                running.append(fresh)
                give(fresh)
    for worker in running:  # each was sent None when the jobs ran out, and stops
        worker.process.join(timeout=10)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join()
    return outcomes


def default_workers() -> int:
    return max(1, (os.cpu_count() or 1))
