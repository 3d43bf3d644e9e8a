"""/roster export|import, /campaign export|import, /campaign rules and /campaign deadline through
the real cogs (interactions specced from discord.py), and through the terminal."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest
import yaml
from discord import app_commands

from bot.adapter import delivery
from bot.adapter.client import SkirmishBot
from bot.adapter.errors import BUG_SENTENCE
from bot.app.replies import Reply
from bot.app.yaml_format import MAX_FILE_BYTES
from tests.support import BLUE, GM, RED, STRANGER, fake_interaction, join, ssg_table

OTHER_GUILD = 5


def find(bot: SkirmishBot, name: str) -> app_commands.Command:
    node: Any = None
    for part in name.split():
        node = bot.tree.get_command(part) if node is None else node.get_command(part)
    assert isinstance(node, app_commands.Command), name
    return node


def attachment(
    data: bytes, filename: str = "roster.yaml", *, size: int | None = None, delay: float = 0.0, fails: bool = False
) -> MagicMock:
    """A ``discord.Attachment`` (specced from the real class) whose ``read()`` gives ``data``."""
    file = MagicMock(spec=discord.Attachment)
    file.filename, file.size = filename, len(data) if size is None else size

    async def read() -> bytes:
        await asyncio.sleep(delay)
        if fails:
            raise discord.HTTPException(MagicMock(status=404, reason="Not Found"), "gone")
        return data

    file.read = AsyncMock(side_effect=read)
    return file


async def invoke(
    bot: SkirmishBot,
    command_name: str,
    user: int,
    user_name: str = "",
    /,
    *,
    guild: int | None = None,
    interaction: Any = None,
    **options: Any,
) -> Any:
    interaction = interaction or fake_interaction(bot, user, user_name, **({"guild": guild} if guild else {}))
    cmd = find(bot, command_name)
    interaction.command = cmd
    try:
        await cmd.callback(cmd.binding, interaction, **options)
    except Exception as exc:
        try:
            raise app_commands.CommandInvokeError(cmd, exc) from exc
        except app_commands.CommandInvokeError as wrapped:
            await bot.tree.on_error(interaction, wrapped)
    return interaction


def one(interaction: Any) -> dict[str, Any]:
    [sent] = interaction.sent
    return sent


def files(sent: dict[str, Any]) -> dict[str, bytes]:
    return {f.filename: f.fp.getvalue() for f in sent.get("files") or []}


async def medieval(app) -> None:
    from tests.support import caller

    await app.campaign_new(caller(GM, "Gina"), "Northumbria", "medieval", "table")
    await join(app, RED, "Rita", "red")
    await join(app, BLUE, "Bob", "blue")


async def test_export_attaches_a_yaml_file_privately_and_import_takes_it_back(bot, app) -> None:
    await medieval(app)
    await invoke(bot, "roster add", RED, "Rita", name="Rossi", kind="Knight")
    sent = one(await invoke(bot, "roster export", RED, "Rita"))
    assert sent["ephemeral"] is True and sent["allowed_mentions"].everyone is False
    [(name, data)] = files(sent).items()
    assert name == "roster-northumbria-red.yaml"
    edited = yaml.safe_load(data)
    edited["sides"]["red"].append({"name": "Ada", "kind": "Man at Arms"})
    sent = one(await invoke(bot, "roster import", RED, "Rita", file=attachment(yaml.safe_dump(edited).encode())))
    assert sent["ephemeral"] is False
    assert sent["embeds"][0].description == "Rita imported roster.yaml: 1 added (Ada); 1 unchanged."


async def test_an_attachment_too_big_is_refused_before_it_is_read(bot, app) -> None:
    await medieval(app)
    big = attachment(b"", size=MAX_FILE_BYTES + 1)
    sent = one(await invoke(bot, "roster import", RED, file=big))
    assert sent["ephemeral"] is True and "the most a file may be is 256 KiB" in sent["embeds"][0].description
    big.read.assert_not_awaited()


async def test_what_is_not_an_attachment_or_cannot_be_fetched_is_refused(bot, app) -> None:
    await medieval(app)
    sent = one(await invoke(bot, "roster import", RED, file="roster.yaml"))
    assert sent["embeds"][0].description == "Attach the YAML file to the command's file option."
    sent = one(await invoke(bot, "campaign rules set", GM, file=attachment(b"a: 1", fails=True)))
    assert "Discord did not hand over “roster.yaml”" in sent["embeds"][0].description
    sent = one(await invoke(bot, "roster import", RED, file=attachment(b"\x89PNG\r\n\x1a\n\x00\x00")))
    assert sent["embeds"][0].description == "The file is not UTF-8 text: attach the YAML file itself."


async def test_a_slow_download_defers_privately_and_the_answer_follows(bot, app, monkeypatch) -> None:
    await medieval(app)
    monkeypatch.setattr(delivery, "BEFORE_DEFER", 0.01)
    interaction = fake_interaction(bot, RED, "Rita")

    async def defer(**kwargs: Any) -> None:
        interaction.sent.append({"deferred": kwargs})
        interaction.response.is_done.return_value = True

    interaction.response.defer = AsyncMock(side_effect=defer)
    file = attachment(b"sides: {red: [{name: Ada, kind: Knight}]}\n", delay=0.1)
    await invoke(bot, "roster import", RED, "Rita", interaction=interaction, file=file)
    deferred, note, answer = interaction.sent  # the note fills the private "thinking"; the public answer follows
    assert deferred == {"deferred": {"ephemeral": True, "thinking": True}}
    assert note["ephemeral"] is True and note["content"] == "The answer follows in the channel."
    assert answer["ephemeral"] is False and answer["embeds"][0].title == "Roster imported"


async def test_every_problem_fits_one_private_message_with_a_count(bot, app) -> None:
    await medieval(app)
    lines = ["sides:", "  red:"] + [f"    - {{name: Man {i}, kind: Knigth}}" for i in range(300)]
    sent = one(await invoke(bot, "roster import", RED, file=attachment("\n".join(lines).encode())))
    [embed] = sent["embeds"]
    assert sent["ephemeral"] is True and embed.title == "Not done"
    assert embed.footer.text == "Fix them all and send the file again."  # the refusal's advice
    assert embed.description.startswith("300 problems in roster.yaml; nothing was imported:\n• line 3: ")
    assert len(embed.description) <= 4096 and embed.description.rstrip().endswith("more")
    assert len(embed) <= 6000


async def test_house_rules_through_the_cogs(bot, app) -> None:
    await medieval(app)
    rules = b"# ours\nself_healing: true\n"
    refused = one(await invoke(bot, "campaign rules set", RED, file=attachment(rules, "house.yaml")))
    assert refused["embeds"][0].description == "Only the game master may set house rules."
    sent = one(await invoke(bot, "campaign rules set", GM, "Gina", file=attachment(rules, "house.yaml")))
    assert sent["ephemeral"] is False and "self_healing: no → yes" in sent["embeds"][0].description
    shown = one(await invoke(bot, "campaign rules show", STRANGER, tables=True))
    assert shown["ephemeral"] is True
    assert files(shown)["house-rules-northumbria.yaml"] == rules
    assert b"bravery_pass" in files(shown)["tables-medieval.yaml"]
    [embed] = shown["embeds"]
    listed = "\n".join(f.value for f in embed.fields if f.name.startswith("Switches (13"))
    assert "`self_healing`: **yes** (house rule; the rules say no)" in listed and "more" not in listed
    assert all(len(f.value) <= 1024 for f in embed.fields) and len(embed) <= 6000
    cleared = one(await invoke(bot, "campaign rules clear", GM))
    assert cleared["embeds"][0].title == "House rules cleared"


async def test_campaign_export_and_import_through_the_cogs(bot, app) -> None:
    await medieval(app)
    await invoke(bot, "roster add", BLUE, name="Ulf", kind="Viking Hero")
    sent = one(await invoke(bot, "campaign export", BLUE))
    [(name, data)] = files(sent).items()
    assert name.startswith("campaign-northumbria-") and yaml.safe_load(data)["sides"]["blue"][0]["owner"] == BLUE
    moved = one(
        await invoke(
            bot,
            "campaign import",
            GM,
            "Gina",
            guild=None,
            interaction=fake_interaction(bot, GM, "Gina", channel=9999),
            file=attachment(data, name),
        )
    )
    assert moved["embeds"][0].title == "Campaign imported" and moved["ephemeral"] is False
    assert "1 added (Ulf)" in moved["embeds"][0].description


async def test_deadline_passes_its_options_to_the_pace_layer(bot, app, monkeypatch) -> None:
    called = AsyncMock(return_value=Reply.note("Deadline", "set", ephemeral=False))
    monkeypatch.setattr(bot.app.pace, "set_deadline", called)
    await invoke(bot, "campaign deadline", GM, hours=12.5, then="gm")
    await invoke(bot, "campaign deadline", GM)
    assert [c.args[1:] for c in called.await_args_list] == [(12.5, "gm"), (None, None)]
    declared = {o["name"]: o for o in find(bot, "campaign deadline").to_dict(bot.tree)["options"]}
    assert (declared["hours"]["min_value"], declared["hours"]["max_value"]) == (0.5, 720.0)
    assert [c["value"] for c in declared["then"]["choices"]] == ["pass", "gm"]


# Who may use each new command: "ok" or a piece of the refusal (a short private sentence).
ROLES = {"gm": GM, "owner": RED, "other player": BLUE, "stranger": STRANGER, "other guild": OTHER_GUILD}
NOT_IN, NO_CAMPAIGN, GM_ONLY = "not in this campaign", "no campaign in this channel", "Only the game master"
WHO = [
    ("roster export", {}, ["ok", "ok", "ok", NOT_IN, NO_CAMPAIGN]),
    ("roster export", {"side": "blue"}, ["ok", "only the game master may export blue", "ok", NOT_IN, NO_CAMPAIGN]),
    (
        "roster import",
        {"file": b"sides: {red: [{name: Zed, kind: rifle}]}"},
        ["ok", "ok", "you play blue", NOT_IN, NO_CAMPAIGN],
    ),
    ("campaign export", {}, ["ok", "ok", "ok", NOT_IN, NO_CAMPAIGN]),
    (
        "campaign import",
        {"file": b"ruleset: ssg\nname: X\n"},
        ["A game is in progress", GM_ONLY, GM_ONLY, GM_ONLY, "already runs the campaign"],
    ),
    (
        "campaign rules set",
        {"file": b"move_max_inches: 5\n"},
        ["between battles", GM_ONLY, GM_ONLY, GM_ONLY, NO_CAMPAIGN],
    ),
    ("campaign rules show", {}, ["ok", "ok", "ok", "ok", NO_CAMPAIGN]),
    ("campaign rules clear", {}, ["between battles", GM_ONLY, GM_ONLY, GM_ONLY, NO_CAMPAIGN]),
]


@pytest.mark.parametrize(
    "name,options,expected", WHO, ids=[f"{n}{':' + str(o.get('side')) if 'side' in o else ''}" for n, o, _ in WHO]
)
async def test_who_may_use_the_exchange_commands(
    bot, app, forced, name: str, options: dict, expected: list[str]
) -> None:
    await ssg_table(app, forced)
    for (role, user), outcome in zip(ROLES.items(), expected, strict=True):
        given = {k: attachment(v) if isinstance(v, bytes) else v for k, v in options.items()}
        guild = 999 if role == "other guild" else None
        sent = one(await invoke(bot, name, user, role, guild=guild, **given))
        [embed, *_] = sent["embeds"]
        assert embed.description != BUG_SENTENCE
        if outcome == "ok":
            assert embed.title != "Not done", (role, embed.description)
        else:
            assert sent["ephemeral"] is True and embed.title == "Not done", (role, embed.description)
            assert outcome in embed.description, (role, embed.description)


# --- the terminal -------------------------------------------------------------------------------------


def play(db: Path, script: str, *args: str) -> list[dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--db", str(db), "--json", *args],
        input=script,
        capture_output=True,
        text=True,
        timeout=600,  # a hang guard: a loaded machine may take minutes
    )
    assert done.returncode in (0, 1), done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def test_the_terminal_exports_to_a_file_and_imports_a_local_path(tmp_path: Path) -> None:
    db, saved = tmp_path / "t.sqlite3", tmp_path / "files"
    setup = play(
        db,
        """\
