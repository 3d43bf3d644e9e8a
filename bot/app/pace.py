"""Play-by-chat pace: a turn deadline, one reminder before it, and what happens at it.

The game master sets a campaign's deadline (``/campaign deadline hours: then:``). From then on
every wait of a game has a clock: a **decision** waiting for a side (its buttons), or the **turn**
of the side ``engine.whose_turn`` names. The clock of a wait starts when the game starts waiting on
that side (a decision: when it was asked; a turn: when the scheduler first sees it, at most one
poll later) and runs until the game waits on something else; acting inside one's own turn does
not reset it — the deadline is for the whole turn.

* The reminder goes out once, at ``remind_at`` (by default 3/4 of the deadline), and pings only the
  players of the waiting side (the game master when nobody plays it).
* At the deadline the campaign's choice is applied, once:

  - ``pass`` for a **decision**: the choice whose value is ``pass`` where the engine offers one
    (NSR's "no unit left"), otherwise the first choice (the one the buttons show first, which the
    engines list as the ordinary answer: go first, parry, dodge, the first unit). For a **turn**:
    the ruleset's own action that ends a side's part of the turn, repeated until the game waits on
    someone else — SSG ``next`` (phase by phase), medieval ``endturn``, YASG ``next``, Sharpe
    ``done`` (each of the side's characters in turn), NSR ``hold`` (the unit the card named). When
    the engine refuses it (SSG figures still in melee contact, a Sharpe horse that must keep
    moving, NSR's Joker 6 charge, YASG figures not yet placed), or a ruleset has no such action,
    the game master decides instead and the message says why.
  - ``gm``: the game master is pinged; they answer the decision for the player (``/decide`` or its
    buttons: the game master may answer any player's decision) or act for the side whose turn it
    is with the ruleset's commands. The log says "(game master for red)".

  Decisions that wait for the game master, and campaign decisions (join requests), have no deadline.
* Everything lives in the ``deadlines`` table, so a restart loses nothing: on start the scheduler
  catches up on what fell due while it was down, once. A reminder whose deadline has already
  passed is not sent late; the timeout is applied instead. Each item is claimed in its own
  transaction (a reminder by a conditional UPDATE of ``reminded_at``; a timeout by moving the row
  from ``open`` to ``expired`` under the game's row lock), so two bot processes on one database
  never send either twice. A reminder that could not be posted is released and tried again; a
  crash between the claim and the post loses that one reminder rather than sending it twice.

Time is injectable: ``pace_clock`` (a function returning an aware UTC datetime) and ``pace_hour``
(how long a deadline hour lasts; ``SKIRMISH_GM_HOUR_SECONDS`` sets it for a test bot).
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.app.base import AppBase, command_line
from bot.app.replies import Caller, Card, Refusal, Reply, mentions, side_colour
from bot.store.database import lock_game
from bot.store.schema import DEADLINE_RUNNING, GAME_IN_PLAY, Campaign, Deadline, DecisionRecord, Game, utcnow
from bot.store.tx import SessionTx
from rules.core import Action, RuleError

log = logging.getLogger("skirmish_gm.pace")

HOURS_MIN = 0.25
HOURS_MAX = 720.0
ON_TIMEOUT = ("pass", "gm")
DEFAULT_ON_TIMEOUT = "gm"
DEFAULT_REMIND_AT = 0.75
REMIND_MIN = 0.1
REMIND_MAX = 0.95
HOUR_ENV = "SKIRMISH_GM_HOUR_SECONDS"
#: A turn passed step by step (SSG's phases, Sharpe's characters) gives up after this many steps.
PASS_STEPS_MAX = 40
#: The action that ends a side's part of the turn, for rulesets whose engine does not name one
#: itself (an engine may declare ``pass_action = "<name>"``).
TURN_PASS_ACTIONS = {"ssg": "next", "medieval": "endturn", "yasg": "next", "sharpe": "done", "nsr": "hold"}
#: The choice a decision's "pass" takes when the engine offers it.
PASS_CHOICE = "pass"
#: The user id the log shows for what the deadline did (nobody: only the game master may undo it).
DEADLINE_USER_ID = 0
DEADLINE_NAME = "the deadline"
#: Every poll: each active game that keeps a pace or still has a wait, with the version its wait
#: last saw. The poll's statements are plain (bot.store.tx): through an ORM session they held the
#: event loop 8 ms every 30 s with a thousand games in play, where SQLite spends a fraction of one.
GAMES_TO_SYNC = (
    select(Game.id, Game.version, Campaign.settings, Deadline.game_version)
    .join(Campaign, Campaign.id == Game.campaign_id)
    .outerjoin(Deadline, and_(Deadline.game_id == Game.id, DEADLINE_RUNNING))
    .where(
        GAME_IN_PLAY,
        Campaign.active.is_(True),
        Campaign.settings["pace"].as_string().is_not(None) | Deadline.id.is_not(None),
    )
)
#: The deadlines whose reminder is due (and whose deadline is not: then the timeout comes instead),
#: and those whose deadline passed, read every poll.
DUE_REMINDERS = (
    select(Deadline.id)
    .where(
        Deadline.status == "open",
        Deadline.reminded_at.is_(None),
        Deadline.remind_at <= bindparam("now"),
        Deadline.due_at > bindparam("now"),
    )
    .order_by(Deadline.remind_at)
)
DUE_TIMEOUTS = (
    select(Deadline.id).where(Deadline.status == "open", Deadline.due_at <= bindparam("now")).order_by(Deadline.due_at)
)
#: Waits of games that ended, or of campaigns that ended, end with them.
CLOSE_ENDED_WAITS = (
    update(Deadline.__table__)
    .where(
        DEADLINE_RUNNING,
        Deadline.game_id.in_(
            select(Game.id)
            .join(Campaign, Campaign.id == Game.campaign_id)
            .where(~GAME_IN_PLAY | Campaign.active.is_(False))
        ),
    )
    .values(status="closed")
)
ALARM = "⏰"
ALARM_COLOUR = 0xE67E22


def hour_length() -> timedelta:
    """How long a deadline hour lasts: an hour, unless ``SKIRMISH_GM_HOUR_SECONDS`` says otherwise (tests)."""
    raw = os.environ.get(HOUR_ENV, "").strip()
    try:
        seconds = float(raw) if raw else 3600.0
    except ValueError:
        seconds = 3600.0
    if not math.isfinite(seconds) or seconds <= 0:
        seconds = 3600.0
    return timedelta(seconds=seconds)


def hours_text(hours: float) -> str:
    """``24 hours``, ``1 hour``, ``1.5 hours``, ``45 minutes``."""
    if hours < 1:
        minutes = max(1, round(hours * 60))
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    rounded = round(hours, 1)
    return f"{rounded:g} hour{'s' if rounded != 1 else ''}"


@dataclass(frozen=True)
class Wait:
    """What a game waits on now: a side's decision, or a side's turn."""

    kind: str
    side: str
    decision_id: int | None = None
    since: datetime | None = None

    def same(self, row: Deadline) -> bool:
        return (row.kind, row.side, row.decision_id) == (self.kind, self.side, self.decision_id)


@dataclass
class PaceNotice:
    """A message the scheduler posts in a campaign's channel."""

    deadline_id: int
    channel_id: int
    reply: Reply


