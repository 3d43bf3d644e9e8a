"""``skirmish-gm verify FILE``: check every die and card of a battle report or a campaign export.

A battle report (``/game report``, ``battle-N.md``) carries its dice after a marked heading as a
JSON block; a campaign export (``/campaign export``) carries a ``dice:`` list of the same
documents, one per finished battle and per revealed stream of free rolls. Each document is checked
on its own with :func:`bot.provable.verify`: the commitment against the secret, then every draw in
order, and that the document lists as many draws as it says the battle made (``drawn``: the end
card says it too), so draws cut off at the end are missing, not passed. A report's narrative is
checked against its dice block too (:mod:`bot.verify_narrative`): each die and card it shows,
with its size, face and reason. A battle whose dice were seeded or forced at the terminal, one
begun before provable dice, one still in progress and a document older than the count of draws
are reported as such, never as checked.

Files are read with bounds, so a hostile one gets a sentence, never a traceback: nesting deeper
than :data:`NESTING_LIMIT` is refused before anything recursive reads it (JSON by counting
brackets, YAML as it is composed), and so is a file that lists more than :data:`DRAWS_LIMIT` draws
(YAML aliases can repeat a list many times over).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import Node

from bot.app.reports import REPORT_MAX_BYTES
from bot.provable import Draw, verify
from bot.render.report import DICE_MARK
from bot.verify_narrative import narrative_problem

FILE_LIMIT = 64 * 2**20
#: No report or export nests deeper than a few levels; deeper is refused before it is parsed.
NESTING_LIMIT = 40
#: More draws than any campaign makes: a file listing more is refused rather than checked for hours.
DRAWS_LIMIT = 1_000_000

FENCE = "```"
JSON_FENCE = FENCE + "json"
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
#: Every byte but the four brackets, for ``bytes.translate`` to drop (UTF-8's multi-byte characters too).
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_DEPTH_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


@dataclass(frozen=True)
class Checked:
    """What one document's check found, in a sentence, and whether it proves the dice."""

    title: str
    ok: bool
    said: str
    #: The commitment the document gives, to compare with the one shown when its dice began, and
    #: the card that showed it.
    commitment: str | None = None
    shown_on: str = "the battle's start card"
    #: The count of draws the document says the stream made, to compare with the card that said it.
    drawn: int | None = None
    counted_on: str = "its end card"

    def lines(self) -> list[str]:
        said = [f"{self.title}: {self.said}"]
        if self.commitment:
            count = "" if self.drawn is None else f", and the {self.drawn} draws with {self.counted_on}"
            said.append(f"  Commitment {self.commitment}: compare it with {self.shown_on}{count}.")
        return said


class UnreadableFile(Exception):
    """The file holds no dice this command can read; the message says why."""


def _block(text: str, mark: int) -> tuple[int, int] | None:
    """Where the JSON of a report's dice block starts and ends (its fences left out), after ``mark``."""
    start = text.find(JSON_FENCE, mark)
    end = text.find(FENCE, start + len(JSON_FENCE)) if start >= 0 else -1
    return None if end < 0 else (start + len(JSON_FENCE), end)


def narrative_of(text: str) -> str | None:
    """A report's narrative, to check against its dice block: all of it but the dice block, whose
    lines are left blank so each line keeps its number (a die line written after the block is read
    too). None for a campaign export, which has none."""
    mark = text.find(DICE_MARK)
    if mark < 0:
        return None
    block = _block(text, mark)
    if block is None:
        return text[:mark]
    end = block[1] + len(FENCE)
    return text[:mark] + "\n" * text.count("\n", mark, end) + text[end:]


def documents_in(text: str) -> list[Mapping[str, Any]]:
    """The dice documents of a report (its marked JSON block) or of a campaign export (its ``dice``)."""
    mark = text.find(DICE_MARK)
    if mark >= 0:
        found = _block(text, mark)
        if found is None:
            raise UnreadableFile("the report's dice section has no complete JSON block")
        block = text[found[0] : found[1]]
        if len(block) > REPORT_MAX_BYTES:
            raise UnreadableFile(f"its dice block is larger than {REPORT_MAX_BYTES // 2**20} MiB, as no report's is")
        if json_depth(block) > NESTING_LIMIT:
            raise UnreadableFile(f"its dice block nests deeper than {NESTING_LIMIT} levels, as no report does")
        try:
            document = json.loads(block)
        except ValueError as exc:
            raise UnreadableFile(f"the report's dice block is not valid JSON ({exc})") from None
        return _bounded([_document(document)])
    if "## Dice" in text:
        raise UnreadableFile(
            "this report lists no draws: its battle is still in progress or began before provable dice"
        )
    data = _yaml(text)
    if not isinstance(data, dict) or "dice" not in data:
        raise UnreadableFile("it is neither a battle report nor a campaign export with dice")
    listed = data["dice"]
    if not isinstance(listed, list):
        raise UnreadableFile("its `dice` is not a list")
    return _bounded([_document(d) for d in listed])


