"""The battlefield's application side on a real, migrated SQLite file: the campaign's setting, the
map drafted between battles (/map new, feature add and remove, zone, import, export), a battle
started on it, figures placed and deployed through the action path, the picture with /map show,
/game status and after a movement phase, and every bad input refused with nothing changed."""

from __future__ import annotations

import io
import os
import signal
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from PIL import Image
from sqlalchemy import select

from bot.app.battlefield import BATTLEFIELD, MAP_DRAFT
from bot.app.pictures import DRAWING, MAP_PICTURE, Pictures
from bot.app.replies import Caller, Refusal, Reply
from bot.app.service import App
from bot.app.yaml_format import FileRefused
from bot.dice import ForcedDice
from bot.render.cards import card_text
from bot.store import Store
from bot.store.database import Database, sqlite_url
from bot.store.schema import Campaign, Game
from rules import get_engine
from rules.battlefield import map_file
from rules.core import RuleError
from tests.named_app import NamedApp
from tests.orm import orm
from tests.replay import load_log, replay
from tests.support import BLUE, GM, RED, STRANGER, caller, join, ssg_campaign


def gina() -> Caller:
    """The game master; each call a new interaction (a caller reused would be a repeated delivery)."""
    return caller(GM, "Gina")


def rita() -> Caller:
    return caller(RED, "Rita")


def bob() -> Caller:
    return caller(BLUE, "Bob")


async def settings(app: App) -> dict[str, Any]:
    async with orm(app.store.db) as s:
        campaign = await s.scalar(select(Campaign).order_by(Campaign.id.desc()))
        return dict(campaign.settings)


async def game_state(app: App) -> dict[str, Any]:
    async with orm(app.store.db) as s:
        game = await s.scalar(select(Game).order_by(Game.id.desc()))
        return game.state


def png_of(reply: Reply) -> bytes:
    [data] = [data for name, data in reply.files if name == MAP_PICTURE]
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert any(card.image == MAP_PICTURE for card in reply.cards)
    return data


async def refused(app: App, call: Any, match: str) -> None:
    """``call`` is refused with ``match`` in one short sentence, and the campaign is as it was."""
    before = await settings(app)
    with pytest.raises(Refusal, match=match) as caught:
        await call
    assert "\n" not in caught.value.message and len(caught.value.message) <= 300
    assert await settings(app) == before


def map_yaml(features: list[dict[str, Any]]) -> bytes:
    data = {
        "name": "Hand made",
        "table": {"width": 24, "height": 24},
        "features": features,
        "zones": {"red": [[0, 0], [24, 0], [24, 3], [0, 3]], "blue": [[0, 21], [24, 21], [24, 24], [0, 24]]},
    }
    return yaml.safe_dump(data).encode()


# --- the campaign's battlefield ------------------------------------------------------------------


async def test_new_campaigns_play_on_the_map_where_the_bot_can_measure(app: App) -> None:
    reply = await app.campaign_new(gina(), "Iron Coast", "ssg")
    assert "bot's map" in reply.cards[0].description
    assert (await settings(app))[BATTLEFIELD] == "map"
    await app.campaign_end(gina())
    await app.campaign_new(gina(), "Talavera", "yasg")
    assert (await settings(app))[BATTLEFIELD] == "table"
    await app.campaign_end(gina())
    with pytest.raises(Refusal, match="Yet Another Skirmish Game is not played on the bot's map"):
        await app.campaign_new(gina(), "Hougoumont", "yasg", "map")
    await app.campaign_new(gina(), "Quiet", "ssg", "table")
    assert (await settings(app))[BATTLEFIELD] == "table"
    info = await app.campaign_info(gina())
    assert ("Battlefield", "a table", True) in info.cards[0].fields


