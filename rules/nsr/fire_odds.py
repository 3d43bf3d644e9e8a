"""Exact odds of a fire or volley order: its casualty cards counted over the deck in play.

A volley turns a card per figure from the deck, none put back, so walking every sequence of
cards (54 ways each) is out of reach. What a card does depends only on what its rank and suit read
for this order (whether it hits a leader or another figure, how badly, whether it is a joker), so
the deck is counted by kinds of card, five to eight of them; and how the rest of the order goes
depends only on how many cards of each kind are left and how many leaders and other figures a
card may still fall on (:func:`hits.lands_on`). Counting those states forward, card by card,
merges every sequence that reaches the same one: the exact chance of each outcome in milliseconds.

The readings are the engine's own (:func:`fire.fire_roll`, :func:`fire.fire_card`,
:func:`fire.volley_card`, :func:`fire.second_card`, :func:`hits.status_after`); this module follows
the order in which ``fire._cards`` and ``fire._volley_cards`` turn the cards.
tests/rules/test_nsr_fire_odds.py checks it against a walk of every sequence on small decks.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from math import comb

from rules.core import Counted
from rules.nsr import fire, onmap
from rules.nsr.deck import FULL_DECK, is_joker, rank_key
from rules.nsr.hits import lands_on, odds_label, status_after
from rules.nsr.lookup import Charts
from rules.nsr.options import FireOptions, VolleyOptions
from rules.nsr.sequence import waiting
from rules.nsr.state import NsrState, Unit
from rules.plain import clone

#: Beyond this many states a count gives way to the simulation, about half a second in: only a rare
#: order goes past it (a class III volley at two shots a figure, the deck about to be reshuffled).
MAX_STATES = 150_000

Deck = tuple[int, ...]  # cards left of each kind
Pool = tuple[int, int, int, int]  # leaders and others not yet hit by this task; leaders and others hit, still in reach
Tally = tuple[tuple[int, ...], ...]  # killed, wounded, captured (and hits whose second card waits): per target
#: A state of the count: task, cards of it turned, deck, pool, gun destroyed, tally.
State = tuple[int, int, Deck, Pool, bool, Tally]
CASUALTY = ("killed", "wounded", "captured")
LATER = "later"
WHO = ("leader", "key", "ordinary")


@dataclass(frozen=True)
class Cards:
    """One target's casualty cards: a fire group's hits, or a volley's cards."""

    target: Unit
    cards: int
    volley: bool
    klass: str = ""
    at_wounded: bool = False
    seen: frozenset[str] | None = None


@dataclass(frozen=True)
class Kind:
    """What a card reads for one task: who it hits (as far as :func:`hits.lands_on` tells them
    apart), what it does as a first card (none; hit: a second card says how badly; or the status
    it leaves), and what it does as a volley's second card."""

    who: str
    first: str
    second: str


def counted(c: Charts, state: NsrState, unit: Unit, params: FireOptions | VolleyOptions) -> Counted | None:
    """The exact odds of ``unit``'s fire or volley order, which the engine has found legal; None
    when the order may end the phase (the turn's morale follows, which this count does not cover)
    or the count would be too long."""
    state = clone(state)
    unit = next(u for u in state.units if u.name == unit.name)
    if isinstance(params, VolleyOptions):
        plan = fire.plan_volley(c, state, unit, onmap.measured(c.t, state, unit, params) if state.field else params)
        if not _phase_goes_on(c, state, unit, [plan.target]):
            return None
        seen = None if plan.seen is None else frozenset(plan.seen)
        return _count(c, state, unit, [(1.0, [Cards(plan.target, plan.cards, True, plan.klass, seen=seen)])])
    groups = fire.plan_fire(c, state, unit, onmap.measured(c.t, state, unit, params) if state.field else params)
    if not _phase_goes_on(c, state, unit, [g.target for g in groups]):
        return None
    hits = [[fire.fire_roll(c, unit, g, die).hits for die in range(1, 7)] for g in groups]
    ways: defaultdict[tuple[int, ...], float] = defaultdict(float)
    for faces in product(range(6), repeat=len(groups)):
        ways[tuple(hits[i][face] for i, face in enumerate(faces))] += 6.0 ** -len(groups)
    runs = [
        (
            chance,
            [
                Cards(g.target, n, False, at_wounded=g.at_wounded, seen=None if g.seen is None else frozenset(g.seen))
                for g, n in zip(groups, counts, strict=True)
            ],
        )
        for counts, chance in ways.items()
    ]
    return _count(c, state, unit, runs)


