"""The store: the only door to the database.

    store = await Store.open(url)              # migrates to head first
    async with store.transaction() as unit:    # one command, one transaction
        campaign = await unit.campaigns.here(guild_id, channel_id)
        game = await unit.games.in_progress(campaign.id, lock=True)
        game = await unit.play.save_state(game, new_state)

A :class:`Unit` is one transaction, offered as the tables in the application's words (and the
action path, the command sent most, as one part of its own: :mod:`bot.store.play`); each method
takes and returns plain frozen records (:mod:`bot.store.records`). SQLite and PostgreSQL are behind
the same interface (SQLite's statements run straight on its driver, see :mod:`bot.store.tx`), and
database trouble comes out of a transaction as :class:`Conflict` or :class:`Busy` (sentences a
player may read), everything committed or nothing.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import cached_property
from typing import Any

from sqlalchemy import exc as sa_exc

from bot.store.answers import Answers
from bot.store.campaigns import Campaigns, Members
from bot.store.database import Database
from bot.store.deadlines import Deadlines
from bot.store.decisions import Decisions
from bot.store.errors import Busy, Conflict
from bot.store.exchange import Exchange
from bot.store.figures import Figures
from bot.store.games import Games
from bot.store.log import Log
from bot.store.play import Play
from bot.store.reports import Reports
from bot.store.streams import Streams
from bot.store.tx import Tx


class Unit:
    """One transaction of the store, by table. Each table's part is made when a command first
    asks for it: most commands read two or three tables, not all twelve."""

    def __init__(self, tx: Tx) -> None:
        self.tx = tx

    @cached_property
    def play(self) -> Play:
        return Play(self.tx)

    @cached_property
    def campaigns(self) -> Campaigns:
        return Campaigns(self.tx)

    @cached_property
    def members(self) -> Members:
        return Members(self.tx)

    @cached_property
    def figures(self) -> Figures:
        return Figures(self.tx)

    @cached_property
    def games(self) -> Games:
        return Games(self.tx)

    @cached_property
    def log(self) -> Log:
        return Log(self.tx)

    @cached_property
    def decisions(self) -> Decisions:
        return Decisions(self.tx)

    @cached_property
    def deadlines(self) -> Deadlines:
        return Deadlines(self.tx)

    @cached_property
    def reports(self) -> Reports:
        return Reports(self.tx)

    @cached_property
    def exchange(self) -> Exchange:
        return Exchange(self.tx)

    @cached_property
    def streams(self) -> Streams:
        return Streams(self.tx)

    @cached_property
    def answers(self) -> Answers:
        return Answers(self.tx)

    def on_commit(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once this transaction has committed (never after a rollback)."""
        self.tx.on_commit(callback)


class Store:
    """The database behind one interface, whichever it is."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @classmethod
    async def open(cls, url: str, *, upgrade: bool = True, **engine_options: Any) -> Store:
        """The store at ``url``; first the schema brought to the newest migration if ``upgrade``."""
        return cls(await Database.open(url, upgrade=upgrade, **engine_options))

    @property
    def url(self) -> str:
        return self.db.url

    @property
    def is_sqlite(self) -> bool:
        return self.db.is_sqlite

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Unit]:
        """One command, one transaction: committed when the block ends, rolled back on any exception.

        A unique value taken or a row changed at the same moment comes out as :class:`Conflict`, a
        lock not had in time as :class:`Busy`; nothing of the transaction is kept either way.
        """
        try:
            async with self.db.plain() as tx:
                yield Unit(tx)
        except (sqlite3.IntegrityError, sa_exc.IntegrityError) as exc:
            raise Conflict(str(exc)) from exc
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise Busy(str(exc)) from exc
            raise
        except sa_exc.OperationalError as exc:
            if "locked" in str(exc) or "lock timeout" in str(exc) or "deadlock" in str(exc):
                raise Busy(str(exc)) from exc
            raise

    async def close(self) -> None:
        await self.db.close()
