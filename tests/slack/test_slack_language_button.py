"""The language button switches this answer and, like ``lang ar``, the next ones.

Slack users do not expect a button to change a setting silently, so the first
switched reply says that later answers stay in that language and how to switch back.
"""

from __future__ import annotations

from slackmsg import block_text, button

NOTICE_AR = "سأجيبك بالعربية من الآن فصاعدًا"
NOTICE_EN = "I'll answer you in English from now on; `lang ar` switches back."


def _answer(bot, text: str) -> dict:
    before = len(bot.slack.responses())
    assert bot.client.command(text, response_url=bot.slack.response_url()).status == 200
    return bot.slack.wait(bot.slack.responses, before + 1)[-1].body


def _click_language(bot, message: dict, hook: str) -> dict:
    bot.client.click(button(message, "mp_lang"), response_url=bot.slack.response_url(hook))
    return bot.slack.wait(lambda: bot.slack.responses(hook))[-1].body


def test_switching_says_once_that_later_answers_follow(bot):
    english = _answer(bot, "100 2")
    arabic = _click_language(bot, english, "lang1")
    assert NOTICE_AR in block_text(arabic) and NOTICE_AR in arabic["text"]
    assert "`lang en`" in block_text(arabic)
    kinds = [block["type"] for block in arabic["blocks"]]
    assert kinds.index("actions") > max(i for i, k in enumerate(kinds) if k == "context")

    later = _answer(bot, "100 2")  # the choice was kept...
    assert "ساعة" in later["text"] or "أيام" in later["text"]
    assert NOTICE_AR not in block_text(later)  # ...and said only when it changed

    again = _click_language(bot, later, "lang2")  # the same button on an Arabic answer
    assert NOTICE_EN in block_text(again)


def test_no_notice_when_that_language_was_already_chosen(bot):
    _answer(bot, "lang ar")
    english = _answer(bot, "100 hours at ratio 2")  # English words answer in English
    assert "100 hours" in english["text"]
    arabic = _click_language(bot, english, "lang3")
    assert "المختلطة" in arabic["text"]
    assert NOTICE_AR not in block_text(arabic)  # nothing changed: nothing to say
