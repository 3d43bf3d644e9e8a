"""The contract of rules/core.py, checked for every ruleset ``rules.RULESETS`` finds.

Each ruleset starts a game from a small roster and plays a scripted run with forced dice. Before
every step, every action the ruleset knows is also tried as it stands (no options, for the side
whose turn it is and for the other side), and an unknown one. Throughout:

* a refused action (a RuleError) rolls no die, turns no card and changes nothing;
* ``act`` never changes the state it was given (compared with a deep copy and with its saved data);
* a saved state (``dump_state`` → JSON → ``load_state``) loads back equal;
* every event of a kind the shell draws carries its typed payload, also when read back from JSON;
* a decision an outcome asks for is the one its new state waits for (``engine.pending``);
* a finished game refuses every action.

A ruleset with a scenario below plays it to the end, and shows the drawn kinds it lists; a new
ruleset is tested without one: a roster of its first kind is found, and its pass action (or the
answer to a waiting decision) is played until the game stops moving.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import inspect
import json
import re
import typing
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import rules
from rules import RULESETS, contract, get_engine, words
from rules.battlefield import mapplay
from rules.battlefield.mapplay import DEPLOYED, DEPLOYMENT_DONE, PLACED, PLACING, MapPlay
from rules.core import MAX_DRAWS, PAYLOAD_OF_KIND, Action, Engine, Event, FigureSpec, Outcome, RuleError, payload_of

# --- dice ----------------------------------------------------------------------------------------


class Dice:
    """Forced dice and cards, then (when ``strict`` is off) a fixed pattern; every roll and card recorded."""

    PATTERN = (4, 2, 6, 1, 5, 3)

    def __init__(self, dice: Sequence[int] = (), cards: Sequence[str] = (), *, strict: bool = False) -> None:
        self.dice, self.cards, self.strict = list(dice), list(cards), strict
        self.log: list[tuple[str, object, str]] = []

    def roll(self, sides: int, reason: str) -> int:
        assert reason.strip(), "every die is rolled with a reason"
        if self.dice:
            value = self.dice.pop(0)
        else:
            assert not self.strict, f"no forced die left for {reason!r}"
            value = self.PATTERN[len(self.log) % len(self.PATTERN)]
        value = min(value, sides)
        self.log.append(("die", value, reason))
        return value

    def draw(self, cards: Sequence[str], reason: str) -> str:
        assert reason.strip(), "every card is turned with a reason"
        if self.cards:
            card = self.cards.pop(0)
            assert card in cards, f"{card} is not in the deck ({reason})"
        else:
            assert not self.strict, f"no forced card left for {reason!r}"
            card = cards[len(self.log) % len(cards)]
        self.log.append(("card", card, reason))
        return card

    @property
    def used_up(self) -> bool:
        return not self.dice and not self.cards


# --- scenarios -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One scripted action: ``side`` None means the side whose turn it is."""

    action: str
    params: Mapping[str, Any] = field(default_factory=dict)
    dice: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()
    side: str | None = None
    by_gm: bool = False


@dataclass(frozen=True)
class Scenario:
    roster: tuple[FigureSpec, ...]
    steps: tuple[Step, ...]
    #: The drawn event kinds the run shows (so the payload checks are not checking nothing).
    shows: frozenset[str]
    start_dice: tuple[int, ...] = ()
    start_cards: tuple[str, ...] = ()


def figures(side: str, kind: str, *names: str, **stats: Any) -> tuple[FigureSpec, ...]:
    return tuple(FigureSpec(name, side, kind, dict(stats)) for name in names)


SSG_SHOT = {"range": 5.0, "los": "clear"}
MEDIEVAL_BOWSHOT = {"range": 5.0, "shots": 1}

