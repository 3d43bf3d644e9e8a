"""The application layer: load, check, act, save, render — one command, one transaction.

Both front-ends (the Discord cogs and the terminal) call these methods with a :class:`Caller`
and show the :class:`Reply` they return. Nothing here knows about Discord.
"""
from __future__ import annotations

import asyncio
import logging
import shlex
from collections import defaultdict
from datetime import UTC, datetime
from typing import Any, Callable, Mapping, Sequence

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload

from bot.app.replies import Caller, Card, PendingDecision, Refusal, Reply, joined, side_colour
from bot.db.database import Database, lock_active_game, lock_game
from bot.db.models import ActionRecord, Campaign, DecisionRecord, EventRecord, Figure, Game, Member, RollRecord
from bot.dice import RecordingDice, RolledDie, free_roll
from bot.render.cards import action_cards, board_card, roll_line
from rules import RULESETS, get_engine
from rules.core import Action, Choice, Decision, DiceSource, Engine, Event, FigureSpec, RuleError, short

log = logging.getLogger(__name__)

NAME_MAX = 64
CAMPAIGN_NAME_MAX = 100
STATS_MAX = 400
LOG_PAGE_MAX = 25


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
    """``"I=4 D=3 horse=yes"`` as a mapping; numbers become ints."""
    if not text:
        return {}
    if len(text) > STATS_MAX:
        raise Refusal(f"Stats are at most {STATS_MAX} characters.")
    stats: dict[str, Any] = {}
    for token in text.replace(",", " ").split():
        key, sep, value = token.partition("=")
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


