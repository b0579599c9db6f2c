"""OAuth install pages, Socket Mode's connection and the log scrubbing."""

from __future__ import annotations

import logging
import urllib.error
import urllib.request

import pytest
from slack_bolt.adapter.socket_mode import SocketModeHandler
from slackmsg import BOT_TOKEN, SIGNING_SECRET
from sqlalchemy import text

from bot.settings import Settings
from bot.slack.app import create_app
from bot.slack.logs import REDACTED, ScrubbingFormatter
from bot.store import connect


def test_oauth_install_page_issues_a_state_stored_in_the_database(start_app, database_url):
    running = start_app(
        slack_bot_token=None,
        slack_client_id="111.222",
        slack_client_secret="oauth-client-secret-value",
    )
    request = urllib.request.Request(running.url + "/slack/install")
    with urllib.request.urlopen(request, timeout=5) as response:
        page = response.read().decode()
    assert response.status == 200
    assert "https://slack.com/oauth/v2/authorize?state=" in page and "client_id=111.222" in page
    assert "oauth-client-secret-value" not in page
    with connect(database_url).engine.connect() as connection:
        states = connection.execute(text("SELECT count(*) FROM slack_oauth_states")).scalar_one()
    assert states == 1


def test_oauth_redirect_with_a_forged_state_is_refused(start_app):
    running = start_app(
        slack_bot_token=None,
        slack_client_id="111.222",
        slack_client_secret="oauth-client-secret-value",
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(
            running.url + "/slack/oauth_redirect?code=abc&state=forged", timeout=5
        )
    assert refused.value.code == 400


def test_socket_mode_connects_through_slack_api_url(slack, database_url):
    settings = Settings(
        _env_file=None,
        slack_bot_token=BOT_TOKEN,
        slack_app_token="xapp-1-A0APP-1234-appleveltoken",
        slack_api_url=slack.url + "/api/",
        database_url=database_url,
        slack_retry_backoff_s=0.0,
        slack_retry_count=0,
    )
    app = create_app(settings, connect(database_url))
    handler = SocketModeHandler(app, settings.slack_app_token.get_secret_value())
    handler.connect()  # the fake gives no WebSocket URL: the client logs and gives up
    # The first call; the client's monitor may already be trying again on a slow machine.
    opened = slack.api("apps.connections.open")[0]
    assert opened.headers["Authorization"] == "Bearer xapp-1-A0APP-1234-appleveltoken"
    handler.close()


def test_log_lines_never_carry_tokens_or_secrets():
    formatter = ScrubbingFormatter([SIGNING_SECRET], as_json=True)
    record = logging.LogRecord(
        "x",
        logging.ERROR,
        __file__,
        1,
        "calling with %s and %s and xapp-1-A-2-b",
        (BOT_TOKEN, SIGNING_SECRET),
        None,
    )
    line = formatter.format(record)
    assert BOT_TOKEN not in line and SIGNING_SECRET not in line and "xapp-1" not in line
    assert line.count(REDACTED) == 3


def test_log_lines_never_carry_response_urls():
    """A response URL lets its holder post in the channel: plain or URL-encoded, it is scrubbed."""
    formatter = ScrubbingFormatter([], as_json=False)
    plain = "https://hooks.slack.com/commands/T0001/1234/AbCdEf123"
    encoded = "response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT0001%2F1234%2FAbCdEf123&x=1"
    record = logging.LogRecord(
        "x", logging.DEBUG, __file__, 1, "posting to %s; body %s", (plain, encoded), None
    )
    line = formatter.format(record)
    assert "AbCdEf123" not in line and "hooks.slack.com" not in line
    assert line.count(REDACTED) == 2 and line.endswith("&x=1")


def test_the_app_starts_without_bolts_unused_token_warning(database_url, monkeypatch, caplog):
    """Bolt would read SLACK_BOT_TOKEN itself and warn that it skips it, at every start of
    every process; the app gives Bolt its client and authorizer, so nothing is skipped."""
    import logging

    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-from-the-environment")
    settings = Settings(
        _env_file=None,
        slack_bot_token="xoxb-1-test",
        slack_signing_secret="s" * 32,
        database_url=database_url,
    )
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            create_app(settings, connect(database_url))
    assert not [
        r for r in caplog.records if "unused" in r.getMessage() or "ignored" in r.getMessage()
    ]
    import os

    assert os.environ["SLACK_BOT_TOKEN"] == "xoxb-from-the-environment"  # put back