async def test_a_campaign_made_before_the_map_fights_on_a_table(app: App, forced: ForcedDice) -> None:
    """Its settings hold no battlefield (the key came with the map): its battles stay on a table."""
    await ssg_campaign(app)
    async with orm(app.store.db) as s:
        campaign = await s.scalar(select(Campaign).order_by(Campaign.id.desc()))
        campaign.settings = {}
    forced.push_dice([6, 1])
    await app.game_start(gina())
    state = await game_state(app)
    assert state.get("field") is None and state["phase"] == "movement"
    info = await app.campaign_info(gina())
    assert ("Battlefield", "a table", True) in info.cards[0].fields


async def test_the_battlefield_changes_between_battles_by_the_game_master(app: App, forced: ForcedDice) -> None:
    await ssg_campaign(app, "table")
    await refused(app, app.campaign_battlefield(rita(), "map"), "Only the game master")
    await refused(app, app.campaign_battlefield(gina(), "table"), "already plays on a table")
    await refused(app, app.campaign_battlefield(gina(), "grid"), "map or table")
    await app.campaign_battlefield(gina(), "map")
    assert (await settings(app))[BATTLEFIELD] == "map"
    forced.push_dice([5, 2])
    await app.game_start(gina())
    await refused(app, app.campaign_battlefield(gina(), "table"), "battle is in progress")
    await app.game_end(gina())
    await app.campaign_battlefield(gina(), "table")
    assert (await settings(app))[BATTLEFIELD] == "table"


async def test_yasg_says_it_plays_on_its_own_grid_board_and_where_to_see_it(app: App) -> None:
    reply = await app.campaign_new(gina(), "Talavera", "yasg")
    said = reply.cards[0].description
    assert "own table" not in said and "grid board" in said and "/game status shows it" in said
    await refused(app, app.map_new(gina(), "crossroads"), "grid board: /yasg board sets it up")
    info = await app.campaign_info(gina())
    assert ("Battlefield", "the bot's grid board", True) in info.cards[0].fields
    await app.campaign_join(gina(), "british")
    await app.roster_add(gina(), "Sharpe", "A", stats="leader=yes")
    await join(app, RED, "Rita", "french")
    await app.roster_add(caller(RED, "Rita"), "Ducos", "B", stats="leader=yes")
    await app.game_start(gina())
    placing = app.act(gina(), None, "place", {"figure": "Ducos", "at": "3,3"}, "/map place")
    await refused(app, placing, "not played on the bot's map but on the bot's grid board")


async def test_a_ruleset_off_the_map_refuses_the_map(app: App) -> None:
    await app.campaign_new(gina(), "Talavera", "yasg")
    await refused(app, app.campaign_battlefield(gina(), "map"), "not played on the bot's map")
    await refused(app, app.map_new(gina(), "crossroads"), "not played on the bot's map")
    with pytest.raises(Refusal, match="not played on the bot's map"):
        await app.map_show(gina())


# --- the draft -----------------------------------------------------------------------------------


async def test_a_shipped_map_then_features_added_and_removed(app: App) -> None:
    await ssg_campaign(app)
    choices = await app.map_scenarios(gina(), "")
    assert "crossroads" in choices and len(choices) >= 3
    new = await app.map_new(gina(), "crossroads")
    png_of(new)
    assert "Crossroads" in new.cards[0].description
    draft = (await settings(app))[MAP_DRAFT]
    assert draft["name"] == "Crossroads" and len(draft["features"]) == 9

    added = await app.map_feature_add(gina(), "wood", "30,30 34,30 34,34 30,34", "the spinney")
    png_of(added)
    added_line = await app.map_feature_add(gina(), "Hedge", "2,30 8,30", None, 0.75)
    assert "a hedge" in added_line.cards[0].description
    draft = (await settings(app))[MAP_DRAFT]
    assert draft["features"][-2] == {
        "kind": "wood",
        "name": "the spinney",
        "area": [[30, 30], [34, 30], [34, 34], [30, 34]],
    }
    assert draft["features"][-1] == {"kind": "hedge", "line": [[2, 30], [8, 30]], "thickness": 0.75}

    listed = await app.map_features(gina(), "spinney")
    assert listed == [("10. the spinney (wood)", "10")]
    await app.map_feature_remove(gina(), "The Spinney")
    await app.map_feature_remove(gina(), "10")  # the hedge, now tenth
    assert len((await settings(app))[MAP_DRAFT]["features"]) == 9
    await refused(app, app.map_feature_remove(gina(), "12"), "no number 12")
    await refused(app, app.map_feature_remove(gina(), "the moat"), "no feature called .the moat")


