"""A fake Discord: the REST API and the gateway websocket on 127.0.0.1, strict about Discord's rules.

The real, unmodified bot process talks to it over the wire protocol Discord uses (it only needs
``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL``). Tests play users: they send slash commands,
autocomplete requests, button clicks and modal submits, which reach the bot as INTERACTION_CREATE
dispatches, and read what the bot answered.

The test-facing API, in short::

    async with FakeDiscord() as fake:                      # 127.0.0.1, a free port
        fake.api_base, fake.gateway_url, fake.token        # what the bot is given
        gina = fake.add_user("Gina")                       # a member of fake.guild
        result = await fake.slash(gina, "roll", dice="2d6")  # -> InteractionResult
        result.embeds, result.ephemeral, result.followups
        choices = (await fake.autocomplete(gina, "ssg shoot", focused="target", value="B")).choices
        await fake.click(gina, result, "decision:1:yes"); await fake.modal_submit(gina, result, {...})
        fake.requests, fake.breaches, fake.messages, fake.commands()

Every body the bot sends to the interaction callback, webhook, command and message endpoints is
validated against Discord's OpenAPI schemas (``schemas/discord-openapi-subset.json``) and against
the platform rules the schemas do not carry (see :func:`command_problems` and
:func:`message_problems`); the 3-second and 15-minute windows are enforced as Discord does. Every
breach is kept in :attr:`FakeDiscord.breaches`; the e2e fixture fails the test when any is left.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import copy
import hashlib
import itertools
import json
import logging
import re
import secrets
import time
import unicodedata
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

from aiohttp import WSMsgType, web

log = logging.getLogger("fake_discord")

API_VERSION = 10
RECORD = web.RequestKey("record", object) if hasattr(web, "RequestKey") else "record"
FILES = web.RequestKey("files", list) if hasattr(web, "RequestKey") else "files"
API_PREFIX = f"/api/v{API_VERSION}"
SUBSET = Path(__file__).resolve().parent / "schemas" / "discord-openapi-subset.json"

#: Discord's limits (https://discord.com/developers/docs and the spec's README).
RESPONSE_DEADLINE = 3.0
FOLLOWUP_WINDOW = 15 * 60.0
DEFAULT_HEARTBEAT_MS = 41_250
EMBED_TOTAL_MAX = 6000  # the other message limits (content 2,000, 10 embeds, ...) are in the schemas
CHOICES_MAX = 25
OPTIONS_MAX = 25
COMMAND_CHARS_MAX = 4000
GLOBAL_CHAT_COMMANDS_MAX = 100
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
DISCORD_EPOCH_MS = 1_420_070_400_000
#: How long a test waits for the answer that fills a deferred ("thinking") response before it fails
#: (Discord waits 15 minutes; a picture drawn on a loaded machine after a restart takes seconds).
DEFERRED_ANSWER_WAIT = 60.0
#: How long the fake's ``wait_*`` helpers wait by default before the test fails: long, since it
#: only runs out when something is wrong, and a loaded machine may hold the bot up for seconds.
PATIENCE = 60.0
#: Seconds a heartbeat may come late (beyond half an interval) before the fake calls it missed: on a
#: loaded machine the bot's process may wait seconds for a core.
HEARTBEAT_SLACK = 10.0

# Interaction types and callback types.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}
CALLBACK_SCHEMAS = {
    PONG: "PongInteractionCallbackRequest",
    CHANNEL_MESSAGE: "CreateMessageInteractionCallbackRequest",
    DEFERRED_CHANNEL_MESSAGE: "CreateMessageInteractionCallbackRequest",
    DEFERRED_UPDATE: "UpdateMessageInteractionCallbackRequest",
    UPDATE_MESSAGE: "UpdateMessageInteractionCallbackRequest",
    AUTOCOMPLETE_RESULT: "ApplicationCommandAutocompleteCallbackRequest",
    MODAL: "ModalInteractionCallbackRequest",
}

# Message flags.
EPHEMERAL, LOADING, SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, COMPONENTS_V2 = 64, 128, 4, 4096, 32768
SENDABLE_FLAGS = EPHEMERAL | SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2

# Application command option types.
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = (
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
)

# Gateway opcodes.
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE_UPDATE, RESUME, RECONNECT = 0, 1, 2, 3, 6, 7
REQUEST_GUILD_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)  # members, presences, message content
GUILDS_INTENT = 1

EVERYONE_PERMISSIONS = (
    (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 18) | (1 << 31)
)  # add reactions, view, send, embed links, attach, history, external emoji, use app commands
ALL_PERMISSIONS = (1 << 53) - 1


class InvalidInteraction(ValueError):
    """The test asked for something the Discord client would never send (a test mistake)."""


# --------------------------------------------------------------------------------------------
# Small helpers


_counter = itertools.count(1)


def snowflake() -> int:
    """A new, unique Discord-style id (time in the high bits, so discord.py dates make sense)."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


def _json_bytes(payload: Any) -> bytes:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


def json_response(payload: Any, status: int = 200, *, bucket: str = "fake") -> web.Response:
    """A JSON answer whose Content-Type is exactly ``application/json`` (discord.py parses no other)."""
    response = web.Response(body=_json_bytes(payload), status=status, content_type="application/json")
    _rate_limit_headers(response, bucket)
    return response


def empty_response(*, bucket: str = "fake") -> web.Response:
    response = web.Response(status=204)
    _rate_limit_headers(response, bucket)
    return response


def _rate_limit_headers(response: web.StreamResponse, bucket: str) -> None:
    response.headers["X-RateLimit-Limit"] = "50"
    response.headers["X-RateLimit-Remaining"] = "49"
    response.headers["X-RateLimit-Reset"] = f"{time.time() + 1:.3f}"
    response.headers["X-RateLimit-Reset-After"] = "1.000"
    response.headers["X-RateLimit-Bucket"] = hashlib.sha1(bucket.encode()).hexdigest()[:16]


def discord_error(status: int, code: int, message: str, detail: str | None = None) -> web.Response:
    body: dict[str, Any] = {"message": message, "code": code}
    if detail:
        body["errors"] = {"_errors": [{"code": "FAKE_DISCORD", "message": detail}]}
    return json_response(body, status)


def _flatten(text_parts: Iterable[str | None]) -> str:
    return "\n".join(p for p in text_parts if p)


# --------------------------------------------------------------------------------------------
# Discord's rules that the OpenAPI schemas do not carry


def _allowed_name_char(ch: str) -> bool:
    """``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]$`` for one character."""
    if ch in "-_'":
        return True
    if unicodedata.category(ch)[0] in "LN":
        return True
    code = ord(ch)
    return 0x0900 <= code <= 0x097F or 0xA8E0 <= code <= 0xA8FF or 0x0E00 <= code <= 0x0E7F


