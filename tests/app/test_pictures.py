"""The drawing worker: a process of its own, which leaves when the bot that started it is killed."""

from __future__ import annotations

import os
import subprocess
import sys
import time

KILLED_BOT = """
import asyncio, os
from bot.app.pictures import DRAWING
asyncio.run(DRAWING.run(int))
print(*DRAWING.pids, flush=True)
os.kill(os.getpid(), 9)
"""


def gone(pid: int) -> bool:
    """The process has ended (a zombie nobody has reaped yet has ended too)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def test_a_killed_bot_leaves_no_drawing_worker_behind() -> None:
    done = subprocess.run([sys.executable, "-c", KILLED_BOT], capture_output=True, text=True, timeout=120)
    worker = int(done.stdout.split()[0])
    deadline = time.monotonic() + 60  # generous: a loaded machine may keep the worker waiting for a core
    while time.monotonic() < deadline:
        if gone(worker):
            return
        time.sleep(0.1)
    os.kill(worker, 9)
    raise AssertionError("the drawing worker outlived the bot that started it")
