"""What the store hands out and takes in: plain frozen values, never ORM objects.

The application reads these and asks the store for every change by name
(``unit.members.set_side(member.id, side)``), so nothing outside :mod:`bot.store` can change a row
by accident or needs to know how it is kept. A record read in a transaction is what the row held
then; a method that changes a row returns the record as it is afterwards where callers need it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.dice import RolledDie
from rules.core import Choice, Event


@dataclass(frozen=True)
class Campaign:
    id: int
    guild_id: int
    channel_id: int
    name: str
    ruleset: str
    gm_id: int
    active: bool
    house_rules: Any
    settings: dict[str, Any]


@dataclass(frozen=True)
class Member:
    id: int
    campaign_id: int
    user_id: int
    display_name: str
    role: str
    side: str | None


@dataclass(frozen=True)
class Figure:
    """A roster entry: its base stats, lasting injuries (``history``) and status."""

    id: int
    campaign_id: int
    owner_id: int
    name: str
    side: str
    kind: str
    stats: dict[str, Any]
    status: str
    history: list[Any]


@dataclass(frozen=True)
class Game:
    """One battle. ``version`` changes with every write of ``state`` (checked on each write).

    ``dice_*`` are its provable dice (see :mod:`bot.provable`): ``dice_commitment`` is None for a
    battle begun before them; ``dice_note`` says why some of its dice did not come from the secret.
    The secret is kept out of ``repr`` so no log line can carry it.
    """

    id: int
    campaign_id: int
    number: int
    status: str
    state: dict[str, Any]
    version: int
    winner: str | None
    dice_commitment: str | None = None
    dice_next: int = 0
    dice_note: str | None = None
    dice_secret: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Decision:
    """A stored choice that waits for one side or the game master (``decider == "gm"``)."""

    id: int
    campaign_id: int
    game_id: int | None
    decider: str
    user_id: int | None
    kind: str
    prompt: str
    choices: tuple[Choice, ...]
    resume: dict[str, Any]
    status: str
    answer: str | None


@dataclass(frozen=True)
class NewDecision:
    """A decision to be stored."""

    campaign_id: int
    game_id: int | None
    decider: str
    user_id: int | None
    kind: str
    prompt: str
    choices: tuple[Choice, ...]
    resume: dict[str, Any]
    channel_id: int | None


@dataclass(frozen=True)
class LogEntry:
    """One entry to append to a game's log: the command as typed and as data, the state before it
    (for undo), its events and every die."""

    game_id: int
    seq: int
    interaction_id: int | None
    user_id: int
    side: str | None
    by_gm: bool
    command: str
    action: dict[str, Any] | None
    state_before: Any
    events: list[Event]
    rolls: list[RolledDie]
    secret: bool = False


@dataclass(frozen=True)
class LoggedAction:
    """An entry of a game's log as stored, with its events and dice when they were asked for."""

    id: int
    game_id: int
    seq: int
    interaction_id: int | None
    user_id: int
    side: str | None
    by_gm: bool
    command: str
    action: dict[str, Any] | None
    state_before: Any
    undone: bool
    created_at: datetime | None = None
    events: list[Event] = field(default_factory=list)
    rolls: list[RolledDie] = field(default_factory=list)


@dataclass(frozen=True)
class ActionContext:
    """What an action needs before the engine sees it, read together: the channel's campaign, the
    caller's membership, the game in progress (locked), whether this interaction was applied
    already, the open decision's id, and the log's last seq."""

    campaign: Campaign
    member: Member | None
    game: Game | None
    applied: bool
    waiting: int | None
    last_seq: int


@dataclass(frozen=True)
class OwedAnswer:
    """An action applied whose answer never reached its player: where, who, what, and what came of
    it (its first event; none for a secret roll, which only the game master may see before the end)."""

    action_id: int
    guild_id: int
    channel_id: int
    user_id: int
    display_name: str | None
    command: str
    said: str | None
    secret: bool
