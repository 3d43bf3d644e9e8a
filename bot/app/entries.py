"""What a game's log keeps of a command: the command as a player would type it, and its entry."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from bot.app.replies import Caller
from bot.dice import RolledDie
from bot.store.records import Game, LogEntry
from rules.core import Event


def command_line(group: str, name: str, params: Mapping[str, Any]) -> str:
    """The command as a player would type it, for the log: ``/ssg shoot shooter:Rossi ...``."""
    parts = [f"/{group} {name}" if name else f"/{group}"]
    for key, value in params.items():
        if value is None:
            continue
        text = f"{value:g}" if isinstance(value, float) else str(value)
        needs_quotes = text != shlex.quote(text)
        parts.append(f"{key}:" + ('"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"' if needs_quotes else text))
    return " ".join(parts)


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
