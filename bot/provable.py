"""Provable dice: every die and card of a battle derived from a secret fixed before it began.

The battle's secret is drawn from the operating system when the battle starts and only its
commitment (the SHA-256 of the secret) is shown. Draw number ``k`` reads bytes from the blocks
HMAC-SHA256(secret, "k:j") for j = 0, 1, 2, … and maps them to a face by exact rejection
sampling. When the secret is revealed after the battle, anyone can recompute every draw and check
that the commitment is the secret's: docs/verify.md publishes the procedure and a standalone
script, and a test keeps that script in step with this module.

Nothing here reads a clock, a database or Discord; the shell decides when to reveal the secret.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from rules.core import RuleError

SECRET_BYTES = 32
BLOCK_BYTES = 32  # one HMAC-SHA256 output
MIN_SIDES = 2
MAX_SIDES = 1000
MAX_UNIFORM = 2**32

DrawKind = Literal["die", "card"]


def new_secret() -> bytes:
    """A fresh battle secret from the operating system's randomness (never from ``random``)."""
    return secrets.token_bytes(SECRET_BYTES)


def commitment(secret: bytes) -> str:
    """The lowercase hex SHA-256 of the secret: shown before the battle, it pins the dice down."""
    return hashlib.sha256(secret).hexdigest()


def byte_width(n: int) -> int:
    """The fewest bytes m with 256**m >= n (0 for n = 1: a one-card deck reads nothing)."""
    _check_range(n)
    width = 0
    while 256**width < n:
        width += 1
    return width


def accepted(value: int, n: int) -> int | None:
    """The result ``value`` (read as ``byte_width(n)`` big-endian bytes) gives, or None if rejected.

    The top ``256**m % n`` values are rejected so every result in 0..n-1 is hit by exactly
    ``256**m // n`` byte values: a plain ``value % n`` would favour the low results.
    """
    space = 256 ** byte_width(n)
    limit = space - space % n
    return value % n if value < limit else None


def _blocks(secret: bytes, k: int) -> Iterator[bytes]:
    j = 0
    while True:
        yield hmac.new(secret, f"{k}:{j}".encode("ascii"), hashlib.sha256).digest()
        j += 1


def uniform(secret: bytes, k: int, n: int) -> int:
    """Draw number ``k`` as a whole number in 0..n-1, every one exactly equally likely."""
    width = byte_width(n)
    blocks = _blocks(secret, k)
    block, position = next(blocks), 0
    while True:
        if BLOCK_BYTES - position < width:
            block, position = next(blocks), 0
        value = int.from_bytes(block[position : position + width], "big")
        position += width
        result = accepted(value, n)
        if result is not None:
            return result


def die(secret: bytes, k: int, sides: int) -> int:
    """Draw number ``k`` as a die of ``sides`` faces (2..1000), showing 1..sides."""
    if not MIN_SIDES <= sides <= MAX_SIDES:
        raise ValueError(f"a provable die has {MIN_SIDES} to {MAX_SIDES} sides, got {sides}")
    return uniform(secret, k, sides) + 1


def card_index(secret: bytes, k: int, count: int) -> int:
    """Draw number ``k`` as a position 0..count-1 among the deck's remaining cards."""
    if count < 1:
        raise ValueError(f"a card is drawn from at least one card, got {count}")
    return uniform(secret, k, count)


def _check_range(n: int) -> None:
    if not 1 <= n <= MAX_UNIFORM:
        raise ValueError(f"uniform draws are over 1 to 2**32 values, got {n}")


def _secret_from_hex(secret_hex: str) -> bytes:
    try:
        secret = bytes.fromhex(secret_hex.strip())
    except ValueError:
        raise ValueError("the secret is not written in hex digits") from None
    if len(secret) != SECRET_BYTES:
        raise ValueError(f"the secret is {SECRET_BYTES} bytes (64 hex digits), got {len(secret)} bytes")
    return secret


# --- the source engines use -----------------------------------------------------------------