def _phase_goes_on(c: Charts, state: NsrState, unit: Unit, targets: Sequence[Unit]) -> bool:
    """Whether some unit still waits to fire after this order however it goes (its targets wiped
    out): then the order's outcome is its casualties alone, the next card being no one's."""
    after = clone(state)
    by_name = {u.name: u for u in after.units}
    by_name[unit.name].fired = True
    for target in targets:
        for figure in by_name[target.name].figures:
            figure.status = "killed"
    names = {t.name for t in targets} | {unit.name}
    return any(u.name not in names for u in waiting(c, after))


def _count(c: Charts, state: NsrState, unit: Unit, runs: Sequence[tuple[float, list[Cards]]]) -> Counted | None:
    chances: defaultdict[tuple[str, int], float] = defaultdict(float)
    states = 0
    for chance, tasks in runs:
        found = _Counter(c, state.deck, unit, tasks).count()
        if found is None:
            return None
        tallies, seen = found
        states += seen
        for tally, p in tallies.items():
            lost = {
                t.target.name: {what: n for what, n in zip(CASUALTY, row[:3], strict=True) if n}
                for t, row in zip(tasks, tally, strict=True)
                if any(row)
            }
            chances[(odds_label(lost), sum(sum(row[:3]) for row in tally))] += chance * p
    return Counted(dict(chances), states)


def _alike(who: str) -> str:
    """The first of the ranks' targets that :func:`hits.lands_on` cannot tell from ``who``."""
    counts = range(3)
    return next(w for w in WHO if all(lands_on(a, b, w) == lands_on(a, b, who) for a in counts for b in counts))


