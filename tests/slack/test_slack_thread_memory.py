"""Follow-ups keep the job they follow: DM threads and the ratio buttons.

A thread started under a DM question is about that question (its time and the
setup it named), while separate questions at a DM's top level stay separate.
The ratio buttons under a slash command's answer ask the same question again
with another ratio, so the setup named in the command's text rides along.
"""

from __future__ import annotations

import json
import time

from slackmsg import TEAM, button, dm_event, posts

from bot.store import connect


def _say(bot, event: dict, event_id: str) -> dict:
    before = len(posts(bot))
    assert bot.client.event(event, event_id=event_id).status == 200
    return bot.slack.wait(lambda: posts(bot), before + 1)[-1].body


def test_a_reply_in_the_thread_of_a_dm_question_follows_that_question(bot):
    question = "How long for ResNet-50 on V100 with mixed precision? 30 hours in FP32"
    first = _say(bot, dm_event(question, ts="1700000500.000100"), "Th1")
    assert first.get("thread_ts") is None  # answered at the DM's top level
    follow_up = dm_event(
        "and with ratio 1.5?", ts="1700000500.000200", thread_ts="1700000500.000100"
    )
    reply = _say(bot, follow_up, "Th2")
    assert reply["thread_ts"] == "1700000500.000100"
    assert "*30 hours* in FP32 → about *20 hours*" in reply["blocks"][0]["text"]["text"]
    assert "ResNet-50 on V100" in reply["text"]  # the setup named at the top level


def test_a_reply_in_the_thread_of_the_bots_dm_answer_follows_it(bot):
    answer_ts = "1700000600.000900"
    real_answer = bot.slack.answer

    def answer(path: str, body: dict):
        status, headers, payload = real_answer(path, body)
        if path.endswith("chat.postMessage") and not body.get("thread_ts"):
            payload = json.dumps(json.loads(payload) | {"ts": answer_ts}).encode()
        return status, headers, payload

    bot.slack.answer = answer
    _say(bot, dm_event("BERT on A100, 36 hours in fp32", ts="1700000600.000100"), "Th3")
    # The answer's ts is only known once it is posted; the app keeps it right after.
    store = connect(bot.settings.database_url.get_secret_value())
    deadline = time.monotonic() + 5
    while store.thread(TEAM, "D0ALICE", answer_ts) is None and time.monotonic() < deadline:
        time.sleep(0.02)
    reply = _say(
        bot, dm_event("and with ratio 2?", ts="1700000600.000200", thread_ts=answer_ts), "Th4"
    )
    assert "*36 hours* in FP32 → about *18 hours*" in reply["blocks"][0]["text"]["text"]


def test_separate_top_level_dm_questions_still_stay_separate(bot):
    _say(bot, dm_event("BERT on A100, 36 hours in fp32", ts="1700000700.000100"), "Th5")
    second = _say(bot, dm_event("10 hours in fp32", ts="1700000700.000200"), "Th6")
    assert "BERT" not in second["text"] and "typical ratio" in second["text"]


def test_ratio_buttons_keep_the_setup_named_in_the_slash_command(bot):
    before = len(bot.slack.responses())
    sent = bot.client.command("ResNet-50 on V100, 30 hours", response_url=bot.slack.response_url())
    assert sent.status == 200
    private = bot.slack.wait(bot.slack.responses, before + 1)[-1].body
    assert "ResNet-50 on V100" in private["text"]

    click_url = bot.slack.response_url("ratio")
    bot.client.click(button(private, "mp_ratio_0"), response_url=click_url)  # ratio 1.5
    (clicked,) = bot.slack.wait(lambda: bot.slack.responses("ratio"))
    assert "*30 hours* in FP32 → about *20 hours*" in clicked.body["blocks"][0]["text"]["text"]
    assert "ResNet-50 on V100" in clicked.body["text"]
    # ...and the next click still knows it.
    bot.client.click(button(clicked.body, "mp_ratio_2"), response_url=click_url)  # ratio 2.5
    again = bot.slack.wait(lambda: bot.slack.responses("ratio"), 2)[-1]
    assert "about *12 hours*" in again.body["blocks"][0]["text"]["text"]
    assert "ResNet-50 on V100" in again.body["text"]


def test_a_thread_carries_only_to_real_follow_ups_and_says_what_it_carried(bot):
    """Issue 21: a new question in the thread is not priced in the old one's SAR."""
    root = "1700000800.000100"
    _say(bot, dm_event("BERT on A100, 30 hours on 4 GPUs at SAR 12/h", ts=root), "Th21a")
    follow = _say(bot, dm_event("and with bf16?", ts="1700000800.000200", thread_ts=root), "Th21b")
    assert "Carried over from earlier:" in follow["text"] and "4 GPUs" in follow["text"]
    assert "SAR" in follow["text"]
    fresh = dm_event(
        "GPT-2 on RTX 3090, training takes 2 days. what would bf16 give?",
        ts="1700000800.000300",
        thread_ts=root,
    )
    new = _say(bot, fresh, "Th21c")
    assert "SAR" not in new["text"] and "Carried over" not in new["text"]
    assert "GPT-2 on RTX 3090" in new["text"]


def test_a_follow_up_to_a_memory_question_asks_about_memory(bot):
    root = "1700000900.000100"
    _say(bot, dm_event("how much memory for llama 7B with adam on A100 80GB?", ts=root), "Th21d")
    time.sleep(1)  # the bot answers first, then remembers the turn (rooms/events.py)
    reply = _say(bot, dm_event("and on H100?", ts="1700000900.000200", thread_ts=root), "Th21e")
    assert "7B parameters, full fine-tune with Adam" in reply["text"] and "H100" in reply["text"]
    time.sleep(1)
    more = _say(bot, dm_event("and on 8 of them?", ts="1700000900.000300", thread_ts=root), "Th21f")
    assert "7B parameters, full fine-tune with Adam" in more["text"] and "8 × H100" in more["text"]
