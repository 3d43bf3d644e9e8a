"""Free rolls between battles come from the campaign's own provable stream: one stream until the next
battle starts, which reveals it; a repeated delivery rolls once; a campaign export carries it for
``skirmish-gm verify``."""

from __future__ import annotations

import yaml

from bot.dice import ForcedDice, SecureDice
from bot.provable import commitment
from bot.store import Store
from bot.store.database import Database
from bot.verify import check
from tests.named_app import NamedApp
from tests.support import BLUE, GM, RED, caller, ssg_campaign


async def test_free_rolls_between_battles_are_revealed_when_the_next_battle_starts(database: Database) -> None:
    forced = ForcedDice(fallback=SecureDice())
    app = NamedApp(Store(database), lambda: forced)
    await ssg_campaign(app, "table", "Test")

    first = await app.roll(caller(RED, "Rita", interaction_id=777), "3d6", "weather")
    again = await app.roll(caller(RED, "Rita", interaction_id=777), "3d6", "weather")
    second = await app.roll(caller(BLUE, "Bob"), "1d20+2", "ambush")

    footer = first.cards[0].footer or ""
    assert "Free rolls between battles: commitment `" in footer
    promised = footer.split("commitment `")[1].split("`")[0]
    assert promised in (second.cards[0].footer or "")  # one stream for both rolls
    assert again.replayed and "Already rolled" in again.cards[0].title
    async with app.store.transaction() as u:
        campaign = await u.campaigns.here(caller(GM).guild_id, caller(GM).channel_id)
        assert campaign is not None
        stream = await u.streams.open_stream(campaign.id)
        assert stream is not None and stream.next_draw == 4  # 3d6 once (not twice) and a d20
        assert "secret" not in repr(stream) and stream.secret not in repr(stream)

    started = await app.game_start(caller(GM, "Gina"))
    fields = {name: value for name, value, _ in started.cards[0].fields}
    revealed = fields["Free rolls revealed"]
    secret = revealed.split("secret `")[1].split("`")[0]
    assert commitment(bytes.fromhex(secret)) == promised
    assert "Provable dice" in fields

    exported = await app.campaign_export(caller(GM, "Gina"))
    data = yaml.safe_load(exported.files[0][1])
    (document,) = [d for d in data["dice"] if d.get("free_rolls")]
    assert check(document).ok and check(document).said == "all 4 dice and cards match."
    document["draws"][1]["value"] = document["draws"][1]["value"] % 6 + 1
    assert not check(document).ok and "draw 1 does not match" in check(document).said

    after = await app.roll(caller(RED, "Rita"), "2d6", "in the battle")  # the battle's own stream now
    assert "Free rolls between battles" not in (after.cards[0].footer or "")
