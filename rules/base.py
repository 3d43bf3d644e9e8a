"""The part of every engine that does not depend on its rules: the opening checks of ``act``, the
dispatch of an action to its ruleset's handler, the one copy of the state, and the optional
features (a pass action, naming odds outcomes, the aftermath between battles, the pending decision
of a state …) as documented methods with real defaults.

A ruleset derives its engine from :class:`Engine` and writes, in its own modules, one handler per
action: ``handler(ctx, params) -> None``, changing ``ctx.state`` (already a copy) and appending to
``ctx.events``. Its engine class names them in one table, ``handlers``, the way Sharpe's
``HANDLERS`` does::

    HANDLERS: dict[str, Handler[Ctx]] = {"move": movement.move, "shoot": shooting.shoot, ...}

    class SharpeEngine(Engine[SharpeState]):
        handlers = HANDLERS
        ...

Then ``act`` refuses an action in a finished game, an unknown action, an action that is not the
acting side's to take (:meth:`Engine.check_turn`), all before a die is rolled or the state copied;
runs the handler on a copy; lets the ruleset settle what follows (:meth:`Engine.settle`); and
returns the :class:`~rules.vocabulary.Outcome`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar, cast

from rules.battlefield.field import FieldState
from rules.battlefield.mapplay import MapPlay
from rules.battlefield.maps import MapData
from rules.battlefield.terrain import Terrain
from rules.battlefield.view import FieldView
from rules.payloads import PAYLOAD_OF_KIND, Payload, default_outcome
from rules.plain import clone, load_checked, to_data
from rules.specs import ActionSpec, Role
from rules.vocabulary import (
    Action,
    Aftermath,
    Board,
    Decision,
    DiceSource,
    Event,
    FigureSpec,
    Outcome,
    RuleError,
    bounded,
)
from rules.words import joined, same_name, short

S = TypeVar("S")
T = TypeVar("T")
C = TypeVar("C", bound="Context[Any, Any]")

#: What carries out one action: the context (with the copied state) and the action's options.
Handler = Callable[[C, Mapping[str, Any]], None]


@dataclass(eq=False)
class Context(Generic[S, T]):
    """One action being applied: the ruleset's tables ``t``, the copied ``state`` it changes, the
    dice, the side acting (``side``; ``by_gm`` when the game master acts), and what happened."""

    t: T
    state: S
    dice: DiceSource
    side: str | None = None
    by_gm: bool = False
    events: list[Event] = field(default_factory=list)
    #: A choice this action asks of a side (it becomes the outcome's pending decision).
    decision: Decision | None = None

    def say(self, kind: str, text: str, **data: Any) -> Event:
        """Record an event of ``kind`` (one whose kind the shell does not draw: those :meth:`tell`)."""
        assert kind not in PAYLOAD_OF_KIND, f"a {kind} event carries its typed payload: use tell()"
        event = Event(kind, text, data)
        self.events.append(event)
        return event

    def tell(self, payload: Payload, text: str, *, kind: str | None = None, **extra: Any) -> Event:
        """Record an event the shell draws: ``payload``'s fields, and the ruleset's ``extra`` keys."""
        event = payload.event(text, kind=kind, **extra)
        self.events.append(event)
        return event


@dataclass(frozen=True)
class Counted:
    """Odds an engine counted itself (:meth:`Engine.odds_counted`)."""

    chances: Mapping[tuple[str, int], float]  # (outcome as odds_outcome names it, casualties) → chance
    states: int  # how many states the count went through


def action_key(name: object) -> str:
    """An action's name as the handler tables key it: ``" Move "`` → ``"move"``."""
    return str(name).strip().casefold()


