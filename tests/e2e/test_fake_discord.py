"""The fake Discord itself: its wire protocol, and that it catches breaches of Discord's rules.

Most tests drive it with a minimal gateway client and plain HTTP (no bot), so each rule is seen
to fire on purpose; the last ones run the real bot against it (login, sync, heartbeats, RESUME).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import zlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from tests.e2e.fake_discord import (
    SUBSET,
    DiscordSchemas,
    FakeDiscord,
    InvalidInteraction,
    command_problems,
    message_problems,
)

ZLIB_SUFFIX = b"\x00\x00\xff\xff"
STRICT = DiscordSchemas(lenient_snowflakes=False)

PING_COMMAND = {
    "name": "ping",
    "description": "Answer",
    "type": 1,
    "options": [
        {"type": 3, "name": "word", "description": "A word", "required": False, "autocomplete": True},
        {"type": 4, "name": "times", "description": "How often", "required": False, "min_value": 1, "max_value": 5},
        {"type": 6, "name": "who", "description": "Someone", "required": False},
    ],
}


class RawGateway:
    """A minimal gateway client, to see exactly what the fake sends."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self._inflate = zlib.decompressobj()
        self._buffer = bytearray()
        self.seq: int | None = None
        self.ready: dict[str, Any] | None = None

    @classmethod
    async def connect(cls, http: aiohttp.ClientSession, url: str, *, compress: bool = True) -> RawGateway:
        query = "?v=10&encoding=json" + ("&compress=zlib-stream" if compress else "")
        return cls(await http.ws_connect(url + query, autoclose=False))

    async def receive(self, timeout: float = 30.0) -> dict[str, Any]:
        while True:
            msg = await self.ws.receive(timeout=timeout)
            if msg.type == aiohttp.WSMsgType.BINARY:
                self._buffer.extend(msg.data)
                if not self._buffer.endswith(ZLIB_SUFFIX):
                    continue
                text = self._inflate.decompress(bytes(self._buffer)).decode()
                self._buffer.clear()
            elif msg.type == aiohttp.WSMsgType.TEXT:
                text = msg.data
            else:
                await self.ws.close()  # finish the closing handshake, as discord.py does
                raise ConnectionError(f"closed: {msg.type} {msg.data} {msg.extra}")
            frame = json.loads(text)
            if frame.get("s") is not None:
                self.seq = frame["s"]
            return frame

    async def send(self, payload: dict[str, Any]) -> None:
        await self.ws.send_str(json.dumps(payload))

    async def identify(self, token: str, intents: int = 1) -> dict[str, Any]:
        await self.send(
            {
                "op": 2,
                "d": {
                    "token": token,
                    "intents": intents,
                    "properties": {"os": "linux", "browser": "raw", "device": "raw"},
                },
            }
        )
        ready = await self.dispatch("READY")
        self.ready = ready["d"]
        return ready

    async def dispatch(self, event: str, timeout: float = 30.0) -> dict[str, Any]:
        """The next dispatch called ``event`` (other frames are skipped)."""
        while True:
            frame = await self.receive(timeout)
            if frame.get("op") == 0 and frame.get("t") == event:
                return frame


@pytest_asyncio.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


@pytest_asyncio.fixture
async def client(fake: FakeDiscord, http: aiohttp.ClientSession) -> AsyncIterator[RawGateway]:
    """A raw client, identified, with the ``/ping`` command synced."""
    gateway = await RawGateway.connect(http, fake.gateway_url)
    assert (await gateway.receive())["op"] == 10
    await gateway.identify(fake.token)
    async with http.put(
        f"{fake.api_base}/applications/{fake.application_id}/commands", json=[PING_COMMAND], headers=auth(fake)
    ) as answer:
        assert answer.status == 200, await answer.text()
    yield gateway
    await gateway.ws.close()


def auth(fake: FakeDiscord) -> dict[str, str]:
    return {"Authorization": f"Bot {fake.token}", "User-Agent": "DiscordBot (https://example.org, 1.0)"}


