"""/game report, /game log a page at a time, and the game master's secret rolls, on SQLite and
PostgreSQL: what each reader sees, in progress and after the battle, for a short game and a long one."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import func, insert, select

from bot.adapter.embeds import to_embeds
from bot.app.access import campaign_of
from bot.app.actions import log_entry
from bot.app.replies import LogPage, Refusal
from bot.app.reports import LOG_PAGE_CHARS
from bot.app.service import App
from bot.dice import ForcedDice
from bot.store.schema import ActionRecord, EventRecord, Game, RollRecord
from bot.store.tx import ConnectionTx, SqliteTx
from rules.core import Event
from tests.orm import orm
from tests.support import BLUE, CHANNEL, GM, RED, STRANGER, caller, join, ssg_table

SHOTS = {"Big Jim": "Rossi", "Bo": "Ada", "Bert": "Eli", "Bill": "Fay"}


def report_text(reply) -> str:
    [(name, data)] = reply.files
    assert name.endswith(".md")
    return data.decode("utf-8")


async def game_id(app: App) -> int:
    async with orm(app.store.db) as s:
        return await s.scalar(select(func.max(Game.id)))


async def red_wins(app: App, forced: ForcedDice) -> None:
    """Red moves (and takes one move back), goes to shooting, and shoots four blue figures out."""
    await app.act(
        caller(RED, "Rita"), "ssg", "move", {"figure": "Rossi", "distance": 2.0}, "/ssg move figure:Rossi distance:2"
    )
    await app.game_undo(caller(RED, "Rita"))
    await app.act(
        caller(RED, "Rita"), "ssg", "move", {"figure": "Rossi", "distance": 1.5}, "/ssg move figure:Rossi distance:1.5"
    )
    await app.act(caller(RED, "Rita"), "ssg", "next", {}, "/ssg next")
    for target, shooter in SHOTS.items():
        forced.push_dice([6])
        await app.act(
            caller(RED, "Rita"),
            "ssg",
            "shoot",
            {"shooter": shooter, "target": target, "range": 5.0, "los": "clear"},
            f"/ssg shoot shooter:{shooter} target:{target}",
        )


# --- the report ---------------------------------------------------------------------------------


async def test_the_report_of_a_won_battle_reads_as_a_document(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    await red_wins(app, forced)
    battle = await game_id(app)
    reply = await app.game_report(caller(BLUE, "Bob"))
    assert reply.ephemeral is False  # over: posted for everyone to keep
    assert [name for name, _ in reply.files] == [f"battle-{battle}.md"]
    text = report_text(reply)
    assert text.startswith(f"# Test — battle {battle}\n")
    assert "- **Ruleset:** Simple Skirmish Game" in text and "- **Game master:** Gina" in text
    assert re.search(r"- \*\*Fought:\*\* \d{4}-\d\d-\d\d \d\d:\d\d UTC to \d{4}-\d\d-\d\d \d\d:\d\d UTC", text)
    # the sides, their players and the figures they started with
    red, blue = text.index("### Red"), text.index("### Blue")
    assert red < blue < text.index("## The battle")
    assert "Played by Rita." in text[red:blue] and "- **Cy** (smg) — Rita" in text[red:blue]
    assert "- **Big Jim** (smg) — Bob" in text[blue:]
    # turn by turn: the start, then turn 1 with every action, each roll with its reason
    battle_part = text[text.index("## The battle") : text.index("## Casualties")]
    assert battle_part.index("### Before the first turn") < battle_part.index(
        "**1.** Gina (game master): `/game start`"
    )
    assert battle_part.index("`/game start`") < battle_part.index("### Turn 1") < battle_part.index("`/ssg next`")
    assert "- 🎲 d6 → **5** — Roll-off: red" in battle_part
    assert "- 🎲 d6 → **6** — Rossi: shot 1 of 1 at Big Jim" in battle_part
    # the undone move: struck, with a note, its events struck too
    assert "**2.** ~~Rita (red): `/ssg move figure:Rossi distance:2`~~ — *taken back with /game undo" in battle_part
    assert "- ~~Rossi moves 2″" in battle_part
    assert "**3.** Rita (red): `/ssg move figure:Rossi distance:1.5`" in battle_part
    # casualties, where things stand, the result
    casualties = text[text.index("## Casualties") : text.index("## At the end")]
    assert "Lost: Blue 4." in casualties
    assert [line.split("*(action")[0] for line in casualties.splitlines() if line.startswith("- ☠")] == [
        f"- ☠ {t} (blue) is removed from play by {s}. " for t, s in SHOTS.items()
    ]
    assert "~~Bo~~ — removed" in text[text.index("## At the end") :]
    after = battle_part[battle_part.index("### After the battle") :]
    assert after.startswith(
        "### After the battle\n\n**9.** The battle's consequences for the rosters\n"
        "- Nothing rolled: each figure's history notes this battle.\n"
    )
    document, dice = text.split("\n## Dice\n")
    assert document.rstrip().endswith("🏆 **Red** won.")
    assert "Some of this battle's dice were forced at the terminal" in dice  # the test forces every die
    card = reply.cards[0]
    assert card.title == f"Report of battle {battle}"
    assert "🏆 **Red** won." in card.description and "4 casualties" in card.description


async def test_a_battle_ended_by_the_game_master_says_so(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    await app.game_end(caller(GM, "Gina"))
    text = report_text(await app.game_report(caller(RED)))
    assert "- **Result:** Ended by the game master without a winner." in text
    assert "## Casualties\n\nNone." in text and "## At the end" in text


async def test_a_report_in_progress_is_private_and_says_the_battle_goes_on(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    reply = await app.game_report(caller(STRANGER, "Sam"))  # anyone in the channel may ask
    assert reply.ephemeral is True
    assert "The battle goes on" in reply.cards[0].description
    text = report_text(reply)
    assert "- **Result:** In progress: Turn 1 · red · movement phase" in text and "## Where things stand" in text


async def test_a_medieval_battle_is_told_turn_by_turn(app: App, forced: ForcedDice) -> None:
    await app.campaign_new(caller(GM, "Gina"), "Border feud", "medieval", "table")
    await join(app, RED, "Rita", "red")
    await join(app, BLUE, "Bob", "blue")
    await app.roster_add(caller(RED, "Rita"), "Hugh", "Knight")
    await app.roster_add(caller(BLUE, "Bob"), "Olaf", "Viking Warrior")
    forced.push_dice([6, 1])
    await app.game_start(caller(GM, "Gina"))
    await app.decide(caller(RED, "Rita"), "first")
    await app.act(caller(RED, "Rita"), "medieval", "endturn", {}, "/medieval endturn")
    await app.act(caller(BLUE, "Bob"), "medieval", "endturn", {}, "/medieval endturn")
    await app.act(caller(RED, "Rita"), "medieval", "endturn", {}, "/medieval endturn")
    await app.game_end(caller(GM, "Gina"))
    text = report_text(await app.game_report(caller(RED)))
    assert (
        "- **Ruleset:** " in text
        and "- **Hugh** (Knight) — Rita" in text
        and "- **Olaf** (Viking Warrior) — Bob" in text
    )
    headings = [
        line
        for line in text.splitlines()
        if (line.startswith("### ") and "Turn" in line) or line.startswith("### Before")
    ]
    assert headings == ["### Before the first turn", "### Turn 1", "### Turn 2"]
    assert text.index("### Turn 1") < text.index("Bob (blue): `/medieval endturn`") < text.index("### Turn 2")


async def test_every_event_kind_that_tells_a_turn_is_read_back_from_the_log(app: App, forced: ForcedDice) -> None:
    """Sharpe tells its bounds with "bound" and "turn" events: their numbers come back from the database."""
    await ssg_table(app, forced)
    async with app.store.transaction() as u:
        campaign = await campaign_of(u, caller(RED))
        game = await u.games.in_progress(campaign.id)
        assert game is not None
        for seq, kind, bound in ((2, "bound", 2), (3, "shot", 9), (4, "turn", 3)):
            await u.play.append_action(
                log_entry(
                    game,
                    seq,
                    caller(RED, "Rita"),
                    f"/x {seq}",
                    state_before=None,
                    by_gm=False,
                    side="red",
                    events=[Event(kind, f"{kind} {bound}", {"bound": bound})],
                    rolled=[],
                )
            )
    text = report_text(await app.game_report(caller(RED)))
    assert [line for line in text.splitlines() if line.startswith("### Bo")] == ["### Bound 2", "### Bound 3"]


async def test_a_past_battle_is_reported_by_its_number_and_only_in_its_campaign(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    first = await game_id(app)
    await app.game_end(caller(GM, "Gina"))
    forced.push_dice([5, 2])
    await app.game_start(caller(GM, "Gina"))
    assert await game_id(app) == first + 1
    assert report_text(await app.game_report(caller(RED), first)).startswith(f"# Test — battle {first}\n")
    assert (await app.game_report(caller(RED))).files[0][0] == f"battle-{first + 1}.md"
    await app.campaign_new(caller(GM, "Gina", channel=CHANNEL + 1), "Elsewhere", "ssg", "table")
    for asked in (first, 999, 0, -3, 2**40):
        with pytest.raises(Refusal, match=f"There is no battle {asked} in this campaign."):
            await app.game_report(caller(GM, channel=CHANNEL + 1), asked)
        with pytest.raises(Refusal, match=f"There is no battle {asked}"):
            await app.game_log(caller(GM, channel=CHANNEL + 1), battle=asked)
    with pytest.raises(Refusal, match="No game has been played here yet"):
        await app.game_report(caller(GM, channel=CHANNEL + 1))
    with pytest.raises(Refusal, match="no campaign in this channel"):
        await app.game_report(caller(GM, channel=CHANNEL + 2))


async def test_two_campaigns_in_one_database_each_have_a_battle_1(app: App, forced: ForcedDice) -> None:
    """The report's file, its title, the log and ``battle:`` go by the battle's number in its
    campaign, not by the database's id; a page button's internal id stays inside its campaign."""
    elsewhere = caller(GM, "Gina", channel=CHANNEL + 1)
    await app.campaign_new(elsewhere, "Elsewhere", "medieval", "table")
    for user, name, side in ((RED, "Rita", "red"), (BLUE, "Bob", "blue")):
        asked = await app.campaign_join(caller(user, name, channel=CHANNEL + 1), side)
        await app.decide(elsewhere, "approve", asked.decision.decision_id)
    await app.roster_add(caller(RED, "Rita", channel=CHANNEL + 1), "Hugh", "Knight")
    await app.roster_add(caller(BLUE, "Bob", channel=CHANNEL + 1), "Olaf", "Viking Warrior")
    forced.push_dice([6, 1])
    await app.game_start(elsewhere)  # game 1: Elsewhere's battle 1
    await ssg_table(app, forced)  # game 2: Test's battle 1
    await app.game_end(caller(GM, "Gina"))
    forced.push_dice([5, 2])
    await app.game_start(caller(GM, "Gina"))  # game 3: Test's battle 2

    mine = await app.game_report(caller(RED))
    assert mine.files[0][0] == "battle-2.md" and mine.cards[0].title == "Report of battle 2"
    first = await app.game_report(caller(RED), 1)
    assert first.files[0][0] == "battle-1.md" and report_text(first).startswith("# Test — battle 1\n")
    theirs = await app.game_report(caller(RED, channel=CHANNEL + 1))
    assert theirs.files[0][0] == "battle-1.md" and report_text(theirs).startswith("# Elsewhere — battle 1\n")
    with pytest.raises(Refusal, match=r"There is no battle 3 in this campaign."):
        await app.game_report(caller(RED), 3)  # game 3 is this campaign's battle 2
    with pytest.raises(Refusal, match=r"There is no battle 2 in this campaign."):
        await app.game_report(caller(RED, channel=CHANNEL + 1), 2)

    page = await app.game_log(caller(RED), battle=1)
    assert page.cards[0].title == "Log of battle 1" and page.game_id == 2
    with pytest.raises(Refusal, match=r"^Battle 1's log has 1 page of 10 actions: there is no page 2.$"):
        await app.game_log(caller(RED), battle=1, page=2)
    assert (await app.game_log(caller(RED), game_id=2)).cards[0].title == "Log of battle 1"  # a page button
    for other in (1, 99, 2**40):  # Elsewhere's game, none, past the column
        with pytest.raises(Refusal, match=r"There is no such battle in this campaign."):
            await app.game_log(caller(RED), game_id=other)
    assert (await app.game_status(caller(RED, channel=CHANNEL + 1))).cards[0].title == "Elsewhere — battle 1"


# --- secret rolls -------------------------------------------------------------------------------


async def test_only_the_game_master_rolls_in_secret_and_only_in_a_battle(app: App, forced: ForcedDice) -> None:
    with pytest.raises(Refusal, match=r"^Only the game master may roll in secret.$"):
        await app.roll(caller(GM, "Gina"), "1d6", secret=True)  # no campaign here
    await ssg_table(app, forced)
    before = await count_actions(app)
    for who in (caller(RED, "Rita"), caller(STRANGER, "Sam"), caller(GM, "Gina", guild=5)):
        with pytest.raises(Refusal, match=r"^Only the game master may roll in secret.$"):
            await app.roll(who, "1d6", "sneak", secret=True)
    assert await count_actions(app) == before
    await app.game_end(caller(GM, "Gina"))
    before = await count_actions(app)
    with pytest.raises(Refusal, match="no battle is in progress here"):
        await app.roll(caller(GM, "Gina"), "1d6", secret=True)
    assert await count_actions(app) == before


async def count_actions(app: App) -> int:
    async with orm(app.store.db) as s:
        return await s.scalar(select(func.count()).select_from(ActionRecord))


async def test_a_secret_roll_is_kept_and_shown_to_the_game_master_then_to_all(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    forced.push_dice([3, 4])
    rolled = await app.roll(caller(GM, "Gina"), "2d6", "ambush at the well", secret=True)
    assert rolled.ephemeral is True and rolled.cards[0].title == "🔒 Secret roll: 2d6"
    assert "**Total: 7**" in rolled.cards[0].description
    async with orm(app.store.db) as s:
        rows = (
            await s.execute(select(RollRecord.value, RollRecord.secret).order_by(RollRecord.id.desc()).limit(2))
        ).all()
    assert [tuple(r) for r in rows] == [("4", True), ("3", True)]
    forced.push_dice([2])
    await app.roll(caller(BLUE, "Bob"), "1d6", "weather")  # an open roll after it stays open

    # while the battle goes on: the players see that the game master rolled, nothing more
    for reader in (caller(RED, "Rita"), caller(STRANGER, "Sam")):
        page = (await app.game_log(reader)).cards[0].description
        assert "**2.** 🔒 The game master rolled in secret" in page
        assert "ambush" not in page and "Total" not in page and "(3, 4)" not in page
        assert "weather" in page
        reply = await app.game_report(reader)
        text = report_text(reply)
        assert "**2.** 🔒 The game master rolled in secret: revealed when the battle ends." in text
        assert "ambush" not in text and "(3, 4)" not in text
        assert "- **Secret rolls:** 1, revealed in this report when the battle ends." in text
        assert "1 secret roll by the game master" in reply.cards[0].description
    # the game master sees it at once, privately
    page = (await app.game_log(caller(GM, "Gina"))).cards[0].description
    assert '`/roll dice:2d6 reason:"ambush at the well" secret:True` — Gina (game master) 🔒 secret' in page
    assert "🎲 d6 → **3** — Gina: ambush at the well" in page
    mine = await app.game_report(caller(GM, "Gina"))
    assert mine.ephemeral is True and "yours alone" in mine.cards[0].description
    assert "— 🔒 *secret roll*" in report_text(mine) and "shown to the game master only" in report_text(mine)

    # the battle ends: everyone sees it, in the log and the report
    await app.game_end(caller(GM, "Gina"))
    page = (await app.game_log(caller(RED, "Rita"))).cards[0].description
    assert "🎲 d6 → **4** — Gina: ambush at the well" in page
    text = report_text(await app.game_report(caller(RED, "Rita")))
    assert 'Gina (game master): `/roll dice:2d6 reason:"ambush at the well" secret:True` — 🔒 *secret roll*' in text
    assert "- Gina rolls in secret 2d6 (3, 4) = `7`" in text
    assert "- **Secret rolls:** 1, revealed below (🔒)." in text


async def test_a_won_battle_reopened_by_undo_hides_its_secrets_again(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    forced.push_dice([6])
    await app.roll(caller(GM, "Gina"), "1d6", "reinforcements", secret=True)
    await red_wins(app, forced)
    assert "reinforcements" in report_text(await app.game_report(caller(BLUE)))
    await app.game_undo(caller(GM, "Gina"))
    assert "reinforcements" not in report_text(await app.game_report(caller(BLUE)))


async def test_a_repeated_delivery_of_a_secret_roll_is_applied_once_and_stays_private(
    app: App, forced: ForcedDice
) -> None:
    await ssg_table(app, forced)
    gm = caller(GM, "Gina", interaction_id=777)
    forced.push_dice([5])
    await app.roll(gm, "1d6", "omen", secret=True)
    again = await app.roll(gm, "1d6", "omen", secret=True)
    assert again.replayed and again.ephemeral
    async with orm(app.store.db) as s:
        assert await s.scalar(select(func.count()).select_from(RollRecord).where(RollRecord.secret.is_(True))) == 1


# --- the log, a page at a time ----------------------------------------------------------------------


async def test_the_log_pages_newest_first_and_refuses_a_page_past_the_end(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    forced.push_dice([1] * 11)
    for n in range(11):
        await app.roll(caller(RED, "Rita"), "1d6", f"roll {n}")
    battle = await game_id(app)
    first = await app.game_log(caller(BLUE), count=5)
    assert isinstance(first, LogPage) and (first.page, first.pages, first.count, first.game_id) == (1, 3, 5, battle)
    assert first.ephemeral is True
    heads = re.findall(r"^\*\*(\d+)\.\*\*", first.cards[0].description, re.M)
    assert heads == ["12", "11", "10", "9", "8"]
    assert first.cards[0].footer == "Page 1 of 3 · actions 12–8, newest first · /game report has the whole battle"
    last = await app.game_log(caller(BLUE), count=5, page=3)
    assert re.findall(r"^\*\*(\d+)\.\*\*", last.cards[0].description, re.M) == ["2", "1"]
    assert "`/game start`" in last.cards[0].description
    with pytest.raises(Refusal, match=rf"^Battle {battle}'s log has 3 pages of 5 actions: there is no page 4.$"):
        await app.game_log(caller(BLUE), count=5, page=4)
    with pytest.raises(Refusal, match="Pages start at 1"):
        await app.game_log(caller(BLUE), page=0)
    clamped = await app.game_log(caller(BLUE), count=10**9, page=1)
    assert clamped.count == 25 and clamped.pages == 1
    assert (await app.game_log(caller(BLUE), count=-4)).count == 1


async def test_a_page_of_huge_actions_fits_an_embed_without_cutting(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    forced.push_dice([6] * 100 * 25)
    for _ in range(25):
        await app.roll(caller(RED, "Rita"), "100d6", "x" * 100)  # 100 dice, each with a long reason
    for count in (1, 10, 25):
        page = await app.game_log(caller(BLUE), count=count)
        description = page.cards[0].description
        assert len(description) <= LOG_PAGE_CHARS
        [embed] = to_embeds(page.cards)
        assert embed.description == description  # nothing cut by the embed layer
        assert len(embed) <= 6000
        assert description.count("more lines in /game report") == count


async def test_a_long_battle_is_read_in_a_constant_number_of_queries(
    app: App, forced: ForcedDice, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thousands of actions: the report holds every one, and the queries do not grow with them."""
    await ssg_table(app, forced)
    statements = await report_statements(app, monkeypatch)
    await seed_long_battle(app, 2000)
    assert await report_statements(app, monkeypatch) == statements
    reply = await app.game_report(caller(BLUE))
    text = report_text(reply)
    assert text.count("\n**") >= 2001 and "**2001.** Rita (red): `/ssg shoot n:2001`" in text
    assert "- 🎲 d6 → **4** — shot 2001, die 2" in text
    assert [line for line in text.splitlines() if line.startswith("### Turn")][-1] == "### Turn 21"
    fallen = text[text.index("## Casualties") :]
    # Every casualty is listed; "Lost:" is the state's count, and these were only written to the log.
    assert fallen.count("\n- ☠ ") == 8
    page = await app.game_log(caller(BLUE), count=10, page=150)
    assert re.findall(r"^\*\*(\d+)\.\*\*", page.cards[0].description, re.M)[0] == "511"


