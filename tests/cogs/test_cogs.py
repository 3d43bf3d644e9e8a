"""The cogs driven directly, with interactions specced from the real discord.py classes."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.adapter.client import SkirmishBot
from bot.adapter.errors import BUG_SENTENCE
from tests.support import BLUE, CHANNEL, GM, RED, STRANGER, fake_interaction, ssg_table


def command(bot: SkirmishBot, name: str) -> app_commands.Command:
    first, *rest = name.split()
    found = bot.tree.get_command(first)
    for word in rest:
        found = found.get_command(word)
    return found


def walk(tree: app_commands.CommandTree) -> dict[str, app_commands.Command]:
    """Every command a player is offered, by its qualified name (``ssg shoot``, ``roll``): the bot
    owner's /admin left out."""
    found = {}
    for top in tree.get_commands():
        if isinstance(top, app_commands.Group):
            if top.name != "admin":
                found.update({c.qualified_name: c for c in top.walk_commands() if isinstance(c, app_commands.Command)})
        else:
            found[top.qualified_name] = top
    return found


async def suggestions(
    bot: SkirmishBot, name: str, option: str, interaction: discord.Interaction, typed: str
) -> list[app_commands.Choice[str]]:
    """What Discord is offered while ``option`` of ``/name`` is typed: the completion the built
    command really carries (discord.py keeps it on the parameter)."""
    complete = command(bot, name)._params[option].autocomplete
    assert complete is not None, f"/{name} {option}: no completion"
    return await complete(interaction, typed)


async def invoke(
    bot: SkirmishBot, command_name: str, user: int, user_name: str = "", /, **options
) -> discord.Interaction:
    """Run a command as Discord would: the callback, and the tree's error handler on failure."""
    interaction = fake_interaction(bot, user, user_name)
    cmd = command(bot, command_name)
    interaction.command = cmd
    try:
        await cmd.callback(cmd.binding, interaction, **options)
    except Exception as exc:  # discord.py wraps it, then calls the tree's on_error
        try:
            raise app_commands.CommandInvokeError(cmd, exc) from exc
        except app_commands.CommandInvokeError as wrapped:
            await bot.tree.on_error(interaction, wrapped)
    return interaction


async def test_campaign_new_answers_publicly_with_an_embed(bot) -> None:
    interaction = await invoke(bot, "campaign new", GM, "Gina", name="Iron Coast", ruleset="ssg")
    [sent] = interaction.sent
    assert sent["ephemeral"] is False
    assert "Iron Coast" in sent["embeds"][0].description
    assert sent["allowed_mentions"].everyone is False


async def test_a_refusal_is_a_short_ephemeral_error(bot) -> None:
    await invoke(bot, "campaign new", GM, name="C", ruleset="ssg")
    interaction = await invoke(bot, "game start", STRANGER)
    [sent] = interaction.sent
    assert sent["ephemeral"] is True
    assert sent["embeds"][0].description == "Only the game master may start a game."


async def test_a_bug_is_logged_with_its_traceback_and_the_player_gets_a_sentence(bot, caplog, monkeypatch) -> None:
    async def broken(*args, **kwargs):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(bot.app.campaigns, "campaign_info", broken)
    with caplog.at_level(logging.ERROR, logger="skirmish_gm.errors"):
        interaction = await invoke(bot, "campaign info", GM)
    [sent] = interaction.sent
    assert sent["ephemeral"] is True and sent["embeds"][0].description == BUG_SENTENCE
    assert "ZeroDivisionError" in caplog.text and "Traceback" in caplog.text


async def test_dice_card_is_public_and_the_next_player_is_pinged_alone(bot, app, forced) -> None:
    await ssg_table(app, forced)
    await invoke(bot, "ssg next", RED, "Rita")  # movement → melee skipped → shooting
    interaction = await invoke(bot, "ssg next", RED, "Rita")  # → blue's movement
    [sent] = interaction.sent
    assert sent["ephemeral"] is False
    assert f"<@{BLUE}>" in sent["content"]
    mentions = sent["allowed_mentions"]
    assert mentions.everyone is False and mentions.roles is False
    assert [u.id for u in mentions.users] == [BLUE]


async def test_shot_posts_dice_in_a_public_embed(bot, app, forced) -> None:
    await ssg_table(app, forced)
    await invoke(bot, "ssg next", RED)
    forced.push_dice([6])
    interaction = await invoke(bot, "ssg shoot", RED, shooter="Rossi", target="Bo", range=10.0, los="clear")
    embeds = interaction.sent[0]["embeds"]
    assert any(f.name == "Dice" and "→ **6**" in f.value for f in embeds[0].fields)
    assert any("Casualty" in e.title for e in embeds)


async def test_a_figure_called_everyone_pings_nobody(bot, app) -> None:
    await invoke(bot, "campaign new", GM, name="C", ruleset="ssg")
    await invoke(bot, "campaign join", RED, side="red")
    await invoke(bot, "decide", GM, choice="approve")
    interaction = await invoke(bot, "roster add", RED, name="@everyone", kind="rifle")
    [sent] = interaction.sent
    assert "@everyone" in sent["embeds"][0].description
    assert sent["allowed_mentions"].everyone is False and sent["allowed_mentions"].users is False


async def test_autocomplete_offers_at_most_25_names(bot, app) -> None:
    await invoke(bot, "campaign new", GM, name="C", ruleset="ssg")
    await invoke(bot, "campaign join", GM, side="red")
    for n in range(40):
        await invoke(bot, "roster add", GM, name=f"Soldier {n}", kind="rifle")
    interaction = fake_interaction(bot, GM)
    choices = await suggestions(bot, "map show", "focus", interaction, "sol")
    assert len(choices) == 25 and all(isinstance(c, app_commands.Choice) for c in choices)
    elsewhere = fake_interaction(bot, GM, channel=CHANNEL + 1)
    assert await suggestions(bot, "map show", "focus", elsewhere, "") == []


async def test_bad_dice_notation_is_refused_politely(bot) -> None:
    interaction = await invoke(bot, "roll", RED, dice="10000d6")
    [sent] = interaction.sent
    assert sent["ephemeral"] is True and "too many dice" in sent["embeds"][0].description


async def test_followup_used_when_the_response_was_already_sent(bot, forced) -> None:
    forced.push_dice([4])
    interaction = fake_interaction(bot, GM)
    interaction.response.is_done.return_value = True
    cmd = command(bot, "roll")
    await cmd.callback(cmd.binding, interaction, dice="1d6")
    interaction.followup.send.assert_awaited_once()
