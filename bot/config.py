"""Settings, read once from the environment (and the command line, which may override them)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


def default_data_dir() -> Path:
    """``$SKIRMISH_GM_DATA``, else ``$XDG_DATA_HOME/skirmish-gm``, else ``~/.local/share/skirmish-gm``."""
    explicit = os.environ.get("SKIRMISH_GM_DATA")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "skirmish-gm"


@dataclass(frozen=True)
class Settings:
    token: str | None
    data_dir: Path
    database_url: str | None
    dev_guild_id: int | None
    api_base: str | None
    gateway_url: str | None
    log_level: str

    @classmethod
    def from_env(cls) -> Settings:
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        return cls(
            token=os.environ.get("DISCORD_TOKEN") or None,
            data_dir=default_data_dir(),
            database_url=os.environ.get("DATABASE_URL") or None,
            dev_guild_id=int(guild) if guild.isdigit() else None,
            api_base=os.environ.get("DISCORD_API_BASE") or None,
            gateway_url=os.environ.get("DISCORD_GATEWAY_URL") or None,
            log_level=os.environ.get("LOG_LEVEL", "INFO").upper(),
        )

    def database(self, override_path: Path | None = None) -> str:
        """The SQLAlchemy URL: an explicit file, else ``DATABASE_URL``, else the data folder's file."""
        from bot.store.database import sqlite_url

        if override_path is not None:
            return sqlite_url(override_path)
        if self.database_url:
            return normalise_database_url(self.database_url)
        return sqlite_url(self.data_dir / "skirmish-gm.sqlite3")


def normalise_database_url(url: str) -> str:
    """Accept the usual ``postgres://`` and ``postgresql://`` forms and pick the async drivers."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix) :]
    if url.startswith("sqlite://") and not url.startswith("sqlite+aiosqlite://"):
        return "sqlite+aiosqlite://" + url[len("sqlite://") :]
    return url
