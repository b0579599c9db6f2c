"""Web API and response_url clients that retry the way Slack asks us to.

Every client the app makes comes from here, so ``SLACK_API_URL`` (GovSlack, a
proxy, the tests' recorder) and slack-sdk's retry handlers (429 with
Retry-After, 5xx, dropped connections) apply to all of them. Retries only ever
happen in listeners, after Bolt has acknowledged the request.
"""

from __future__ import annotations

from slack_sdk import WebClient
from slack_sdk.http_retry import BackoffRetryIntervalCalculator, RetryHandler
from slack_sdk.http_retry.builtin_handlers import (
    ConnectionErrorRetryHandler,
    RateLimitErrorRetryHandler,
    ServerErrorRetryHandler,
)
from slack_sdk.webhook import WebhookClient

from bot.settings import Settings
from bot.slack.logs import remember_response_url


def retry_handlers(settings: Settings) -> list[RetryHandler]:
    backoff = BackoffRetryIntervalCalculator(backoff_factor=settings.slack_retry_backoff_s)
    count = settings.slack_retry_count
    return [
        RateLimitErrorRetryHandler(max_retry_count=count),
        ServerErrorRetryHandler(max_retry_count=count, interval_calculator=backoff),
        ConnectionErrorRetryHandler(max_retry_count=count, interval_calculator=backoff),
    ]


def web_client(settings: Settings, token: str | None = None) -> WebClient:
    return WebClient(
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
