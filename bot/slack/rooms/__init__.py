"""The Slack layer's rooms: one module per kind of listener, each with ``register``.

As in Slack's bolt-python starter template (``listeners/commands``,
``events``, ``actions``, ``views``), each room registers its own listeners
on the app and keeps only the parts of the :class:`Kit` it uses (a responder,
the guard, the language preferences, team records, thread memory). No room
imports another; they share the kit.

| room | answers |
|---|---|
| :mod:`.commands` | ``/mpestimate ...`` |
| :mod:`.events` | ``@mpestimate`` mentions and DMs |
| :mod:`.actions` | buttons under a reply |
| :mod:`.home` | App Home, its *New estimate* button and modal |
| :mod:`.records` | history paging, delete, the "Record my result" modal |
| :mod:`.limits` | a request past the intake limits: "slow down" |
"""

from __future__ import annotations

from slack_bolt import App

from bot.slack.rooms import actions, commands, events, home, limits, records
from bot.slack.rooms.kit import Kit

ROOMS = (commands, events, actions, home, records, limits)


def register(app: App, kit: Kit) -> None:
    for room in ROOMS:
        room.register(app, kit)


__all__ = ["Kit", "register"]
