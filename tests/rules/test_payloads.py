"""Typed payloads: what an event of a drawn kind writes in its data, and what is read back from it,
fresh, from stored JSON, or from an event stored before payloads existed."""

from __future__ import annotations

import json

import pytest

from rules.core import (
    PAYLOADS,
    BoundPayload,
    CasualtyPayload,
    Context,
    DecisionPayload,
    Event,
    PhasePayload,
    RollPayload,
    VictoryPayload,
    WoundPayload,
    payload_of,
)
from tests.dice import ScriptedDice

EXAMPLES = [
    WoundPayload("Walt", "blue", "Bjorn", "Serious wound", ("half speed",), "Serious wound"),
    CasualtyPayload("Bo", "blue", "Rossi"),
    PhasePayload(3, "shooting"),
    BoundPayload(2),
    VictoryPayload("red", "blue"),
    RollPayload("2d6", 7, secret=True),
    DecisionPayload("french", "Dubois", ("parry", "dodge")),
]


def stored(event: Event) -> Event:
    return Event(event.kind, event.text, json.loads(json.dumps(dict(event.data))))


def test_every_payload_class_has_an_example() -> None:
    assert {type(p) for p in EXAMPLES} == set(PAYLOADS)


@pytest.mark.parametrize("payload", EXAMPLES, ids=lambda p: type(p).__name__)
def test_a_payload_comes_back_from_its_event_fresh_and_stored(payload) -> None:
    event = payload.event("Something happened.", extra=1)
    assert event.kind == type(payload).kinds[0] and event.data["extra"] == 1
    assert payload_of(event) == payload == payload_of(stored(event))
    assert payload_of(event, type(payload)) == payload
    assert payload_of(Event("shot", "x", dict(event.data))) is None  # a kind the shell does not draw


def test_a_field_at_its_default_is_not_written_so_events_keep_their_shape() -> None:
    assert PhasePayload(1).event("Turn 1.", active="red").data == {"turn": 1, "active": "red"}
    assert VictoryPayload(None).data() == {"winner": None}
    assert RollPayload("1d6", 4).data() == {"expression": "1d6", "total": 4}
    assert WoundPayload("Leroux").data() == {"figure": "Leroux"}
    # a casualty always names its side and who put it out, even nobody (a figure that collapsed)
    assert CasualtyPayload("Bjorn", "blue").data(health="collapsed") == {
        "figure": "Bjorn",
        "side": "blue",
        "by": None,
        "health": "collapsed",
    }


def test_a_payload_field_wins_over_a_key_of_the_same_name() -> None:
    assert CasualtyPayload("Bo", "blue", "Rossi").data(by="someone else")["by"] == "Rossi"


def test_an_event_without_its_required_fields_has_no_payload() -> None:
    assert payload_of(Event("wound", "No figure named.", {})) is None
    assert payload_of(Event("bound", "No number.", {})) is None
    assert payload_of(Event("casualty", "x", {"figure": "F1", "side": "blue"})) == CasualtyPayload("F1", "blue")
    assert payload_of(Event("phase", "x", {"phase": "shooting"})) == PhasePayload(None, "shooting")


def test_a_wound_stored_before_payloads_is_read_from_its_old_keys() -> None:
    sharpe = Event("wound", "x", {"figure": "Leroux", "location": "left_arm", "severity": "serious", "effects": ["a"]})
    assert payload_of(sharpe, WoundPayload) == WoundPayload("Leroux", None, None, "left arm", ("a",), "serious")
    medieval = Event("wound", "x", {"figure": "Walt", "side": "blue", "row": "Light wound", "penalties": "−2 shoot"})
    assert payload_of(medieval, WoundPayload) == WoundPayload(
        "Walt", "blue", None, "Light wound", ("−2 shoot",), "Light wound"
    )


def test_a_context_tells_drawn_events_and_says_the_others() -> None:
    ctx: Context[None, None] = Context(None, None, ScriptedDice())
    told = ctx.tell(BoundPayload(1), "Bound 1 · Harris to act.", kind="turn", active="Harris")
    said = ctx.say("shot", "Harris fires.", hit=True)
    assert ctx.events == [told, said] and told.kind == "turn" and payload_of(told) == BoundPayload(1)
    with pytest.raises(AssertionError):
        ctx.say("casualty", "Bo is out.", figure="Bo")
