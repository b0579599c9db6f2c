"""/mpestimate end to end: signed form posts in, response_url posts out."""

from __future__ import annotations

import time

from slackmsg import block_text, button, buttons

ARABIC_LETTERS = set("ابتثجحخدذرزسشصضطظعغفقكلمنهوي")


def _has_arabic(text: str) -> bool:
    return bool(ARABIC_LETTERS & set(text))


def _answer(bot, text: str, **kw) -> dict:
    before = len(bot.slack.responses())
    sent = bot.client.command(text, response_url=bot.slack.response_url(), **kw)
    assert sent.status == 200 and sent.body == ""  # acked at once, answered later
    return bot.slack.wait(bot.slack.responses, before + 1)[-1].body


def test_english_command_answers_privately_with_blocks_and_fallback(bot):
    message = _answer(bot, "100 2")
    assert message["response_type"] == "ephemeral"
    assert "50" in message["text"] and "50" in block_text(message)
    assert not _has_arabic(message["text"])
    assert message["blocks"][0]["type"] == "section"
    ids = [b["action_id"] for b in buttons(message)]
    assert {
        "mp_ratio_0",
        "mp_ratio_1",
        "mp_ratio_2",
        "mp_experiment",
        "mp_lang",
        "mp_share",
    } <= set(ids)


def test_arabic_command_answers_in_arabic(bot):
    message = _answer(bot, "التدريب يستغرق ١٠٠ ساعة ونسبة التسريع ٢")
    assert _has_arabic(message["text"]) and _has_arabic(block_text(message))
    assert "50" in message["text"] or "٥٠" in message["text"]
    labels = {b["action_id"]: b["text"]["text"] for b in buttons(message)}
    assert _has_arabic(labels["mp_share"]) and labels["mp_lang"] == "English"


def test_help_empty_and_arabic_help_show_usage(bot):
    english = _answer(bot, "help")
    empty = _answer(bot, "")
    arabic = _answer(bot, "مساعدة")
    for message in (english, empty, arabic):
        assert message["response_type"] == "ephemeral"
        assert "/mpestimate" in message["text"]
        assert not [b for b in buttons(message) if b["action_id"] == "mp_share"]
    # The summary is in the asker's language (examples may show the other one).
    assert not _has_arabic(english["text"].splitlines()[0])
    assert _has_arabic(arabic["text"].splitlines()[0])


def test_errors_are_private_and_offer_no_estimate_buttons(bot):
    message = _answer(bot, "100 0.5")
    assert message["response_type"] == "ephemeral"
    assert message["text"].strip()
    assert not {b["action_id"] for b in buttons(message)} & {
        "mp_share",
        "mp_ratio_0",
        "mp_experiment",
    }


def test_echoed_channel_ping_is_escaped(bot):
    for text in ("<!channel> <@U0BOB> 100 2", "<!channel>", "100 <!here> hours"):
        message = _answer(bot, text)
        shown = message["text"] + block_text(message)  # button values are never displayed
        assert "<!channel>" not in shown and "<@U0BOB>" not in shown and "<!here>" not in shown


def test_share_posts_in_channel_and_removes_the_private_copy(bot):
    private = _answer(bot, "100 2")
    share_url = bot.slack.response_url("share")
    sent = bot.client.click(button(private, "mp_share"), response_url=share_url)
    assert sent.status == 200
    shared, deleted = bot.slack.wait(lambda: bot.slack.responses("share"), 2)
    assert shared.body["response_type"] == "in_channel"
    assert "50" in shared.body["text"]
    assert "<@U0ALICE>" in block_text(shared.body)
    assert not [b for b in buttons(shared.body) if b["action_id"] == "mp_share"]
    assert deleted.body == {"delete_original": True}


def test_ratio_button_replaces_the_private_answer(bot):
    private = _answer(bot, "100 2")
    click_url = bot.slack.response_url("ratio")
    bot.client.click(button(private, "mp_ratio_2"), response_url=click_url)  # ratio 2.5
    (updated,) = bot.slack.wait(lambda: bot.slack.responses("ratio"))
    assert updated.body["replace_original"] is True
    assert "40" in updated.body["text"]


def test_language_button_switches_and_is_remembered(bot):
    english = _answer(bot, "100 2")
    click_url = bot.slack.response_url("lang")
    bot.client.click(button(english, "mp_lang"), response_url=click_url)
    (switched,) = bot.slack.wait(lambda: bot.slack.responses("lang"))
    assert _has_arabic(switched.body["text"])
    later = _answer(bot, "100 2")
    assert _has_arabic(later["text"])


def test_experiment_and_details_buttons_answer_privately(bot):
    private = _answer(bot, "100 2")
    bot.client.click(button(private, "mp_experiment"), response_url=bot.slack.response_url("exp"))
    (recipe,) = bot.slack.wait(lambda: bot.slack.responses("exp"))
    assert recipe.body["response_type"] == "ephemeral" and recipe.body["replace_original"] is False
    assert "mpbot experiment" in recipe.body["text"]
    details = [b for b in buttons(private) if b["action_id"] == "mp_details"]
    if details:  # offered only when the reply has details
        bot.client.click(details[0], response_url=bot.slack.response_url("details"))
        (shown,) = bot.slack.wait(lambda: bot.slack.responses("details"))
        assert shown.body["blocks"] and shown.body["replace_original"] is False


def test_forged_and_stale_signatures_are_refused_and_never_answered(bot):
    forged = bot.client.command(
        "100 2", response_url=bot.slack.response_url(), signature="v0=" + "0" * 64
    )
    stale = bot.client.command(
        "100 2", response_url=bot.slack.response_url(), timestamp=int(time.time()) - 6 * 60
    )
    assert forged.status == 401 and stale.status == 401
    time.sleep(0.5)
    assert bot.slack.responses() == []


def test_language_preference_survives_a_restart(start_app):
    first = start_app()
    _answer(first, "lang ar")
    second = start_app()  # a new app instance on the same database
    message = _answer(second, "100 2")
    assert _has_arabic(message["text"])


def test_slack_locale_decides_bare_numbers_and_is_asked_once(bot):
    bot.slack.locales["U0SARA"] = "ar-SA"
    first = _answer(bot, "100 2", user="U0SARA")
    second = _answer(bot, "100 2", user="U0SARA")
    assert _has_arabic(first["text"]) and _has_arabic(second["text"])
    asked = [c for c in bot.slack.api("users.info") if c.body.get("user") == "U0SARA"]
    assert len(asked) == 1 and asked[0].body.get("include_locale") in ("true", "1", True)


def test_response_url_rate_limit_is_retried_after_retry_after(bot):
    bot.slack.script["/hook/T0TEAM/1234/abcd"] = [
        (429, {"Retry-After": "1"}, b"rate_limited"),
    ]
    started = time.monotonic()
    message = _answer(bot, "100 2")
    assert time.monotonic() - started >= 1.0
    assert "50" in message["text"]
    assert [c.scripted for c in bot.slack.calls if c.path.startswith("/hook")] == [True, False]


def test_an_unexpected_error_gets_a_localized_apology_and_a_log_line(bot, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("core exploded")

    monkeypatch.setattr("bot.slack.asks.answer", broken)
    bot.slack.locales["U0SARA"] = "ar-SA"
    message = _answer(bot, "100 2", user="U0SARA")
    assert message["response_type"] == "ephemeral"
    assert _has_arabic(message["text"]) and "core exploded" not in message["text"]
    assert any("could not answer" in r.getMessage() and r.exc_info for r in caplog.records)
