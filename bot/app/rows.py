"""The rows the most frequent commands read, as plain values, and the statements that read them.

An action, a roll and ``/game status`` run on a :class:`bot.store.tx.Tx` (see there why); these
are what they see of the campaign, the caller's membership and the game. They carry the same
attribute names as the ORM classes, so code that only reads takes either; a command that must
change a campaign or a game through the ORM gets the real object with :func:`orm_objects`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.dice import RolledDie
from bot.store.schema import GAME_IN_PLAY, Campaign, DecisionRecord, Game, Member
from rules.core import Event

_campaigns, _members, _games, _decisions = (
    Campaign.__table__,
    Member.__table__,
    Game.__table__,
    DecisionRecord.__table__,
)


@dataclass
class CampaignRow:
    id: int
    name: str
    ruleset: str
    gm_id: int
    channel_id: int
    house_rules: Any
    settings: dict[str, Any]


@dataclass
class MemberRow:
    id: int
    user_id: int
    display_name: str
    role: str
    side: str | None


@dataclass
class GameRow:
    id: int
    campaign_id: int
    number: int
    status: str
    state: dict[str, Any]
    version: int
    winner: str | None


@dataclass
class LogEntry:
    """One entry of a game's log, to be written by ``AppBase._write``: the command as typed and
    as data, the state before it (for undo), its events and every die."""

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
    id: int | None = field(default=None)


_CAMPAIGN_COLUMNS = [
    _campaigns.c[name] for name in ("id", "name", "ruleset", "gm_id", "channel_id", "house_rules", "settings")
]
_MEMBER_COLUMNS = [_members.c[name] for name in ("id", "user_id", "display_name", "role", "side")]
_GAME_COLUMNS = [_games.c[name] for name in ("id", "campaign_id", "number", "status", "state", "version", "winner")]
#: The conditions the lookups share, plain rows and ORM objects alike (``bot.app.base``): the
#: channel's active campaign, the caller's membership in it, the campaign's game in progress.
HERE = and_(
    _campaigns.c.guild_id == bindparam("guild"),
    _campaigns.c.channel_id == bindparam("channel"),
    _campaigns.c.active.is_(True),
)
CALLERS_MEMBERSHIP = and_(_members.c.campaign_id == _campaigns.c.id, _members.c.user_id == bindparam("user"))
IN_PROGRESS = and_(_games.c.campaign_id == bindparam("campaign"), GAME_IN_PLAY)

CAMPAIGN_ROW = select(*_CAMPAIGN_COLUMNS).where(HERE)
CAMPAIGN_AND_MEMBER_ROW = (
    select(*_CAMPAIGN_COLUMNS, *_MEMBER_COLUMNS).outerjoin(_members, CALLERS_MEMBERSHIP).where(HERE)
)
ACTIVE_GAME_ROW = select(*_GAME_COLUMNS).where(IN_PROGRESS)
#: The same, row-locked on PostgreSQL for a change (SQLite's transaction holds the lock already).
LOCKED_GAME_ROW = ACTIVE_GAME_ROW.with_for_update()
LATEST_GAME_ROW = (
    select(*_GAME_COLUMNS).where(_games.c.campaign_id == bindparam("campaign")).order_by(_games.c.id.desc()).limit(1)
)
OPEN_DECISION_ROW = (
    select(_decisions.c.decider, _decisions.c.prompt)
    .where(_decisions.c.game_id == bindparam("game"), _decisions.c.status == "open")
    .order_by(_decisions.c.id)
    .limit(1)
)
DECISION_ROW = select(_decisions.c.decider, _decisions.c.prompt).where(_decisions.c.id == bindparam("decision"))
GM_USER_IDS = select(_members.c.user_id).where(_members.c.campaign_id == bindparam("campaign"), _members.c.role == "gm")
SIDE_USER_IDS = select(_members.c.user_id).where(
    _members.c.campaign_id == bindparam("campaign"), _members.c.side == bindparam("side"), _members.c.role != "pending"
)
RENAME_MEMBER = (
    _members.update().where(_members.c.id == bindparam("member")).values(display_name=bindparam("display_name"))
)


def campaign_row(values: tuple[Any, ...]) -> CampaignRow:
    return CampaignRow(*values[: len(_CAMPAIGN_COLUMNS)])


def member_row(values: tuple[Any, ...]) -> MemberRow | None:
    found = values[len(_CAMPAIGN_COLUMNS) :]
    return None if found[0] is None else MemberRow(*found)


def game_row(values: tuple[Any, ...] | None) -> GameRow | None:
    return None if values is None else GameRow(*values)


async def orm_objects(s: AsyncSession, campaign: Campaign | CampaignRow, game: Game | GameRow) -> tuple[Campaign, Game]:
    """The ORM's campaign and game for rows read plainly (the same objects if they already are)."""
    if not isinstance(campaign, Campaign):
        campaign = await s.get_one(Campaign, campaign.id)
    if not isinstance(game, Game):
        game = await s.get_one(Game, game.id, populate_existing=True)
    return campaign, game
