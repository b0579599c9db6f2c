"""Answers leave through the outbox: stored, sent, marked sent, or retried later.

A job's answers (``response_url`` posts and ``chat.postMessage``) are staged as
outbox rows numbered in the order the job sends them (:mod:`bot.jobs`). The
worker sends a staged row at once, so a healthy Slack sees no delay; the row
is marked sent the moment Slack answers 2xx (in the worker's sent journal at
once, in the database by the next commit), so the job run again (its worker
died, its lease ran out) skips it. A row Slack did not take (5xx,
unreachable) is retried with exponential backoff
(slack-sdk's calculator) by the delivery loop; a 429 waits for its
Retry-After; nothing sleeps in a thread. A command's answer is retried within
its ``response_url``'s 30-minute life, an event's within
``EVENT_ANSWER_WINDOW_S``; after that it is dropped, logged. A post that
reached Slack but got no answer (a hang past ``SLACK_TIMEOUT_S``, a dropped
connection) is counted as taken: Slack has no idempotency key, and a post
sent again would show twice.

Outside a job (the in-process pool of tests and Socket Mode, or the degraded
path when the database cannot take a job) answers are sent directly with
slack-sdk's retry handlers, as before.
"""

from __future__ import annotations

import itertools
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import Enum
from urllib.error import URLError

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry import BackoffRetryIntervalCalculator
from slack_sdk.web import SlackResponse
from slack_sdk.webhook import WebhookClient

from bot.jobs import OutboxRow, OutboxStore, SentEntry, SentJournal
from bot.jobs.store import now
from bot.settings import Settings
from bot.slack.clients import ANSWER_METHODS, AnswerClient, count_send, webhook_client
from bot.slack.logs import remember_response_url
from bot.slack.pacing import SLEEP_MAX_S, ChannelPacer

# Slack: a response_url takes answers for 30 minutes after the command.
RESPONSE_URL_LIFE = timedelta(minutes=30)
RESPONSE_URL = "response_url"
API = "api"
# Posts paced per channel (bot.slack.pacing).
PACED_METHOD = "chat.postMessage"
# Used when a 429 comes without a usable Retry-After.
DEFAULT_RETRY_AFTER_S = 1.0
log = logging.getLogger(__name__)
# Finds a workspace's bot token (never stored with the row): (team_id, enterprise_id).
TokenFor = Callable[[str | None, str | None], str | None]


class Outcome(Enum):
    SENT = "sent"
    LATER = "later"  # stored; the delivery loop retries it
    REFUSED = "refused"  # Slack refused it for good (logged)


@dataclass(eq=False)  # one per run, found by identity
class JobScope:
    """The job being run in this thread, and how its answers are sent."""

    job_id: int
    created_at: datetime
    team_id: str | None
    enterprise_id: str | None
    postman: Postman
    # A first run has no earlier answers to find: it sends before storing anything.
    first_run: bool = False
    # An answer of this run waits in the outbox; the later ones queue behind it.
    deferred: bool = False
    seq: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    # Answers of this first run Slack took, not yet written down: finishing the job
    # records them all at once (a finished job is never run again); anything else
    # this job writes to the outbox first writes them (see Postman.record_taken).
    taken: list[tuple[OutboxRow, dict | None]] = field(default_factory=list)
    # Whose request it answers: a user's posts in a channel are paced (bot.slack.pacing).
    user_id: str | None = None


_scope: ContextVar[JobScope | None] = ContextVar("mpbot_job", default=None)


@contextmanager
def in_job(scope: JobScope) -> Iterator[None]:
    token = _scope.set(scope)
    try:
        yield
    finally:
        _scope.reset(token)


def respond(url: str | None, message: dict, settings: Settings, ids: dict) -> bool:
    """POST ``message`` to a ``response_url``; False (logged) when it cannot arrive.

    In a job it goes through the outbox (True: sent, or stored to retry);
    elsewhere it is sent now with slack-sdk's retries.
    """
    if not url:
        log.error("no response_url to answer %s", ids)
        return False
    scope = _scope.get()
    if scope is not None:
        return scope.postman.stage(scope, RESPONSE_URL, url, message) is not Outcome.REFUSED
    try:
        response = webhook_client(url, settings).send_dict(message)
    except OSError as error:
        count_send(None, error)
        log.error("response_url unreachable %s: %s", ids, error)
        return False
    count_send(response.status_code)
    if response.status_code != 200:
        log.error("response_url answered %s %s %s", response.status_code, response.body[:200], ids)
        return False
    return True


