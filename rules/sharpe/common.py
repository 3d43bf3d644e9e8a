"""What every Sharpe module shares: the context of one action, figure lookups, the words of wounds
and modifiers."""

from __future__ import annotations

from typing import Any

from rules import words
from rules.core import Context, RuleError, find_figure
from rules.sharpe.schema import SharpeTables
from rules.sharpe.state import Character, Contact, Gun, SharpeState

D6 = 6
PART_WORDS = {
    "legs": "legs",
    "abdomen": "abdomen",
    "left_arm": "left arm",
    "right_arm": "right arm",
    "chest": "chest",
    "head": "head",
}
SEVERITY_WORDS = {
    "none": "no effect",
    "light": "light wound",
    "serious": "serious wound",
    "kill": "kill",
    "knockout": "knocked out",
}


class Ctx(Context[SharpeState, SharpeTables]):
    """One action being applied (:class:`rules.core.Context`), with Sharpe's lookups."""

    #: ``state.ended_itself`` as the action found it (the state's own is cleared by every action).
    ended_itself: str = ""

    @property
    def bound(self) -> int:
        return self.state.bound

    def d6(self, reason: str) -> int:
        return self.dice.roll(D6, reason)

    def two_d6(self, reason: str) -> tuple[int, int]:
        return self.dice.roll(D6, f"{reason} (1 of 2)"), self.dice.roll(D6, f"{reason} (2 of 2)")

    # --- figures

    def character(self, wanted: Any) -> Character:
        if not isinstance(wanted, str) or not wanted.strip():
            raise RuleError("Name a character.")
        names = [c.name for c in self.state.characters] + [g.name for g in self.state.guns]
        name = find_figure(names, wanted)
        for ch in self.state.characters:
            if ch.name == name:
                return ch
        raise RuleError(f"{name} is an artillery piece, not a character: name one of its crew.")

    def gun(self, wanted: Any) -> Gun:
        if not isinstance(wanted, str) or not wanted.strip():
            raise RuleError("Name the artillery piece.")
        names = [c.name for c in self.state.characters] + [g.name for g in self.state.guns]
        name = find_figure(names, wanted)
        for gun in self.state.guns:
            if gun.name == name:
                return gun
        raise RuleError(f"{name} is a character, not an artillery piece.")

    def get(self, name: str) -> Character:
        return next(c for c in self.state.characters if c.name == name)

    def enemy(self, actor: Character, wanted: Any, doing: str) -> Character:
        target = self.character(wanted)
        if target.side == actor.side:
            raise RuleError(f"{target.name} is on {actor.name}'s own side: {doing} an enemy.")
        if target.out:
            raise RuleError(f"{target.name} is out of action already.")
        return target

    # --- contacts

    def contacts_of(self, name: str) -> list[Contact]:
        return [c for c in self.state.contacts if name in (c.a, c.b)]

    def contact(self, a: str, b: str) -> Contact | None:
        return next((c for c in self.state.contacts if {c.a, c.b} == {a, b}), None)

    def touch(self, a: str, b: str, *, locked: bool | None = None) -> Contact:
        found = self.contact(a, b)
        if found is None:
            found = Contact(a, b, self.bound)
            self.state.contacts.append(found)
        if locked is not None:
            found.locked = locked
        return found

    def part(self, a: str, b: str) -> None:
        self.state.contacts = [c for c in self.state.contacts if {c.a, c.b} != {a, b}]

    def part_all(self, name: str, *, keep_locked: bool = False) -> None:
        self.state.contacts = [c for c in self.state.contacts if name not in (c.a, c.b) or (keep_locked and c.locked)]

    def other(self, contact: Contact, name: str) -> str:
        return contact.b if contact.a == name else contact.a


def mods_text(mods: list[tuple[str, int]]) -> str:
    return "".join(f" {words.signed(v)} {label}" for label, v in mods if v)
