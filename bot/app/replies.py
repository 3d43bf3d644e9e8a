"""What every command answers, before any front-end draws it.

A :class:`Reply` is a list of :class:`Card` (drawn as embeds in Discord, as text in the
terminal) plus what the terminal's ``--json`` mode and the button layer need: the events, every
die rolled, and an open decision. A page of the log (:class:`LogPage`) and of the help
(:class:`HelpReply`) are replies that say where they sit among their pages.

A leaf of the application: the application, the renderers and the front ends import it, and it
imports nothing of theirs (only the rules, the dice and how a name is shown), so a reply's type
never drags a circle of imports behind it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.dice import RolledDie, SeededDice
from bot.render.shown import shown
from rules.battlefield import FieldView, Terrain
from rules.core import Action, Board, Choice, Engine, Event, RuleError, action_key

#: The actions a page of ``/game log`` lists when the player does not say.
LOG_PAGE_DEFAULT = 10


class Refusal(RuleError):
    """The application refuses a command (not a member, not the game master, no campaign here).

    Raised, never returned: the front end's one error handler shows its sentence privately."""

    #: What the player may do about it, shown under the sentence (Discord: the card's footer).
    advice: str | None = None


@dataclass(frozen=True)
class Caller:
    """Who sent a command, and where: the same whether it came from Discord or the terminal."""

    user_id: int
    display_name: str
    guild_id: int
    channel_id: int
    interaction_id: int | None = None


@dataclass
class Card:
    title: str
    description: str = ""
    fields: list[tuple[str, str, bool]] = field(default_factory=list)
    colour: int | None = None
    footer: str | None = None
    image: str | None = None  # the name of an attached file shown in the card ("board.png")
    #: Shown only in the terminal, e.g. the board as a text grid; a function when it costs work to
    #: write (the battlefield's distances and sight), so a Discord reply never pays for it.
    text_extra: str | Callable[[], str] | None = None


@dataclass(frozen=True)
class PendingDecision:
    decision_id: int
    decider: str
    user_ids: tuple[int, ...]
    prompt: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class ReadyFigure:
    """A figure or unit that may still act (``Engine.ready``) and its line on the board."""

    name: str
    status: str


def ready_figures(engine: Engine[Any], state: Any, side: str | None, board: Board | None = None) -> list[ReadyFigure]:
    """``side``'s figures that may still act now, each with its status as ``/game status`` gives it
    (from ``board`` when the caller has drawn it up already)."""
    names = list(engine.ready(state, side)) if side is not None else []
    if not names:
        return []
    status = {line.name: line.status for line in (board or engine.board(state)).figures}
    return [ReadyFigure(name, status.get(name, "")) for name in names]


@dataclass(frozen=True)
class PictureOrder:
    """A picture a reply is to carry: ``view`` drawn with ``terrain``, shown in ``reply.cards[card]``
    (drawn and attached by :class:`bot.app.pictures.Pictures`)."""

    key: tuple[Hashable, ...]
    view: FieldView
    terrain: Terrain
    card: int = 0

    @property
    def group(self) -> str:
        """Whose pictures these are (a game, a campaign's map draft): drawn one at a time, in turn
        with other groups' (``WorkerPool.run``)."""
        return " ".join(str(part) for part in self.key[:2])