SCENARIOS: dict[str, Scenario] = {
    # A melee won after a tie, shots that hit and miss, turns passing, four removed: red wins.
    "ssg": Scenario(
        roster=figures("red", "rifle", "Rossi", "Ada", "Cy", "Dee", "Eli", "Fay")
        + figures("blue", "rifle", "Big Jim", "Bo", "Bert", "Bill", "Ben", "Bud"),
        start_dice=(6, 1),
        steps=(
            Step("move", {"figure": "Rossi", "distance": 3.0, "contact": "Bo"}),
            Step("next"),
            Step("melee", {"fighter": "Rossi"}, dice=(3, 3, 5, 2)),
            Step("shoot", {"shooter": "Ada", "target": "Big Jim", **SSG_SHOT}, dice=(6,)),
            Step("shoot", {"shooter": "Cy", "target": "Bert", **SSG_SHOT}, dice=(2,)),
            Step("next"),
            Step("next"),
            Step("shoot", {"shooter": "Bert", "target": "Rossi", **SSG_SHOT}, dice=(1,)),
            Step("next"),
            Step("next"),
            Step("shoot", {"shooter": "Dee", "target": "Bert", **SSG_SHOT}, dice=(6,)),
            Step("shoot", {"shooter": "Eli", "target": "Bill", **SSG_SHOT}, dice=(5,)),
        ),
        shows=frozenset({"phase", "casualty", "victory"}),
    ),
    # A bayonet attack the defender parries (his side's decision), a bound ends, a shot kills.
    "sharpe": Scenario(
        roster=(
            FigureSpec("Harris", "british", "rifleman", {"I": 6, "D": 4, "S": 4, "C": 5, "F": 10}),
            FigureSpec("Dubois", "french", "voltigeur", {"I": 1, "D": 4, "S": 3, "C": 3, "F": 6}),
        ),
        start_dice=(4, 2),
        steps=(
            Step("attack", {"defender": "Dubois"}),
            Step("defend", {"choice": "parry"}, dice=(1, 6), side="french"),
            Step("done"),
            Step("done"),
            Step("shoot", {"target": "Dubois", "range": 20}, dice=(1, 2, 6, 6, 6)),
        ),
        shows=frozenset({"turn", "bound", "decision", "wound", "casualty", "victory"}),
    ),
    # A building described while a card waits (no one's turn), both units hold, then a volley
    # kills the Allied officer and wounds the NCO: the unit is gone and the French win.
    "nsr": Scenario(
        roster=(
            FigureSpec("Voltigeurs", "French", "light", {"figures": 12}),
            FigureSpec("Rifles", "Allied", "light", {"figures": 2, "weapon": "rifle"}),
        ),
        start_cards=("7C",),
        steps=(
            Step("building", {"name": "Mill", "roof": 4, "storeys": 2}, side="Allied"),
            Step("choose", {"choice": "Voltigeurs"}),
            Step("hold", cards=("8H",)),
            Step("choose", {"choice": "Rifles"}),
            Step("hold", cards=("9C",)),
            Step("choose", {"choice": "Voltigeurs"}),
            Step("fire", {"target": "Rifles", "range": 5, "class": "I"}, dice=(6,), cards=("AH", "AD", "2C")),
        ),
        shows=frozenset({"phase", "casualty", "victory"}),
    ),
    # The board laid out and the figures placed, morale and initiative, then both sides fire at
    # once: the hits are taken when the phase ends, a wound and a death, and the British win.
    "yasg": Scenario(
        roster=(
            FigureSpec("Harper", "british", "A", {"leader": "yes"}),
            FigureSpec("Hagman", "british", "B"),
            FigureSpec("Ducos", "french", "B"),
        ),
        steps=(
            Step("board", {"width": 6, "height": 6}, by_gm=True),
            Step("terrain", {"squares": "A5 A6", "kind": "wood"}, by_gm=True),
            Step("edge", {"squares": "E3", "side": "s", "kind": "hedge"}, by_gm=True),
            Step("place", {"figure": "Harper", "square": "C2", "facing": "s"}, side="british"),
            Step("place", {"figure": "Hagman", "square": "D2", "facing": "s"}, side="british"),
            Step("place", {"figure": "Ducos", "square": "C5", "facing": "n"}, side="french"),
            Step("next", by_gm=True),
            Step("next", by_gm=True, dice=(5, 2)),
            Step("next"),
            Step("next"),
            Step("fire", {"figure": "Harper", "target": "Ducos"}, side="british", dice=(6, 10, 4)),
            Step("fire", {"figure": "Ducos", "target": "Harper"}, side="french", dice=(6, 1)),
            Step("fire", {"figure": "Hagman", "target": "Ducos"}, side="british", dice=(6, 9, 10)),
        ),
        shows=frozenset({"phase", "wound", "casualty", "victory"}),
    ),
    # The roll-off winner's choice, an arrow that wounds seriously, and the wounded man collapses
    # at his own activation: red wins.
    "medieval": Scenario(
        roster=(
            FigureSpec("Walt", "red", "Man at Arms", {"weapons": "bow+sword", "armour": "leather"}),
            FigureSpec(
                "Bjorn",
                "blue",
                "custom",
                {"speed": 6, "bravery": 4, "shoot": 3, "fight": 3, "weapons": "bow", "armour": "none"},
            ),
        ),
        start_dice=(6, 1),
        steps=(
            Step("order", {"choice": "first"}, side="red"),
            Step("shoot", {"figure": "Walt", "target": "Bjorn", **MEDIEVAL_BOWSHOT}, dice=(6, 4)),
            Step("endturn"),
            Step("shoot", {"figure": "Bjorn", "target": "Walt", **MEDIEVAL_BOWSHOT}, dice=(1,)),
        ),
        shows=frozenset({"phase", "wound", "casualty", "victory"}),
    ),
}


