"""Names that cannot hurt (issue 19), through the loopback Discord: a refused name is a private
sentence naming the character, an old name shows escaped in the embed, and a message pings only
the players it names."""

from __future__ import annotations

from bot.adapter.messages import allowed_mentions
from bot.app.replies import Reply
from tests.app.test_names import ESCAPED, OLD, old_name_in_the_database, ssg_campaign
from tests.cogs.test_cogs import invoke
from tests.cogs.test_ssg_loose_ends import refused
from tests.support import BLUE, GM, RED


async def test_a_zero_width_space_in_a_name_is_refused_privately_with_its_name(bot, app) -> None:
    await ssg_campaign(app)
    interaction = await invoke(bot, "roster add", RED, "Rita", name="Ro\u200bssi", kind="rifle")
    assert refused(interaction) == (
        "A figure name may not hold the zero-width space (U+200B): it cannot be seen, "
        "so two names could look the same. Type the name again without it."
    )
    interaction = await invoke(bot, "roster add", BLUE, "Bob", name="Rоssi", kind="rifle")
    assert refused(interaction).startswith("“Rоssi” looks like “Rossi”")
    interaction = await invoke(bot, "campaign new", GM, "Gina", name="<@&1> raid", ruleset="ssg")
    assert "role mention" in refused(interaction)


async def test_an_old_name_with_markdown_shows_escaped_in_the_embed(bot, app, forced) -> None:
    await old_name_in_the_database(app, forced)
    interaction = await invoke(bot, "roster show", RED, "Rita", name=OLD)
    [sent] = interaction.sent
    assert sent["embeds"][0].title == ESCAPED
    assert sent["allowed_mentions"].everyone is False and sent["allowed_mentions"].users is False
    interaction = await invoke(bot, "game status", RED, "Rita")
    [sent] = interaction.sent
    assert any(ESCAPED in field.value for embed in sent["embeds"] for field in embed.fields)


def test_a_ping_reaches_only_the_players_the_reply_names() -> None:
    mentions = allowed_mentions(Reply(content="<@2> @everyone <@&5> your move", ping_user_ids=[RED]))
    assert mentions.everyone is False and mentions.roles is False and mentions.replied_user is False
    assert [user.id for user in mentions.users] == [RED]  # type: ignore[union-attr]
    nobody = allowed_mentions(Reply(content="@everyone"))
    assert nobody.everyone is False and nobody.users is False and nobody.roles is False


async def test_a_join_request_pings_the_game_master_alone(bot, app) -> None:
    await ssg_campaign(app)
    interaction = await invoke(bot, "campaign join", 7, "Ann", side="red")
    [sent] = interaction.sent
    assert [user.id for user in sent["allowed_mentions"].users] == [GM]
    assert sent["allowed_mentions"].everyone is False and sent["allowed_mentions"].roles is False
