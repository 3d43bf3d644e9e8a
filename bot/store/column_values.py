"""Values in and out of the columns, as the store converts them: datetimes always in UTC
(:class:`UTCDateTime`), and large JSON values read from the database decoded once while they stay
the same, and written from the text a worker process already made of them.

A campaign's draft map (kept in its settings) and a battle's state on a large map are a quarter of
a megabyte of JSON each; the store read them afresh for every command in their channel, and
decoding one held the event loop for 10 to 40 ms (``python -m bench.bounded --trace``), while
every other channel's answers waited. A value is decoded once per distinct text: reading the same
text again (the same row unchanged, or another row holding the same text) gives the same object.

Writing is the other half: a draft map checked in the maps' worker comes back with its JSON text
(:func:`written_as`), and a campaign's settings holding it are written with that text spliced in
instead of encoding the quarter-megabyte again on the event loop.

So a value read from a JSON column is shared by every read of that text: never change one in
place (the schema's rule for JSON columns already), build a new one and write it.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

#: A text at least this long is kept decoded; shorter ones decode in microseconds.
LARGE = 32 * 1024
#: How many decoded texts are kept, the least recently read dropped first: a few large maps' worth
#: (each decodes to some megabytes).
KEPT = 8


class DecodedOnce:
    """The decoded values of the last :data:`KEPT` large texts read."""

    def __init__(self, capacity: int = KEPT, large: int = LARGE) -> None:
        self.capacity = capacity
        self.large = large
        self._kept: OrderedDict[str, Any] = OrderedDict()
        self._texts: dict[int, str] = {}

    def wrap(self, decode: Callable[[Any], Any]) -> Callable[[Any], Any]:
        """``decode`` (a column's result processor), once per large text."""

        def once(value: Any) -> Any:
            if not isinstance(value, str) or len(value) < self.large:
                return decode(value)
            try:
                found = self._kept[value]
            except KeyError:
                found = self._kept[value] = decode(value)
                self._texts[id(found)] = value
                while len(self._kept) > self.capacity:
                    _, dropped = self._kept.popitem(last=False)
                    self._texts.pop(id(dropped), None)
            else:
                self._kept.move_to_end(value)
            return found

        return once

    def text_of(self, value: Any) -> str | None:
        """The text ``value`` was decoded from, while it is kept: what a worker process is handed
        instead of the value (a string is copied, a large value pickled on the event loop)."""
        text = self._texts.get(id(value))
        return text if text is not None and self._kept.get(text) is value else None

    def __len__(self) -> int:
        return len(self._kept)


#: One per process: a text decodes to the same value whichever statement read it.
DECODED = DecodedOnce()


def saved_text(value: Any) -> str | None:
    """The JSON text a large value was read as, if it is still kept (else None: encode it)."""
    return DECODED.text_of(value)


class EncodedOnce:
    """The JSON texts of the last :data:`KEPT` large values made elsewhere (each kept alive with
    its text, so that its id names it)."""

    def __init__(self, capacity: int = KEPT) -> None:
        self.capacity = capacity
        self._known: OrderedDict[int, tuple[Any, str]] = OrderedDict()

    def remember(self, value: Any, text: str) -> None:
        self._known[id(value)] = (value, text)
        self._known.move_to_end(id(value))
        while len(self._known) > self.capacity:
            self._known.popitem(last=False)

    def text_of(self, value: Any) -> str | None:
        known = self._known.get(id(value))
        return known[1] if known is not None and known[0] is value else None

    def wrap(self, encode: Callable[[Any], Any]) -> Callable[[Any], Any]:
        """``encode`` (a JSON column's bind processor), a dict's known values spliced in as text."""

        def spliced(value: Any) -> Any:
            if not isinstance(value, dict) or not any(self.text_of(v) is not None for v in value.values()):
                return encode(value)
            parts = []
            for key, item in value.items():
                if not isinstance(key, str):
                    return encode(value)
                text = self.text_of(item)
                parts.append(json.dumps(key) + ": " + (text if text is not None else json.dumps(item)))
            return "{" + ", ".join(parts) + "}"

        return spliced


ENCODED = EncodedOnce()


def written_as(value: Any, text: str) -> Any:
    """``value``, whose JSON text is ``text`` (``json.dumps(value)``, made in a worker process):
    written in a JSON column's dict, the text is used as it is. Change neither afterwards."""
    ENCODED.remember(value, text)
    return value


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """``DateTime(timezone=True)`` that always hands back an aware UTC datetime.

    PostgreSQL keeps the zone itself (``timestamp with time zone``). SQLite has no zone, so the
    value is stored as naive UTC and the zone is put back on load. A naive datetime given to it
    is taken to be UTC already.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            value = value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)
