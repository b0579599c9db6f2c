"""Deleting someone else's record when Slack cannot say who is an admin.

``users.info`` failing (invalid_auth, ratelimited) is not "you are not an
admin": the person is told the check failed and to try again, and nothing is
deleted. Also: the Arabic confirmation of a record names its GPU once, isolated once.
"""

from __future__ import annotations

import json

from slackmsg import buttons

JSON = {"Content-Type": "application/json"}
FORBIDDEN = "Only the person who recorded #1 or a workspace admin can delete it."


def _answer(bot, text: str, user: str = "U0ALICE") -> dict:
    before = len(bot.slack.responses())
    sent = bot.client.command(text, response_url=bot.slack.response_url(), user=user)
    assert sent.status == 200
    return bot.slack.wait(bot.slack.responses, before + 1)[-1].body


def _users_info_fails(bot, error: str) -> None:
    failure = (200, JSON, json.dumps({"ok": False, "error": error}).encode())
    bot.slack.script["users.info"] = [failure] * 10


def test_a_failed_admin_check_says_so_instead_of_refusing(bot):
    _answer(bot, "record A100 BERT fp32 420ms amp 190ms")  # #1, Alice's
    _answer(bot, "100 2", user="U0ADMIN")  # Slack told us the admin's locale
    _users_info_fails(bot, "invalid_auth")
    reply = _answer(bot, "delete 1", user="U0ADMIN")
    assert reply["text"] != FORBIDDEN
    assert "couldn't confirm with Slack" in reply["text"] and "try again" in reply["text"]
    assert "#1 was not deleted" in reply["text"]
    history = _answer(bot, "history")
    assert "#1" in history["text"]  # still there


def test_a_failed_admin_check_is_said_in_arabic(bot):
    _answer(bot, "record A100 BERT fp32 420ms amp 190ms")
    _answer(bot, "100 2", user="U0ADMIN")
    _users_info_fails(bot, "ratelimited")
    reply = _answer(bot, "احذف ١", user="U0ADMIN")
    assert "تعذّر" in reply["text"] and "\u20681\u2069" in reply["text"]


def test_the_delete_button_says_the_admin_check_failed(bot):
    _answer(bot, "record A100 BERT fp32 420ms amp 190ms")
    history = _answer(bot, "history")
    delete = next(b for b in _accessories(history) if b["action_id"] == "mp_record_delete")
    _users_info_fails(bot, "ratelimited")
    click_url = bot.slack.response_url("delete")
    bot.client.click(delete, response_url=click_url, user="U0ADMIN")
    (answered,) = bot.slack.wait(lambda: bot.slack.responses("delete"))
    assert "couldn't confirm with Slack" in answered.body["text"]
    assert "#1" in answered.body["text"]  # the record is still listed


def test_someone_slack_confirms_is_not_an_admin_is_still_refused(bot):
    _answer(bot, "record A100 BERT fp32 420ms amp 190ms")
    reply = _answer(bot, "delete 1", user="U0BOB")
    assert reply["text"] == FORBIDDEN


def test_an_arabic_record_of_a_gpu_alone_isolates_it_once(bot):
    reply = _answer(bot, "سجل A100 ratio 2")
    assert "\u2068A100\u2069" in reply["text"]
    assert "\u2068\u2068" not in reply["text"] and "\u2069\u2069" not in reply["text"]


def _accessories(message: dict) -> list[dict]:
    found = [b["accessory"] for b in message.get("blocks", []) if b.get("accessory")]
    return found + buttons(message)