# --- the checks ----------------------------------------------------------------------------------


def saved(engine: Engine[Any], state: Any) -> str:
    return json.dumps(engine.dump_state(state), sort_keys=True)


def check_events(events: Sequence[Event]) -> None:
    """Every drawn event carries its typed payload, the same when read back from stored JSON."""
    for event in events:
        if event.kind not in PAYLOAD_OF_KIND:
            continue
        payload = payload_of(event)
        assert payload is not None, f"a {event.kind} event without its payload: {event}"
        stored = Event(event.kind, event.text, json.loads(json.dumps(dict(event.data))))
        assert payload_of(stored) == payload, f"a stored {event.kind} event reads back otherwise: {event}"


def attempt(engine: Engine[Any], state: Any, action: Action, dice: Dice) -> Outcome[Any] | None:
    """``action`` in ``state``, with every promise of the contract checked; None when refused."""
    copied, before = copy.deepcopy(state), saved(engine, state)
    try:
        outcome = engine.act(state, action, dice)
    except RuleError as refusal:
        assert dice.log == [], f"{action} was refused ({refusal.message}) after rolling {dice.log}"
        assert refusal.message.strip() and "\n" not in refusal.message
        outcome = None
    assert state == copied and saved(engine, state) == before, f"{action} changed the state it was given"
    if outcome is not None:
        loaded = engine.load_state(json.loads(saved(engine, outcome.state)))
        assert loaded == outcome.state and saved(engine, loaded) == saved(engine, outcome.state)
        check_events(outcome.events)
        if outcome.pending is not None:
            assert outcome.pending == engine.pending(outcome.state), "the decision asked is not the one waiting"
    return outcome


def probes(engine: Engine[Any], state: Any) -> Iterator[Action]:
    """Every action the ruleset knows, without options, for the side to act and for another; and nonsense."""
    turn = engine.whose_turn(state)
    others = [s for s in engine.sides() if s != turn][:1]
    for name in [*engine.handlers, "no such action"]:
        for side in [turn, *others]:
            yield Action(name, side, {})


def probe(engine: Engine[Any], state: Any) -> None:
    for action in probes(engine, state):
        attempt(engine, state, action, Dice())


def acting_side(engine: Engine[Any], state: Any, step: Step) -> str | None:
    return step.side if step.side is not None else engine.whose_turn(state)


def play_scenario(engine: Engine[Any], scenario: Scenario) -> tuple[Any, list[Event]]:
    dice = Dice(scenario.start_dice, scenario.start_cards, strict=True)
    started = engine.start(list(scenario.roster), dice)
    assert dice.used_up, f"start left forced dice unused: {dice.dice, dice.cards}"
    check_events(started.events)
    state, events = started.state, list(started.events)
    assert engine.load_state(json.loads(saved(engine, state))) == state
    for number, step in enumerate(scenario.steps, start=1):
        probe(engine, state)
        dice = Dice(step.dice, step.cards, strict=True)
        action = Action(step.action, acting_side(engine, state, step), dict(step.params), step.by_gm)
        outcome = attempt(engine, state, action, dice)
        assert outcome is not None, f"step {number} ({action}) was refused"
        assert dice.used_up, f"step {number} ({action}) left forced dice unused: {dice.dice, dice.cards}"
        state = outcome.state
        events.extend(outcome.events)
    return state, events


def first_roster(engine: Engine[Any]) -> list[FigureSpec]:
    """The smallest roster of the ruleset's first kind that it accepts, one to twelve a side."""
    kind = engine.kinds()[0]
    for count in range(1, 13):
        specs = [FigureSpec(f"{side} {n}", side, kind) for side in engine.sides() for n in range(1, count + 1)]
        try:
            engine.start(specs, Dice())
        except RuleError:
            continue
        return specs
    raise AssertionError(f"no roster of {kind} figures starts a game of {engine.slug}")


