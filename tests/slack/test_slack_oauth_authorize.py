"""OAuth mode: no Slack call between a request and its ack, and a revoked token still noticed.

The real app on loopback (OAuth settings, installations in its database),
requests signed as Slack signs them, the Web API pointed at the recording
stand-in, whose ``auth.test`` is held or refuses the token on cue.
"""

from __future__ import annotations

import logging
import time

import pytest
from slackmsg import BOT_TOKEN, BOT_USER, TEAM, dm_event, installation, posts

OAUTH = {"slack_client_id": "111.222", "slack_client_secret": "oauth-client-secret-value"}
ACK_LIMIT_S = 3.0


def _installed(start_app):
    bot = start_app(slack_bot_token=None, **OAUTH)
    # Through the app's own installation store, as Bolt's OAuth flow saves it.
    bot.app.installation_store.save(installation())
    return bot


def _timed(send) -> tuple[float, object]:
    started = time.monotonic()
    sent = send()
    return time.monotonic() - started, sent


def test_with_auth_test_taking_4_seconds_every_ack_is_under_3_seconds(start_app):
    bot = _installed(start_app)
    bot.slack.hold["/api/auth.test"] = 4.0
    acks = []
    for index in range(4):
        seconds, sent = _timed(
            lambda index=index: bot.client.command(
                "100 2", response_url=bot.slack.response_url(f"slow-auth-{index}")
            )
        )
        acks.append(seconds)
        assert sent.status == 200
        seconds, sent = _timed(
            lambda index=index: bot.client.event(
                dm_event("100 2", ts=f"1700000002.00000{index}"), event_id=f"EvSlowAuth{index}"
            )
        )
        acks.append(seconds)
        assert sent.status == 200
    assert max(acks) < ACK_LIMIT_S, acks
    for index in range(4):
        bot.slack.wait(lambda index=index: bot.slack.responses(f"slow-auth-{index}"))
    bot.slack.wait(lambda: posts(bot), count=4)
    # The stored bot's ids stood in for auth.test's (the mention strip needs bot_user_id).
    assert {call.headers["Authorization"] for call in posts(bot)} == {f"Bearer {BOT_TOKEN}"}
    print(f"acks with auth.test held 4 s: max {max(acks) * 1000:.0f} ms")


def test_a_token_slack_refuses_is_noticed_and_its_requests_refused(start_app, caplog):
    bot = _installed(start_app)
    bot.slack.script["auth.test"] = [
        (200, {"Content-Type": "application/json"}, b'{"ok": false, "error": "token_revoked"}')
    ]
    caplog.set_level(logging.ERROR, logger="bot.slack.installations")
    first = bot.client.command("100 2", response_url=bot.slack.response_url("before-check"))
    assert first.status == 200
    deadline = time.monotonic() + 10
    while "Slack refused the bot token" not in caplog.text:
        assert time.monotonic() < deadline, caplog.text
        time.sleep(0.05)
    assert "token_revoked" in caplog.text and BOT_TOKEN not in caplog.text

    refused = bot.client.command("100 2", response_url=bot.slack.response_url("after-check"))
    assert refused.status == 200
    # Bolt's own answer for a workspace with no usable installation, not an estimate.
    (answer,) = bot.slack.wait(lambda: bot.slack.responses("after-check"))
    time.sleep(0.5)
    assert len(bot.slack.responses("after-check")) == 1
    assert "install" in answer.body["text"].lower() and "50" not in answer.body["text"]

    # Installed again (a new token): served again.
    bot.app.installation_store.save(installation(BOT_TOKEN + "-new"))
    again = bot.client.command("100 2", response_url=bot.slack.response_url("reinstalled"))
    assert again.status == 200
    bot.slack.wait(lambda: bot.slack.responses("reinstalled"))


def _uninstall_event(kind: str) -> dict:
    """Slack's app_uninstalled or tokens_revoked event (the bot's token among those revoked)."""
    event = {"type": kind, "event_ts": "1700000009.000001"}
    if kind == "tokens_revoked":
        event["tokens"] = {"oauth": [], "bot": [BOT_USER]}
    return event


@pytest.mark.parametrize("kind", ["app_uninstalled", "tokens_revoked"])
def test_a_workspace_that_uninstalls_the_app_has_its_tokens_deleted(start_app, kind):
    bot = _installed(start_app)
    served = bot.client.command("100 2", response_url=bot.slack.response_url("installed"))
    assert served.status == 200
    bot.slack.wait(lambda: bot.slack.responses("installed"))

    told = bot.client.event(_uninstall_event(kind), event_id=f"Ev{kind}")
    assert told.status == 200
    store = bot.app.installation_store
    assert store.find_bot(enterprise_id=None, team_id=TEAM) is None  # no stale token kept
    with store.store.engine.connect() as connection:  # nor in the database itself
        tokens = connection.exec_driver_sql("SELECT bot_token FROM slack_bots").fetchall()
    assert tokens == []

    after = bot.client.command("100 2", response_url=bot.slack.response_url("uninstalled"))
    assert after.status == 200
    (answer,) = bot.slack.wait(lambda: bot.slack.responses("uninstalled"))
    assert "install" in answer.body["text"].lower() and "50" not in answer.body["text"]


def test_with_one_bot_token_an_uninstall_is_told_to_the_operator(start_app, caplog):
    bot = start_app()
    caplog.set_level(logging.ERROR, logger="bot.slack.app")
    told = bot.client.event(_uninstall_event("app_uninstalled"), event_id="EvUninstalled")
    assert told.status == 200
    assert "SLACK_BOT_TOKEN no longer works" in caplog.text and BOT_TOKEN not in caplog.text
