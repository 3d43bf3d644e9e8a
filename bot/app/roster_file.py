"""The ``sides:`` section of a roster or campaign file: figures out (as plain data) and in (checked).

Reading is pure: it takes the parsed file, the ruleset's engine, the figures the campaign keeps
now and who is importing, and returns a :class:`RosterPlan` (what to add, what to change, what is
already so) or the list of every problem, each with its line. Nothing is written here.

What import does with a figure the campaign already has (matched by name, ignoring capitals and
repeated spaces): it *updates* it to what the file says, so a player can export, edit and import
again. A figure keeps its side (import never moves one to another side), figures the file does not
name are left alone (import never deletes: /roster remove does), and a figure fighting in the
game in progress cannot be changed until /game end. ``status`` and ``history`` are the campaign's
record: left out, they stay as they are; only the game master may write them.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.app.access import BATTLES_MAX
from bot.app.inputs import NAME_MAX, clean_name
from bot.app.lookalike import look_alike
from bot.app.replies import Refusal
from bot.app.yaml_format import Doc, Flow, Path, check_plain, unknown_keys
from bot.dice import RecordingDice, RolledDie
from rules.core import Engine, Event, FigureSpec, RuleError, roster_entry, short

log = logging.getLogger("skirmish_gm.import")

FIGURE_KEYS = ("name", "kind", "stats", "status", "history")
KIND_MAX = 32
SIDE_MAX = 32
STATUS_MAX = 16
ACTIVE = "active"
_STATUS = re.compile(r"^[\w][\w \-]*$")


@dataclass(frozen=True)
class Kept:
    """A figure as the campaign keeps it now."""

    id: int
    name: str
    side: str
    kind: str
    stats: Mapping[str, Any]
    status: str
    history: Sequence[Any]
    owner_id: int
    in_game: bool = False


@dataclass(frozen=True)
class Importer:
    """Who imports: the game master may import for any side; a player only for their own."""

    user_id: int
    is_gm: bool
    side: str | None


@dataclass
class Entry:
    """One figure as the file describes it, checked by the ruleset."""

    name: str
    side: str
    kind: str
    stats: dict[str, Any]
    status: str | None  # None: not written (keep it, or "active" for a new figure)
    history: list[Any] | None  # None: not written
    owner: int | None  # None: not written (keep it, or the importer for a new figure)
    path: Path
    kept: Kept | None = None

    def final_status(self) -> str:
        return self.status if self.status is not None else (self.kept.status if self.kept else ACTIVE)

    def final_history(self) -> list[Any]:
        return self.history if self.history is not None else (list(self.kept.history) if self.kept else [])

    def final_owner(self, importer: Importer) -> int:
        return self.owner if self.owner is not None else (self.kept.owner_id if self.kept else importer.user_id)


@dataclass
class RosterPlan:
    new: list[Entry] = field(default_factory=list)
    changed: list[Entry] = field(default_factory=list)
    same: list[Entry] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    rolls: list[RolledDie] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.new) + len(self.changed) + len(self.same)


class _WouldRoll(Exception):
    """The ruleset asked for a die while checking a figure that was recruited long ago."""


class _NoDice:
    def roll(self, sides: int, reason: str) -> int:
        raise _WouldRoll(reason)

    def draw(self, cards: Sequence[str], reason: str) -> str:
        raise _WouldRoll(reason)


NO_DICE = _NoDice()


def fold(name: str) -> str:
    return " ".join(name.split()).casefold()


def _looks_like_another(
    doc: Doc,
    entry: Entry,
    earlier: Mapping[str, int | None],
    kept: Mapping[str, Kept],
    what: str,
    problems: list[str],
) -> bool:
    """Whether ``entry``'s name looks like another name in the campaign or earlier in the file
    without being it ("Rоssi" with a Cyrillic о, "Ｒossi"); a problem says which."""
    key = fold(entry.name)
    similar = look_alike(entry.name, (k.name for folded, k in kept.items() if folded != key))
    where = "already in this campaign"
    if similar is None:
        similar = look_alike(entry.name, (name for name in earlier if fold(name) != key))
        line = earlier.get(similar) if similar is not None else None
        where = f"earlier in this file (line {line})" if line is not None else "earlier in this file"
    if similar is None:
        return False
    problems.append(
        doc.at(
            (*entry.path, "name"),
            f"{short(entry.name)} looks like {short(similar)}, a {what} {where}: choose a name players can tell apart",
        )
    )
    return True


# --- out -----------------------------------------------------------------------------------------


def _check_history_entry(doc: Doc, path: Path, entry: Any, name: str, problems: list[str]) -> None:
    """History is the campaign's free record, but a wound that keeps a figure out is counted at
    /game start: its battle and its games out must be whole numbers."""
    if not isinstance(entry, Mapping) or "games_out" not in entry:
        return
    for key, low in (("battle", 1), ("games_out", 0)):
        value = entry.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= BATTLES_MAX:
            shown = "nothing" if key not in entry else _shown(value)
            problems.append(
                doc.at(
                    path + ((key,) if key in entry else ()),
                    f"{short(name)}'s history: {key} must be a whole number from {low} to {BATTLES_MAX}, not {shown}",
                )
            )


def _shown(value: Any) -> str:
    return short(str(value)) if isinstance(value, str) else repr(value)


def figure_data(
    name: str, kind: str, stats: Mapping[str, Any], status: str, history: Sequence[Any], owner: int | None = None
) -> dict[str, Any]:
    """A figure as a file writes it; what is at its default (no stats, active, no history) is left out."""
    out: dict[str, Any] = {"name": name, "kind": kind}
    if stats:
        simple = all(isinstance(v, (str, int, float, bool)) or v is None for v in stats.values())
        out["stats"] = Flow(stats) if simple and len(stats) <= 8 else dict(stats)
    if status != ACTIVE:
        out["status"] = status
    if history:
        out["history"] = list(history)
    if owner is not None:
        out["owner"] = owner
    return out


def sides_data(
    engine: Engine[Any], figures: Sequence[Kept], sides: Sequence[str] | None, with_owner: bool
) -> dict[str, list[dict[str, Any]]]:
    """``sides:`` for a file: the sides asked for (every side of the ruleset when None), in the
    ruleset's order, each with its figures in the order they joined; a figure on a side the
    ruleset no longer has (house rules renamed it) is written under its own side."""
    wanted = list(sides) if sides is not None else list(engine.sides())
    out: dict[str, list[dict[str, Any]]] = {side: [] for side in wanted}
    for f in sorted(figures, key=lambda f: f.id):
        if sides is not None and f.side not in wanted:
            continue
        out.setdefault(f.side, []).append(
            figure_data(f.name, f.kind, f.stats, f.status, f.history, f.owner_id if with_owner else None)
        )
    return out


# --- in ------------------------------------------------------------------------------------------


def read_sides(
    doc: Doc,
    path: Path,
    engine: Engine[Any],
    importer: Importer,
    kept: Sequence[Kept],
    dice: RecordingDice,
    problems: list[str],
    *,
    owners: set[int] | None = None,
    limit: int = 500,
) -> RosterPlan:
    """Check the figures under ``path`` (``sides:``) against the ruleset, the campaign and the
    importer's rights. ``owners``: the user ids a figure's ``owner`` may name (campaign files);
    None means the file may not name owners (roster files)."""
    plan = RosterPlan()
    section = doc.get(*path)
    if section is None:
        return plan
    if not isinstance(section, Mapping):
        problems.append(doc.at(path, "sides must be a mapping of each side to its list of figures"))
        return plan
    total = sum(len(v) for v in section.values() if isinstance(v, list))
    if total > limit:
        problems.append(doc.at(path, f"{total} figures is more than one import takes ({limit}); split the file"))
        return plan
    by_name = {fold(k.name): k for k in kept}
    seen: dict[str, int | None] = {}
    earlier: dict[str, int | None] = {}  # the names as written, for the look-alike check
    figure_keys = FIGURE_KEYS + (("owner",) if owners is not None else ())
    for side_key, figures in section.items():
        side_path = (*path, side_key)
        side = _side(doc, side_path, side_key, engine, importer, problems)
        if figures is None:
            continue
        if not isinstance(figures, list):
            problems.append(
                doc.at(side_path, f"the figures of {short(str(side_key))} must be a list (each starts with -)")
            )
            continue
        if side is None:
            continue
        for index, item in enumerate(figures):
            entry = _entry(doc, (*side_path, index), item, side, figure_keys, engine, importer, owners, problems)
            if entry is None:
                continue
            key = fold(entry.name)
            if key in seen:
                first = seen[key]
                where = f" (the first is on line {first})" if first is not None else ""
                problems.append(doc.at((*entry.path, "name"), f"a second figure called {short(entry.name)}{where}"))
                continue
            if _looks_like_another(doc, entry, earlier, by_name, roster_entry(engine), problems):
                continue
            seen[key] = earlier[entry.name] = doc.line(*entry.path, "name")
            entry.kept = by_name.get(key)
            _place(doc, entry, engine, importer, dice, plan, problems)
    return plan


def _side(doc: Doc, path: Path, key: Any, engine: Engine[Any], importer: Importer, problems: list[str]) -> str | None:
    wanted = " ".join(str(key).split()).casefold()
    side = next((s for s in engine.sides() if s.casefold() == wanted), None)
    if side is None:
        problems.append(doc.at(path, f"{short(str(key))} is not a side here: use {', '.join(engine.sides())}"))
        return None
    if not importer.is_gm and side != importer.side:
        mine = f"you play {importer.side}" if importer.side else "you play no side yet (/campaign join)"
        problems.append(doc.at(path, f"{mine}: only the game master may import figures for {side}"))
        return None
    return side


def _entry(
    doc: Doc,
    path: Path,
    item: Any,
    side: str,
    keys: Sequence[str],
    engine: Engine[Any],
    importer: Importer,
    owners: set[int] | None,
    problems: list[str],
) -> Entry | None:
    """The figure at ``path``, its shape checked (not yet by the ruleset)."""
    if not isinstance(item, Mapping):
        problems.append(doc.at(path, "each figure is a mapping with at least a name (name: Rossi)"))
        return None
    before = len(problems)
    unknown_keys(doc, path, item, keys, problems, "a figure")
    raw_name = doc.text(*path, "name")
    name = ""
    if raw_name is None:
        problems.append(doc.at(path, "a figure needs a name"))
    else:
        try:
            name = clean_name(raw_name, roster_entry(engine), NAME_MAX)
        except Refusal as exc:
            problems.append(doc.at((*path, "name"), exc.message))
    kind = doc.text(*path, "kind")
    if "kind" in item and item["kind"] is not None and kind is None:
        problems.append(doc.at((*path, "kind"), f"{short(name)}'s kind must be a word, not a list or mapping"))
    stats = item.get("stats")
    if stats is None:
        stats = {}
    elif not isinstance(stats, Mapping):
        problems.append(doc.at((*path, "stats"), f"{short(name)}'s stats must be a mapping (stats: {{speed: 6}})"))
        stats = {}
    else:
        check_plain(doc, (*path, "stats"), stats, problems, what="stats")
    status = _status(doc, path, item, name, problems)
    history = item.get("history")
    if history is not None and not isinstance(history, list):
        problems.append(doc.at((*path, "history"), f"{short(name)}'s history must be a list"))
        history = None
    elif history is not None:
        check_plain(doc, (*path, "history"), history, problems, what="history")
        for index, entry in enumerate(history):
            _check_history_entry(doc, (*path, "history", index), entry, name, problems)
    owner = _owner(doc, path, item, name, owners, problems)
    if len(problems) > before:
        return None
    return Entry(
        name=name,
        side=side,
        kind=" ".join((kind or "").split()),
        stats=dict(stats),
        status=status,
        history=history,
        owner=owner,
        path=path,
    )


def _status(doc: Doc, path: Path, item: Mapping[str, Any], name: str, problems: list[str]) -> str | None:
    if "status" not in item or item["status"] is None:
        return None
    status = doc.text(*path, "status")
    status = " ".join((status or "").split())
    if not status or len(status) > STATUS_MAX or not _STATUS.match(status):
        problems.append(
            doc.at(
                (*path, "status"),
                f"{short(name)}'s status must be a word or two of at most {STATUS_MAX} letters (active, dead …)",
            )
        )
        return None
    return status


def _owner(
    doc: Doc, path: Path, item: Mapping[str, Any], name: str, owners: set[int] | None, problems: list[str]
) -> int | None:
    if owners is None or item.get("owner") is None:
        return None
    owner = item["owner"]
    if isinstance(owner, bool) or not isinstance(owner, int):
        problems.append(doc.at((*path, "owner"), f"{short(name)}'s owner must be a member's user id (a number)"))
        return None
    if owner not in owners:
        problems.append(doc.at((*path, "owner"), f"{short(name)}'s owner {owner} is not a member of this campaign"))
        return None
    return owner


def _place(
    doc: Doc,
    entry: Entry,
    engine: Engine[Any],
    importer: Importer,
    dice: RecordingDice,
    plan: RosterPlan,
    problems: list[str],
) -> None:
    """Check the entry by the ruleset and against the figure the campaign keeps; file it in ``plan``."""
    kept = entry.kept
    if kept is not None and kept.side != entry.side:
        problems.append(
            doc.at(
                (*entry.path, "name"),
                f"{short(kept.name)} fights for {kept.side} in this campaign; "
                f"import does not move a figure to another side",
            )
        )
        return
    spec = FigureSpec(name=entry.name, side=entry.side, kind=entry.kind, stats=entry.stats)
    try:
        if kept is None:
            rolled_before = len(dice.rolled)
            outcome = engine.recruit(spec, dice)
            checked = outcome.state
            if len(dice.rolled) > rolled_before:
                plan.events.extend(outcome.events)
        else:
            # A figure already on the roster was recruited once: what the rules roll is rolled then
            # and never again, so a file that leaves a rolled stat out is refused (not re-rolled).
            checked = engine.recruit(spec, NO_DICE).state
    except _WouldRoll:
        problems.append(
            doc.at(
                (*entry.path, "stats") if "stats" in (doc.get(*entry.path) or {}) else (*entry.path, "name"),
                f"{short(entry.name)} lacks stats the rules roll once, at recruitment: "
                f"keep them as the export wrote them",
            )
        )
        return
    except RuleError as exc:
        problems.append(doc.at(_blame(doc, entry, exc.message), exc.message))
        return
    except Exception as exc:  # an engine that trips on odd data: the player gets a sentence, we get the log
        log.error("the %s engine failed on a figure being imported", engine.slug, exc_info=exc)
        problems.append(
            doc.at((*entry.path, "name"), f"the ruleset could not read {short(entry.name)}; check its kind and stats")
        )
        return
    entry.name = checked.name if kept is None else kept.name
    entry.kind, entry.stats = checked.kind, dict(checked.stats)
    if len(entry.kind) > KIND_MAX:
        problems.append(doc.at((*entry.path, "kind"), f"a kind is at most {KIND_MAX} characters"))
        return
    if not importer.is_gm and not _record_allowed(doc, entry, problems):
        return
    if entry.owner is not None and not importer.is_gm and entry.owner != (kept.owner_id if kept else importer.user_id):
        problems.append(doc.at((*entry.path, "owner"), "only the game master may give a figure to another player"))
        return
    if kept is None:
        plan.new.append(entry)
        return
    same = (
        entry.kind == kept.kind
        and entry.stats == dict(kept.stats)
        and entry.final_status() == kept.status
        and entry.final_history() == list(kept.history)
        and entry.final_owner(importer) == kept.owner_id
    )
    if same:
        plan.same.append(entry)
        return
    if kept.in_game:
        problems.append(
            doc.at((*entry.path, "name"), f"{short(kept.name)} is in the game in progress: change it after /game end")
        )
        return
    plan.changed.append(entry)


def _record_allowed(doc: Doc, entry: Entry, problems: list[str]) -> bool:
    """A player may not write a figure's record (status, history): the game keeps it."""
    kept = entry.kept
    ok = True
    if entry.status is not None and entry.status != (kept.status if kept else ACTIVE):
        was = kept.status if kept else ACTIVE
        problems.append(
            doc.at(
                (*entry.path, "status"),
                f"only the game master may change {short(entry.name)}'s status ({was} → {entry.status})",
            )
        )
        ok = False
    if entry.history is not None and entry.history != (list(kept.history) if kept else []):
        problems.append(
            doc.at((*entry.path, "history"), f"only the game master may change {short(entry.name)}'s history")
        )
        ok = False
    return ok


def _blame(doc: Doc, entry: Entry, message: str) -> Path:
    """The line a ruleset's refusal most likely means: a stat it names, the kind it quotes, else the name."""
    low = message.casefold().replace(f"“{entry.name.casefold()}”", "")
    stats = doc.get(*entry.path, "stats")
    if isinstance(stats, Mapping):
        for key in stats:
            if isinstance(key, str) and re.search(rf"(?<!\w){re.escape(key.casefold())}(?!\w)", low):
                return (*entry.path, "stats", key)
        for key, value in stats.items():
            if isinstance(value, str) and len(value) > 1 and value.casefold() in low:
                return (*entry.path, "stats", key)
    kind = doc.text(*entry.path, "kind")
    if kind and kind.casefold() in low:
        return (*entry.path, "kind")
    if isinstance(stats, Mapping) and "stat" in low:
        return (*entry.path, "stats")
    return (*entry.path, "name")
