"""/help on Discord and at the terminal, from one source (the bot's command tree): the contents,
a ruleset's turn in order, one command's options with an example; paged with buttons, private."""

from __future__ import annotations

import pytest

from bot.adapter.client import SkirmishBot
from bot.adapter.help import BACK, CONTENTS, NEXT, HelpButton, help_reply
from bot.app.commands import help as pages
from bot.app.commands.table import command_table, groups
from rules import RULESETS
from rules.core import RuleError
from tests.cogs.test_cogs import command, walk
from tests.support import RED, fake_interaction


def help_text(topic: str | None = None) -> str:
    """The whole help on ``topic`` as the terminal prints it."""
    return pages.help_text(command_table(), groups(), topic)


async def test_the_contents_name_every_ruleset_and_shared_command(bot: SkirmishBot) -> None:
    reply = help_reply()
    text = reply.cards[0].description
    assert reply.ephemeral and reply.topic == ""
    for slug, (_, title) in RULESETS.items():
        assert f"`/{slug}` — {title}" in text
    for shared in ("campaign", "roster", "game", "roll", "odds", "decide", "help"):
        assert f"`/{shared}`" in text
    assert "/campaign new" in text and "/game start" in text  # how to begin
    assert "admin" not in text


async def test_a_ruleset_lists_its_commands_in_the_order_of_a_turn(bot: SkirmishBot) -> None:
    text = help_reply("ssg").cards[0].description
    order = [text.index(f"`/ssg {name}`") for name in ("move", "melee", "shoot", "next")]
    assert order == sorted(order)


async def test_one_command_shows_each_option_and_an_example(bot: SkirmishBot) -> None:
    text = help_reply("/ssg shoot").cards[0].description
    assert "• `los` (string, optional)" in text and "one of clear, partial, blocked" in text
    assert "Example: `/ssg shoot shooter:Rossi target:Bo`" in text
    for name, cmd in walk(bot.tree).items():  # every command has an example that parses as typed
        assert help_text(name).count("Example: /" + name) == 1, name
        assert cmd.description


async def test_an_unknown_topic_is_one_sentence(bot: SkirmishBot) -> None:
    with pytest.raises(RuleError, match="There is no help on 'chess'"):
        help_reply("chess")


async def test_the_terminal_and_discord_read_the_same_help(bot: SkirmishBot) -> None:
    for topic in ("", "nsr", "sharpe attack", "campaign"):
        discord_text = help_reply(topic).cards[0].description.replace("**", "").replace("`", "")
        assert discord_text in help_text(topic)
    assert "topic:ssg" not in pages.topics(command_table()) and "ssg shoot" in pages.topics(command_table())


async def test_help_is_private_and_pages_turn_with_buttons(bot: SkirmishBot, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.app.commands.help.PAGE_CHARS", 300)  # today's topics fit a page of 1,800
    long = "sharpe"
    assert help_reply(long).pages > 2
    interaction = fake_interaction(bot, RED)
    cmd = command(bot, "help")
    interaction.command = cmd
    await cmd.callback(cmd.binding, interaction, topic=long)
    [sent] = interaction.sent
    assert sent["ephemeral"] is True
    labels = [(c.item.label, c.custom_id, c.item.disabled) for c in sent["view"].children]
    assert labels == [(BACK, f"help:0:{long}", True), (NEXT, f"help:2:{long}", False), (CONTENTS, "help:1:", False)]

    match = HelpButton.__discord_ui_compiled_template__.fullmatch(f"help:2:{long}")
    assert match is not None
    click = fake_interaction(bot, RED)
    item = await HelpButton.from_custom_id(click, HelpButton("", 1, NEXT).item, match)
    await item.callback(click)
    kwargs = click.response.edit_message.await_args.kwargs
    assert kwargs["embeds"][0].footer.text.startswith("Page 2 of ")
    assert kwargs["view"].children[0].custom_id == f"help:1:{long}"


async def test_a_rulesets_fixed_paragraphs_are_in_its_help(bot: SkirmishBot) -> None:
    """Said once, in /campaign info and help, not in every status (Sharpe's target priority)."""
    text = help_reply("sharpe").cards[0].description
    assert "**Target priority**" in text and "nearest enemy" in text
    assert "**Ground scale**" in help_reply("medieval").cards[0].description


async def test_yasg_help_speaks_in_squares_and_says_what_shaken_means(bot: SkirmishBot) -> None:
    assert "Example: `/yasg move figure:Rossi to:E4`" in help_reply("/yasg move").cards[0].description
    assert "Example: `/yasg place figure:Rossi square:E2`" in help_reply("/yasg place").cards[0].description
    about = help_text("yasg")
    assert "Shaken" in about and "ran last turn" in about
    assert "grid board" in about and "/game status" in about
