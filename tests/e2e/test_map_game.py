"""An SSG battle on the bot's map through the loopback Discord, with the real bot process: the game
master picks a shipped map (by autocomplete), starts the battle on it, each side deploys, and the
map's picture arrives as a PNG about 1,200 pixels wide with /map show and /game status."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from bot.app.replies import Caller
from tests.e2e.attachments import picture_of
from tests.e2e.fake_discord import FakeDiscord, InteractionResult
from tests.e2e.seeding import BLUE_NAMES, RED_NAMES, new_table, seeded_app


async def picture(fake: FakeDiscord, result: InteractionResult) -> tuple[int, int]:
    """The size of the map picture the bot attached to ``result``, shown in one of its embeds."""
    data = await picture_of(fake, result)
    assert any(e.get("image", {}).get("url") == "attachment://map.png" for e in result.embeds), result.titles
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.size


async def test_a_battle_on_a_shipped_map_is_deployed_and_drawn(fake: FakeDiscord, bot: Any) -> None:
    table = new_table(fake, 0)
    app = await seeded_app(bot.db_path)
    guild = fake.guild_of(table.channel).id

    def as_caller(user: Any) -> Caller:
        return Caller(user.id, user.display_name, guild, table.channel.id)

    await app.campaign_new(as_caller(table.gm), "Iron Coast", "ssg")  # on the map: SSG's default
    for user, side, names in ((table.red, "red", RED_NAMES), (table.blue, "blue", BLUE_NAMES)):
        asked = await app.campaign_join(as_caller(user), side)
        await app.decide(as_caller(table.gm), "approve", asked.decision.decision_id)
        for name in names:
            await app.roster_add(as_caller(user), name, "rifle")
    await app.store.db.close()

    suggested = await fake.autocomplete(table.gm, "map new", focused="scenario", value="cross")
    assert [c["value"] for c in suggested.choices or []] == ["crossroads"]
    drafted = await fake.slash(table.gm, "map new", scenario="crossroads")
    assert not drafted.ephemeral and drafted.titles == ["New map"]
    width, _ = await picture(fake, drafted)
    assert 1100 <= width <= 1300

    refused = await fake.slash(table.red, "map feature add", kind="wood", points="1,1 3,1 3,3")
    assert refused.ephemeral and refused.embeds[0]["title"] == "Not done"
    assert refused.embeds[0]["description"] == "Only the game master may change the map."

    started = await fake.slash(table.gm, "game start")
    assert not started.ephemeral
    assert "/map place" in started.text and "Crossroads" in started.text
    await picture(fake, started)

    red = await fake.slash(table.red, "map deploy")
    assert not red.ephemeral and "red deploys" in red.text
    twice = await fake.slash(table.red, "map deploy")
    assert twice.ephemeral and twice.embeds[0]["description"] == "All of red's figures are already placed."
    blue = await fake.slash(table.blue, "map deploy")
    assert "Every figure is on the map" in blue.text
    await picture(fake, blue)  # deployment is complete: the table as it stands

    shown = await fake.slash(table.blue, "map show", focus="Big Jim")
    assert not shown.ephemeral
    width, height = await picture(fake, shown)
    assert 1100 <= width <= 1300 and height > 600
    status = await fake.slash(table.red, "game status")
    await picture(fake, status)
