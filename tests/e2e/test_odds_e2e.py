"""/odds of an SSG melee through the loopback Discord, with the real bot process: a duel rolls again
on a tie, and its odds once never came (the worker spun on fixed dice that always tied, and every
later /odds of every channel queued behind it). It is answered, and so is the next channel's."""

from __future__ import annotations

from typing import Any

from bot.app.replies import Caller
from rules.core import RuleError
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.seeding import new_table, seed_ssg, seeded_app


async def test_the_odds_of_an_ssg_melee_are_answered_and_the_next_channels_too(fake: FakeDiscord, bot: Any) -> None:
    first, second = new_table(fake, 0), new_table(fake, 1)
    app = await seeded_app(bot.db_path)
    for table in (first, second):
        await seed_ssg(app, fake, table)
    guild = fake.guild_of(first.channel).id
    for user, mine, theirs in (
        (first.red, "Rossi", "Bo"),
        (first.blue, "Big Jim", "Ada"),
    ):  # the side whose turn it is moves into contact
        try:
            as_player = Caller(user.id, user.display_name, guild, first.channel.id)
            params = {"figure": mine, "distance": 2.0, "contact": theirs}
            await app.act(as_player, "ssg", "move", params, "/ssg move")
        except RuleError:  # not this side's turn
            continue
        await app.act(as_player, "ssg", "next", {}, "/ssg next")
        break
    await app.store.db.close()

    asked = await fake.slash(user, "odds", action=f'ssg melee fighter:"{mine}" opponent:"{theirs}"')
    assert asked.ephemeral, asked.text
    [card] = [e for e in asked.embeds if e.get("title") == "Odds before you roll"]
    assert card["description"].splitlines()[1:] == sorted([f"50.0% — {theirs} out", f"50.0% — {mine} out"])
    assert card["footer"]["text"].startswith("exact")

    elsewhere = await fake.slash(
        second.red, "odds", at=second.channel, action="ssg shoot shooter:Rossi target:Bo range:20 los:clear"
    )
    answer = elsewhere.embeds[0]["description"]  # the rules' answer, from the worker: not this phase, or turn
    assert elsewhere.ephemeral and ("only in the shooting phase" in answer or "turn" in answer), answer
