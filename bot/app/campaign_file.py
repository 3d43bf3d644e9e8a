"""The parts of roster and campaign files other than the figures: the header, members, settings,
and house rules (checked by building the ruleset's engine with them)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.app.access import BATTLES_BEFORE, BATTLES_MAX
from bot.app.battlefield import BATTLEFIELD, MAP_DRAFT, battlefield_problem, draft_problems
from bot.app.inputs import CAMPAIGN_NAME_MAX, clean_name
from bot.app.pace import pace_problem
from bot.app.replies import Refusal
from bot.app.roster_file import SIDE_MAX, Kept
from bot.app.sole_choice import ASK_SWITCH
from bot.app.switches import package_of, show
from bot.app.yaml_format import (
    Doc,
    Path,
    check_plain,
    place_data_problems,
    plural,
    unknown_keys,
)
from rules import RULESETS, get_engine
from rules.core import DataError, Engine, FigureSpec, RuleError, merge, short
from rules.tables import base_tables

log = logging.getLogger("skirmish_gm.import")

FORMAT_KEY = "skirmish_gm"
VERSION = 1
ROSTER_KEYS = (FORMAT_KEY, "version", "ruleset", "campaign", "sides")
#: ``dice`` is what ``skirmish-gm verify`` checks (each finished battle's dice); an import skips it.
CAMPAIGN_KEYS = (FORMAT_KEY, "version", "ruleset", "name", "settings", "house_rules", "members", "sides", "dice")
MEMBER_KEYS = ("user", "name", "role", "side")
ROLES = ("gm", "player")
#: Discord's ids are 64-bit: a larger number is no member (and no row of the database).
USER_ID_MAX = 2**63 - 1
#: Where ``/campaign rules set`` keeps the file as the game master wrote it (comments and all),
#: so ``/campaign rules show`` hands it back as it came. Not exported among the settings.
HOUSE_RULES_TEXT = "house_rules_yaml"
OUTSIDE = "in the ruleset's own tables, with these house rules laid over them"

#: The largest number a house rule may write (the published tables' largest is 180): beyond it
#: a count or a distance is no rule, and could only stall the rules that loop or measure by it.
RULE_NUMBER_MAX = 10_000

#: Checks for campaign settings other features keep (a deadline, a between-battles choice): a
#: feature registers ``key -> check(value) -> problem or None`` so an imported campaign file is
#: held to the same rules as the command that sets the value.
SettingCheck = Callable[[Any], "str | None"]


def _check_battles_before(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= BATTLES_MAX:
        return f"must be a whole number from 0 to {BATTLES_MAX}, not {short(repr(value))}"
    return None


def _check_switch(value: Any) -> str | None:
    return None if isinstance(value, bool) else f"must be yes or no, not {short(str(value))}"


SETTING_CHECKS: dict[str, SettingCheck] = {
    BATTLES_BEFORE: _check_battles_before,
    BATTLEFIELD: battlefield_problem,
    ASK_SWITCH: _check_switch,
    "pace": pace_problem,
}
#: Every setting a campaign file may hold: the checked ones and the map draft (held to the ruleset
#: by :func:`bot.app.battlefield.draft_problems`); the house rules' own text is skipped, any other
#: key refused.
SETTING_KEYS = (*SETTING_CHECKS, MAP_DRAFT)


def check_header(doc: Doc, kind: str, keys: Sequence[str], ruleset: str | None, problems: list[str]) -> str | None:
    """The file's kind, version and ruleset: the ruleset it is for (``ruleset`` when it names none), or
    None when the file is not one this command can read at all (then nothing else is worth checking)."""
    data = doc.data
    if not isinstance(data, Mapping):
        problems.append(doc.at((), f"a {kind} file is a mapping with {', '.join(keys[2:])}"))
        return None
    marked = data.get(FORMAT_KEY)
    if marked is not None and marked != kind:
        other = f"/{marked} import" if marked in ("roster", "campaign") else "another command"
        problems.append(doc.at((FORMAT_KEY,), f"this is a {short(str(marked))} file, not a {kind} file: use {other}"))
        return None
    version = data.get("version")
    if version is not None and version != VERSION:
        problems.append(doc.at(("version",), f"this bot reads version {VERSION} files, not {short(str(version))}"))
        return None
    unknown_keys(doc, (), data, keys, problems, f"a {kind} file")
    named = data.get("ruleset")
    if named is None:
        if ruleset is None:
            problems.append(doc.at((), f"say which ruleset the file is for (ruleset: {', '.join(RULESETS)})"))
        return ruleset
    if not isinstance(named, str) or named not in RULESETS:
        problems.append(doc.at(("ruleset",), f"{short(str(named))} is not a ruleset here: {', '.join(RULESETS)}"))
        return None
    if ruleset is not None and named != ruleset:
        problems.append(doc.at(("ruleset",), f"the file is for {named}, but this campaign plays {ruleset}"))
        return None
    return named


def campaign_name(doc: Doc, problems: list[str]) -> str | None:
    text = doc.text("name")
    if text is None:
        if doc.get("name") is not None:
            problems.append(doc.at(("name",), "the campaign's name must be text"))
        return None
    try:
        return clean_name(text, "campaign", CAMPAIGN_NAME_MAX)
    except Refusal as exc:
        problems.append(doc.at(("name",), exc.message))
        return None


@dataclass(frozen=True)
class MemberEntry:
    user_id: int
    name: str | None
    role: str
    side: str | None
    side_given: bool
    path: Path


def read_members(doc: Doc, engine: Engine[Any] | None, problems: list[str]) -> list[MemberEntry]:
    section = doc.get("members")
    if section is None:
        return []
    if not isinstance(section, list):
        problems.append(doc.at(("members",), "members must be a list (each starts with -)"))
        return []
    out: list[MemberEntry] = []
    seen: set[int] = set()
    for index, item in enumerate(section):
        path: Path = ("members", index)
        if not isinstance(item, Mapping):
            problems.append(doc.at(path, "each member is a mapping: user (their id), name, role, side"))
            continue
        before = len(problems)
        unknown_keys(doc, path, item, MEMBER_KEYS, problems, "a member")
        user = item.get("user")
        if isinstance(user, bool) or not isinstance(user, int) or not 0 < user <= USER_ID_MAX:
            problems.append(
                doc.at(
                    (*path, "user"),
                    f"a member's user must be their Discord user id (a number from 1 to {USER_ID_MAX})",
                )
            )
        elif user in seen:
            problems.append(doc.at((*path, "user"), f"user {user} is listed twice"))
        name = doc.text(*path, "name")
        if name is not None:
            name = " ".join(name.split())[:100] or None
        role = item.get("role", "player")
        if role not in ROLES:
            problems.append(doc.at((*path, "role"), f"a member's role is gm or player, not {short(str(role))}"))
        side = doc.text(*path, "side")
        if side is not None and engine is not None:
            match = next((s for s in engine.sides() if s.casefold() == " ".join(side.split()).casefold()), None)
            if match is None:
                problems.append(
                    doc.at((*path, "side"), f"{short(side)} is not a side here: use {', '.join(engine.sides())}")
                )
            side = match
        elif item.get("side") is not None:
            problems.append(doc.at((*path, "side"), "a member's side must be a word"))
        if len(problems) > before:
            continue
        assert isinstance(user, int)
        seen.add(user)
        out.append(MemberEntry(user, name, str(role), side, "side" in item, path))
    return out


def read_settings(doc: Doc, problems: list[str], engine: Engine[Any] | None = None) -> dict[str, Any] | None:
    """The file's ``settings`` (None when it has none), plain data, each a known setting held to its
    feature's check (so every number in it is bounded); with the campaign's ``engine``, its
    battlefield and map draft held to the ruleset too. A setting written as null is kept as None:
    the import removes it (``bot.app.exchange``; one the file omits keeps its value)."""
    if "settings" not in (doc.data or {}):
        return None
    settings = doc.get("settings")
    if settings is None:
        return {}
    if not isinstance(settings, Mapping):
        problems.append(doc.at(("settings",), "settings must be a mapping"))
        return None
    check_plain(doc, ("settings",), settings, problems, what="settings")
    for key, value in settings.items():
        if key == HOUSE_RULES_TEXT:
            continue
        if key not in SETTING_KEYS:
            problems.append(
                doc.at(
                    ("settings", key), f"settings: there is no setting {short(str(key))}; use {', '.join(SETTING_KEYS)}"
                )
            )
            continue
        check = SETTING_CHECKS.get(key)
        problem = check(value) if check is not None and value is not None else None
        if problem:
            problems.append(doc.at(("settings", key), f"settings.{key}: {problem}"))
    if engine is not None and not any(p for p in problems if "settings.battlefield" in p):
        for problem in draft_problems(engine, {k: v for k, v in settings.items() if v is not None}):
            key = problem.split(":")[0].removeprefix("settings.")
            problems.append(doc.at(("settings", key), problem))
    return {k: v for k, v in settings.items() if k != HOUSE_RULES_TEXT}


def setting_changes(before: Mapping[str, Any], after: Mapping[str, Any], skipped: Sequence[str] = ()) -> list[str]:
    """Each setting that differs, as the import's card lists it: ``battlefield: map → table``, a new
    one as ``pace: hours: 24, on_timeout: pass``, a removed one as ``… → none``."""
    lines = []
    for key in dict.fromkeys([*before, *after]):
        if key in skipped or before.get(key) == after.get(key):
            continue
        new = _setting_text(key, after.get(key))
        lines.append(f"{key}: {_setting_text(key, before[key])} → {new}" if key in before else f"{key}: {new}")
    return lines


def _setting_text(key: str, value: Any) -> str:
    if value is None:
        return "none"
    if key == MAP_DRAFT and isinstance(value, Mapping):
        return f"the map {short(str(value.get('name') or 'without a name'))}"
    text = ", ".join(f"{k}: {show(v)}" for k, v in value.items()) if isinstance(value, Mapping) else show(value)
    return text if len(text) <= 80 else text[:79] + "…"


def build_engine(doc: Doc, slug: str, rules: Any, problems: list[str]) -> Engine[Any] | None:
    """The ruleset's engine with ``rules`` (from ``doc``) as house rules, or None with the problems,
    each on the line of the file that holds the key (where the file holds it)."""
    if rules is not None and not isinstance(rules, Mapping):
        problems.append(doc.at((), "house rules are a mapping of the ruleset's keys (see /campaign rules show)"))
        return None
    outsized = [
        doc.at(
            path,
            f"{_dotted(path)}: a house rule's number is from -{RULE_NUMBER_MAX} to {RULE_NUMBER_MAX}, not {short(str(value))}",
        )
        for path, value in _numbers(rules or {}, ())
        if not abs(value) <= RULE_NUMBER_MAX
    ]
    if outsized:
        problems.extend(outsized)
        return None
    try:
        return get_engine(slug, rules or None)
    except DataError as exc:
        problems.extend(place_data_problems(doc, exc.problems, OUTSIDE))
    except RuleError as exc:
        problems.append(exc.message)
    except Exception as exc:  # the rules tripped on odd data: tell the game master, log the rest
        log.error("building the %s engine with house rules failed", slug, exc_info=exc)
        problems.append(
            f"the {slug} rules cannot be built with these house rules ({type(exc).__name__}); "
            f"check the keys against /campaign rules show tables:True"
        )
    return None


def _numbers(value: Any, path: Path) -> Iterator[tuple[Path, float]]:
    """Every number in ``value`` (plain data) with its path."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from _numbers(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _numbers(item, (*path, index))
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield path, value