async def seed_long_battle(app: App, actions: int) -> None:
    """``actions`` more actions written in bulk: a shot each with three dice, a new turn every
    100th, a casualty every 250th."""
    async with orm(app.store.db) as s:
        game = await s.scalar(select(Game))
        first = (await s.scalar(select(func.max(ActionRecord.id)))) + 1
        numbers = range(2, actions + 2)
        await s.execute(
            insert(ActionRecord),
            [
                {
                    "id": first + n,
                    "game_id": game.id,
                    "seq": n,
                    "user_id": RED,
                    "side": "red",
                    "by_gm": False,
                    "command": f"/ssg shoot n:{n}",
                    "undone": False,
                }
                for n in numbers
            ],
        )
        event_rows, roll_rows = [], []
        for n in numbers:
            events = [Event("shot", f"shot number {n}")]
            if n % 100 == 0:
                events.append(Event("phase", f"Turn {n // 100 + 1} · red · movement phase.", {"turn": n // 100 + 1}))
            if n % 250 == 0:
                events.append(
                    Event("casualty", f"Figure {n} is out.", {"figure": f"F{n}", "side": "blue", "by": "Rossi"})
                )
            event_rows += [
                {"action_id": first + n, "seq": i, "kind": e.kind, "text": e.text, "data": dict(e.data)}
                for i, e in enumerate(events)
            ]
            roll_rows += [
                {
                    "action_id": first + n,
                    "seq": k,
                    "kind": "die",
                    "sides": 6,
                    "value": str(n % 6 + 1),
                    "reason": f"shot {n}, die {k}",
                    "secret": False,
                }
                for k in range(3)
            ]
        await s.execute(insert(EventRecord), event_rows)
        await s.execute(insert(RollRecord), roll_rows)


async def report_statements(app: App, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many statements /game report runs, counted where the store runs them (on SQLite its
    statements go straight to the driver, past the engine's events)."""
    seen: list[object] = []
    for kind in (SqliteTx, ConnectionTx):
        for name in ("rows", "run"):
            monkeypatch.setattr(kind, name, counted(getattr(kind, name), seen))
    try:
        await app.game_report(caller(BLUE))
    finally:
        monkeypatch.undo()
    assert seen, "the report ran no statement through the store"
    return len(seen)


def counted(method: Any, seen: list[object]) -> Any:
    async def counting(self: Any, statement: Any, *args: Any) -> Any:
        seen.append(statement)
        return await method(self, statement, *args)

    return counting
