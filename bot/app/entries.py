"""Entries of a game's log as the application writes them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.app.replies import Caller
from bot.dice import RolledDie
from bot.store.records import Game, LogEntry
from rules.core import Event


def log_entry(
    game: Game,
    seq: int,
    caller: Caller,
    command: str,
    *,
    state_before: Any,
    by_gm: bool,
    side: str | None,
    events: Sequence[Event],
    rolled: Sequence[RolledDie],
    action: dict[str, Any] | None = None,
    secret: bool = False,
) -> LogEntry:
    """One entry of the game's log: the command as typed and as data, its events and every die."""
    return LogEntry(
        game.id,
        seq,
        caller.interaction_id,
        caller.user_id,
        side,
        by_gm,
        command[:2000],
        action,
        state_before,
        list(events),
        list(rolled),
        secret,
    )
