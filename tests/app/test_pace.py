"""Play-by-chat pace in the application layer: the deadline, the reminder, the timeout, and the
game master answering for an absent player. A fake clock drives time; nothing sleeps."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from bot.app.pace import hour_length, hours_text
from bot.app.replies import Refusal
from bot.app.service import App
from bot.store import Store
from bot.store.schema import ActionRecord, Campaign, Deadline, DecisionRecord
from rules import RULESETS, get_engine
from tests.named_app import NamedApp
from tests.orm import orm
from tests.support import BLUE, GM, RED, STRANGER, caller, join, medieval_duel, ssg_table

T0 = datetime(2030, 5, 1, 12, 0, tzinfo=UTC)
H = timedelta(hours=1)


class Clock:
    def __init__(self, app: App) -> None:
        self.now = T0
        app.pace_clock = lambda: self.now

    def at(self, hours: float) -> datetime:
        self.now = T0 + H * hours
        return self.now


async def deadlines(app: App) -> list[Deadline]:
    async with orm(app.store.db) as s:
        return list(await s.scalars(select(Deadline).order_by(Deadline.id)))


async def log_commands(app: App) -> list[tuple[str, int, str | None, bool]]:
    async with orm(app.store.db) as s:
        records = await s.scalars(select(ActionRecord).order_by(ActionRecord.seq))
        return [(r.command, r.user_id, r.side, r.by_gm) for r in records]


async def medieval_table(app: App, forced) -> None:
    """Red wins the roll-off and must choose who goes first (a decision with buttons)."""
    await medieval_duel(app)
    forced.push_dice([6, 1])
    started = await app.game_start(caller(GM, "Gina"))
    assert started.decision is not None and started.decision.decider == "red"


# --- setting the deadline ---------------------------------------------------------------------


async def test_only_the_game_master_sets_a_deadline_and_bad_values_change_nothing(app: App, forced) -> None:
    await ssg_table(app, forced)
    Clock(app)
    for who in (RED, STRANGER):
        with pytest.raises(Refusal, match="Only the game master may set the turn deadline"):
            await app.set_deadline(caller(who), 24, "pass")
    for hours, message in (
        (0, "from 0.25 to 720 hours"),
        (721, "from 0.25 to 720 hours"),
        (float("nan"), "from 0.25 to 720 hours"),
        (float("inf"), "from 0.25 to 720 hours"),
    ):
        with pytest.raises(Refusal, match=message):
            await app.set_deadline(caller(GM), hours, "pass")
    with pytest.raises(Refusal, match="choose pass or gm"):
        await app.set_deadline(caller(GM), 24, "skip")
    with pytest.raises(Refusal, match="no turn deadline to change"):
        await app.set_deadline(caller(GM), None, "gm")
    with pytest.raises(Refusal, match="no campaign in this channel"):
        await app.set_deadline(caller(GM, channel=77), 24, "gm")
    assert await app.pace_of(caller(GM)) is None and await deadlines(app) == []

    reply = await app.set_deadline(caller(GM), 24, " PASS ")
    assert not reply.ephemeral
    assert "**24 hours**" in reply.cards[0].description and "after 18 hours" in reply.cards[0].description
    assert "/ssg next" in reply.cards[0].description and "red's turn starts now" in reply.cards[0].description
    assert await app.pace_of(caller(RED)) == {"hours": 24.0, "on_timeout": "pass", "remind_at": 0.75}
    [row] = await deadlines(app)
    assert (row.kind, row.side, row.status, row.on_timeout) == ("turn", "red", "open", "pass")
    assert (row.started_at, row.remind_at, row.due_at) == (T0, T0 + 18 * H, T0 + 24 * H)

    changed = await app.set_deadline(caller(GM), None, "gm")  # the choice alone; the hours stay
    assert "game master decides" in changed.cards[0].description
    assert await app.pace_of(caller(GM)) == {"hours": 24.0, "on_timeout": "gm", "remind_at": 0.75}
    rows = await deadlines(app)
    assert [r.status for r in rows] == ["closed", "open"] and rows[1].on_timeout == "gm"

    with pytest.raises(Refusal, match=r"between 0.1 and 0.95 of the deadline"):
        await app.set_deadline(caller(GM), 24, "gm", remind_at=1.0)
    earlier = await app.set_deadline(caller(GM), 12, None, remind_at=0.5)  # the choice stays
    assert "after 6 hours; then the game master decides" in earlier.cards[0].description
    assert await app.pace_of(caller(GM)) == {"hours": 12.0, "on_timeout": "gm", "remind_at": 0.5}
    assert (await deadlines(app))[-1].remind_at == T0 + 6 * H
    assert (await app.set_deadline(caller(GM), 10, "gm")).cards[0].description.count("after 5 hours") == 1

    cleared = await app.set_deadline(caller(GM), None, None)
    assert "No turn deadline" in cleared.cards[0].description
    assert await app.pace_of(caller(GM)) is None
    assert {r.status for r in await deadlines(app)} == {"closed"}
    async with orm(app.store.db) as s:
        campaign = await s.scalar(select(Campaign))
        assert "pace" not in campaign.settings


async def test_a_deadline_set_before_the_game_starts_clocks_the_first_turn(app: App, forced) -> None:
    clock = Clock(app)
    await app.campaign_new(caller(GM, "Gina"), "Later", "ssg", "table")
    reply = await app.set_deadline(caller(GM), 2, "gm")
    assert "starts now" not in reply.cards[0].description and await deadlines(app) == []
    await join(app, RED, "Rita", "red")
    await join(app, BLUE, "Bob", "blue")
    for n in range(6):
        await app.roster_add(caller(RED, "Rita"), f"R{n}", "rifle")
        await app.roster_add(caller(BLUE, "Bob"), f"B{n}", "rifle")
    forced.push_dice((2, 5))  # blue goes first
    await app.game_start(caller(GM, "Gina"))
    assert await app.sync_deadlines(clock.at(0.1)) == 1
    [row] = await deadlines(app)
    assert (row.side, row.started_at, row.due_at) == ("blue", clock.now, clock.now + 2 * H)
    assert await app.sync_deadlines(clock.at(0.2)) == 0  # nothing changed: nothing looked at


# --- reminders ------------------------------------------------------------------------------


async def test_the_reminder_comes_once_at_three_quarters_and_pings_only_the_waiting_side(app: App, forced) -> None:
    await ssg_table(app, forced)
    clock = Clock(app)
    await app.set_deadline(caller(GM), 8, "gm")
    [row] = await deadlines(app)
    assert await app.due_reminders(clock.at(5.9)) == []
    assert await app.send_reminder(row.id, clock.now) is None  # not yet
    assert await app.due_reminders(clock.at(6)) == [row.id]
    notice = await app.send_reminder(row.id, clock.now)
    assert notice is not None and notice.channel_id == 2002
    assert notice.reply.ping_user_ids == [RED]
    assert notice.reply.content.startswith(f"<@{RED}> ") and "red's turn" in notice.reply.content
    assert "2 hours left" in notice.reply.cards[0].description
    assert "the game master decides" in notice.reply.cards[0].description
    assert await app.send_reminder(row.id, clock.now) is None  # claimed: never twice
    assert await app.due_reminders(clock.at(7)) == []


async def test_a_reminder_that_could_not_be_posted_is_released_and_claimed_again(app: App, forced) -> None:
    await ssg_table(app, forced)
    clock = Clock(app)
    await app.set_deadline(caller(GM), 4, "gm")
    [row] = await deadlines(app)
    first = await app.send_reminder(row.id, clock.at(3))
    assert first is not None
    await app.release_reminder(row.id, clock.now)
    assert await app.due_reminders(clock.at(3.5)) == [row.id]
    assert await app.send_reminder(row.id, clock.now) is not None


# --- timeouts: pass -------------------------------------------------------------------------


async def test_pass_ends_the_absent_sides_turn_with_the_rulesets_own_action(app: App, forced) -> None:
    await ssg_table(app, forced)
    clock = Clock(app)
    await app.set_deadline(caller(GM), 24, "pass")
    [row] = await deadlines(app)
    assert await app.due_timeouts(clock.at(23.9)) == []
    assert await app.apply_timeout(row.id, clock.now) is None  # not due yet
    assert await app.due_timeouts(clock.at(24)) == [row.id]
    notice = await app.apply_timeout(row.id, clock.now)
    assert notice is not None
    reply = notice.reply
    assert reply.cards[0].title == "⏰ Deadline passed: red's turn"
    assert "the bot passed for red: `/ssg next` ×2" in reply.cards[0].description
    assert reply.ping_user_ids == [BLUE] and reply.content.startswith(f"<@{BLUE}>")  # blue's move now
    assert await app.apply_timeout(row.id, clock.now) is None  # applied once
    commands = await log_commands(app)
    assert commands[-2:] == [("/ssg next (deadline passed: the bot passed for red)", 0, "red", False)] * 2
    old, new = await deadlines(app)
    assert (old.status, old.outcome, old.expired_at) == ("closed", "passed", T0 + 24 * H)
    assert (new.kind, new.side, new.status, new.started_at) == ("turn", "blue", "open", T0 + 24 * H)
    # The pass is an ordinary action in the log: the game master may undo it, the absent player too.
    with pytest.raises(Refusal, match="Only the player who made the last action, or the game master"):
        await app.game_undo(caller(BLUE))
    await app.game_undo(caller(GM))


async def test_pass_that_the_engine_refuses_goes_to_the_game_master_with_why(app: App, forced) -> None:
    """SSG: figures in contact must fight the melee; the bot ends the movement phase, then stops."""
    await ssg_table(app, forced)
    clock = Clock(app)
    await app.act(caller(RED), "ssg", "move", {"figure": "Rossi", "distance": 3.0, "contact": "Bo"}, "/ssg move")
    await app.set_deadline(caller(GM), 1, "pass")
    [row] = await deadlines(app)
    notice = await app.apply_timeout(row.id, clock.at(1))
    assert notice is not None
    reply = notice.reply
    assert reply.ping_user_ids == [GM] and reply.content.startswith(f"<@{GM}>")
    text = reply.cards[0].description
    assert "the bot passed for red: `/ssg next`." in text
    assert "could not pass for red: Rossi and Bo are still in contact" in text
    assert "act for red with the /ssg commands" in text
    [expired] = await deadlines(app)
    assert expired.status == "expired" and expired.outcome.startswith("gm: Rossi and Bo")
    assert await app.due_timeouts(clock.at(50)) == []  # nothing fires again while red's turn lasts
    await app.sync_deadlines(clock.now)
    assert [r.status for r in await deadlines(app)] == ["expired"]


async def test_pass_answers_a_decision_with_its_first_choice(app: App, forced) -> None:
    await medieval_table(app, forced)
    clock = Clock(app)
    reply = await app.set_deadline(caller(GM), 12, "pass")
    assert "red's decision starts now" in reply.cards[0].description
    [row] = await deadlines(app)
    assert (row.kind, row.side) == ("decision", "red") and row.decision_id is not None
    reminder = await app.send_reminder(row.id, clock.at(9))
    assert (
        reminder is not None and "red's decision (red won the roll-off: go first or second?)" in reminder.reply.content
    )
    notice = await app.apply_timeout(row.id, clock.at(12))
    assert notice is not None
    assert "the bot chose **first** for red" in notice.reply.cards[0].description
    async with orm(app.store.db) as s:
        decision = await s.get(DecisionRecord, row.decision_id)
        assert (decision.status, decision.answer) == ("answered", "first")
    assert (await log_commands(app))[-1] == (
        "/decide choice:first (deadline passed: the bot chose for red)",
        0,
        "red",
        False,
    )
    rows = await deadlines(app)
    assert [(r.kind, r.side, r.status) for r in rows] == [("decision", "red", "closed"), ("turn", "red", "open")]


# --- timeouts: the game master decides ------------------------------------------------------


async def test_gm_pings_the_game_master_once_and_the_game_master_acts_for_the_side(app: App, forced) -> None:
    await ssg_table(app, forced)
    clock = Clock(app)
    await app.set_deadline(caller(GM), 6, "gm")
    [row] = await deadlines(app)
    notice = await app.apply_timeout(row.id, clock.at(7))  # caught up late: still once
    assert notice is not None and notice.reply.ping_user_ids == [GM]
    assert "The game master decides: act for red with the /ssg commands" in notice.reply.cards[0].description
    assert await log_commands(app) == [("/game start", GM, None, True)]  # the game is untouched
    assert await app.due_timeouts(clock.at(30)) == [] and await app.due_reminders(clock.now) == []
    await app.act(caller(GM), "ssg", "next", {}, "/ssg next")
    await app.act(caller(GM), "ssg", "next", {}, "/ssg next")
    await app.sync_deadlines(clock.at(31))
    rows = await deadlines(app)
    assert [(r.side, r.status) for r in rows] == [("red", "closed"), ("blue", "open")]
    assert rows[1].started_at == clock.now and rows[0].outcome == "gm"


async def test_a_player_who_moves_in_time_stops_the_clock(app: App, forced) -> None:
    await ssg_table(app, forced)
    clock = Clock(app)
    await app.set_deadline(caller(GM), 4, "pass")
    [red_row] = await deadlines(app)
    await app.act(caller(RED), "ssg", "next", {}, "/ssg next")
    await app.sync_deadlines(clock.at(1))
    assert [r.status for r in await deadlines(app)] == ["open"]  # still red's turn: same clock
    await app.act(caller(RED), "ssg", "next", {}, "/ssg next")
    # The turn moved on just before the deadline, before the scheduler looked again.
    assert await app.apply_timeout(red_row.id, clock.at(4)) is None
    rows = await deadlines(app)
    assert [(r.side, r.status) for r in rows] == [("red", "closed"), ("blue", "open")]
    assert len(await log_commands(app)) == 3  # nothing passed for red


async def test_an_ended_game_ends_its_deadline(app: App, forced) -> None:
    await ssg_table(app, forced)
    clock = Clock(app)
    await app.set_deadline(caller(GM), 4, "pass")
    await app.game_end(caller(GM))
    await app.sync_deadlines(clock.at(1))
    assert [r.status for r in await deadlines(app)] == ["closed"]
    assert await app.due_timeouts(clock.at(10)) == []


# --- the game master answers for an absent player --------------------------------------------


async def test_the_game_master_answers_a_decision_for_an_absent_player(app: App, forced) -> None:
    await medieval_table(app, forced)
    [waiting] = await app.open_decisions(caller(GM))  # the game master may answer it
    assert waiting.decider == "red" and await app.open_decisions(caller(BLUE)) == []
    for who in (BLUE, STRANGER):
        with pytest.raises(Refusal, match="Nothing is waiting for your decision"):
            await app.decide(caller(who), "first")
        with pytest.raises(Refusal, match="This is not your decision"):
            await app.decide(caller(who), "first", waiting.decision_id)
    reply = await app.decide(caller(GM, "Gina"), "second")  # /decide with no number: red's decision
    assert reply.cards[0].footer == "by Gina (game master for red)"
    assert "red chooses to go second" in reply.cards[0].description
    assert (await log_commands(app))[-1] == ("/decide choice:second (game master for red)", GM, "red", False)
    log = await app.game_log(caller(RED))
    assert "`/decide choice:second (game master for red)`" in log.cards[0].description
    with pytest.raises(Refusal, match="already been made"):
        await app.decide(caller(RED, "Rita"), "first", waiting.decision_id)


async def test_the_game_master_answers_by_button_and_a_player_answers_their_own(app: App, forced) -> None:
    await medieval_table(app, forced)
    [waiting] = await app.open_decisions(caller(RED))
    reply = await app.decide(caller(GM, "Gina"), None, waiting.decision_id, index=0)
    assert reply.cards[0].footer == "by Gina (game master for red)"
    undone = await app.game_undo(caller(GM))
    assert undone.decision is not None
    mine = await app.decide(caller(RED, "Rita"), None, undone.decision.decision_id, index=1)
    assert mine.cards[0].footer == "by Rita"
    assert (await log_commands(app))[-1] == ("/decide choice:second", RED, "red", False)


# --- every ruleset ---------------------------------------------------------------------------

OTHER_RULESETS = {
    # ruleset: (sides, figures as (player, name, kind, stats), cards turned first)
    "sharpe": (
        ("british", "french"),
        [
            (RED, "Sharpe", "rifle_officer", "I=6 D=5 S=5 C=6 F=10"),
            (RED, "Harper", "rifle_sergeant", "I=5 D=4 S=6 C=5 F=10"),
            (BLUE, "Leroux", "officer", "I=5 D=4 S=4 C=5 F=7"),
        ],
        [],
    ),
    "nsr": (
        ("French", "Allied"),
        [(RED, "1er Ligne", "line", "figures=6"), (BLUE, "33rd Foot", "infantry", "figures=6")],
        ["2S"],
    ),
    "yasg": (("british", "french"), [(RED, "Sharpe", "A", "leader=yes"), (BLUE, "Ducos", "B", "leader=yes")], []),
}


@pytest.mark.parametrize("ruleset", sorted(OTHER_RULESETS))
async def test_every_ruleset_passes_or_hands_the_game_master_the_reason(ruleset: str, database) -> None:
    """Each timeout either passes (the game then waits on something else, and the log says the
    deadline did it) or pings the game master with the engine's reason. Dice: seeded."""
    if ruleset not in RULESETS:
        pytest.skip(f"{ruleset} is not here")
    from bot.dice import ForcedDice, SeededDice

    sides, figures, cards = OTHER_RULESETS[ruleset]
    dice = ForcedDice([], list(cards), SeededDice(3))
    app = NamedApp(Store(database), lambda: dice)
    clock = Clock(app)
    await app.campaign_new(caller(GM, "Gina"), "Every", ruleset)
    await join(app, RED, "Rita", sides[0])
    await join(app, BLUE, "Bob", sides[1])
    for who, name, kind, stats in figures:
        await app.roster_add(caller(who), name, kind, stats=stats)
    await app.game_start(caller(GM, "Gina"))
    await app.set_deadline(caller(GM), 1, "pass")
    passed = 0
    for _ in range(4):
        rows = [r for r in await deadlines(app) if r.status == "open"]
        if not rows:
            break
        [row] = rows
        notice = await app.apply_timeout(row.id, clock.at((row.due_at - T0) / H))
        assert notice is not None
        after = {r.id: r for r in await deadlines(app)}[row.id]
        if after.outcome == "passed":
            passed += 1
            assert after.status == "closed"  # the game moved on
            command = (await log_commands(app))[-1][0]
            assert (
                f"(deadline passed: the bot {'chose' if row.kind == 'decision' else 'passed'} for {row.side})"
                in command
            )
        else:
            assert after.outcome.startswith("gm: ") and notice.reply.ping_user_ids == [GM]
            assert "could not pass" in notice.reply.cards[0].description
            break
    assert passed or ruleset == "yasg"  # YASG starts by placing figures: only the game master can


def test_every_ruleset_has_a_way_to_pass_a_turn() -> None:
    for slug in RULESETS:
        engine = get_engine(slug)
        assert engine.pass_action in engine.handlers, slug


def test_the_hour_and_its_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SKIRMISH_GM_HOUR_SECONDS", raising=False)
    assert hour_length() == timedelta(hours=1)
    monkeypatch.setenv("SKIRMISH_GM_HOUR_SECONDS", "2.5")
    assert hour_length() == timedelta(seconds=2.5)
    for bad in ("0", "-3", "soon", "nan"):
        monkeypatch.setenv("SKIRMISH_GM_HOUR_SECONDS", bad)
        assert hour_length() == timedelta(hours=1)
    assert [hours_text(h) for h in (24, 1, 1.5, 0.75, 0.001)] == [
        "24 hours",
        "1 hour",
        "1.5 hours",
        "45 minutes",
        "1 minute",
    ]
