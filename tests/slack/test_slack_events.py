"""Mentions, DMs, App Home, the modal and reliability, end to end."""

from __future__ import annotations

import json
import logging
import time
import urllib.request

from slackmsg import BOT_TOKEN, SIGNING_SECRET, block_text, dm_event, mention_event, posts

ARABIC_LETTERS = set("ابتثجحخدذرزسشصضطظعغفقكلمنهوي")


def test_url_verification_echoes_the_challenge(bot):
    body = json.dumps(
        {"token": "t", "challenge": "3eZbrw1aBm2rZgRNFdxV", "type": "url_verification"}
    )
    sent = bot.client.post(body.encode(), "application/json")
    assert sent.status == 200 and "3eZbrw1aBm2rZgRNFdxV" in sent.body


def test_healthz_reports_the_database(bot):
    with urllib.request.urlopen(bot.url + "/healthz", timeout=5) as response:
        assert response.status == 200


def test_mention_is_answered_in_its_thread_and_a_follow_up_reuses_the_time(bot):
    assert (
        bot.client.event(
            mention_event("100 hours, ratio 2", ts="1700000000.000100"), event_id="Ev01"
        ).status
        == 200
    )
    (first,) = bot.slack.wait(lambda: posts(bot))
    assert first.body["channel"] == "C0GENERAL"
    assert first.body["thread_ts"] == "1700000000.000100"
    assert "50" in first.body["text"] and first.body["blocks"]
    follow_up = mention_event(
        "and with ratio 2.5?", ts="1700000000.000200", thread_ts="1700000000.000100"
    )
    bot.client.event(follow_up, event_id="Ev02")
    second = bot.slack.wait(lambda: posts(bot), 2)[-1]
    assert second.body["thread_ts"] == "1700000000.000100"
    assert "40" in second.body["text"]


def test_a_time_given_later_in_the_thread_keeps_the_named_setup(bot):
    """The ratio for BERT on A100 first, then only the time: the estimate is for BERT on A100."""
    bot.client.event(
        mention_event("what speedup should I expect for BERT on A100?", ts="1700000002.000100"),
        event_id="Ev21",
    )
    (first,) = bot.slack.wait(lambda: posts(bot))
    assert "BERT on A100" in first.body["text"] and _bert_a100() in first.body["text"]
    bot.client.event(
        mention_event(
            "it takes 36 hours in fp32", ts="1700000002.000200", thread_ts="1700000002.000100"
        ),
        event_id="Ev22",
    )
    second = bot.slack.wait(lambda: posts(bot), 2)[-1]
    assert second.body["thread_ts"] == "1700000002.000100"
    assert "BERT on A100: 36 hours in FP32" in second.body["text"]


def test_a_dms_top_level_keeps_the_time_but_not_the_model(bot):
    """Separate questions in a DM: "10 hours" after a BERT question is not about BERT."""
    bot.client.event(dm_event("BERT on A100, 36 hours in fp32", ts="1700000004.1"), event_id="Ev31")
    bot.slack.wait(lambda: posts(bot))
    bot.client.event(dm_event("10 hours in fp32", ts="1700000004.2"), event_id="Ev32")
    second = bot.slack.wait(lambda: posts(bot), 2)[-1]
    assert "BERT" not in second.body["text"] and "typical ratio" in second.body["text"]
    bot.client.event(dm_event("and with ratio 2.5?", ts="1700000004.3"), event_id="Ev33")
    third = bot.slack.wait(lambda: posts(bot), 3)[-1]
    assert "10 hours in FP32 → about 4 hours" in third.body["text"]


def test_arabic_follow_up_in_a_thread(bot):
    bot.client.event(
        mention_event("التدريب يستغرق ١٠٠ ساعة ونسبة التسريع ٢", ts="1700000001.000100"),
        event_id="Ev11",
    )
    bot.slack.wait(lambda: posts(bot))
    bot.client.event(
        mention_event("وبنسبة ٢٫٥؟", ts="1700000001.000200", thread_ts="1700000001.000100"),
        event_id="Ev12",
    )
    reply = bot.slack.wait(lambda: posts(bot), 2)[-1]
    assert ARABIC_LETTERS & set(reply.body["text"])
    assert "40" in reply.body["text"] or "٤٠" in reply.body["text"]


