"""Rosters, campaigns and house rules as YAML files over (fake) Discord, with the real bot process.

Users attach files to slash commands (served from a loopback stand-in for Discord's file servers,
see ``attachments.py``); the files the bot attaches to its answers are kept and read back. A
500-figure roster is imported within Discord's 3-second window.
"""

from __future__ import annotations

import time
from typing import Any

import yaml

from tests.e2e.attachments import AttachmentHost, Upload, keep_sent_files, sent_file_names, sent_files, slash_with_files
from tests.e2e.fake_discord import FakeDiscord, InteractionResult

RED_ROSTER = b"""\
# Rita's retinue
sides:
  red:
    - name: Sir Rossi
      kind: Knight
    - name: Ada
      kind: custom
      stats: {speed: 6, bravery: 5, shoot: 3, fight: 4, weapons: [Sword, Dagger], armour: Leather}
"""

BAD_ROSTER = b"""\
sides:
  red:
    - name: Cy
      kind: Knigth
    - name: Dee
      kind: custom
      stats: {speed: 6, bravery: 5, shoot: 30, fight: 4}
  blue:
    - name: Ulf
"""


def card(result: InteractionResult) -> dict[str, Any]:
    assert result.type == 4, result
    return result.embeds[0]


async def test_a_roster_and_a_campaign_travel_as_yaml_files(fake: FakeDiscord, bot: Any) -> None:
    keep_sent_files(fake)
    gina, rita = fake.add_user("Gina"), fake.add_user("Rita")
    async with AttachmentHost() as cdn:
        await fake.slash(gina, "campaign new", name="Northumbria", ruleset="medieval")
        asked = await fake.slash(rita, "campaign join", side="red")
        assert asked.type == 4
        approved = await fake.slash(gina, "decide", choice="approve")
        assert not approved.ephemeral

        # Rita attaches her roster: every figure checked by the rules, and the table sees the result.
        imported = await slash_with_files(fake, cdn, rita, "roster import", file=Upload("retinue.yaml", RED_ROSTER))
        assert not imported.ephemeral and card(imported)["title"] == "Roster imported"
        assert card(imported)["description"] == "Rita imported retinue.yaml: 2 added (Sir Rossi, Ada)."
        assert len(cdn.downloads) == 1

        # A file with mistakes: every problem at once, with its line, only to her; nothing changes.
        refused = await slash_with_files(fake, cdn, rita, "roster import", file=Upload("bad.yaml", BAD_ROSTER))
        assert refused.ephemeral and card(refused)["title"] == "Not done"
        assert card(refused)["description"].splitlines() == [
            "3 problems in bad.yaml; nothing was imported:",
            "• line 4: “Knigth” is not a kind of figure here: use Knight, Man at Arms, Viking Warrior, Viking Hero or custom.",
            "• line 7: “Dee”'s shoot must be from 0 to 12, not 30.",
            "• line 8: you play red: only the game master may import figures for blue",
        ]

        # Her export comes back as a file, and importing it again changes nothing.
        exported = await fake.slash(rita, "roster export")
        assert exported.ephemeral and sent_file_names(fake, exported) == ["roster-northumbria-red.yaml"]
        [(name, data)] = sent_files(fake, exported).items()
        assert [f["name"] for f in yaml.safe_load(data)["sides"]["red"]] == ["Sir Rossi", "Ada"]
        again = await slash_with_files(fake, cdn, rita, "roster import", file=Upload(name, data))
        assert again.ephemeral and card(again)["title"] == "Nothing to change"

        # The game master's house rules: checked, announced, and shown with the ruleset's switches.
        rules = await slash_with_files(
            fake, cdn, gina, "campaign rules set", file=Upload("house.yaml", b"self_healing: true\nbravery_pass: 8\n")
        )
        assert not rules.ephemeral and "bravery_pass: 9 → 8" in card(rules)["description"]
        shown = await fake.slash(rita, "campaign rules show", tables=True)
        assert shown.ephemeral and sent_file_names(fake, shown) == [
            "house-rules-northumbria.yaml",
            "tables-medieval.yaml",
        ]
        assert "(house rule; the rules say no)" in shown.text

        # The whole campaign moves to a new channel.
        whole = await fake.slash(gina, "campaign export")
        [(campaign_name, campaign_data)] = sent_files(fake, whole).items()
        annex = fake.add_channel("annex")
        moved = await slash_with_files(
            fake, cdn, gina, "campaign import", at=annex, file=Upload(campaign_name, campaign_data)
        )
        assert not moved.ephemeral and card(moved)["title"] == "Campaign imported"
        listed = await fake.slash(rita, "roster list", at=annex)
        assert "Sir Rossi — Knight" in listed.text and "Ada — custom" in listed.text
        rules_there = await fake.slash(gina, "campaign rules show", at=annex)
        assert "bravery_pass: 9 → 8" in rules_there.text

        # Too big a file is refused before it is downloaded; a file Discord cannot hand over, plainly.
        downloads = len(cdn.downloads)
        big = await slash_with_files(fake, cdn, rita, "roster import", file=Upload("big.yaml", b"#" * 300_000))
        assert big.ephemeral and "“big.yaml” is 292 KiB; the most a file may be is 256 KiB." in big.text
        assert len(cdn.downloads) == downloads
        cdn.broken = True
        lost = await slash_with_files(fake, cdn, rita, "roster import", file=Upload("lost.yaml", RED_ROSTER))
        assert lost.ephemeral and "Discord did not hand over “lost.yaml”; attach it again." in lost.text


async def test_five_hundred_figures_import_and_a_501st_is_refused(fake: FakeDiscord, bot: Any) -> None:
    """How long the import takes is printed (run with ``-s``), not asserted: the fake's deadline
    is generous in tests (tests/e2e/conftest.py), the benchmark measures the bot's speed."""
    gina = fake.add_user("Gina")
    lines = ["sides:", "  red:"]
    for i in range(250):
        lines += [
            f"    - name: Man {i}",
            "      kind: custom",
            "      stats: {speed: 6, bravery: 4, shoot: 3, fight: 3, weapons: Sword+Dagger, armour: Leather}",
        ]
    lines.append("  blue:")
    lines += [f"    - {{name: Viking {i}, kind: Viking Warrior}}" for i in range(250)]
    data = ("\n".join(lines) + "\n").encode()
    async with AttachmentHost() as cdn:
        await fake.slash(gina, "campaign new", name="Host", ruleset="medieval")
        started = time.monotonic()
        result = await slash_with_files(fake, cdn, gina, "roster import", file=Upload("host.yaml", data))
        took = time.monotonic() - started
        assert card(result)["title"] == "Roster imported", card(result)
        assert "500 added" in card(result)["description"]
        assert result.elapsed is not None
        print(
            f"500 figures ({len(data) // 1024} KiB) imported; answered in {result.elapsed:.2f} s ({took:.2f} s in all)"
        )
        too_many = await slash_with_files(
            fake, cdn, gina, "roster import", file=Upload("more.yaml", data + b"    - {name: One More, kind: Knight}\n")
        )
        assert too_many.ephemeral and "501 figures is more than one import takes (500)" in too_many.text