@dataclass(frozen=True)
class Draw:
    """One draw as the log keeps it.

    ``size`` is the die's sides or the count of cards the card was drawn from; ``value`` is the
    die's face or the card's position (from 0) among those cards, which is what the secret fixes;
    ``card`` names the card turned, for people reading the log.
    """

    k: int
    kind: DrawKind
    size: int
    value: int
    reason: str
    card: str | None = None

    def to_data(self) -> dict[str, object]:
        """Plain data for JSON (a report, an export)."""
        data: dict[str, object] = {
            "k": self.k,
            "kind": self.kind,
            "size": self.size,
            "value": self.value,
            "reason": self.reason,
        }
        if self.card is not None:
            data["card"] = self.card
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> Draw:
        """A draw read back from a report or an export; a ValueError names what is wrong with it."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a draw is a mapping of k, kind, size and value, got {type(data).__name__}")
        absent = [key for key in ("k", "kind", "size", "value") if key not in data]
        if absent:
            raise ValueError(f"a draw has no {', '.join(absent)}")
        kind = data["kind"]
        if kind not in ("die", "card"):
            raise ValueError(f"a draw is a die or a card, got {kind!r}")
        card = data.get("card")
        return cls(
            k=_whole(data["k"]),
            kind="die" if kind == "die" else "card",
            size=_whole(data["size"]),
            value=_whole(data["value"]),
            reason=str(data.get("reason", "")),
            card=None if card is None else str(card),
        )

    def describe(self) -> str:
        """What the log says, in words: "d6 showing 4 (Bo's shot)"."""
        if self.kind == "die":
            said = f"d{self.size} showing {self.value}"
        else:
            named = f" ({self.card})" if self.card else ""
            said = f"card {self.value} of {self.size} left{named}"
        return f"{said} for {self.reason}" if self.reason else said


def _whole(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected a whole number, got {value!r}")
    return value


class ProvableDice:
    """A :class:`~rules.core.DiceSource` whose every result the battle's secret fixes.

    Holds the secret and the next draw number; :meth:`dump` and :meth:`load` carry both through
    a restart so the stream goes on where it stopped and never repeats a draw number.
    """

    def __init__(self, secret: bytes, next_draw: int = 0) -> None:
        if len(secret) != SECRET_BYTES:
            raise ValueError(f"a battle secret is {SECRET_BYTES} bytes, got {len(secret)}")
        if next_draw < 0:
            raise ValueError(f"draw numbers start at 0, got {next_draw}")
        self._secret = secret
        self.next_draw = next_draw
        self.draws: list[Draw] = []

    @classmethod
    def start(cls) -> ProvableDice:
        """A new battle's dice with a fresh secret."""
        return cls(new_secret())

    @property
    def commitment(self) -> str:
        return commitment(self._secret)

    def reveal(self) -> str:
        """The secret in hex: only for the end of the battle (and the database that keeps it)."""
        return self._secret.hex()

    def __repr__(self) -> str:  # the secret must not leak through a log line or an error
        return f"ProvableDice(commitment={self.commitment}, next_draw={self.next_draw})"

    def roll(self, sides: int, reason: str) -> int:
        value = die(self._secret, self.next_draw, sides)
        self._record(Draw(self.next_draw, "die", sides, value, reason))
        return value

    def draw(self, cards: Sequence[str], reason: str) -> str:
        if not cards:
            raise RuleError("The deck is empty.")
        index = card_index(self._secret, self.next_draw, len(cards))
        card = cards[index]
        self._record(Draw(self.next_draw, "card", len(cards), index, reason, card))
        return card

    def _record(self, entry: Draw) -> None:
        """Keep the draw and move on: a draw number is used once, even if the action is undone."""
        self.draws.append(entry)
        self.next_draw += 1

    def dump(self) -> dict[str, object]:
        """The state as plain data (secret in hex, next draw number) to resume after a restart."""
        return {"secret": self._secret.hex(), "next_draw": self.next_draw}

    @classmethod
    def load(cls, data: Mapping[str, object]) -> ProvableDice:
        secret_hex = data["secret"]
        if not isinstance(secret_hex, str):
            raise ValueError("the saved secret is not hex text")
        return cls(_secret_from_hex(secret_hex), _whole(data["next_draw"]))