async def test_bad_features_are_refused_and_change_nothing(app: App) -> None:
    await ssg_campaign(app)
    await refused(app, app.map_feature_add(gina(), "wood", "1,1 3,1 3,3"), "no map yet")
    await app.map_new(gina(), "crossroads")
    await refused(app, app.map_feature_add(gina(), "lava", "1,1 3,1 3,3"), "lava. is not a kind of terrain")
    await refused(app, app.map_feature_add(gina(), "wood", "30,30 40,30 40,40"), "off the 36 by 36 inch table")
    await refused(app, app.map_feature_add(gina(), "wood", "-1,1 3,1 3,3"), "off the 36 by 36 inch table")
    await refused(app, app.map_feature_add(gina(), "wood", "0,0 4,4 4,0 0,4"), "outline crosses itself")
    await refused(app, app.map_feature_add(gina(), "wood", "1,1 2,2"), "at least 3 points")
    await refused(app, app.map_feature_add(gina(), "hedge", "1,1 1,1"), "no length")
    await refused(app, app.map_feature_add(gina(), "wood", "1,1 banana"), "x,y in inches")
    await refused(app, app.map_feature_add(gina(), "wood", "1e308,1 3,1 3,3"), "nothing on a table is more than 1000")
    await refused(app, app.map_feature_add(gina(), "wood", "99999999,1 3,1 3,3"), "nothing on a table is more than")
    await refused(app, app.map_feature_add(gina(), "wood", "1,1 3,1 3,3", None, 1.0), "Only a line")
    await refused(app, app.map_feature_add(gina(), "wood", "30,30 34,30 34,34", "the copse"), "already has a feature")
    await refused(app, app.map_feature_add(rita(), "wood", "30,30 34,30 34,34"), "Only the game master")
    await refused(app, app.map_new(rita(), "farm"), "Only the game master")
    await refused(app, app.map_new(gina(), "atlantis"), "no map called .atlantis")
    await refused(app, app.map_new(gina(), "farm", 24, 24), "not both")
    await refused(app, app.map_new(gina()), "Give a scenario")
    await refused(app, app.map_new(gina(), None, 24, 1e308), "from 12 to 120 inches")
    await refused(app, app.map_new(gina(), None, 24, float("nan")), "number of inches")
    await refused(app, app.map_zone(gina(), "green", "0,0 4,0 4,4"), "green. is not a side")
    await refused(app, app.map_zone(gina(), "red", "0,0 4,0"), "at least 3 corners")
    await refused(app, app.map_zone(gina(), "red", "0,0 40,0 40,4"), "off the table")


async def test_an_empty_table_gets_a_strip_a_side_and_a_zone_can_be_redrawn(app: App) -> None:
    await ssg_campaign(app)
    reply = await app.map_new(gina(), None, 48, 30)
    png_of(reply)
    draft = (await settings(app))[MAP_DRAFT]
    assert (draft["table"], draft["features"]) == ({"width": 48, "height": 30}, [])
    assert draft["zones"] == {
        "red": [[0, 0], [48, 0], [48, 4], [0, 4]],
        "blue": [[0, 26], [48, 26], [48, 30], [0, 30]],
    }
    await app.map_zone(gina(), "Blue", "40,0 48,0 48,30 40,30")
    assert (await settings(app))[MAP_DRAFT]["zones"]["blue"] == [[40, 0], [48, 0], [48, 30], [40, 30]]


