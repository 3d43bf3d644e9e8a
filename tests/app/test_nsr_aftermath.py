"""NSR between battles through the application: a battle's losses come off the roster's units."""

from __future__ import annotations

from sqlalchemy import select

from bot.app.replies import Reply
from bot.app.service import App
from bot.dice import ForcedDice
from bot.store.schema import Figure, Game
from rules import get_engine
from tests.orm import orm
from tests.support import BLUE, GM, RED, caller, join

FULL_LIGNE = {
    "figures": 12,
    "officer": "yes",
    "nco": "yes",
    "weapon": "musket",
    "melee": "bayonet",
    "formation": "line",
}


async def figures(app: App) -> dict[str, Figure]:
    async with orm(app.store.db) as s:
        return {f.name: f for f in await s.scalars(select(Figure))}


async def win_nsr(app: App, forced: ForcedDice) -> Reply:
    """1er Ligne (12) against the 95th (2 rifles): both hold, the 95th's rifles kill the French
    Commander-in-Chief (A♥), then 1er Ligne's muskets kill both riflemen and the French win. Each
    side has one unit, so each card is taken at once (no /decide)."""
    await app.campaign_new(caller(GM, "Gina"), "Talavera", "nsr", "table")
    await join(app, RED, "Rita", "French")
    await join(app, BLUE, "Bob", "Allied")
    await app.roster_add(caller(RED, "Rita"), "1er Ligne", "line", stats="figures=12")
    await app.roster_add(caller(BLUE, "Bob"), "95th", "light", stats="figures=2 officer=no nco=no weapon=rifle")
    forced.push_cards(["2S", "2H"])
    await app.game_start(caller(GM, "Gina"))
    await app.act(caller(RED), "nsr", "hold", {}, "/nsr hold")
    forced.push_cards(["3H"])
    await app.act(caller(BLUE), "nsr", "hold", {}, "/nsr hold")  # the fire phase turns 3♥: the 95th again
    forced.push_dice([6])
    forced.push_cards(["AH", "3S"])  # 2 rifles × 1/2: one hit, the Ace on the highest leader
    await app.act(caller(BLUE), "nsr", "fire", {"target": "1er Ligne", "class": "I", "range": 10}, "/nsr fire")
    forced.push_dice([3])
    forced.push_cards(["4H", "5H"])  # 11 muskets × 1/4: two hits, both killed
    return await app.act(caller(RED), "nsr", "fire", {"target": "95th", "class": "I", "range": 10}, "/nsr fire")


async def test_the_winning_volley_takes_each_sides_losses_off_the_roster(app: App, forced: ForcedDice) -> None:
    won = await win_nsr(app, forced)
    cards = {c.title: c.description for c in won.cards}
    assert cards["After the battle: French"] == (
        "**1er Ligne** — lost 1 figure (1 killed), among them the Commander-in-Chief; 11 remain"
    )
    assert cards["After the battle: Allied"] == "☠ **95th** — wiped out: all 2 figures lost (2 killed)"
    kept = await figures(app)
    ligne, rifles = kept["1er Ligne"], kept["95th"]
    assert ligne.status == "active" and ligne.stats == {**FULL_LIGNE, "figures": 11, "officer": "no"}
    assert [(h["battle"], h["note"]) for h in ligne.history] == [
        (1, "lost 1 figure (1 killed), among them the Commander-in-Chief; 11 remain")
    ]
    assert rifles.status == "dead" and rifles.history[-1]["note"].startswith("wiped out")


async def test_undoing_the_winning_volley_gives_the_unit_back(app: App, forced: ForcedDice) -> None:
    await win_nsr(app, forced)
    asked = await app.game_undo(caller(RED))  # the volley rolled: the other side must allow it
    assert asked.decision is not None
    await app.decide(caller(BLUE), "allow", asked.decision.decision_id)
    kept = await figures(app)
    assert kept["1er Ligne"].stats == FULL_LIGNE and kept["1er Ligne"].history == []
    assert kept["95th"].status == "active" and kept["95th"].history == []
    async with orm(app.store.db) as s:
        assert (await s.scalar(select(Game))).status == "active"


async def test_the_next_battle_fields_the_reduced_unit(app: App, forced: ForcedDice) -> None:
    await win_nsr(app, forced)
    await app.roster_add(caller(BLUE, "Bob"), "33rd Foot", "line", stats="figures=6")
    forced.push_cards(["2S"])
    await app.game_start(caller(GM, "Gina"))
    async with orm(app.store.db) as s:
        game = await s.scalar(select(Game).order_by(Game.id.desc()))
    state = get_engine("nsr").load_state(game.state)
    ligne = next(u for u in state.units if u.name == "1er Ligne")
    assert len(ligne.figures) == 11 and [f.role for f in ligne.figures[:2]] == ["nco", "private"]
    assert "French" not in state.commanders  # the unit's officer fell: no French Commander-in-Chief
    assert [u.name for u in state.units] == ["1er Ligne", "33rd Foot"]  # the 95th is gone
