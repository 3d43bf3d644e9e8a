"""The tables as SQLAlchemy Core sees them, and rows turned into the store's records.

Every statement of the store is built once, at import, from these; a record's fields are the
columns it reads, in order, so a row converts by position.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, TypeVar

from sqlalchemy import Column, Table

from bot.store import schema

R = TypeVar("R")

campaigns: Table = schema.Base.metadata.tables["campaigns"]
members: Table = schema.Base.metadata.tables["members"]
figures: Table = schema.Base.metadata.tables["figures"]
games: Table = schema.Base.metadata.tables["games"]
actions: Table = schema.Base.metadata.tables["actions"]
events: Table = schema.Base.metadata.tables["events"]
rolls: Table = schema.Base.metadata.tables["rolls"]
decisions: Table = schema.Base.metadata.tables["decisions"]
deadlines: Table = schema.Base.metadata.tables["deadlines"]
roll_streams: Table = schema.Base.metadata.tables["roll_streams"]
free_rolls: Table = schema.Base.metadata.tables["free_rolls"]


def columns_of(table: Table, record: type[Any]) -> list[Column[Any]]:
    """The columns of ``table`` that ``record``'s fields name, in the fields' order."""
    return [table.c[f.name] for f in dataclasses.fields(record)]


def build(record: type[R], row: Sequence[Any], start: int = 0) -> R:
    """``record`` from the values of ``row`` from ``start`` on, one per field."""
    count = len(dataclasses.fields(record))  # type: ignore[arg-type]
    return record(*row[start : start + count])