class _Counter:
    """The forward count of one order's cards, the tasks in the order the engine turns them."""

    def __init__(self, c: Charts, deck: Sequence[str], unit: Unit, tasks: list[Cards]) -> None:
        self.c = c
        self.tasks = tasks
        self.gun_at_gun = [unit.weapon == "artillery" and t.target.weapon == "artillery" for t in tasks]
        cards = [card for card in FULL_DECK if not is_joker(card)]
        seconds = [
            t.volley and any(fire.volley_card(c, t.klass, t.target.weapon == "artillery", x) == "hit" for x in cards)
            for t in tasks
        ]
        readings = {
            card: None
            if is_joker(card)
            else tuple(self._reading(t, s, card) for t, s in zip(tasks, seconds, strict=True))
            for card in FULL_DECK
        }
        self.kinds: list[tuple[Kind, ...] | None] = list(dict.fromkeys(readings.values()))
        index = {kind: i for i, kind in enumerate(self.kinds)}
        full, now = [0] * len(self.kinds), [0] * len(self.kinds)
        for card in FULL_DECK:
            full[index[readings[card]]] += 1
        for card in deck:
            now[index[readings[card]]] += 1
        self.joker = index.get(None, -1)
        most = sum(t.cards * (2 if s else 1) for t, s in zip(tasks, seconds, strict=True))
        settled = not any(self.gun_at_gun) and sum(now) - (now[self.joker] if self.joker >= 0 else 0) >= most
        if self.joker >= 0 and settled:
            now[self.joker] = 0  # no reshuffle can come, nor a gun destroyed: a joker only makes way for another card
        self.deck, self.full = tuple(now), tuple(full)
        self.later: _Seconds | None = None
        if settled and len(tasks) == 1 and seconds[0]:
            self.later = _Seconds.of([self._reading(tasks[0], True, card) for card in deck if not is_joker(card)])
        if self.later is not None:
            self.joker = -1  # the first cards' deck holds none

    def _reading(self, task: Cards, reads_second: bool, card: str) -> Kind:
        vs_gun = task.target.weapon == "artillery"
        if not task.volley:
            reading = fire.fire_card(self.c, vs_gun, card)
            return Kind("", "none", "") if reading is None else Kind(_alike(reading[0]), status_after(reading[1]), "")
        first = fire.volley_card(self.c, task.klass, vs_gun, card)
        second = status_after(fire.second_card(self.c, card)) if reads_second else ""
        if first == "no_hit":
            return Kind("", "none", second)
        who = _alike(str(self.c.t.casualty_card.ranks[rank_key(card)]))
        return Kind(who, first if first == "hit" else status_after(first), second)

    def _pool(self, task: Cards) -> Pool:
        """fire._candidates counted: the target's leaders and other figures its cards may fall on."""
        open_ = [
            f
            for f in task.target.figures
            if (f.status == "wounded" and not f.in_rear if task.at_wounded else f.status == "fit")
            and (task.seen is None or f.name in task.seen)
        ]
        leaders = sum(f.leader for f in open_)
        return leaders, len(open_) - leaders, 0, 0

    def count(self) -> tuple[dict[Tally, float], int] | None:
        if not self.tasks:
            return {(): 1.0}, 1
        deck = self.later.deck if self.later is not None else self.deck
        first: State = (0, 0, deck, self._pool(self.tasks[0]), False, ((0, 0, 0, 0),) * len(self.tasks))
        frontier: dict[State, float] = {first: 1.0}
        done: defaultdict[tuple[Deck, Tally], float] = defaultdict(float)
        states = 0
        while frontier:
            states += len(frontier)
            if states > MAX_STATES:
                return None
            after: defaultdict[State, float] = defaultdict(float)
            for s, p in frontier.items():
                if s[0] == len(self.tasks):
                    done[(s[2] if self.later is not None else (), s[5])] += p
                    continue
                for following, q in self._card(s):
                    after[following] += p * q
            frontier = after
        if self.later is not None:
            return self.later.settle(done), states
        tallies: defaultdict[Tally, float] = defaultdict(float)
        for (_, tally), p in done.items():
            tallies[tally] += p
        return dict(tallies), states

    def _next_task(self, s: State) -> State:
        task = s[0] + 1
        pool = self._pool(self.tasks[task]) if task < len(self.tasks) else (0, 0, 0, 0)
        return task, 0, s[2], pool, s[4], s[5]

    def _card(self, s: State) -> Iterator[tuple[State, float]]:
        """One card of the task: every state it may lead to, with its chance."""
        number, turned, deck, pool, destroyed, tally = s
        task = self.tasks[number]
        if turned == task.cards or (task.volley and not (pool[0] or pool[1])):
            yield self._next_task(s), 1.0  # done; or every figure in the volley's area is hit: the rest are wasted
            return
        gun_at_gun = self.gun_at_gun[number]
        for kind, q, deck1, destroyed1 in self._turn(deck, destroyed, gun_at_gun):
            missed = (number, turned + 1, deck1, pool, destroyed1, tally)
            if kind is None:  # a joker destroyed the gun: no hit
                yield missed, q
                continue
            read = self.later.kinds[kind] if self.later is not None else self._read(kind, number)
            if read.first == "none":
                yield missed, q
            elif read.first != "hit":
                yield self._strike(s, task, read.who, read.first, deck1, destroyed1), q
            elif self.later is not None:  # the second card is turned later (see _Seconds)
                yield self._strike(s, task, read.who, LATER, deck1, destroyed1), q
            else:
                for second, q2, deck2, destroyed2 in self._turn(deck1, destroyed1, gun_at_gun):
                    if second is None:
                        yield (number, turned + 1, deck2, pool, destroyed2, tally), q * q2
                    else:
                        how = self._read(second, number).second
                        yield self._strike(s, task, read.who, how, deck2, destroyed2), q * q2

    def _read(self, kind: int, task: int) -> Kind:
        """What a card of ``kind`` (never a joker: _turn sets them aside) reads for ``task``."""
        readings = self.kinds[kind]
        assert readings is not None
        return readings[task]

    def _turn(self, deck: Deck, destroyed: bool, gun_at_gun: bool) -> Iterator[tuple[int | None, float, Deck, bool]]:
        """fire._casualty_card: a card that is not a joker (the deck reshuffled when it runs out), or
        None when a joker destroyed the target's gun; with its chance, the deck after, the gun."""
        if not any(deck):
            deck = self.full
        total = sum(deck)
        for kind, n in enumerate(deck):
            if not n:
                continue
            q = n / total
            after = (*deck[:kind], n - 1, *deck[kind + 1 :])
            if kind != self.joker:
                yield kind, q, after, destroyed
            elif gun_at_gun and not destroyed:
                yield None, q, after, True
            else:
                for found, q2, later, gun in self._turn(after, destroyed, gun_at_gun):
                    yield found, q * q2, later, gun

    def _strike(self, s: State, task: Cards, who: str, status: str, deck: Deck, destroyed: bool) -> State:
        """A hit of ``status`` on the figure :func:`hits.pick` chooses: a volley's on one not hit yet,
        fire's on one not hit yet if any is left (fire._cards)."""
        number, turned, _, pool, _, tally = s
        fresh = task.volley or pool[0] + pool[1] > 0
        leaders, others = (pool[0], pool[1]) if fresh else (pool[2], pool[3])
        lands = lands_on(leaders, others, who)
        if lands is None:  # no figure may be hit by it: the hit is lost
            return number, turned + 1, deck, pool, destroyed, tally
        at = (0 if fresh else 2) + (lands != "leader")
        counts = list(pool)
        counts[at] -= 1
        if task.at_wounded and status == "wounded":  # wounded again: still in reach, no longer fresh
            counts[2 + (lands != "leader")] += 1
        rows = list(tally)
        rows[number] = tuple(n + (what == status) for what, n in zip((*CASUALTY, LATER), tally[number], strict=True))
        return number, turned + 1, deck, (counts[0], counts[1], counts[2], counts[3]), destroyed, tuple(rows)


