"""The tables, as SQLAlchemy 2.x declarative models, portable between SQLite and PostgreSQL.

Rules for everyone who touches these models:

* Every constraint and index has a stable name (the naming convention on ``Base.metadata``, or an
  explicit ``name=``), so migrations written against SQLite work against PostgreSQL unchanged.
* Relationships are ``lazy="raise_on_sql"``: in async code an implicit lazy load must never
  happen. Load what you need up front (``selectinload(Game.actions)``), or query it.
* JSON columns hold plain data. Mutating a loaded dict in place is NOT detected: assign a new
  value (``game.state = new_state``). A large value read by the plain transactions is shared by
  every read of the same text (:mod:`bot.store.column_values`): never change one in place.
* ``Game.version`` is the ORM's version counter (``version_id_col``): it starts at 1 and every
  flush that changes a game bumps it and checks it (``UPDATE ... WHERE id = ? AND version = ?``),
  so a stale copy of a game can never overwrite a newer one (it raises ``StaleDataError``).
  Still lock the game first (:func:`bot.store.database.lock_game`) so that never happens.
* Timestamps are timezone-aware UTC datetimes on both databases (SQLite stores them as naive
  UTC text; :class:`UTCDateTime` puts the zone back on the way out).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
    literal_column,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.sql.elements import ColumnElement

from bot.store.column_values import UTCDateTime, utcnow

__all__ = [
    "DEADLINE_KINDS",
    "DEADLINE_RUNNING",
    "DEADLINE_STATUSES",
    "DECISION_STATUSES",
    "GAME_IN_PLAY",
    "GAME_STATUSES",
    "MEMBER_ROLES",
    "NAMING_CONVENTION",
    "ROLL_KINDS",
    "ActionRecord",
    "Base",
    "Campaign",
    "Deadline",
    "DecisionRecord",
    "EventRecord",
    "Figure",
    "FreeRollRecord",
    "Game",
    "Member",
    "RollRecord",
    "RollStream",
    "UTCDateTime",
    "utcnow",
    "written",
]

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

MEMBER_ROLES = ("gm", "player", "pending")
GAME_STATUSES = ("active", "ended")
DECISION_STATUSES = ("open", "answered", "cancelled")
ROLL_KINDS = ("die", "card")
DEADLINE_STATUSES = ("open", "expired", "closed")
DEADLINE_KINDS = ("turn", "decision")


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


def _json_dict() -> dict[str, Any]:
    return {}


def _json_list() -> list[Any]:
    return []


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Campaign(Base):
    __tablename__ = "campaigns"
    __table_args__ = (
        # At most one ACTIVE campaign per channel; ended ones may pile up.
        Index(
            "uq_campaigns_active_channel",
            "channel_id",
            unique=True,
            sqlite_where=text("active"),
            postgresql_where=text("active"),
        ),
        Index("ix_campaigns_guild_id", "guild_id"),
        # Every command finds its campaign by channel: with one guild holding many campaigns, the
        # guild's index alone left a scan of all of them.
        Index("ix_campaigns_channel_id_guild_id", "channel_id", "guild_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(100))
    ruleset: Mapped[str] = mapped_column(String(20))
    gm_id: Mapped[int] = mapped_column(BigInteger)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    house_rules: Mapped[Any | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=_json_dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    members: Mapped[list[Member]] = relationship(
        back_populates="campaign",
        lazy="raise_on_sql",
        cascade="all, delete-orphan",
        passive_deletes=True,
        order_by="Member.id",
    )
    figures: Mapped[list[Figure]] = relationship(
        back_populates="campaign",
        lazy="raise_on_sql",
        cascade="all, delete-orphan",
        passive_deletes=True,
        order_by="Figure.id",
    )
    games: Mapped[list[Game]] = relationship(
        back_populates="campaign",
        lazy="raise_on_sql",
        cascade="all, delete-orphan",
        passive_deletes=True,
        order_by="Game.id",
    )

    def __repr__(self) -> str:
        return f"<Campaign {self.id} {self.name!r} channel={self.channel_id} active={self.active}>"


class Member(Base):
    __tablename__ = "members"
    __table_args__ = (
        UniqueConstraint("campaign_id", "user_id"),
        CheckConstraint(_in("role", MEMBER_ROLES), name="role"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(BigInteger)
    display_name: Mapped[str] = mapped_column(String(100))
    role: Mapped[str] = mapped_column(String(10))
    side: Mapped[str | None] = mapped_column(String(32), nullable=True)
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    campaign: Mapped[Campaign] = relationship(back_populates="members", lazy="raise_on_sql")

    def __repr__(self) -> str:
        return f"<Member {self.user_id} {self.role} side={self.side!r} campaign={self.campaign_id}>"


class Figure(Base):
    __tablename__ = "figures"
    __table_args__ = (UniqueConstraint("campaign_id", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    owner_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(64))
    side: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(32))
    stats: Mapped[dict[str, Any]] = mapped_column(JSON, default=_json_dict)
    status: Mapped[str] = mapped_column(String(16), default="active")
    history: Mapped[list[Any]] = mapped_column(JSON, default=_json_list)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    campaign: Mapped[Campaign] = relationship(back_populates="figures", lazy="raise_on_sql")

    def __repr__(self) -> str:
        return f"<Figure {self.id} {self.name!r} side={self.side!r} status={self.status}>"


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (
        # One active game per campaign.
        Index(
            "uq_games_active_campaign",
            "campaign_id",
            unique=True,
            sqlite_where=text("status = 'active'"),
            postgresql_where=text("status = 'active'"),
        ),
        Index("ix_games_campaign_id", "campaign_id"),
        CheckConstraint(_in("status", GAME_STATUSES), name="status"),
        UniqueConstraint("campaign_id", "number"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    # The battle's number in its campaign (1, 2, 3 …): what players see and type. ``id`` stays the
    # internal key (foreign keys, button ids). Set at /game start: 1 + the campaign's highest.
    number: Mapped[int] = mapped_column(Integer)
    ruleset: Mapped[str] = mapped_column(String(20))
    status: Mapped[str] = mapped_column(String(10), default="active")
    state: Mapped[dict[str, Any]] = mapped_column(JSON, default=_json_dict)
    version: Mapped[int] = mapped_column(Integer)
    winner: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # Provable dice (bot/provable.py): the battle's secret in hex, shown to players only once the
    # battle is over; its commitment, shown at the start; the next draw number, which an undo never
    # rewinds; and, when some of its dice did not come from the secret, why ("seeded", "forced").
    # A battle begun before provable dice has no secret and no commitment.
    dice_secret: Mapped[str | None] = mapped_column(String(64), nullable=True)
    dice_commitment: Mapped[str | None] = mapped_column(String(64), nullable=True)
    dice_next: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    dice_note: Mapped[str | None] = mapped_column(String(20), nullable=True)

    campaign: Mapped[Campaign] = relationship(back_populates="games", lazy="raise_on_sql")
    actions: Mapped[list[ActionRecord]] = relationship(
        back_populates="game",
        lazy="raise_on_sql",
        cascade="all, delete-orphan",
        passive_deletes=True,
        order_by="ActionRecord.seq",
    )

    # 1 on insert, +1 on every UPDATE of the row, checked in the UPDATE's WHERE clause.
    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012  (SQLAlchemy reads it off the class)

    def __repr__(self) -> str:
        return f"<Game {self.id} campaign={self.campaign_id} battle {self.number} {self.status} v{self.version}>"


class ActionRecord(Base):
    """One command applied to a game: who, what (as typed), and the state before it (for undo)."""

    __tablename__ = "actions"
    __table_args__ = (
        UniqueConstraint("game_id", "seq"),
        Index(
            "ix_actions_answer_owed",
            "answer_owed",
            sqlite_where=text("answer_owed"),
            postgresql_where=text("answer_owed"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    # A repeated delivery of the same Discord interaction must apply once.
    interaction_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True, unique=True)
    user_id: Mapped[int] = mapped_column(BigInteger)
    side: Mapped[str | None] = mapped_column(String(32), nullable=True)
    by_gm: Mapped[bool] = mapped_column(Boolean, default=False)
    command: Mapped[str] = mapped_column(Text)
    # The action as data, so a game can be replayed from its log: {"name", "side", "params",
    # "by_gm"}, or {"start": [figure specs]} for the game's start; none for a free roll.
    action: Mapped[Any | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    state_before: Mapped[Any | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    undone: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # Its interaction's answer is owed: set with the entry when an interaction applied it, cleared
    # once Discord took the answer. One still set after a crash is told in the channel on restart.
    answer_owed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    game: Mapped[Game] = relationship(back_populates="actions", lazy="raise_on_sql")
    events: Mapped[list[EventRecord]] = relationship(
        back_populates="action",
        lazy="raise_on_sql",
        cascade="all, delete-orphan",
        passive_deletes=True,
        order_by="EventRecord.seq",
    )
    rolls: Mapped[list[RollRecord]] = relationship(
        back_populates="action",
        lazy="raise_on_sql",
        cascade="all, delete-orphan",
        passive_deletes=True,
        order_by="RollRecord.seq",
    )

    def __repr__(self) -> str:
        return f"<ActionRecord {self.id} game={self.game_id} #{self.seq} {self.command!r}>"


class EventRecord(Base):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("action_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    action_id: Mapped[int] = mapped_column(ForeignKey("actions.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(Text)
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=_json_dict)

    action: Mapped[ActionRecord] = relationship(back_populates="events", lazy="raise_on_sql")

    def __repr__(self) -> str:
        return f"<EventRecord action={self.action_id} #{self.seq} {self.kind}>"


class RollRecord(Base):
    __tablename__ = "rolls"
    __table_args__ = (
        UniqueConstraint("action_id", "seq"),
        CheckConstraint(_in("kind", ROLL_KINDS), name="kind"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    action_id: Mapped[int] = mapped_column(ForeignKey("actions.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8), default="die")
    sides: Mapped[int | None] = mapped_column(Integer, nullable=True)
    value: Mapped[str] = mapped_column(String(8))
    reason: Mapped[str] = mapped_column(Text, default="")
    secret: Mapped[bool] = mapped_column(Boolean, default=False)
    # Where the battle's provable stream gave this die or card: its draw number, and for a card
    # the count of cards it was drawn from and its position among them. None: not from the stream.
    draw: Mapped[int | None] = mapped_column(Integer, nullable=True)
    pool: Mapped[int | None] = mapped_column(Integer, nullable=True)
    position: Mapped[int | None] = mapped_column(Integer, nullable=True)

    action: Mapped[ActionRecord] = relationship(back_populates="rolls", lazy="raise_on_sql")

    def __repr__(self) -> str:
        return f"<RollRecord action={self.action_id} #{self.seq} {self.kind} {self.value}>"


class DecisionRecord(Base):
    """A choice the game waits for; answered by a button click bound to ``decision:<id>:<value>``."""

    __tablename__ = "decisions"
    __table_args__ = (
        Index("ix_decisions_status_game_id", "status", "game_id"),
        Index("ix_decisions_campaign_id", "campaign_id"),
        CheckConstraint(_in("status", DECISION_STATUSES), name="status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=True)
    decider: Mapped[str] = mapped_column(String(32))  # a side, or "gm"
    user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    kind: Mapped[str] = mapped_column(String(32))
    prompt: Mapped[str] = mapped_column(Text)
    choices: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=_json_list)
    resume: Mapped[dict[str, Any]] = mapped_column(JSON, default=_json_dict)
    status: Mapped[str] = mapped_column(String(10), default="open")
    answer: Mapped[str | None] = mapped_column(String(100), nullable=True)
    channel_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    message_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)

    def __repr__(self) -> str:
        return f"<DecisionRecord {self.id} {self.kind} decider={self.decider!r} {self.status}>"


class Deadline(Base):
    """Play-by-chat pace: how long a game has been waiting on one side, and what is due when.

    One row per wait: a decision waiting for a side (``kind="decision"``), or the turn of the side
    the engine names (``kind="turn"``). ``open`` while the clock runs; ``expired`` once the
    deadline passed and the campaign's choice was applied (it stays the game's current wait, so
    nothing fires twice, until the game moves on); ``closed`` when the game moved on. At most one
    row per game is current (open or expired). The scheduler claims a reminder by setting
    ``reminded_at`` in a conditional UPDATE, and a timeout by moving ``open`` to ``expired`` under
    the game's lock, so two bot processes on one database never send either twice.
    """

    __tablename__ = "deadlines"
    __table_args__ = (
        Index(
            "uq_deadlines_current_game",
            "game_id",
            unique=True,
            sqlite_where=text("status IN ('open', 'expired')"),
            postgresql_where=text("status IN ('open', 'expired')"),
        ),
        Index("ix_deadlines_status_due_at", "status", "due_at"),
        CheckConstraint(_in("status", DEADLINE_STATUSES), name="status"),
        CheckConstraint(_in("kind", DEADLINE_KINDS), name="kind"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    decision_id: Mapped[int | None] = mapped_column(ForeignKey("decisions.id", ondelete="CASCADE"), nullable=True)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(10))
    side: Mapped[str] = mapped_column(String(32))  # the side the game waits on
    on_timeout: Mapped[str] = mapped_column(String(8))  # "pass" or "gm"
    status: Mapped[str] = mapped_column(String(10), default="open")
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    remind_at: Mapped[datetime] = mapped_column(UTCDateTime)
    due_at: Mapped[datetime] = mapped_column(UTCDateTime)
    reminded_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    expired_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # What was done at the deadline: "passed", "gm", or "gm: <why the pass could not be made>".
    outcome: Mapped[str | None] = mapped_column(Text, nullable=True)
    # The game's version when this wait was last compared with the game (a change means: look again).
    game_version: Mapped[int] = mapped_column(Integer)

    def __repr__(self) -> str:
        return f"<Deadline {self.id} game={self.game_id} {self.kind}:{self.side} {self.status} due={self.due_at}>"


class RollStream(Base):
    """A campaign's provable dice for free rolls outside a battle (``/roll`` between battles).

    One stream is open at a time; it is revealed (``revealed_at``) when the game master starts the
    next battle or ends the campaign, and a new one begins with the next free roll after that.
    """

    __tablename__ = "roll_streams"
    __table_args__ = (Index("ix_roll_streams_campaign_id", "campaign_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    secret: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    next_draw: Mapped[int] = mapped_column(Integer, default=0)
    note: Mapped[str | None] = mapped_column(String(20), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    revealed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)

    def __repr__(self) -> str:  # never the secret
        return f"<RollStream {self.id} campaign={self.campaign_id} next={self.next_draw}>"


class FreeRollRecord(Base):
    """One free roll of a campaign's stream: who rolled what, and each die with its draw number."""

    __tablename__ = "free_rolls"
    __table_args__ = (UniqueConstraint("stream_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    stream_id: Mapped[int] = mapped_column(ForeignKey("roll_streams.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(BigInteger)
    # A repeated delivery of the same Discord interaction rolls once.
    interaction_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True, unique=True)
    command: Mapped[str] = mapped_column(Text)
    # [{"k", "kind": "die", "size", "value", "reason"}, ...] as bot.provable.Draw.to_data writes them
    draws: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=_json_list)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    def __repr__(self) -> str:
        return f"<FreeRollRecord stream={self.stream_id} #{self.seq}>"


def written(value: str) -> ColumnElement[str]:
    """One of this module's own constants, written into a statement's SQL instead of bound.

    Where a bound value is compared with a column that has a partial index (``games.status = ?``),
    SQLite cannot tell whether the index applies until it sees the value, so it plans the statement
    again every time it runs (15 to 40 µs, more than the query) and then still cannot use that index.
    Written, the condition is the index's own, and the statement is planned once.
    """
    if "'" in value:
        raise ValueError(f"not a constant to write into SQL: {value!r}")
    return literal_column(f"'{value}'")


#: A game in play, as ``uq_games_active_campaign`` says it (see :func:`written`).
GAME_IN_PLAY = Game.status == written("active")
#: An action whose answer is owed, as ``ix_actions_answer_owed`` says it.
ANSWER_OWED: ColumnElement[bool] = literal_column("actions.answer_owed")
#: A deadline still running, as ``uq_deadlines_current_game`` says it.
DEADLINE_RUNNING = Deadline.status.in_([written("open"), written("expired")])
