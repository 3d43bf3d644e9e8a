"""/game log a page at a time, and /game report: the whole battle as a Markdown document.

Who sees what:

* Anyone in the channel may read the log and ask for the report (as ``/game status``).
* A game master's secret roll (``/roll secret:true``) is kept in the log like any roll. While the
  battle is in progress only the game master sees it; everyone else sees, in its place, that the
  game master rolled in secret (not the dice, the reason, or the result), as at a table where the
  dice are heard behind the screen. Once the battle is over (won, or ended by the game master),
  everyone sees it, marked 🔒, in the log and in the report. If ``/game undo`` reopens a battle
  that was won, its secret rolls are hidden again until it ends.
* The report of a finished battle is posted in the channel (everyone keeps the same document);
  while the battle is in progress it is a private snapshot for whoever asked, so the game
  master's copy, which shows the secret rolls, is never seen by the players.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from math import ceil
from typing import Any

from sqlalchemy import Text, cast, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.app.aftermath import AFTERMATH_COMMAND
from bot.app.base import AppBase
from bot.app.replies import Caller, Card, Refusal, Reply, side_colour
from bot.dice import RolledDie
from bot.render.report import (
    TURN_MARKERS,
    BattleReport,
    LogAction,
    ReportFigure,
    ReportSide,
    log_text,
    report_markdown,
    result_text,
)
from bot.store.schema import ActionRecord, Campaign, EventRecord, Figure, Game, Member, RollRecord
from rules import RULESETS
from rules.core import Event, RuleError

LOG_PAGE_DEFAULT = 10
LOG_PAGE_MAX = 25
#: A log page's description: Discord allows 4,096 characters (6,000 a message), so it is never cut.
LOG_PAGE_CHARS = 3600
#: Discord takes attachments of 10 MiB in any server; a report this large is refused with a sentence.
REPORT_MAX_BYTES = 8 * 1024 * 1024
BATTLE_ID_MAX = 2**31 - 1  # a battle's number (and a game's id) is a 32-bit integer on PostgreSQL


@dataclass
class LogPage(Reply):
    """A page of the log, and where it sits, so the front-end can offer the pages around it.

    ``game_id`` is the game's internal id (the page buttons carry it, and ask for it again with
    ``game_log(..., game_id=)``); players see and type the battle's number in its campaign."""

    game_id: int = 0
    page: int = 1
    pages: int = 1
    count: int = LOG_PAGE_DEFAULT


