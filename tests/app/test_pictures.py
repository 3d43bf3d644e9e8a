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


def test_a_killed_bot_leaves_no_drawing_worker_behind() -> None:
    done = subprocess.run([sys.executable, "-c", KILLED_BOT], capture_output=True, text=True, timeout=60)
    worker = int(done.stdout.split()[0])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(worker, 9)
    raise AssertionError("the drawing worker outlived the bot that started it")
