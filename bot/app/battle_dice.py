"""A battle's provable dice in the application: made when the battle starts, carried by its game row
from command to command (the stream goes on, never back, even through an undo), revealed when the
battle is over.

What players are told lives here too, so the start card, the status, the end card and the report
say the same thing: the commitment at the start, the secret at the end, and plainly when a battle's
dice cannot be checked (begun before provable dice, or seeded or forced at the terminal).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.dice import RecordingDice, RolledDie, battle_seeded, in_battle
from bot.provable import Draw, ProvableDice
from bot.store.games import BattleStream
from bot.store.records import Game
from rules.core import DiceSource

VERIFY_HINT = "check them with `skirmish-gm verify` on the battle's /game report (docs/verify.md)"
NOTES = {
    "forced": "some of its dice were forced at the terminal",
    "seeded": "its dice were seeded at the terminal (repeatable, not secret)",
}
#: The format of the dice block in a report or an export (``skirmish-gm verify`` reads it).
DICE_FORMAT = "skirmish-gm-dice"


def new_stream(source: DiceSource | None = None, campaign_id: int = 0, number: int = 0) -> ProvableDice:
    """A new battle's dice, with a fresh secret from the operating system; at a terminal given
    ``--battle-seed``, with the secret that seed gives battle ``number`` of the campaign."""
    seeded = battle_seeded(source) if source is not None else None
    if seeded is not None:
        return ProvableDice(seeded.battle_secret(campaign_id, number))
    return ProvableDice.start()


def stream_of(game: Game) -> ProvableDice | None:
    """The battle's stream where its last command left it; None for a battle begun before them."""
    if game.dice_secret is None:
        return None
    return ProvableDice.load({"secret": game.dice_secret, "next_draw": game.dice_next})


def command_dice(source: DiceSource, stream: ProvableDice | None) -> RecordingDice:
    """One command's dice, recorded: the stream (under anything forced), or ``source`` alone in a
    battle begun before provable dice."""
    return RecordingDice(in_battle(source, stream) if stream is not None else source, stream)


def note_of(dice: RecordingDice) -> str | None:
    """Why some of a command's dice did not come from the battle's secret, if they did not."""
    if dice.stream is None or not dice.unproven:
        return None
    return "forced" if "forced" in dice.unproven else "seeded"


def progress(dice: RecordingDice) -> dict[str, Any]:
    """The game row's dice after a command: the next draw number and any new note."""
    if dice.stream is None:
        return {}
    return {"dice_next": dice.stream.next_draw, "dice_note": note_of(dice)}


def started(stream: ProvableDice, dice: RecordingDice) -> BattleStream:
    """A new battle's stream as its game row keeps it, after the start's own dice."""
    return BattleStream(stream.reveal(), stream.commitment, stream.next_draw, note_of(dice))


def is_provable(game: Game) -> bool:
    return game.dice_commitment is not None and game.dice_note is None


def unproven_text(note: str) -> str:
    """Said once, on the card of the first action whose dice did not come from the secret."""
    how = "seeded" if note == "seeded" else "forced"
    return f"This action's dice were {how} at the terminal: this battle's dice can no longer all be checked."


def start_text(commitment: str, note: str | None) -> str:
    """The start card's word on the dice."""
    said = (
        f"Commitment `{commitment}`: every die and card of this battle follows from a secret fixed now, "
        "revealed when the battle ends."
    )
    if note is not None:
        said += f" But {NOTES.get(note, note)}: they cannot be checked."
    return said


def status_text(game: Game) -> str:
    """The dice as ``/game status`` describes them."""
    if game.dice_commitment is None:
        return "This battle began before provable dice: it finishes on the old dice, which cannot be checked."
    said = f"Commitment `{game.dice_commitment}`; the secret is revealed when the battle ends."
    if game.dice_note is not None:
        said += f" But {NOTES.get(game.dice_note, game.dice_note)}: they cannot be checked."
    return said


def end_text(game: Game) -> str:
    """The end card's word on the dice: the secret revealed, and how to check."""
    if game.dice_commitment is None or game.dice_secret is None:
        return "This battle began before provable dice: its dice were the old ones and cannot be checked."
    said = (
        f"Secret `{game.dice_secret}` (commitment `{game.dice_commitment}`); "
        f"{drawn_text(game.dice_next)}: {VERIFY_HINT}."
    )
    if game.dice_note is not None:
        said = f"{NOTES.get(game.dice_note, game.dice_note).capitalize()}, so they cannot all be checked. {said}"
    return said


def drawn_text(count: int) -> str:
    """How many draws a stream made, as the end card and the report say it: ``verify`` fails a
    report or an export that lists fewer, so draws cut off at the end cannot pass."""
    if count == 0:
        return "the battle drew no die or card from it"
    drawn = "1 die or card" if count == 1 else f"{count} dice and cards"
    return f"the battle drew {drawn} from it (draws 0 to {count - 1})"


def draws_of(rolled: Iterable[RolledDie]) -> list[Draw]:
    """The stream's draws among ``rolled`` (dice that did not come from it are left out)."""
    found = []
    for die in rolled:
        if die.draw is None:
            continue
        if die.kind == "card":
            found.append(Draw(die.draw, "card", die.pool or 0, die.position or 0, die.reason, die.value))
        else:
            found.append(Draw(die.draw, "die", die.sides or 0, int(die.value), die.reason))
    return sorted(found, key=lambda d: d.k)


def dice_document(game: Game, rolled: Sequence[RolledDie], *, revealed: bool) -> dict[str, Any]:
    """The battle's dice as ``skirmish-gm verify`` reads them: the commitment, the secret once it
    may be shown, why it cannot be checked if it cannot, how many draws the battle made (``drawn``)
    and every draw of the stream in order."""
    document: dict[str, Any] = {
        "format": DICE_FORMAT,
        "battle": game.number,
        "commitment": game.dice_commitment,
        "secret": game.dice_secret if revealed else None,
        "note": game.dice_note,
    }
    if revealed:
        document["drawn"] = game.dice_next
        document["draws"] = [draw.to_data() for draw in draws_of(rolled)]
    return document