def _dotted(path: Path) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def roster_problems(engine: Engine[Any], figures: Sequence[Kept], member_sides: Sequence[tuple[str, str]]) -> list[str]:
    """What the campaign already holds that the engine (with new house rules) would refuse."""
    problems = []
    sides = set(engine.sides())
    for f in figures:
        if f.side not in sides:
            problems.append(f"the roster's {short(f.name)} fights for {f.side}, which these rules do not have")
            continue
        try:
            engine.check_figure(FigureSpec(f.name, f.side, f.kind, f.stats))
        except RuleError as exc:
            problems.append(f"the roster's {short(f.name)}: {exc.message}")
        except Exception as exc:
            log.error("checking %r under new house rules failed", f.name, exc_info=exc)
            problems.append(f"the roster's {short(f.name)} cannot be read under these rules")
    for name, side in member_sides:
        if side not in sides and len(side) <= SIDE_MAX:
            problems.append(f"{short(name)} plays {side}, which these rules do not have")
    return problems


def changes(slug: str, rules: Mapping[str, Any] | None) -> list[str]:
    """Each value the house rules set, beside what the ruleset's tables say: ``weapons.rifle.long: 24 → 30``."""
    if not rules:
        return []
    base = base_tables(package_of(slug))
    lines: list[str] = []

    def walk(value: Any, under: Any, path: str, *, only_changed: bool = False) -> None:
        if only_changed and value == under:
            return
        if isinstance(value, Mapping) and isinstance(under, Mapping):
            for key, item in value.items():
                walk(item, under.get(key), f"{path}.{key}" if path else str(key), only_changed=only_changed)
            return
        if isinstance(value, list) and isinstance(under, list) and len(value) == len(under):
            # A list is replaced whole: name the items that differ, not the list cut short twice.
            for index, (item, was) in enumerate(zip(value, under, strict=True)):
                walk(item, was, f"{path}[{index}]", only_changed=True)
            return
        if isinstance(value, list) and isinstance(under, list):
            same = next(
                (i for i, (a, b) in enumerate(zip(value, under, strict=False)) if a != b), min(len(value), len(under))
            )
            lines.append(
                f"{path}: {plural(len(under), 'item')} → {plural(len(value), 'item')}; from [{same}]: "
                f"{_brief(under[same:])} → {_brief(value[same:])}"
            )
            return
        if isinstance(value, Mapping) and under is None:
            lines.append(f"{path}: added")
            return
        old = _brief(under) if under is not None else "(new)"
        lines.append(f"{path}: {old} → {_brief(value)}")

    def _brief(value: Any) -> str:
        text = show(value) if not isinstance(value, (list, Mapping)) else str(value)
        return text if len(text) <= 60 else text[:59] + "…"

    walk(rules, base, "")
    return lines


def merged_tables(slug: str, rules: Mapping[str, Any] | None) -> dict[str, Any]:
    base = base_tables(package_of(slug))
    return merge(base, rules) if rules else base
