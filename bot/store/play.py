"""The action path: what a ruleset action reads and writes, in the order it does, in one place.

A player's action (``/sharpe shoot …``) is the command sent most, so its statements are here
together and kept few: one query for the channel's campaign and the caller's membership, one for
the game in progress (row-locked on PostgreSQL), one for whether the interaction was applied
already, what decision waits and the log's last entry; then the log entry (at most three INSERTs)
and the game's new state (one UPDATE that checks and bumps its version).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import Integer, String, and_, bindparam, case, func, insert, select, update

from bot.store.column_values import utcnow
from bot.store.columns import actions, build, campaigns, columns_of, decisions, events, games, members, rolls
from bot.store.errors import Conflict
from bot.store.records import ActionContext, Campaign, Game, LogEntry, Member
from bot.store.schema import GAME_IN_PLAY
from bot.store.tx import Tx

CAMPAIGN = columns_of(campaigns, Campaign)
MEMBER = columns_of(members, Member)
GAME = columns_of(games, Game)
#: The channel's active campaign, and the caller's membership in it.
HERE = and_(
    campaigns.c.guild_id == bindparam("guild"),
    campaigns.c.channel_id == bindparam("channel"),
    campaigns.c.active.is_(True),
)
CALLERS_MEMBERSHIP = and_(members.c.campaign_id == campaigns.c.id, members.c.user_id == bindparam("user"))
CAMPAIGN_AND_MEMBER = select(*CAMPAIGN, *MEMBER).outerjoin(members, CALLERS_MEMBERSHIP).where(HERE)
RENAME_MEMBER = (
    update(members).where(members.c.id == bindparam("member")).values(display_name=bindparam("display_name"))
)
GAME_IN_PROGRESS = select(*GAME).where(games.c.campaign_id == bindparam("campaign"), GAME_IN_PLAY)
#: Row-locked on PostgreSQL for a change (SQLite's transaction holds the write lock already).
GAME_IN_PROGRESS_LOCKED = GAME_IN_PROGRESS.with_for_update()
APPLIED = select(actions.c.id).where(actions.c.interaction_id == bindparam("interaction")).scalar_subquery()
OPEN_DECISION = (
    select(decisions.c.id)
    .where(decisions.c.game_id == bindparam("game"), decisions.c.status == "open")
    .limit(1)
    .scalar_subquery()
)
LAST_SEQ = select(func.max(actions.c.seq)).where(actions.c.game_id == bindparam("game")).scalar_subquery()
#: Before an action: was this interaction applied already, does a decision wait, the log's last seq.
ACTION_CONTEXT = select(APPLIED, OPEN_DECISION, LAST_SEQ)
INSERT_ACTION = insert(actions).returning(actions.c.id)
INSERT_EVENTS = insert(events)
INSERT_ROLLS = insert(rolls)
#: The battle's dice go on to a draw number, never back (an undo restores the state, not the dice).
_DICE_ON = case(
    (bindparam("new_dice_next", type_=Integer) > games.c.dice_next, bindparam("new_dice_next", type_=Integer)),
    else_=games.c.dice_next,
)
_NOTE_KEPT = func.coalesce(games.c.dice_note, bindparam("new_dice_note", type_=String))
SAVE_STATE = (
    update(games)
    .where(games.c.id == bindparam("game"), games.c.version == bindparam("seen"))
    .values(
        state=bindparam("new_state", type_=games.c.state.type),
        dice_next=_DICE_ON,
        dice_note=_NOTE_KEPT,
        version=games.c.version + 1,
    )
)
#: A free roll or the battle's close used the dice and changed nothing else (the version stays).
SAVE_DICE = update(games).where(games.c.id == bindparam("game")).values(dice_next=_DICE_ON, dice_note=_NOTE_KEPT)
NAME_LIMIT = 100


class Play:
    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    async def campaign_and_member(
        self, guild_id: int, channel_id: int, user_id: int, display_name: str | None = None
    ) -> tuple[Campaign, Member | None] | None:
        """The channel's active campaign and the user's membership in it, in one query; with
        ``display_name``, the membership keeps the name Discord shows now (written only on a change)."""
        row = await self._tx.first(CAMPAIGN_AND_MEMBER, {"user": user_id, "guild": guild_id, "channel": channel_id})
        if row is None:
            return None
        member = None if row[len(CAMPAIGN)] is None else build(Member, row, len(CAMPAIGN))
        if member is not None and display_name is not None:
            member = await self.seen_as(member, display_name)
        return build(Campaign, row), member

    async def seen_as(self, member: Member, display_name: str) -> Member:
        """The member with the display name Discord shows now (written only when it changed)."""
        name = display_name[:NAME_LIMIT]
        if member.display_name == name:
            return member
        await self._tx.run(RENAME_MEMBER, {"member": member.id, "display_name": name})
        return replace(member, display_name=name)

    async def load_for_action(
        self, guild_id: int, channel_id: int, user_id: int, display_name: str, interaction_id: int | None
    ) -> ActionContext | None:
        """What an action needs before the engine sees it (``None`` without a campaign here): the
        campaign, the caller's membership, the game in progress (locked), whether this interaction
        was applied already, the open decision's id and the log's last seq."""
        found = await self.campaign_and_member(guild_id, channel_id, user_id, display_name)
        if found is None:
            return None
        campaign, member = found
        row = await self._tx.first(GAME_IN_PROGRESS_LOCKED, {"campaign": campaign.id})
        if row is None:
            return ActionContext(campaign, member, None, False, None, 0)
        game = build(Game, row)
        context = await self._tx.first(ACTION_CONTEXT, {"interaction": interaction_id, "game": game.id})
        assert context is not None
        applied, waiting, last_seq = context
        return ActionContext(
            campaign, member, game, applied is not None and interaction_id is not None, waiting, last_seq or 0
        )

    async def append_action(self, entry: LogEntry) -> int:
        """Write a log entry with its events and dice; its id. An entry an interaction wrote owes
        that interaction its answer until :meth:`bot.store.answers.Answers.answered` says it went."""
        action_id = int(
            await self._tx.scalar(
                INSERT_ACTION,
                {
                    "game_id": entry.game_id,
                    "seq": entry.seq,
                    "interaction_id": entry.interaction_id,
                    "user_id": entry.user_id,
                    "side": entry.side,
                    "by_gm": entry.by_gm,
                    "command": entry.command[:2000],
                    "action": entry.action,
                    "state_before": entry.state_before,
                    "undone": False,
                    "created_at": utcnow(),
                    "answer_owed": entry.interaction_id is not None,
                },
            )
        )
        if entry.events:
            await self._tx.run(
                INSERT_EVENTS,
                [
                    {"action_id": action_id, "seq": i, "kind": e.kind, "text": e.text, "data": dict(e.data)}
                    for i, e in enumerate(entry.events)
                ],
            )
        if entry.rolls:
            await self._tx.run(INSERT_ROLLS, [_roll(action_id, i, r, entry.secret) for i, r in enumerate(entry.rolls)])
        return action_id

    async def save_state(
        self, game: Game, state: dict[str, Any], *, dice_next: int | None = None, dice_note: str | None = None
    ) -> Game:
        """``state`` written over the game's, if the game is still at the version it was read at;
        with the battle's dice gone on to ``dice_next`` (never back) and its ``dice_note`` if new."""
        next_draw = max(dice_next or 0, game.dice_next)
        note = game.dice_note or dice_note
        params = {
            "game": game.id,
            "seen": game.version,
            "new_state": state,
            "new_dice_next": next_draw,
            "new_dice_note": note,
        }
        if await self._tx.run(SAVE_STATE, params) != 1:
            raise Conflict(f"game {game.id} changed under this transaction (version {game.version})")
        return replace(game, state=state, version=game.version + 1, dice_next=next_draw, dice_note=note)

    async def save_dice(self, game: Game, *, dice_next: int | None = None, dice_note: str | None = None) -> Game:
        """The battle's dice gone on to ``dice_next`` (a free roll, the battle's close), nothing else."""
        if dice_next is None and dice_note is None:
            return game
        next_draw = max(dice_next or 0, game.dice_next)
        note = game.dice_note or dice_note
        await self._tx.run(SAVE_DICE, {"game": game.id, "new_dice_next": next_draw, "new_dice_note": note})
        return replace(game, dice_next=next_draw, dice_note=note)


def _roll(action_id: int, seq: int, rolled: Any, secret: bool) -> dict[str, Any]:
    return {
        "action_id": action_id,
        "seq": seq,
        "kind": rolled.kind,
        "sides": rolled.sides,
        "value": rolled.value,
        "reason": rolled.reason,
        "secret": secret,
        "draw": rolled.draw,
        "pool": rolled.pool,
        "position": rolled.position,
    }
