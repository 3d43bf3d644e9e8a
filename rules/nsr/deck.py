"""The 54-card deck kept in the state: turning cards, shuffling, and reading a card.

A shuffle refills the state's list of cards left; drawing at random from it (``dice.draw``) is
the shuffle, so forced cards in tests and the terminal decide every card turned.
"""

from __future__ import annotations

from rules.core import DiceSource, Event

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
JOKERS = ("RJ", "BJ")
FULL_DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + JOKERS
SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def fresh_deck() -> list[str]:
    return list(FULL_DECK)


def is_joker(card: str) -> bool:
    return card in JOKERS


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def black(card: str) -> bool:
    return card == "BJ" or (not is_joker(card) and suit(card) in ("S", "C"))


def rank_key(card: str) -> str:
    """The rank as the charts name it: A, K, Q, J, or ``number`` for 2-10."""
    r = rank(card)
    return r if r in ("A", "K", "Q", "J") else "number"


def label(card: str) -> str:
    """``7♣``, ``A♥``, ``black joker``."""
    if card == "BJ":
        return "black joker"
    if card == "RJ":
        return "red joker"
    return rank(card) + SUIT_SIGNS[suit(card)]


def opening(card: str) -> str:
    """:func:`label` at the start of a sentence: ``7♣``, ``Black joker``."""
    text = label(card)
    return text[:1].upper() + text[1:]


def side_of(card: str, sides: list[str]) -> str:
    """Black cards belong to the first side (French), red to the second (Allied)."""
    return sides[0] if black(card) else sides[1]


def shuffle(deck: list[str], discards: list[str], why: str, events: list[Event]) -> None:
    """Every card back in the deck (the random draws from it are the shuffle)."""
    deck[:] = fresh_deck()
    discards.clear()
    events.append(
        Event("shuffle", f"The deck is shuffled ({why}): {len(deck)} cards.", {"cards": len(deck), "why": why})
    )


def turn_card(deck: list[str], discards: list[str], dice: DiceSource, reason: str, events: list[Event]) -> str:
    """One card turned from the deck (reshuffled first when it has run out)."""
    if not deck:
        shuffle(deck, discards, "it ran out", events)
    card = dice.draw(list(deck), reason)
    if card not in deck:
        raise ValueError(f"the dice source turned {card!r}, which is not in the deck")
    deck.remove(card)
    discards.append(card)
    return card