/as Gina
/campaign new name:"Iron Coast" ruleset:medieval battlefield:table
/campaign join side:red
/roster add name:Rossi kind:Knight
/roster export
""",
        "--files",
        str(saved),
    )
    assert all(r["ok"] for r in setup), setup
    [path] = setup[-1]["files"]
    text = Path(path).read_text()
    assert "name: Rossi" in text
    edited = tmp_path / "red roster.yaml"
    edited.write_text(text + "  - {name: Ada, kind: custom, stats: {speed: 30, bravery: 4, shoot: 3, fight: 3}}\n")
    house = tmp_path / "house.yaml"
    house.write_text("custom_limits:\n  speed: {low: 0, high: 30}\n")
    records = play(
        db,
        f"""\
/as Gina
/roster import file:"{edited}"
/campaign rules set file:"{house}"
/roster import file:"{edited}"
/campaign rules show
/roster import file:"{tmp_path / "missing.yaml"}"
""",
    )
    _, refused, rules, imported, shown, missing = records
    assert not refused["ok"] and "line 12: “Ada”'s speed must be from 0 to 24, not 30." in refused["error"]
    assert rules["ok"] and "custom_limits.speed.high: 24 → 30" in rules["text"]
    assert imported["ok"] and "1 added (Ada); 1 unchanged" in imported["text"]
    assert shown["ok"] and "custom_limits" in shown["attached"]
    assert not missing["ok"] and "cannot read" in missing["error"]