async def test_import_and_export_a_map_file(app: App) -> None:
    await ssg_campaign(app)
    await refused(app, app.map_export(gina()), "no map yet")
    reply = await app.map_import(gina(), "hand.yaml", map_yaml([{"kind": "wood", "area": [[4, 4], [8, 4], [8, 8]]}]))
    png_of(reply)
    assert reply.cards[0].title == "Map imported"
    exported = await app.map_export(rita())
    [(filename, data)] = exported.files
    assert filename == "map-hand-made.yaml" and exported.ephemeral
    engine = get_engine("ssg", None)
    assert map_file(engine.read_map(yaml.safe_load(data))) == (await settings(app))[MAP_DRAFT]
    await app.map_new(gina(), "farm")
    await app.map_import(gina(), filename, data)  # the exported file comes back as it was
    assert (await settings(app))[MAP_DRAFT]["name"] == "Hand made"


async def test_bad_map_files_are_refused_with_every_problem_and_nothing_changed(app: App) -> None:
    await ssg_campaign(app)
    await app.map_new(gina(), "crossroads")
    before = await settings(app)

    async def problems(data: bytes) -> str:
        with pytest.raises(FileRefused) as refused:
            await app.map_import(gina(), "bad.yaml", data)
        assert await settings(app) == before
        return refused.value.message

    many = [{"kind": "road", "line": [[0, 0], [1, 1]]}] * 10_000
    text = await problems(map_yaml(many))
    assert "KiB" in text or "10000 features" in text or "too much" in text
    assert "1000 features; a map may have at most 500" in await problems(map_yaml(many[:1000]))
    text = await problems(map_yaml([{"kind": "lava", "area": [[1, 1], [2, 1], [2, 2]]}, {"kind": "wood"}]))
    assert "lava" in text and "features[1]" in text
    assert "off the 24 by 24 inch table" in await problems(
        map_yaml([{"kind": "wood", "area": [[20, 20], [30, 20], [30, 30]]}])
    )
    assert "line 2" in await problems(b"table: {width: 24\n")
    with pytest.raises(Refusal, match="Only the game master"):
        await app.map_import(rita(), "hand.yaml", map_yaml([]))


async def test_the_draft_outlives_a_restart(tmp_path: Path, forced: ForcedDice) -> None:
    url = sqlite_url(tmp_path / "data" / "maps.sqlite3")
    database = await Database.open(url)
    app = NamedApp(Store(database), lambda: forced)
    await ssg_campaign(app)
    await app.map_new(gina(), "farm")
    await app.map_feature_add(gina(), "rubble", "1,10 3,10 3,12", "the old cart")
    kept = await settings(app)
    await database.close()

    database = await Database.open(url)
    try:
        restarted = NamedApp(Store(database), lambda: forced)
        assert await settings(restarted) == kept
        shown = await restarted.map_show(rita())
        png_of(shown)
        features = next(value for name, value, _ in shown.cards[0].fields if name.startswith("Features"))
        assert "the old cart (rubble)" in features
        forced.push_dice([5, 2])
        started = await restarted.game_start(gina())
        assert "the campaign's map, **Farm**" in started.cards[-1].description
    finally:
        await database.close()


# --- a battle on the map -------------------------------------------------------------------------