class Engine(Generic[S]):
    """The base of every ruleset's engine; see the module's docstring for how a ruleset fills it in.

    The shell uses everything below; a ruleset must give ``slug``, ``title``, ``handlers``,
    ``state_type``, ``tables`` and the methods marked *the ruleset's*; the rest have defaults.
    """

    slug: ClassVar[str]
    title: ClassVar[str]
    #: How refusals name the ruleset: "SSG has no action called …".
    short_name: ClassVar[str] = "This game"
    #: What the ruleset calls one action in a refusal ("order" in NSR).
    action_word: ClassVar[str] = "action"
    #: What a finished game is called in a refusal: "The battle is over".
    battle_word: ClassVar[str] = "game"
    #: The line that introduces the ruleset's commands (their Discord group's description, at most
    #: 100 characters); empty: the title.
    command_blurb: ClassVar[str] = ""
    #: The ruleset's actions, declared once (:mod:`rules.specs`): its ``handlers``, ``answers`` and
    #: ``pass_action`` follow from them, and ``act`` reads each action's options into its spec's
    #: dataclass before the handler runs.
    specs: ClassVar[Mapping[str, ActionSpec[Any, Any]]] = {}
    #: The ruleset's dispatch table: action name (lower case) -> handler.
    handlers: ClassVar[Mapping[str, Handler[Any]]] = {}
    #: The class of one action's context, built with the engine's ``tables``.
    context_type: ClassVar[type[Context[Any, Any]]] = Context
    #: The dataclass a saved state loads into.
    state_type: ClassVar[type[Any]]
    #: Actions that answer the decision a state waits for (the decision's ``resume_action``).
    answers: ClassVar[tuple[str, ...]] = ()
    #: Actions whose handler decides who may take them (so :meth:`check_turn` asks no side).
    open_actions: ClassVar[tuple[str, ...]] = ()
    #: Actions allowed while a decision waits, besides its answers and the free actions.
    allowed_while_waiting: ClassVar[tuple[str, ...]] = ()

    # --- optional features: documented, with defaults ------------------------------------------

    #: What one roster entry is called when the shell counts them ("6 units"): NSR's entries are units.
    roster_entry: ClassVar[str] = "figure"
    #: What an absent player's deadline does for the side whose turn it is (an action taking no
    #: options); None: the ruleset has no such action, the game master decides.
    pass_action: ClassVar[str | None] = None
    #: Actions that belong to no one's turn (describing a building in NSR): allowed while a decision
    #: waits, by anyone; they ask nothing, so their outcome has no pending decision (the one that
    #: waits is still open).
    free_actions: ClassVar[tuple[str, ...]] = ()
    #: Actions that only answer a question from the board (YASG's look): they change nothing and roll
    #: nothing, so the application answers them to the asker alone and never logs them.
    questions: ClassVar[tuple[str, ...]] = ()
    #: Where a ruleset that keeps a board of its own (YASG's grid) fights and how players see it, as
    #: a phrase ("the bot's grid board: …"); None: the bot's map or the players' own table.
    own_board: ClassVar[str | None] = None

    tables: Any
    #: Map play (:mod:`rules.battlefield.mapplay`), composed by a ruleset played on the bot's map;
    #: None: the ruleset is played on a table only (or on its own grid).
    map_play: MapPlay[Any] | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        specs = cls.__dict__.get("specs")
        if specs:
            cls.handlers = {name: spec.handler for name, spec in specs.items()}
            cls.answers = tuple(name for name, spec in specs.items() if spec.role is Role.ANSWER)
            cls.pass_action = next((name for name, spec in specs.items() if spec.role is Role.PASS), None)

    # --- the bot's battlefield (through ``map_play``) ------------------------------------------

    @property
    def plays_on_map(self) -> bool:
        return self.map_play is not None

    def terrain(self) -> Terrain:
        """What each kind of terrain does in this ruleset (its tables' ``terrain:``)."""
        if self.map_play is None:
            raise RuleError(f"{self.short_name} is not played on the bot's map.")
        return self.map_play.terrain

    def scenarios(self) -> list[str]:
        return self.map_play.scenarios() if self.map_play else []

    def scenario(self, name: str) -> MapData:
        """A shipped map by name (``crossroads``)."""
        if self.map_play is None:
            raise RuleError(f"{self.short_name} is not played on the bot's map.")
        return self.map_play.scenario(name)

    def read_map(self, data: Any) -> MapData:
        """A map file's data (an import, a draft kept between battles), checked for this ruleset."""
        if self.map_play is None:
            raise RuleError(f"{self.short_name} is not played on the bot's map.")
        return self.map_play.read_map(data)

    def start_on_map(self, figures: Sequence[FigureSpec], dice: DiceSource, field: MapData) -> Outcome[S]:
        """A new battle on the bot's map: as :meth:`start`, the figures then placed on ``field``
        (``/map place``, ``/map deploy``) before the first turn."""
        raise RuleError(f"{self.short_name} is not played on the bot's map: play it on a table.")

    def field_of(self, state: S) -> FieldState | None:
        """The battle's map and positions; None on a table."""
        return self.map_play.field_of(state) if self.map_play else None

    def field_view(self, state: S, focus: str | None = None) -> FieldView | None:
        """The battlefield as the picture draws it (with ``focus``'s reach); None on a table."""
        return None

    def moved_on(self, before: S, events: Sequence[Event]) -> bool:
        """Whether an action that started from ``before`` closed a stretch of play figures moved
        in (a movement phase, the deployment, a bound, a side's turn), so its reply shows the
        battlefield (the map's picture, or a grid ruleset's board): once a stretch, not after every
        figure's move. False on a table. Map play reads it (:meth:`MapPlay.moved_on`)."""
        return self.map_play.moved_on(before, events) if self.map_play else False

    def pending(self, state: S) -> Decision | None:
        """The choice ``state`` waits for (None when it waits for nothing). The shell asks it again
        when /game undo goes back to a state that was waiting."""
        return None

    def acting(self, state: S) -> str | None:
        """The one figure whose turn it is, where the rules pick him (Sharpe's order of movement),
        for "your move" to name; None by default, and when a side chooses who acts."""
        return None

    def ready(self, state: S, side: str) -> Sequence[str]:
        """The figures or units of ``side`` that may still act in this phase, in roster order: the
        select under "your move" offers them (bot/adapter/next_moves.py). Empty by default, and
        where one acts at a time or the cards choose (Sharpe's order, NSR's cards)."""
        return ()

    def actions_now(self, state: S, side: str) -> Sequence[str]:
        """The actions ``side`` may take in the phase ``state`` is in: the hints under "your move"
        name only these (bot/adapter/next_moves.py), and offer one as a button only when ``act``
        accepts it with no options. By default every action but the answers to a decision; a
        ruleset whose phases restrict what may be done (deployment, a phase of fire) says so."""
        actions = tuple(name for name in self.handlers if name not in self.answers)
        return self.map_play.actions_now(state, actions) if self.map_play else actions

    def odds_walkable(self, action: str) -> bool:
        """False when the action branches too widely for /odds to walk every sequence of dice and
        cards (an NSR order turns the next card: 54 ways): it is then counted by
        :meth:`odds_counted` or simulated. True by default."""
        return True

    def odds_counted(self, state: S, action: Action) -> Counted | None:
        """The exact odds of ``action``, counted by the ruleset's own means where its rules allow a
        count far shorter than the walk of every sequence of dice (NSR's casualty cards: the deck
        counted by kinds of card); None: /odds walks or simulates as usual. Refuses with the
        RuleError ``act`` would."""
        return None

    def odds_outcome(self, events: Sequence[Event]) -> str:
        """One result of an action, as /odds tallies it ("Bo out", "miss"): by default who was
        wounded or fell, and misfires, read from the events' typed payloads."""
        return default_outcome(events)

    #: The event kinds :meth:`odds_casualties` reads (the battle report reads their data to count).
    casualty_kinds: ClassVar[tuple[str, ...]] = ("casualty",)

    def odds_casualties(self, events: Sequence[Event]) -> int:
        """The figures an action's events put out of the fight, as /odds counts them and the battle
        report tallies them (event by event, so a sum over its events): by default its casualty
        events. Events of kinds outside :attr:`casualty_kinds` count none."""
        return sum(1 for event in events if event.kind == "casualty")

    def losses(self, state: S) -> dict[str, int]:
        """Each side's figures out of the fight in ``state``, as the battle report's "Lost:" line
        counts them: by default the figures the board marks out."""
        lost: dict[str, int] = {}
        for figure in self.board(state).figures:
            if figure.out:
                lost[figure.side] = lost.get(figure.side, 0) + 1
        return lost

    def odds_pair(self, reason: str) -> bool:
        """True when the die rolled for ``reason`` and the next one are read only by their sum, so
        /odds may branch on the sum (a 2D6: 11 branches, not 36). None are, by default."""
        return False

    def odds_faces(self, sides: int, reason: str) -> tuple[tuple[int, ...], ...] | None:
        """Groups of the faces of the die rolled for ``reason`` that the rules read alike (a misfire
        die: the faces that misfire and those that fire), so /odds rolls the first face of each
        group, weighed by its size. None, by default: every face is read for itself."""
        return None

    def aftermath(
        self,
        state: S,
        specs: Sequence[FigureSpec],
        dice: DiceSource,
        options: Mapping[str, Any],
        *,
        battle: int | None = None,
    ) -> Outcome[list[Aftermath]]:
        """What each figure of a finished battle carries into its roster (the rules between games).

        ``specs`` are the roster entries the battle started with, ``options`` the campaign's
        settings, ``battle`` its number. The default, for rules with nothing between games: a
        figure that fell is noted, everyone fights again, nothing is rolled.
        """
        prefix = f"Battle {battle}: " if battle is not None else ""
        return Outcome(
            [
                Aftermath(line.name, line.side, "active", prefix + ("out of the fight" if line.out else "fought"))
                for line in self.board(state).figures
            ],
            [],
        )

    def about(self) -> Sequence[tuple[str, str]]:
        """Fixed paragraphs about the ruleset as this campaign plays it (a ground scale, advice on
        whom to shoot), each with its heading: /campaign info shows them once, so a status need not
        repeat them. None, by default."""
        return ()

    def profile(self, spec: FigureSpec) -> str | None:
        """A roster entry's whole profile as a player reads it (/roster show), when its stored stats
        leave part of it to its kind; None, by default: the stats say it all."""
        return None

    def board(self, state: S) -> Board:
        """What /game status shows (the ruleset's, usually): by default who is to act and who won."""
        if self.finished(state):
            winner = self.winner(state)
            return Board(f"Game over: {winner} won" if winner else "Game over: a draw", (), (), finished=True)
        turn = self.whose_turn(state)
        return Board(f"{turn} to act" if turn else "In play", (("Active", turn or "—"),), ())

    # --- the ruleset's: roster and setup --------------------------------------------------------

    def sides(self) -> Sequence[str]:
        """The sides, in the order the ruleset names them."""
        raise NotImplementedError

    def kinds(self) -> Sequence[str]:
        """The figure types a roster entry may have (for SSG: the weapons)."""
        raise NotImplementedError

    def check_figure(self, spec: FigureSpec) -> FigureSpec:
        """The spec as the ruleset keeps it, or a RuleError naming what is wrong."""
        raise NotImplementedError

    def recruit(self, spec: FigureSpec, dice: DiceSource) -> Outcome[FigureSpec]:
        """A figure joining a roster: checked, with any stats the rules roll (and were not given)
        rolled now, once, so the figure keeps them from battle to battle. By default nothing is rolled."""
        return Outcome(self.check_figure(spec), [])

    def start(self, figures: Sequence[FigureSpec], dice: DiceSource) -> Outcome[S]:
        """A new battle between ``figures`` (the ruleset's)."""
        raise NotImplementedError

    # --- the ruleset's: where a game stands -----------------------------------------------------

    def whose_turn(self, state: S) -> str | None:
        """The side that is to act (or to decide), None when nobody is (a finished game)."""
        raise NotImplementedError

    def winner(self, state: S) -> str | None:
        raise NotImplementedError

    def finished(self, state: S) -> bool:
        raise NotImplementedError

    def state_problems(self, state: S) -> list[str]:
        """What a loaded state gets wrong that its types cannot say (sides, names, references)."""
        return []

    # --- storage ---------------------------------------------------------------------------------

    def dump_state(self, state: S) -> dict[str, Any]:
        """The state as JSON-ready data."""
        return cast(dict[str, Any], to_data(state))

    def load_state(self, data: Mapping[str, Any]) -> S:
        """A saved state, checked (a DataError lists every problem)."""
        return cast(S, load_checked(self.state_type, data, self.state_problems))

    # --- play ------------------------------------------------------------------------------------

    def act(self, state: S, action: Action, dice: DiceSource) -> Outcome[S]:
        """Apply ``action``; ``state`` is never changed, and a refused action rolls nothing. Its dice
        are bounded (:data:`~rules.vocabulary.MAX_DRAWS`): whatever they show, an action ends."""
        name = action_key(action.name)
        if self.finished(state):
            raise RuleError(self.over_sentence(state))
        handler = self.handlers.get(name)
        if handler is None:
            raise RuleError(self.unknown_sentence(action.name))
        side = self.check_turn(state, name, action)
        spec = self.specs.get(name)
        options = spec.read(action.params) if spec is not None else action.params
        ctx = self.context(clone(state), side, action, bounded(dice))
        handler(ctx, options)
        self.settle(ctx)
        outcome = self.outcome(ctx)
        if name in self.free_actions:
            outcome.pending = None
        return outcome

    def check_turn(self, state: S, name: str, action: Action) -> str | None:
        """Whether ``action`` may be taken now, for the side it is taken for; the side acting.

        On the map, the deployment phase has its guard (:meth:`MapPlay.while_deploying`). While a
        decision waits, only its answer (and the free and allowed actions) may be taken;
        an answer needs a decision to wait. Otherwise only the side whose turn it is acts (the game
        master may act for any), except for ``open_actions``, whose handler decides.
        """
        if self.map_play is not None and self.map_play.while_deploying(state, name):
            return action.side
        waiting = self.pending(state)
        if name in self.answers:
            if waiting is None:
                raise RuleError(self.nothing_waiting_sentence())
            return action.side
        if waiting is not None and name not in self.free_actions and name not in self.allowed_while_waiting:
            raise RuleError(self.waiting_sentence(state, waiting))
        if name in self.open_actions or name in self.free_actions or action.by_gm:
            return action.side
        turn = self.whose_turn(state)
        if turn is None:
            raise RuleError(self.nobody_sentence(state))
        if not same_name(action.side, turn):
            raise RuleError(self.turn_sentence(state, turn))
        return action.side

    def context(self, state: S, side: str | None, action: Action, dice: DiceSource) -> Context[S, Any]:
        """The context a handler works in: the engine's tables and the copied state."""
        return self.context_type(self.tables, state, dice, side, action.by_gm)

    def settle(self, ctx: Context[S, Any]) -> None:
        """What follows any action once its handler is done (a victory checked at once …)."""

    def outcome(self, ctx: Context[S, Any]) -> Outcome[S]:
        """The new state, the events, and the decision the new state waits for (none once it is over)."""
        state = ctx.state
        waiting = None if self.finished(state) else ctx.decision or self.pending(state)
        return Outcome(state, ctx.events, waiting)

    # --- the sentences of the opening checks -----------------------------------------------------

    def over_sentence(self, state: S) -> str:
        winner = self.winner(state)
        result = f"{winner} won" if winner else "it was a draw"
        return f"The {self.battle_word} is over: {result}."

    def unknown_sentence(self, wanted: object) -> str:
        names = [name for name in self.handlers if name not in self.answers]
        return f"{self.short_name} has no {self.action_word} called {short(str(wanted))}: use {joined(names, 'or')}."

    def nothing_waiting_sentence(self) -> str:
        return "Nothing is waiting for a decision."

    def waiting_sentence(self, state: S, waiting: Decision) -> str:
        return f"Waiting for {waiting.decider} to choose: {waiting.prompt} (/decide)"

    def nobody_sentence(self, state: S) -> str:
        return "Nobody is to act now."

    def turn_sentence(self, state: S, turn: str) -> str:
        return f"It is {turn}'s turn."


def roster_entry(engine: Engine[Any]) -> str:
    """What one of the ruleset's roster entries is called ("figure", "unit")."""
    return engine.roster_entry