@dataclass
class _Seconds:
    """A volley's second cards, turned after its first cards rather than each after its own.

    Every card turned is equally likely to be any card left, whatever it is turned for, and which
    cards are first cards depends only on first cards: so when no reshuffle can come, the volley
    goes the same with every second card turned once the first cards are done. The first cards are
    then counted by what they read as first cards alone (three or four kinds, not five or six),
    and the second cards' outcomes follow from how many of each kind were turned, by the
    hypergeometric law: a few sums instead of a count over every second card.
    """

    kinds: list[Kind]
    deck: Deck  # first-card kinds left
    killing: tuple[int, ...]  # of each kind, the cards that kill as a second card
    hits: tuple[bool, ...]  # whether each kind turns a second card

    @classmethod
    def of(cls, readings: Sequence[Kind]) -> _Seconds | None:
        """From what each card left in the deck reads; None when a second card may do more than
        kill or wound (then every card is counted as it is turned)."""
        if not {r.second for r in readings} <= {"killed", "wounded"}:
            return None
        first = [(r.who, r.first) for r in readings]
        order = list(dict.fromkeys(first))
        counts, killing = [0] * len(order), [0] * len(order)
        for kind, reading in zip(first, readings, strict=True):
            counts[order.index(kind)] += 1
            killing[order.index(kind)] += reading.second == "killed"
        kinds = [Kind(who, what, "") for who, what in order]
        return cls(kinds, tuple(counts), tuple(killing), tuple(what == "hit" for _, what in order))

    def settle(self, done: Mapping[tuple[Deck, Tally], float]) -> dict[Tally, float]:
        """The outcomes once the second cards are turned: for each way the first cards went (the
        kinds left, and how many hits landed on a figure), how many of those hits kill."""
        left_all, killing_all = sum(self.deck), sum(self.killing)
        out: defaultdict[Tally, float] = defaultdict(float)
        for (left, [row]), p in done.items():
            turned = [n - m for n, m in zip(self.deck, left, strict=True)]
            seconds = sum(t for t, hit in zip(turned, self.hits, strict=True) if hit)
            killed_among_first = {0: 1.0}
            for n, k, t in zip(self.deck, self.killing, turned, strict=True):
                killed_among_first = _convolve(killed_among_first, _hypergeometric(n, k, t))
            rest = left_all - sum(turned)
            killed, wounded, captured, later = row
            for k1, p1 in killed_among_first.items():
                for x, p2 in _hypergeometric(rest, killing_all - k1, seconds).items():
                    for y, p3 in _hypergeometric(seconds, x, later).items():
                        out[((killed + y, wounded + later - y, captured, 0),)] += p * p1 * p2 * p3
        return dict(out)


def _hypergeometric(population: int, marked: int, drawn: int) -> dict[int, float]:
    """How many of ``drawn`` cards, turned from ``population`` of which ``marked`` are marked, are marked."""
    total = comb(population, drawn)
    return {
        k: comb(marked, k) * comb(population - marked, drawn - k) / total
        for k in range(max(0, drawn - (population - marked)), min(marked, drawn) + 1)
    }


def _convolve(a: Mapping[int, float], b: Mapping[int, float]) -> dict[int, float]:
    out: defaultdict[int, float] = defaultdict(float)
    for i, p in a.items():
        for j, q in b.items():
            out[i + j] += p * q
    return dict(out)
