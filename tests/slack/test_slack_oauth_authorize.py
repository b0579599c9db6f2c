"""OAuth mode: no Slack call between a request and its ack, and a revoked token still noticed.

The real app on loopback (OAuth settings, installations in its database),
requests signed as Slack signs them, the Web API pointed at the recording
stand-in, whose ``auth.test`` is held or refuses the token on cue.
"""

from __future__ import annotations

import logging
import time

from slackmsg import BOT_TOKEN, dm_event, installation, posts

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
