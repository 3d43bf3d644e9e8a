"""What every command shares: the lookups, the channel lock, and the rules engine of a campaign."""

from __future__ import annotations

import asyncio
import shlex
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from bot.app.loaded_states import LoadedStates
from bot.app.replies import Caller, Refusal, Reply, joined
from bot.app.rows import (
    ACTIVE_GAME_ROW,
    CALLERS_MEMBERSHIP,
    CAMPAIGN_AND_MEMBER_ROW,
    CAMPAIGN_ROW,
    GM_USER_IDS,
    HERE,
    IN_PROGRESS,
    LATEST_GAME_ROW,
    LOCKED_GAME_ROW,
    RENAME_MEMBER,
    SIDE_USER_IDS,
    CampaignRow,
    GameRow,
    LogEntry,
    MemberRow,
    campaign_row,
    game_row,
    member_row,
)
from bot.dice import RolledDie
from bot.render.cards import action_cards
from bot.store.database import Database, lock_active_game, lock_game
from bot.store.schema import ActionRecord, Campaign, EventRecord, Figure, Game, Member, RollRecord, utcnow
from bot.store.tx import Tx
from rules import get_engine
from rules.core import DiceSource, Engine, Event, short

#: The campaign setting that says how many battles it fought before it was imported here: its
#: battles go on from there, so a history's "battle 5: misses the next 2" still counts right.
BATTLES_BEFORE = "battles_before"
NAME_MAX = 64
CAMPAIGN_NAME_MAX = 100
STATS_MAX = 400


# The lookups every command makes, built once: building a statement (and its cache key) on every
# call cost more than running it.
CAMPAIGN_HERE = select(Campaign).where(HERE)
CAMPAIGN_AND_MEMBER = select(Campaign, Member).outerjoin(Member, CALLERS_MEMBERSHIP).where(HERE)
ACTIVE_GAME = select(Game).where(IN_PROGRESS)
_games = Game.__table__
SAVE_STATE = (
    update(_games)
    .where(_games.c.id == bindparam("game"), _games.c.version == bindparam("seen"))
    .values(state=bindparam("new_state", type_=_games.c.state.type), version=_games.c.version + 1)
)
#: Parts of an action's or a roll's context: was this interaction applied already, the log's last seq.
APPLIED = select(ActionRecord.id).where(ActionRecord.interaction_id == bindparam("interaction")).scalar_subquery()
LAST_SEQ = select(func.max(ActionRecord.seq)).where(ActionRecord.game_id == bindparam("game")).scalar_subquery()
LAST_BATTLE = select(func.max(Game.number)).where(Game.campaign_id == bindparam("campaign"))
INSERT_ACTION = insert(ActionRecord.__table__).returning(ActionRecord.__table__.c.id)
INSERT_EVENTS = insert(EventRecord.__table__)
INSERT_ROLLS = insert(RollRecord.__table__)


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


def parse_stats(text: str | None) -> dict[str, Any]:
    """``'I=4 D=3 armour="mailshirt, small shield"'`` as a mapping; numbers become ints.

    Pairs are separated by spaces (a comma after a pair is allowed); a value with spaces is quoted.
    """
    if not text:
        return {}
    if len(text) > STATS_MAX:
        raise Refusal(f"Stats are at most {STATS_MAX} characters.")
    try:
        tokens = shlex.split(text)
    except ValueError:
        raise Refusal("Stats have an unclosed quote.") from None
    stats: dict[str, Any] = {}
    for token in tokens:
        key, sep, value = token.rstrip(",").partition("=")
        if not sep or not key or not value:
            raise Refusal(f"Write stats as key=value pairs, like I=4 D=3; {short(token)} is not one.")
        stats[key] = int(value) if value.lstrip("-").isdigit() else value
    return stats


def clean_name(name: str, what: str, limit: int = NAME_MAX) -> str:
    """A name with surrounding and repeated white space folded; refused when empty or too long."""
    cleaned = " ".join((name or "").split())
    if not cleaned or not any(ch.isalnum() for ch in cleaned):
        raise Refusal(f"A {what} needs a name with a letter or digit in it.")
    if len(cleaned) > limit:
        raise Refusal(f"A {what} name is at most {limit} characters.")
    return cleaned


def format_stats(stats: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in stats.items())


