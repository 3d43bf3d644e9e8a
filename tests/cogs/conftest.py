"""Fixtures of the cog tests: the bot with every cog loaded, and a table of every role for the
permission tests (built once a module, copied for each case)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import pytest_asyncio

from bot.adapter.client import SkirmishBot
from bot.dice import ForcedDice, SeededDice
from bot.store import Store
from bot.store.database import Database, sqlite_url
from tests.conftest import run_in_thread
from tests.named_app import NamedApp
from tests.support import RED, caller, ssg_table


@pytest.fixture
async def bot(app) -> SkirmishBot:
    bot = SkirmishBot(app)
    await bot.load_cogs()
    return bot


APPLICANT = 6


async def build_table(path: Path) -> None:
    """An SSG game in progress (red to move, red's last action undoable) and a pending join request."""
    database = await Database.open(sqlite_url(path))
    forced = ForcedDice(fallback=SeededDice(1))
    app = NamedApp(Store(database), lambda: forced)
    await ssg_table(app, forced)
    await app.act(caller(RED, "Rita"), "ssg", "move", {"figure": "Ada", "distance": 1.0}, "/ssg move")
    await app.campaign_join(caller(APPLICANT, "Ann"), "red")  # waiting for the game master
    await database.close()


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("permissions") / "table.sqlite3"
    run_in_thread(build_table, path)
    return path


@pytest_asyncio.fixture
async def table(template: Path, tmp_path: Path):
    """A private copy of the table for each case, so no case sees another's changes."""
    path = tmp_path / "table.sqlite3"
    shutil.copyfile(template, path)
    database = await Database.open(sqlite_url(path))
    app = NamedApp(Store(database), lambda: ForcedDice(fallback=SeededDice(1)))
    bot = SkirmishBot(app)
    await bot.load_cogs()

    async def not_owner(user) -> bool:
        return False

    bot.is_owner = not_owner  # nobody here owns the bot application
    yield bot, database
    await database.close()
