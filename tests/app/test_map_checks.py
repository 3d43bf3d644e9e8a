"""Where a map is read and checked (``bot/app/map_checks.py``): a large one in the maps' worker,
outside any transaction, its size held to the limit before anything reads it, and a draft changed
by someone else meanwhile never overwritten."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select

from bench.heavy_map import heavy_map
from bot.app import map_checks, map_work
from bot.app.battlefield import MAP_DRAFT
from bot.app.replies import Refusal
from bot.app.service import App
from bot.app.yaml_format import MAX_FILE_BYTES
from bot.dice import ForcedDice
from bot.store.schema import Campaign
from tests.app.test_maps import gina, map_yaml, settings
from tests.orm import orm
from tests.support import ssg_campaign


class Spy:
    """The maps' pool, recording the work sent to it."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.run = map_checks.POOL.run

    async def __call__(self, fn: Callable[..., Any], *args: Any, **options: Any) -> Any:
        self.sent.append(fn.__name__)
        return await self.run(fn, *args, **options)


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    watching = Spy()
    monkeypatch.setattr(map_checks.POOL, "run", watching)
    return watching


async def test_a_large_map_is_read_and_checked_in_the_worker(app: App, forced: ForcedDice, spy: Spy) -> None:
    await ssg_campaign(app)
    reply = await app.map_import(gina(), "heavy.yaml", heavy_map(("red", "blue")))
    assert reply.cards[0].title == "Map imported"
    assert len((await settings(app))[MAP_DRAFT]["features"]) == 500
    await app.map_show(gina())
    forced.push_dice([5, 2])
    started = await app.game_start(gina())
    assert "the campaign's map, **The heaviest map**" in started.cards[-1].description
    assert spy.sent == ["imported", "draft_checked", "draft_checked"]


async def test_a_small_map_is_read_where_it_is_asked_for(app: App, spy: Spy) -> None:
    await ssg_campaign(app)
    await app.map_new(gina(), "crossroads")
    await app.map_import(gina(), "hand.yaml", map_yaml([{"kind": "wood", "area": [[4, 4], [8, 4], [8, 8]]}]))
    await app.map_feature_add(gina(), "rubble", "1,10 3,10 3,12", "the old cart")
    await app.map_show(gina())
    assert spy.sent == []


async def test_a_file_over_the_limit_is_refused_before_anything_reads_it(
    app: App, spy: Spy, monkeypatch: pytest.MonkeyPatch
) -> None:
    await ssg_campaign(app)

    def never(*args: Any) -> Any:
        raise AssertionError("the file was read")

    monkeypatch.setattr(map_work, "imported", never)
    with pytest.raises(Refusal, match="KiB"):
        await app.map_import(gina(), "huge.yaml", b"#" * (MAX_FILE_BYTES + 1))
    assert spy.sent == []


async def test_a_draft_changed_meanwhile_is_not_overwritten(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process (a shard) changes the draft while this one checks an import: the import is
    refused, and the other change stays."""
    await ssg_campaign(app)
    await app.map_new(gina(), "crossroads")
    checking = map_checks.imported

    async def meanwhile(*args: Any, **options: Any) -> Any:
        async with orm(app.store.db) as s:
            campaign = await s.scalar(select(Campaign).order_by(Campaign.id.desc()))
            assert campaign is not None
            campaign.settings = {**campaign.settings, MAP_DRAFT: {**campaign.settings[MAP_DRAFT], "name": "Theirs"}}
        return await checking(*args, **options)

    monkeypatch.setattr(map_checks, "imported", meanwhile)
    with pytest.raises(Refusal, match="changed meanwhile"):
        await app.map_import(gina(), "hand.yaml", map_yaml([]))
    assert (await settings(app))[MAP_DRAFT]["name"] == "Theirs"