async def test_a_battle_on_the_map_from_the_start_to_the_first_movement_phase(app: App, forced: ForcedDice) -> None:
    await ssg_campaign(app)
    forced.push_dice([5, 2])
    started = await app.game_start(gina())
    png_of(started)
    board = started.cards[-1]
    assert "no map was drafted" in board.description.casefold() and "Crossroads" in board.description
    assert "/map place" in board.description and "/map deploy" in board.description
    assert "Crossroads" in card_text(board)
    await refused(app, app.map_new(gina(), "farm"), "battle is in progress")
    await refused(app, app.map_feature_add(gina(), "wood", "1,1 3,1 3,3"), "battle is in progress")
    await refused(app, app.map_import(gina(), "m.yaml", map_yaml([])), "battle is in progress")

    state = await game_state(app)
    placed = await app.map_place(rita(), "Rossi", "14,2")
    assert "Rossi (red) stands at" in placed.cards[0].description and not placed.files
    for who, figure, at, match in (
        (RED, "Rossi", "15,2", "already placed"),
        (RED, "Nobody", "15,2", "Nobody"),
        (RED, "Ada", "15,30", "outside red's deployment zone"),
        (RED, "Ada", "100,2", "off the"),
        (RED, "Ada", "14,2", "would stand on Rossi's base"),
        (RED, "Big Jim", "14,34", "Only blue's player"),
        (STRANGER, "Ada", "15,2", "not in this campaign"),
    ):
        with pytest.raises(RuleError, match=match):
            await app.map_place(caller(who), figure, at)
    assert (await game_state(app))["field"]["positions"] == {"Rossi": [14.0, 2.0]}
    assert state["field"]["positions"] == {}

    await app.map_deploy(rita())
    deployed = await app.map_deploy(gina(), "blue")
    png_of(deployed)
    assert any("Every figure is on the map" in e.text for e in deployed.events)
    assert len((await game_state(app))["field"]["positions"]) == 12
    with pytest.raises(RuleError, match="deployment is over"):
        await app.map_deploy(bob())

    status = await app.game_status(bob())
    png_of(status)
    shown = await app.map_show(bob(), "Rossi")
    png_of(shown)
    assert "Rossi: 4.0″ of movement left" in card_text(shown.cards[0])
    with pytest.raises(Refusal):
        await app.map_show(bob(), "Nobody")

    moved = await app.act(rita(), "ssg", "move", {"figure": "Rossi", "to": "14,5"}, "/ssg move figure:Rossi to:14,5")
    assert not any(name == MAP_PICTURE for name, _ in moved.files)
    ended = await app.act(rita(), "ssg", "next", {}, "/ssg next")  # the movement phase ends: the picture
    png_of(ended)
    with pytest.raises(RuleError, match=r"Big Jim is out of range: 29\.4″ away"):  # /odds measures as a shot does
        await app.odds(rita(), "ssg", "shoot", {"shooter": "Rossi", "target": "Big Jim"})

    async with orm(app.store.db) as s:
        game = await s.scalar(select(Game).order_by(Game.id.desc()))
        records = await load_log(s, game)
        engine = get_engine("ssg", None)
        assert engine.dump_state(replay(engine, records)) == game.state


async def test_odds_on_the_map_use_the_measured_range_and_sight(app: App, forced: ForcedDice) -> None:
    await ssg_campaign(app)
    await app.map_import(gina(), "open.yaml", map_yaml([]))
    forced.push_dice([5, 2])
    await app.game_start(gina())
    await app.map_place(rita(), "Rossi", "12,2")
    await app.map_place(bob(), "Big Jim", "12,22")
    await app.map_deploy(rita())
    await app.map_deploy(bob())
    await app.act(rita(), "ssg", "next", {}, "/ssg next")
    odds = await app.odds(rita(), "ssg", "shoot", {"shooter": "Rossi", "target": "Big Jim"})
    assert odds.ephemeral and "%" in odds.cards[0].description
    assert odds.cards[0].description.startswith('`/ssg shoot shooter:Rossi target:"Big Jim"`')


async def test_a_turn_passed_at_its_deadline_brings_the_picture(app: App, forced: ForcedDice) -> None:
    await ssg_campaign(app)
    forced.push_dice([5, 2])  # red first
    await app.game_start(gina())
    await app.map_deploy(gina(), "red")
    await app.map_deploy(gina(), "blue")
    now = datetime(2030, 5, 1, 12, 0, tzinfo=UTC)
    app.pace_clock = lambda: now
    await app.set_deadline(gina(), 1, "pass")
    [due] = await app.due_timeouts(now + timedelta(hours=1))
    notice = await app.apply_timeout(due, now + timedelta(hours=1))
    assert notice is not None and "the bot passed for red" in notice.reply.cards[0].description
    png_of(notice.reply)
    [shown] = [card for card in notice.reply.cards if card.image == MAP_PICTURE]
    assert shown.title == "Iron Coast: the battlefield"


