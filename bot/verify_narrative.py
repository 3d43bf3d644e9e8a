"""The dice a battle report's narrative shows, checked against its dice block.

The report shows every die and card on a line of its own under the action that rolled it
(:func:`bot.render.report.drawn_line`): ``🎲 d6 → **4** — Rita: shot · `draw 17` ``, or
``🂠 **AH** — the turn card · `draw 3` ``, struck through when the action was taken back. The
tag is the draw's number in the battle's stream, so each line is found in the dice block and must
say what the block says: the die's size and face (or the card), and the reason. Every draw of the
block is shown once. A change in the narrative alone, or in the block alone, fails; the block's
own draws are checked against the secret by :func:`bot.provable.verify`.

A line without a tag is a die that drew nothing (a d1 shows 1) or one that did not come from the
secret (dice forced or seeded at the terminal: the report says so, and verify does not pass it).

Only a whole die or card line counts as one: a line that merely begins like one is an event (a
figure may be named "🎲 Lucky"), whose words are the rules' and are not checked. A die line changed
into something else is no longer one, so its draw is missing from the narrative, and that fails.
Lines are split on line feeds only, as the report writes them, so a line separator inside an old
name cannot make a line of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from bot.provable import Draw

#: What the narrative's die and card lines look like, struck through (``~~…~~``) or not. A
#: player's text is escaped in a report, so an unescaped ``**`` or backtick comes from the report.
_DIE = re.compile(r"🎲 d(\d+) → \*\*(\d+)\*\* — (.*?)(?: · `draw (\d+)`)?")
_CARD = re.compile(r"🂠 \*\*(.+?)\*\* — (.*?)(?: · `draw (\d+)`)?")
_ESCAPE = re.compile(r"\\(.)", re.S)


@dataclass(frozen=True)
class ShownDraw:
    """A die or card as a line of the narrative shows it (the text unescaped)."""

    line: int
    kind: str
    size: int | None
    value: str
    reason: str
    k: int | None

    def describe(self) -> str:
        said = f"d{self.size} showing {self.value}" if self.kind == "die" else f"card {self.value}"
        return f"{said} for {self.reason}" if self.reason else said


def plain(text: str) -> str:
    """Text as the report escaped it, unescaped, on one line."""
    return " ".join(_ESCAPE.sub(r"\1", text).split())


def shown_draws(narrative: str) -> Iterator[ShownDraw]:
    """Each die and card line of the narrative, with its line number."""
    for number, line in enumerate(narrative.split("\n"), 1):
        line = line.rstrip()
        if not line.startswith("- "):
            continue
        body = line[2:]
        if body.startswith("~~") and body.endswith("~~") and len(body) > 4:
            body = body[2:-2]
        die, card = _DIE.fullmatch(body), _CARD.fullmatch(body)
        if die is not None:
            sides, face, reason, k = die.groups()
            yield ShownDraw(number, "die", int(sides), face, plain(reason), None if k is None else int(k))
        elif card is not None:
            name, reason, k = card.groups()
            yield ShownDraw(number, "card", None, plain(name), plain(reason), None if k is None else int(k))


def narrative_problem(narrative: str, draws: Sequence[Draw], provable: bool) -> str | None:
    """The first thing the narrative shows that its dice block does not say, in a sentence; None
    when every die and card shown is a draw of the block, shown once, and every draw is shown.

    ``provable``: every die of the battle came from the secret (nothing forced or seeded), so a die
    line without a draw number can only be a d1."""
    shown = list(shown_draws(narrative))
    by_k = {draw.k: draw for draw in draws}
    seen: dict[int, int] = {}
    for line in shown:
        if line.k is None:
            if provable and not (line.kind == "die" and line.size == 1 and line.value == "1"):
                return f"line {line.line} shows {line.describe()} with no draw number: the dice block does not list it."
            continue
        if line.k in seen:
            return f"the narrative shows draw {line.k} twice (lines {seen[line.k]} and {line.line})."
        seen[line.k] = line.line
        draw = by_k.get(line.k)
        if draw is None:
            return f"the narrative shows draw {line.k} (line {line.line}), which the dice block does not list."
        if not _same(line, draw):
            return (
                f"draw {line.k} does not match: the narrative shows {line.describe()} (line {line.line}); "
                f"the dice block has {draw.describe()}."
            )
    for draw in draws:
        if draw.k not in seen:
            return f"draw {draw.k} is not shown in the narrative: the dice block has {draw.describe()}."
    return None


def _same(line: ShownDraw, draw: Draw) -> bool:
    if line.reason != " ".join(draw.reason.split()):
        return False
    if draw.kind == "card":
        return line.kind == "card" and line.value == " ".join((draw.card or "").split())
    return line.kind == "die" and line.size == draw.size and line.value == str(draw.value)
