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
    (NSR's "no unit left"), ``refuse`` for a request to take back an action (the absent side lets
    nothing be undone), otherwise the first choice (the one the buttons show first, which the
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

Time is injectable: the context's clock (``ctx.clock``, an aware UTC datetime) and the part's
``hour`` (how long a deadline hour lasts; ``SKIRMISH_GM_HOUR_SECONDS`` sets it for a test bot).
"""

from __future__ import annotations

import logging
import math
import os
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.app.access import campaign_of, engine_of, require_gm
from bot.app.context import Context
from bot.app.entries import command_line
from bot.app.replies import Caller, Card, PictureOrder, Refusal, Reply, mentions
from bot.render.shown import side_colour
from bot.store import Unit
from bot.store.deadlines import Deadline, NewDeadline
from bot.store.records import Campaign, Decision, Game
from rules.core import Action, RuleError, short

if TYPE_CHECKING:
    from bot.app.actions import Actions
    from bot.app.decisions import DecisionCommands

log = logging.getLogger("skirmish_gm.pace")

HOURS_MIN = 0.25
HOURS_MAX = 720.0
ON_TIMEOUT = ("pass", "gm")
DEFAULT_ON_TIMEOUT = "gm"
DEFAULT_REMIND_AT = 0.75
REMIND_MIN = 0.1
REMIND_MAX = 0.95
HOUR_ENV = "SKIRMISH_GM_HOUR_SECONDS"
PACE_KEYS = ("hours", "on_timeout", "remind_at")
#: A turn passed step by step (SSG's phases, Sharpe's characters) gives up after this many steps.
PASS_STEPS_MAX = 40
#: The action that ends a side's part of the turn, for rulesets whose engine does not name one
#: itself (an engine may declare ``pass_action = "<name>"``).
#: The choices a decision's "pass" takes when offered, in this order: the engine's pass, then the
#: refusal of a request to take back an action.
PASS_CHOICES = ("pass", "refuse")
#: The user id the log shows for what the deadline did (nobody: only the game master may undo it).
DEADLINE_USER_ID = 0
DEADLINE_NAME = "the deadline"
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


def pace_problem(value: Any) -> str | None:
    """The check of an imported campaign file's ``settings.pace``: held to what /campaign deadline
    takes (``hours`` required, ``on_timeout`` and ``remind_at`` as the command bounds them)."""
    if not isinstance(value, dict):
        return f"must be a mapping of {', '.join(PACE_KEYS)}"
    unknown = sorted(str(k) for k in value if k not in PACE_KEYS)
    if unknown:
        return f"has no {unknown[0]}: use {', '.join(PACE_KEYS)}"
    bounds = {"hours": (HOURS_MIN, HOURS_MAX), "remind_at": (REMIND_MIN, REMIND_MAX)}
    for key, (low, high) in bounds.items():
        number = value.get(key)
        if number is None and key != "hours":
            continue
        if isinstance(number, bool) or not isinstance(number, (int, float)) or not low <= number <= high:
            return f"{key} must be a number from {low:g} to {high:g}, not {short(str(number))}"
    if value.get("on_timeout") is not None and value["on_timeout"] not in ON_TIMEOUT:
        return f"on_timeout must be {' or '.join(ON_TIMEOUT)}, not {short(str(value['on_timeout']))}"
    return None


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


class PaceCommands:
    """/campaign deadline, and what the pace scheduler does every poll: keep each game's wait on a
    clock, remind the waiting side once, and apply the campaign's choice at the deadline.

    A pass at the deadline is an ordinary action (``actions``) or a decision answered for the
    absent side (``decisions``), logged as the deadline's."""

    def __init__(
        self, ctx: Context, *, actions: Actions, decisions: DecisionCommands, hour: timedelta | None = None
    ) -> None:
        self.ctx = ctx
        self.actions = actions
        self.decisions = decisions
        #: How long a deadline hour lasts; ``None``: :func:`hour_length` (an hour, or the test setting).
        self.hour = hour

    def hour_length(self) -> timedelta:
        """How long a deadline hour lasts for this bot (the scheduler polls 120 times an hour)."""
        return self.hour if self.hour is not None else hour_length()

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
        async with self.ctx.locks.of(caller), self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            require_gm(campaign, caller, "set the turn deadline")
            campaign = await u.campaigns.get(campaign.id, lock=True)
            settings = dict(campaign.settings or {})
            old = settings.get("pace")
            if hours is None and choice is None and remind_share is None:
                settings.pop("pace", None)
                await u.campaigns.set_settings(campaign.id, settings)
                await u.deadlines.close_running(campaign.id)
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
            await u.campaigns.set_settings(campaign.id, settings)
            campaign = replace(campaign, settings=settings)
            game = await u.games.in_progress(campaign.id, lock=True)
            row = None
            if game is not None:
                current = await u.deadlines.current(game.id)
                row = await self._sync_game(u, campaign, game, current, self.ctx.clock(), restart=True)
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

    @staticmethod
    def _pass_action_name(campaign: Campaign) -> str | None:
        engine = engine_of(campaign)
        return engine.pass_action

    # --- keeping the deadlines in step with the games --------------------------------------

    async def sync_deadlines(self, now: datetime | None = None) -> int:
        """Give every game that waits on a side a clock, and move it on when the game moved on.

        Cheap when nothing changed: one query compares the version of each active game that keeps a
        pace or still has a deadline with the version its deadline last saw; only the games that
        differ are loaded. Games without either are not read at all: the scheduler runs this every
        poll, on the event loop, and a thousand games in play must not stall it. Returns how many
        were looked at.
        """
        now = now or self.ctx.clock()
        async with self.ctx.store.transaction() as u:
            found = await u.deadlines.games_to_sync()
            await u.deadlines.close_ended_waits()
        stale = [
            game.game_id
            for game in found
            if (game.keeps_pace and game.seen_version != game.version)
            or (not game.keeps_pace and game.seen_version is not None)
        ]
        for game_id in stale:
            try:
                async with self.ctx.store.transaction() as u:
                    locked = await u.games.get(game_id, lock=True)
                    if locked is None:
                        continue
                    campaign = await u.campaigns.get(locked.campaign_id)
                    await self._sync_game(u, campaign, locked, await u.deadlines.current(locked.id), now)
            except Exception:  # one broken game must not stop the clocks of the others
                log.exception("could not bring the deadline of game %s in step", game_id)
        return len(stale)

    async def _waiting_on(self, u: Unit, campaign: Campaign, game: Game, now: datetime) -> Wait | None:
        waiting = await u.decisions.first_open_in_game(game.id)
        if waiting is not None:
            decision, asked_at = waiting
            if decision.decider == "gm":
                return None  # the game master's own choices have no deadline
            return Wait("decision", decision.decider, decision.id, min(asked_at, now))
        engine = engine_of(campaign)
        state = engine.load_state(game.state)
        if engine.finished(state):
            return None
        side = engine.whose_turn(state)
        return Wait("turn", side) if side else None

    async def _sync_game(
        self,
        u: Unit,
        campaign: Campaign,
        game: Game,
        current: Deadline | None,
        now: datetime,
        *,
        restart: bool = False,
    ) -> Deadline | None:
        """The game's current deadline after comparing it with what the game waits on now (the
        game is locked, and read after this transaction's own writes). ``restart`` starts the clock
        again even for the same wait."""
        pace = (campaign.settings or {}).get("pace")
        wait = None
        if pace and campaign.active and game.status == "active":
            wait = await self._waiting_on(u, campaign, game, now)
        if current is not None and wait is not None and not restart and wait.same(current):
            return await u.deadlines.seen(current, game.version)
        if current is not None:
            await u.deadlines.close(current.id)  # one current wait per game: the old one goes before the new one comes
        if wait is None or not pace:
            return None
        length = self.hour_length() * float(pace["hours"])
        since = now if restart or wait.since is None else min(wait.since, now)
        return await u.deadlines.add(
            NewDeadline(
                campaign_id=campaign.id,
                game_id=game.id,
                decision_id=wait.decision_id,
                channel_id=campaign.channel_id,
                kind=wait.kind,
                side=wait.side,
                on_timeout=str(pace.get("on_timeout") or DEFAULT_ON_TIMEOUT),
                started_at=since,
                remind_at=since + length * float(pace.get("remind_at", DEFAULT_REMIND_AT)),
                due_at=since + length,
                game_version=game.version,
            )
        )

    # --- reminders ------------------------------------------------------------------------

    async def due_reminders(self, now: datetime | None = None) -> list[int]:
        """Deadlines whose reminder is due (and whose deadline is not: then the timeout comes instead)."""
        async with self.ctx.store.transaction() as u:
            return await u.deadlines.due_reminders(now or self.ctx.clock())

    async def send_reminder(self, deadline_id: int, now: datetime | None = None) -> PaceNotice | None:
        """Claim the reminder (once, whatever other process tries too) and write it; ``None`` when
        it was already claimed or is no longer due."""
        now = now or self.ctx.clock()
        async with self.ctx.store.transaction() as u:
            if not await u.deadlines.claim_reminder(deadline_id, now):
                return None
            row = await u.deadlines.get(deadline_id)
            assert row is not None  # claimed in this transaction
            campaign = await u.campaigns.get(row.campaign_id)
            what = await self._what(u, row)
            users = await u.members.user_ids_of(campaign.id, row.side) or [campaign.gm_id]
            left = (row.due_at - now) / self.hour_length()
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
        async with self.ctx.store.transaction() as u:
            await u.deadlines.release_reminder(deadline_id, claimed_at)

    @staticmethod
    async def _what(u: Unit, row: Deadline) -> str:
        if row.kind == "decision" and row.decision_id is not None:
            decision = await u.decisions.get(row.decision_id)
            prompt = f" ({decision.prompt})" if decision is not None else ""
            return f"{row.side}'s decision{prompt}"
        return f"{row.side}'s turn"

    # --- timeouts -------------------------------------------------------------------------

    async def due_timeouts(self, now: datetime | None = None) -> list[int]:
        async with self.ctx.store.transaction() as u:
            return await u.deadlines.due_timeouts(now or self.ctx.clock())

    async def apply_timeout(self, deadline_id: int, now: datetime | None = None) -> PaceNotice | None:
        """At the deadline: the campaign's choice, applied once; ``None`` when another process (or
        the player, at the last moment) got there first."""
        now = now or self.ctx.clock()
        async with self.ctx.store.transaction() as u:
            head = await u.deadlines.get(deadline_id)
        if head is None:
            return None
        # The same order of locks as a command: the channel (this process), the decision, the game.
        async with self.ctx.locks.of_channel(head.channel_id), self.ctx.store.transaction() as u:
            decision = None
            if head.decision_id is not None:
                decision = await u.decisions.get(head.decision_id, lock=True)
            game = await u.games.get(head.game_id, lock=True)
            row = await u.deadlines.get(deadline_id, lock=True)
            if row is None or game is None or row.status != "open" or row.due_at > now:
                return None
            campaign = await u.campaigns.get(row.campaign_id)
            pace = (campaign.settings or {}).get("pace")
            wait = await self._waiting_on(u, campaign, game, now) if pace and game.status == "active" else None
            if wait is None or not wait.same(row):
                await self._sync_game(u, campaign, game, row, now)  # the game moved on meanwhile
                return None
            what = await self._what(u, row)
            if row.on_timeout == "pass":
                reply, why = await self._pass(u, campaign, game, row, decision, what)
                outcome = "passed" if why is None else f"gm: {why}"
            else:
                reply = self._for_the_gm(campaign, row, what, None)
                outcome = "gm"
            row = await u.deadlines.expire(row, now, outcome)
            # The pass may have moved the game on, or ended the battle: compared as it is now.
            moved = await u.games.get(game.id)
            assert moved is not None
            await self._sync_game(u, await u.campaigns.get(campaign.id), moved, row, now)
            return PaceNotice(row.id, row.channel_id, reply)

    @staticmethod
    def _deadline_caller(campaign: Campaign) -> Caller:
        return Caller(DEADLINE_USER_ID, DEADLINE_NAME, campaign.guild_id, campaign.channel_id, None)

    async def _pass(
        self,
        u: Unit,
        campaign: Campaign,
        game: Game,
        row: Deadline,
        decision: Decision | None,
        what: str,
    ) -> tuple[Reply, str | None]:
        """Pass for the absent side; what could not be passed goes to the game master, with why."""
        caller = self._deadline_caller(campaign)
        steps: list[Reply] = []
        why: str | None = None
        if row.kind == "decision" and decision is not None:
            values = [choice.value for choice in decision.choices]
            passes = [v for choice in PASS_CHOICES for v in values if v.casefold() == choice]
            value = passes[0] if passes else values[0] if values else None
            if value is None:
                why = "the decision offers no choice"
            else:
                command = (
                    command_line("decide", "", {"choice": value}) + f" (deadline passed: the bot chose for {row.side})"
                )
                try:
                    steps.append(
                        await self.decisions.answer(
                            u, campaign, decision, caller, value, side=row.side, by_gm=False, command=command
                        )
                    )
                except RuleError as exc:
                    why = exc.message
            done = f"Nobody answered in time, so the bot chose **{value}** for {row.side}." if not why else ""
        else:
            why = await self._pass_turn(u, campaign, game, row.side, caller, steps)
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
            before = len(reply.cards)
            for step in steps:
                reply.cards.extend(step.cards)
            last = steps[-1] if steps else None
            if last is not None:
                reply.files = last.files
            reply.picture = last_picture(steps, before)
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
            picture=last_picture(steps, 1),
        )
        return reply, None

    async def _pass_turn(
        self,
        u: Unit,
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
        engine = engine_of(campaign)
        command = command_line(campaign.ruleset, name, {}) + f" (deadline passed: the bot passed for {side})"
        current: Game | None = game
        for _ in range(PASS_STEPS_MAX):
            assert current is not None  # locked by this transaction
            state = engine.load_state(current.state)
            if engine.finished(state) or engine.whose_turn(state) != side or (steps and steps[-1].decision is not None):
                return None
            try:
                steps.append(
                    await self.actions.apply(
                        u, campaign, current, caller, Action(name, side, {}, False), command, state=state, engine=engine
                    )
                )
            except RuleError as exc:
                return exc.message
            current = await u.games.get(game.id)  # the step saved a new state (and version)
        return f"{side}'s turn did not end after {PASS_STEPS_MAX} steps"

    @staticmethod
    def _for_the_gm(campaign: Campaign, row: Deadline, what: str, why: str | None) -> Reply:
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
        async with self.ctx.store.transaction() as u:
            campaign = await campaign_of(u, caller)
            pace = (campaign.settings or {}).get("pace")
            return dict(pace) if pace else None


def last_picture(steps: list[Reply], before: int) -> PictureOrder | None:
    """The last battlefield picture the steps of a pass ordered, pointing at its card among the
    merged cards (``before`` cards come ahead of the steps')."""
    found = None
    for step in steps:
        if step.picture is not None:
            found = replace(step.picture, card=before + step.picture.card)
        before += len(step.cards)
    return found
