"""/odds: the chances of an action, asked with the action's own command line, seen only by the asker."""

from __future__ import annotations

import pytest

from tests.cogs.test_cogs import invoke
from tests.support import BLUE, RED, STRANGER, ssg_table


async def test_odds_of_a_shot_are_exact_and_private(bot, app, forced) -> None:
    await ssg_table(app, forced)
    await invoke(bot, "ssg next", RED)  # into red's shooting phase
    interaction = await invoke(bot, "odds", RED, "Rita", action="ssg shoot shooter:Rossi target:Bo range:20 los:clear")
    [sent] = interaction.sent
    assert sent["ephemeral"] is True
    embed = sent["embeds"][0]
    assert "16.7% — Bo out" in embed.description and "\n83.3% — no effect\n" in embed.description
    assert "exact" in embed.footer.text
    state_unchanged = await invoke(bot, "game log", RED)
    assert "/ssg shoot" not in state_unchanged.sent[0]["embeds"][0].description  # asking the odds rolled nothing


@pytest.mark.parametrize(
    "line,message",
    [
        ("roll dice:1d6", "a ruleset's action"),
        ("ssg shoot shooter:Rossi target:Bo range:99 los:clear", "out of range"),
        ("ssg fly figure:Rossi", "no command /ssg fly"),
        ("ssg shoot shooter:Rossi", "Give target: (The enemy it fires at)."),
        (" ", "Give action: (The action as you would give it"),
        ("ssg", "Name the action: give it as you would play it"),
        ("ssg shooter:Rossi", "Name the action: give it as you would play it"),
    ],
)
async def test_odds_refuses_what_is_not_a_legal_action_now(bot, app, forced, line: str, message: str) -> None:
    await ssg_table(app, forced)
    await invoke(bot, "ssg next", RED)
    interaction = await invoke(bot, "odds", RED, action=line)
    [sent] = interaction.sent
    assert sent["ephemeral"] is True and message in sent["embeds"][0].description


async def test_only_players_of_the_campaign_ask(bot, app, forced) -> None:
    await ssg_table(app, forced)
    interaction = await invoke(bot, "odds", STRANGER, action="ssg next")
    assert "not in this campaign" in interaction.sent[0]["embeds"][0].description
    blue = await invoke(bot, "odds", BLUE, action="ssg move figure:Bo distance:1")
    assert "red's turn" in blue.sent[0]["embeds"][0].description


async def test_an_over_long_action_line_is_refused_with_a_sentence(bot, app, forced) -> None:
    await ssg_table(app, forced)
    await invoke(bot, "ssg next", RED)
    line = "ssg shoot shooter:Rossi target:Bo range:20 los:clear " + "x" * 600
    interaction = await invoke(bot, "odds", RED, action=line)
    [sent] = interaction.sent
    text = sent["embeds"][0].description
    assert sent["ephemeral"] is True
    assert text.startswith(f"That action is {len(line):,} characters long; /odds reads at most 500;")
    assert text.endswith('like "ssg shoot shooter:Rossi target:Bo range:14".')


async def test_a_second_odds_while_the_first_is_worked_out_gets_a_private_sentence(
    bot, app, forced, monkeypatch
) -> None:
    """The first question is held on its way to the worker (an exact answer takes milliseconds, so
    a race would decide the test), the second is refused, then the first is answered by the worker."""
    import asyncio

    from bot.app.odds import BUSY

    await ssg_table(app, forced)
    await invoke(bot, "ssg next", RED)
    line = "ssg shoot shooter:Rossi target:Bo range:20 los:clear"
    release = asyncio.Event()
    real_run = app.odds_part.pool.run

    async def held_run(*args, **kwargs):
        await release.wait()
        return await real_run(*args, **kwargs)

    monkeypatch.setattr(app.odds_part.pool, "run", held_run)
    first = asyncio.create_task(invoke(bot, "odds", RED, action=line))
    async with asyncio.timeout(30):  # never spin for ever: the first question must start, or end in error
        while RED not in app.odds_part._asking:
            assert not first.done(), first.result().sent
            await asyncio.sleep(0.005)
    second = await invoke(bot, "odds", RED, action=line)
    assert second.sent[0]["ephemeral"] is True and second.sent[0]["embeds"][0].description == BUSY
    release.set()
    assert "Bo out" in (await first).sent[0]["embeds"][0].description
