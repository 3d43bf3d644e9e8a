"""Provable dice through the loopback Discord, with the real bot process and its real dice.

A short SSG battle at a table: the game master starts it, the side the roll-off chose moves and
shoots, a player rolls in the open, the game master rolls in secret, a player asks for the report
while the battle goes on. What this proves:

* before the end the battle's secret (read from the bot's own SQLite file) appears nowhere: not in
  any message, embed, edit or attachment the bot sent, not in any request it made, not in its log;
  the commitment, which is its SHA-256, is on the start card;
* the game master's secret roll is answered privately, and the player's report copy during the
  battle leaves it out (and lists no draws);
* the game master's /game end reveals the secret on the end card; /game report is then posted for
  everyone, and ``skirmish-gm verify`` on its attachment says all its dice match; its JSON includes
  the secret roll's draws, with the values the game master was shown.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.render.report import DICE_MARK
from tests.e2e.attachments import sent_files
from tests.e2e.fake_discord import FakeDiscord, InteractionResult
from tests.e2e.seeding import BLUE_NAMES, RED_NAMES, caller, new_table, seeded_app

SECRET_REASON = "does the bridge hold"


def battle_dice(db_path: Path) -> tuple[str, str]:
    """The battle in progress's secret and commitment, as the bot keeps them in its database."""
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT dice_secret, dice_commitment FROM games WHERE status = 'active'").fetchall()
    [(secret, commitment)] = rows
    return secret, commitment


def everything_recorded(fake: FakeDiscord, bot: Any) -> dict[str, str]:
    """Every text the bot produced that the fake (or its log) recorded, by where it was seen."""
    seen: dict[str, str] = {}
    for n, request in enumerate(fake.requests):
        where = f"request {n} {request.method} {request.path}"
        seen[where] = json.dumps([request.query, request.body], ensure_ascii=False, default=str)
        for file, data in zip(request.files, request.contents, strict=True):
            seen[f"{where} file {file.get('filename')}"] = data.decode("utf-8", errors="replace")
    for message in fake.messages:
        where = f"message {message.id}"
        seen[where] = message.text + json.dumps(message.payload(), ensure_ascii=False, default=str)
        seen[f"{where} history"] = json.dumps(message.history, ensure_ascii=False, default=str)
    seen["gateway"] = json.dumps(fake.gateway_log, ensure_ascii=False, default=str)
    seen["bot log"] = bot.log_text()
    return seen


def found_in(seen: dict[str, str], needle: str) -> list[str]:
    return [where for where, text in seen.items() if needle.lower() in text.lower()]


def refused(result: InteractionResult) -> bool:
    return result.ephemeral and any(e.get("title") == "Not done" for e in result.embeds)


def dice_block(text: str) -> dict[str, Any]:
    after = text.split(DICE_MARK, 1)[1]
    start = after.index("```json") + len("```json")
    return json.loads(after[start : after.index("```", start)])