class ReportCommands(AppBase):
    async def game_log(
        self,
        caller: Caller,
        count: int = LOG_PAGE_DEFAULT,
        page: int = 1,
        battle: int | None = None,
        *,
        game_id: int | None = None,
    ) -> LogPage:
        """One page of a battle's log, newest first: page 1 holds the last ``count`` actions.

        ``battle`` is the battle's number in the campaign (as players type it); ``game_id`` the
        internal id a page button carries."""
        count = max(1, min(count, LOG_PAGE_MAX))
        if page < 1:
            raise Refusal("Pages start at 1 (the newest actions).")
        async with self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            game = await self._battle(s, campaign, battle, game_id)
            total = (
                await s.scalar(select(func.count()).select_from(ActionRecord).where(ActionRecord.game_id == game.id))
                or 0
            )
            pages = max(1, ceil(total / count))
            if page > pages:
                plural = "page" if pages == 1 else "pages"
                raise Refusal(
                    f"Battle {game.number}'s log has {pages} {plural} of {count} actions: there is no page {page}."
                )
            names = await self._names(s, campaign)
            actions = await self._log_actions(
                s, game, names, self._sees_secrets(campaign, game, caller), limit=count, offset=(page - 1) * count
            )
        card = Card(title=f"Log of battle {game.number}", description=log_text(actions, LOG_PAGE_CHARS))
        if actions:
            span = f"actions {actions[0].seq}–{actions[-1].seq}" if len(actions) > 1 else f"action {actions[0].seq}"
            card.footer = f"Page {page} of {pages} · {span}, newest first · /game report has the whole battle"
        return LogPage(cards=[card], ephemeral=True, game_id=game.id, page=page, pages=pages, count=count)

    async def game_report(self, caller: Caller, battle: int | None = None) -> Reply:
        """The whole battle as ``battle-<number>.md``: public once it is over, private while it goes on."""
        async with self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            game = await self._battle(s, campaign, battle)
            sees = self._sees_secrets(campaign, game, caller)
            names = await self._names(s, campaign)
            actions = await self._log_actions(s, game, names, sees)
            start = await s.scalar(
                select(ActionRecord.action).where(ActionRecord.game_id == game.id).order_by(ActionRecord.seq).limit(1)
            )
            owners = dict(
                (await s.execute(select(Figure.name, Figure.owner_id).where(Figure.campaign_id == campaign.id))).all()
            )
            players = (
                await s.execute(
                    select(Member.side, Member.display_name)
                    .where(Member.campaign_id == campaign.id, Member.side.is_not(None), Member.role != "pending")
                    .order_by(Member.id)
                )
            ).all()
        finished = game.status != "active"
        engine = self._engine(campaign)
        try:
            board = engine.board(engine.load_state(game.state))
            order = list(engine.sides())
        except RuleError:  # a state the campaign's current house rules can no longer read
            board, order = None, []
        report = BattleReport(
            campaign=campaign.name,
            battle=game.number,
            ruleset=RULESETS.get(game.ruleset, ("", game.ruleset))[1],
            game_master=names.get(campaign.gm_id, "the game master"),
            started=game.created_at,
            ended=game.ended_at,
            finished=finished,
            winner=game.winner,
            sides=_sides(start, order, owners, names, players),
            actions=actions,
            board=board,
            secrets_shown=sees,
        )
        data = report_markdown(report).encode("utf-8")
        if len(data) > REPORT_MAX_BYTES:
            raise Refusal(
                f"Battle {game.number}'s report is {len(data) // 2**20} MiB, more than Discord takes in one file."
            )
        card = Card(
            title=f"Report of battle {game.number}",
            colour=side_colour(game.winner),
            description=_summary(report),
            footer=f"battle-{game.number}.md · {len(actions)} actions",
        )
        return Reply(cards=[card], files=[(f"battle-{game.number}.md", data)], ephemeral=not finished)

    # --- helpers --------------------------------------------------------------------------------

    async def _battle(
        self, s: AsyncSession, campaign: Campaign, battle: int | None, game_id: int | None = None
    ) -> Game:
        """The battle asked for (by its number in the campaign, as ``/game status`` shows it, or by
        the internal id a page button carries), else the current or last one."""
        if game_id is not None:
            game = None
            if 1 <= game_id <= BATTLE_ID_MAX:
                game = await s.scalar(select(Game).where(Game.id == game_id, Game.campaign_id == campaign.id))
            if game is None:
                raise Refusal("There is no such battle in this campaign.")
            return game
        if battle is None:
            game = await self._game(s, campaign) or await self._latest_game(s, campaign)
            if game is None:
                raise Refusal("No game has been played here yet.")
            return game
        game = None
        if 1 <= battle <= BATTLE_ID_MAX:
            game = await s.scalar(select(Game).where(Game.campaign_id == campaign.id, Game.number == battle))
        if game is None:
            raise Refusal(f"There is no battle {battle} in this campaign.")
        return game

    @staticmethod
    def _sees_secrets(campaign: Campaign, game: Game, caller: Caller) -> bool:
        return game.status != "active" or campaign.gm_id == caller.user_id

    @staticmethod
    async def _names(s: AsyncSession, campaign: Campaign) -> dict[int, str]:
        rows = await s.execute(select(Member.user_id, Member.display_name).where(Member.campaign_id == campaign.id))
        return dict(rows.all())

    @staticmethod
    async def _log_actions(
        s: AsyncSession,
        game: Game,
        names: dict[int, str],
        sees_secrets: bool,
        *,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[LogAction]:
        """The game's actions with their events and dice, in three queries whatever the length.

        With ``limit``, a page of them, newest first; without, all of them in order. For speed
        on long battles (thousands of actions) the rows are read without the ORM, the saved
        states (the largest column) are never read, and an event's data is decoded only for the
        kinds a report reads (turns, casualties, rolls); the others keep an empty mapping.
        """
        conn = await s.connection()
        query = select(
            ActionRecord.id,
            ActionRecord.seq,
            ActionRecord.user_id,
            ActionRecord.side,
            ActionRecord.by_gm,
            ActionRecord.command,
            ActionRecord.undone,
        ).where(ActionRecord.game_id == game.id)
        if limit is not None:
            query = query.order_by(ActionRecord.seq.desc()).limit(limit).offset(offset)
        else:
            query = query.order_by(ActionRecord.seq)
        rows = (await conn.execute(query)).all()
        if not rows:
            return []
        events_q = select(EventRecord.action_id, EventRecord.kind, EventRecord.text, cast(EventRecord.data, Text))
        rolls_q = select(
            RollRecord.action_id,
            RollRecord.kind,
            RollRecord.sides,
            RollRecord.value,
            RollRecord.reason,
            RollRecord.secret,
        )
        if limit is not None:
            ids = [row[0] for row in rows]
            events_q = events_q.where(EventRecord.action_id.in_(ids))
            rolls_q = rolls_q.where(RollRecord.action_id.in_(ids))
        else:
            events_q = events_q.join(ActionRecord, EventRecord.action_id == ActionRecord.id).where(
                ActionRecord.game_id == game.id
            )
            rolls_q = rolls_q.join(ActionRecord, RollRecord.action_id == ActionRecord.id).where(
                ActionRecord.game_id == game.id
            )
        events: defaultdict[int, list[Event]] = defaultdict(list)
        secret: set[int] = set()
        for action_id, kind, text, raw in await conn.execute(events_q.order_by(EventRecord.action_id, EventRecord.seq)):
            data = _event_data(kind, raw)
            events[action_id].append(Event(kind, text, data))
            if data.get("secret") is True:
                secret.add(action_id)
        rolls: defaultdict[int, list[RolledDie]] = defaultdict(list)
        for action_id, kind, sides, value, reason, is_secret in await conn.execute(
            rolls_q.order_by(RollRecord.action_id, RollRecord.seq)
        ):
            rolls[action_id].append(RolledDie(kind, sides, value, reason))
            if is_secret:
                secret.add(action_id)
        actions = []
        for action_id, seq, user_id, side, by_gm, command, undone in rows:
            is_secret = action_id in secret
            hidden = is_secret and not sees_secrets
            actions.append(
                LogAction(
                    seq=seq,
                    actor=names.get(user_id, "a former player"),
                    by_gm=bool(by_gm),
                    side=side,
                    command="" if hidden else command,
                    undone=bool(undone),
                    secret=is_secret,
                    hidden=hidden,
                    events=() if hidden else events.get(action_id, ()),
                    rolls=() if hidden else rolls.get(action_id, ()),
                    aftermath=command == AFTERMATH_COMMAND,
                )
            )
        return actions


#: The event kinds whose data the log and the report read; the others' data is not decoded.
DATA_KINDS = frozenset({*TURN_MARKERS, "casualty", "victory", "roll"})


def _event_data(kind: str, raw: str | None) -> dict[str, Any]:
    if kind not in DATA_KINDS or not raw:
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _sides(
    start: Any, order: list[str], owners: dict[str, int], names: dict[int, str], players: list[tuple[str, str]]
) -> list[ReportSide]:
    """The sides with their players, and the figures each started with (from the game's start)."""
    specs = start.get("start") if isinstance(start, dict) else None
    figures: dict[str, list[ReportFigure]] = {}
    for spec in specs if isinstance(specs, list) else []:
        if not isinstance(spec, dict):
            continue
        name, side = str(spec.get("name", "?")), str(spec.get("side", "?"))
        stats = spec.get("stats") if isinstance(spec.get("stats"), dict) else {}
        owner = owners.get(name)
        figures.setdefault(side, []).append(
            ReportFigure(name, str(spec.get("kind", "")), names.get(owner) if owner is not None else None, stats)
        )
    by_side: dict[str, list[str]] = {}
    for side, display_name in players:
        by_side.setdefault(side, []).append(display_name)
    listed = [s for s in order if s in figures or s in by_side] + [s for s in figures if s not in order]
    return [ReportSide(side, tuple(by_side.get(side, ())), tuple(figures.get(side, ()))) for side in listed]


def _summary(report: BattleReport) -> str:
    """The card beside the attachment: the result and the count of what the report holds."""
    rolled = sum(len(a.rolls) for a in report.actions)
    casualties = sum(1 for a in report.actions if not a.undone for e in a.events if e.kind == "casualty")
    lines = [
        f"{report.campaign} — {report.ruleset}",
        result_text(report),
        f"{_count(len(report.actions), 'action')}, {_count(rolled, 'die or card', 'dice and cards')}, "
        f"{_count(casualties, 'casualty', 'casualties')}.",
    ]
    hidden = sum(1 for a in report.actions if a.hidden)
    if hidden:
        lines.append(f"{_count(hidden, 'secret roll')} by the game master, shown when the battle ends.")
    elif report.secrets_shown and not report.finished and any(a.secret for a in report.actions):
        lines.append("🔒 This copy shows your secret rolls: it is yours alone until the battle ends.")
    if not report.finished:
        lines.append("The battle goes on: this is the report so far.")
    return "\n".join(lines)


def _count(n: int, one: str, many: str = "") -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"