# --- checking a log --------------------------------------------------------------------------


@dataclass(frozen=True)
class Mismatch:
    """The first draw of a log the secret does not give."""

    k: int
    said: str  # what the log says
    gives: str  # what the secret gives ("" when the draw is missing from the log)
    missing: bool = False


@dataclass(frozen=True)
class Verification:
    """What :func:`verify` found: the commitment, then the draws in order."""

    checked: int
    commitment_matches: bool
    mismatch: Mismatch | None
    problem: str | None = None  # the secret itself could not be read
    #: How many draws the battle made, as its report says, when the log lists fewer or more.
    drawn: int | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None and self.commitment_matches and self.mismatch is None and self.drawn is None

    def summary(self) -> str:
        """One or two plain sentences for the player who asked."""
        if self.problem is not None:
            return f"Cannot check: {self.problem}."
        lines = []
        if not self.commitment_matches:
            lines.append("The commitment does not match the secret: these are not the dice promised at the start.")
        if self.mismatch is not None:
            m = self.mismatch
            if m.missing:
                lines.append(f"Draw {m.k} is missing: the log goes on with {m.said}.")
            else:
                lines.append(f"Draw {m.k} does not match: the log says {m.said}; the secret gives {m.gives}.")
        elif self.drawn is not None:
            lines.append(_count_problem(self.checked, self.drawn))
        elif self.commitment_matches:
            lines.append(f"All {self.checked} dice and cards match.")
        else:
            lines.append(
                f"The {self.checked} dice and cards follow from the revealed secret, but it is not the committed one."
            )
        return "\n".join(lines)


def _count_problem(listed: int, drawn: int) -> str:
    """The sentence for a log that lists ``listed`` draws of a battle that made ``drawn``."""
    if listed > drawn:
        return f"The log lists {listed} draws, but the battle drew {drawn}: the count was changed."
    missing = f"Draw {listed} is" if listed == drawn - 1 else f"Draws {listed} to {drawn - 1} are"
    if listed == 0:
        return f"{missing} missing: the log lists none of the {drawn} the battle drew."
    return f"{missing} missing: the log ends at draw {listed - 1}, and the battle drew {drawn}."


def verify(secret_hex: str, commitment_hex: str, entries: Iterable[Draw], drawn: int | None = None) -> Verification:
    """Recompute a log of draws in order from the revealed secret and check the commitment.

    Draw numbers must run 0, 1, 2, … with none missing or repeated: a missing draw could hide a
    roll taken back and made again. With ``drawn``, the count of draws the battle made (its report
    and its end card say it), the log must hold exactly that many: draws cut off at the end, or
    all of them, are missing too.
    """
    try:
        secret = _secret_from_hex(secret_hex)
    except ValueError as exc:
        return Verification(0, False, None, problem=str(exc))
    matches = hmac.compare_digest(commitment(secret), commitment_hex.strip().lower())
    checked = 0
    for position, entry in enumerate(entries):
        if entry.k != position:
            said = f"draw {entry.k}, {entry.describe()}"
            return Verification(checked, matches, Mismatch(position, said, "", missing=True))
        gives = _recompute(secret, entry)
        if gives is not None:
            return Verification(checked, matches, Mismatch(entry.k, entry.describe(), gives))
        checked += 1
    if drawn is not None and drawn != checked:
        return Verification(checked, matches, None, drawn=drawn)
    return Verification(checked, matches, None)


def _recompute(secret: bytes, entry: Draw) -> str | None:
    """None when the secret gives what the entry says; else what it gives, in words."""
    try:
        if entry.kind == "die":
            value = die(secret, entry.k, entry.size)
            return None if value == entry.value else str(value)
        index = card_index(secret, entry.k, entry.size)
    except ValueError as exc:
        return f"no such draw ({exc})"
    return None if index == entry.value else f"card {index} of {entry.size} left"
