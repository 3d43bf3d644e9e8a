"""What the store raises: database trouble translated into sentences a player may read.

A lost race (another command changed the game, or took the name, at the same moment) or a database
too busy to answer is not a bug in the bot: the player is told plainly, nothing was changed, and he
may try again. Anything else from the database is a bug and goes to the log as one.
"""

from __future__ import annotations

from rules.core import RuleError

RACE_SENTENCE = "Someone else changed this at the same moment, so nothing was changed: please try again."
BUSY_SENTENCE = "The table is busy just now and nothing was changed: please try again in a moment."


class Conflict(RuleError):
    """The row changed, or a unique value was taken, between reading and writing it."""

    def __init__(self, detail: str = "") -> None:
        super().__init__(RACE_SENTENCE)
        self.detail = detail


class Busy(RuleError):
    """The database could not take the command's lock in time."""

    def __init__(self, detail: str = "") -> None:
        super().__init__(BUSY_SENTENCE)
        self.detail = detail