def name_problem(name: Any, what: str) -> str | None:
    """Why ``name`` is not a valid chat-input command or option name, or None."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return f"{what} name {name!r} must be 1 to 32 characters"
    bad = [ch for ch in name if not _allowed_name_char(ch)]
    if bad:
        return f"{what} name {name!r} has characters Discord refuses: {''.join(sorted(set(bad)))!r}"
    if name != name.lower():
        return f"{what} name {name!r} must be lower-case"
    return None


def _command_chars(node: Mapping[str, Any]) -> int:
    total = len(str(node.get("name") or "")) + len(str(node.get("description") or ""))
    for choice in node.get("choices") or []:
        total += len(str(choice.get("name") or "")) + len(str(choice.get("value") or ""))
    for option in node.get("options") or []:
        total += _command_chars(option)
    return total


def command_problems(command: Mapping[str, Any]) -> list[str]:
    """Every rule one command definition breaks (names, sizes, option order, nesting)."""
    problems: list[str] = []
    kind = command.get("type") or 1
    name = command.get("name")
    label = f"command {name!r}"
    if kind == 1:
        problem = name_problem(name, "command")
        if problem:
            problems.append(problem)
        description = command.get("description")
        if not isinstance(description, str) or not 1 <= len(description) <= 100:
            problems.append(f"{label}: a slash command needs a description of 1 to 100 characters")
        problems += _option_problems(command.get("options") or [], label, depth=0)
        chars = _command_chars(command)
        if chars > COMMAND_CHARS_MAX:
            problems.append(
                f"{label}: {chars} characters in names, descriptions and choices; Discord allows {COMMAND_CHARS_MAX}"
            )
    else:
        if not isinstance(name, str) or not 1 <= len(name) <= 32:
            problems.append(f"{label}: name must be 1 to 32 characters")
        if command.get("description"):
            problems.append(f"{label}: user and message commands have no description")
        if command.get("options"):
            problems.append(f"{label}: user and message commands have no options")
    return problems


def _option_problems(options: Sequence[Mapping[str, Any]], where: str, depth: int) -> list[str]:
    problems: list[str] = []
    if len(options) > OPTIONS_MAX:
        problems.append(f"{where}: {len(options)} options; Discord allows {OPTIONS_MAX}")
    names = [o.get("name") for o in options]
    for dup in sorted({n for n in names if names.count(n) > 1}, key=str):
        problems.append(f"{where}: two options are called {dup!r}")
    kinds = {o.get("type") for o in options}
    if kinds & {SUB_COMMAND, SUB_COMMAND_GROUP} and kinds - {SUB_COMMAND, SUB_COMMAND_GROUP}:
        problems.append(f"{where}: subcommands cannot sit beside ordinary options")
    seen_optional = False
    for option in options:
        oname = option.get("name")
        here = f"{where} option {oname!r}"
        problem = name_problem(oname, "option")
        if problem:
            problems.append(f"{where}: {problem}")
        description = option.get("description")
        if not isinstance(description, str) or not 1 <= len(description) <= 100:
            problems.append(f"{here}: needs a description of 1 to 100 characters")
        kind = option.get("type")
        if kind == SUB_COMMAND_GROUP:
            if depth > 0:
                problems.append(f"{here}: a subcommand group can only sit at the top level")
            if any(o.get("type") != SUB_COMMAND for o in option.get("options") or []):
                problems.append(f"{here}: a subcommand group holds only subcommands")
            problems += _option_problems(option.get("options") or [], here, depth + 1)
        elif kind == SUB_COMMAND:
            if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in option.get("options") or []):
                problems.append(f"{here}: a subcommand cannot hold subcommands")
            problems += _option_problems(option.get("options") or [], here, depth + 1)
        else:
            required = bool(option.get("required"))
            if required and seen_optional:
                problems.append(f"{here}: required options must come before optional ones")
            seen_optional = seen_optional or not required
            choices = option.get("choices") or []
            if len(choices) > CHOICES_MAX:
                problems.append(f"{here}: {len(choices)} choices; Discord allows {CHOICES_MAX}")
            if choices and option.get("autocomplete"):
                problems.append(f"{here}: an option cannot have both choices and autocomplete")
            for choice in choices:
                problems += _choice_problems(choice, kind, here)
    return problems


def _choice_problems(choice: Mapping[str, Any], kind: Any, where: str) -> list[str]:
    """A choice's value must have its option's type (names and counts are the schemas')."""
    problems = []
    cname = choice.get("name")
    value = choice.get("value")
    if kind == STRING and (not isinstance(value, str) or len(value) > 100):
        problems.append(f"{where}: choice {cname!r} needs a string value of at most 100 characters")
    if kind == INTEGER and (isinstance(value, bool) or not isinstance(value, int)):
        problems.append(f"{where}: choice {cname!r} needs an integer value")
    if kind == NUMBER and (isinstance(value, bool) or not isinstance(value, (int, float))):
        problems.append(f"{where}: choice {cname!r} needs a number value")
    return problems


def embed_chars(embeds: Sequence[Mapping[str, Any]]) -> int:
    """The characters Discord counts towards the 6,000 of one message."""
    total = 0
    for embed in embeds:
        if not isinstance(embed, Mapping):
            continue
        total += len(embed.get("title") or "") + len(embed.get("description") or "")
        total += len((embed.get("footer") or {}).get("text") or "")
        total += len((embed.get("author") or {}).get("name") or "")
        for f in embed.get("fields") or []:
            if isinstance(f, Mapping):
                total += len(f.get("name") or "") + len(f.get("value") or "")
    return total


def message_problems(data: Mapping[str, Any] | None, *, must_have_content: bool) -> list[str]:
    """Every rule a message body breaks that the schemas do not carry.

    The schemas hold the lengths (content 2,000; embed title 256, description 4,096, 25 fields,
    field name 256 and value 1,024, footer 2,048; 10 embeds); this holds the rest.
    """
    problems: list[str] = []
    data = data or {}
    embeds = data.get("embeds") or []  # at most 10, each within its limits: the schemas say so
    total = embed_chars(embeds)
    if total > EMBED_TOTAL_MAX:
        problems.append(f"the embeds total {total} characters; Discord allows {EMBED_TOTAL_MAX} per message")
    for index, embed in enumerate(embeds):  # lengths are the schema's; emptiness is not
        if not isinstance(embed, Mapping):
            continue
        for number, f in enumerate(embed.get("fields") or []):
            if not isinstance(f, Mapping):
                continue
            if not f.get("name") or not str(f.get("name")).strip():
                problems.append(f"embed {index} field {number} has an empty name")
            if not f.get("value") or not str(f.get("value")).strip():
                problems.append(f"embed {index} field {number} has an empty value")
    if must_have_content and not any(
        data.get(k) for k in ("content", "embeds", "components", "attachments", "poll", "sticker_ids")
    ):
        problems.append("Cannot send an empty message (no content, embeds, components or attachments)")
    mentions = data.get("allowed_mentions")
    if isinstance(mentions, Mapping):
        parse = set(mentions.get("parse") or [])
        for kind in ("users", "roles"):
            if kind in parse and mentions.get(kind):
                problems.append(f"allowed_mentions: parse {kind!r} and a {kind} list are mutually exclusive")
    flags = data.get("flags")
    if isinstance(flags, int) and flags & ~SENDABLE_FLAGS:
        problems.append(f"flags {flags} include flags a message cannot be sent with")
    ids = [c.get("custom_id") for c in walk_components(data.get("components") or []) if c.get("custom_id")]
    for dup in sorted({i for i in ids if ids.count(i) > 1}):
        problems.append(f"two components share the custom_id {dup!r}")
    return problems


def walk_components(components: Iterable[Any]) -> Iterable[dict[str, Any]]:
    for component in components or []:
        if not isinstance(component, dict):
            continue
        yield component
        yield from walk_components(component.get("components") or [])
        if isinstance(component.get("component"), dict):
            yield from walk_components([component["component"]])
        if isinstance(component.get("accessory"), dict):
            yield from walk_components([component["accessory"]])


# --------------------------------------------------------------------------------------------
# Schemas


class DiscordSchemas:
    """Discord's OpenAPI schemas (the committed subset) as Draft 2020-12 validators.

    ``lenient_snowflakes``: discord.py sends ids as JSON integers (``allowed_mentions.users``),
    which Discord accepts; the spec only describes the string form Discord returns. Requests are
    validated with ``SnowflakeType`` widened to accept a non-negative integer too. The fake's own
    answers are checked with the strict schemas.
    """

    def __init__(self, path: Path = SUBSET, *, lenient_snowflakes: bool = True) -> None:
        from jsonschema import Draft202012Validator
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012

        document = json.loads(path.read_text(encoding="utf-8"))
        self.names = set(document["components"]["schemas"])
        if lenient_snowflakes:
            document = copy.deepcopy(document)
            strict = document["components"]["schemas"]["SnowflakeType"]
            document["components"]["schemas"]["SnowflakeType"] = {"anyOf": [strict, {"type": "integer", "minimum": 0}]}
        resource = Resource.from_contents(document, default_specification=DRAFT202012)
        self._registry = Registry().with_resource("urn:discord-openapi", resource)
        self._validator_class = Draft202012Validator
        self._validators: dict[str, Any] = {}

    def validator(self, name: str) -> Any:
        if name not in self._validators:
            if name not in self.names:
                raise KeyError(f"the schema subset has no {name!r}: add it to schemas/extract.py")
            schema = {"$ref": f"urn:discord-openapi#/components/schemas/{name}"}
            self._validators[name] = self._validator_class(
                schema, registry=self._registry, format_checker=self._validator_class.FORMAT_CHECKER
            )
        return self._validators[name]

    def problems(self, name: str, instance: Any) -> list[str]:
        """Readable schema errors of ``instance`` against schema ``name`` (empty when valid)."""
        errors = list(self.validator(name).iter_errors(instance))
        found = []
        for error in errors[:5]:
            error = _innermost(error)
            where = "/".join(str(p) for p in error.absolute_path) or "(body)"
            found.append(f"{name} at {where}: {_say(error)}")
        return found


def _say(error: Any) -> str:
    """The error's message, with a long offending value summarised rather than quoted whole."""
    sizes = {"maxLength": "at most", "minLength": "at least", "maxItems": "at most", "minItems": "at least"}
    if error.validator in sizes and hasattr(error.instance, "__len__"):
        unit = "characters" if isinstance(error.instance, str) else "items"
        return f"{len(error.instance)} {unit}; Discord allows {sizes[error.validator]} {error.validator_value}"
    message = str(error.message)
    return message if len(message) <= 300 else message[:299] + "…"


def _innermost(error: Any) -> Any:
    """The error that explains a failed ``oneOf``/``anyOf``: from the branch meant, not the others.

    Discord's unions are told apart by a ``type`` enum (option type 3, 4, ...) or by ``null``; a
    branch whose discriminator already failed is not the one the sender meant.
    """
    from jsonschema.exceptions import relevance

    while error.context:
        branches: dict[Any, list[Any]] = {}
        for sub in error.context:
            branches.setdefault(sub.schema_path[0] if sub.schema_path else None, []).append(sub)

        def ruled_out(subs: list[Any]) -> bool:
            for sub in subs:
                path = list(sub.relative_path)
                if sub.validator in ("enum", "const") and path[-1:] == ["type"]:
                    return True
                if sub.validator == "type" and not path:
                    return True
            return False

        meant = [subs for subs in branches.values() if not ruled_out(subs)] or list(branches.values())
        error = max(min(meant, key=len), key=relevance)  # jsonschema's ranking, one level at a time
    return error


# --------------------------------------------------------------------------------------------
# The world: users, guilds, channels, messages


@dataclass(eq=False)
class FakeUser:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False

    @property
    def display_name(self) -> str:
        return self.global_name or self.username

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "avatar_decoration_data": None,
            "collectibles": None,
            "primary_guild": None,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
        }
        if self.bot:
            data["bot"] = True
        return data

    def __repr__(self) -> str:
        return f"<FakeUser {self.username} {self.id}>"


@dataclass(eq=False)
class FakeChannel:
    id: int
    guild_id: int
    name: str
    type: int = 0
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": None,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    channels: list[FakeChannel] = field(default_factory=list)
    members: dict[int, str] = field(default_factory=dict)  # user id -> joined_at
    admins: set[int] = field(default_factory=set)
    admin_role_id: int = field(default_factory=snowflake)

    def roles_payload(self) -> list[dict[str, Any]]:
        def role(rid: int, name: str, perms: int, position: int) -> dict[str, Any]:
            return {
                "id": str(rid),
                "name": name,
                "color": 0,
                "hoist": False,
                "icon": None,
                "unicode_emoji": None,
                "position": position,
                "permissions": str(perms),
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }

        return [role(self.id, "@everyone", EVERYONE_PERMISSIONS, 0), role(self.admin_role_id, "Admin", 8, 1)]

    def permissions_of(self, user: FakeUser) -> int:
        if user.id == self.owner_id or user.id in self.admins:
            return ALL_PERMISSIONS
        return EVERYONE_PERMISSIONS

    def member_payload(self, user: FakeUser, *, with_user: bool = True, permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(self.admin_role_id)] if user.id in self.admins else [],
            "joined_at": self.members.get(user.id) or iso_now(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "banner": None,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = user.payload()
        if permissions:
            data["permissions"] = str(self.permissions_of(user))
        return data


@dataclass
class Pings:
    """Who a message really notifies, given its content and ``allowed_mentions`` (Discord's semantics)."""

    users: set[int] = field(default_factory=set)
    roles: set[int] = field(default_factory=set)
    everyone: bool = False

    def __bool__(self) -> bool:
        return bool(self.users or self.roles or self.everyone)


@dataclass(eq=False)
class FakeMessage:
    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    allowed_mentions: dict[str, Any] | None = None
    type: int = 0
    webhook_id: int | None = None
    application_id: int | None = None
    interaction: FakeInteraction | None = None  # the interaction this message answers
    created_at: str = field(default_factory=iso_now)
    edited_at: str | None = None
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def pings(self) -> Pings:
        if self.ephemeral:
            return Pings()
        users = {int(u) for u in re.findall(r"<@!?(\d+)>", self.content or "")}
        roles = {int(r) for r in re.findall(r"<@&(\d+)>", self.content or "")}
        everyone = "@everyone" in (self.content or "") or "@here" in (self.content or "")
        mentions = self.allowed_mentions
        if mentions is None:
            return Pings(users, roles, everyone)
        parse = set(mentions.get("parse") or [])
        allowed_users = users if "users" in parse else {int(u) for u in mentions.get("users") or []}
        allowed_roles = roles if "roles" in parse else {int(r) for r in mentions.get("roles") or []}
        return Pings(users & allowed_users, roles & allowed_roles, everyone and "everyone" in parse)

    @property
    def text(self) -> str:
        """Content and every embed's words, for assertions."""
        parts: list[str | None] = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title"), embed.get("description")]
            for f in embed.get("fields") or []:
                parts += [f.get("name"), f.get("value")]
            parts.append((embed.get("footer") or {}).get("text"))
        return _flatten(parts)

    def field_values(self, name: str) -> list[str]:
        return [f.get("value", "") for e in self.embeds for f in e.get("fields") or [] if f.get("name") == name]

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if c.get("custom_id")]

    def apply(self, data: Mapping[str, Any]) -> None:
        """An edit: the keys given replace the message's."""
        self.history.append({"content": self.content, "embeds": self.embeds, "components": self.components})
        if "content" in data:
            self.content = data.get("content") or ""
        if "embeds" in data:
            self.embeds = [normalise_embed(e) for e in data.get("embeds") or []]
        if "components" in data:
            self.components = stored_components(data.get("components"))
        if "allowed_mentions" in data:
            self.allowed_mentions = data.get("allowed_mentions")
        if isinstance(data.get("flags"), int):
            self.flags = (self.flags & EPHEMERAL) | (data["flags"] & ~EPHEMERAL & ~LOADING)
        self.flags &= ~LOADING
        self.edited_at = iso_now()

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.created_at,
            "edited_timestamp": self.edited_at,
            "tts": False,
            "mention_everyone": self.pings.everyone,
            "mentions": [],
            "mention_roles": [str(r) for r in sorted(self.pings.roles)],
            "attachments": [],
            "embeds": self.embeds,
            "pinned": False,
            "flags": self.flags,
            "components": self.components,
        }
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction is not None:
            data["interaction_metadata"] = interaction_metadata(self.interaction)
        return data

    @property
    def interaction_user(self) -> FakeUser | None:
        return self.interaction.user if self.interaction is not None else None

    def __repr__(self) -> str:
        flag = " ephemeral" if self.ephemeral else ""
        return f"<FakeMessage {self.id}{flag} {self.text[:80]!r}>"


