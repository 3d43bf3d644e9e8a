"""Provable dice for free rolls between battles: the campaign's stream, begun with the first such
roll, revealed when the game master starts the next battle or ends the campaign (docs/verify.md)."""

from __future__ import annotations

from typing import Any

from bot.app.battle_dice import DICE_FORMAT, note_of
from bot.app.replies import Caller
from bot.dice import RecordingDice
from bot.provable import Draw, ProvableDice
from bot.store import Unit
from bot.store.records import Campaign
from bot.store.streams import FreeRoll, RollStream


async def stream_for(u: Unit, campaign: Campaign) -> tuple[RollStream, ProvableDice]:
    """The campaign's open stream of free rolls (a new one if none is open) and its dice."""
    stream = await u.streams.open_stream(campaign.id)
    if stream is None:
        fresh = ProvableDice.start()
        stream = await u.streams.begin(campaign.id, fresh.reveal(), fresh.commitment)
    return stream, ProvableDice.load({"secret": stream.secret, "next_draw": stream.next_draw})


async def record(u: Unit, stream: RollStream, dice: RecordingDice, caller: Caller, command: str) -> RollStream:
    """Log a free roll's draws in the stream and move the stream on."""
    assert dice.stream is not None
    draws = [d.to_data() for d in dice.stream.draws]
    roll = FreeRoll(await u.streams.next_seq(stream), caller.user_id, caller.interaction_id, command, draws)
    return await u.streams.add_roll(stream, roll, dice.stream.next_draw, note_of(dice))


async def reveal(u: Unit, campaign: Campaign, at: Any) -> str | None:
    """Reveal the campaign's open stream of free rolls, if any: what the table is told."""
    stream = await u.streams.open_stream(campaign.id)
    if stream is None:
        return None
    await u.streams.reveal(stream, at)
    return (
        f"The free rolls since the last battle are revealed: secret `{stream.secret}` (commitment "
        f"`{stream.commitment}`), {_count(stream.next_draw)}; `skirmish-gm verify` checks them in a /campaign export."
    )


async def revealed_documents(u: Unit, campaign: Campaign) -> list[dict[str, Any]]:
    """Each revealed stream of free rolls as ``skirmish-gm verify`` reads it."""
    documents = []
    for stream, rolls in await u.streams.revealed(campaign.id):
        draws = sorted((Draw.from_data(d) for roll in rolls for d in roll.draws), key=lambda d: d.k)
        documents.append(
            {
                "format": DICE_FORMAT,
                "free_rolls": True,
                "stream": stream.id,
                "commitment": stream.commitment,
                "secret": stream.secret,
                "note": stream.note,
                "drawn": stream.next_draw,
                "draws": [d.to_data() for d in draws],
            }
        )
    return documents


def _count(drawn: int) -> str:
    return "1 die drawn (draw 0)" if drawn == 1 else f"{drawn} dice drawn (draws 0 to {drawn - 1})"


def commitment_line(stream: RollStream) -> str:
    return f"Free rolls between battles: commitment `{stream.commitment}`, revealed when the next battle starts."
