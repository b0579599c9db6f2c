"""Ack in the request's thread, then hand the work on: to a thread pool, or to the jobs table.

This is what Bolt's lazy listeners do, minus their price: before handing a
lazy function its request, Bolt deep-copies the whole request (the per-request
``WebClient`` with its retry handlers, ``ack``/``say``/``respond`` and the
parsed body, which it parses again). On every slash command that copy cost
more than Bolt's signature check and ack together (~0.2 of ~0.35 ms), on the
thread that holds up Slack's HTTP response. The body and context Bolt built
for this request belong to this request alone, so the work can simply use them.

Where the work goes is a :class:`Handoff`: :class:`InPool` runs it in this
process (tests, Socket Mode); ``mpbot serve`` commits it as a job that worker
processes run (:mod:`bot.slack.workers`), before the ack leaves.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from typing import Any, Protocol

log = logging.getLogger(__name__)
# What a listener may ask for, by the names Bolt's own listeners use.
_GIVEN = ("ack", "body", "client", "context", "command", "event", "action", "view")
# The names under which Bolt hands a listener the request's payload.
_PAYLOAD = ("command", "event", "action", "view")


@dataclass(frozen=True)
class Given:
    """What a listener's work is given: the parsed request, its context and a client."""

    body: dict
    payload: dict
    context: Any  # BoltContext
    client: Any  # WebClient
    ack: Callable | None = None

    def arguments(self, function: Callable) -> dict:
        """``function``'s arguments, by the names it asks for."""
        values = {
            "ack": self.ack,
            "body": self.body,
            "client": self.client,
            "context": self.context,
        }
        values.update(dict.fromkeys(_PAYLOAD, self.payload))
        return {name: values[name] for name in wanted(function)}


class Handoff(Protocol):
    def register(self, work: Callable[..., None]) -> None:
        """Learn a work function when its listener is registered."""

    def __call__(self, work: Callable[..., None], given: Given) -> None:
        """Take ``work`` for a request just acked (it must not raise)."""


class InPool:
    """Run the work in ``executor``, with this request's own arguments."""

    def __init__(self, executor: Executor) -> None:
        self.executor = executor

    def register(self, work: Callable[..., None]) -> None:
        pass

    def __call__(self, work: Callable[..., None], given: Given) -> None:
        self.submit(work, given)

    def submit(
        self, work: Callable[..., None], given: Given, run: Callable | None = None
    ) -> Future:
        """As a call, and the work's future: a caller that must know when it is done
        (``run(work, given)`` runs it, :func:`run_logged` unless told)."""
        return self.executor.submit(run or run_logged, work, given)


def ack_then(
    handoff: Handoff, acknowledge: Callable[..., None], work: Callable[..., None]
) -> Callable:
    """A Bolt listener: ``acknowledge`` runs now (its return answers Slack), ``work`` after it.

    Both take any of Bolt's argument names in ``_GIVEN``, as Bolt listeners do.
    The app runs with ``process_before_response``, so Slack's HTTP response
    leaves only when this listener returns: after ``handoff`` took the work.
    """
    wanted(acknowledge)
    wanted(work)
    handoff.register(work)

    # Bolt fills a listener's arguments by their names.
    def listener(ack: Callable, body: dict, payload: dict, client, context) -> None:
        given = Given(body=body, payload=payload, context=context, client=client, ack=ack)
        acknowledge(**given.arguments(acknowledge))
        handoff(work, given)

    return listener


def work_name(work: Callable[..., None]) -> str:
    """The name a job records its work under (the same in every process)."""
    return work.__qualname__


@functools.cache  # asked on every ack and every job; a listener's signature never changes
def wanted(function: Callable) -> tuple[str, ...]:
    names = tuple(inspect.signature(function).parameters)
    unknown = [name for name in names if name not in _GIVEN]
    if unknown:
        raise TypeError(f"{function.__qualname__} asks for {unknown}; listeners get {_GIVEN}")
    return names


def run_logged(work: Callable[..., None], given: Given) -> None:
    """An executor swallows exceptions into its futures; say them instead."""
    try:
        work(**given.arguments(work))
    except Exception:
        log.exception("listener %s failed", work.__qualname__)
