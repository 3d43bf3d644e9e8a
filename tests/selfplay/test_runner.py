"""The runner kills a worker that stops answering and reports its battle as a hang, with the lines
it had played; the battles of the other jobs still come back."""

from __future__ import annotations

import time
from multiprocessing.connection import Connection
from pathlib import Path

from bot.selfplay.runner import Job, run


def stuck_worker(conn: Connection, workdir: str) -> None:
    """A worker whose battle types one line and never answers again (a line that hangs)."""
    job = conn.recv()
    if job is None:
        return
    conn.send("/as GM")
    conn.send(f"/campaign new name:Stuck ruleset:{job.ruleset}")
    while True:
        time.sleep(60)


def test_a_worker_that_stops_answering_is_killed_and_reported_as_a_hang(tmp_path: Path) -> None:
    [outcome] = run([Job("ssg", 7)], workers=1, hang=1.0, workdir=tmp_path, target=stuck_worker)
    assert outcome.ruleset == "ssg" and outcome.seed == 7
    assert outcome.failure is not None and "(a hang)" in outcome.failure
    assert "/campaign new name:Stuck ruleset:ssg" in outcome.failure
    assert outcome.lines == ["/as GM", "/campaign new name:Stuck ruleset:ssg"]