class App:
    """Every command of Skirmish GM, independent of the front-end."""

    def __init__(self, db: Database, dice: Callable[[], DiceSource]) -> None:
        self.db = db
        self._dice = dice
        self._channel_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    # --- lookups ----------------------------------------------------------------------------

    async def _campaign(self, s: AsyncSession, caller: Caller) -> Campaign:
        campaign = await s.scalar(
            select(Campaign).where(
                Campaign.guild_id == caller.guild_id,
                Campaign.channel_id == caller.channel_id,
                Campaign.active.is_(True),
            )
        )
        if campaign is None:
            raise Refusal("There is no campaign in this channel: start one with /campaign new.")
        return campaign

    async def _member(self, s: AsyncSession, campaign: Campaign, caller: Caller) -> Member | None:
        member = await s.scalar(
            select(Member).where(Member.campaign_id == campaign.id, Member.user_id == caller.user_id)
        )
        if member is not None and member.display_name != caller.display_name[:100]:
            member.display_name = caller.display_name[:100]
        return member

    async def _player(self, s: AsyncSession, campaign: Campaign, caller: Caller) -> Member:
        member = await self._member(s, campaign, caller)
        if member is None:
            raise Refusal("You are not in this campaign: join it with /campaign join.")
        if member.role == "pending":
            raise Refusal("Your request to join is still waiting for the game master.")
        return member

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
        return await s.scalar(select(Game).where(Game.campaign_id == campaign.id, Game.status == "active"))

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

    async def _side_members(self, s: AsyncSession, campaign: Campaign, side: str | None) -> list[Member]:
        if side is None:
            return []
        if side == "gm":
            return list(await s.scalars(select(Member).where(Member.campaign_id == campaign.id, Member.role == "gm")))
        return list(
            await s.scalars(
                select(Member).where(Member.campaign_id == campaign.id, Member.side == side, Member.role != "pending")
            )
        )

    def _run_locked(self, caller: Caller) -> asyncio.Lock:
        """Commands in one channel run one at a time in this process (the database serialises across processes)."""
        return self._channel_locks[caller.channel_id]

    def _figure_names_in(self, campaign: Campaign, game: Game) -> list[str]:
        engine = self._engine(campaign)
        return [line.name for line in engine.board(engine.load_state(game.state)).figures]

    # --- campaigns --------------------------------------------------------------------------

    async def campaign_new(self, caller: Caller, name: str, ruleset: str) -> Reply:
        name = clean_name(name, "campaign", CAMPAIGN_NAME_MAX)
        if ruleset not in RULESETS:
            raise Refusal(f"There is no ruleset {short(ruleset)}: choose one of {joined(list(RULESETS))}.")
        async with self._run_locked(caller), self.db.transaction() as s:
            existing = await s.scalar(
                select(Campaign).where(Campaign.channel_id == caller.channel_id, Campaign.active.is_(True))
            )
            if existing is not None:
                raise Refusal(f"This channel already runs the campaign {short(existing.name)}; end it first with /campaign end.")
            campaign = Campaign(
                guild_id=caller.guild_id, channel_id=caller.channel_id, name=name, ruleset=ruleset,
                gm_id=caller.user_id, active=True, settings={},
            )
            s.add(campaign)
            await s.flush()
            s.add(Member(campaign_id=campaign.id, user_id=caller.user_id, display_name=caller.display_name[:100], role="gm"))
            engine = self._engine(campaign)
        title = RULESETS[ruleset][1]
        text = (
            f"**{name}** begins: {title}. {caller.display_name} is the game master.\n"
            f"Players: /campaign join with a side ({joined(list(engine.sides()))}), then /roster add."
        )
        return Reply(cards=[Card(title="New campaign", description=text, colour=side_colour(None))])

    async def campaign_join(self, caller: Caller, side: str) -> Reply:
        """The game master joins a side at once; a player asks, and the game master decides by button."""
        async with self._run_locked(caller), self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            engine = self._engine(campaign)
            side = self._check_side(engine, side)
            member = await self._member(s, campaign, caller)
            if campaign.gm_id == caller.user_id:
                assert member is not None
                member.side = side
                return Reply(cards=[Card(title="Joined", description=f"{caller.display_name} (game master) plays **{side}**.", colour=side_colour(side))])
            waiting = await s.scalar(select(DecisionRecord).where(
                DecisionRecord.campaign_id == campaign.id, DecisionRecord.status == "open",
                DecisionRecord.kind == "join", DecisionRecord.user_id == caller.user_id))
            if waiting is not None:
                raise Refusal("Your request to join is already waiting for the game master.")
            if member is not None and member.side == side:
                raise Refusal(f"You already play {side}.")
            if member is None:
                s.add(Member(campaign_id=campaign.id, user_id=caller.user_id, display_name=caller.display_name[:100], role="pending", side=None))
            request = Decision(
                decider="gm",
                prompt=f"{caller.display_name} asks to play {side} in {campaign.name}.",
                choices=(Choice("approve", "Approve"), Choice("refuse", "Refuse")),
                resume_action="join",
                params={"user_id": caller.user_id, "side": side},
            )
            pending = await self._open(s, campaign, None, request, user_id=caller.user_id, kind="join")
        reply = Reply(cards=[Card(title="Asking to join", description=f"{caller.display_name} asks to play **{side}**; the game master decides.", colour=side_colour(side))],
                      decision=pending)
        reply.ping_user_ids = list(pending.user_ids)
        reply.content = " ".join(f"<@{u}>" for u in pending.user_ids) + " a player asks to join."
        return reply

    @staticmethod
    def _check_side(engine: Engine[Any], side: str) -> str:
        for known in engine.sides():
            if known.casefold() == (side or "").strip().casefold():
                return known
        raise Refusal(f"{short(side)} is not a side here: choose {joined(list(engine.sides()))}.")

    async def campaign_info(self, caller: Caller) -> Reply:
        async with self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            members = list(await s.scalars(select(Member).where(Member.campaign_id == campaign.id).order_by(Member.id)))
            count = await s.scalar(select(func.count()).select_from(Figure).where(Figure.campaign_id == campaign.id))
            game = await self._game(s, campaign)
            battles = await s.scalar(select(func.count()).select_from(Game).where(Game.campaign_id == campaign.id))
        gm = next((m.display_name for m in members if m.role == "gm"), "?")
        players = [f"{m.display_name} ({m.side})" for m in members if m.side]
        card = Card(title=f"Campaign: {campaign.name}", colour=side_colour(None))
        card.fields += [
            ("Ruleset", RULESETS[campaign.ruleset][1], True),
            ("Game master", gm, True),
            ("Figures", str(count), True),
            ("Players", joined(players), False),
            ("Battles", f"{battles}" + (" (one in progress)" if game else ""), True),
        ]
        return Reply(cards=[card], ephemeral=True)

    async def campaign_end(self, caller: Caller) -> Reply:
        async with self._run_locked(caller), self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            self._require_gm(campaign, caller, "end the campaign")
            game = await self._game(s, campaign, lock=True)
            if game is not None:
                game.status = "ended"
                game.ended_at = datetime.now(UTC)
            campaign.active = False
        return Reply(cards=[Card(title="Campaign ended", description=f"{campaign.name} is over. Its records are kept.")])

    # --- rosters ----------------------------------------------------------------------------

    async def roster_add(
        self, caller: Caller, name: str, kind: str, side: str | None = None, stats: str | None = None
    ) -> Reply:
        name = clean_name(name, "figure")
        async with self._run_locked(caller), self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            member = await self._player(s, campaign, caller)
            engine = self._engine(campaign)
            is_gm = campaign.gm_id == caller.user_id
            if side is None:
                if member.side is None:
                    raise Refusal("Say which side the figure fights for (side option), or join a side first.")
                side = member.side
            side = self._check_side(engine, side)
            if not is_gm and side != member.side:
                raise Refusal(f"You play {member.side}: only the game master may add figures to {side}.")
            spec = engine.check_figure(FigureSpec(name=name, side=side, kind=kind or "", stats=parse_stats(stats)))
            clash = await s.scalar(
                select(Figure).where(Figure.campaign_id == campaign.id, func.lower(Figure.name) == name.lower())
            )
            if clash is not None:
                raise Refusal(f"There is already a figure called {short(clash.name)} in this campaign.")
            s.add(Figure(
                campaign_id=campaign.id, owner_id=caller.user_id, name=spec.name, side=spec.side,
                kind=spec.kind, stats=dict(spec.stats), status="active", history=[],
            ))
        detail = f"{spec.kind}" + (f" · {format_stats(spec.stats)}" if spec.stats else "")
        return Reply(cards=[Card(title="Recruited", description=f"**{spec.name}** ({spec.side}) — {detail}", colour=side_colour(spec.side))])

    async def roster_list(self, caller: Caller, side: str | None = None) -> Reply:
        async with self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            query = select(Figure).where(Figure.campaign_id == campaign.id).order_by(Figure.side, Figure.name)
            figures = list(await s.scalars(query))
        if side:
            figures = [f for f in figures if f.side.casefold() == side.strip().casefold()]
        card = Card(title=f"Rosters: {campaign.name}")
        by_side: dict[str, list[str]] = {}
        for f in figures:
            by_side.setdefault(f.side, []).append(f"{f.name} — {f.kind}" + ("" if f.status == "active" else f" ({f.status})"))
        if not by_side:
            card.description = "No figures yet: add them with /roster add."
        for name, lines in by_side.items():
            card.fields.append((f"{name.title()} ({len(lines)})", "\n".join(lines), False))
        return Reply(cards=[card], ephemeral=True)

    async def roster_show(self, caller: Caller, name: str) -> Reply:
        async with self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            figure = await self._figure(s, campaign, name)
            owner = await s.scalar(select(Member).where(Member.campaign_id == campaign.id, Member.user_id == figure.owner_id))
        card = Card(title=figure.name, colour=side_colour(figure.side))
        card.fields += [("Side", figure.side, True), ("Type", figure.kind, True), ("Status", figure.status, True)]
        if figure.stats:
            card.fields.append(("Stats", format_stats(figure.stats), False))
        card.fields.append(("Owner", owner.display_name if owner else "—", True))
        history = figure.history or []
        card.fields.append(("History", "\n".join(str(h) for h in history[-10:]) or "No battles yet.", False))
        return Reply(cards=[card], ephemeral=True)

    async def roster_remove(self, caller: Caller, name: str) -> Reply:
        async with self._run_locked(caller), self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            await self._player(s, campaign, caller)
            figure = await self._figure(s, campaign, name)
            if figure.owner_id != caller.user_id and campaign.gm_id != caller.user_id:
                raise Refusal(f"{short(figure.name)} is not yours: only its owner or the game master may remove it.")
            game = await self._game(s, campaign)
            if game is not None and figure.name in self._figure_names_in(campaign, game):
                raise Refusal(f"{short(figure.name)} is in the game in progress: remove it after /game end.")
            await s.delete(figure)
        return Reply(cards=[Card(title="Removed from the roster", description=f"{figure.name} ({figure.side}) has left the roster.")])

    # --- games ------------------------------------------------------------------------------

    async def game_start(self, caller: Caller) -> Reply:
        async with self._run_locked(caller), self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            self._require_gm(campaign, caller, "start a game")
            if await self._game(s, campaign, lock=True) is not None:
                raise Refusal("A game is already in progress here: see /game status, or /game end it.")
            engine = self._engine(campaign)
            figures = list(await s.scalars(
                select(Figure).where(Figure.campaign_id == campaign.id, Figure.status == "active").order_by(Figure.id)
            ))
            specs = [engine.check_figure(FigureSpec(f.name, f.side, f.kind, dict(f.stats or {}))) for f in figures]
            dice = RecordingDice(self._dice())
            outcome = engine.start(specs, dice)
            game = Game(campaign_id=campaign.id, ruleset=campaign.ruleset, status="active",
                        state=engine.dump_state(outcome.state))
            s.add(game)
            await s.flush()
            record = self._record(game, 1, caller, "/game start", None, campaign.gm_id == caller.user_id, None, outcome.events, dice.rolled)
            s.add(record)
            reply = await self._after_action(s, campaign, engine, game, record, caller, None, outcome, "Game on", None)
            reply.cards.append(board_card(f"{campaign.name}: the table", engine.board(outcome.state)))
        return reply

    async def act(
        self, caller: Caller, ruleset: str, action_name: str, params: Mapping[str, Any], command: str
    ) -> Reply:
        """One phase action of a ruleset (``/ssg shoot ...``), applied once and logged with its dice."""
        async with self._run_locked(caller), self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            if campaign.ruleset != ruleset:
                raise Refusal(f"This channel plays {RULESETS[campaign.ruleset][1]}: use /{campaign.ruleset} commands here.")
            member = await self._player(s, campaign, caller)
            game = await self._game(s, campaign, lock=True)
            if game is None:
                latest = await self._latest_game(s, campaign)
                if latest is not None and latest.winner:
                    raise Refusal(f"The game is over: {latest.winner} won. The game master can start another with /game start.")
                raise Refusal("No game is in progress: the game master starts one with /game start.")
            if caller.interaction_id is not None:
                replay = await self._replay(s, caller.interaction_id)
                if replay is not None:
                    return replay
            open_decision = await self._open_decision(s, game)
            if open_decision is not None:
                raise Refusal(f"Waiting for {open_decision.decider} to decide: {open_decision.prompt}")
            is_gm = campaign.gm_id == caller.user_id
            side = member.side
            if is_gm:
                engine = self._engine(campaign)
                turn = engine.whose_turn(engine.load_state(game.state))
                if turn is not None and side != turn:
                    side = turn  # the game master acts for the side whose turn it is
                else:
                    is_gm = member.side is None
            return await self._apply(s, campaign, game, caller, Action(action_name, side, dict(params), is_gm), command)

    async def _apply(
        self, s: AsyncSession, campaign: Campaign, game: Game, caller: Caller, action: Action, command: str
    ) -> Reply:
        engine = self._engine(campaign)
        state = engine.load_state(game.state)
        before_turn = engine.whose_turn(state)
        dice = RecordingDice(self._dice())
        outcome = engine.act(state, action, dice)
        seq = await self._next_seq(s, game)
        record = self._record(game, seq, caller, command, game.state, action.by_gm, action.side, outcome.events, dice.rolled)
        s.add(record)
        game.state = engine.dump_state(outcome.state)
        title = f"{(action.side or 'Game master').title()} · {action.name}"
        return await self._after_action(s, campaign, engine, game, record, caller, before_turn, outcome, title, action.side)

    async def _after_action(
        self, s: AsyncSession, campaign: Campaign, engine: Engine[Any], game: Game, record: ActionRecord,
        caller: Caller, before_turn: str | None, outcome: Any, title: str, side: str | None,
    ) -> Reply:
        rolled = [RolledDie(r.kind, r.sides, r.value, r.reason) for r in record.rolls]
        reply = Reply(cards=action_cards(title, caller.display_name, side, outcome.events, rolled),
                      events=list(outcome.events), rolls=rolled)
        if engine.finished(outcome.state):
            game.status = "ended"
            game.winner = engine.winner(outcome.state)
            game.ended_at = datetime.now(UTC)
        now_turn = engine.whose_turn(outcome.state)
        if outcome.pending is not None:
            reply.decision = await self._open(s, campaign, game, outcome.pending)
            reply.content = f"Waiting for {outcome.pending.decider}: {outcome.pending.prompt}"
            reply.ping_user_ids = list(reply.decision.user_ids)
        elif now_turn is not None and now_turn != before_turn:
            members = await self._side_members(s, campaign, now_turn)
            reply.ping_user_ids = [m.user_id for m in members]
            mentions = " ".join(f"<@{m.user_id}>" for m in members)
            reply.content = f"{mentions} {now_turn}: your move.".strip()
        return reply

    @staticmethod
    def _record(
        game: Game, seq: int, caller: Caller, command: str, state_before: Any, by_gm: bool,
        side: str | None, events: Sequence[Event], rolled: Sequence[RolledDie],
    ) -> ActionRecord:
        record = ActionRecord(
            game_id=game.id, seq=seq, interaction_id=caller.interaction_id, user_id=caller.user_id,
            side=side, by_gm=by_gm, command=command[:2000], state_before=state_before, undone=False,
        )
        record.events = [EventRecord(seq=i, kind=e.kind, text=e.text, data=dict(e.data)) for i, e in enumerate(events)]
        record.rolls = [RollRecord(seq=i, kind=r.kind, sides=r.sides, value=r.value, reason=r.reason, secret=False) for i, r in enumerate(rolled)]
        return record

    async def _next_seq(self, s: AsyncSession, game: Game) -> int:
        last = await s.scalar(select(func.max(ActionRecord.seq)).where(ActionRecord.game_id == game.id))
        return (last or 0) + 1

    async def _replay(self, s: AsyncSession, interaction_id: int) -> Reply | None:
        """A repeated delivery of an interaction already applied: its result again, nothing re-done."""
        record = await s.scalar(
            select(ActionRecord).where(ActionRecord.interaction_id == interaction_id)
            .options(selectinload(ActionRecord.events), selectinload(ActionRecord.rolls))
        )
        if record is None:
            return None
        events = [Event(e.kind, e.text, e.data or {}) for e in record.events]
        rolled = [RolledDie(r.kind, r.sides, r.value, r.reason) for r in record.rolls]
        reply = Reply(cards=action_cards(f"Already applied: {record.command}", "", record.side, events, rolled),
                      events=events, rolls=rolled, ephemeral=True, replayed=True)
        return reply

    async def _open_decision(self, s: AsyncSession, game: Game) -> DecisionRecord | None:
        return await s.scalar(
            select(DecisionRecord).where(DecisionRecord.game_id == game.id, DecisionRecord.status == "open")
        )

    async def _open(
        self, s: AsyncSession, campaign: Campaign, game: Game | None, decision: Decision,
        *, user_id: int | None = None, kind: str | None = None,
    ) -> PendingDecision:
        """Store ``decision`` so it can wait for hours and outlive a restart."""
        record = DecisionRecord(
            campaign_id=campaign.id, game_id=game.id if game else None, decider=decision.decider,
            user_id=user_id, kind=(kind or decision.resume_action)[:32], prompt=decision.prompt,
            choices=[{"value": c.value, "label": c.label} for c in decision.choices],
            resume={"action": decision.resume_action, "params": dict(decision.params)},
            status="open", channel_id=campaign.channel_id,
        )
        s.add(record)
        await s.flush()
        members = await self._side_members(s, campaign, decision.decider)
        return PendingDecision(record.id, decision.decider, tuple(m.user_id for m in members), decision.prompt, tuple(decision.choices))

    # --- decisions --------------------------------------------------------------------------

    async def _may_decide(self, s: AsyncSession, campaign: Campaign, decision: DecisionRecord, caller: Caller) -> bool:
        if decision.decider == "gm":
            return campaign.gm_id == caller.user_id
        member = await self._member(s, campaign, caller)
        return member is not None and member.role != "pending" and member.side == decision.decider

    async def open_decisions(self, caller: Caller, *, mine: bool = True) -> list[PendingDecision]:
        """Decisions waiting in this channel (only those ``caller`` may answer, with ``mine``)."""
        async with self.db.transaction() as s:
            campaign = await s.scalar(select(Campaign).where(
                Campaign.guild_id == caller.guild_id, Campaign.channel_id == caller.channel_id, Campaign.active.is_(True)))
            if campaign is None:
                return []
            records = list(await s.scalars(select(DecisionRecord).where(
                DecisionRecord.campaign_id == campaign.id, DecisionRecord.status == "open").order_by(DecisionRecord.id)))
            found = []
            for record in records:
                if mine and not await self._may_decide(s, campaign, record, caller):
                    continue
                found.append(PendingDecision(record.id, record.decider, (), record.prompt,
                                             tuple(Choice(c["value"], c["label"]) for c in record.choices)))
            return found

    async def decide(
        self, caller: Caller, choice: str | None, decision_id: int | None = None, *, index: int | None = None
    ) -> Reply:
        """Answer a waiting decision (a button gives its ``index``, /decide the choice): only its decider may."""
        async with self._run_locked(caller), self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            record = await self._decision_for(s, campaign, caller, decision_id)
            if record.status != "open":
                raise Refusal("That decision has already been made.")
            if not await self._may_decide(s, campaign, record, caller):
                raise Refusal("This is not your decision.")
            values = {c["value"].casefold(): c["value"] for c in record.choices}
            labels = {c["label"].casefold(): c["value"] for c in record.choices}
            wanted = (choice or "").strip().casefold()
            value = values.get(wanted) or labels.get(wanted)
            if index is not None and 0 <= index < len(record.choices):
                value = record.choices[index]["value"]
            if value is None:
                raise Refusal(f"Choose one of {joined([c['value'] for c in record.choices])}.")
            record.status, record.answer, record.answered_at = "answered", value, datetime.now(UTC)
            if record.game_id is None:
                return await self._resolve_campaign_decision(s, campaign, record, caller, value)
            game = await lock_game(s, record.game_id)
            if game is None or game.status != "active":
                raise Refusal("That game is over.")
            member = await self._member(s, campaign, caller)
            side = record.decider if record.decider != "gm" else (member.side if member else None)
            action = Action(record.resume["action"], side, {**record.resume.get("params", {}), "choice": value},
                            campaign.gm_id == caller.user_id and record.decider == "gm")
            return await self._apply(s, campaign, game, caller, action, command_line("decide", "", {"choice": value}))

    async def _decision_for(self, s: AsyncSession, campaign: Campaign, caller: Caller, decision_id: int | None) -> DecisionRecord:
        if decision_id is not None:
            record = await s.get(DecisionRecord, decision_id, with_for_update=True)
            if record is None or record.campaign_id != campaign.id:
                raise Refusal("There is no such decision in this channel.")
            return record
        for record in await s.scalars(select(DecisionRecord).where(
                DecisionRecord.campaign_id == campaign.id, DecisionRecord.status == "open").order_by(DecisionRecord.id)):
            if await self._may_decide(s, campaign, record, caller):
                return record
        raise Refusal("Nothing is waiting for your decision here.")

    async def _resolve_campaign_decision(
        self, s: AsyncSession, campaign: Campaign, record: DecisionRecord, caller: Caller, value: str
    ) -> Reply:
        if record.kind != "join":
            raise Refusal("That decision can no longer be answered.")
        params = record.resume.get("params", {})
        member = await s.scalar(select(Member).where(Member.campaign_id == campaign.id, Member.user_id == params.get("user_id")))
        if member is None:
            raise Refusal("That player has left the campaign.")
        if value == "approve":
            member.role = "player" if member.role == "pending" else member.role
            member.side = params.get("side")
            text = f"{member.display_name} now plays **{member.side}**."
        else:
            if member.role == "pending":
                await s.delete(member)
            text = f"The game master turned down {member.display_name}'s request."
        reply = Reply(cards=[Card(title="Join " + ("approved" if value == "approve" else "refused"), description=text,
                                  colour=side_colour(params.get("side")), footer=f"by {caller.display_name}")])
        reply.ping_user_ids = [member.user_id]
        reply.content = f"<@{member.user_id}>"
        return reply

    async def game_status(self, caller: Caller) -> Reply:
        async with self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            game = await self._game(s, campaign) or await self._latest_game(s, campaign)
            if game is None:
                raise Refusal("No game has been played here yet: the game master starts one with /game start.")
            engine = self._engine(campaign)
            board = engine.board(engine.load_state(game.state))
            decision = await self._open_decision(s, game)
        card = board_card(f"{campaign.name} — battle {game.id}", board)
        if decision is not None:
            card.fields.append(("Waiting for", f"{decision.decider}: {decision.prompt}", False))
        return Reply(cards=[card])

    async def game_log(self, caller: Caller, count: int = 10) -> Reply:
        count = max(1, min(count, LOG_PAGE_MAX))
        async with self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            game = await self._game(s, campaign) or await self._latest_game(s, campaign)
            if game is None:
                raise Refusal("No game has been played here yet.")
            records = list(await s.scalars(
                select(ActionRecord).where(ActionRecord.game_id == game.id).order_by(ActionRecord.seq.desc()).limit(count)
                .options(selectinload(ActionRecord.events), selectinload(ActionRecord.rolls))
            ))
        card = Card(title=f"Log of battle {game.id} (last {len(records)})")
        lines = []
        for record in reversed(records):
            mark = "~~" if record.undone else ""
            who = " (game master)" if record.by_gm else ""
            lines.append(f"**{record.seq}.** {mark}`{record.command}`{mark}{who}")
            lines.extend(f"  {e.text}" for e in record.events)
            lines.extend(f"  {roll_line(RolledDie(r.kind, r.sides, r.value, r.reason))}" for r in record.rolls if not r.secret)
        card.description = "\n".join(lines) or "Nothing yet."
        return Reply(cards=[card], ephemeral=True)

    async def game_undo(self, caller: Caller) -> Reply:
        async with self._run_locked(caller), self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            await self._player(s, campaign, caller)
            game = await self._latest_game(s, campaign, lock=True)
            if game is None:
                raise Refusal("There is nothing to undo.")
            if game.status != "active" and game.winner is None:
                raise Refusal("That game was ended by the game master: it can no longer be changed.")
            record = await s.scalar(
                select(ActionRecord).where(ActionRecord.game_id == game.id, ActionRecord.undone.is_(False))
                .order_by(ActionRecord.seq.desc()).limit(1)
            )
            if record is None or record.state_before is None:
                raise Refusal("There is nothing to undo in this game.")
            if record.user_id != caller.user_id and campaign.gm_id != caller.user_id:
                raise Refusal("Only the player who made the last action, or the game master, may undo it.")
            game.state = record.state_before
            game.status, game.winner, game.ended_at = "active", None, None
            record.undone = True
            for decision in await s.scalars(
                select(DecisionRecord).where(DecisionRecord.game_id == game.id, DecisionRecord.status == "open")
            ):
                decision.status = "cancelled"
        return Reply(cards=[Card(title="Undone", description=f"`{record.command}` is taken back; the dice it rolled stay in the log.")])

    async def game_end(self, caller: Caller) -> Reply:
        async with self._run_locked(caller), self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            self._require_gm(campaign, caller, "end the game")
            game = await self._game(s, campaign, lock=True)
            if game is None:
                raise Refusal("No game is in progress.")
            game.status = "ended"
            game.ended_at = datetime.now(UTC)
            for decision in await s.scalars(
                select(DecisionRecord).where(DecisionRecord.game_id == game.id, DecisionRecord.status == "open")
            ):
                decision.status = "cancelled"
        return Reply(cards=[Card(title="Game ended", description=f"Battle {game.id} is over; its log is kept.")])

    # --- free rolls -------------------------------------------------------------------------

    async def roll(self, caller: Caller, expression: str, reason: str | None = None) -> Reply:
        """Free dice in d20 notation; logged in the game when one is in progress here."""
        why = " ".join((reason or "").split())[:100] or "free roll"
        dice = RecordingDice(self._dice())
        result = free_roll(expression, dice, f"{caller.display_name}: {why}")
        event = Event("roll", f"{caller.display_name} rolls {result.detail}", {"expression": result.expression, "total": result.total})
        async with self._run_locked(caller), self.db.transaction() as s:
            campaign = await s.scalar(select(Campaign).where(
                Campaign.guild_id == caller.guild_id, Campaign.channel_id == caller.channel_id, Campaign.active.is_(True)))
            game = await self._game(s, campaign, lock=True) if campaign else None
            if game is not None:
                seq = await self._next_seq(s, game)
                s.add(self._record(game, seq, caller, command_line("roll", "", {"dice": expression, "reason": reason}),
                                   None, campaign.gm_id == caller.user_id, None, [event], dice.rolled))
        card = Card(title=f"{caller.display_name} rolls {result.expression}", description=f"{result.detail}\n**Total: {result.total}**", footer=why)
        return Reply(cards=[card], events=[event], rolls=list(dice.rolled))

    # --- autocomplete -----------------------------------------------------------------------

    async def figure_names(self, caller: Caller, current: str, *, in_game: bool = True) -> list[str]:
        """Names for autocomplete: figures of the game in progress (else the rosters) matching ``current``."""
        async with self.db.transaction() as s:
            campaign = await s.scalar(select(Campaign).where(
                Campaign.guild_id == caller.guild_id, Campaign.channel_id == caller.channel_id, Campaign.active.is_(True)))
            if campaign is None:
                return []
            game = await self._game(s, campaign) if in_game else None
            if game is not None:
                names = self._figure_names_in(campaign, game)
            else:
                names = list(await s.scalars(select(Figure.name).where(Figure.campaign_id == campaign.id).order_by(Figure.name)))
        needle = current.casefold()
        return [n for n in names if needle in n.casefold()][:25]

    async def campaign_ruleset(self, caller: Caller) -> str | None:
        async with self.db.transaction() as s:
            campaign = await s.scalar(select(Campaign).where(
                Campaign.guild_id == caller.guild_id, Campaign.channel_id == caller.channel_id, Campaign.active.is_(True)))
            return campaign.ruleset if campaign else None

    async def side_names(self, caller: Caller, current: str) -> list[str]:
        ruleset = await self.campaign_ruleset(caller)
        if ruleset is None:
            return []
        return [n for n in get_engine(ruleset).sides() if current.casefold() in n.casefold()][:25]

    async def kind_names(self, caller: Caller, current: str) -> list[str]:
        ruleset = await self.campaign_ruleset(caller)
        if ruleset is None:
            return []
        return [n for n in get_engine(ruleset).kinds() if current.casefold() in n.casefold()][:25]


def format_stats(stats: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in stats.items())