def play_on(engine: Engine[Any], state: Any, moves: int = 30) -> Any:
    """The pass action for the side whose turn it is (or the first answer to a waiting decision), until stuck."""
    for _ in range(moves):
        if engine.finished(state):
            break
        waiting = engine.pending(state)
        if waiting is not None:
            action = Action(
                waiting.resume_action, waiting.decider, {**waiting.params, "choice": waiting.choices[0].value}
            )
        elif engine.pass_action is not None:
            action = Action(engine.pass_action, engine.whose_turn(state), {})
        else:
            break
        probe(engine, state)
        outcome = attempt(engine, state, action, Dice())
        if outcome is None:
            break
        state = outcome.state
    return state


# --- the tests -----------------------------------------------------------------------------------


@pytest.fixture(params=sorted(RULESETS))
def slug(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_every_ruleset_derives_from_the_engine_base(slug: str) -> None:
    engine = get_engine(slug)
    assert isinstance(engine, Engine) and engine.slug == slug
    assert engine.handlers and all(name == name.strip().casefold() for name in engine.handlers)
    assert engine.pass_action is None or engine.pass_action in engine.handlers
    assert all(name in engine.handlers for name in engine.free_actions)


def test_a_scripted_run_keeps_the_contract(slug: str) -> None:
    engine = get_engine(slug)
    scenario = SCENARIOS.get(slug)
    if scenario is None:
        state = play_on(engine, engine.start(first_roster(engine), Dice()).state)
        events: list[Event] = []
    else:
        state, events = play_scenario(engine, scenario)
        shown = {e.kind for e in events} & set(PAYLOAD_OF_KIND)
        assert scenario.shows <= shown, f"the run showed {sorted(shown)}, not all of {sorted(scenario.shows)}"
    if engine.finished(state):
        for action in probes(engine, state):
            assert attempt(engine, state, action, Dice()) is None, f"{action} was taken in a finished game"
    else:
        probe(engine, state)


# --- dice that never change -----------------------------------------------------------------------


class Constant:
    """Every die on its lowest (or highest) face and the first (or last) card: a probe's dice, or a
    broken source. Past ``limit`` draws it fails the test rather than let a loop spin for ever."""

    def __init__(self, highest: bool, limit: int = MAX_DRAWS + 1) -> None:
        self.highest, self.limit, self.drawn = highest, limit, 0

    def _count(self, reason: str) -> None:
        self.drawn += 1
        assert self.drawn <= self.limit, f"still drawing after {self.limit:,} draws: {reason}"

    def roll(self, sides: int, reason: str) -> int:
        self._count(reason)
        return sides if self.highest else 1

    def draw(self, cards: Sequence[str], reason: str) -> str:
        self._count(reason)
        return list(cards)[-1 if self.highest else 0]


def constant_probe(engine: Engine[Any], state: Any) -> None:
    """Every action, for either side, ends (done or refused) whatever the dice keep showing."""
    for action in probes(engine, state):
        for highest in (False, True):
            try:
                engine.act(state, action, Constant(highest))
            except RuleError as refusal:
                assert refusal.message.strip() and "\n" not in refusal.message


@pytest.mark.parametrize("highest", [False, True], ids=["lowest", "highest"])
def test_every_action_ends_whatever_the_dice_keep_showing(slug: str, highest: bool) -> None:
    """No loop of the rules (a tie rolled again, a card passed) runs for ever on dice that never
    change: every action of the scripted run, at every step, and the start itself, end within
    MAX_DRAWS dice and cards (a refusal for a source that cannot be random is an end)."""
    engine = get_engine(slug)
    scenario = SCENARIOS.get(slug)
    roster = list(scenario.roster) if scenario else first_roster(engine)
    with contextlib.suppress(RuleError):
        engine.start(roster, Constant(highest))
    if scenario is None:
        constant_probe(engine, play_on(engine, engine.start(roster, Dice()).state))
        return
    dice = Dice(scenario.start_dice, scenario.start_cards, strict=True)
    state = engine.start(list(scenario.roster), dice).state
    for step in scenario.steps:
        constant_probe(engine, state)
        action = Action(step.action, acting_side(engine, state, step), dict(step.params), step.by_gm)
        state = engine.act(state, action, Dice(step.dice, step.cards, strict=True)).state
    constant_probe(engine, state)


def test_an_order_tie_on_dice_that_never_change_ends_in_a_sentence() -> None:
    """Sharpe's tied characters roll again until they differ: on fixed dice that was a recursion
    as deep as the dice kept tying (a RecursionError); it is a loop the bound on dice ends."""
    engine = get_engine("sharpe")
    roster = [
        FigureSpec("Harris", "british", "rifleman", {"I": 6, "D": 4, "S": 4, "C": 5, "F": 10}),
        FigureSpec("Dubois", "french", "voltigeur", {"I": 6, "D": 4, "S": 3, "C": 3, "F": 6}),
    ]
    with pytest.raises(RuleError, match="cannot be random"):
        engine.start(roster, Constant(highest=False))


# --- the shape of the contract -------------------------------------------------------------------
#
# The five engines answer the same questions the same way: where the contract lives, who owns map
# play, what a waiting choice is, what placing is called, how a typed name is folded, who guards
# the deployment. These hold it.

RULES = Path(rules.__file__).parent
#: The rulesets played on the bot's map; YASG fights on a grid board of its own.
ON_THE_MAP = {"ssg", "sharpe", "nsr", "medieval"}
#: How many methods (and properties) the engine base may have: only ever fewer.
MOST_BASE_METHODS = 46


def module_name(path: Path) -> str:
    parts = path.relative_to(RULES.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every module of ``rules`` that ``path`` imports anywhere: at the top, under TYPE_CHECKING, in a function."""
    found: set[str] = set()
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in found if name == "rules" or name.startswith("rules.")}


def test_the_contract_is_a_leaf() -> None:
    assert imports_of(RULES / "contract.py") == set()
    for name in ("Action", "Event", "Outcome", "Decision", "Choice", "RuleError", "DataError", "DiceSource"):
        assert getattr(rules.core, name) is getattr(contract, name), f"rules.core.{name} is not the contract's"


def test_rules_has_no_import_circles() -> None:
    """No module of rules/ reaches itself through its imports (top-level, TYPE_CHECKING or in a function)."""
    graph = {module_name(path): imports_of(path) for path in RULES.rglob("*.py")}
    graph = {module: {n for n in names if n in graph and n != module} for module, names in graph.items()}
    for start in graph:
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            module = todo.pop()
            assert module != start, f"{start} imports itself back, through {sorted(seen)}"
            if module not in seen:
                seen.add(module)
                todo.extend(graph[module])


def test_every_engine_fills_the_short_protocol(slug: str) -> None:
    engine = get_engine(slug)
    members = [name for name in vars(contract.EngineContract) if not name.startswith("_")]
    assert {"act", "pending", "whose_turn"} <= set(members)
    for name in members:
        assert hasattr(engine, name), f"{slug} has no {name}"


def test_the_engine_base_is_small() -> None:
    methods = [name for name, value in vars(Engine).items() if inspect.isfunction(value) or isinstance(value, property)]
    assert len(methods) <= MOST_BASE_METHODS, methods


def test_map_play_is_one_shared_component(slug: str) -> None:
    engine = get_engine(slug)
    if slug in ON_THE_MAP:
        assert type(engine.map_play) is MapPlay and engine.plays_on_map
        assert engine.map_play.package == f"rules.{slug}" and engine.scenarios()
    else:
        assert engine.map_play is None and not engine.plays_on_map
    for name in ("check_turn", "field_of", "scenario", "scenarios", "read_map", "terrain"):
        if name in vars(type(engine)):
            assert slug == "yasg" and name == "check_turn", f"{slug} overrides {name}: map play is MapPlay's"


def test_field_of_is_written_once() -> None:
    """Every ruleset's ``field_of`` is the shared one (a RuleError on a table), not its own copy."""
    from rules.medieval import onmap as medieval_onmap
    from rules.nsr import footing
    from rules.nsr import onmap as nsr_onmap
    from rules.sharpe import onmap as sharpe_onmap
    from rules.ssg import field as ssg_field

    for module in (medieval_onmap, nsr_onmap, footing, sharpe_onmap, ssg_field):
        assert module.field_of is mapplay.field_of, module.__name__
    on_the_map = [path for path in RULES.rglob("*.py") if path.parent.name != "yasg"]  # YASG's is its grid's
    defined = [path.name for path in on_the_map if "def field_of(" in path.read_text(encoding="utf-8")]
    assert sorted(defined) == ["base.py", "mapplay.py"]


def test_a_waiting_choice_is_the_one_type(slug: str) -> None:
    engine = get_engine(slug)
    pending = typing.get_type_hints(engine.state_type).get("pending")
    if pending is None:
        return
    assert set(typing.get_args(pending)) == {contract.Waiting, type(None)}, f"{slug}'s pending is {pending}"


def test_the_waiting_choice_is_asked_through_the_one_decision_of() -> None:
    """Medieval's roll-off winner and NSR's card wait as a Waiting from the start, Sharpe's defender's
    choice once he is attacked; the shell sees the one decision_of of it."""
    for slug in ("medieval", "nsr", "sharpe"):
        engine, scenario = get_engine(slug), SCENARIOS[slug]
        outcome = engine.start(list(scenario.roster), Dice(scenario.start_dice, scenario.start_cards))
        for step in scenario.steps:
            if outcome.pending is not None:
                break
            action = Action(step.action, acting_side(engine, outcome.state, step), dict(step.params), step.by_gm)
            outcome = engine.act(outcome.state, action, Dice(step.dice, step.cards, strict=True))
        assert isinstance(outcome.state.pending, contract.Waiting), slug
        assert outcome.pending == engine.pending(outcome.state) == contract.decision_of(outcome.state.pending)


def test_names_fold_through_words() -> None:
    from rules.medieval import data as medieval_data
    from rules.sharpe import profile as sharpe_profile

    assert medieval_data.fold is words.fold and vars(sharpe_profile)["fold"] is words.fold
    assert words.name_key("Small_Shield") == words.fold(" small - shield ") == words.fold("SMALLSHIELD")
    own = [p.name for p in RULES.rglob("*.py") if re.search(r"^def (_?fold|name_key)\(", p.read_text(), re.M)]
    assert own == ["words.py"]


def deploying(engine: Engine[Any]) -> Outcome[Any]:
    field = engine.scenario(engine.scenarios()[0])
    return engine.start_on_map(first_roster(engine), Dice(), field)


@pytest.mark.parametrize("slug", sorted(ON_THE_MAP))
def test_the_deployment_has_one_guard(slug: str) -> None:
    """While figures are to be placed only placing (the pass action, and the ruleset's few actions
    of any time) may be done: the base's check_turn asks MapPlay, and refuses in one sentence."""
    engine = get_engine(slug)
    state = deploying(engine).state
    play = engine.map_play
    assert play is not None and play.deploying(state)
    for side in engine.sides():
        assert tuple(engine.actions_now(state, side)) == PLACING
    allowed = {*PLACING, engine.pass_action, *play.also_while_deploying}
    for name in (n for n in engine.handlers if n not in allowed):
        with pytest.raises(RuleError) as refused:
            engine.act(state, Action(name, engine.whose_turn(state), {}), Dice())
        assert refused.value.message == play.deployment_sentence(state), name
        assert refused.value.message.startswith("The battle begins once every ")


@pytest.mark.parametrize("slug", sorted(ON_THE_MAP))
def test_placing_has_one_event_kind(slug: str) -> None:
    engine = get_engine(slug)
    start = deploying(engine).state
    side = engine.sides()[0]
    deployed = engine.act(start, Action("deploy", side, {"side": side}), Dice())
    assert [e.kind for e in deployed.events][:1] == [DEPLOYED]
    field = engine.field_of(deployed.state)
    assert field is not None
    name, (x, y) = next(iter(field.positions.items()))
    params: dict[str, Any] = {"figure": name, "at": f"{x},{y}"}
    if slug == "nsr":
        params["facing"] = field.facing[name]
    placed = engine.act(start, Action("place", side, params), Dice())
    assert [e.kind for e in placed.events][:1] == [PLACED]


@pytest.mark.parametrize("slug", sorted(ON_THE_MAP))
def test_the_deployment_ends_in_one_event_kind_and_the_map_is_shown(slug: str) -> None:
    """The last side set out ends the deployment with the one DEPLOYMENT_DONE event, and the reply
    shows the map: MapPlay reads moved_on for every ruleset on the map (each only says its stretches)."""
    engine = get_engine(slug)
    assert "moved_on" not in vars(type(engine)), f"{slug} reads moved_on itself: it is MapPlay's"
    state = deploying(engine).state
    *first, last = engine.sides()
    for side in first:
        out = engine.act(state, Action("deploy", side, {"side": side}), Dice())
        assert DEPLOYMENT_DONE not in [e.kind for e in out.events] and not engine.moved_on(state, out.events)
        state = out.state
    done = engine.act(state, Action("deploy", last, {"side": last}), Dice())
    assert [e.kind for e in done.events].count(DEPLOYMENT_DONE) == 1
    assert engine.moved_on(state, done.events)
    on_a_table = engine.start(first_roster(engine), Dice()).state
    assert engine.field_of(on_a_table) is None and not engine.moved_on(on_a_table, done.events)
