"""Battle reports, the log's pages and the game master's secret roll through the loopback Discord,
with the real bot process: the secret roll answers privately and stays out of the players' log
until the battle ends; Older/Newer turn the log's pages in place; the report arrives as a
``battle-<number>.md`` attachment, whose bytes (the fake keeps them: ``RecordedRequest.contents``,
read with :func:`tests.e2e.attachments.sent_files`) are the same report built from the database.

Another campaign's battle comes first in the database: this campaign's is still its battle 1,
while the page buttons carry the game's internal id (2), which players never see."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.app.replies import Caller
from bot.store.schema import Game
from tests.e2e.attachments import sent_files
from tests.e2e.fake_discord import FakeDiscord, FakeUser, InteractionResult
from tests.e2e.seeding import new_table, seed_ssg, seeded_app
from tests.orm import orm


def attachments(fake: FakeDiscord, result: InteractionResult) -> list[dict[str, Any]]:
    """The files the bot uploaded with its answer to ``result`` (first response and follow-ups)."""
    inter = result.interaction
    return [
        f
        for r in fake.requests
        if r.method == "POST"
        and r.status in (200, 204)
        and (
            r.path.startswith(f"/interactions/{inter.id}/")
            or r.path.startswith(f"/webhooks/{fake.application_id}/{inter.token}")
        )
        for f in r.files
    ]


async def test_secret_roll_log_pages_and_the_report_attachment(fake: FakeDiscord, bot: Any) -> None:
    table = new_table(fake, 0)
    app = await seeded_app(bot.db_path)
    guild = fake.guild_of(table.channel).id

    def as_caller(user: FakeUser) -> Caller:
        return Caller(user.id, user.display_name, guild, table.channel.id)

    try:
        await seed_ssg(app, fake, new_table(fake, 1))  # another campaign's battle 1 is game 1
        await seed_ssg(app, fake, table)
        async with orm(app.store.db) as s:
            game, battle = (await s.execute(select(Game.id, Game.number).order_by(Game.id.desc()).limit(1))).one()
        assert (game, battle) == (2, 1)

        # the game master rolls in secret: only they see it; a player may not
        secret = await fake.slash(table.gm, "roll", dice="2d6", reason="does the bridge hold", secret=True)
        assert secret.ephemeral and "🔒 Secret roll: 2d6" in secret.text and "Total" in secret.text
        refused = await fake.slash(table.red, "roll", dice="1d6", secret=True)
        assert refused.ephemeral and "Only the game master may roll in secret." in refused.text
        for n in range(5):
            assert not (await fake.slash(table.red, "roll", dice="1d6", reason=f"volley {n}")).ephemeral

        # the log, three actions a page, newest first: buttons turn the page in place
        first = await fake.slash(table.blue, "game log", count=3)
        assert first.ephemeral and "Page 1 of 3 · actions 7–5" in first.text
        assert first.message.custom_ids == [f"log:{game}:0:3", f"log:{game}:2:3"]
        older = await fake.click(table.blue, first, f"log:{game}:2:3")
        assert older.type == 7 and older.message is first.message  # the same message, edited
        page_two = first.message.text
        assert "Page 2 of 3 · actions 4–2" in page_two
        assert "🔒 The game master rolled in secret" in page_two and "bridge" not in page_two
        back = await fake.click(table.blue, first, f"log:{game}:1:3")
        assert back.type == 7 and "Page 1 of 3" in first.message.text
        gm_log = await fake.slash(table.gm, "game log", count=3, page=2)
        assert "does the bridge hold" in gm_log.text
        past_end = await fake.slash(table.blue, "game log", page=5)
        assert (
            past_end.ephemeral
            and f"Battle {battle}'s log has 1 page of 10 actions: there is no page 5." in past_end.text
        )

        # a report while the battle goes on: private, attached, the secret kept back
        going = await fake.slash(table.blue, "game report")
        assert going.ephemeral and f"Report of battle {battle}" in going.text
        [(name, data)] = sent_files(fake, going).items()
        assert name == f"battle-{battle}.md"
        assert "🔒 The game master rolled in secret" in data.decode() and "bridge" not in data.decode()

        # the battle ends: the report is posted for everyone, secret roll revealed
        await fake.slash(table.gm, "game end")
        over = await fake.slash(table.blue, "game report")
        assert not over.ephemeral and "Ended by the game master without a winner." in over.text
        [file] = attachments(fake, over)
        expected = await app.game_report(as_caller(table.blue))
        [(name, data)] = expected.files
        assert file["filename"] == name == f"battle-{battle}.md" and file["size"] == len(data)
        assert sent_files(fake, over) == {name: data}
        text = data.decode()
        assert "does the bridge hold" in text and "🔒 *secret roll*" in text and "volley 4" in text
        after_log = await fake.slash(table.red, "game log", count=3, page=3)
        assert "does the bridge hold" in after_log.text
    finally:
        await app.store.db.close()