def stored_components(components: Sequence[Any] | None) -> list[dict[str, Any]]:
    """Components as Discord stores and returns them: each with a numeric ``id``, selects with their bounds."""
    stored = copy.deepcopy(list(components or []))
    taken = {c["id"] for c in walk_components(stored) if isinstance(c.get("id"), int)}
    numbers = (n for n in itertools.count(1) if n not in taken)
    for component in walk_components(stored):
        if not isinstance(component.get("id"), int):
            component["id"] = next(numbers)
        if component.get("type") in (3, 5, 6, 7, 8):
            component.setdefault("min_values", 1)
            component.setdefault("max_values", 1)
        if component.get("type") == 4:
            component.setdefault("min_length", None)
            component.setdefault("max_length", None)
    return stored


def normalise_embed(embed: Mapping[str, Any]) -> dict[str, Any]:
    """An embed as Discord stores and returns it."""
    data = {k: v for k, v in embed.items() if v is not None}
    data.setdefault("type", "rich")
    data.setdefault("content_scan_version", 0)
    data["fields"] = [dict(f) for f in data.get("fields") or []]
    if not data["fields"]:
        del data["fields"]
    return data


# --------------------------------------------------------------------------------------------
# Interactions


@dataclass
class Attempt:
    """One request the bot made about an interaction, accepted or refused."""

    kind: str  # "callback", "followup", "edit", "delete"
    body: Any
    status: int
    problems: list[str]
    at: float


@dataclass(eq=False)
class FakeInteraction:
    id: int
    token: str
    type: int
    user: FakeUser
    guild: FakeGuild
    channel: FakeChannel
    data: dict[str, Any]
    payload: dict[str, Any]
    message: FakeMessage | None = None
    focused: dict[str, Any] | None = None  # the declared option being autocompleted
    origin: FakeInteraction | None = None  # for a modal submit: the interaction that opened it
    created: float = 0.0
    responded_at: float | None = None
    response_type: int | None = None
    response: Any = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    attempts: list[Attempt] = field(default_factory=list)
    expired: bool = False
    settled: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def label(self) -> str:
        kinds = {
            APPLICATION_COMMAND: "/",
            AUTOCOMPLETE: "autocomplete /",
            MESSAGE_COMPONENT: "click ",
            MODAL_SUBMIT: "modal ",
        }
        name = self.data.get("custom_id") or command_path(self.data)
        return f"{kinds.get(self.type, '?')}{name} by {self.user.username} ({self.id})"


def interaction_metadata(inter: FakeInteraction) -> dict[str, Any]:
    """What a message says about the interaction it answers (``interaction_metadata``)."""
    data: dict[str, Any] = {
        "id": str(inter.id),
        "type": inter.type,
        "user": inter.user.payload(),
        "authorizing_integration_owners": {"0": str(inter.guild.id)},
    }
    if inter.original is not None:
        data["original_response_message_id"] = str(inter.original.id)
    if inter.type == MESSAGE_COMPONENT and inter.message is not None:
        data["interacted_message_id"] = str(inter.message.id)
    if inter.type == MODAL_SUBMIT and inter.origin is not None:
        data["triggering_interaction_metadata"] = interaction_metadata(inter.origin)
    return data


def command_path(data: Mapping[str, Any]) -> str:
    """``"ssg shoot"`` for an application command interaction's data."""
    parts = [str(data.get("name", "?"))]
    options = data.get("options") or []
    while options and options[0].get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
        parts.append(options[0]["name"])
        options = options[0].get("options") or []
    return " ".join(parts)


class InteractionResult:
    """What the bot answered to one interaction: the first response, then follow-ups as they come."""

    def __init__(self, fake: FakeDiscord, interaction: FakeInteraction) -> None:
        self.fake = fake
        self.interaction = interaction

    # the first response
    @property
    def type(self) -> int | None:
        return self.interaction.response_type

    response_type = type

    @property
    def elapsed(self) -> float | None:
        i = self.interaction
        return None if i.responded_at is None else i.responded_at - i.created

    @property
    def message(self) -> FakeMessage | None:
        """The message the response created or updated (types 4, 5, 7, and 6 once edited), unless deleted."""
        original = self.interaction.original
        return None if original is None or original.deleted else original

    @property
    def data(self) -> dict[str, Any]:
        body = self.interaction.response if isinstance(self.interaction.response, dict) else {}
        return body.get("data") or {}

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds if self.message else []

    @property
    def flags(self) -> int:
        return self.message.flags if self.message else int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.message.components if self.message else []

    @property
    def allowed_mentions(self) -> dict[str, Any] | None:
        return self.message.allowed_mentions if self.message else None

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        return self.interaction.choices

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.interaction.modal

    @property
    def followups(self) -> list[FakeMessage]:
        return list(self.interaction.followups)

    @property
    def messages(self) -> list[FakeMessage]:
        return ([self.message] if self.message else []) + self.followups

    @property
    def refused(self) -> list[Attempt]:
        return [a for a in self.interaction.attempts if a.status >= 400]

    @property
    def text(self) -> str:
        return "\n".join(m.text for m in self.messages)

    @property
    def titles(self) -> list[str]:
        return [e.get("title") or "" for m in self.messages for e in m.embeds]

    def field_values(self, name: str) -> list[str]:
        return [v for m in self.messages for v in m.field_values(name)]

    async def wait_followups(self, count: int = 1, timeout: float = PATIENCE) -> list[FakeMessage]:
        await self.fake.wait_until(
            lambda: len(self.interaction.followups) >= count,
            timeout,
            f"{count} follow-up(s) to {self.interaction.label}",
        )
        return self.followups

    def __repr__(self) -> str:
        return (
            f"<InteractionResult {self.interaction.label} type={self.type} ephemeral={self.ephemeral} "
            f"text={self.text[:120]!r}>"
        )


# --------------------------------------------------------------------------------------------
# Requests and breaches


@dataclass
class Breach:
    rule: str
    detail: str
    at: float = field(default_factory=time.monotonic)

    def __str__(self) -> str:
        return f"[{self.rule}] {self.detail}"


@dataclass
class RecordedRequest:
    method: str
    path: str  # without the /api/v10 prefix
    query: dict[str, str]
    headers: dict[str, str]
    body: Any  # the parsed JSON (for multipart, its payload_json part)
    files: list[dict[str, Any]] = field(default_factory=list)  # multipart files: name, filename, size
    contents: list[bytes] = field(default_factory=list)  # the bytes of each of ``files``, in the same order
    status: int = 0
    at: float = field(default_factory=time.monotonic)

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} → {self.status}>"


# --------------------------------------------------------------------------------------------
# The gateway


class _Connection:
    """One websocket; frames are zlib-stream compressed when the client asked for it."""

    numbers = itertools.count(1)

    def __init__(self, ws: web.WebSocketResponse, path: str, compress: str | None) -> None:
        self.ws = ws
        self.path = path
        self.number = next(self.numbers)
        self.compress = compress
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self._lock = asyncio.Lock()
        self.session: GatewaySession | None = None
        self.heartbeats: list[Any] = []
        self.last_beat = time.monotonic()  # HELLO asks for the first heartbeat within one interval
        self.received: list[float] = []  # when each frame came, for the 120-per-minute limit

    @property
    def open(self) -> bool:
        return not self.ws.closed

    async def send(self, payload: Mapping[str, Any]) -> bool:
        raw = _json_bytes(payload)
        async with self._lock:
            if self.ws.closed:
                return False
            try:
                if self._zlib is not None:
                    await self.ws.send_bytes(self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH))
                else:
                    await self.ws.send_str(raw.decode())
            except (ConnectionError, RuntimeError):
                return False
        return True


class GatewaySession:
    """A gateway session: its sequence numbers and every dispatch, so a RESUME can replay them."""

    def __init__(self, fake: FakeDiscord, identify: Mapping[str, Any]) -> None:
        self.fake = fake
        self.id = secrets.token_hex(16)
        self.identify = dict(identify)
        self.intents = int(identify.get("intents") or 0)
        self.seq = 0
        self.history: list[dict[str, Any]] = []
        self.conn: _Connection | None = None
        self.lock = asyncio.Lock()
        self.resumed = 0
        self.ready = False

    async def dispatch(self, event: str, data: Any) -> int:
        async with self.lock:
            self.seq += 1
            frame = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
            self.history.append(frame)
            if self.conn is not None and self.conn.open:
                await self.conn.send(frame)
                self.fake._log_gateway(self.conn, "send", frame)
            return self.seq