async def test_a_placement_is_undone_like_any_action(app: App, forced: ForcedDice) -> None:
    await ssg_campaign(app)
    await app.map_new(gina(), "farm")
    forced.push_dice([5, 2])
    await app.game_start(gina())
    await app.map_deploy(rita())
    assert len((await game_state(app))["field"]["positions"]) == 6
    await app.game_undo(rita())
    assert (await game_state(app))["field"]["positions"] == {}


async def test_map_actions_on_a_table_battle_are_refused(app: App, forced: ForcedDice) -> None:
    await ssg_campaign(app, "table")
    forced.push_dice([5, 2])
    started = await app.game_start(gina())
    assert not started.files and all(card.image is None for card in started.cards)
    with pytest.raises(Refusal, match="played on a table"):
        await app.map_place(rita(), "Rossi", "14,2")
    with pytest.raises(Refusal, match="plays on a table"):
        await app.map_show(rita())
    status = await app.game_status(rita())
    assert not status.files and status.cards[0].text_extra is None


async def test_pictures_are_drawn_once_per_game_version_and_focus(app: App, forced: ForcedDice) -> None:
    drawn: list[Any] = []
    real = app.ctx.pictures.drawer

    def counting(view: Any, terrain: Any) -> bytes:
        drawn.append(view)
        return real(view, terrain)

    app.ctx.pictures.drawer = counting
    app.ctx.pictures.in_process = False  # a drawer of the test's own is run in a thread
    await ssg_campaign(app)
    await app.map_new(gina(), "crossroads")
    first = png_of(await app.map_show(rita()))
    assert png_of(await app.map_show(bob())) == first and len(drawn) == 1  # the draft after /map new, kept
    forced.push_dice([5, 2])
    await app.game_start(gina())
    await app.game_status(rita())
    await app.map_show(rita())
    assert len(drawn) == 2
    await app.map_show(rita(), "Rossi")
    assert len(drawn) == 3
    await app.map_place(rita(), "Rossi", "14,2")
    await app.map_show(rita())
    assert len(drawn) == 4


async def test_pictures_are_drawn_in_a_worker_process_started_again_if_it_dies(app: App) -> None:
    pictures = app.ctx.pictures
    assert pictures.in_process
    await ssg_campaign(app)
    await app.map_new(gina(), "crossroads")
    first = png_of(await app.map_show(rita()))
    assert first.startswith(b"\x89PNG")
    [worker] = DRAWING.pids
    os.kill(worker, signal.SIGKILL)  # the drawing process dies
    await app.map_feature_add(gina(), "wood", "1,1 3,1 3,3", "a new copse")
    again = png_of(await app.map_show(rita()))
    assert again.startswith(b"\x89PNG") and again != first
    assert DRAWING.pids and worker not in DRAWING.pids


async def test_a_picture_that_cannot_be_drawn_leaves_the_reply_without_it(app: App) -> None:
    def broken(view: Any, terrain: Any) -> bytes:
        raise ValueError("no ink")

    app.ctx.pictures = Pictures(drawer=broken)
    app.map_new = app.ctx.pictures.drawn(app.maps.map_new)
    await ssg_campaign(app)
    reply = await app.map_new(gina(), "crossroads")
    assert not reply.files and all(card.image is None for card in reply.cards)
    assert (await settings(app))[MAP_DRAFT]["name"] == "Crossroads"


# --- campaign files -------------------------------------------------------------------------------


