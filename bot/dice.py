"""Dice and card sources, and free rolls in d20 notation.

Discord commands always use :class:`SecureDice`. Only the terminal front-end and tests may use
:class:`SeededDice` or :class:`ForcedDice`; nothing a Discord user types can choose a result.
"""

from __future__ import annotations

import hashlib
import random
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import d20

from bot.provable import Draw, ProvableDice
from rules.core import DiceSource, RuleError

#: Every card of the 54-card deck (52 + red and black jokers), rank+suit as in the rules notes.
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
FULL_DECK: tuple[str, ...] = (*tuple(r + s for s in SUITS for r in RANKS), "RJ", "BJ")


class DiceExhausted(RuleError):
    """Forced dice or cards ran out before the command was finished."""


@dataclass(frozen=True)
class RolledDie:
    """One die rolled or card turned, with what it was for.

    ``draw`` is its draw number in the battle's provable stream (None when it did not come from
    it); a card drawn from the stream also keeps the count of cards it was drawn from (``pool``) and
    its position among them, which is what the secret fixes.
    """

    kind: str  # "die" or "card"
    sides: int | None
    value: str
    reason: str
    draw: int | None = None
    pool: int | None = None
    position: int | None = None


class RandomDice:
    """Dice from a ``random.Random``-like generator (the OS's for Discord, a seeded one for play)."""

    def __init__(self, generator: random.Random) -> None:
        self._generator = generator

    def roll(self, sides: int, reason: str) -> int:
        if sides < 1:
            raise ValueError(f"a die needs at least one face, got {sides}")
        return self._generator.randint(1, sides)

    def draw(self, cards: Sequence[str], reason: str) -> str:
        if not cards:
            raise RuleError("The deck is empty.")
        return self._generator.choice(list(cards))


class SecureDice(RandomDice):
    """The operating system's randomness: the only source a Discord command ever gets."""

    def __init__(self) -> None:
        super().__init__(random.SystemRandom())


class SeededDice(RandomDice):
    """Repeatable dice for the terminal (``--seed``) and tests."""

    def __init__(self, seed: int) -> None:
        super().__init__(random.Random(seed))


class BattleSeededDice(SeededDice):
    """Repeatable dice whose battles still draw from their provable stream (``--battle-seed``).

    Outside a battle (a recruit's characteristics) it rolls as :class:`SeededDice`. A battle's
    secret is derived from the seed, the campaign and the battle's number, and its dice are drawn
    from that stream as on Discord: every draw checks with ``skirmish-gm verify``, and the same seed
    on the same commands gives the same dice. Not secret (anyone with the seed knows the dice), so
    only for self-play and for replaying one at the terminal (docs/selfplay.md).
    """

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.seed = seed

    def battle_secret(self, campaign_id: int, number: int) -> bytes:
        return hashlib.sha256(f"skirmish-gm battle-seed {self.seed} {campaign_id} {number}".encode()).digest()


def battle_seeded(source: DiceSource) -> BattleSeededDice | None:
    """The :class:`BattleSeededDice` under ``source`` (itself, or a forced source's fallback), if any."""
    if isinstance(source, ForcedDice):
        source = source.fallback  # type: ignore[assignment]
    return source if isinstance(source, BattleSeededDice) else None


def parse_forced_dice(text: str) -> list[int]:
    """``"6,1,4"`` as die results; refused with a sentence if any value is not a whole number."""
    values = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        if not part.isdigit() or int(part) < 1:
            raise RuleError(f"Forced dice are whole numbers from 1 up, separated by commas; got {part!r}.")
        values.append(int(part))
    return values


def parse_forced_cards(text: str) -> list[str]:
    """``"AH,10D,RJ"`` as cards; refused with a sentence for anything that is not a card."""
    cards = [c.strip().upper() for c in text.split(",") if c.strip()]
    for card in cards:
        if card not in FULL_DECK:
            raise RuleError(f"{card!r} is not a card: write rank then suit, like AH, 10D or RJ.")
    return cards


class ForcedDice:
    """Results forced in order (terminal ``--dice``/``--cards`` and tests).

    When the forced results run out, rolls go on to ``fallback``; with no fallback the source
    says plainly that it ran out, naming the roll it could not make.
    """

    def __init__(
        self,
        dice: Iterable[int] = (),
        cards: Iterable[str] = (),
        fallback: DiceSource | None = None,
    ) -> None:
        self.dice: deque[int] = deque(dice)
        self.cards: deque[str] = deque(cards)
        self.fallback = fallback

    def push_dice(self, values: Iterable[int]) -> None:
        self.dice.extend(values)

    def push_cards(self, cards: Iterable[str]) -> None:
        self.cards.extend(cards)

    def with_fallback(self, fallback: DiceSource | None) -> ForcedDice:
        """The same queues of forced results, going on to ``fallback`` when they run out."""
        view = ForcedDice(fallback=fallback)
        view.dice, view.cards = self.dice, self.cards
        return view

    def roll(self, sides: int, reason: str) -> int:
        if self.dice:
            value = self.dice[0]
            if not 1 <= value <= sides:
                raise RuleError(f"The forced die {value} cannot come up on a d{sides} ({reason}).")
            return self.dice.popleft()
        if self.fallback is None:
            raise DiceExhausted(f"The forced dice ran out: a d{sides} was needed for {reason}.")
        return self.fallback.roll(sides, reason)

    def draw(self, cards: Sequence[str], reason: str) -> str:
        if self.cards:
            card = self.cards[0]
            if card not in cards:
                raise RuleError(f"The forced card {card} is not in the deck now ({reason}).")
            return self.cards.popleft()
        if self.fallback is None:
            raise DiceExhausted(f"The forced cards ran out: a card was needed for {reason}.")
        return self.fallback.draw(cards, reason)


