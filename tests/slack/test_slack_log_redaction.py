"""Response URLs never reach a log line, whatever host they point at.

A ``response_url`` lets anyone holding it post into the channel for 30 minutes,
so it is a secret like a token: on Slack's own hooks host, on GovSlack's, behind
a proxy (``SLACK_API_URL``), URL-encoded in a request body or JSON-escaped.
"""

from __future__ import annotations

import io
import json
import logging
import urllib.parse
from collections.abc import Iterator

import pytest
from slackmsg import BOT_TOKEN, SIGNING_SECRET

from bot.slack.logs import REDACTED, ScrubbingFormatter

RATE_LIMITED = (429, {"Retry-After": "0", "Content-Type": "text/plain"}, b"rate_limited")


@pytest.fixture
def app_log() -> Iterator[io.StringIO]:
    """Everything logged, at DEBUG, through the app's scrubbing formatter."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(ScrubbingFormatter([BOT_TOKEN, SIGNING_SECRET], as_json=False))
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    yield out
    root.removeHandler(handler)
    root.setLevel(level)


def test_a_retried_response_url_on_any_host_is_not_logged(bot, app_log):
    # The fake Slack's response_url is on 127.0.0.1 with a path no Slack hook has:
    # only "it was given to us as a response_url" can tell it is one.
    url = bot.slack.response_url()
    bot.slack.script[urllib.parse.urlsplit(url).path] = [RATE_LIMITED]
    assert bot.client.command("100 2", response_url=url).status == 200
    bot.slack.wait(bot.slack.responses)

    logged = app_log.getvalue()
    assert "RateLimitErrorRetryHandler" in logged  # slack-sdk did log the retry...
    assert "/hook/T0TEAM/1234/abcd" not in logged  # ...without the URL
    assert "hook%2FT0TEAM" not in logged
    assert REDACTED in logged


@pytest.mark.parametrize(
    "url",
    [
        "https://hooks.slack.com/commands/T0TEAM/1234/abcd",
        "https://hooks.slack-gov.com/commands/T0TEAM/1234/abcd",
        "https://hooks.slack-gov.com/actions/T0TEAM/1234/abcd",
        "https://proxy.example.com/commands/T0TEAM/1234/abcd",
        "https://proxy.example.com/actions/E0GRID/1234/abcd",
        "https://proxy.example.com/services/T0TEAM/B0HOOK/abcd",
    ],
)
@pytest.mark.parametrize(
    "written",
    [
        lambda url: url,
        lambda url: urllib.parse.quote(url, safe=""),  # a form-encoded body
        lambda url: url.replace("/", "\\/"),  # Slack's JSON
        lambda url: urllib.parse.quote(url.replace("/", "\\/"), safe=""),  # payload=
    ],
)
def test_slack_hook_shapes_are_redacted_on_any_host_and_in_any_encoding(url, written):
    formatter = ScrubbingFormatter([], as_json=False)
    line = f"POST {written(url)} - HTTP Error 429: Too Many Requests"
    scrubbed = formatter.scrub(line)
    assert "abcd" not in scrubbed
    assert scrubbed == f"POST {REDACTED} - HTTP Error 429: Too Many Requests"


def test_other_urls_stay_readable_and_json_lines_stay_json():
    formatter = ScrubbingFormatter([], as_json=True)
    urls = (
        "https://slack.com/api/chat.postMessage",
        "https://hooks.slack-gov.com/commands/T0TEAM/1234/abcd",
    )
    record = logging.LogRecord(
        "slack_sdk", logging.INFO, __file__, 1, "calling %s then %s", urls, None
    )
    line = formatter.format(record)
    assert "https://slack.com/api/chat.postMessage" in line
    assert "abcd" not in line
    assert json.loads(line)["message"].endswith(REDACTED)
