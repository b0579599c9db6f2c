"""Web API and response_url clients that retry the way Slack asks us to.

Every client the app makes comes from here, so ``SLACK_API_URL`` (GovSlack, a
proxy, the tests' recorder) and slack-sdk's retry handlers (429 with
Retry-After, 5xx, dropped connections) apply to all of them. Retries only ever
happen in listeners, after Bolt has acknowledged the request.

Work run outside a job (the degraded path, :mod:`bot.slack.workers`) sends its
answers straight to Slack; :func:`run_counting_sends` says whether Slack took
them, so an answer Slack could not take is not forgotten with its spool file.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from urllib.error import URLError

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry import BackoffRetryIntervalCalculator, RetryHandler
from slack_sdk.http_retry.builtin_handlers import (
    ConnectionErrorRetryHandler,
    RateLimitErrorRetryHandler,
    ServerErrorRetryHandler,
)
from slack_sdk.webhook import WebhookClient

from bot.settings import Settings
from bot.slack.listeners import Given, run_logged
from bot.slack.logs import remember_response_url

# The Web API calls that are answers (the outbox's too, bot.slack.outbox).
ANSWER_METHODS = frozenset({"chat.postMessage", "chat.postEphemeral"})
# What Slack answers when it may take the same post later (the rest: it took it, or never will).
RETRYABLE_STATUSES = frozenset({408, 429})
# Slack's error for a call with no token: ours is missing (OAuth: the installation store
# is the database, and it is away), not refused by Slack, so the post may go later.
NO_TOKEN = "not_authed"


@dataclass
class DirectSends:
    """What came of the answers one piece of work sent straight to Slack."""

    # Slack took them, refused them for good, or may have (sent, no answer in time).
    taken: int = 0
    # They never reached Slack, or it answered 5xx or 429 to the last retry.
    missed: int = 0

    def record(
        self, status: int | None, error: OSError | None = None, slack_error: str | None = None
    ) -> None:
        if (
            isinstance(error, URLError)
            or slack_error == NO_TOKEN
            or (status is not None and (status >= 500 or status in RETRYABLE_STATUSES))
        ):
            self.missed += 1
        else:
            self.taken += 1


_sends: ContextVar[DirectSends | None] = ContextVar("mpbot_direct_sends", default=None)


def run_counting_sends(work: Callable[..., None], given: Given) -> DirectSends:
    """Run ``work`` (as :func:`run_logged`), counting the answers it sends straight to Slack."""
    sends = DirectSends()
    token = _sends.set(sends)
    try:
        run_logged(work, given)
    finally:
        _sends.reset(token)
    return sends


def count_send(
    status: int | None, error: OSError | None = None, slack_error: str | None = None
) -> None:
    """An answer sent straight to Slack, for the :func:`run_counting_sends` running it."""
    sends = _sends.get()
    if sends is not None:
        sends.record(status, error, slack_error)


class AnswerClient(WebClient):
    """A WebClient that counts its answer calls (:data:`ANSWER_METHODS`) for
    :func:`run_counting_sends`."""

    def api_call(self, api_method: str, **kwargs):  # type: ignore[override]
        if api_method not in ANSWER_METHODS or _sends.get() is None:
            return super().api_call(api_method, **kwargs)
        try:
            response = super().api_call(api_method, **kwargs)
        except SlackApiError as error:
            count_send(error.response.status_code, slack_error=error.response.get("error"))
            raise
        except OSError as error:
            count_send(None, error)
            raise
        count_send(response.status_code)
        return response


def retry_handlers(settings: Settings) -> list[RetryHandler]:
    backoff = BackoffRetryIntervalCalculator(backoff_factor=settings.slack_retry_backoff_s)
    count = settings.slack_retry_count
    return [
        RateLimitErrorRetryHandler(max_retry_count=count),
        ServerErrorRetryHandler(max_retry_count=count, interval_calculator=backoff),
        ConnectionErrorRetryHandler(max_retry_count=count, interval_calculator=backoff),
    ]


def counting(client: WebClient) -> AnswerClient:
    """``client`` as an :class:`AnswerClient` (Bolt makes a plain WebClient per request)."""
    if isinstance(client, AnswerClient):
        return client
    return AnswerClient(
        token=client.token,
        base_url=client.base_url,
        timeout=client.timeout,
        ssl=client.ssl,
        proxy=client.proxy,
        headers=client.headers,
        team_id=client.default_params.get("team_id"),
        logger=client.logger,
        retry_handlers=client.retry_handlers,
    )


def web_client(settings: Settings, token: str | None = None) -> WebClient:
    return AnswerClient(
        token=token,
        base_url=settings.slack_api_url,
        timeout=settings.slack_timeout_s,
        retry_handlers=retry_handlers(settings),
    )


def webhook_client(url: str, settings: Settings) -> WebhookClient:
    """For ``response_url``: Bolt's own ``respond()`` would not retry on 429 or 5xx.

    The URL is a secret wherever it points, so the log scrubber learns it first
    (slack-sdk logs it when it retries).
    """
    remember_response_url(url)
    return WebhookClient(
        url=url, timeout=settings.slack_timeout_s, retry_handlers=retry_handlers(settings)
    )