class PaceCommands(AppBase):
    #: The clock (aware UTC). Tests put a fake one on the App instance.
    pace_clock: Callable[[], datetime] = staticmethod(utcnow)
    #: How long a deadline hour lasts; ``None``: :func:`hour_length` (an hour, or the test setting).
    pace_hour: timedelta | None = None

    def _hour(self) -> timedelta:
        return self.pace_hour if self.pace_hour is not None else hour_length()

    # --- the command ----------------------------------------------------------------------

    async def set_deadline(
        self,
        caller: Caller,
        hours: float | None,
        on_timeout: str | None,
        *,
        remind_at: float | None = None,
    ) -> Reply:
        """The game master sets (or clears, with ``hours=None``) the campaign's turn deadline and
        what happens when it passes (``on_timeout``: "pass" or "gm").

        ``hours=None`` with an ``on_timeout`` (or a ``remind_at``) changes only that; with none of
        them, the deadline goes. ``remind_at`` is when the reminder comes, as a share of the deadline (default 3/4,
        kept until changed). The clock of the move waiting now starts again.
        """
        choice = self._check_on_timeout(on_timeout)
        remind_share = self._check_remind_at(remind_at)
        async with self._run_locked(caller), self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            self._require_gm(campaign, caller, "set the turn deadline")
            await s.refresh(campaign, with_for_update=True)
            settings = dict(campaign.settings or {})
            old = settings.get("pace")
            if hours is None and choice is None and remind_share is None:
                settings.pop("pace", None)
                campaign.settings = settings
                for row in await s.scalars(
                    select(Deadline).where(Deadline.campaign_id == campaign.id, DEADLINE_RUNNING)
                ):
                    row.status = "closed"
                text = (
                    "No turn deadline any more: the game waits as long as it takes."
                    if old
                    else "There was no turn deadline; nothing changed."
                )
                return Reply(cards=[Card(title=f"{ALARM} Turn deadline", description=text)])
            if hours is None:
                if not old:
                    raise Refusal("There is no turn deadline to change: give hours too.")
                hours = float(old["hours"])
            hours = self._check_hours(hours)
            choice = choice or (old or {}).get("on_timeout") or DEFAULT_ON_TIMEOUT
            remind = (
                remind_share if remind_share is not None else float((old or {}).get("remind_at", DEFAULT_REMIND_AT))
            )
            settings["pace"] = {"hours": hours, "on_timeout": choice, "remind_at": remind}
            campaign.settings = settings
            game = await self._game(s, campaign, lock=True)
            row = None
            if game is not None:
                current = await self._current_deadline(s, game.id)
                row = await self._sync_game(s, campaign, game, current, self.pace_clock(), restart=True)
            return Reply(cards=[self._deadline_card(campaign, hours, choice, remind, row)])

    @staticmethod
    def _check_on_timeout(on_timeout: str | None) -> str | None:
        if on_timeout is None:
            return None
        choice = on_timeout.strip().casefold()
        if choice not in ON_TIMEOUT:
            raise Refusal("When the deadline passes, choose pass or gm.")
        return choice

    @staticmethod
    def _check_remind_at(remind_at: float | None) -> float | None:
        if remind_at is None:
            return None
        try:
            value = float(remind_at)
        except (TypeError, ValueError):
            raise Refusal("Give the reminder's moment as a share of the deadline, like 0.75.") from None
        if not math.isfinite(value) or not REMIND_MIN <= value <= REMIND_MAX:
            raise Refusal(f"The reminder comes between {REMIND_MIN:g} and {REMIND_MAX:g} of the deadline.")
        return value

    @staticmethod
    def _check_hours(hours: float) -> float:
        try:
            value = float(hours)
        except (TypeError, ValueError):
            raise Refusal("Give the deadline as a number of hours.") from None
        if not math.isfinite(value) or not HOURS_MIN <= value <= HOURS_MAX:
            raise Refusal(f"A turn deadline is from {HOURS_MIN:g} to {HOURS_MAX:g} hours.")
        return value

    def _deadline_card(
        self, campaign: Campaign, hours: float, choice: str, remind: float, row: Deadline | None
    ) -> Card:
        then = (
            "the bot passes for the player: a decision takes its pass choice (else the first), "
            f"a turn ends with /{campaign.ruleset} {self._pass_action_name(campaign) or '…'}"
            if choice == "pass"
            else "the game master decides (and may act for the absent player)"
        )
        first = (
            f"Every move waits at most **{hours_text(hours)}**. The waiting player is reminded once, "
            f"after {hours_text(hours * remind)}; then {then}."
        )
        lines = [first]
        if row is not None:
            what = "decision" if row.kind == "decision" else "turn"
            lines.append(f"The clock for {row.side}'s {what} starts now.")
        return Card(title=f"{ALARM} Turn deadline", description="\n".join(lines), colour=ALARM_COLOUR)

    def _pass_action_name(self, campaign: Campaign) -> str | None:
        engine = self._engine(campaign)
        named = getattr(engine, "pass_action", None)
        return named if isinstance(named, str) and named else TURN_PASS_ACTIONS.get(campaign.ruleset)

    # --- keeping the deadlines in step with the games --------------------------------------

    async def sync_deadlines(self, now: datetime | None = None) -> int:
        """Give every game that waits on a side a clock, and move it on when the game moved on.

        Cheap when nothing changed: one query compares the version of each active game that keeps a
        pace or still has a deadline with the version its deadline last saw; only the games that
        differ are loaded. Games without either are not read at all: the scheduler runs this every
        poll, on the event loop, and a thousand games in play must not stall it. Returns how many
        were looked at.
        """
        now = now or self.pace_clock()
        async with self.db.plain() as tx:
            rows = await tx.rows(GAMES_TO_SYNC)
            await tx.run(CLOSE_ENDED_WAITS, {})
        stale = [
            game_id
            for game_id, version, settings, seen in rows
            if ((settings or {}).get("pace") and seen != version)
            or (not (settings or {}).get("pace") and seen is not None)
        ]
        for game_id in stale:
            try:
                async with self.db.transaction() as s:
                    game = await lock_game(s, game_id)
                    if game is None:
                        continue
                    campaign = await s.get(Campaign, game.campaign_id)
                    await self._sync_game(s, campaign, game, await self._current_deadline(s, game.id), now)
            except Exception:  # one broken game must not stop the clocks of the others
                log.exception("could not bring the deadline of game %s in step", game_id)
        return len(stale)

    async def _current_deadline(self, s: AsyncSession, game_id: int) -> Deadline | None:
        return await s.scalar(
            select(Deadline)
            .where(Deadline.game_id == game_id, DEADLINE_RUNNING)
            .with_for_update()
            .execution_options(populate_existing=True)
        )

    async def _waiting_on(self, s: AsyncSession, campaign: Campaign, game: Game, now: datetime) -> Wait | None:
        decision = await s.scalar(
            select(DecisionRecord)
            .where(DecisionRecord.game_id == game.id, DecisionRecord.status == "open")
            .order_by(DecisionRecord.id)
            .limit(1)
        )
        if decision is not None:
            if decision.decider == "gm":
                return None  # the game master's own choices have no deadline
            return Wait("decision", decision.decider, decision.id, min(decision.created_at, now))
        engine = self._engine(campaign)
        state = engine.load_state(game.state)
        if engine.finished(state):
            return None
        side = engine.whose_turn(state)
        return Wait("turn", side) if side else None

    async def _sync_game(
        self,
        s: AsyncSession,
        campaign: Campaign,
        game: Game,
        current: Deadline | None,
        now: datetime,
        *,
        restart: bool = False,
    ) -> Deadline | None:
        """The game's current deadline after comparing it with what the game waits on now (the
        game is locked). ``restart`` starts the clock again even for the same wait."""
        await s.flush()  # the game's version is bumped by its pending changes
        pace = (campaign.settings or {}).get("pace")
        wait = None
        if pace and campaign.active and game.status == "active":
            wait = await self._waiting_on(s, campaign, game, now)
        if current is not None and wait is not None and not restart and wait.same(current):
            current.game_version = game.version
            return current
        if current is not None:
            current.status = "closed"
            await s.flush()  # one current wait per game: the old one goes before the new one comes
        if wait is None or not pace:
            return None
        length = self._hour() * float(pace["hours"])
        since = now if restart or wait.since is None else min(wait.since, now)
        row = Deadline(
            campaign_id=campaign.id,
            game_id=game.id,
            decision_id=wait.decision_id,
            channel_id=campaign.channel_id,
            kind=wait.kind,
            side=wait.side,
            on_timeout=str(pace.get("on_timeout") or DEFAULT_ON_TIMEOUT),
            status="open",
            started_at=since,
            remind_at=since + length * float(pace.get("remind_at", DEFAULT_REMIND_AT)),
            due_at=since + length,
            game_version=game.version,
        )
        s.add(row)
        await s.flush()
        return row

    # --- reminders ------------------------------------------------------------------------

    async def due_reminders(self, now: datetime | None = None) -> list[int]:
        """Deadlines whose reminder is due (and whose deadline is not: then the timeout comes instead)."""
        async with self.db.plain() as tx:
            return [row[0] for row in await tx.rows(DUE_REMINDERS, {"now": now or self.pace_clock()})]

    async def send_reminder(self, deadline_id: int, now: datetime | None = None) -> PaceNotice | None:
        """Claim the reminder (once, whatever other process tries too) and write it; ``None`` when
        it was already claimed or is no longer due."""
        now = now or self.pace_clock()
        async with self.db.transaction() as s:
            claimed = await s.execute(
                update(Deadline)
                .where(
                    Deadline.id == deadline_id,
                    Deadline.status == "open",
                    Deadline.reminded_at.is_(None),
                    Deadline.remind_at <= now,
                    Deadline.due_at > now,
                )
                .values(reminded_at=now)
                .execution_options(synchronize_session=False)
            )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                return None
            row = await s.get(Deadline, deadline_id, populate_existing=True)
            campaign = await s.get(Campaign, row.campaign_id)
            what = await self._what(s, row)
            users = await self._side_user_ids(SessionTx(s), campaign.id, row.side) or [campaign.gm_id]
            left = (row.due_at - now) / self._hour()
            due = int(row.due_at.timestamp())
            then = "the bot passes for you" if row.on_timeout == "pass" else "the game master decides"
            reply = Reply(
                content=f"{mentions(users)} {ALARM} Reminder: {what} is waiting for you.",
                cards=[
                    Card(
                        title=f"{ALARM} Reminder: {what}",
                        description=f"{hours_text(left)} left (until <t:{due}:f>); then {then}.",
                        colour=side_colour(row.side),
                    )
                ],
                ping_user_ids=users,
            )
            return PaceNotice(row.id, row.channel_id, reply)

    async def release_reminder(self, deadline_id: int, claimed_at: datetime) -> None:
        """Give back a reminder that could not be posted, so the next tick tries again."""
        async with self.db.transaction() as s:
            await s.execute(
                update(Deadline)
                .where(Deadline.id == deadline_id, Deadline.status == "open", Deadline.reminded_at == claimed_at)
                .values(reminded_at=None)
                .execution_options(synchronize_session=False)
            )

    async def _what(self, s: AsyncSession, row: Deadline) -> str:
        if row.kind == "decision" and row.decision_id is not None:
            decision = await s.get(DecisionRecord, row.decision_id)
            prompt = f" ({decision.prompt})" if decision is not None else ""
            return f"{row.side}'s decision{prompt}"
        return f"{row.side}'s turn"

    # --- timeouts -------------------------------------------------------------------------

    async def due_timeouts(self, now: datetime | None = None) -> list[int]:
        async with self.db.plain() as tx:
            return [row[0] for row in await tx.rows(DUE_TIMEOUTS, {"now": now or self.pace_clock()})]

    async def apply_timeout(self, deadline_id: int, now: datetime | None = None) -> PaceNotice | None:
        """At the deadline: the campaign's choice, applied once; ``None`` when another process (or
        the player, at the last moment) got there first."""
        now = now or self.pace_clock()
        async with self.db.transaction() as s:
            head = (
                await s.execute(
                    select(Deadline.channel_id, Deadline.decision_id, Deadline.game_id).where(
                        Deadline.id == deadline_id
                    )
                )
            ).first()
        if head is None:
            return None
        channel_id, decision_id, game_id = head
        # The same order of locks as a command: the channel (this process), the decision, the game.
        async with self._channel_locks[channel_id], self.db.transaction() as s:
            decision = None
            if decision_id is not None:
                decision = await s.get(DecisionRecord, decision_id, with_for_update=True, populate_existing=True)
            game = await lock_game(s, game_id)
            row = await s.scalar(
                select(Deadline)
                .where(Deadline.id == deadline_id)
                .with_for_update()
                .execution_options(populate_existing=True)
            )
            if row is None or game is None or row.status != "open" or row.due_at > now:
                return None
            campaign = await s.get(Campaign, row.campaign_id)
            pace = (campaign.settings or {}).get("pace")
            wait = await self._waiting_on(s, campaign, game, now) if pace and game.status == "active" else None
            if wait is None or not wait.same(row):
                await self._sync_game(s, campaign, game, row, now)  # the game moved on meanwhile
                return None
            row.status, row.expired_at = "expired", now
            what = await self._what(s, row)
            if row.on_timeout == "pass":
                reply, why = await self._pass(s, campaign, game, row, decision, what)
                row.outcome = "passed" if why is None else f"gm: {why}"
            else:
                reply = self._for_the_gm(campaign, row, what, None)
                row.outcome = "gm"
            await self._sync_game(s, campaign, game, row, now)
            return PaceNotice(row.id, row.channel_id, reply)

    def _deadline_caller(self, campaign: Campaign) -> Caller:
        return Caller(DEADLINE_USER_ID, DEADLINE_NAME, campaign.guild_id, campaign.channel_id, None)

    async def _pass(
        self,
        s: AsyncSession,
        campaign: Campaign,
        game: Game,
        row: Deadline,
        decision: DecisionRecord | None,
        what: str,
    ) -> tuple[Reply, str | None]:
        """Pass for the absent side; what could not be passed goes to the game master, with why."""
        caller = self._deadline_caller(campaign)
        steps: list[Reply] = []
        why: str | None = None
        if row.kind == "decision" and decision is not None:
            values = [c["value"] for c in decision.choices]
            value = next((v for v in values if v.casefold() == PASS_CHOICE), values[0] if values else None)
            if value is None:
                why = "the decision offers no choice"
            else:
                command = (
                    command_line("decide", "", {"choice": value}) + f" (deadline passed: the bot chose for {row.side})"
                )
                try:
                    steps.append(
                        await self._answer(
                            s,
                            campaign,
                            decision,
                            caller,
                            value,  # type: ignore[attr-defined]
                            side=row.side,
                            by_gm=False,
                            command=command,
                        )
                    )
                except RuleError as exc:
                    why = exc.message
            done = f"Nobody answered in time, so the bot chose **{value}** for {row.side}." if not why else ""
        else:
            why = await self._pass_turn(s, campaign, game, row.side, caller, steps)
            count = f" ×{len(steps)}" if len(steps) > 1 else ""
            name = self._pass_action_name(campaign)
            done = (
                f"Nobody moved in time, so the bot passed for {row.side}: `/{campaign.ruleset} {name}`{count}."
                if steps
                else ""
            )
        if why is not None:
            reply = self._for_the_gm(campaign, row, what, why)
            if done:
                reply.cards[0].description = done + "\n" + reply.cards[0].description
            for step in steps:
                reply.cards.extend(step.cards)
            last = steps[-1] if steps else None
            if last is not None:
                reply.files = last.files
            return reply, why
        last = steps[-1]
        header = Card(title=f"{ALARM} Deadline passed: {what}", description=done, colour=ALARM_COLOUR)
        reply = Reply(
            cards=[header] + [card for step in steps for card in step.cards],
            content=last.content,
            ping_user_ids=list(last.ping_user_ids),
            decision=last.decision,
            events=[e for step in steps for e in step.events],
            rolls=[r for step in steps for r in step.rolls],
            files=last.files,
        )
        return reply, None

    async def _pass_turn(
        self,
        s: AsyncSession,
        campaign: Campaign,
        game: Game,
        side: str,
        caller: Caller,
        steps: list[Reply],
    ) -> str | None:
        """The ruleset's turn-ending action for ``side`` until the game waits on someone else.
        Each step is a logged action of its own; returns why it stopped short, or ``None``."""
        name = self._pass_action_name(campaign)
        if name is None:
            return f"{campaign.ruleset} has no action that passes a turn"
        engine = self._engine(campaign)
        command = command_line(campaign.ruleset, name, {}) + f" (deadline passed: the bot passed for {side})"
        for _ in range(PASS_STEPS_MAX):
            state = engine.load_state(game.state)
            if engine.finished(state) or engine.whose_turn(state) != side or (steps and steps[-1].decision is not None):
                return None
            try:
                steps.append(
                    await self._apply(SessionTx(s), campaign, game, caller, Action(name, side, {}, False), command)
                )  # type: ignore[attr-defined]
            except RuleError as exc:
                return exc.message
        return f"{side}'s turn did not end after {PASS_STEPS_MAX} steps"

    def _for_the_gm(self, campaign: Campaign, row: Deadline, what: str, why: str | None) -> Reply:
        if row.kind == "decision":
            how = f"answer it for {row.side} with /decide or its buttons"
        else:
            how = f"act for {row.side} with the /{campaign.ruleset} commands"
        lines = []
        if why:
            lines.append(f"The bot could not pass for {row.side}: {why.rstrip('.')}.")
        lines.append(f"The game master decides: {how}, or wait for {row.side}.")
        return Reply(
            content=f"<@{campaign.gm_id}> {ALARM} The deadline for {what} has passed.",
            cards=[Card(title=f"{ALARM} Deadline passed: {what}", description="\n".join(lines), colour=ALARM_COLOUR)],
            ping_user_ids=[campaign.gm_id],
        )

    async def pace_of(self, caller: Caller) -> dict[str, Any] | None:
        """The campaign's pace settings (``hours``, ``on_timeout``, ``remind_at``), or ``None``."""
        async with self.db.transaction() as s:
            campaign = await self._campaign(s, caller)
            pace = (campaign.settings or {}).get("pace")
            return dict(pace) if pace else None