class OutboxClient(AnswerClient):
    """A WebClient whose answer calls (:data:`ANSWER_METHODS`) go through the outbox in a job.

    The job gets Slack's own response when the post went out at once, and
    ``{"ok": true, "channel": ..., "deferred": true}`` when it waits in the outbox.
    """

    def api_call(self, api_method: str, **kwargs) -> SlackResponse:  # type: ignore[override]
        scope = _scope.get()
        payload = kwargs.get("json")
        if scope is None or api_method not in ANSWER_METHODS or payload is None:
            return super().api_call(api_method, **kwargs)
        outcome, result = scope.postman.stage_api(scope, api_method, payload)
        data = result or {"ok": True, "channel": payload.get("channel"), "deferred": True}
        response = SlackResponse(
            client=self,
            http_verb="POST",
            api_url=self.base_url + api_method,
            req_args={},
            data=data,
            headers={},
            status_code=200,
        )
        if outcome is Outcome.REFUSED:
            raise SlackApiError(f"Slack refused {api_method}", response)
        return response


class Postman:
    """Stages, sends and reschedules outbox rows for one worker."""

    def __init__(
        self,
        settings: Settings,
        outbox: OutboxStore,
        token_for: TokenFor,
        worker: str,
        journal: SentJournal,
        pacer: ChannelPacer | None = None,
    ) -> None:
        self.settings = settings
        self.outbox = outbox
        self.journal = journal
        self.pacer = pacer
        self.token_for = token_for
        self.worker = worker
        self._backoff = BackoffRetryIntervalCalculator(backoff_factor=settings.outbox_backoff_s)

    def stage(self, scope: JobScope, kind: str, target: str, message: dict) -> Outcome:
        return self._stage(scope, kind, target, message)[0]

    def stage_api(self, scope: JobScope, method: str, payload: dict) -> tuple[Outcome, dict | None]:
        return self._stage(scope, API, method, payload)

    def _stage(
        self, scope: JobScope, kind: str, target: str, message: dict
    ) -> tuple[Outcome, dict | None]:
        life = RESPONSE_URL_LIFE if kind == RESPONSE_URL else self.event_window
        values = {
            "kind": kind,
            "target": target,
            "message": message,
            "team_id": scope.team_id,
            "enterprise_id": scope.enterprise_id,
            "expires_at": scope.created_at + life,
        }
        seq = next(scope.seq)
        if scope.first_run and not scope.deferred:
            # Nothing to find from an earlier run: send first, store what came of it
            # (one write instead of two on the way of every answer).
            unsaved = OutboxRow(
                None,
                scope.job_id,
                attempts=0,
                done=False,
                result=None,
                ours=True,
                seq=seq,
                **values,
            )
            wait_s = self._pace(unsaved, scope.user_id)
            if wait_s:
                scope.deferred = True
                return self._paced(unsaved, wait_s, scope), None
            outcome, result = self.deliver(unsaved, scope)
            scope.deferred = outcome is Outcome.LATER
            return outcome, result
        self.record_taken(scope)
        row = self.outbox.stage(
            scope.job_id, seq, values, worker=self.worker, lease_s=self.settings.job_lease_s
        )
        if row.done:  # this job ran before and Slack took this answer then
            refused = (row.result or {}).get("refused")
            return (Outcome.REFUSED if refused else Outcome.SENT), row.result
        if not row.ours:  # another worker is sending it, or an earlier answer is still due
            return Outcome.LATER, None
        wait_s = self._pace(row, scope.user_id)
        if wait_s:
            return self._paced(row, wait_s, None), None
        return self.deliver(row)

    def send_due(self, row: OutboxRow) -> Outcome:
        """A stored answer whose time has come (a paced post, a retry): its slot is booked
        again for the moment it really leaves."""
        wait_s = self._pace(row, None)
        if wait_s:
            return self._paced(row, wait_s, None)
        return self.deliver(row)[0]

    def _pace(self, row: OutboxRow, user: str | None) -> float:
        """Seconds until this post's slot in its channel (0: now; only posts are paced).
        A near slot is waited for here and booked again on waking, so the slot held is
        the moment the post leaves, however late this thread woke."""
        if self.pacer is None or row.kind != API or row.target != PACED_METHOD:
            return 0.0
        post = f"{row.job_id}:{row.seq}"
        channel = row.message.get("channel")
        wait_s = self.pacer.reserve(channel, user, post)
        while 0 < wait_s <= SLEEP_MAX_S:
            time.sleep(wait_s)
            wait_s = self.pacer.reserve(channel, user, post)
        return wait_s

    def _paced(self, row: OutboxRow, wait_s: float, scope: JobScope | None) -> Outcome:
        """The post waits in the outbox for its slot; the delivery loop sends it then."""
        if scope is not None:
            self.record_taken(scope)  # before this row, so a run again skips them
        moment = now() + timedelta(seconds=wait_s)
        if row.id is None:
            self.outbox.add(row, next_at=moment, attempts=0)
        else:
            self.outbox.retry_at(row.id, moment)
        return Outcome.LATER

    @property
    def event_window(self) -> timedelta:
        return timedelta(seconds=self.settings.event_answer_window_s)

    def deliver(self, row: OutboxRow, scope: JobScope | None = None) -> tuple[Outcome, dict | None]:
        """Send one leased row and record what came of it (a first run's: in ``scope``)."""
        try:
            status, retry_after, result = self._send(row)
        except URLError as error:  # the request never reached Slack whole: send it again
            return self._later(row, None, type(error.reason).__name__, scope), None
        except OSError as error:
            # Sent, but no answer in time or the connection closed: Slack may well have
            # taken it, and sending again would post it twice. Counted as taken.
            log.warning(
                "answer %s of job %s sent but unconfirmed (%s); not sent again",
                row.id,
                row.job_id,
                type(error).__name__,
            )
            self._taken(row, {"unconfirmed": True}, scope)
            return Outcome.SENT, None
        if 200 <= status < 300 and not (result or {}).get("error"):
            self._taken(row, result, scope)
            return Outcome.SENT, result
        if status == 429 or (result or {}).get("error") == "ratelimited":
            return self._later(row, retry_after or DEFAULT_RETRY_AFTER_S, "429", scope), None
        if status >= 500 or status == 408:
            return self._later(row, None, str(status), scope), None
        log.error(
            "Slack refused answer %s of job %s for good: %s %s",
            row.id,
            row.job_id,
            status,
            (result or {}).get("error"),
        )
        self._taken(row, {**(result or {}), "refused": True}, scope)
        return Outcome.REFUSED, result

    def _taken(self, row: OutboxRow, result: dict | None, scope: JobScope | None) -> None:
        """Slack took it (or refused it for good): never send it again.

        First in the worker's sent journal (microseconds; what a worker taking
        over from this one reads if this process dies before the commit lands,
        :mod:`bot.jobs.sent_journal`), then in the database: a first run's
        answer with the job's end, in the same commit that finishes the job
        (one write, not two, per answer).
        """
        self.journal.append(SentEntry(row.job_id, row.seq, row.kind, row.expires_at, result))
        if row.id is not None:
            self.outbox.sent(row.id, result)
        elif scope is not None:
            scope.taken.append((row, result))
        else:
            self.outbox.add(row, result=result)

    def record_taken(self, scope: JobScope) -> None:
        """Write down the answers Slack took that only ``scope`` knows of."""
        while scope.taken:
            row, result = scope.taken[0]
            self.outbox.add(row, result=result)
            scope.taken.pop(0)

    def _send(self, row: OutboxRow) -> tuple[int, float | None, dict | None]:
        """(HTTP status, Retry-After seconds, Slack's JSON answer) for one attempt, no retries."""
        if row.kind == RESPONSE_URL:
            remember_response_url(row.target)
            hook = WebhookClient(
                url=row.target, timeout=self.settings.slack_timeout_s, retry_handlers=[]
            )
            response = hook.send_dict(row.message)
            return response.status_code, _retry_after(response.headers), None
        token = self.token_for(row.team_id, row.enterprise_id)
        client = WebClient(
            token=token,
            base_url=self.settings.slack_api_url,
            timeout=self.settings.slack_timeout_s,
            retry_handlers=[],
        )
        try:
            answer = client.api_call(row.target, json=row.message)
        except SlackApiError as error:
            answer = error.response
        data = answer.data if isinstance(answer.data, dict) else {}
        kept = {name: data[name] for name in ("ok", "error", "ts", "channel") if name in data}
        if not data.get("ok") and "error" not in kept:
            kept["error"] = "no_ok"
        return answer.status_code, _retry_after(answer.headers), kept

    def _later(
        self, row: OutboxRow, wait_s: float | None, why: str, scope: JobScope | None
    ) -> Outcome:
        if scope is not None:
            self.record_taken(scope)  # before this row, so a run again skips them
        if wait_s is None:
            backoff = self._backoff.calculate_sleep_duration(row.attempts)
            wait_s = min(backoff, self.settings.outbox_backoff_max_s)
        moment = now() + timedelta(seconds=wait_s)
        if row.id is None:
            self.outbox.add(row, next_at=moment)
        else:
            self.outbox.retry_at(row.id, moment)
        if moment >= row.expires_at:
            log.error("answer %s of job %s cannot be sent in time (%s)", row.id, row.job_id, why)
        else:
            log.warning(
                "answer %s of job %s not taken (%s); retry in %.1f s",
                row.id,
                row.job_id,
                why,
                wait_s,
            )
        return Outcome.LATER

    def due(self, limit: int) -> list[OutboxRow]:
        """Up to ``limit`` rows whose retry time has come, leased to this worker to send."""
        return self.outbox.claim_due(self.worker, limit, self.settings.job_lease_s)

    def sweep(self) -> None:
        """Drop answers past their life (logged) and sent ones nobody needs any more."""
        for row in self.outbox.expired():
            log.error(
                "answer %s of job %s dropped: Slack did not take it in %d attempts before it expired",
                row.id,
                row.job_id,
                row.attempts,
            )


def _retry_after(headers: dict | None) -> float | None:
    for name, value in (headers or {}).items():
        if name.lower() == "retry-after":
            text = value[0] if isinstance(value, list) else value
            try:
                return max(0.0, float(text))
            except (TypeError, ValueError):
                return None
    return None
