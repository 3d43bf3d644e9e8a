"""Logging for the bot and the terminal: one format, level from settings."""

from __future__ import annotations

import logging


def configure(level: str = "INFO") -> None:
    logging.basicConfig(
        level=getattr(logging, level, logging.INFO), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("discord").setLevel(max(logging.getLogger().level, logging.INFO))
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # voice support is not used
    logging.getLogger("alembic").setLevel(logging.WARNING)
