"""/game and the rulesets' actions: start, act (load, check, act, save, render), status, log, undo, end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.app.aftermath import AFTERMATH_COMMAND, AftermathCommands
from bot.app.base import APPLIED, LAST_SEQ
from bot.app.decisions import DecisionCommands
from bot.app.replies import Caller, Card, PendingDecision, Refusal, Reply, mentions
from bot.app.rows import (
    DECISION_ROW,
    LATEST_GAME_ROW,
    OPEN_DECISION_ROW,
    CampaignRow,
    GameRow,
    LogEntry,
    game_row,
    orm_objects,
)
from bot.dice import RecordingDice
from bot.render.cards import action_cards, board_card, board_files
from bot.store.schema import ActionRecord, Campaign, DecisionRecord, Figure, Game
from bot.store.tx import SessionTx, Tx
from rules import RULESETS
from rules.core import Action, Engine, FigureSpec, short, to_data

#: Before an action: was this interaction applied already, does a decision wait, the log's last seq.
ACTION_CONTEXT = select(
    APPLIED,
    select(DecisionRecord.id)
    .where(DecisionRecord.game_id == bindparam("game"), DecisionRecord.status == "open")
    .limit(1)
    .scalar_subquery(),
    LAST_SEQ,
)


class GameCommands(DecisionCommands, AftermathCommands):
    async def game_start(self, caller: Caller, chosen: str | None = None) -> Reply:
        """A battle with the roster figures able to fight (dead and resting ones stay home), or only
        the ones ``chosen`` names ("Rossi, Ada, Big Jim")."""
        async with self._run_locked(caller), self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            self._require_gm(campaign, caller, "start a game")
            if await self._game(s, campaign, lock=True) is not None:
                raise Refusal("A game is already in progress here: see /game status, or /game end it.")
            engine = self._engine(campaign)
            figures, home = await self._roster_split(s, campaign)
            if chosen:
                figures = pick_figures(figures, chosen)
            specs = [engine.check_figure(FigureSpec(f.name, f.side, f.kind, dict(f.stats or {}))) for f in figures]
            dice = RecordingDice(self._dice())
            outcome = engine.start(specs, dice)
            number = await self._battles_fought(s, campaign) + 1
            game = Game(
                campaign_id=campaign.id,
                number=number,
                ruleset=campaign.ruleset,
                status="active",
                state=engine.dump_state(outcome.state),
            )
            s.add(game)
            await s.flush()
            started = {"start": [to_data(spec) for spec in specs]}
            tx = SessionTx(s)
            entry = self._record(
                game,
                1,
                caller,
                "/game start",
                None,
                campaign.gm_id == caller.user_id,
                None,
                outcome.events,
                dice.rolled,
                started,
            )
            await self._write(tx, entry)
            reply = await self._after_action(tx, campaign, engine, game, entry, caller, None, outcome, "Game on", None)
            if home and reply.cards:
                reply.cards[0].fields.append(("Staying home", ", ".join(home), False))
            board = engine.board(outcome.state)
            title = f"{campaign.name}: the table"
            if not any(card.title == title for card in reply.cards):  # a grid board is drawn once, not twice
                reply.cards.append(board_card(title, board))
                reply.files = board_files(board)
        return reply

    async def act(
        self, caller: Caller, ruleset: str, action_name: str, params: Mapping[str, Any], command: str
    ) -> Reply:
        """One phase action of a ruleset (``/ssg shoot ...``), applied once and logged with its dice."""
        async with self._run_locked(caller), self.db.plain() as tx:
            campaign, member = await self._campaign_and_player_row(tx, caller)
            if campaign.ruleset != ruleset:
                raise Refusal(
                    f"This channel plays {RULESETS[campaign.ruleset][1]}: use /{campaign.ruleset} commands here."
                )
            game = await self._game_row(tx, campaign.id, lock=True)
            if game is None:
                latest = game_row(await tx.first(LATEST_GAME_ROW, {"campaign": campaign.id}))
                if latest is not None and latest.winner:
                    raise Refusal(
                        f"The game is over: {latest.winner} won. The game master can start another with /game start."
                    )
                raise Refusal("No game is in progress: the game master starts one with /game start.")
            applied, waiting, last_seq = await tx.first(
                ACTION_CONTEXT, {"interaction": caller.interaction_id, "game": game.id}
            )
            if applied is not None and caller.interaction_id is not None:
                replay = await self._replay(await tx.session(), caller.interaction_id)
                if replay is not None:
                    return replay
            engine = self._engine(campaign)
            if waiting is not None and action_name not in getattr(engine, "free_actions", ()):
                decider, prompt = await tx.first(DECISION_ROW, {"decision": waiting})
                raise Refusal(f"Waiting for {decider} to decide: {prompt}")
            state = self._states.load(engine, game)
            is_gm = campaign.gm_id == caller.user_id
            side = member.side
            if is_gm:
                turn = engine.whose_turn(state)
                if turn is not None and side != turn:
                    side = turn  # the game master acts for the side whose turn it is
                else:
                    is_gm = member.side is None
            action = Action(action_name, side, dict(params), is_gm)
            return await self._apply(
                tx, campaign, game, caller, action, command, state=state, seq=(last_seq or 0) + 1, engine=engine
            )

    async def _apply(
        self,
        tx: Tx,
        campaign: Campaign | CampaignRow,
        game: Game | GameRow,
        caller: Caller,
        action: Action,
        command: str,
        *,
        state: Any = None,
        seq: int | None = None,
        engine: Engine[Any] | None = None,
    ) -> Reply:
        engine = engine or self._engine(campaign)
        if state is None:  # a caller on the ORM, whose game may hold this transaction's own writes: built afresh
            state = engine.load_state(game.state)
        before_turn = engine.whose_turn(state)
        dice = RecordingDice(self._dice())
        outcome = engine.act(state, action, dice)
        if seq is None:
            seq = await self._next_seq(tx, game)
        entry = self._record(
            game,
            seq,
            caller,
            command,
            game.state,
            action.by_gm,
            action.side,
            outcome.events,
            dice.rolled,
            {"name": action.name, "side": action.side, "params": dict(action.params), "by_gm": action.by_gm},
        )
        await self._write(tx, entry)
        await self._save_state(tx, game, engine.dump_state(outcome.state))
        if not engine.finished(outcome.state):  # a battle's close works on its final state: built afresh when read
            tx.on_commit(partial(self._states.keep, game.id, game.version, engine, outcome.state))
        title = f"{(action.side or 'Game master').title()} · {action.name}"
        return await self._after_action(
            tx, campaign, engine, game, entry, caller, before_turn, outcome, title, action.side
        )

    async def _after_action(
        self,
        tx: Tx,
        campaign: Campaign | CampaignRow,
        engine: Engine[Any],
        game: Game | GameRow,
        entry: LogEntry,
        caller: Caller,
        before_turn: str | None,
        outcome: Any,
        title: str,
        side: str | None,
    ) -> Reply:
        reply = Reply(
            cards=action_cards(title, caller.display_name, side, outcome.events, entry.rolls),
            events=list(outcome.events),
            rolls=list(entry.rolls),
        )
        if engine.finished(outcome.state):
            s = await tx.session()
            orm_campaign, orm_game = await orm_objects(s, campaign, game)
            orm_game.status = "ended"
            orm_game.winner = engine.winner(outcome.state)
            orm_game.ended_at = datetime.now(UTC)
            closed = await self._close_battle(s, orm_campaign, orm_game, engine, outcome.state)
            reply.cards.extend(closed.cards)
            reply.events.extend(closed.events)
            reply.rolls.extend(closed.rolls)
        if any(e.kind == "phase" for e in outcome.events):  # a grid board is redrawn as each phase begins
            board = engine.board(outcome.state)
            if board.grid is not None:
                reply.cards.append(board_card(f"{campaign.name}: the table", board))
                reply.files = board_files(board)
        now_turn = engine.whose_turn(outcome.state)
        if outcome.pending is not None:
            reply.decision = await self._open(await tx.session(), campaign, game, outcome.pending)
            reply.content = f"{mentions(reply.decision.user_ids)} Waiting for {outcome.pending.decider}: {outcome.pending.prompt}".strip()
            reply.ping_user_ids = list(reply.decision.user_ids)
        elif now_turn is not None and now_turn != before_turn:
            reply.ping_user_ids = await self._side_user_ids(tx, campaign.id, now_turn)
            reply.content = f"{mentions(reply.ping_user_ids)} {now_turn}: your move.".strip()
        return reply

    async def game_status(self, caller: Caller) -> Reply:
        async with self.db.plain() as tx:
            campaign = await self._campaign_row(tx, caller)
            game = await self._game_row(tx, campaign.id, latest=True)
            if game is None:
                raise Refusal("No game has been played here yet: the game master starts one with /game start.")
            engine = self._engine(campaign)
            board = engine.board(self._states.load(engine, game))
            decision = await tx.first(OPEN_DECISION_ROW, {"game": game.id})
        card = board_card(f"{campaign.name} — battle {game.number}", board)
        if decision is not None:
            card.fields.append(("Waiting for", f"{decision[0]}: {decision[1]}", False))
        return Reply(cards=[card], files=board_files(board))

    # /game log is ReportCommands.game_log (bot/app/reports.py): a page at a time, secret rolls kept back.

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
                select(ActionRecord)
                .where(
                    ActionRecord.game_id == game.id,
                    ActionRecord.undone.is_(False),
                    ActionRecord.command != AFTERMATH_COMMAND,
                    ActionRecord.state_before.is_not(None),
                )
                .order_by(ActionRecord.seq.desc())
                .limit(1)
            )
            if (
                record is not None
                and record.state_before is not None
                and record.user_id in (caller.user_id, campaign.gm_id)
            ):
                await self._revert_battle(s, campaign, game)
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
            reopened = await self._reopen_waiting(s, campaign, game)
        reply = Reply(
            cards=[
                Card(
                    title="Undone", description=f"`{record.command}` is taken back; the dice it rolled stay in the log."
                )
            ]
        )
        if reopened is not None:
            reply.decision, reply.ping_user_ids = reopened, list(reopened.user_ids)
            reply.content = (
                f"{mentions(reopened.user_ids)} Waiting for {reopened.decider} again: {reopened.prompt}".strip()
            )
        return reply

    async def _reopen_waiting(self, s: AsyncSession, campaign: Campaign, game: Game) -> PendingDecision | None:
        """After an undo, the choice the restored state waits for is asked again (engines that say so)."""
        engine = self._engine(campaign)
        pending = getattr(engine, "pending", None)
        decision = pending(engine.load_state(game.state)) if pending is not None else None
        return await self._open(s, campaign, game, decision) if decision is not None else None

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
            engine = self._engine(campaign)
            closed = await self._close_battle(s, campaign, game, engine, engine.load_state(game.state))
        ended = Card(title="Game ended", description=f"Battle {game.number} is over; its log is kept.")
        return Reply(cards=[ended, *closed.cards], events=closed.events, rolls=closed.rolls)


def pick_figures(available: Sequence[Figure], chosen: str) -> list[Figure]:
    """The figures ``chosen`` names (comma-separated), each one able to fight."""
    by_name = {f.name.casefold(): f for f in available}
    picked, missing = [], []
    for name in (n.strip() for n in chosen.split(",")):
        if not name:
            continue
        figure = by_name.get(" ".join(name.split()).casefold())
        (picked.append(figure) if figure is not None else missing.append(name))
    if missing:
        raise Refusal(f"Not able to fight now (unknown, dead or resting): {', '.join(short(m) for m in missing[:5])}.")
    if not picked:
        raise Refusal("Name the figures that fight, separated by commas.")
    return picked
