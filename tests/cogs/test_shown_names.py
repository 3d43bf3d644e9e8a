"""What players wrote is shown escaped in every card: Discord display names (which the bot does not
choose), names kept from before the name rules, and what a refused command echoes back."""

from __future__ import annotations

from tests.cogs.test_cogs import invoke
from tests.support import CHANNEL, GM, GUILD, RED, ssg_table

#: A display name Discord allows and markdown would read as bold, italics and strike-through.
MARKED = "**Bo_b** ~~x~~"
MARKED_SHOWN = r"\*\*Bo\_b\*\* \~\~x\~\~"


def embed(interaction) -> tuple[str, str, list[tuple[str, str]]]:  # type: ignore[no-untyped-def]
    [sent] = interaction.sent
    [card] = sent["embeds"]
    return card.title or "", card.description or "", [(f.name, f.value) for f in card.fields]


async def test_display_names_are_escaped_where_the_campaign_names_its_people(bot, app) -> None:
    _, started, _ = embed(await invoke(bot, "campaign new", GM, MARKED, name="Iron Coast", ruleset="ssg"))
    assert f"{MARKED_SHOWN} is the game master" in started
    _, asked, _ = embed(await invoke(bot, "campaign join", RED, MARKED, side="red"))
    assert asked.startswith(f"{MARKED_SHOWN} asks to play **red**")
    _, approved, _ = embed(await invoke(bot, "decide", GM, MARKED, choice="approve"))
    assert approved == f"{MARKED_SHOWN} now plays **red**."
    _, _, fields = embed(await invoke(bot, "campaign info", RED, MARKED))
    assert ("Players", f"{MARKED_SHOWN} (red)") in fields
    assert ("Game master", MARKED_SHOWN) in fields


async def test_a_name_kept_from_before_the_name_rules_is_escaped(bot, app, forced) -> None:
    await ssg_table(app, forced)
    async with app.store.transaction() as u:
        campaign = await u.campaigns.here(GUILD, CHANNEL)
        assert campaign is not None
        await u.campaigns.rename(campaign.id, "The *Iron* Coast")
    title, _, _ = embed(await invoke(bot, "campaign info", RED))
    assert title == r"Campaign: The \*Iron\* Coast"
    _, ended, _ = embed(await invoke(bot, "campaign end", GM))
    assert ended.startswith(r"The \*Iron\* Coast is over.")


async def test_a_refusal_shows_what_the_player_typed_as_typed(bot, app, forced) -> None:
    await ssg_table(app, forced)
    _, refused, _ = embed(await invoke(bot, "odds", RED, action="ssg **fly** figure:Rossi"))
    assert r"/ssg \*\*fly\*\*" in refused and "**fly**" not in refused
