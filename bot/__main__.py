"""``skirmish-gm``: run the Discord bot, play at the terminal, or upgrade the database."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import Settings

if TYPE_CHECKING:  # the heavy modules load only for the command that needs them
    from bot.adapter.client import SkirmishBot
    from bot.app.service import App
    from rules.core import DiceSource

NO_TOKEN = (
    "No DISCORD_TOKEN is set, so Skirmish GM is starting the terminal table instead "
    "(for Discord, create a bot at https://discord.com/developers/applications, put its token in "
    "DISCORD_TOKEN and run `skirmish-gm run` again; to play here any time: `skirmish-gm play`)."
)


NEEDS_TOKEN = (
    "No DISCORD_TOKEN is set, and this runs the Discord bot only, so Skirmish GM stops here. Create a bot "
    "at https://discord.com/developers/applications and pass its token (docker run -e DISCORD_TOKEN=…); "
    "to play at the terminal instead: docker run -it … skirmish-gm play."
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="skirmish-gm", description="A Discord game master for skirmish wargames.")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the Discord bot (the terminal table when no DISCORD_TOKEN is set)")
    run.add_argument("--db", type=Path, help="SQLite file to use (default: DATABASE_URL, else the data folder)")
    run.add_argument(
        "--no-terminal",
        action="store_true",
        help="with no DISCORD_TOKEN, say so and stop instead of opening the terminal table (the Docker image's way)",
    )
    play = sub.add_parser("play", help="play at the terminal: slash commands typed or piped, one per line")
    play.add_argument("--db", type=Path, help="SQLite file for this table (default: the data folder's)")
    play.add_argument("--seed", type=int, help="repeatable dice from this seed")
    play.add_argument(
        "--battle-seed",
        type=int,
        help="repeatable dice from this seed, battles still drawn from a provable stream (self-play replays; not secret)",
    )
    play.add_argument("--dice", default="", help="force the next die results in order, e.g. 6,1,4")
    play.add_argument("--cards", default="", help="force the next cards turned, e.g. AH,10D,RJ")
    play.add_argument("--strict-dice", action="store_true", help="when forced dice run out, refuse instead of rolling")
    play.add_argument("--json", action="store_true", help="print one JSON line per command")
    play.add_argument("--as", dest="player", default=None, help="the player you act as (default: your login name)")
    play.add_argument("--channel", type=int, default=1, help="the table (channel) number, for several campaigns")
    play.add_argument(
        "--files",
        "--pictures",
        dest="files",
        type=Path,
        help="save attached files (board pictures, exports, reports) in this folder",
    )
    migrate = sub.add_parser("migrate", help="upgrade the database to the newest schema")
    migrate.add_argument("--db", type=Path)
    check = sub.add_parser("verify", help="check every die and card of a battle report or a campaign export")
    check.add_argument("file", type=Path, help="battle-N.md from /game report, or a /campaign export file")
    from bot.selfplay.cli import add_arguments

    add_arguments(
        sub.add_parser("selfplay", help="random sides play whole battles against each other, checked after every line")
    )
    return parser


async def open_app(settings: Settings, db_path: Path | None, dice_factory: Callable[[], DiceSource]) -> App:
    from bot.app.service import App
    from bot.store import Store

    return App(await Store.open(settings.database(db_path)), dice_factory)


async def play(settings: Settings, args: argparse.Namespace) -> int:
    from bot.console import Console, read_lines
    from bot.dice import ForcedDice, parse_forced_cards, parse_forced_dice
    from rules.core import RuleError

    try:
        dice, cards = parse_forced_dice(args.dice), parse_forced_cards(args.cards)
    except RuleError as exc:
        print(exc.message, file=sys.stderr)
        return 2
    fallback = None if args.strict_dice else terminal_dice(args.seed, args.battle_seed)
    forced = ForcedDice(dice, cards, fallback)
    app = await open_app(settings, args.db, lambda: forced)
    try:
        player = args.player or _login_name()
        console = Console(
            app, forced, player=player, channel_id=args.channel, json_mode=args.json, files_dir=args.files
        )
        interactive = sys.stdin.isatty() and not args.json
        if interactive:
            print("Skirmish GM at the terminal. Type /help for commands, /quit to leave.", file=sys.stderr)
        prompt = (lambda: f"[{console.player}] ") if interactive else None
        await console.learn_names()
        for line in read_lines(sys.stdin, prompt):
            if not await console.run_line(line):
                break
        return 0
    finally:
        await app.store.close()


def terminal_dice(seed: int | None, battle_seed: int | None) -> DiceSource:
    """The terminal's dice when nothing is forced: seeded, battle-seeded, or the secure source."""
    from bot.dice import BattleSeededDice, SecureDice, SeededDice

    if battle_seed is not None:
        return BattleSeededDice(battle_seed)
    return SeededDice(seed) if seed is not None else SecureDice()


async def discord_bot(settings: Settings, db_path: Path | None) -> tuple[SkirmishBot, App]:
    """The Discord bot and its application layer; Discord always gets the secure dice."""
    from bot.adapter.client import SkirmishBot, point_at
    from bot.dice import SecureDice

    secure = SecureDice()
    app = await open_app(settings, db_path, lambda: secure)
    point_at(settings.api_base, settings.gateway_url)
    bot = SkirmishBot(app, dev_guild_id=settings.dev_guild_id, sync_state=settings.data_dir / "synced-commands")
    return bot, app


async def run_bot(settings: Settings, args: argparse.Namespace) -> int:
    bot, app = await discord_bot(settings, args.db)
    try:
        async with bot:
            await bot.start(settings.token or "")
    finally:
        await app.store.close()
    return 0


async def migrate(settings: Settings, args: argparse.Namespace) -> int:
    from bot.store.database import upgrade

    await upgrade(settings.database(args.db))
    print("The database is at the newest schema.")
    return 0


def verify_dice(args: argparse.Namespace) -> int:
    """Print what the file's dice checks found; 0 when every battle in it proves its dice."""
    from bot.verify import verify_file

    status, lines = verify_file(args.file)
    for line in lines:
        print(line)
    return status


def _login_name() -> str:
    try:
        return getpass.getuser() or "player"
    except Exception:
        return "player"


def main(argv: list[str] | None = None) -> int:
    from bot.logs import configure

    args = build_parser().parse_args(argv)
    if args.command == "verify":
        return verify_dice(args)
    if args.command == "selfplay":
        from bot.selfplay.cli import selfplay

        return selfplay(args)
    settings = Settings.from_env()
    configure(settings.log_level if args.command == "run" and settings.token else "WARNING")
    if args.command == "run" and not settings.token and args.no_terminal:
        print(NEEDS_TOKEN, file=sys.stderr)
        return 2
    if args.command == "run" and not settings.token:
        print(NO_TOKEN, file=sys.stderr)
        args = build_parser().parse_args(["play"] + (["--db", str(args.db)] if args.db else []))
    runner = {"run": run_bot, "play": play, "migrate": migrate}[args.command]
    try:
        return asyncio.run(runner(settings, args))
    except KeyboardInterrupt:
        logging.getLogger("skirmish_gm").info("stopped")
        return 0


if __name__ == "__main__":
    sys.exit(main())