def test_direct_message_is_answered_in_thedm_event(bot):
    bot.client.event(dm_event("100 2"), event_id="Ev21")
    (post,) = bot.slack.wait(lambda: posts(bot))
    assert post.body["channel"] == "D0ALICE"
    assert "thread_ts" not in post.body
    assert "50" in post.body["text"]


def test_bot_messages_edits_and_deletions_are_ignored(bot):
    bot.client.event(dm_event("100 2", bot_id="B0OTHER"), event_id="Ev31")
    bot.client.event(dm_event("100 2", subtype="bot_message", bot_id="B0OTHER"), event_id="Ev32")
    bot.client.event(
        dm_event("", subtype="message_changed", message={"text": "100 2"}), event_id="Ev33"
    )
    bot.client.event(dm_event("", subtype="message_deleted"), event_id="Ev34")
    bot.client.event(mention_event("100 2", ts="1700000002.1", bot_id="B0OTHER"), event_id="Ev35")
    bot.client.event(dm_event("100 2", ts="1700000002.2"), event_id="Ev36")  # the one to answer
    bot.slack.wait(lambda: posts(bot))
    time.sleep(0.3)
    assert len(posts(bot)) == 1


def test_a_redelivered_event_is_answered_once(bot):
    event = dm_event("100 2")
    assert bot.client.event(event, event_id="Ev41").status == 200
    retry = bot.client.event(
        event,
        event_id="Ev41",
        headers={"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"},
    )
    assert retry.status == 200
    bot.slack.wait(lambda: posts(bot))
    time.sleep(0.3)
    assert len(posts(bot)) == 1


def test_redelivery_to_another_replica_is_answered_once(start_app):
    # Two replicas, one database. The dedupe look-up gets a budget a loaded
    # machine cannot run past: past it the bot answers without the database (on
    # purpose, tests/store/test_store_degraded.py), which is not what this tests.
    one, two = (start_app(dedupe_budget_s=3.0) for _ in range(2))
    one.client.event(dm_event("100 2"), event_id="Ev42")
    two.client.event(dm_event("100 2"), event_id="Ev42", headers={"X-Slack-Retry-Num": "1"})
    one.slack.wait(lambda: posts(one))
    time.sleep(0.3)
    assert len(posts(one)) == 1


def test_rate_limited_post_is_retried_after_retry_after(bot):
    bot.slack.script["chat.postMessage"] = [
        (
            429,
            {"Retry-After": "1", "Content-Type": "application/json"},
            b'{"ok": false, "error": "ratelimited"}',
        ),
    ]
    started = time.monotonic()
    bot.client.event(dm_event("100 2"), event_id="Ev51")
    (post,) = bot.slack.wait(lambda: posts(bot))
    assert time.monotonic() - started >= 1.0
    assert "50" in post.body["text"]
    attempts = [c.scripted for c in bot.slack.calls if c.path == "/api/chat.postMessage"]
    assert attempts == [True, False]


def test_slack_api_down_is_logged_and_the_app_keeps_serving(bot, caplog):
    caplog.set_level(logging.INFO)
    bot.slack.script["chat.postMessage"] = [(500, {}, b"")] * 3 + [(0, {}, b"")] * 6
    bot.client.event(dm_event("100 2"), event_id="Ev61")
    # Wait for the failure that names this event: retries with backoff take a while.
    bot.slack.wait(
        lambda: [
            r for r in caplog.records if r.levelno >= logging.ERROR and "Ev61" in r.getMessage()
        ],
        timeout=30,
    )
    assert not any(BOT_TOKEN in line or SIGNING_SECRET in line for line in caplog.messages)
    with urllib.request.urlopen(bot.url + "/healthz", timeout=5) as response:
        assert response.status == 200
    bot.slack.script.clear()
    bot.client.event(dm_event("100 2", ts="1700000009.1"), event_id="Ev62")
    assert "50" in bot.slack.wait(lambda: posts(bot))[-1].body["text"]


