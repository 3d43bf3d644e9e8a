"""``skirmish-gm verify FILE``: check every die and card of a battle report or a campaign export.

A battle report (``/game report``, ``battle-N.md``) carries its dice after a marked heading as a
JSON block; a campaign export (``/campaign export``) carries a ``dice:`` list of the same
documents, one per finished battle and per revealed stream of free rolls. Each document is checked
on its own with :func:`bot.provable.verify`: the commitment against the secret, then every draw in
order. A battle whose dice were seeded or forced at the terminal, one begun before provable dice,
and one still in progress are reported as such, never as checked.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from bot.provable import Draw, verify
from bot.render.report import DICE_MARK

FILE_LIMIT = 64 * 2**20


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

    def lines(self) -> list[str]:
        said = [f"{self.title}: {self.said}"]
        if self.commitment:
            said.append(f"  Commitment {self.commitment}: compare it with {self.shown_on}.")
        return said


class UnreadableFile(Exception):
    """The file holds no dice this command can read; the message says why."""


def documents_in(text: str) -> list[Mapping[str, Any]]:
    """The dice documents of a report (its marked JSON block) or of a campaign export (its ``dice``)."""
    if DICE_MARK in text:
        after = text.split(DICE_MARK, 1)[1]
        start = after.find("```json")
        end = after.find("```", start + 7)
        if start < 0 or end < 0:
            raise UnreadableFile("the report's dice section has no complete JSON block")
        try:
            document = json.loads(after[start + 7 : end])
        except ValueError as exc:
            raise UnreadableFile(f"the report's dice block is not valid JSON ({exc})") from None
        return [_document(document)]
    if "## Dice" in text:
        raise UnreadableFile(
            "this report lists no draws: its battle is still in progress or began before provable dice"
        )
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        raise UnreadableFile("it is neither a battle report nor a campaign export") from None
    if not isinstance(data, dict) or "dice" not in data:
        raise UnreadableFile("it is neither a battle report nor a campaign export with dice")
    listed = data["dice"]
    if not isinstance(listed, list):
        raise UnreadableFile("its `dice` is not a list")
    return [_document(d) for d in listed]


def _document(value: Any) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise UnreadableFile("a dice entry is not a mapping")
    return value


def title_of(document: Mapping[str, Any]) -> str:
    if document.get("free_rolls"):
        return f"Free rolls (stream {document.get('stream', '?')})"
    return f"Battle {document.get('battle', '?')}"


def check(document: Mapping[str, Any]) -> Checked:
    """One battle's (or one free-roll stream's) dice checked against its revealed secret."""
    title = title_of(document)
    commitment, secret, note = document.get("commitment"), document.get("secret"), document.get("note")
    if commitment is None:
        return Checked(title, False, "began before provable dice: its dice cannot be checked.")
    if secret is None:
        return Checked(title, False, "its secret is not revealed yet (the battle goes on): nothing to check.")
    try:
        draws = [Draw.from_data(d) for d in document.get("draws") or []]
    except (KeyError, TypeError, ValueError) as exc:
        return Checked(title, False, f"a draw cannot be read ({exc}).")
    result = verify(str(secret), str(commitment), draws)
    said = result.summary().replace("\n", " ")
    said = said[:1].lower() + said[1:]
    shown = str(commitment), "the first free roll's card" if document.get("free_rolls") else "the battle's start card"
    if note == "seeded":
        # A battle seeded from its first roll logs no draw of the secret: "all 0 … match" would read as a pass.
        checked = f" {said}" if draws else " None of them can be checked."
        return Checked(
            title, False, f"its dice were seeded at the terminal, not drawn from the secret.{checked}", *shown
        )
    if note == "forced":
        return Checked(
            title, False, f"some of its dice were forced at the terminal and cannot be checked. {said}", *shown
        )
    return Checked(title, result.ok, said, *shown)


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
    results = [check(d) for d in documents]
    return (0 if all(r.ok for r in results) else 1), [line for r in results for line in r.lines()]