class AppBase:
    """The database, the dice, and the lookups every command uses."""

    def __init__(self, db: Database, dice: Callable[[], DiceSource]) -> None:
        self.db = db
        self._dice = dice
        self._channel_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._states = LoadedStates()

    # --- lookups ----------------------------------------------------------------------------

    async def _campaign(self, s: AsyncSession, caller: Caller) -> Campaign:
        campaign = await self._campaign_here(s, caller)
        if campaign is None:
            raise Refusal("There is no campaign in this channel: start one with /campaign new.")
        return campaign

    async def _member(self, s: AsyncSession, campaign: Campaign, caller: Caller) -> Member | None:
        member = await s.scalar(
            select(Member).where(Member.campaign_id == campaign.id, Member.user_id == caller.user_id)
        )
        return self._seen(member, caller)

    @staticmethod
    def _seen(member: Member | None, caller: Caller) -> Member | None:
        """Keep the member's display name as Discord shows it now."""
        if member is not None and member.display_name != caller.display_name[:100]:
            member.display_name = caller.display_name[:100]
        return member

    @staticmethod
    def _must_play(member: Member | None) -> Member:
        if member is None:
            raise Refusal("You are not in this campaign: join it with /campaign join.")
        if member.role == "pending":
            raise Refusal("Your request to join is still waiting for the game master.")
        return member

    async def _player(self, s: AsyncSession, campaign: Campaign, caller: Caller) -> Member:
        return self._must_play(await self._member(s, campaign, caller))

    async def _campaign_and_player(self, s: AsyncSession, caller: Caller) -> tuple[Campaign, Member]:
        """The channel's campaign and the caller's membership, in one query (the hot path)."""
        row = (
            await s.execute(
                CAMPAIGN_AND_MEMBER, {"user": caller.user_id, "guild": caller.guild_id, "channel": caller.channel_id}
            )
        ).first()
        if row is None:
            raise Refusal("There is no campaign in this channel: start one with /campaign new.")
        campaign, member = row
        return campaign, self._must_play(self._seen(member, caller))

    @staticmethod
    def _require_gm(campaign: Campaign, caller: Caller, doing: str) -> None:
        if campaign.gm_id != caller.user_id:
            raise Refusal(f"Only the game master may {doing}.")

    @staticmethod
    def _engine(campaign: Campaign) -> Engine[Any]:
        return get_engine(campaign.ruleset, campaign.house_rules)

    async def _game(self, s: AsyncSession, campaign: Campaign, *, lock: bool = False) -> Game | None:
        """The game in progress; with ``lock``, row-locked and re-read for a change."""
        if lock:
            return await lock_active_game(s, campaign.id)
        return await s.scalar(ACTIVE_GAME, {"campaign": campaign.id})

    async def _latest_game(self, s: AsyncSession, campaign: Campaign, *, lock: bool = False) -> Game | None:
        game_id = await s.scalar(select(func.max(Game.id)).where(Game.campaign_id == campaign.id))
        if game_id is None:
            return None
        if lock:
            return await lock_game(s, game_id)
        return await s.get(Game, game_id)

    async def _figure(self, s: AsyncSession, campaign: Campaign, name: str) -> Figure:
        wanted = " ".join((name or "").split())
        figure = await s.scalar(
            select(Figure).where(Figure.campaign_id == campaign.id, func.lower(Figure.name) == wanted.lower())
        )
        if figure is None:
            raise Refusal(f"There is no figure called {short(name)} in this campaign's rosters.")
        return figure

    @staticmethod
    async def _side_user_ids(tx: Tx, campaign_id: int, side: str | None) -> list[int]:
        """Who plays ``side`` (the game master for ``"gm"``): the players to ping."""
        if side is None:
            return []
        if side == "gm":
            return [row[0] for row in await tx.rows(GM_USER_IDS, {"campaign": campaign_id})]
        return [row[0] for row in await tx.rows(SIDE_USER_IDS, {"campaign": campaign_id, "side": side})]

    # --- the same lookups, as plain rows on a Tx (the commands players send most) -----------------

    @staticmethod
    async def _campaign_row_here(tx: Tx, caller: Caller) -> CampaignRow | None:
        found = await tx.first(CAMPAIGN_ROW, {"guild": caller.guild_id, "channel": caller.channel_id})
        return None if found is None else campaign_row(found)

    async def _campaign_row(self, tx: Tx, caller: Caller) -> CampaignRow:
        campaign = await self._campaign_row_here(tx, caller)
        if campaign is None:
            raise Refusal("There is no campaign in this channel: start one with /campaign new.")
        return campaign

    async def _campaign_and_player_row(self, tx: Tx, caller: Caller) -> tuple[CampaignRow, MemberRow]:
        found = await tx.first(
            CAMPAIGN_AND_MEMBER_ROW, {"user": caller.user_id, "guild": caller.guild_id, "channel": caller.channel_id}
        )
        if found is None:
            raise Refusal("There is no campaign in this channel: start one with /campaign new.")
        member = member_row(found)
        if member is not None and member.display_name != caller.display_name[:100]:
            member.display_name = caller.display_name[:100]
            await tx.run(RENAME_MEMBER, {"member": member.id, "display_name": member.display_name})
        return campaign_row(found), self._must_play(member)  # type: ignore[return-value]

    @staticmethod
    async def _game_row(tx: Tx, campaign_id: int, *, lock: bool = False, latest: bool = False) -> GameRow | None:
        """The game in progress (row-locked with ``lock``; with ``latest``, else the last one played)."""
        game = game_row(await tx.first(LOCKED_GAME_ROW if lock else ACTIVE_GAME_ROW, {"campaign": campaign_id}))
        if game is None and latest:
            game = game_row(await tx.first(LATEST_GAME_ROW, {"campaign": campaign_id}))
        return game

    def _run_locked(self, caller: Caller) -> asyncio.Lock:
        """Commands in one channel run one at a time in this process (the database serialises across processes)."""
        return self._channel_locks[caller.channel_id]

    def _figure_names_in(self, campaign: Campaign | CampaignRow, game: Game | GameRow) -> list[str]:
        engine = self._engine(campaign)
        return [line.name for line in engine.board(self._states.load(engine, game)).figures]

    async def _campaign_here(self, s: AsyncSession, caller: Caller) -> Campaign | None:
        """The active campaign of the caller's channel, if there is one."""
        return await s.scalar(CAMPAIGN_HERE, {"guild": caller.guild_id, "channel": caller.channel_id})

    @staticmethod
    def _check_side(engine: Engine[Any], side: str) -> str:
        for known in engine.sides():
            if known.casefold() == (side or "").strip().casefold():
                return known
        raise Refusal(f"{short(side)} is not a side here: choose {joined(list(engine.sides()))}.")

    @staticmethod
    def _record(
        game: Game | GameRow,
        seq: int,
        caller: Caller,
        command: str,
        state_before: Any,
        by_gm: bool,
        side: str | None,
        events: Sequence[Event],
        rolled: Sequence[RolledDie],
        action: Mapping[str, Any] | None = None,
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
            dict(action) if action else None,
            state_before,
            list(events),
            list(rolled),
        )

    @staticmethod
    async def _write(tx: Tx, entry: LogEntry) -> None:
        """Write a log entry with its events and dice: at most three plain INSERTs."""
        entry.id = await tx.scalar(
            INSERT_ACTION,
            {
                "game_id": entry.game_id,
                "seq": entry.seq,
                "interaction_id": entry.interaction_id,
                "user_id": entry.user_id,
                "side": entry.side,
                "by_gm": entry.by_gm,
                "command": entry.command,
                "action": entry.action,
                "state_before": entry.state_before,
                "undone": False,
                "created_at": utcnow(),
            },
        )
        if entry.events:
            await tx.run(
                INSERT_EVENTS,
                [
                    {"action_id": entry.id, "seq": i, "kind": e.kind, "text": e.text, "data": dict(e.data)}
                    for i, e in enumerate(entry.events)
                ],
            )
        if entry.rolls:
            await tx.run(
                INSERT_ROLLS,
                [
                    {
                        "action_id": entry.id,
                        "seq": i,
                        "kind": r.kind,
                        "sides": r.sides,
                        "value": r.value,
                        "reason": r.reason,
                        "secret": entry.secret,
                    }
                    for i, r in enumerate(entry.rolls)
                ],
            )

    @staticmethod
    async def _save_state(tx: Tx, game: Game | GameRow, state: dict[str, Any]) -> None:
        """``game.state = state``, written at once with one plain UPDATE that checks and bumps the
        version as the ORM would."""
        if await tx.run(SAVE_STATE, {"game": game.id, "seen": game.version, "new_state": state}) != 1:
            raise StaleDataError(f"game {game.id} changed under this transaction (version {game.version})")
        if isinstance(game, Game):
            set_committed_value(game, "state", state)
            set_committed_value(game, "version", game.version + 1)
        else:
            game.state, game.version = state, game.version + 1

    @staticmethod
    async def _next_seq(tx: Tx, game: Game | GameRow) -> int:
        return (await tx.scalar(select(LAST_SEQ), {"game": game.id}) or 0) + 1

    async def _battles_fought(self, s: AsyncSession, campaign: Campaign) -> int:
        """The campaign's last battle number: its own games', or the count it was imported with."""
        last = await s.scalar(LAST_BATTLE, {"campaign": campaign.id}) or 0
        return max(last, (campaign.settings or {}).get(BATTLES_BEFORE, 0))

    async def _replay(self, s: AsyncSession, interaction_id: int) -> Reply | None:
        """A repeated delivery of an interaction already applied: its result again, nothing re-done."""
        record = await s.scalar(
            select(ActionRecord)
            .where(ActionRecord.interaction_id == interaction_id)
            .options(selectinload(ActionRecord.events), selectinload(ActionRecord.rolls))
        )
        if record is None:
            return None
        events = [Event(e.kind, e.text, e.data or {}) for e in record.events]
        rolled = [RolledDie(r.kind, r.sides, r.value, r.reason) for r in record.rolls]
        reply = Reply(
            cards=action_cards(f"Already applied: {record.command}", "", record.side, events, rolled),
            events=events,
            rolls=rolled,
            ephemeral=True,
            replayed=True,
        )
        return reply
