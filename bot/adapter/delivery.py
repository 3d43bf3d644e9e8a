"""How a reply reaches Discord, and the persistent buttons that come with it.

:func:`deliver` is the one way a reply answers an interaction: every cog, the log's pages, the
decision buttons and the error handler go through it. A reply's buttons follow from the reply
itself (:func:`view_for`): a pending decision gets one button per choice, a log page of several
gets Newer and Older.

:class:`Deferral` is the one "defer if slow" path: a reply still in the making past
:data:`BEFORE_DEFER` seconds (its picture, a map read in the worker, a long battle's report, a file
slow to come from Discord's servers) has its interaction deferred ("thinking"), and :func:`deliver`
then fits that message to the reply. A command whose answer may be slow answers with
:func:`deliver_when_ready`.

The buttons outlive a restart: each is a ``DynamicItem`` whose custom_id says everything the click
needs (``decision:<id>:<choice index>``, ``log:<game id>:<page>:<actions a page>``). The cog that
owns them registers them when it loads (``bot.add_dynamic_items``); discord.py then parses any
click on them, and the click asks the application layer again, so nothing about them lives in the
bot's memory. A click that fails is answered by the same funnel as a command that fails
(:func:`deliver_error`).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from typing import Any

import discord

from bot.adapter.embeds import to_embeds
from bot.adapter.errors import player_message, unwrap
from bot.adapter.help import help_view
from bot.adapter.messages import NOBODY, app_of, caller_of, message_kwargs
from bot.adapter.next_moves import next_moves_view, to_type
from bot.adapter.once import AnsweredOnce
from bot.adapter.owed import Post, tell_owed
from bot.app.commands.table import command_table
from bot.app.replies import HelpReply, LogPage, PendingDecision, Refusal, Reply
from bot.app.waiting import PICTURE_FOLLOWS, WHILE_WAITING

log = logging.getLogger("skirmish_gm.delivery")

#: Discord's codes for an interaction that was already acknowledged, or is no longer known
#: (a repeated delivery whose first copy was answered before a restart).
UNKNOWN_INTERACTION = 10062
ALREADY_ANSWERED = {40060, UNKNOWN_INTERACTION}
UNKNOWN_MESSAGE = 10008
#: ``interaction.extras`` key: whether the "thinking" message of a deferral not yet filled is
#: private (``True``) or public (``False``).
THINKING = "thinking"
#: ``interaction.extras`` key: what fills a private "thinking" message when the answer is public.
FOLLOWS = "follows"
#: What fills a private "thinking" message when the answer that follows is public (unless the
#: command says otherwise).
FOLLOWS_IN_CHANNEL = "The answer follows in the channel."
MAX_BUTTONS = 25
#: Seconds after the bot got a command past which an answer still in the making is deferred:
#: Discord drops a command not answered within 3 seconds, and the first picture after a start (its
#: worker still starting), a map read in the worker, a long battle's report or a file slow to come
#: from Discord's servers can take longer, on a loaded machine most of all.
BEFORE_DEFER = 1.5
NEWER = "◀ Newer"
OLDER = "Older ▶"


async def deliver(interaction: discord.Interaction, reply: Reply) -> None:
    """Send ``reply`` as the interaction's response (or a follow-up if one was already sent).

    A repeated delivery of an interaction already applied (``reply.replayed``) gets no answer at
    all: its first copy was answered, and Discord refuses a second response. An action's answer,
    once Discord took it, is owed no more (``reply.owed``); its picture, when still to be drawn,
    follows as an edit of the answer (:func:`picture_follows`)."""
    interaction.extras["reply"] = reply
    if reply.replayed:
        log.info("interaction %s was delivered again: already applied, not answered twice", interaction.id)
        return
    try:
        sent = await _send(interaction, reply)
    except Gone:
        if reply.owed:
            await told_in_channel(interaction)
        return
    if sent is None:
        return
    if reply.owed:
        await _answered(interaction)
    if reply.picture is not None:
        await picture_follows(interaction, reply, sent)


class Gone(Exception):
    """The interaction was gone when its answer was sent (Discord's 3 seconds ran out)."""


async def _send(interaction: discord.Interaction, reply: Reply) -> discord.Message | bool | None:
    """The answer sent: the message when Discord returned it, else True; None when it could not go
    (a repeat already answered). :class:`Gone` when the interaction was gone."""
    kwargs: dict[str, Any] = {**message_kwargs(reply), "ephemeral": reply.ephemeral}
    view = view_for(reply)
    if view is None and reply.moves_of is not None:
        view = next_moves_view(interaction.client, reply.moves_of, reply.now, reply.ready)
        hint = to_type(interaction.client, reply.moves_of, reply.now)
        if hint:
            kwargs["content"] = f"{kwargs.get('content') or ''}\n{hint}".strip()
    if view is not None:
        kwargs["view"] = view
    try:
        if interaction.response.is_done():
            if not await _thinking_fits(interaction, reply):
                return None
            if reply.picture is None:
                await interaction.followup.send(**kwargs)
                return True
            return await interaction.followup.send(**kwargs, wait=True)  # the message its picture is added to
        callback = await interaction.response.send_message(**kwargs)
        resource = getattr(callback, "resource", None)
        return resource if isinstance(resource, discord.Message) else True
    except discord.HTTPException as exc:
        if exc.code not in ALREADY_ANSWERED:
            raise
        if exc.code == UNKNOWN_INTERACTION:
            log.warning(
                "interaction %s was gone when its answer was sent (Discord's 3 seconds ran out, or a repeated delivery)",
                interaction.id,
            )
            raise Gone from exc
        log.info("interaction %s was already answered (a repeated delivery); nothing was applied twice", interaction.id)
        return None


async def _thinking_fits(interaction: discord.Interaction, reply: Reply) -> bool:
    """Make the deferral's "thinking" message fit ``reply``: the first follow-up after a deferral
    fills that message and keeps its visibility (Discord ignores the follow-up's ``ephemeral``).

    * A public answer after a private deferral (a slow report of a finished battle: only the
      finished report says who may see it) would be shown to its caller alone: a private note
      fills that message, and the answer follows as a message of its own.
    * A private answer after a public deferral (a slow map check that ends in a refusal) would be
      shown to the channel: that message is deleted instead, and the answer goes as a follow-up of
      its own, private. False when the message could not be deleted: nothing may be sent then."""
    thinking_privately = interaction.extras.pop(THINKING, None)
    note = interaction.extras.pop(FOLLOWS, FOLLOWS_IN_CHANNEL)
    if thinking_privately is None or thinking_privately == reply.ephemeral:
        return True
    if thinking_privately:
        await interaction.followup.send(content=note, ephemeral=True)
        return True
    try:
        await interaction.delete_original_response()
    except discord.HTTPException as exc:
        if exc.code != UNKNOWN_MESSAGE:
            log.warning("a private answer to interaction %s was not sent: %s", interaction.id, exc)
            return False
    return True


async def told_in_channel(interaction: discord.Interaction) -> None:
    """The action applied from ``interaction`` could not be answered (the interaction was gone): its
    channel is told at once what was applied, as after a restart, so nobody sends it again; then it
    is owed no more (as after a restart, a channel that cannot be posted in is not tried again)."""
    app = app_of(interaction)
    try:
        notice = await app.owed.missed(interaction.id)
        if notice is not None:
            await tell_owed(app, channel_poster(interaction.client), [notice])
    except Exception:
        log.exception("could not tell the channel of interaction %s what was applied", interaction.id)


def channel_poster(bot: discord.Client) -> Post:
    """Post with the bot's REST client, with the reply's buttons; mentions only for the players the reply pings."""

    async def post(channel_id: int, reply: Reply) -> None:
        channel: Any = bot.get_channel(channel_id) or bot.get_partial_messageable(channel_id)
        kwargs = message_kwargs(reply)
        view = view_for(reply)
        if view is not None:
            kwargs["view"] = view
        await channel.send(**kwargs)

    return post


async def _answered(interaction: discord.Interaction) -> None:
    """Discord took the answer to an action: the store owes it no more. A mark that fails costs only
    a needless line in the channel after the next restart."""
    try:
        await app_of(interaction).owed.answered(interaction.id)
    except Exception:
        log.exception("could not note that interaction %s was answered", interaction.id)


async def picture_follows(interaction: discord.Interaction, reply: Reply, sent: discord.Message | bool) -> None:
    """The picture an action's answer went without, drawn now and added to that answer (an edit):
    an answer never waits for a drawing, its own or the one ahead of it in the drawing worker, so a
    bot stopped meanwhile has answered what it applied. A picture that cannot be drawn or added is
    left out (the log says why): the action it shows is done and answered."""
    before = {name for name, _ in reply.files}
    await app_of(interaction).ctx.pictures.attach(reply)
    files = [discord.File(io.BytesIO(data), filename=name) for name, data in reply.files if name not in before]
    if not files:
        return
    embeds = to_embeds(reply.cards)
    try:
        if isinstance(sent, discord.Message):
            await sent.edit(embeds=embeds, attachments=[*sent.attachments, *files])
        else:
            await interaction.edit_original_response(embeds=embeds, attachments=files)
    except discord.HTTPException as exc:
        log.warning("could not add the picture to the answer of interaction %s: %s", interaction.id, exc)


async def defer_thinking(interaction: discord.Interaction, *, ephemeral: bool) -> bool:
    """Tell Discord the answer is coming ("thinking"); False when the interaction was answered
    already (a repeated delivery that reached this process after another had answered it)."""
    try:
        await thinking(interaction, ephemeral=ephemeral)
    except discord.HTTPException as exc:
        if exc.code not in ALREADY_ANSWERED:
            raise
        log.info("interaction %s was answered already: not deferred, not answered again", interaction.id)
        return False
    return True


async def thinking(interaction: discord.Interaction, *, ephemeral: bool) -> None:
    """Defer ("thinking"), noting how visible the deferred message is: the first follow-up fills it
    (see :func:`_thinking_fits`)."""
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    interaction.extras[THINKING] = ephemeral


def answer_in_time(interaction: discord.Interaction) -> Deferral:
    """For the rest of this command's handling: an action's answer goes without waiting for its
    picture, which follows (:func:`picture_follows`); anything else the answer waits on past
    :data:`BEFORE_DEFER` seconds from now defers it (:class:`Deferral`), and :func:`deliver` then
    sends it as the deferred answer.

    The command's task lets go of the interaction as soon as it ends (before the garbage is
    collected after it, so call this before ``BetweenCommands.command_started``): an interaction
    still reachable from its finished task's context survived the young collection, and every
    interaction then waited in the old generation for a full one (50 MB more at the benchmark's
    peak)."""
    deferral = Deferral(interaction, asyncio.get_running_loop().time() + BEFORE_DEFER)
    WHILE_WAITING.set(deferral)
    PICTURE_FOLLOWS.set(True)
    task = asyncio.current_task()
    if task is not None:
        task.add_done_callback(deferral.forget)
    return deferral


class Deferral:
    """The one "defer if slow" path of a command: while its answer waits on slow work, the
    interaction is deferred ("thinking") at ``deadline`` if it is not answered by then.

    The application reaches it as :data:`bot.app.waiting.WHILE_WAITING` (a picture drawn, a map
    read in the worker), given the reply whose visibility the deferral takes; the cogs through
    :func:`waiting` and :func:`deliver_when_ready`. A wait inside another adds no second timer."""

    def __init__(self, interaction: discord.Interaction, deadline: float) -> None:
        self.interaction: discord.Interaction | None = interaction
        self.deadline = deadline
        self._timing = False

    def __call__(self, reply: Reply) -> AbstractAsyncContextManager[object]:
        return self.waiting(ephemeral=reply.ephemeral)

    def waiting(self, *, ephemeral: bool) -> AbstractAsyncContextManager[object]:
        """For as long as the answer waits: deferred at the deadline, privately or not."""
        if self.interaction is None or self._timing:
            return nullcontext()
        return self._deferred_if_slow(self.interaction, ephemeral)

    @asynccontextmanager
    async def _deferred_if_slow(self, interaction: discord.Interaction, ephemeral: bool) -> AsyncIterator[None]:
        started = asyncio.Event()

        async def defer_at_deadline() -> None:
            await asyncio.sleep(max(0.0, self.deadline - asyncio.get_running_loop().time()))
            if interaction.response.is_done():
                return
            started.set()
            try:
                await thinking(interaction, ephemeral=ephemeral)
            except discord.HTTPException as exc:
                log.warning("could not defer interaction %s while its answer was made: %s", interaction.id, exc)

        self._timing = True
        timer = asyncio.create_task(defer_at_deadline())
        try:
            yield
        finally:
            self._timing = False
            if started.is_set():
                await timer  # the deferral is on its way: deliver must find it done
            else:
                timer.cancel()

    def forget(self, _task: object = None) -> None:
        self.interaction = None


def deferral_of(interaction: discord.Interaction) -> Deferral:
    """The deferral of the command being handled (:func:`answer_in_time`, as the tree let it in),
    or one from now for an interaction the tree did not see (a button's click)."""
    current = WHILE_WAITING.get()
    if isinstance(current, Deferral) and current.interaction is interaction:
        return current
    return Deferral(interaction, asyncio.get_running_loop().time() + BEFORE_DEFER)


def waiting(interaction: discord.Interaction, *, ephemeral: bool) -> AbstractAsyncContextManager[object]:
    """While a command waits on something slow of its own (a file from Discord's servers): its
    answer deferred if it is late, as one waiting for its picture is."""
    return deferral_of(interaction).waiting(ephemeral=ephemeral)


async def deliver_when_ready(
    interaction: discord.Interaction,
    work: Callable[[], Awaitable[Reply]],
    *,
    slow: bool = False,
    follows: str | None = None,
) -> None:
    """Answer with the reply ``work`` makes, however long it takes: deferred privately if it is late
    (only the finished reply says who may see it), at once when the command is declared ``slow``
    (nothing of ``work`` is done then for an interaction answered already). A public reply after a
    private deferral follows a private note, ``follows`` when given."""
    if slow and not await defer_thinking(interaction, ephemeral=True):
        return
    if follows is not None:
        interaction.extras[FOLLOWS] = follows
    async with waiting(interaction, ephemeral=True):
        reply = await work()
    await deliver(interaction, reply)


async def deliver_error(interaction: discord.Interaction, error: BaseException, *, context: str) -> None:
    """The one error handler's answer: a short private sentence for the player (the log gets the
    traceback of a bug). A reply that cannot be sent either is logged, not raised."""
    refusal = unwrap(error)
    reply = Reply.error(
        player_message(error, context=context), refusal.advice if isinstance(refusal, Refusal) else None
    )
    try:
        await deliver(interaction, reply)
    except discord.HTTPException as exc:
        log.warning("could not tell the player about an error in %s: %s", context, exc)


def view_for(reply: Reply) -> discord.ui.View | None:
    """The buttons that go with a reply: its decision's choices, its log or help page's neighbours."""
    if reply.decision is not None:
        return decision_view(reply.decision)
    if isinstance(reply, LogPage):
        return log_view(reply)
    if isinstance(reply, HelpReply):
        return help_view(reply)
    return None


def label_of(item: discord.ui.Item[Any]) -> str:
    """The label of the button clicked (discord.py hands over the message's component)."""
    return (item.label if isinstance(item, discord.ui.Button) else None) or "…"


class DecisionButton(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"decision:(?P<id>[0-9]{1,19}):(?P<index>[0-9]{1,2})",
):
    def __init__(self, decision_id: int, index: int, label: str = "…", primary: bool = False) -> None:
        style = discord.ButtonStyle.primary if primary else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=f"decision:{decision_id}:{index}"))
        self.decision_id = decision_id
        self.index = index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DecisionButton:
        return cls(int(match["id"]), int(match["index"]), label_of(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer the decision; the message loses its buttons and the result follows it."""
        PICTURE_FOLLOWS.set(True)
        app, caller = app_of(interaction), caller_of(interaction)
        try:
            reply = await command_table()["decide"].answered(
                app, lambda: app.decisions.decide(caller, None, self.decision_id, index=self.index)
            )
        except Exception as exc:
            await deliver_error(interaction, exc, context=f"decision {self.decision_id}")
            return
        if reply.replayed:
            await deliver(interaction, reply)  # answered once already: nothing is sent
            return
        decided = f"Decided by {caller_of(interaction).display_name}: **{self.item.label}**"
        await interaction.response.edit_message(content=decided, view=None, allowed_mentions=NOBODY)
        await deliver(interaction, reply)


def decision_view(decision: PendingDecision) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for index, choice in enumerate(decision.choices[:MAX_BUTTONS]):
        view.add_item(DecisionButton(decision.decision_id, index, choice.label, primary=index == 0))
    return view


class LogPageButton(
    AnsweredOnce,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"log:(?P<game>[0-9]{1,10}):(?P<page>[0-9]{1,7}):(?P<count>[0-9]{1,2})",
):
    """Newer or Older under a page of ``/game log``. Its custom_id carries the game's internal id,
    which players never see (they see and type the battle's number in its campaign); the click
    shows that page as the one who pressed may see it (secret rolls stay hidden from everyone but
    the game master until the battle ends), in place of the page it was pressed on."""

    def __init__(self, game_id: int, page: int, count: int, label: str = "…", *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"log:{game_id}:{page}:{count}",
            )
        )
        self.game_id = game_id
        self.page = page
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LogPageButton:
        return cls(int(match["game"]), int(match["page"]), int(match["count"]), label_of(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page the button names, in place of this one."""
        try:
            reply = await app_of(interaction).reports.game_log(
                caller_of(interaction), self.count, self.page, game_id=self.game_id
            )
        except Exception as exc:
            await deliver_error(interaction, exc, context=f"log page {self.page} of game {self.game_id}")
            return
        interaction.extras["reply"] = reply
        await interaction.response.edit_message(
            content=None, embeds=to_embeds(reply.cards), view=view_for(reply), allowed_mentions=NOBODY
        )


def log_view(page: LogPage) -> discord.ui.View | None:
    """Newer and Older for a log with more than one page (each disabled at its end); else none."""
    if page.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(LogPageButton(page.game_id, page.page - 1, page.count, NEWER, disabled=page.page <= 1))
    view.add_item(LogPageButton(page.game_id, page.page + 1, page.count, OLDER, disabled=page.page >= page.pages))
    return view
