"""How the application lets the front end answer in time while a reply waits on slow work.

Discord drops a command not answered within 3 seconds. The application knows nothing of Discord,
but it knows when it waits on work that may be long (a picture drawn in the drawing worker, a map
read in the maps' worker): it wraps each such wait in the front end's :data:`WHILE_WAITING`, which
the front end sets for the command being handled (Discord's adapter: its one "defer if slow" path,
:class:`bot.adapter.delivery.Deferral`). Unset (the terminal, the application's tests), a reply
simply waits.

A leaf: it imports only the reply types, so the application and the adapter share it without a
circle.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from contextvars import ContextVar

from bot.app.replies import Reply

#: What the front end does while a reply waits, given that reply (only its visibility is known
#: yet: a deferral's "thinking" message is shown as the answer will be).
WhileWaiting = Callable[[Reply], AbstractAsyncContextManager[object]]
#: Set by the front end for the command being handled.
WHILE_WAITING: ContextVar[WhileWaiting | None] = ContextVar("while_waiting", default=None)

#: Set by a front end that sends an action's answer at once and adds its picture after (Discord:
#: an edit of the answer): an action's reply whose picture is not kept then leaves the order on
#: the reply (``Reply.picture``) for the front end to draw with
#: :meth:`bot.app.pictures.Pictures.attach` once the answer went, so an answer never waits for a
#: drawing (its own, or another's ahead of it).
PICTURE_FOLLOWS: ContextVar[bool] = ContextVar("picture_follows", default=False)
