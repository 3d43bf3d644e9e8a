"""The rulesets' shared names, in one import.

The contract itself is :mod:`rules.contract`, a leaf that imports nothing else of ``rules``: an
engine is pure: it takes a state, an :class:`Action` and a :class:`DiceSource` and returns an
:class:`Outcome` (the new state, the events a player reads, at most one pending
:class:`Decision`). It never touches Discord, a database, the global random generator or a clock,
and it never changes the state it was given, so a refused action (a :class:`RuleError`) changes
nothing and rolls nothing. A choice a state waits for is a :class:`Waiting`.

Every ruleset's engine derives from :class:`Engine` (:mod:`rules.base`): the opening checks of
``act``, one dispatch table of handlers, the one copy of the state (:func:`clone`), and the
optional features with their defaults. A ruleset played on the bot's map composes the one map
play (:class:`rules.battlefield.mapplay.MapPlay`). The events the shell draws carry typed payloads
(:mod:`rules.payloads`): read them with :func:`payload_of`. The rest lives where it is made:

* :mod:`rules.vocabulary` — roster entries, aftermaths, boards (and the contract's nouns again);
* :mod:`rules.plain` — states and tables as plain data and back, and :func:`clone`;
* :mod:`rules.words` — words, plurals, options a player typed, name matching (:func:`rules.words.fold`).
"""

from __future__ import annotations

from rules.base import Context, Counted, Engine, Handler, action_key, roster_entry
from rules.contract import Waiting, decision_of
from rules.payloads import (
    PAYLOAD_OF_KIND,
    PAYLOADS,
    BoundPayload,
    CasualtyPayload,
    DecisionPayload,
    Payload,
    PhasePayload,
    RollPayload,
    VictoryPayload,
    WoundPayload,
    default_outcome,
    modifier_data,
    payload_of,
)
from rules.plain import clone, from_data, load_checked, merge, to_data
from rules.vocabulary import (
    MAX_DRAWS,
    Action,
    Aftermath,
    Board,
    BoundedDice,
    Choice,
    DataError,
    Decision,
    DiceSource,
    DiceStuck,
    Event,
    FigureLine,
    FigureSpec,
    Grid,
    GridPiece,
    GridSquare,
    LowestFaces,
    Outcome,
    RuleError,
    bounded,
    roll_dice,
)
from rules.words import find_figure, short

__all__ = [
    "MAX_DRAWS",
    "PAYLOADS",
    "PAYLOAD_OF_KIND",
    "Action",
    "Aftermath",
    "Board",
    "BoundPayload",
    "BoundedDice",
    "CasualtyPayload",
    "Choice",
    "Context",
    "Counted",
    "DataError",
    "Decision",
    "DecisionPayload",
    "DiceSource",
    "DiceStuck",
    "Engine",
    "Event",
    "FigureLine",
    "FigureSpec",
    "Grid",
    "GridPiece",
    "GridSquare",
    "Handler",
    "LowestFaces",
    "Outcome",
    "Payload",
    "PhasePayload",
    "RollPayload",
    "RuleError",
    "VictoryPayload",
    "Waiting",
    "WoundPayload",
    "action_key",
    "bounded",
    "clone",
    "decision_of",
    "default_outcome",
    "find_figure",
    "from_data",
    "load_checked",
    "merge",
    "modifier_data",
    "payload_of",
    "roll_dice",
    "roster_entry",
    "short",
    "to_data",
]
