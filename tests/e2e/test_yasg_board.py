"""YASG through the loopback Discord: the board arrives as a picture with the game's cards."""

from __future__ import annotations

from typing import Any

from bot.app.replies import Caller
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.seeding import new_table, seeded_app


def board_uploads(fake: FakeDiscord) -> list[dict[str, Any]]:
    return [
        f
        for r in fake.requests_to("POST", r"/interactions/\d+/[^/]+/callback")
        for f in r.files
        if f.get("filename") == "board.png"
    ]


async def test_the_board_picture_comes_with_start_and_status(fake: FakeDiscord, bot: Any) -> None:
    table = new_table(fake, 0)
    app = await seeded_app(bot.db_path)
    guild = fake.guild_of(table.channel).id

    def as_caller(user) -> Caller:
        return Caller(user.id, user.display_name, guild, table.channel.id)

    await app.campaign_new(as_caller(table.gm), "Hougoumont", "yasg")
    for user, side in ((table.red, "british"), (table.blue, "french")):
        asked = await app.campaign_join(as_caller(user), side)
        await app.decide(as_caller(table.gm), "approve", asked.decision.decision_id)
    await app.store.db.close()
    for user, names in ((table.red, ["Harper", "Cooper"]), (table.blue, ["Lebrun", "Dubois"])):
        for n, name in enumerate(names):
            added = await fake.slash(user, "roster add", name=name, kind="B" if n else "A")
            assert not added.ephemeral, added.text

    started = await fake.slash(table.gm, "game start")
    assert not started.ephemeral
    assert any(e.get("image", {}).get("url") == "attachment://board.png" for e in started.embeds)
    status = await fake.slash(table.red, "game status")
    assert any(e.get("image", {}).get("url") == "attachment://board.png" for e in status.embeds)
    uploads = board_uploads(fake)
    assert len(uploads) == 2 and all(u["size"] > 1000 for u in uploads)