def json_depth(text: str) -> int:
    """How deep JSON text nests its lists and objects, counted without parsing it (brackets in
    strings left out), so a hostile file cannot make the parser recurse."""
    brackets = _JSON_STRING.sub("", text).encode("utf-8", "replace").translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)


class _TooDeep(Exception):
    pass


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing nesting deeper than :data:`NESTING_LIMIT` as it composes (its
    composer recurses once a level; its scanner and parser do not)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.depth = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        self.depth += 1
        try:
            if self.depth > NESTING_LIMIT:
                raise _TooDeep
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def _yaml(text: str) -> Any:
    loader = _BoundedLoader(text)
    try:
        return loader.get_single_data()
    except _TooDeep:
        raise UnreadableFile(f"it nests deeper than {NESTING_LIMIT} levels, as no export does") from None
    except yaml.YAMLError:
        raise UnreadableFile("it is neither a battle report nor a campaign export") from None
    finally:
        loader.dispose()


def _bounded(documents: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    listed = sum(len(d["draws"]) for d in documents if isinstance(d.get("draws"), list))
    if listed > DRAWS_LIMIT:
        raise UnreadableFile(f"it lists {listed:,} draws, more than the {DRAWS_LIMIT:,} any campaign makes")
    return documents


def _document(value: Any) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise UnreadableFile("a dice entry is not a mapping")
    return value


def title_of(document: Mapping[str, Any]) -> str:
    if document.get("free_rolls"):
        return f"Free rolls (stream {document.get('stream', '?')})"
    return f"Battle {document.get('battle', '?')}"


def check(document: Mapping[str, Any], narrative: str | None = None) -> Checked:
    """One battle's (or one free-roll stream's) dice checked against its revealed secret and the
    count of draws it says the stream made; with ``narrative`` (a report's), every die and card it
    shows checked against the dice block."""
    title = title_of(document)
    commitment, secret, note = document.get("commitment"), document.get("secret"), document.get("note")
    free = bool(document.get("free_rolls"))
    if commitment is None:
        return Checked(title, False, "began before provable dice: its dice cannot be checked.")
    if secret is None:
        return Checked(title, False, "its secret is not revealed yet (the battle goes on): nothing to check.")
    listed = document.get("draws") or []
    if not isinstance(listed, list):
        return Checked(title, False, "its `draws` is not a list.")
    draws = []
    for position, data in enumerate(listed):
        try:
            draws.append(Draw.from_data(data))
        except (KeyError, TypeError, ValueError) as exc:
            return Checked(title, False, f"draw {position} cannot be read: {exc}.")
    shown_on = "the first free roll's card" if free else "the battle's start card"
    counted = "drawn" in document
    drawn = document.get("drawn")
    if counted and (isinstance(drawn, bool) or not isinstance(drawn, int) or drawn < 0):
        return Checked(
            title, False, f"its count of draws is not a whole number ({drawn!r}).", str(commitment), shown_on
        )
    counted_on = "the card that revealed them" if free else "its end card"
    result = verify(str(secret), str(commitment), draws, drawn=drawn if counted else None)
    said = _lowered(result.summary())

    def checked(ok: bool, said: str) -> Checked:
        return Checked(title, ok, said, str(commitment), shown_on, drawn if counted else None, counted_on)

    if result.ok and narrative is not None and counted:
        problem = narrative_problem(narrative, draws, provable=note is None)
        if problem is not None:
            return checked(False, problem)
    if note == "seeded":
        # A battle seeded from its first roll logs no draw of the secret: "all 0 … match" would read as a pass.
        tail = f" {said}" if draws else " None of them can be checked."
        return checked(False, f"its dice were seeded at the terminal, not drawn from the secret.{tail}")
    if note == "forced":
        return checked(False, f"some of its dice were forced at the terminal and cannot be checked. {said}")
    if result.ok and not counted:
        again = "/campaign export" if free else "/game report"
        return checked(
            False,
            f"it does not say how many draws {'the stream' if free else 'the battle'} made (it was written "
            f"before {'exports' if free else 'reports'} said so), so draws cut off at its end would not show: "
            f"it proves nothing. Ask for {again} again for a copy that says it.",
        )
    return checked(result.ok, said)


def _lowered(summary: str) -> str:
    """A summary of :func:`bot.provable.verify` as the rest of a line that names the document."""
    said = summary.replace("\n", " ")
    return said[:1].lower() + said[1:]


def verify_file(path: Path) -> tuple[int, list[str]]:
    """The exit status (0: every document proves its dice) and the lines that say so: a line per
    document, each followed by the commitment it was checked against."""
    try:
        if path.stat().st_size > FILE_LIMIT:
            return 2, [f"{path.name} is larger than {FILE_LIMIT // 2**20} MiB: not a report or an export."]
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return 2, [f"Cannot read {path}: {exc}."]
    try:
        documents = documents_in(text)
    except UnreadableFile as exc:
        return 2, [f"Cannot check {path.name}: {exc}."]
    if not documents:
        return 2, [f"{path.name} holds no dice to check."]
    narrative = narrative_of(text)
    results = [check(d, narrative) for d in documents]
    return (0 if all(r.ok for r in results) else 1), [line for r in results for line in r.lines()]