async def test_the_secret_stays_hidden_until_the_end_and_the_report_verifies(
    fake: FakeDiscord, bot: Any, tmp_path: Path
) -> None:
    table = new_table(fake, 0)
    gm = caller(fake, table.gm, table.channel, 0)
    players = {"red": caller(fake, table.red, table.channel, 1), "blue": caller(fake, table.blue, table.channel, 2)}
    app = await seeded_app(bot.db_path)  # the campaign and rosters only: no die is rolled for them
    try:
        await app.campaign_new(gm, "Iron Coast", "ssg", "table")
        for side, player in players.items():
            asked = await app.campaign_join(player, side)
            assert asked.decision is not None
            await app.decide(gm, "approve", asked.decision.decision_id)
        for red, blue in zip(RED_NAMES, BLUE_NAMES, strict=True):
            await app.roster_add(players["red"], red, "rifle")
            await app.roster_add(players["blue"], blue, "rifle")
    finally:
        await app.store.db.close()

    # --- the start: the commitment is shown, the secret kept -------------------------------------
    started = await fake.slash(table.gm, "game start")
    assert not started.ephemeral and "Game on" in started.titles
    secret, commitment = battle_dice(bot.db_path)
    assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == commitment
    [said] = started.field_values("Provable dice")
    assert said.startswith(f"Commitment `{commitment}`") and "cannot be checked" not in said
    first = re.search(r"\b(red|blue) goes first\b", started.text)
    assert first, started.text
    side = first[1]
    mover = table.red if side == "red" else table.blue
    other = table.blue if side == "red" else table.red
    shooter, target = ("Rossi", "Bo") if side == "red" else ("Bo", "Rossi")

    # --- the battle: a move on, a shot, a roll in the open, the game master's secret roll ----------
    assert refused(await fake.slash(other, "ssg next"))  # not his turn
    assert not refused(await fake.slash(mover, "ssg next"))  # nobody in contact: into shooting
    shot = await fake.slash(mover, "ssg shoot", shooter=shooter, target=target, range=10, los="clear")
    assert not refused(shot) and shot.field_values("Dice"), shot.text
    rolled = await fake.slash(table.red, "roll", dice="2d6", reason="weather")
    assert not rolled.ephemeral and "2d6" in rolled.text
    hidden = await fake.slash(table.gm, "roll", dice="3d6", reason=SECRET_REASON, secret=True)
    assert hidden.ephemeral and "🔒 Secret roll: 3d6" in hidden.text

    status = await fake.slash(other, "game status")
    assert status.field_values("Provable dice") == [
        f"Commitment `{commitment}`; the secret is revealed when the battle ends."
    ]

    # The player's report while the battle goes on: private, without the secret roll or any draw.
    going = await fake.slash(other, "game report")
    assert going.ephemeral
    [(name, data)] = sent_files(fake, going).items()
    copy = data.decode("utf-8")
    assert name == "battle-1.md"
    assert SECRET_REASON not in copy and "🔒" in copy  # the roll is there, its dice are not
    assert DICE_MARK not in copy and f"`{commitment}`" in copy

    # No public message carries the secret roll's reason; only the game master's private answer does.
    public = [m for m in fake.messages if not m.ephemeral]
    assert not [m.id for m in public if SECRET_REASON in m.text]

    # --- the secret appears nowhere the bot wrote, before the end --------------------------------
    seen = everything_recorded(fake, bot)
    assert found_in(seen, commitment), "the search sees what the bot sent (the commitment, at least)"
    assert found_in(seen, secret) == []
    assert found_in(seen, secret.upper()) == []

    # --- the end: the secret revealed, the report posted and checked -----------------------------
    ended = await fake.slash(table.gm, "game end")
    assert not ended.ephemeral
    [revealed] = [e.get("description", "") for e in ended.embeds if e.get("title") == "Dice of battle 1"]
    assert f"Secret `{secret}`" in revealed and f"commitment `{commitment}`" in revealed
    assert found_in(everything_recorded(fake, bot), secret)  # the same search finds it now

    over = await fake.slash(other, "game report")
    assert not over.ephemeral
    [(name, data)] = sent_files(fake, over).items()
    report = tmp_path / name
    report.write_bytes(data)
    text = data.decode("utf-8")
    assert SECRET_REASON in text
    document = dice_block(text)
    assert (document["secret"], document["commitment"], document["note"]) == (secret, commitment, None)
    draws = document["draws"]
    assert [d["k"] for d in draws] == list(range(len(draws)))
    # The end card said how many draws the battle made, and the report says the same.
    assert document["drawn"] == len(draws)
    assert f"the battle drew {len(draws)} dice and cards from it (draws 0 to {len(draws) - 1})" in revealed
    secret_roll = [d["value"] for d in draws if d["reason"].endswith(f": {SECRET_REASON}")]
    assert len(secret_roll) == 3
    shown = hidden.text.replace("**", "")  # d20 notation bolds a 1 and a 6
    assert f"3d6 ({', '.join(map(str, secret_roll))})" in shown  # the dice the game master saw

    checked = subprocess.run(
        [sys.executable, "-m", "bot", "verify", str(report)], capture_output=True, text=True, timeout=60, check=False
    )
    assert (checked.returncode, checked.stdout) == (
        0,
        f"Battle 1: all {len(draws)} dice and cards match.\n"
        f"  Commitment {commitment}: compare it with the battle's start card, and the {len(draws)} draws with its "
        "end card.\n",
    )