# --------------------------------------------------------------------------------------------
# The fake


class FakeDiscord:
    """Discord's REST API and gateway on 127.0.0.1, for one test."""

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        heartbeat_interval_ms: int = DEFAULT_HEARTBEAT_MS,
        response_deadline: float = RESPONSE_DEADLINE,
        followup_window: float = FOLLOWUP_WINDOW,
        privileged_intents: int = 0,
        schemas: DiscordSchemas | None = None,
        self_check: bool = True,
    ) -> None:
        self.host = host
        self.port = port
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.response_deadline = response_deadline
        self.followup_window = followup_window
        self.privileged_intents = privileged_intents
        self.schemas = schemas or _shared_schemas()
        self.strict_schemas = _shared_schemas(strict=True)
        self.self_check = self_check

        self.application_id = snowflake()
        self.bot_user = FakeUser(self.application_id, "Skirmish GM", None, bot=True)
        self.token = self._make_token()
        self.owner = FakeUser(snowflake(), "owner", "Owner")
        self.users: dict[int, FakeUser] = {u.id: u for u in (self.bot_user, self.owner)}
        self.guilds: list[FakeGuild] = []
        self.guild = self.add_guild("Skirmish Club", owner=self.owner)
        self.channel = self.guild.channels[0]

        self.requests: list[RecordedRequest] = []
        self.breaches: list[Breach] = []
        self.validated: dict[str, int] = {}
        self.messages: list[FakeMessage] = []
        self.interactions: dict[int, FakeInteraction] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self._command_ids: dict[tuple[Any, ...], int] = {}

        self.sessions: list[GatewaySession] = []
        self.connections: list[_Connection] = []
        self.identifies: list[dict[str, Any]] = []
        self.resumes: list[dict[str, Any]] = []
        self.gateway_log: list[dict[str, Any]] = []
        self.clock_offset = 0.0

        #: While True, each interaction callback the bot sends is held and never reaches "Discord",
        #: as over a connection that died on the way: the request hangs until :meth:`let_go`
        #: (or the fake stops), then is refused as for an interaction gone (10062).
        self.holding_callbacks = False
        self.held_callbacks: list[FakeInteraction] = []
        self._let_go = asyncio.Event()

        self._runner: web.AppRunner | None = None
        self._timers: list[asyncio.TimerHandle] = []
        self._tasks: set[asyncio.Task[Any]] = set()

    # --- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> Self:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._routes(app.router)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port, backlog=1024)
        await site.start()
        self.port = self._runner.addresses[0][1]
        log.info("fake Discord on %s", self.base_url)
        return self

    async def stop(self) -> None:
        self.let_go()
        for timer in self._timers:
            timer.cancel()
        closing = [conn.ws.close(code=1001, message=b"fake Discord stopping") for conn in self.connections if conn.open]
        await asyncio.gather(*closing, *self._tasks, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def let_go(self) -> None:
        """Stop holding interaction callbacks; those held are refused as for an interaction gone."""
        self.holding_callbacks = False
        self._let_go.set()
        self._let_go = asyncio.Event()

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """``DISCORD_API_BASE`` for the bot."""
        return f"{self.base_url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """``DISCORD_GATEWAY_URL`` for the bot (discord.py adds ``?v=10&encoding=json&compress=...``)."""
        return f"ws://{self.host}:{self.port}/gateway"

    @property
    def resume_gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway-resume"

    def _make_token(self) -> str:
        head = base64.urlsafe_b64encode(str(self.application_id).encode()).decode().rstrip("=")
        return f"{head}.fake.{secrets.token_urlsafe(27)}"

    def now(self) -> float:
        """The fake's clock (monotonic), which :meth:`advance_clock` can move forward."""
        return time.monotonic() + self.clock_offset

    def advance_clock(self, seconds: float) -> None:
        self.clock_offset += seconds

    # --- the world -----------------------------------------------------------------------------

    def add_guild(self, name: str, *, owner: FakeUser | None = None, channel: str = "battle") -> FakeGuild:
        owner = owner or self.owner
        guild = FakeGuild(snowflake(), name, owner.id)
        guild.members[self.bot_user.id] = iso_now()
        guild.members[owner.id] = iso_now()
        self.guilds.append(guild)
        self.add_channel(channel, guild=guild)
        return guild

    def add_channel(self, name: str, *, guild: FakeGuild | None = None) -> FakeChannel:
        guild = guild or self.guild
        channel = FakeChannel(snowflake(), guild.id, name, position=len(guild.channels))
        guild.channels.append(channel)
        return channel

    def add_user(self, name: str, *, guild: FakeGuild | None = None, admin: bool = False) -> FakeUser:
        user = FakeUser(snowflake(), name.lower().replace(" ", "_"), name)
        self.users[user.id] = user
        guild = guild or self.guild
        guild.members[user.id] = iso_now()
        if admin:
            guild.admins.add(user.id)
        return user

    def guild_of(self, channel: FakeChannel) -> FakeGuild:
        return next(g for g in self.guilds if g.id == channel.guild_id)

    def channel_by_id(self, channel_id: int) -> FakeChannel | None:
        return next((c for g in self.guilds for c in g.channels if c.id == channel_id), None)

    def messages_in(self, channel: FakeChannel | None = None, *, ephemeral: bool | None = None) -> list[FakeMessage]:
        channel = channel or self.channel
        return [
            m
            for m in self.messages
            if m.channel_id == channel.id and not m.deleted and (ephemeral is None or m.ephemeral == ephemeral)
        ]

    def breach(self, rule: str, detail: str) -> None:
        found = Breach(rule, detail)
        log.warning("breach: %s", found)
        self.breaches.append(found)

    def take_breaches(self) -> list[Breach]:
        """The breaches so far, cleared (for tests that provoke them on purpose)."""
        taken, self.breaches = self.breaches, []
        return taken

    def requests_to(self, method: str, pattern: str) -> list[RecordedRequest]:
        """Recorded requests whose method matches and whose path matches the regular expression."""
        regex = re.compile(pattern)
        return [r for r in self.requests if r.method == method.upper() and regex.fullmatch(r.path)]

    async def wait_until(
        self, predicate: Callable[[], Any], timeout: float = PATIENCE, what: str = "a condition"
    ) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout:g} s for {what}")
            await asyncio.sleep(0.01)

    # --- commands ------------------------------------------------------------------------------

    def commands(self, guild: FakeGuild | None = None) -> list[dict[str, Any]]:
        """The synced commands: a guild's, else the global ones."""
        if guild is not None:
            return list(self.guild_commands.get(guild.id, []))
        return list(self.global_commands)

    def find_command(self, name: str, guild: FakeGuild | None = None, kind: int = 1) -> dict[str, Any] | None:
        scopes = ([self.guild_commands.get(guild.id, [])] if guild else []) + [self.global_commands]
        for scope in scopes:
            for command in scope:
                if command["name"] == name and command.get("type", 1) == kind:
                    return command
        return None

    def _stored_command(self, body: Mapping[str, Any], guild_id: int | None) -> dict[str, Any]:
        kind = body.get("type") or 1
        key = (guild_id, kind, body.get("name"))
        cid = self._command_ids.setdefault(key, snowflake())
        permissions = body.get("default_member_permissions")
        stored: dict[str, Any] = {
            "id": str(cid),
            "application_id": str(self.application_id),
            "version": str(snowflake()),
            "default_member_permissions": None if permissions is None else str(permissions),
            "type": kind,
            "name": body.get("name"),
            "name_localizations": body.get("name_localizations"),
            "description": body.get("description") or "",
            "description_localizations": body.get("description_localizations"),
            "dm_permission": body.get("dm_permission") if body.get("dm_permission") is not None else True,
            "contexts": body.get("contexts"),
            "integration_types": body.get("integration_types") or [0],
            "nsfw": bool(body.get("nsfw")),
        }
        if body.get("options"):
            stored["options"] = copy.deepcopy(body["options"])
        if guild_id is not None:
            stored["guild_id"] = str(guild_id)
        return stored

    # --- routes --------------------------------------------------------------------------------

    def _routes(self, router: web.UrlDispatcher) -> None:
        api = API_PREFIX
        router.add_get("/gateway", self._gateway)
        router.add_get("/gateway-resume", self._gateway)
        router.add_get(f"{api}/gateway", self._get_gateway)
        router.add_get(f"{api}/gateway/bot", self._get_gateway_bot)
        router.add_get(f"{api}/users/@me", self._get_me)
        router.add_get(f"{api}/oauth2/applications/@me", self._get_application)
        router.add_get(f"{api}/applications/@me", self._get_application)
        for prefix in (f"{api}/applications/{{app}}/commands", f"{api}/applications/{{app}}/guilds/{{guild}}/commands"):
            router.add_get(prefix, self._list_commands)
            router.add_put(prefix, self._put_commands)
            router.add_post(prefix, self._post_command)
            router.add_get(prefix + "/{command}", self._get_command)
            router.add_patch(prefix + "/{command}", self._patch_command)
            router.add_delete(prefix + "/{command}", self._delete_command)
        router.add_post(f"{api}/interactions/{{id}}/{{token}}/callback", self._callback)
        hook = f"{api}/webhooks/{{app}}/{{token}}"
        router.add_post(hook, self._followup)
        router.add_get(hook + "/messages/{message}", self._get_webhook_message)
        router.add_patch(hook + "/messages/{message}", self._edit_webhook_message)
        router.add_delete(hook + "/messages/{message}", self._delete_webhook_message)
        router.add_get(f"{api}/channels/{{channel}}", self._get_channel)
        router.add_post(f"{api}/channels/{{channel}}/messages", self._post_message)
        router.add_get(f"{api}/channels/{{channel}}/messages/{{message}}", self._get_message)
        router.add_patch(f"{api}/channels/{{channel}}/messages/{{message}}", self._patch_message)
        router.add_delete(f"{api}/channels/{{channel}}/messages/{{message}}", self._delete_message)
        router.add_route("*", "/{tail:.*}", self._unknown)

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        if request.path in ("/gateway", "/gateway-resume"):
            return await handler(request)
        path = request.path[len(API_PREFIX) :] if request.path.startswith(API_PREFIX + "/") else request.path
        request[FILES] = []
        body = await self._read_body(request)
        files = request[FILES]
        record = RecordedRequest(
            request.method,
            path,
            dict(request.query),
            dict(request.headers),
            body,
            files=[{k: v for k, v in f.items() if k != "data"} for f in files],
            contents=[f["data"] for f in files],
        )
        self.requests.append(record)
        request[RECORD] = record
        public = path.startswith(("/interactions/", "/webhooks/"))  # the token is the credential
        if not public and request.path.startswith(API_PREFIX + "/"):
            auth = request.headers.get("Authorization", "")
            if auth != f"Bot {self.token}":
                record.status = 401
                return json_response({"message": "401: Unauthorized", "code": 0}, 401)
            if not request.headers.get("User-Agent", "").startswith("DiscordBot"):
                self.breach("user-agent", f"{request.method} {path} without a 'DiscordBot (url, version)' User-Agent")
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            record.status = exc.status
            raise
        except Exception as exc:  # a bug in the fake: loud, never a silent 500
            log.exception("fake Discord failed on %s %s", request.method, path)
            self.breach("fake-error", f"the fake failed on {request.method} {path}: {exc!r}")
            record.status = 500
            return discord_error(500, 0, "500: Internal Server Error (the fake failed)")
        record.status = response.status
        return response

    async def _read_body(self, request: web.Request) -> Any:
        if request.method in ("GET", "HEAD") or not request.can_read_body:
            return None
        ctype = request.content_type
        if ctype == "application/json":
            raw = await request.read()
            try:
                return json.loads(raw) if raw else None
            except json.JSONDecodeError:
                self.breach("json", f"{request.method} {request.path}: the body is not JSON")
                return None
        if ctype == "multipart/form-data":  # files: the JSON body is the payload_json part
            body: Any = None
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    data = bytes(await part.read())
                    request[FILES].append(
                        {"name": part.name, "filename": part.filename, "size": len(data), "data": data}
                    )
            return body
        raw = await request.read()
        self.breach("content-type", f"{request.method} {request.path} sent {ctype or 'no content type'}")
        return raw.decode(errors="replace")

    async def _unknown(self, request: web.Request) -> web.Response:
        self.breach("unknown-route", f"the fake does not serve {request.method} {request.path} (404)")
        return discord_error(404, 0, "404: Not Found")

    def _check_app(self, request: web.Request) -> web.Response | None:
        if request.match_info.get("app") != str(self.application_id):
            self.breach("unknown-application", f"{request.method} {request.path}: not this application's id")
            return discord_error(404, 10002, "Unknown Application")
        return None

    def _self_check(self, schema: str, payload: Any, where: str) -> None:
        """The fake's own answers must match Discord's schemas too (a mismatch is the fake's bug)."""
        if self.self_check:
            for problem in self.strict_schemas.problems(schema, payload):
                self.breach("fake-answer", f"{where}: {problem}")

    def _message_answer(self, message: FakeMessage, *, bucket: str = "messages") -> web.Response:
        payload = message.payload()
        self._self_check("MessageResponse", payload, "the fake's message")
        return json_response(payload, bucket=bucket)

    def _validate(self, schema: str, body: Any, where: str) -> list[str]:
        problems = self.schemas.problems(schema, body)
        self.validated[schema] = self.validated.get(schema, 0) + 1
        for problem in problems:
            self.breach("schema", f"{where}: {problem}")
        return problems

    # --- REST: login and gateway discovery -----------------------------------------------------

    async def _get_me(self, request: web.Request) -> web.Response:
        data = self.bot_user.payload()
        data.update({"verified": True, "mfa_enabled": False, "locale": "en-US", "email": None, "bot": True})
        return json_response(data, bucket="users/@me")

    def application_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.username,
            "icon": None,
            "description": "A game master for skirmish wargames (fake Discord)",
            "type": None,
            "bot": self.bot_user.payload(),
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "team": None,
            "verify_key": secrets.token_hex(32),
            "flags": 0,
            "flags_new": "0",
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": ["bot", "applications.commands"],
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "tags": [],
            "summary": "",
            "rpc_origins": [],
            "approximate_guild_count": len(self.guilds),
        }

    async def _get_application(self, request: web.Request) -> web.Response:
        return json_response(self.application_payload(), bucket="applications/@me")

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 86_400_000,
                    "max_concurrency": 1,
                },
            }
        )

    # --- REST: commands ------------------------------------------------------------------------

    def _scope(self, request: web.Request) -> tuple[int | None, list[dict[str, Any]]]:
        guild = request.match_info.get("guild")
        if guild is None:
            return None, self.global_commands
        gid = int(guild)
        return gid, self.guild_commands.setdefault(gid, [])

    def _check_commands(self, bodies: Sequence[Any], where: str, *, schema: str) -> list[str]:
        problems: list[str] = []
        for body in bodies:
            problems += self._validate(schema, body, where)
            if isinstance(body, Mapping):
                for problem in command_problems(body):
                    self.breach("command", f"{where}: {problem}")
                    problems.append(problem)
        return problems

    async def _list_commands(self, request: web.Request) -> web.Response:
        if (refused := self._check_app(request)) is not None:
            return refused
        _, scope = self._scope(request)
        return json_response(scope)

    async def _put_commands(self, request: web.Request) -> web.Response:
        if (refused := self._check_app(request)) is not None:
            return refused
        gid, scope = self._scope(request)
        body = request[RECORD].body
        where = f"PUT {request[RECORD].path}"
        if not isinstance(body, list):
            self.breach("schema", f"{where}: the body must be a list of commands")
            return discord_error(400, 50035, "Invalid Form Body")
        problems = self._check_commands(body, where, schema="ApplicationCommandUpdateRequest")
        keys = [((c.get("type") or 1), c.get("name")) for c in body if isinstance(c, Mapping)]
        for dup in sorted({k for k in keys if keys.count(k) > 1}, key=str):
            problems.append(f"two commands of type {dup[0]} are called {dup[1]!r}")
            self.breach("command", f"{where}: {problems[-1]}")
        chat = sum(1 for k in keys if k[0] == 1)
        if chat > GLOBAL_CHAT_COMMANDS_MAX:
            problems.append(f"{chat} slash commands; Discord allows {GLOBAL_CHAT_COMMANDS_MAX}")
            self.breach("command", f"{where}: {problems[-1]}")
        if problems:
            return discord_error(400, 50035, "Invalid Form Body", "; ".join(problems))
        stored = [self._stored_command(c, gid) for c in body]
        for command in stored:
            self._self_check("ApplicationCommandResponse", command, "the fake's stored command")
        scope[:] = stored
        return json_response(stored, bucket=f"commands:{gid}")

    async def _post_command(self, request: web.Request) -> web.Response:
        if (refused := self._check_app(request)) is not None:
            return refused
        gid, scope = self._scope(request)
        body = request[RECORD].body
        problems = self._check_commands(
            [body], f"POST {request[RECORD].path}", schema="ApplicationCommandCreateRequest"
        )
        if problems:
            return discord_error(400, 50035, "Invalid Form Body", "; ".join(problems))
        stored = self._stored_command(body, gid)
        scope[:] = [c for c in scope if (c["type"], c["name"]) != (stored["type"], stored["name"])] + [stored]
        return json_response(stored, 201)

    def _command_in(self, request: web.Request) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        _, scope = self._scope(request)
        cid = request.match_info["command"]
        return scope, next((c for c in scope if c["id"] == cid), None)

    async def _get_command(self, request: web.Request) -> web.Response:
        _, command = self._command_in(request)
        return json_response(command) if command else discord_error(404, 10063, "Unknown application command")

    async def _patch_command(self, request: web.Request) -> web.Response:
        scope, command = self._command_in(request)
        if command is None:
            return discord_error(404, 10063, "Unknown application command")
        body = request[RECORD].body or {}
        merged = {**command, **body}
        where = f"PATCH {request[RECORD].path}"
        self._validate("ApplicationCommandPatchRequestPartial", body, where)
        problems = command_problems(merged)
        for problem in problems:
            self.breach("command", f"{where}: {problem}")
        if problems:
            return discord_error(400, 50035, "Invalid Form Body")
        gid = int(command["guild_id"]) if command.get("guild_id") else None
        stored = self._stored_command(merged, gid)
        scope[scope.index(command)] = stored
        return json_response(stored)

    async def _delete_command(self, request: web.Request) -> web.Response:
        scope, command = self._command_in(request)
        if command is None:
            return discord_error(404, 10063, "Unknown application command")
        scope.remove(command)
        return empty_response()

    # --- REST: channel messages ----------------------------------------------------------------

    def _channel_or_404(self, request: web.Request) -> FakeChannel | None:
        try:
            return self.channel_by_id(int(request.match_info["channel"]))
        except ValueError:
            return None

    async def _get_channel(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request)
        return json_response(channel.payload()) if channel else discord_error(404, 10003, "Unknown Channel")

    def _new_message(
        self,
        channel: FakeChannel,
        data: Mapping[str, Any],
        *,
        flags: int = 0,
        type: int = 0,
        interaction: FakeInteraction | None = None,
    ) -> FakeMessage:
        message = FakeMessage(
            id=snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.bot_user,
            content=data.get("content") or "",
            embeds=[normalise_embed(e) for e in data.get("embeds") or []],
            components=stored_components(data.get("components")),
            flags=flags,
            allowed_mentions=data.get("allowed_mentions"),
            type=type,
        )
        if interaction is not None:
            message.webhook_id = self.application_id
            message.application_id = self.application_id
            message.interaction = interaction
        self.messages.append(message)
        return message

    async def _post_message(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request)
        if channel is None:
            return discord_error(404, 10003, "Unknown Channel")
        body = request[RECORD].body or {}
        where = f"POST {request[RECORD].path}"
        problems = self._validate("MessageCreateRequest", body, where) + self._message_rules(body, where, True)
        if isinstance(body.get("flags"), int) and body["flags"] & EPHEMERAL:
            problems.append("channel messages cannot be ephemeral")
            self.breach("message", f"{where}: channel messages cannot be ephemeral")
        if problems:
            return discord_error(400, 50035, "Invalid Form Body", "; ".join(problems))
        message = self._new_message(channel, body, flags=int(body.get("flags") or 0))
        return self._message_answer(message, bucket=f"channel:{channel.id}")

    def _message_or_404(self, request: web.Request) -> FakeMessage | None:
        mid = request.match_info["message"]
        return next((m for m in self.messages if str(m.id) == mid and not m.deleted), None)

    async def _get_message(self, request: web.Request) -> web.Response:
        message = self._message_or_404(request)
        if message is None or message.ephemeral:
            return discord_error(404, 10008, "Unknown Message")
        return self._message_answer(message)

    async def _patch_message(self, request: web.Request) -> web.Response:
        message = self._message_or_404(request)
        if message is None or message.ephemeral:
            return discord_error(404, 10008, "Unknown Message")
        body = request[RECORD].body or {}
        where = f"PATCH {request[RECORD].path}"
        problems = self._validate("MessageEditRequestPartial", body, where) + self._message_rules(body, where, False)
        if problems:
            return discord_error(400, 50035, "Invalid Form Body", "; ".join(problems))
        message.apply(body)
        return self._message_answer(message)

    async def _delete_message(self, request: web.Request) -> web.Response:
        message = self._message_or_404(request)
        if message is None:
            return discord_error(404, 10008, "Unknown Message")
        message.deleted = True
        return empty_response()

    def _message_rules(self, body: Any, where: str, must_have_content: bool) -> list[str]:
        if not isinstance(body, Mapping):
            return []
        problems = message_problems(body, must_have_content=must_have_content)
        for problem in problems:
            self.breach("message", f"{where}: {problem}")
        return problems

    # --- interactions: the callback --------------------------------------------------------------

    def _interaction_for(self, request: web.Request, key: str) -> FakeInteraction | None:
        token = request.match_info["token"]
        if key == "id":
            try:
                found = self.interactions.get(int(request.match_info["id"]))
            except ValueError:
                return None
            return found if found is not None and found.token == token else None
        return next((i for i in self.interactions.values() if i.token == token), None)

    async def _callback(self, request: web.Request) -> web.Response:
        record: RecordedRequest = request[RECORD]
        inter = self._interaction_for(request, "id")
        body = record.body
        where = f"callback {record.path.split('/')[2]}"
        if inter is None:
            self.breach("interaction", f"{where}: unknown interaction or token (10062)")
            return discord_error(404, 10062, "Unknown interaction")
        where = f"callback to {inter.label}"
        if self.holding_callbacks:
            self.held_callbacks.append(inter)
            await self._let_go.wait()
            return discord_error(404, 10062, "Unknown interaction")
        now = self.now()
        attempt = Attempt("callback", body, 0, [], now)
        inter.attempts.append(attempt)

        def refuse(status: int, code: int, message: str, rule: str, detail: str) -> web.Response:
            self.breach(rule, f"{where}: {detail}")
            attempt.status, attempt.problems = status, [detail]
            inter.settled.set()
            return discord_error(status, code, message, detail)

        if inter.responded_at is not None:
            return refuse(
                400,
                40060,
                "Interaction has already been acknowledged.",
                "one-response",
                "a second initial response; each interaction takes exactly one",
            )
        elapsed = now - inter.created
        if inter.expired or elapsed > self.response_deadline:
            return refuse(
                404,
                10062,
                "Unknown interaction",
                "3-seconds",
                f"first response after {elapsed:.2f} s; Discord allows {self.response_deadline:g} s",
            )
        if not isinstance(body, Mapping) or not isinstance(body.get("type"), int):
            return refuse(400, 50035, "Invalid Form Body", "schema", "the callback body has no integer type")
        kind = body["type"]
        if kind not in ALLOWED_CALLBACKS.get(inter.type, set()):
            return refuse(
                400,
                50035,
                "Invalid Form Body",
                "callback-type",
                f"response type {kind} is not allowed for interaction type {inter.type}",
            )
        problems = self._validate(CALLBACK_SCHEMAS[kind], body, where)
        data = body.get("data") if isinstance(body.get("data"), Mapping) else {}
        if kind == CHANNEL_MESSAGE:
            problems += self._message_rules(data, where, True)
        elif kind == UPDATE_MESSAGE:
            problems += self._message_rules(data, where, False)
            if inter.message is None:
                problems.append("UPDATE_MESSAGE answers only a component or a modal opened from one")
                self.breach("callback-type", f"{where}: {problems[-1]}")
        elif kind == DEFERRED_UPDATE and inter.message is None:
            problems.append("DEFERRED_UPDATE_MESSAGE answers only a component or a modal opened from one")
            self.breach("callback-type", f"{where}: {problems[-1]}")
        elif kind == AUTOCOMPLETE_RESULT:
            problems += self._choice_rules(inter, data, where)
        elif kind == MODAL:
            problems += self._modal_rules(data, where)
        if problems:
            attempt.status, attempt.problems = 400, problems
            inter.settled.set()
            return discord_error(400, 50035, "Invalid Form Body", "; ".join(problems))

        inter.responded_at, inter.response_type, inter.response = now, kind, body
        attempt.status = 200
        resource: dict[str, Any] | None = None
        if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            flags = int(data.get("flags") or 0)
            if kind == DEFERRED_CHANNEL_MESSAGE:
                flags = (flags & EPHEMERAL) | LOADING
            inter.original = self._new_message(
                inter.channel,
                data if kind == CHANNEL_MESSAGE else {},
                flags=flags,
                type=20 if inter.type == APPLICATION_COMMAND else 0,
                interaction=inter,
            )
            if kind == CHANNEL_MESSAGE:
                resource = {"type": kind, "message": inter.original.payload()}
        elif kind in (UPDATE_MESSAGE, DEFERRED_UPDATE):
            assert inter.message is not None
            inter.original = inter.message
            if kind == UPDATE_MESSAGE:
                inter.message.apply(data)
                resource = {"type": kind, "message": inter.message.payload()}
        elif kind == AUTOCOMPLETE_RESULT:
            inter.choices = list(data.get("choices") or [])
        elif kind == MODAL:
            inter.modal = dict(data)
        inter.settled.set()
        if not _truthy(record.query.get("with_response")):
            return empty_response(bucket="callback")
        answer: dict[str, Any] = {"interaction": {"id": str(inter.id), "type": inter.type}}
        if inter.original is not None and kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE):
            answer["interaction"]["response_message_id"] = str(inter.original.id)
            answer["interaction"]["response_message_loading"] = kind == DEFERRED_CHANNEL_MESSAGE
            answer["interaction"]["response_message_ephemeral"] = inter.original.ephemeral
        if resource is not None:
            answer["resource"] = resource
        self._self_check("InteractionCallbackResponse", answer, "the fake's callback answer")
        return json_response(answer, bucket="callback")

    def _choice_rules(self, inter: FakeInteraction, data: Mapping[str, Any], where: str) -> list[str]:
        problems = []  # at most 25, names of 1 to 100 characters: the schema says so
        choices = data.get("choices") or []
        kind = (inter.focused or {}).get("type", STRING)
        for choice in choices:
            if isinstance(choice, Mapping):
                problems += _choice_problems(choice, kind, "autocomplete")
        for problem in problems:
            self.breach("autocomplete", f"{where}: {problem}")
        return problems

    def _modal_rules(self, data: Mapping[str, Any], where: str) -> list[str]:
        problems = []
        if not data.get("custom_id") or not data.get("title"):
            problems.append("a modal needs a custom_id and a title")
        if len(data.get("components") or []) > 5:
            problems.append("a modal holds at most 5 top-level components")
        ids = [c.get("custom_id") for c in walk_components(data.get("components") or []) if c.get("custom_id")]
        for dup in sorted({i for i in ids if ids.count(i) > 1}):
            problems.append(f"two modal components share the custom_id {dup!r}")
        for problem in problems:
            self.breach("modal", f"{where}: {problem}")
        return problems

    # --- interactions: follow-ups and edits ----------------------------------------------------

    def _webhook_interaction(self, request: web.Request) -> tuple[FakeInteraction | None, web.Response | None]:
        if (refused := self._check_app(request)) is not None:
            return None, refused
        inter = self._interaction_for(request, "token")
        where = f"{request.method} {request[RECORD].path[:60]}…"
        if inter is None:
            self.breach("webhook", f"{where}: unknown webhook token (10015)")
            return None, discord_error(404, 10015, "Unknown Webhook")
        age = self.now() - inter.created
        if age > self.followup_window:
            self.breach(
                "15-minutes",
                f"{where} for {inter.label}: {age:.0f} s after the interaction; "
                f"its token lasts {self.followup_window:g} s",
            )
            return None, discord_error(401, 50027, "Invalid Webhook Token")
        if inter.responded_at is None:
            self.breach("webhook", f"{where} for {inter.label} before any initial response")
            return None, discord_error(404, 10015, "Unknown Webhook")
        return inter, None

    async def _followup(self, request: web.Request) -> web.Response:
        inter, refused = self._webhook_interaction(request)
        if refused is not None:
            return refused
        assert inter is not None
        record: RecordedRequest = request[RECORD]
        body = record.body or {}
        where = f"follow-up to {inter.label}"
        problems = self._validate("IncomingWebhookRequestPartial", body, where) + self._message_rules(body, where, True)
        inter.attempts.append(Attempt("followup", body, 400 if problems else 200, problems, self.now()))
        if problems:
            return discord_error(400, 50035, "Invalid Form Body", "; ".join(problems))
        if inter.original is not None and inter.original.loading and not inter.original.deleted:
            # The first follow-up after a deferral fills the "thinking" message, which keeps the
            # deferral's visibility: Discord ignores the follow-up's ephemeral flag. Once that
            # message is deleted, a follow-up is a message of its own, with its own flags.
            message = inter.original
            message.apply({k: v for k, v in body.items() if k != "flags"})
        else:
            message = self._new_message(
                inter.channel, body, flags=int(body.get("flags") or 0) & SENDABLE_FLAGS, interaction=inter
            )
            inter.followups.append(message)
        if not _truthy(record.query.get("wait")):
            return empty_response(bucket="webhook")
        return self._message_answer(message, bucket="webhook")

    def _webhook_message(self, inter: FakeInteraction, request: web.Request) -> FakeMessage | None:
        wanted = request.match_info["message"]
        if wanted == "@original":
            return inter.original
        return next((m for m in [inter.original, *inter.followups] if m is not None and str(m.id) == wanted), None)

    async def _get_webhook_message(self, request: web.Request) -> web.Response:
        inter, refused = self._webhook_interaction(request)
        if refused is not None:
            return refused
        assert inter is not None
        message = self._webhook_message(inter, request)
        if message is None or message.deleted:
            return discord_error(404, 10008, "Unknown Message")
        return self._message_answer(message)

    async def _edit_webhook_message(self, request: web.Request) -> web.Response:
        inter, refused = self._webhook_interaction(request)
        if refused is not None:
            return refused
        assert inter is not None
        message = self._webhook_message(inter, request)
        where = f"edit of a response to {inter.label}"
        if message is None or message.deleted:
            self.breach("webhook", f"{where}: no such message (10008)")
            return discord_error(404, 10008, "Unknown Message")
        body = request[RECORD].body or {}
        problems = self._validate("IncomingWebhookUpdateRequestPartial", body, where)
        problems += self._message_rules(body, where, False)
        inter.attempts.append(Attempt("edit", body, 400 if problems else 200, problems, self.now()))
        if problems:
            return discord_error(400, 50035, "Invalid Form Body", "; ".join(problems))
        message.apply(body)
        return self._message_answer(message)

    async def _delete_webhook_message(self, request: web.Request) -> web.Response:
        inter, refused = self._webhook_interaction(request)
        if refused is not None:
            return refused
        assert inter is not None
        message = self._webhook_message(inter, request)
        if message is None or message.deleted:
            return discord_error(404, 10008, "Unknown Message")
        message.deleted = True
        inter.attempts.append(Attempt("delete", None, 204, [], self.now()))
        return empty_response()

    # --- the gateway -----------------------------------------------------------------------------

    def _log_gateway(self, conn: _Connection, direction: str, frame: Mapping[str, Any]) -> None:
        self.gateway_log.append(
            {
                "conn": conn.number,
                "dir": direction,
                "op": frame.get("op"),
                "t": frame.get("t"),
                "s": frame.get("s"),
                "at": time.monotonic(),
            }
        )

    async def _send(self, conn: _Connection, frame: Mapping[str, Any]) -> None:
        if await conn.send(frame):
            self._log_gateway(conn, "send", frame)

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, compress=False, timeout=2.0)
        query = request.query
        problems = []
        if query.get("v") != str(API_VERSION):
            problems.append(f"gateway version {query.get('v')!r}; the fake speaks v{API_VERSION}")
        if query.get("encoding", "json") != "json":
            problems.append(f"encoding {query.get('encoding')!r}; the fake speaks json")
        compress = query.get("compress")
        if compress not in (None, "zlib-stream"):
            problems.append(f"compress={compress!r}; the fake offers zlib-stream or none")
        await ws.prepare(request)
        conn = _Connection(ws, request.path, compress)
        self.connections.append(conn)
        if problems:
            for problem in problems:
                self.breach("gateway", problem)
            await ws.close(code=4012 if "version" in problems[0] else 4000, message=problems[0][:120].encode())
            return ws
        await self._send(
            conn,
            {
                "op": HELLO,
                "d": {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake-discord"]},
                "s": None,
                "t": None,
            },
        )
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    try:
                        frame = json.loads(msg.data)
                    except json.JSONDecodeError:
                        await ws.close(code=4002, message=b"Error while decoding payload.")
                        break
                    await self._gateway_frame(conn, frame)
                elif msg.type == WSMsgType.BINARY:
                    self.breach("gateway", "the client sent a binary frame; the fake expects JSON text")
                    await ws.close(code=4002, message=b"Error while decoding payload.")
                    break
                else:
                    break
        finally:
            self._heartbeat_gap(conn, time.monotonic())
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
        return ws

    def _heartbeat_gap(self, conn: _Connection, until: float) -> None:
        """Discord drops a client that misses its heartbeat; the fake records it, with slack for a
        loaded machine (:data:`HEARTBEAT_SLACK`)."""
        allowed = self.heartbeat_interval_ms / 1000 * 1.5 + HEARTBEAT_SLACK
        gap = until - conn.last_beat
        if conn.session is not None and gap > allowed:
            self.breach(
                "heartbeat",
                f"connection {conn.number}: {gap:.1f} s without a heartbeat; "
                f"HELLO asked for one every {self.heartbeat_interval_ms / 1000:g} s",
            )

    async def _gateway_frame(self, conn: _Connection, frame: Mapping[str, Any]) -> None:
        self._log_gateway(conn, "recv", frame)
        op, data = frame.get("op"), frame.get("d")
        now = time.monotonic()
        conn.received = [t for t in conn.received if now - t < 60.0] + [now]
        if len(conn.received) > 120:
            self.breach(
                "gateway-rate", f"connection {conn.number}: more than 120 frames in 60 s (Discord closes with 4008)"
            )
        if op == HEARTBEAT:
            self._heartbeat_gap(conn, now)
            conn.last_beat = now
            conn.heartbeats.append(data)
            session = conn.session
            if session is not None and isinstance(data, int) and data > session.seq:
                self.breach("gateway", f"heartbeat with sequence {data}, beyond the last sent ({session.seq})")
            await self._send(conn, {"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            await self._identify(conn, data or {})
        elif op == RESUME:
            await self._resume(conn, data or {})
        elif conn.session is None:
            await conn.ws.close(code=4003, message=b"Not authenticated.")
        elif op in (PRESENCE_UPDATE, REQUEST_GUILD_MEMBERS, 4):
            pass
        else:
            await conn.ws.close(code=4001, message=b"Unknown opcode.")

    async def _identify(self, conn: _Connection, data: Mapping[str, Any]) -> None:
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
            return
        if data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = data.get("intents")
        if not isinstance(intents, int):
            self.breach("gateway", "IDENTIFY without intents (required since gateway v8)")
            await conn.ws.close(code=4013, message=b"Invalid intent(s).")
            return
        if intents & PRIVILEGED_INTENTS & ~self.privileged_intents:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        properties = data.get("properties") or {}
        if not all(properties.get(k) for k in ("os", "browser", "device")):
            self.breach("gateway", "IDENTIFY without properties os, browser and device")
        self.identifies.append(dict(data))
        session = GatewaySession(self, data)
        session.conn = conn
        conn.session = session
        self.sessions.append(session)
        me = self.bot_user.payload()
        me.update({"verified": True, "mfa_enabled": False, "email": None})
        await session.dispatch(
            "READY",
            {
                "v": API_VERSION,
                "user": me,
                "guilds": [{"id": str(g.id), "unavailable": True} for g in self.guilds],
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": self.resume_gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": ["fake"],
                "user_settings": {},
                "auth": {},
                "_trace": ["fake-discord"],
            },
        )
        if intents & GUILDS_INTENT:
            for guild in self.guilds:
                await session.dispatch("GUILD_CREATE", self.guild_payload(guild))
        session.ready = True

    def guild_payload(self, guild: FakeGuild) -> dict[str, Any]:
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": guild.roles_payload(),
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": guild.members.get(self.bot_user.id, iso_now()),
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "voice_states": [],
            "members": [guild.member_payload(self.bot_user)],
            "channels": [c.payload() for c in guild.channels],
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    async def _resume(self, conn: _Connection, data: Mapping[str, Any]) -> None:
        self.resumes.append(dict(data))
        if data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        session = next((s for s in self.sessions if s.id == data.get("session_id")), None)
        seq = data.get("seq")
        if session is None or not isinstance(seq, int) or seq > session.seq:
            await self._send(conn, {"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        async with session.lock:
            old = session.conn
            session.conn = conn
            conn.session = session
            if old is not None and old is not conn and old.open:
                await old.ws.close(code=4000, message=b"Session resumed elsewhere.")
            for frame in session.history:
                if frame["s"] > seq:
                    await self._send(conn, frame)
        session.resumed += 1
        await session.dispatch("RESUMED", {"_trace": ["fake-discord"]})

    @property
    def session(self) -> GatewaySession | None:
        """The newest identified gateway session (the bot's current one)."""
        return self.sessions[-1] if self.sessions else None

    async def wait_for_session(self, timeout: float = PATIENCE) -> GatewaySession:
        await self.wait_until(lambda: self.session is not None and self.session.ready, timeout, "an identified session")
        assert self.session is not None
        return self.session

    async def drop_connection(self, code: int = 4000, reason: str = "fake Discord dropped the connection") -> None:
        """Close the current session's socket as Discord does when it restarts a gateway node.

        Returns once the close frame is on its way (the closing handshake finishes in the background).
        """
        session = await self.wait_for_session()
        conn = session.conn
        if conn is not None and conn.open:
            session.conn = None
            task = asyncio.create_task(conn.ws.close(code=code, message=reason.encode()))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            await asyncio.wait({task}, timeout=0.1)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client should close and RESUME."""
        session = await self.wait_for_session()
        if session.conn is not None:
            await self._send(session.conn, {"op": RECONNECT, "d": None, "s": None, "t": None})

    async def invalidate_session(self, *, resumable: bool = False) -> None:
        session = await self.wait_for_session()
        if session.conn is not None:
            await self._send(session.conn, {"op": INVALID_SESSION, "d": resumable, "s": None, "t": None})

    async def wait_resumed(self, count: int = 1, timeout: float = PATIENCE) -> GatewaySession:
        await self.wait_until(
            lambda: self.session is not None and self.session.resumed >= count and self.session.conn is not None,
            timeout,
            "a RESUME",
        )
        assert self.session is not None
        return self.session

    # --- playing users: interactions ---------------------------------------------------------

    def _interaction(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel | None,
        data: dict[str, Any],
        message: FakeMessage | None = None,
    ) -> FakeInteraction:
        channel = channel or self.channel
        guild = self.guild_of(channel)
        if user.id not in guild.members:
            guild.members[user.id] = iso_now()
        iid = snowflake()
        token = f"aW50ZXJhY3Rpb246{iid}:{secrets.token_urlsafe(48)}"
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
            "guild_id": str(guild.id),
            "channel": channel.payload(),
            "channel_id": str(channel.id),
            "member": guild.member_payload(user, permissions=True),
            "token": token,
            "version": 1,
            "app_permissions": str(guild.permissions_of(self.bot_user)),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if message is not None:
            payload["message"] = message.payload()
        return FakeInteraction(iid, token, kind, user, guild, channel, data, payload, message)

    async def _dispatch(self, inter: FakeInteraction) -> None:
        session = await self.wait_for_session()
        self.interactions[inter.id] = inter
        inter.created = self.now()
        loop = asyncio.get_running_loop()
        self._timers.append(loop.call_later(self.response_deadline, self._watchdog, inter))
        await session.dispatch("INTERACTION_CREATE", inter.payload)

    def expire_unanswered(self) -> list[FakeInteraction]:
        """What the deadline does to every interaction not answered yet, at once (for a test that
        killed the bot: it need not wait out the deadline). The ones it expired."""
        waiting = [i for i in self.interactions.values() if i.responded_at is None and not i.expired]
        for inter in waiting:
            self._watchdog(inter)
        return waiting

    def _watchdog(self, inter: FakeInteraction) -> None:
        if inter.responded_at is None and not inter.expired:
            inter.expired = True
            self.breach("3-seconds", f"no initial response to {inter.label} within {self.response_deadline:g} s")
            inter.settled.set()

    async def _result(self, inter: FakeInteraction, timeout: float | None) -> InteractionResult:
        wait = timeout if timeout is not None else self.response_deadline + 1.0
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(inter.settled.wait(), wait)
        result = InteractionResult(self, inter)
        original = inter.original
        if inter.response_type == DEFERRED_CHANNEL_MESSAGE and original is not None:
            await self.wait_until(
                lambda: not original.loading or (original.deleted and inter.followups),
                max(wait, DEFERRED_ANSWER_WAIT),  # a caller giving more time (work queued in a worker) gives it here
                f"the deferred answer to {inter.label}",
            )
        return result

    def _subcommand(self, path: str, guild: FakeGuild) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
        """The interaction data skeleton for ``"ssg shoot"``, its innermost node and the declared options."""
        parts = path.strip().lstrip("/").split()
        if not parts:
            raise InvalidInteraction("name a command")
        command = self.find_command(parts[0], guild)
        if command is None:
            raise InvalidInteraction(
                f"no command /{parts[0]} has been synced (synced: "
                f"{sorted(c['name'] for c in self.commands(guild) + self.commands())})"
            )
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": command.get("type", 1)}
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        node = data
        declared = command.get("options") or []
        for part in parts[1:]:
            option = next(
                (o for o in declared if o["name"] == part and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)), None
            )
            if option is None:
                subs = [o["name"] for o in declared if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
                raise InvalidInteraction(
                    f"/{' '.join(parts[: parts.index(part)])} has no subcommand {part!r} (it has {subs})"
                )
            child: dict[str, Any] = {"name": part, "type": option["type"], "options": []}
            node.setdefault("options", []).append(child)
            node = child
            declared = option.get("options") or []
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in declared):
            raise InvalidInteraction(f"/{path} is a group: name one of its subcommands")
        node.setdefault("options", [])
        return data, declared, node

    def _option_value(
        self, path: str, decl: Mapping[str, Any], value: Any, resolved: dict[str, Any], guild: FakeGuild
    ) -> Any:
        kind, name = decl["type"], decl["name"]
        where = f"/{path} {name}"
        if kind == STRING:
            if not isinstance(value, str):
                raise InvalidInteraction(f"{where} takes text, not {value!r}")
            if len(value) < decl.get("min_length", 0) or len(value) > decl.get("max_length", 6000):
                raise InvalidInteraction(f"{where}: Discord's client refuses {len(value)} characters")
        elif kind in (INTEGER, NUMBER):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise InvalidInteraction(f"{where} takes a number, not {value!r}")
            if kind == INTEGER:
                if isinstance(value, float) and not value.is_integer():
                    raise InvalidInteraction(f"{where} takes a whole number, not {value!r}")
                value = int(value)
            if ("min_value" in decl and value < decl["min_value"]) or (
                "max_value" in decl and value > decl["max_value"]
            ):
                raise InvalidInteraction(f"{where}: Discord's client refuses {value!r} (outside its range)")
        elif kind == BOOLEAN:
            if not isinstance(value, bool):
                raise InvalidInteraction(f"{where} takes True or False, not {value!r}")
        elif kind in (USER, MENTIONABLE):
            user = value if isinstance(value, FakeUser) else self.users.get(int(value))
            if user is None:
                raise InvalidInteraction(f"{where}: unknown user {value!r}")
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            if user.id in guild.members:
                resolved.setdefault("members", {})[str(user.id)] = guild.member_payload(
                    user, with_user=False, permissions=True
                )
            value = str(user.id)
        elif kind == CHANNEL:
            channel = value if isinstance(value, FakeChannel) else self.channel_by_id(int(value))
            if channel is None:
                raise InvalidInteraction(f"{where}: unknown channel {value!r}")
            resolved.setdefault("channels", {})[str(channel.id)] = {
                **channel.payload(),
                "permissions": str(ALL_PERMISSIONS),
            }
            value = str(channel.id)
        elif kind == ROLE:
            role = next((r for r in guild.roles_payload() if r["id"] == str(value)), None)
            if role is None:
                raise InvalidInteraction(f"{where}: unknown role {value!r}")
            resolved.setdefault("roles", {})[role["id"]] = role
            value = role["id"]
        else:
            raise InvalidInteraction(f"{where}: the fake does not send option type {kind}")
        choices = decl.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise InvalidInteraction(f"{where} must be one of {[c['value'] for c in choices]}, not {value!r}")
        return value

    def _build_options(
        self,
        path: str,
        declared: Sequence[Mapping[str, Any]],
        options: Mapping[str, Any],
        guild: FakeGuild,
        *,
        focused: str | None = None,
        focused_value: str = "",
    ) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any] | None]:
        by_name = {o["name"]: o for o in declared}
        values: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        focused_decl = None
        for name, value in options.items():
            if value is None:
                continue
            if name not in by_name:
                raise InvalidInteraction(f"/{path} has no option {name!r} (it has {sorted(by_name)})")
            decl = by_name[name]
            values.append(
                {"name": name, "type": decl["type"], "value": self._option_value(path, decl, value, resolved, guild)}
            )
        if focused is not None:
            focused_decl = by_name.get(focused)
            if focused_decl is None:
                raise InvalidInteraction(f"/{path} has no option {focused!r} (it has {sorted(by_name)})")
            if not focused_decl.get("autocomplete"):
                raise InvalidInteraction(f"/{path} {focused} was not declared with autocomplete")
            values = [v for v in values if v["name"] != focused]
            values.append({"name": focused, "type": focused_decl["type"], "value": str(focused_value), "focused": True})
        else:
            given = {v["name"] for v in values}
            missing = [o["name"] for o in declared if o.get("required") and o["name"] not in given]
            if missing:
                raise InvalidInteraction(f"Discord's client does not send /{path} without {missing}")
        return values, resolved, focused_decl

    async def send_slash(
        self, user: FakeUser, command: str, /, *, at: FakeChannel | None = None, **options: Any
    ) -> FakeInteraction:
        """Dispatch a slash command without waiting for the answer."""
        channel = at or self.channel
        guild = self.guild_of(channel)
        data, declared, node = self._subcommand(command, guild)
        node["options"], resolved, _ = self._build_options(command, declared, options, guild)
        if not node["options"] and node is not data:
            node.pop("options")
        if not data.get("options"):
            data.pop("options", None)
        if resolved:
            data["resolved"] = resolved
        inter = self._interaction(APPLICATION_COMMAND, user, channel, data)
        await self._dispatch(inter)
        return inter

    async def slash(
        self,
        user: FakeUser,
        command: str,
        /,
        *,
        at: FakeChannel | None = None,
        timeout: float | None = None,
        **options: Any,
    ) -> InteractionResult:
        """``user`` runs ``/command`` with ``options``, typed from the synced definitions; the bot's answer."""
        inter = await self.send_slash(user, command, at=at, **options)
        return await self._result(inter, timeout)

    async def autocomplete(
        self,
        user: FakeUser,
        command: str,
        /,
        *,
        focused: str,
        value: str = "",
        at: FakeChannel | None = None,
        **others: Any,
    ) -> InteractionResult:
        """``user`` types ``value`` into option ``focused``; the result's ``choices`` are the bot's suggestions."""
        channel = at or self.channel
        guild = self.guild_of(channel)
        data, declared, node = self._subcommand(command, guild)
        node["options"], resolved, decl = self._build_options(
            command, declared, others, guild, focused=focused, focused_value=value
        )
        if resolved:
            data["resolved"] = resolved
        inter = self._interaction(AUTOCOMPLETE, user, channel, data)
        inter.focused = dict(decl or {})
        await self._dispatch(inter)
        return await self._result(inter, None)

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage | InteractionResult,
        custom_id: str,
        *,
        values: Sequence[str] | None = None,
    ) -> InteractionResult:
        """``user`` presses the button (or picks ``values`` in the select menu) ``custom_id`` of ``message``."""
        if isinstance(message, InteractionResult):
            if message.message is None:
                raise InvalidInteraction(f"{message!r} has no message to click")
            message = message.message
        component = next((c for c in walk_components(message.components) if c.get("custom_id") == custom_id), None)
        if component is None:
            raise InvalidInteraction(
                f"message {message.id} has no component {custom_id!r} (it has {message.custom_ids})"
            )
        if component.get("disabled"):
            raise InvalidInteraction(f"{custom_id!r} is disabled: Discord's client does not send the click")
        if message.ephemeral and message.interaction_user is not None and message.interaction_user.id != user.id:
            raise InvalidInteraction("only the user who received an ephemeral message can see its buttons")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] != 2:
            data["values"] = list(values or [])
        channel = self.channel_by_id(message.channel_id)
        inter = self._interaction(MESSAGE_COMPONENT, user, channel, data, message)
        await self._dispatch(inter)
        return await self._result(inter, None)

    async def modal_submit(
        self, user: FakeUser, opened_by: InteractionResult, values: Mapping[str, str]
    ) -> InteractionResult:
        """``user`` fills the modal the bot opened in answer to ``opened_by`` and submits it."""
        modal = opened_by.modal
        if modal is None:
            raise InvalidInteraction(f"{opened_by!r} did not open a modal")
        origin = opened_by.interaction

        def answer(component: Mapping[str, Any]) -> dict[str, Any] | None:
            kind = component.get("type")
            if kind == 1:
                inner = [a for a in (answer(c) for c in component.get("components") or []) if a]
                return {"type": 1, "components": inner}
            if kind == 18:
                inner_answer = answer(component.get("component") or {})
                return {"type": 18, "id": component.get("id", 0), "component": inner_answer} if inner_answer else None
            cid = component.get("custom_id")
            if cid is None:
                return None
            given = values.get(cid)
            if kind == 4:
                text = given or ""
                if component.get("required", True) and not text:
                    raise InvalidInteraction(f"the modal's {cid!r} is required")
                if text and not component.get("min_length", 0) <= len(text) <= component.get("max_length", 4000):
                    raise InvalidInteraction(
                        f"the modal's {cid!r} takes {component.get('min_length', 0)}-"
                        f"{component.get('max_length', 4000)} characters"
                    )
                return {"type": 4, "custom_id": cid, "value": text}
            return {"type": kind, "custom_id": cid, "values": list(given or [])}

        unknown = set(values) - {c.get("custom_id") for c in walk_components(modal.get("components") or [])}
        if unknown:
            raise InvalidInteraction(f"the modal has no input {sorted(unknown)}")
        data = {
            "custom_id": modal["custom_id"],
            "components": [a for a in (answer(c) for c in modal.get("components") or []) if a],
        }
        inter = self._interaction(MODAL_SUBMIT, user, origin.channel, data, origin.message)
        inter.origin = origin
        await self._dispatch(inter)
        return await self._result(inter, None)


def _truthy(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true", "yes")


_SCHEMAS: dict[bool, DiscordSchemas] = {}


def _shared_schemas(*, strict: bool = False) -> DiscordSchemas:
    """One set of compiled validators for the whole test session (building them costs a moment)."""
    if strict not in _SCHEMAS:
        _SCHEMAS[strict] = DiscordSchemas(lenient_snowflakes=not strict)
    return _SCHEMAS[strict]