async def test_a_campaign_file_carries_the_battlefield_and_the_draft(app: App) -> None:
    await ssg_campaign(app)
    await app.map_new(gina(), "woodland-edge")
    [(_, data)] = (await app.campaign_export(gina())).files
    exported = yaml.safe_load(data)
    assert exported["settings"][BATTLEFIELD] == "map"
    assert exported["settings"][MAP_DRAFT]["name"] == (await settings(app))[MAP_DRAFT]["name"]

    elsewhere = caller(GM, "Gina", channel=7)
    reply = await app.campaign_import(elsewhere, "campaign.yaml", data)
    assert reply.cards[0].title == "Campaign imported", reply.cards[0].description
    shown = await app.map_show(caller(GM, "Gina", channel=7))
    png_of(shown)

    broken = dict(exported)
    broken["settings"] = {**exported["settings"], MAP_DRAFT: {"table": {"width": 24, "height": 24}, "zones": {}}}
    with pytest.raises(FileRefused, match=r"settings\.map"):
        await app.campaign_import(caller(GM, "Gina", channel=8), "c.yaml", yaml.safe_dump(broken).encode())
    table_only = {**exported, "ruleset": "yasg", "sides": {}, "members": []}
    table_only["settings"] = {BATTLEFIELD: "map"}
    with pytest.raises(FileRefused, match="not played on the bot's map"):
        await app.campaign_import(caller(GM, "Gina", channel=9), "c.yaml", yaml.safe_dump(table_only).encode())


async def test_a_picture_is_a_phone_sized_png(app: App) -> None:
    await ssg_campaign(app)
    data = png_of(await app.map_new(gina(), "crossroads"))
    width, _ = Image.open(io.BytesIO(data)).size
    assert 1000 <= width <= 1400


# --- issue 26: a feature's name follows the rules of a figure's ------------------------------------

UNSAFE_FEATURE_NAMES = [
    ("<@123> mill", "user mention"),
    ("@everyone", "@everyone"),
    ("**the mill**", "asterisk"),
    ("the\u200bmill", "zero-width space"),
    ("the \u202emill", "right-to-left override"),
    ("the Сopse", "looks like “the copse”"),  # a Cyrillic С, beside the crossroads' copse
]


@pytest.mark.parametrize(("name", "why"), UNSAFE_FEATURE_NAMES)
async def test_a_feature_added_by_hand_follows_the_name_rules(app: App, name: str, why: str) -> None:
    await ssg_campaign(app)
    await app.map_new(gina(), "crossroads")
    await refused(app, app.map_feature_add(gina(), "wood", "30,30 34,30 34,34", name), why)


@pytest.mark.parametrize(("name", "why"), UNSAFE_FEATURE_NAMES)
async def test_a_map_file_follows_the_name_rules_in_every_feature(app: App, name: str, why: str) -> None:
    await ssg_campaign(app)
    await app.map_new(gina(), "crossroads")
    before = await settings(app)
    features = [
        {"kind": "wood", "name": "the copse", "area": [[4, 4], [8, 4], [8, 8]]},
        {"kind": "wood", "name": name, "area": [[12, 12], [16, 12], [16, 16]]},
    ]
    with pytest.raises(FileRefused) as refused:
        await app.map_import(gina(), "bad.yaml", map_yaml(features))
    assert "features[1].name:" in refused.value.message and why in refused.value.message
    assert await settings(app) == before


async def test_a_campaign_files_map_draft_follows_the_name_rules(app: App) -> None:
    await ssg_campaign(app)
    draft = yaml.safe_load(map_yaml([{"kind": "wood", "name": "<@&1> wood", "area": [[4, 4], [8, 4], [8, 8]]}]))
    data = yaml.safe_dump(
        {"skirmish_gm": "campaign", "version": 1, "ruleset": "ssg", "settings": {"battlefield": "map", "map": draft}}
    ).encode()
    with pytest.raises(FileRefused) as refused:
        await app.campaign_import(gina(), "c.yaml", data)
    assert "settings.map: features[0].name:" in refused.value.message


async def test_a_map_drawn_in_parts_keeps_one_name_for_each_part(app: App) -> None:
    """A river drawn in pieces names each the same (the shipped ford does): not a look-alike."""
    await ssg_campaign(app)
    part = {"kind": "water", "name": "the river"}
    features = [{**part, "area": [[4, 4], [8, 4], [8, 8]]}, {**part, "area": [[12, 12], [16, 12], [16, 16]]}]
    reply = await app.map_import(gina(), "river.yaml", map_yaml(features))
    assert reply.cards[0].title == "Map imported", reply.cards[0].description