@dataclass
class MovesNow:
    """What the side to move may do now, asked of the engine on the state the reply came from:
    the actions its phase allows (``Engine.actions_now``), and whether a command typed with no
    options would be carried out (a dry run of ``act`` with throwaway dice: it is pure, and a
    refusal means "not now"). So a hint or a button offers only what would be accepted.

    The throwaway dice are random (seeded), not fixed faces: a rule that rolls again on a tie (YASG's
    initiative) would roll tie after tie for ever on dice that always show the same face."""

    engine: Engine[Any]
    state: Any
    side: str
    allowed: tuple[str, ...]
    _accepted: dict[str, bool] = field(default_factory=dict)

    @classmethod
    def of(cls, engine: Engine[Any], state: Any, side: str) -> MovesNow:
        return cls(engine, state, side, tuple(action_key(name) for name in engine.actions_now(state, side)))

    def accepts(self, name: str) -> bool:
        """Whether ``name`` with no options would be carried out now."""
        key = action_key(name)
        if key not in self.allowed:
            return False
        if key not in self._accepted:
            try:
                self.engine.act(self.state, Action(key, self.side, {}), SeededDice(0))
                self._accepted[key] = True
            except RuleError:
                self._accepted[key] = False
        return self._accepted[key]


@dataclass
class Reply:
    cards: list[Card] = field(default_factory=list)
    ephemeral: bool = False
    content: str | None = None
    ping_user_ids: list[int] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    rolls: list[RolledDie] = field(default_factory=list)
    decision: PendingDecision | None = None
    replayed: bool = False
    #: The store holds this reply as owed to its interaction (an action it applied) until the front
    #: end says it went (:meth:`bot.app.answers.OwedAnswers.answered`).
    owed: bool = False
    files: list[tuple[str, bytes]] = field(default_factory=list)
    #: A picture of the battlefield still to be drawn and attached (:mod:`bot.app.pictures`).
    picture: PictureOrder | None = None
    #: The ruleset whose next moves go with this reply ("your move", /game status): the front-end
    #: offers its quick moves as buttons and names the commands to type (bot/adapter/next_moves.py).
    moves_of: str | None = None
    #: With ``moves_of``: the figures or units of the side to move that may still act, offered in
    #: a select that shows what to type for the one picked.
    ready: list[ReadyFigure] = field(default_factory=list)
    #: With ``moves_of``: what the side to move may do now; the hints offer nothing else.
    now: MovesNow | None = None

    def offer_moves(
        self, slug: str, engine: Engine[Any], state: Any, side: str | None, board: Board | None = None
    ) -> None:
        """Offer ``side``'s next moves with this reply: its quick moves and what to type, as the
        phase allows them, and its figures that may still act."""
        self.moves_of = slug
        self.ready = ready_figures(engine, state, side, board)
        self.now = MovesNow.of(engine, state, side) if side is not None else None

    @classmethod
    def note(cls, title: str, text: str = "", *, ephemeral: bool = True) -> Reply:
        return cls(cards=[Card(title=title, description=text)], ephemeral=ephemeral)

    @classmethod
    def error(cls, message: str, advice: str | None = None) -> Reply:
        """A refusal's sentence (and what to do about it) as the front end shows it: only the
        adapter's error handler builds one (the application raises :class:`Refusal`, it never
        returns one)."""
        card = Card(title=NOT_DONE, description=shown(message), colour=ERROR_COLOUR, footer=advice)
        return cls(cards=[card], ephemeral=True)


@dataclass
class LogPage(Reply):
    """A page of the log, and where it sits, so the front-end can offer the pages around it.

    ``game_id`` is the game's internal id (the page buttons carry it, and ask for it again with
    ``game_log(..., game_id=)``); players see and type the battle's number in its campaign."""

    game_id: int = 0
    page: int = 1
    pages: int = 1
    count: int = LOG_PAGE_DEFAULT


@dataclass
class HelpReply(Reply):
    """A page of help, and where it sits, so Discord can offer the pages around it."""

    topic: str = ""
    page: int = 1
    pages: int = 1


#: The title of a refusal's card (:meth:`Reply.error`).
NOT_DONE = "Not done"


ERROR_COLOUR = 0xC0392B


def mentions(user_ids: Iterable[int]) -> str:
    """Discord mentions of these users: what makes ``ping_user_ids`` actually notify them."""
    return " ".join(f"<@{u}>" for u in user_ids)


def joined(items: Sequence[str], empty: str = "none") -> str:
    return ", ".join(items) if items else empty