def test_app_home_publishes_a_bilingual_guide(bot):
    event = {
        "type": "app_home_opened",
        "user": "U0ALICE",
        "channel": "D0ALICE",
        "tab": "home",
        "event_ts": "1700000003.1",
    }
    bot.client.event(event, event_id="Ev71")
    (publish,) = bot.slack.wait(lambda: bot.slack.api("views.publish"))
    assert publish.body["user_id"] == "U0ALICE"
    view = publish.body["view"]
    view = json.loads(view) if isinstance(view, str) else view
    assert view["type"] == "home"
    shown = block_text(view)
    assert ARABIC_LETTERS & set(shown) and "/mpestimate" in shown and "Tell me" in shown
    assert any(
        e.get("action_id") == "mp_new_estimate"
        for b in view["blocks"]
        if b["type"] == "actions"
        for e in b["elements"]
    )


def test_new_estimate_button_opens_the_modal(bot):
    bot.client.interact(
        {
            "type": "block_actions",
            "user": {"id": "U0ALICE"},
            "trigger_id": "1.2.trigger",
            "container": {"type": "view", "view_id": "V0HOME"},
            "actions": [
                {
                    "type": "button",
                    "action_id": "mp_new_estimate",
                    "block_id": "b",
                    "value": "en",
                    "action_ts": "1.1",
                }
            ],
        }
    )
    (opened,) = bot.slack.wait(lambda: bot.slack.api("views.open"))
    view = opened.body["view"]
    view = json.loads(view) if isinstance(view, str) else view
    assert opened.body["trigger_id"] == "1.2.trigger"
    assert view["type"] == "modal" and view["callback_id"] == "mp_estimate_modal"


def _submission(fp32: str, ratio: str = "", lang: str = "en") -> dict:
    def typed(value: str) -> dict:
        return {"value": {"type": "plain_text_input", "value": value or None}}

    return {
        "type": "view_submission",
        "user": {"id": "U0ALICE"},
        "trigger_id": "1.3.trigger",
        "view": {
            "id": "V0MODAL",
            "type": "modal",
            "callback_id": "mp_estimate_modal",
            "private_metadata": lang,
            "state": {
                "values": {
                    "fp32": typed(fp32),
                    "unit": {
                        "value": {"type": "static_select", "selected_option": {"value": "hours"}}
                    },
                    "ratio": typed(ratio),
                    "setup": typed(""),
                }
            },
        },
    }


def test_modal_rejects_a_bad_ratio_in_the_users_language(bot):
    sent = bot.client.interact(_submission("100", ratio="0.5", lang="ar"))
    assert sent.status == 200
    body = json.loads(sent.body)
    assert body["response_action"] == "errors"
    ((field, message),) = body["errors"].items()
    assert field == "ratio" and ARABIC_LETTERS & set(message)
    assert posts(bot) == []


def test_modal_sends_a_valid_estimate_to_the_user(bot):
    sent = bot.client.interact(_submission("100", ratio="2"))
    assert sent.status == 200 and sent.body == ""
    (post,) = bot.slack.wait(lambda: posts(bot))
    assert post.body["channel"] == "U0ALICE" and "50" in post.body["text"]


def test_dm_follow_up_reuses_the_last_time_and_channel_messages_are_ignored(bot):
    bot.client.event(dm_event("100 2", ts="1700000010.1"), event_id="Ev81")
    bot.slack.wait(lambda: posts(bot))
    channel_message = {
        **dm_event("100 2", ts="1700000010.2"),
        "channel_type": "channel",
        "channel": "C0GENERAL",
    }
    bot.client.event(channel_message, event_id="Ev82")
    bot.client.event(dm_event("and with ratio 2.5?", ts="1700000010.3"), event_id="Ev83")
    sent = bot.slack.wait(lambda: posts(bot), 2)
    time.sleep(0.3)
    assert len(posts(bot)) == 2 and sent[1].body["channel"] == "D0ALICE"
    assert "40" in sent[1].body["text"]


def _bert_a100() -> str:
    """The realistic BERT-on-A100 ratio the prediction gives (the old 1.84 was the table's)."""
    from bot.advice.prediction import Setup, predict

    return f"{predict(Setup(gpu='A100', model='BERT')).ratio:.2f}"