async def answer(
    http: aiohttp.ClientSession, fake: FakeDiscord, interaction: dict[str, Any], body: dict[str, Any]
) -> tuple[int, Any]:
    url = f"{fake.api_base}/interactions/{interaction['id']}/{interaction['token']}/callback?with_response=1"
    async with http.post(url, json=body) as response:
        text = await response.text()
        return response.status, (json.loads(text) if text else None)


def rules_of(breaches: list[Any]) -> list[str]:
    return [b.rule for b in breaches]


# --- REST -------------------------------------------------------------------------------------


async def test_login_endpoints_answer_as_discord_does(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    async with http.get(f"{fake.api_base}/users/@me", headers=auth(fake)) as response:
        assert response.status == 200
        assert response.headers["Content-Type"] == "application/json"  # discord.py parses no other
        me = await response.json()
    assert STRICT.problems("UserPIIResponse", me) == []
    assert me["id"] == str(fake.application_id) and me["bot"] is True
    async with http.get(f"{fake.api_base}/oauth2/applications/@me", headers=auth(fake)) as response:
        application = await response.json()
    assert STRICT.problems("PrivateApplicationResponse", application) == []
    assert application["owner"]["id"] == str(fake.owner.id)
    async with http.get(f"{fake.api_base}/gateway/bot", headers=auth(fake)) as response:
        assert STRICT.problems("GatewayBotResponse", await response.json()) == []
    async with http.get(f"{fake.api_base}/users/@me", headers={"Authorization": "Bot wrong"}) as response:
        assert response.status == 401
    assert [r.path for r in fake.requests][:2] == ["/users/@me", "/oauth2/applications/@me"]


async def test_an_unknown_route_is_a_breach(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    async with http.get(f"{fake.api_base}/guilds/1/audit-logs", headers=auth(fake)) as response:
        assert response.status == 404
    assert rules_of(fake.take_breaches()) == ["unknown-route"]


async def test_command_sync_is_held_to_discords_rules(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    options = [{"type": 3, "name": f"o{i}", "description": "x", "required": i == 1} for i in range(26)]
    bad = [
        {"name": "Roll", "description": "Upper case", "type": 1},
        {"name": "many", "description": "Too many options, required after optional", "type": 1, "options": options},
        {"name": "a" * 33, "description": "Too long", "type": 1},
    ]
    url = f"{fake.api_base}/applications/{fake.application_id}/commands"
    async with http.put(url, json=bad, headers=auth(fake)) as response:
        assert response.status == 400
        assert (await response.json())["code"] == 50035
    found = "\n".join(str(b) for b in fake.take_breaches())
    assert "'Roll' must be lower-case" in found
    assert "26 options; Discord allows 25" in found
    assert "required options must come before optional ones" in found
    assert "maxLength" in found or "at most 32" in found or "1 to 32" in found
    assert fake.commands() == []  # nothing was stored
    async with http.put(url, json=[PING_COMMAND], headers=auth(fake)) as response:
        stored = await response.json()
    assert [STRICT.problems("ApplicationCommandResponse", c) for c in stored] == [[]]
    assert fake.find_command("ping")["id"] == stored[0]["id"]


def test_the_committed_schemas_are_what_extract_py_makes_of_discords_spec() -> None:
    spec = importlib.util.spec_from_file_location("extract", SUBSET.parent / "extract.py")
    assert spec is not None and spec.loader is not None
    extract = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(extract)
    if not extract.DEFAULT_SPEC.exists():
        pytest.skip("Discord's full OpenAPI description is not beside the checkout")
    made = extract.extract(json.loads(extract.DEFAULT_SPEC.read_text(encoding="utf-8")))
    assert made == json.loads(SUBSET.read_text(encoding="utf-8")), "run tests/e2e/schemas/extract.py"
    assert (SUBSET.parent / "LICENSE").read_text().count("Copyright 2023 Discord") == 1


def test_rule_helpers_say_what_is_wrong() -> None:
    assert command_problems(PING_COMMAND) == []
    assert any(
        "choices and autocomplete" in p
        for p in command_problems(
            {
                "name": "x",
                "description": "y",
                "options": [
                    {
                        "type": 3,
                        "name": "a",
                        "description": "b",
                        "autocomplete": True,
                        "choices": [{"name": "c", "value": "c"}],
                    }
                ],
            }
        )
    )
    big = [{"title": "t", "description": "d" * 2500}] * 3
    assert any("7503 characters" in p for p in message_problems({"embeds": big}, must_have_content=True))
    assert any("empty message" in p for p in message_problems({"content": ""}, must_have_content=True))
    assert any(
        "mutually exclusive" in p
        for p in message_problems(
            {"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}, must_have_content=True
        )
    )


# --- the gateway -------------------------------------------------------------------------------


async def test_hello_identify_ready_guild_create_and_heartbeat(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    gateway = await RawGateway.connect(http, fake.gateway_url)
    hello = await gateway.receive()
    assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] == 41_250
    assert gateway._buffer == b""  # the frame came zlib-stream compressed and was complete
    ready = await gateway.identify(fake.token)
    assert ready["s"] == 1
    for key in ("resume_gateway_url", "session_id", "user", "guilds", "application"):
        assert key in ready["d"], key
    assert ready["d"]["guilds"] == [{"id": str(fake.guild.id), "unavailable": True}]
    guild = await gateway.dispatch("GUILD_CREATE")
    assert guild["s"] == 2
    assert [c["name"] for c in guild["d"]["channels"]] == ["battle"]
    await gateway.send({"op": 1, "d": gateway.seq})
    assert (await gateway.receive())["op"] == 11
    assert fake.connections[0].compress == "zlib-stream"
    await gateway.ws.close()


async def test_without_compression_frames_are_text(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    gateway = await RawGateway.connect(http, fake.gateway_url, compress=False)
    msg = await gateway.ws.receive(timeout=30)
    assert msg.type == aiohttp.WSMsgType.TEXT and json.loads(msg.data)["op"] == 10
    await gateway.ws.close()


async def test_a_wrong_token_is_closed_with_4004(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    gateway = await RawGateway.connect(http, fake.gateway_url)
    await gateway.receive()
    await gateway.send({"op": 2, "d": {"token": "nope", "intents": 1, "properties": {}}})
    msg = await gateway.ws.receive(timeout=30)
    assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4004


async def test_resume_after_the_fake_drops_the_socket_replays_what_was_missed(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    gateway = await RawGateway.connect(http, fake.gateway_url)
    await gateway.receive()
    await gateway.identify(fake.token)
    await gateway.dispatch("GUILD_CREATE")
    session_id = gateway.ready["session_id"]  # type: ignore[index]
    await fake.drop_connection(code=4000)
    with pytest.raises(ConnectionError):
        await gateway.receive()
    assert gateway.ws.close_code == 4000
    missed = await fake.session.dispatch("TYPING_START", {"channel_id": str(fake.channel.id)})  # type: ignore[union-attr]
    assert missed == 3

    again = await RawGateway.connect(http, gateway.ready["resume_gateway_url"])  # type: ignore[index]
    await again.receive()
    await again.send({"op": 6, "d": {"token": fake.token, "session_id": session_id, "seq": 2}})
    replayed = await again.receive()
    assert (replayed["t"], replayed["s"]) == ("TYPING_START", 3)
    resumed = await again.receive()
    assert (resumed["t"], resumed["s"]) == ("RESUMED", 4)
    assert fake.connections[-1].path == "/gateway-resume"

    stranger = await RawGateway.connect(http, fake.gateway_url)
    await stranger.receive()
    await stranger.send({"op": 6, "d": {"token": fake.token, "session_id": "nope", "seq": 1}})
    invalid = await stranger.receive()
    assert invalid["op"] == 9 and invalid["d"] is False
    await again.ws.close()
    await stranger.ws.close()


# --- interactions and the rules -------------------------------------------------------------------


async def test_a_bad_embed_is_refused_and_recorded(
    fake: FakeDiscord, client: RawGateway, http: aiohttp.ClientSession
) -> None:
    user = fake.add_user("Gina")
    pending = await fake.send_slash(user, "ping", word="hi", times=2)
    event = await client.dispatch("INTERACTION_CREATE")
    data = event["d"]
    assert data["attachment_size_limit"] > 0 and data["member"]["user"]["id"] == str(user.id)
    assert data["data"]["options"] == [
        {"name": "word", "type": 3, "value": "hi"},
        {"name": "times", "type": 4, "value": 2},
    ]
    status, body = await answer(http, fake, data, {"type": 4, "data": {"embeds": [{"title": "x" * 300}]}})
    assert status == 400 and body["code"] == 50035
    breaches = fake.take_breaches()
    assert rules_of(breaches) == ["schema"] and "embeds/0/title" in str(breaches[0])
    status, body = await answer(http, fake, data, {"type": 4, "data": {"embeds": [{"title": "Fine"}], "flags": 64}})
    assert status == 200
    assert STRICT.problems("InteractionCallbackResponse", body) == []
    assert body["resource"]["message"]["flags"] == 64
    assert pending.original is not None and pending.original.ephemeral
    assert fake.validated["CreateMessageInteractionCallbackRequest"] == 2


async def test_one_initial_response_per_interaction(
    fake: FakeDiscord, client: RawGateway, http: aiohttp.ClientSession
) -> None:
    await fake.send_slash(fake.owner, "ping")
    data = (await client.dispatch("INTERACTION_CREATE"))["d"]
    assert (await answer(http, fake, data, {"type": 4, "data": {"content": "one"}}))[0] == 200
    status, body = await answer(http, fake, data, {"type": 4, "data": {"content": "two"}})
    assert status == 400 and body["code"] == 40060
    assert rules_of(fake.take_breaches()) == ["one-response"]


@pytest.mark.fake_discord(response_deadline=0.3)
async def test_the_3_second_rule_catches_a_slow_answer(
    fake: FakeDiscord, client: RawGateway, http: aiohttp.ClientSession
) -> None:
    assert FakeDiscord().response_deadline == 3.0  # the real rule; this test shortens it to stay quick
    task = asyncio.create_task(fake.slash(fake.owner, "ping"))
    data = (await client.dispatch("INTERACTION_CREATE"))["d"]
    await asyncio.sleep(0.45)
    status, body = await answer(http, fake, data, {"type": 4, "data": {"content": "late"}})
    assert status == 404 and body["code"] == 10062
    result = await task
    assert result.type is None and result.message is None
    assert rules_of(fake.take_breaches()) == ["3-seconds", "3-seconds"]  # not answered in time; answered late


async def test_follow_ups_after_a_deferral_and_the_15_minute_window(
    fake: FakeDiscord, client: RawGateway, http: aiohttp.ClientSession
) -> None:
    task = asyncio.create_task(fake.slash(fake.owner, "ping"))
    data = (await client.dispatch("INTERACTION_CREATE"))["d"]
    status, body = await answer(http, fake, data, {"type": 5, "data": {"flags": 64}})
    assert status == 200 and body["interaction"]["response_message_loading"] is True
    hook = f"{fake.api_base}/webhooks/{fake.application_id}/{data['token']}"
    async with http.post(hook + "?wait=true", json={"content": "done thinking"}) as response:
        assert response.status == 200
        filled = await response.json()
    assert STRICT.problems("MessageResponse", filled) == []
    result = await task
    assert result.content == "done thinking" and result.ephemeral and result.followups == []
    async with http.post(hook + "?wait=true", json={"content": "and more"}) as response:
        assert response.status == 200
    assert [m.content for m in result.followups] == ["and more"]
    async with http.patch(hook + "/messages/@original", json={"content": "edited"}) as response:
        assert response.status == 200
    assert result.content == "edited"
    fake.advance_clock(15 * 60 + 1)
    async with http.post(hook, json={"content": "too late"}) as response:
        assert response.status == 401 and (await response.json())["code"] == 50027
    assert rules_of(fake.take_breaches()) == ["15-minutes"]


async def test_the_first_follow_up_after_a_public_deferral_stays_public_unless_the_deferral_is_deleted(
    fake: FakeDiscord, client: RawGateway, http: aiohttp.ClientSession
) -> None:
    """Discord's Create Followup Message: right after a deferral it edits the "thinking" message,
    whose ephemeral state cannot change; once that message is deleted a follow-up is its own."""
    for deleted in (False, True):
        task = asyncio.create_task(fake.slash(fake.owner, "ping"))
        data = (await client.dispatch("INTERACTION_CREATE"))["d"]
        assert (await answer(http, fake, data, {"type": 5}))[0] == 200
        hook = f"{fake.api_base}/webhooks/{fake.application_id}/{data['token']}"
        if deleted:
            async with http.delete(hook + "/messages/@original") as response:
                assert response.status == 204
        async with http.post(hook + "?wait=true", json={"content": "for you only", "flags": 64}) as response:
            assert response.status == 200
        result = await task
        if deleted:
            assert result.message is None and [(m.content, m.ephemeral) for m in result.followups] == [
                ("for you only", True)
            ]
        else:
            assert result.content == "for you only" and not result.ephemeral and result.followups == []
    assert fake.take_breaches() == []


async def test_autocomplete_is_limited_to_25_choices(
    fake: FakeDiscord, client: RawGateway, http: aiohttp.ClientSession
) -> None:
    task = asyncio.create_task(fake.autocomplete(fake.owner, "ping", focused="word", value="w", times=3))
    data = (await client.dispatch("INTERACTION_CREATE"))["d"]
    assert data["type"] == 4
    assert {"name": "word", "type": 3, "value": "w", "focused": True} in data["data"]["options"]
    choices = [{"name": f"w{i}", "value": f"w{i}"} for i in range(26)]
    status, _ = await answer(http, fake, data, {"type": 8, "data": {"choices": choices}})
    assert status == 400
    breaches = fake.take_breaches()
    assert rules_of(breaches) == ["schema"] and "data/choices" in str(breaches[0])
    status, _ = await answer(http, fake, data, {"type": 8, "data": {"choices": choices[:25]}})
    assert status == 200
    assert len((await task).choices) == 25


async def test_a_message_pings_only_whom_allowed_mentions_allows(
    fake: FakeDiscord, client: RawGateway, http: aiohttp.ClientSession
) -> None:
    rita = fake.add_user("Rita")
    pending = await fake.send_slash(rita, "ping")
    data = (await client.dispatch("INTERACTION_CREATE"))["d"]
    content = f"<@{rita.id}> @everyone, your move"
    await answer(
        http,
        fake,
        data,
        {"type": 4, "data": {"content": content, "allowed_mentions": {"parse": [], "users": [rita.id]}}},
    )  # an integer snowflake, as discord.py sends it
    pings = pending.original.pings  # type: ignore[union-attr]
    assert pings.users == {rita.id} and not pings.everyone and not pings.roles
    assert fake.breaches == []

    pending = await fake.send_slash(rita, "ping")
    data = (await client.dispatch("INTERACTION_CREATE"))["d"]
    await answer(http, fake, data, {"type": 4, "data": {"content": content}})  # no allowed_mentions: all parsed
    assert pending.original.pings.everyone  # type: ignore[union-attr]


async def test_a_button_opens_a_modal_whose_submit_updates_the_message(
    fake: FakeDiscord, client: RawGateway, http: aiohttp.ClientSession
) -> None:
    gina = fake.add_user("Gina")
    task = asyncio.create_task(fake.slash(gina, "ping"))
    data = (await client.dispatch("INTERACTION_CREATE"))["d"]
    button = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Name it", "custom_id": "name:1"}]}
    assert (await answer(http, fake, data, {"type": 4, "data": {"content": "Ready", "components": [button]}}))[0] == 200
    shown = await task
    assert shown.message.custom_ids == ["name:1"]  # type: ignore[union-attr]

    task = asyncio.create_task(fake.click(gina, shown, "name:1"))
    click = (await client.dispatch("INTERACTION_CREATE"))["d"]
    assert click["type"] == 3 and click["data"] == {"custom_id": "name:1", "component_type": 2}
    assert click["message"]["id"] == str(shown.message.id)  # type: ignore[union-attr]
    modal = {
        "custom_id": "modal:1",
        "title": "Name",
        "components": [{"type": 1, "components": [{"type": 4, "custom_id": "what", "style": 1, "label": "Name"}]}],
    }
    assert (await answer(http, fake, click, {"type": 9, "data": modal}))[0] == 200
    opened = await task
    assert opened.modal is not None and opened.modal["custom_id"] == "modal:1"

    task = asyncio.create_task(fake.modal_submit(gina, opened, {"what": "Rossi"}))
    submit = (await client.dispatch("INTERACTION_CREATE"))["d"]
    assert submit["type"] == 5
    assert submit["data"]["components"] == [
        {"type": 1, "components": [{"type": 4, "custom_id": "what", "value": "Rossi"}]}
    ]
    assert (await answer(http, fake, submit, {"type": 7, "data": {"content": "Named Rossi", "components": []}}))[
        0
    ] == 200
    updated = await task
    assert updated.message is shown.message and shown.content == "Named Rossi" and shown.components == []

    with pytest.raises(InvalidInteraction):
        await fake.click(gina, shown, "name:1")  # the button is gone


async def test_a_user_option_arrives_with_its_resolved_user_and_member(
    fake: FakeDiscord, client: RawGateway, http: aiohttp.ClientSession
) -> None:
    rita = fake.add_user("Rita")
    await fake.send_slash(fake.owner, "ping", who=rita)
    data = (await client.dispatch("INTERACTION_CREATE"))["d"]["data"]
    assert data["options"] == [{"name": "who", "type": 6, "value": str(rita.id)}]
    assert data["resolved"]["users"][str(rita.id)]["global_name"] == "Rita"
    assert "user" not in data["resolved"]["members"][str(rita.id)]  # Discord sends the user once


async def test_channel_messages_and_multipart_bodies(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    url = f"{fake.api_base}/channels/{fake.channel.id}/messages"
    async with http.post(url, json={"content": "Turn 2", "embeds": [{"title": "Board"}]}, headers=auth(fake)) as r:
        assert r.status == 200
        posted = await r.json()
    assert posted["embeds"][0]["title"] == "Board" and posted["author"]["bot"] is True
    async with http.patch(f"{url}/{posted['id']}", json={"content": "Turn 3"}, headers=auth(fake)) as r:
        assert r.status == 200 and (await r.json())["edited_timestamp"]
    async with http.get(f"{url}/{posted['id']}", headers=auth(fake)) as r:
        assert (await r.json())["content"] == "Turn 3"
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": "with a map"}), content_type="application/json")
    form.add_field("files[0]", b"PNG...", filename="map.png", content_type="image/png")
    async with http.post(url, data=form, headers=auth(fake)) as r:
        assert r.status == 200
    assert fake.requests[-1].body == {"content": "with a map"}
    assert fake.requests[-1].files == [{"name": "files[0]", "filename": "map.png", "size": 6}]
    async with http.delete(f"{url}/{posted['id']}", headers=auth(fake)) as r:
        assert r.status == 204
    async with http.get(f"{url}/{posted['id']}", headers=auth(fake)) as r:
        assert r.status == 404
    assert [m.content for m in fake.messages_in()] == ["with a map"]
    async with http.post(url, json={"content": "secret", "flags": 64}, headers=auth(fake)) as r:
        assert r.status == 400
    assert rules_of(fake.take_breaches()) == ["message"]


async def test_slash_refuses_what_discords_client_would_never_send(fake: FakeDiscord, client: RawGateway) -> None:
    with pytest.raises(InvalidInteraction, match="no option 'colour'"):
        await fake.send_slash(fake.owner, "ping", colour="red")
    with pytest.raises(InvalidInteraction, match="outside its range"):
        await fake.send_slash(fake.owner, "ping", times=9)
    with pytest.raises(InvalidInteraction, match="takes a number"):
        await fake.send_slash(fake.owner, "ping", times="two")
    with pytest.raises(InvalidInteraction, match="no command /pong"):
        await fake.send_slash(fake.owner, "pong")


# --- the real bot against the fake ----------------------------------------------------------------


async def test_the_bot_logs_in_syncs_and_identifies(fake: FakeDiscord, bot: Any) -> None:
    paths = [(r.method, r.path) for r in fake.requests]
    assert paths[:3] == [
        ("GET", "/users/@me"),
        ("GET", "/oauth2/applications/@me"),
        ("PUT", f"/applications/{fake.application_id}/commands"),
    ]
    assert fake.validated["ApplicationCommandUpdateRequest"] == len(fake.commands())
    assert {"campaign", "roster", "game", "roll", "admin", "ssg"} <= {c["name"] for c in fake.commands()}
    [identify] = fake.identifies
    assert identify["intents"] == 1  # guilds only: no privileged intent
    assert fake.connections[0].compress == "zlib-stream"
    assert fake.sessions[0].history[0]["t"] == "READY"
    result = await fake.slash(fake.add_user("Gina"), "roll", dice="2d6", reason="test")
    assert result.type == 4 and not result.ephemeral
    assert result.allowed_mentions == {"parse": []}


async def test_admin_sync_is_for_the_bot_owner(fake: FakeDiscord, bot: Any) -> None:
    refused = await fake.slash(fake.add_user("Gina"), "admin sync")
    assert refused.ephemeral and "owner" in refused.text
    done = await fake.slash(fake.owner, "admin sync")
    assert done.type == 5 and done.ephemeral  # deferred before the sync's requests to Discord, privately
    assert "Commands synced" in done.text
    assert len(fake.requests_to("PUT", r"/applications/\d+/commands")) == 2


async def test_admin_is_hidden_from_members_by_default_permissions(fake: FakeDiscord, bot: Any) -> None:
    admin = fake.find_command("admin")
    assert admin is not None and admin["default_member_permissions"] == "8"


@pytest.mark.bot_env(DEV_GUILD_ID="{guild}")
async def test_with_a_dev_guild_the_bot_syncs_to_that_guild_only(fake: FakeDiscord, bot: Any) -> None:
    [put] = fake.requests_to("PUT", r"/applications/\d+(/guilds/\d+)?/commands")
    assert put.path == f"/applications/{fake.application_id}/guilds/{fake.guild.id}/commands"
    assert fake.commands() == [] and fake.find_command("roll", fake.guild)["guild_id"] == str(fake.guild.id)
    result = await fake.slash(fake.add_user("Gina"), "roll", dice="1d6")
    assert result.interaction.data["guild_id"] == str(fake.guild.id) and result.type == 4


@pytest.mark.fake_discord(heartbeat_interval_ms=200)
async def test_the_bot_heartbeats_and_resumes_when_the_socket_drops(fake: FakeDiscord, bot: Any) -> None:
    session = fake.session
    assert session is not None
    await fake.wait_until(lambda: len(session.conn.heartbeats) >= 4, 60, "four heartbeats")  # type: ignore[union-attr]
    assert session.conn.heartbeats[-1] == session.seq  # type: ignore[union-attr]

    await fake.drop_connection(code=4000)
    await fake.wait_resumed(1)
    assert fake.resumes[-1]["session_id"] == session.id and fake.resumes[-1]["seq"] == 2
    assert fake.connections[-1].path == "/gateway-resume"
    assert len(fake.identifies) == 1  # resumed, not identified again
    gina = fake.add_user("Gina")
    assert (await fake.slash(gina, "roll", dice="1d6")).type == 4

    await fake.request_reconnect()  # op 7
    await fake.wait_resumed(2)
    assert (await fake.slash(gina, "roll", dice="1d6")).type == 4

    await fake.invalidate_session(resumable=False)  # op 9: identify anew
    await fake.wait_until(
        lambda: len(fake.identifies) == 2 and fake.session is not session and fake.session.ready, 60, "a new IDENTIFY"
    )  # type: ignore[union-attr]
    assert (await fake.slash(gina, "roll", dice="1d6")).type == 4
