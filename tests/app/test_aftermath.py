"""After a battle the rosters carry its consequences; each figure keeps its history."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.app.replies import Refusal
from bot.app.service import App
from bot.dice import ForcedDice
from bot.store.schema import Figure, Game
from rules import get_engine
from tests.orm import orm
from tests.support import BLUE, CHANNEL, GM, RED, caller, join, medieval_duel, ssg_table


async def figures(app: App) -> dict[str, Figure]:
    async with orm(app.store.db) as s:
        return {f.name: f for f in await s.scalars(select(Figure))}


async def win_ssg(app: App, forced: ForcedDice):
    await ssg_table(app, forced)
    await app.act(caller(RED), "ssg", "next", {}, "/ssg next")
    for shooter, target in (("Rossi", "Big Jim"), ("Ada", "Bo"), ("Eli", "Bert")):
        forced.push_dice([6])
        await app.act(
            caller(RED),
            "ssg",
            "shoot",
            {"shooter": shooter, "target": target, "range": 5.0, "los": "clear"},
            "/ssg shoot",
        )
    forced.push_dice([6])
    return await app.act(
        caller(RED), "ssg", "shoot", {"shooter": "Fay", "target": "Bill", "range": 5.0, "los": "clear"}, "/ssg shoot"
    )


async def test_a_won_battle_posts_a_card_per_side_and_keeps_history(app: App, forced: ForcedDice) -> None:
    won = await win_ssg(app, forced)
    titles = [c.title for c in won.cards]
    assert "After the battle: Red" in titles and "After the battle: Blue" in titles
    kept = await figures(app)
    assert kept["Bill"].history[-1]["note"] == "Battle 1: out of the fight"
    assert kept["Rossi"].history[-1]["note"] == "Battle 1: fought"
    assert all(f.status == "active" for f in kept.values())  # SSG has no rules between games


async def test_undoing_the_winning_shot_takes_the_aftermath_back(app: App, forced: ForcedDice) -> None:
    await win_ssg(app, forced)
    asked = await app.game_undo(caller(RED))  # the shot rolled: blue must allow it
    assert asked.decision is not None
    await app.decide(caller(BLUE), "allow", asked.decision.decision_id)
    kept = await figures(app)
    assert all(f.history == [] for f in kept.values())
    async with orm(app.store.db) as s:
        assert (await s.scalar(select(Game))).status == "active"


async def test_the_game_master_chooses_who_fights(app: App, forced: ForcedDice) -> None:
    await ssg_table(app, forced)
    await app.game_end(caller(GM))
    with pytest.raises(Refusal, match="unknown, dead or resting"):
        await app.game_start(caller(GM), "Rossi, Nobody")
    with pytest.raises(Exception, match="6 figures"):
        await app.game_start(caller(GM), "Rossi, Big Jim")  # SSG wants six a side


async def test_a_medieval_serious_wound_heals_only_to_light(app: App, forced: ForcedDice) -> None:
    await medieval_duel(app)
    forced.push_dice([6, 1])
    await app.game_start(caller(GM, "Gina"))
    await app.decide(caller(RED, "Rita"), "first")
    await app.act(
        caller(RED), "medieval", "move", {"figure": "Hugh", "distance": 6.0, "engage": "Olaf"}, "/medieval move"
    )
    forced.push_dice([5, 2, 3, 5])  # 9 against 6; sword 3 and 5: 5 + 1 - 2 = serious (the seed's example)
    fought = await app.act(caller(RED), "medieval", "fight", {"figure": "Hugh"}, "/medieval fight")
    assert any(e.kind == "wound" and e.data["after"] == "serious" for e in fought.events)
    ended = await app.game_end(caller(GM))
    assert any("healed only to light" in c.description for c in ended.cards)
    kept = await figures(app)
    assert kept["Olaf"].stats["health"] == "light" and kept["Olaf"].status == "active"
    assert "health" not in kept["Hugh"].stats
    forced.push_dice([1, 6])
    await app.game_start(caller(GM, "Gina"))
    async with orm(app.store.db) as s:
        game = await s.scalar(select(Game).order_by(Game.id.desc()))
    olaf = next(f for f in get_engine("medieval").load_state(game.state).figures if f.name == "Olaf")
    assert olaf.health == "light" and olaf.healed_from_serious


async def ready_names(app: App, campaign_id: int = 1) -> list[str]:
    """The roster figures that may fight now, as /game start would pick them."""
    async with app.store.transaction() as u:
        campaign = await u.campaigns.get(campaign_id)
        ready, _ = await app.aftermath.roster_split(u, campaign)
    return [f.name for f in ready]


async def test_a_resting_figure_misses_its_games_then_fights_again(app: App, forced: ForcedDice) -> None:
    """A "resting" aftermath (Sharpe's miss-D6-games) keeps a figure home for that many battles."""
    await ssg_table(app, forced)
    await app.game_end(caller(GM))
    async with orm(app.store.db) as s:
        rossi = await s.scalar(select(Figure).where(Figure.name == "Rossi"))
        rossi.status = "resting"
        rossi.history = [*rossi.history, {"battle": 1, "note": "misses 1 game", "games_out": 1}]
    assert "Rossi" not in await ready_names(app)
    forced.push_dice([5, 2])
    with pytest.raises(Exception, match="6 figures"):
        await app.game_start(caller(GM))  # five red figures: Rossi stays home
    async with orm(app.store.db) as s:
        from bot.store.schema import Game as GameRow

        s.add(GameRow(campaign_id=1, number=2, ruleset="ssg", status="ended", state={}))  # a battle he missed
    assert "Rossi" in await ready_names(app)


async def test_each_campaign_numbers_its_battles_from_1_in_one_database(app: App, forced: ForcedDice) -> None:
    """Another campaign's battles come first in the database; this campaign's first is still battle
    1, in the history, the cards and /game status, and only its own battles serve a resting man's games."""
    elsewhere = {"channel": CHANNEL + 1}
    await app.campaign_new(caller(GM, "Gina", **elsewhere), "Elsewhere", "medieval", "table")
    for user, name, side in ((RED, "Rita", "red"), (BLUE, "Bob", "blue")):
        asked = await app.campaign_join(caller(user, name, **elsewhere), side)
        await app.decide(caller(GM, "Gina", **elsewhere), "approve", asked.decision.decision_id)
    await app.roster_add(caller(RED, "Rita", **elsewhere), "Hugh", "Knight")
    await app.roster_add(caller(BLUE, "Bob", **elsewhere), "Olaf", "Viking Warrior")
    for _ in range(2):
        forced.push_dice([6, 1])
        await app.game_start(caller(GM, "Gina", **elsewhere))
        ended = await app.game_end(caller(GM, "Gina", **elsewhere))
    assert ended.cards[0].description == "Battle 2 is over; its log is kept."

    await ssg_table(app, forced)  # this channel's campaign: its first battle, the database's third game
    assert (await app.game_status(caller(RED))).cards[0].title == "Test — battle 1"
    ended = await app.game_end(caller(GM))
    assert ended.cards[0].description == "Battle 1 is over; its log is kept."
    kept = await figures(app)
    assert [h["battle"] for h in kept["Hugh"].history] == [1, 2]
    assert [(h["battle"], h["note"]) for h in kept["Rossi"].history] == [(1, "Battle 1: fought")]
    async with orm(app.store.db) as s:
        games = [tuple(row) for row in (await s.execute(select(Game.id, Game.number).order_by(Game.id))).all()]
    assert games == [(1, 1), (2, 2), (3, 1)]

    # Rossi misses his next game: Elsewhere's battles do not count, this campaign's battle 2 does.
    async with orm(app.store.db) as s:
        rossi = await s.scalar(select(Figure).where(Figure.name == "Rossi"))
        rossi.status, rossi.history = (
            "resting",
            [*rossi.history, {"battle": 1, "note": "misses 1 game", "games_out": 1}],
        )
    forced.push_dice([6, 1])
    await app.game_start(caller(GM, "Gina", **elsewhere))  # Elsewhere's battle 3
    await app.game_end(caller(GM, "Gina", **elsewhere))
    assert (await figures(app))["Rossi"].status == "resting"
    async with orm(app.store.db) as s:
        s.add(Game(campaign_id=2, number=2, ruleset="ssg", status="ended", state={}))  # the battle he missed
    assert "Rossi" in await ready_names(app, campaign_id=2)


async def test_the_start_card_says_who_stays_home_and_why(app: App, forced: ForcedDice) -> None:
    await app.campaign_new(caller(GM, "Gina"), "M", "medieval", "table")
    await join(app, RED, "Rita", "red")
    await join(app, BLUE, "Bob", "blue")
    for name in ("Sir Hugh", "Ada", "Cy"):
        await app.roster_add(caller(RED, "Rita"), name, "Knight")
    await app.roster_add(caller(BLUE, "Bob"), "Ulf", "Viking Hero")
    async with orm(app.store.db) as s:
        ada = await s.scalar(select(Figure).where(Figure.name == "Ada"))
        ada.status, ada.history = "resting", [{"battle": 0, "note": "a broken arm", "games_out": 2}]
        cy = await s.scalar(select(Figure).where(Figure.name == "Cy"))
        cy.status = "dead"
    forced.push_dice([6, 1])
    started = await app.game_start(caller(GM, "Gina"))
    assert ("Staying home", "Ada (resting: 2 more battles), Cy (dead)", False) in started.cards[0].fields