class RecordingDice:
    """Wraps a source and keeps every result with its reason, for the dice card and the log.

    Given the battle's provable ``stream`` (which ``inner`` may fall back on), each result keeps its
    draw number when the stream gave it; ``unproven`` names where the others came from ("forced",
    "seeded"), so the battle can say its dice cannot all be checked. A d1 shows 1 and draws nothing.
    """

    def __init__(self, inner: DiceSource, stream: ProvableDice | None = None) -> None:
        self.inner = inner
        self.stream = stream
        self.rolled: list[RolledDie] = []
        self.unproven: set[str] = set()

    def roll(self, sides: int, reason: str) -> int:
        before = self._marks()
        value = 1 if sides == 1 else self.inner.roll(sides, reason)
        draw = self._drawn(before) if sides > 1 else None
        self.rolled.append(RolledDie("die", sides, str(value), reason, draw=draw.k if draw else None))
        return value

    def draw(self, cards: Sequence[str], reason: str) -> str:
        before = self._marks()
        card = self.inner.draw(cards, reason)
        draw = self._drawn(before)
        found = (draw.k, draw.size, draw.value) if draw else (None, None, None)
        self.rolled.append(RolledDie("card", None, card, reason, *found))
        return card

    def _marks(self) -> tuple[int, int]:
        """The stream's draws so far, and the forced results still queued."""
        inner = self.inner
        queued = len(inner.dice) + len(inner.cards) if isinstance(inner, ForcedDice) else 0
        return (len(self.stream.draws) if self.stream else 0, queued)

    def _drawn(self, before: tuple[int, int]) -> Draw | None:
        """The stream's draw that gave the last result, or None (and where it came from instead)."""
        drawn, queued = self._marks()
        if self.stream is not None and drawn > before[0]:
            return self.stream.draws[-1]
        self.unproven.add("forced" if queued < before[1] else "seeded")
        return None


def in_battle(source: DiceSource, stream: ProvableDice) -> DiceSource:
    """What a command in a battle rolls: the battle's stream wherever ``source`` would use the
    operating system's randomness (Discord always; the terminal when nothing is forced); dice
    forced or seeded at the terminal or in a test stay what they are, and the battle says so."""
    if isinstance(source, (SecureDice, BattleSeededDice)):
        return stream
    if isinstance(source, ForcedDice) and isinstance(source.fallback, (SecureDice, BattleSeededDice)):
        return source.with_fallback(stream)
    return source


# --- free rolls in dice notation -------------------------------------------------------------

MAX_FREE_DICE = 100
MAX_FREE_FACES = 1000
MAX_NOTATION_LENGTH = 200


@dataclass(frozen=True)
class FreeRoll:
    expression: str
    total: int
    detail: str  # d20's rendering with every die, e.g. "2d6 (3, 5) + 1 = `9`"


class _DiceSourceAsRandom:
    """Lets d20 draw its dice from a :class:`DiceSource` (d20 calls ``randrange``)."""

    def __init__(self, dice: DiceSource, reason: str) -> None:
        self._dice = dice
        self._reason = reason

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        faces = len(range(start, stop, step))
        return start + (self._dice.roll(faces, self._reason) - 1) * step


def free_roll(expression: str, dice: DiceSource, reason: str) -> FreeRoll:
    """Roll d20 notation (``2d6+1``, ``4d6kh3``) with ``dice``; refuse silly or broken input."""
    expression = expression.strip()
    if not expression:
        raise RuleError("Give some dice to roll, like 2d6+1.")
    if len(expression) > MAX_NOTATION_LENGTH:
        raise RuleError(f"That roll is too long: at most {MAX_NOTATION_LENGTH} characters.")
    try:
        tree = d20.parse(expression)
    except d20.RollSyntaxError:
        raise RuleError("I can't read that roll: write dice like 2d6+1 or 4d6kh3.") from None
    _check_faces(tree)
    roller = d20.Roller(context=d20.RollContext(max_rolls=MAX_FREE_DICE))
    module = d20.expression
    saved = module.random
    module.random = _DiceSourceAsRandom(dice, reason)
    try:
        result = roller.roll(tree)
        total, detail = int(result.total), str(result)  # d20 evaluates lazily: 1d6/0 fails here
    except d20.TooManyRolls:
        raise RuleError(f"That is too many dice: at most {MAX_FREE_DICE} in one roll.") from None
    except d20.RollError as exc:
        raise RuleError(f"I can't roll that: {exc}") from None
    except (OverflowError, ValueError):
        raise RuleError("That roll's result is too large to show.") from None
    finally:
        module.random = saved
    return FreeRoll(expression, total, detail)


def _check_faces(node: object) -> None:
    """Refuse a die with absurdly many faces before anything is rolled."""
    size = getattr(node, "size", None)
    if isinstance(size, int) and not isinstance(size, bool) and size > MAX_FREE_FACES:
        raise RuleError(f"Dice have at most {MAX_FREE_FACES} faces here.")
    num = getattr(node, "num", None)
    if isinstance(num, int) and not isinstance(num, bool) and num > MAX_FREE_DICE:
        raise RuleError(f"That is too many dice: at most {MAX_FREE_DICE} in one roll.")
    for child in getattr(node, "children", []) or []:
        _check_faces(child)
