"""Small helpers every ruleset shares: words and plurals, reading the options a player typed, and
matching the names a player typed against the names in a game.

A refusal is always a :class:`RuleError` whose sentence the calling ruleset writes: these helpers
check and convert; they do not decide how a ruleset speaks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rules.vocabulary import RuleError

#: The words a yes/no option takes (any case).
YES = frozenset({"yes", "y", "true", "1", "on"})
NO = frozenset({"no", "n", "false", "0", "off"})


# --- words -------------------------------------------------------------------------------------


def short(text: str, limit: int = 40) -> str:
    """A user-supplied name, quoted and cut, for safe use inside an error sentence."""
    text = " ".join(str(text).split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"“{text}”"


def plural(count: int, one: str, many: str = "") -> str:
    """``1 die``, ``3 dice``: the count and the word it needs (``many`` when not ``one`` + s)."""
    return f"{count} {one}" if count == 1 else f"{count} {many or one + 's'}"


def joined(items: Sequence[str], last: str = "and") -> str:
    """``a, b and c`` (or ``a, b or c``)."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def inches(value: float) -> str:
    """A distance as players write it: ``4″``, ``2.5″``."""
    return f"{round(value, 4):g}″"


def measured(value: float) -> str:
    """A distance the bot measured, to a tenth of an inch: ``3.8″``."""
    return f"{value:.1f}″"


def measured_against(value: float, limit: float) -> str:
    """A measure that decided a comparison with ``limit``: in tenths (``24.3″``), or with as many more
    digits as it takes to read apart from the limit (``24.04″`` against a reach of 24″), so that the
    sentence shows why the bot refused."""
    for places in range(1, 7):
        text = f"{value:.{places}f}"
        if text != f"{limit:.{places}f}":
            return f"{text}″"
    return f"{value:.6f}″"


COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east")


def heading(degrees: float) -> str:
    """A facing as a player reads it: the nearest of eight compass points, then the whole degrees
    the bot holds (0 east, 90 north, counter-clockwise): ``east (357°)``."""
    whole_degrees = math.floor(degrees + 0.5) % 360
    return f"{COMPASS[math.floor(((degrees % 360.0) + 22.5) / 45.0) % 8]} ({whole_degrees}°)"


def signed(value: int) -> str:
    """A modifier with its sign: ``+1``, ``−2`` (a true minus sign)."""
    return f"+{value}" if value >= 0 else f"−{abs(value)}"


def possessive(name: str) -> str:
    """``Chasseurs'``, ``33rd Foot's``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def column_name(x: int) -> str:
    """A grid column as a map names it: A … Z, then AA … (``x`` counts from 0)."""
    name = ""
    x += 1
    while x:
        x, rem = divmod(x - 1, 26)
        name = chr(65 + rem) + name
    return name


# --- options a player typed --------------------------------------------------------------------


def blank(value: Any) -> bool:
    """Not given: None, or text of nothing but spaces."""
    return value is None or (isinstance(value, str) and not value.strip())


def number(value: Any, message: str, *, lowest: float = -math.inf, highest: float = math.inf) -> float:
    """A finite number from ``lowest`` to ``highest``, else a RuleError with ``message``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RuleError(message)
    if not lowest <= value <= highest:
        raise RuleError(message)
    return float(value)


def whole(value: Any, message: str, *, lowest: int | None = None, highest: int | None = None) -> int:
    """A whole number (``3.0`` counts), within the bounds when given, else a RuleError with ``message``."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(message)
    if (lowest is not None and value < lowest) or (highest is not None and value > highest):
        raise RuleError(message)
    return value


def flag(value: Any, message: str) -> bool:
    """A yes/no option: True/False, or one of :data:`YES` / :data:`NO`; not given is no."""
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    text = str(value).strip().casefold()
    if text in YES:
        return True
    if text in NO:
        return False
    raise RuleError(message)


def option_key(text: str) -> str:
    """An option's value as a key: ``"Left Arm"`` → ``"left_arm"``."""
    return "_".join(str(text).split()).casefold()


def choice(value: Any, allowed: Iterable[str], message: str, *, key: Callable[[str], str] = option_key) -> str:
    """The entry of ``allowed`` that ``value`` names (compared by ``key``), else a RuleError with ``message``."""
    wanted = key(str(value))
    for entry in allowed:
        if key(entry) == wanted:
            return entry
    raise RuleError(message)


def names_list(value: Any) -> list[str]:
    """``"Dubois, Leclerc and Martin"`` as names (commas, semicolons or 'and' between them)."""
    if blank(value):
        return []
    text = str(value).replace(";", ",").replace(" and ", ",")
    return [part.strip() for part in text.split(",") if part.strip()]


# --- names -------------------------------------------------------------------------------------


def fold(text: object) -> str:
    """A name or word a player typed, as every ruleset compares it: its letters and digits only, in
    any case, so ``"Small_Shield"``, ``"small-shield"``, ``"small shield"`` and ``"SMALLSHIELD"``
    are one. Names kept in one game must fold apart (:func:`unique_names`)."""
    return "".join(ch for ch in str(text).casefold() if ch.isalnum())


def name_key(text: str) -> str:
    """A name as compared: :func:`fold`."""
    return fold(text)


def match_name(names: Iterable[str], wanted: Any, *, key: Callable[[str], str] = name_key) -> str | None:
    """The entry of ``names`` that ``wanted`` means (compared by ``key``), or None."""
    if not isinstance(wanted, str):
        return None
    folded = key(wanted)
    return next((name for name in names if key(name) == folded), None)


def same_name(a: str | None, b: str | None) -> bool:
    """Whether two names (a side typed by a player, a side in the game) are the same, any case."""
    return a is not None and b is not None and name_key(a) == name_key(b)


def find_name(names: Sequence[str], wanted: str, what: str = "figure") -> str:
    """The one name in ``names`` that ``wanted`` means (exact, then case-insensitive), else a RuleError."""
    if wanted in names:
        return wanted
    folded = [n for n in names if fold(n) == fold(wanted)]
    if len(folded) == 1:
        return folded[0]
    raise RuleError(f"There is no {what} called {short(wanted)} in this game.")


def unique_names(names: Iterable[str], what: str = "figure") -> None:
    """A RuleError when two names fold alike (:func:`fold`): players must tell every one apart."""
    seen: set[str] = set()
    for name in names:
        if fold(name) in seen:
            raise RuleError(f"Two {what}s are called {short(name)}: give each {what} its own name.")
        seen.add(fold(name))


def find_figure(names: Sequence[str], wanted: str) -> str:
    """The one figure in ``names`` that ``wanted`` means (exact, then case-insensitive)."""
    return find_name(names, wanted, "figure")
