"""A reply whose picture takes longer than Discord's 3 seconds allow (the drawing worker still
starting after a restart, a loaded machine) is deferred and then sent whole, never lost; a quick
picture is answered at once, as before."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from bot.adapter import delivery
from bot.adapter.delivery import answer_in_time, deliver
from bot.app.pictures import MAP_PICTURE, Pictures
from bot.app.replies import Card, PictureOrder, Reply
from tests.support import RED, fake_interaction

PNG = b"\x89PNG\r\n\x1a\nfake"


def ordered(key: str, *, ephemeral: bool = False) -> Reply:
    reply = Reply(cards=[Card(title="Turn 2", description="red · movement phase")], ephemeral=ephemeral)
    view: Any = object()  # the test's drawers look at neither
    reply.picture = PictureOrder((key,), view, view)
    return reply


def deferral_noted(interaction: Any) -> threading.Event:
    """Set once the interaction is deferred (the slow drawer below waits for it)."""
    deferred = threading.Event()

    async def defer(**kwargs: Any) -> None:
        interaction.response.is_done.return_value = True
        deferred.set()

    interaction.response.defer.side_effect = defer
    return deferred


async def handled(interaction: Any, pictures: Pictures, reply: Reply) -> None:
    """What a command does, in a task of its own as discord.py runs it: draw, then deliver."""

    async def command() -> None:
        answer_in_time(interaction)
        await deliver(interaction, await pictures.attach(reply))

    await asyncio.create_task(command())


@pytest.mark.parametrize("ephemeral", [False, True])
async def test_a_picture_still_drawing_past_the_limit_is_deferred_then_sent_with_its_reply(
    monkeypatch: pytest.MonkeyPatch, ephemeral: bool
) -> None:
    monkeypatch.setattr(delivery, "BEFORE_DEFER", 0.05)
    interaction = fake_interaction(None, RED)
    deferred = deferral_noted(interaction)

    def slow(view: Any, terrain: Any) -> bytes:
        assert deferred.wait(60), "the interaction was never deferred"
        return PNG

    await handled(interaction, Pictures(drawer=slow), ordered("slow", ephemeral=ephemeral))

    interaction.response.defer.assert_awaited_once_with(ephemeral=ephemeral, thinking=True)
    interaction.response.send_message.assert_not_awaited()
    [sent] = interaction.sent
    assert sent["ephemeral"] is ephemeral
    assert sent["embeds"][0].description == "red · movement phase"
    assert [file.filename for file in sent["files"]] == [MAP_PICTURE]


async def test_a_quick_picture_is_answered_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(delivery, "BEFORE_DEFER", 600.0)  # quick: however loaded the machine
    interaction = fake_interaction(None, RED)
    await handled(interaction, Pictures(drawer=lambda view, terrain: PNG), ordered("quick"))
    interaction.response.defer.assert_not_awaited()
    [sent] = interaction.sent
    assert [file.filename for file in sent["files"]] == [MAP_PICTURE]


async def test_a_picture_already_kept_never_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    pictures = Pictures(drawer=lambda view, terrain: PNG)
    await pictures.attach(ordered("kept"))
    monkeypatch.setattr(delivery, "BEFORE_DEFER", 0.0)
    interaction = fake_interaction(None, RED)
    await handled(interaction, pictures, ordered("kept"))
    interaction.response.defer.assert_not_awaited()
    interaction.response.send_message.assert_awaited_once()
