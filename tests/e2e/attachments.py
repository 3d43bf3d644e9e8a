"""Attachments for the fake Discord: a user sends a file with a slash command, and the bot's files are kept.

The fake Discord builds every option type but ATTACHMENT. Discord sends an attachment option as
the attachment's id, with the attachment itself (filename, size, url …) under
``data.resolved.attachments``; the bot then downloads it from Discord's file servers (the CDN).
This module plays both parts on 127.0.0.1:

* :class:`AttachmentHost` is the CDN: a small HTTP server that serves each uploaded file at its url;
* :func:`slash_with_files` sends a slash command where any option value that is an :class:`Upload`
  goes as an ATTACHMENT option (checked against the synced command like every other option);
* :func:`sent_files` returns the files the bot attached to its answers to one interaction, by name
  (the fake keeps their bytes in ``RecordedRequest.contents``).

Used like::

    async with AttachmentHost() as cdn:
        result = await slash_with_files(fake, cdn, rita, "roster import", file=Upload("red.yaml", data))
        exported = sent_files(fake, await fake.slash(rita, "roster export"))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from aiohttp import web

from tests.e2e.fake_discord import (
    APPLICATION_COMMAND,
    ATTACHMENT,
    FakeChannel,
    FakeDiscord,
    FakeUser,
    InteractionResult,
    InvalidInteraction,
    snowflake,
)


@dataclass(frozen=True)
class Upload:
    """A file a user attaches to a command."""

    filename: str
    data: bytes
    content_type: str = "application/x-yaml; charset=utf-8"


class AttachmentHost:
    """Discord's file servers, for the files users attach: one loopback HTTP server."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.host = host
        self.port = 0
        self.files: dict[str, Upload] = {}
        self.downloads: list[str] = []
        self.broken = False  # answer every download with 404, as a file Discord no longer has
        self._runner: web.AppRunner | None = None

    async def start(self) -> Self:
        app = web.Application()
        app.router.add_get("/attachments/{channel}/{id}/{name}", self._serve)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def put(self, upload: Upload, channel: FakeChannel) -> dict[str, Any]:
        """Store ``upload`` and return the attachment object Discord would resolve for it."""
        aid = str(snowflake())
        path = f"/attachments/{channel.id}/{aid}/{upload.filename}"
        self.files[path] = upload
        url = f"http://{self.host}:{self.port}{path}"
        return {
            "id": aid,
            "filename": upload.filename,
            "size": len(upload.data),
            "url": url,
            "proxy_url": url,
            "content_type": upload.content_type,
            "ephemeral": True,
        }

    async def _serve(self, request: web.Request) -> web.Response:
        upload = self.files.get(request.path)
        if upload is None or self.broken:
            return web.Response(status=404, text="404: Not Found")
        self.downloads.append(request.path)
        return web.Response(body=upload.data, content_type=upload.content_type.split(";")[0])


async def send_slash_with_files(
    fake: FakeDiscord,
    cdn: AttachmentHost,
    user: FakeUser,
    command: str,
    /,
    *,
    at: FakeChannel | None = None,
    **options: Any,
) -> Any:
    """:meth:`FakeDiscord.send_slash`, with :class:`Upload` values sent as ATTACHMENT options."""
    channel = at or fake.channel
    guild = fake.guild_of(channel)
    data, declared, node = fake._subcommand(command, guild)
    uploads = {k: v for k, v in options.items() if isinstance(v, Upload)}
    plain = {k: v for k, v in options.items() if not isinstance(v, Upload)}
    by_name = {o["name"]: o for o in declared}
    for name in uploads:
        if name not in by_name or by_name[name]["type"] != ATTACHMENT:
            raise InvalidInteraction(f"/{command} has no attachment option {name!r}")
    missing = [
        o["name"] for o in declared if o["type"] == ATTACHMENT and o.get("required") and o["name"] not in uploads
    ]
    if missing:
        raise InvalidInteraction(f"Discord's client does not send /{command} without {missing}")
    others = [o for o in declared if o["type"] != ATTACHMENT]
    node["options"], resolved, _ = fake._build_options(command, others, plain, guild)
    for name, upload in uploads.items():
        attachment = cdn.put(upload, channel)
        node["options"].append({"name": name, "type": ATTACHMENT, "value": attachment["id"]})
        resolved.setdefault("attachments", {})[attachment["id"]] = attachment
    if not node["options"] and node is not data:
        node.pop("options")
    if not data.get("options"):
        data.pop("options", None)
    if resolved:
        data["resolved"] = resolved
    inter = fake._interaction(APPLICATION_COMMAND, user, channel, data)
    await fake._dispatch(inter)
    return inter


async def slash_with_files(
    fake: FakeDiscord,
    cdn: AttachmentHost,
    user: FakeUser,
    command: str,
    /,
    *,
    at: FakeChannel | None = None,
    timeout: float | None = None,
    **options: Any,
) -> InteractionResult:
    """``user`` runs ``/command`` with ``options`` (files as :class:`Upload`); the bot's answer."""
    inter = await send_slash_with_files(fake, cdn, user, command, at=at, **options)
    return await fake._result(inter, timeout)


def keep_sent_files(fake: FakeDiscord) -> None:
    """Kept for the tests that call it: the fake now always keeps the bytes of the files the bot sends
    (``RecordedRequest.contents``, beside ``files``), so there is nothing to switch on."""


def sent_files(fake: FakeDiscord, result: InteractionResult) -> dict[str, bytes]:
    """The files the bot attached to its answers to ``result``'s interaction (kept by :func:`keep_sent_files`)."""
    inter = result.interaction
    keys = (f"/interactions/{inter.id}/", f"/webhooks/{fake.application_id}/{inter.token}")
    found: dict[str, bytes] = {}
    for request in fake.requests:
        if request.path.startswith(keys):
            for file, data in zip(request.files, request.contents, strict=True):
                found[file["filename"]] = data
    return found


async def picture_of(
    fake: FakeDiscord, result: InteractionResult, name: str = "map.png", timeout: float = 60.0
) -> bytes:
    """The picture ``name`` the bot attached to its answer to ``result``: an action's answer goes
    at once and its picture follows as an edit of it, so this waits for it (generously)."""
    await fake.wait_until(lambda: name in sent_files(fake, result), timeout, f"{name} for {result.interaction.label}")
    return sent_files(fake, result)[name]


def sent_file_names(fake: FakeDiscord, result: InteractionResult) -> list[str]:
    """The names the bot gave the files it attached to its answers (the fake always keeps these)."""
    inter = result.interaction
    keys = (f"/interactions/{inter.id}/", f"/webhooks/{fake.application_id}/{inter.token}")
    return [f["filename"] for r in fake.requests if r.path.startswith(keys) for f in r.files]
