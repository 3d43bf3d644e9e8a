"""Loose ends of the Simple Skirmish Game found in play (issue 19), through the loopback Discord."""

from __future__ import annotations

from typing import Any

from tests.cogs.test_cogs import invoke
from tests.support import BLUE, GM, RED, SSG_BLUE, SSG_RED, caller, join, ssg_table


def said(interaction: Any) -> str:
    """Everything one answer showed: its content, and each embed's title, text and fields."""
    [sent] = interaction.sent
    parts = [sent.get("content") or ""]
    for embed in sent.get("embeds") or []:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{field.name}: {field.value}" for field in embed.fields]
    return "\n".join(parts)


def refused(interaction: Any) -> str:
    [sent] = interaction.sent
    assert sent["ephemeral"] is True, sent
    return sent["embeds"][0].description


async def test_next_after_the_last_duel_opens_shooting_and_does_not_end_the_turn(bot, app, forced) -> None:
    await ssg_table(app, forced)
    await invoke(bot, "ssg move", RED, "Rita", figure="Rossi", distance=3.0, contact="Big Jim")
    await invoke(bot, "ssg next", RED, "Rita")
    forced.push_dice([6, 1])
    duel = said(await invoke(bot, "ssg melee", RED, "Rita"))
    assert "All melees are resolved: shoot with /ssg shoot, or end the melee phase with /ssg next." in duel
    assert "your move" not in duel

    after = await invoke(bot, "ssg next", RED, "Rita")
    assert "Turn 1 · red · shooting phase." in said(after)
    assert not after.sent[0]["content"], "still red's turn: nobody is pinged"
    forced.push_dice([6])
    shot = said(await invoke(bot, "ssg shoot", RED, "Rita", shooter="Ada", target="Bo", range=5.0, los="clear"))
    assert "Ada fires at Bo: 6, needs 5: hit." in shot
    ended = await invoke(bot, "ssg next", RED, "Rita")
    assert "Turn 1 · blue · movement phase." in said(ended) and f"<@{BLUE}>" in ended.sent[0]["content"]


async def test_a_table_shot_without_los_is_refused_and_asks_for_it(bot, app, forced) -> None:
    await ssg_table(app, forced)
    await invoke(bot, "ssg next", RED, "Rita")
    asked = refused(await invoke(bot, "ssg shoot", RED, "Rita", shooter="Rossi", target="Bo", range=5.0))
    assert asked == "Say what Rossi sees of Bo on your table: los:clear, los:partial, los:blocked (partial costs −1)."
    second = await invoke(
        bot,
        "ssg shoot",
        RED,
        "Rita",
        shooter="Cy",
        target="Bo",
        range=5.0,
        los="clear",
        dice=2,
        target2="Bert",
        range2=6.0,
    )
    assert refused(second).startswith("Say what Cy sees of Bert on your table: los2:clear, los2:partial")
    status = said(await invoke(bot, "game status", RED, "Rita"))
    assert "has shot" not in status


async def seven_a_side(app) -> None:
    """An SSG campaign at a table, red with seven figures able to fight, blue with six."""
    await app.campaign_new(caller(GM, "Gina"), "Test", "ssg", "table")
    await join(app, RED, "Rita", "red")
    await join(app, BLUE, "Bob", "blue")
    for name in [*SSG_RED, "Gus"]:
        await app.roster_add(caller(RED, "Rita"), name, "rifle")
    for name in SSG_BLUE:
        await app.roster_add(caller(BLUE, "Bob"), name, "rifle")


async def test_game_start_with_too_many_figures_says_how_to_choose_them(bot, app) -> None:
    await seven_a_side(app)
    too_many = refused(await invoke(bot, "game start", GM, "Gina"))
    assert too_many == (
        'Each side needs 6 figures: red has 7. Choose who fights: /game start figures:"Rossi, Ada, …" '
        "names 6 a side, separated by commas."
    )


async def test_game_start_lists_each_missing_name_once(bot, app) -> None:
    await seven_a_side(app)
    chosen = "Zed, Rossi, zed, Ada,  ZED , Quin, Rossi"
    missing = refused(await invoke(bot, "game start", GM, "Gina", figures=chosen))
    assert missing == "Not able to fight now (unknown, dead or resting): “Zed”, “Quin”."


async def test_game_start_counts_a_figure_named_twice_once(bot, app, forced) -> None:
    await seven_a_side(app)
    forced.push_dice([5, 2])
    chosen = ", ".join(["Rossi", *SSG_RED, *SSG_BLUE])
    started = await invoke(bot, "game start", GM, "Gina", figures=chosen)
    assert started.sent[0]["ephemeral"] is False and "red goes first" in said(started)
    assert "Gus —" not in said(started)
