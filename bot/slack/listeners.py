"""Ack in the request's thread, then hand the work on: to a thread pool, or a worker process.

This is what Bolt's lazy listeners do, minus their price: before handing a
lazy function its request, Bolt deep-copies the whole request (the per-request
``WebClient`` with its retry handlers, ``ack``/``say``/``respond`` and the
parsed body, which it parses again). On every slash command that copy cost
more than Bolt's signature check and ack together (~0.2 of ~0.35 ms), on the
thread that holds up Slack's HTTP response. The body and context Bolt built
for this request belong to this request alone, so the work can simply use them.

Where the work goes is a :data:`Handoff`: :func:`in_pool` runs it in this
process (tests, Socket Mode); ``mpbot serve`` sends the request to worker
processes instead (:mod:`bot.slack.workers`), so the acks keep a core's GIL
to themselves.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from concurrent.futures import Executor

from slack_bolt import BoltRequest

log = logging.getLogger(__name__)
# What a listener may ask for, by the names Bolt's own listeners use.
_GIVEN = ("ack", "body", "client", "context", "command", "event", "action", "view")
# Takes the work, the arguments it asked for, and the request they came from.
Handoff = Callable[[Callable[..., None], dict, BoltRequest], None]


def in_pool(executor: Executor) -> Handoff:
    """Run the work in ``executor``, with this request's own arguments."""

    def handoff(work: Callable[..., None], kwargs: dict, _request: BoltRequest) -> None:
        executor.submit(_logged, work, kwargs)

    return handoff


def ack_then(
    handoff: Handoff, acknowledge: Callable[..., None], work: Callable[..., None]
) -> Callable:
    """A Bolt listener: ``acknowledge`` runs now (its return answers Slack), ``work`` after it.

    Both take any of Bolt's argument names in ``_GIVEN``, as Bolt listeners do.
    """
    ack_names = _wanted(acknowledge)
    work_names = _wanted(work)

    # Bolt fills a listener's arguments by their names.
    def listener(
        ack: Callable, body: dict, payload: dict, client, context, request: BoltRequest
    ) -> None:
        given = {"ack": ack, "body": body, "client": client, "context": context}
        given.update(command=payload, event=payload, action=payload, view=payload)
        acknowledge(**{name: given[name] for name in ack_names})
        handoff(work, {name: given[name] for name in work_names}, request)

    return listener


def _wanted(function: Callable) -> list[str]:
    names = list(inspect.signature(function).parameters)
    unknown = [name for name in names if name not in _GIVEN]
    if unknown:
        raise TypeError(f"{function.__qualname__} asks for {unknown}; listeners get {_GIVEN}")
    return names


def _logged(work: Callable[..., None], kwargs: dict) -> None:
    """An executor swallows exceptions into its futures; say them instead."""
    try:
        work(**kwargs)
    except Exception:
        log.exception("listener %s failed", work.__qualname__)
