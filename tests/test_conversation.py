"""The pipeline seam: thread follow-ups and the JSON contract of ``mpbot ask``."""

from __future__ import annotations

import re

import pytest

from bot.conversation import answer, to_json
from bot.models import Channel, Lang


def test_follow_up_in_a_thread_reuses_the_fp32_time() -> None:
    turn = answer("and with ratio 2.5?", Channel.MENTION, thread_fp32_hours=100.0)
    got = to_json(turn)
    assert (got["kind"], got["fp32_hours"], got["ratio"]) == ("estimate", 100.0, 2.5)
    assert got["mp_hours"] == pytest.approx(40.0)


def test_arabic_follow_up_answers_in_arabic() -> None:
    got = to_json(answer("وبنسبة ٢٫٥؟", Channel.MENTION, thread_fp32_hours=100.0))
    assert (got["kind"], got["lang"], got["mp_hours"]) == ("estimate", "ar", pytest.approx(40.0))


def test_a_new_time_in_the_thread_wins_over_the_old_one() -> None:
    got = to_json(answer("30 hours, ratio 2", Channel.MENTION, thread_fp32_hours=100.0))
    assert got["fp32_hours"] == 30.0


def test_without_a_thread_a_ratio_alone_asks_for_the_time() -> None:
    got = to_json(answer("and with ratio 2.5?", Channel.MENTION))
    assert (got["kind"], got["reason"]) == ("error", "no_numbers")


def test_json_reports_the_setup_the_suggestion_assumed() -> None:
    got = to_json(answer("BERT on A100, 10 hours", Channel.DM))
    assert got["kind"] == "preset"
    assert (got["family"], got["baseline"]) == ("language_model", "tf32")
    assert got["sources"] and all(url.startswith("https://") for url in got["sources"])


def test_bare_numbers_follow_the_preferred_language() -> None:
    assert to_json(answer("100 2", Channel.COMMAND, preferred_lang=Lang.AR))["lang"] == "ar"
    assert to_json(answer("100 2", Channel.COMMAND))["lang"] == "en"


BERT_ON_A100 = {"gpu": "A100", "model": "BERT", "num_gpus": 8}


@pytest.mark.parametrize(
    ("text", "kind", "gpu", "model", "hours"),
    [
        # A time after "what speedup for BERT on A100?": about BERT on A100.
        ("it takes 36 hours in fp32", "preset", "A100", "BERT", 36.0),
        ("التدريب ياخذ ٣٦ ساعة", "preset", "A100", "BERT", 36.0),
        # A new GPU replaces the thread's; the model stays.
        ("and on H100, 20 hours?", "preset", "H100", "BERT", 20.0),
        # A new model replaces it too, in a follow-up ("and ...").
        ("and resnet50, 20 hours?", "preset", "A100", "ResNet-50", 20.0),
        # Not about the job: a thank-you stays a thank-you.
        ("thanks!", "help", None, None, None),
    ],
)
def test_a_thread_remembers_the_setup_it_named(text, kind, gpu, model, hours) -> None:
    got = to_json(answer(text, Channel.MENTION, thread_setup=BERT_ON_A100))
    assert (got["kind"], got["gpu"], got["model"], got["fp32_hours"]) == (kind, gpu, model, hours)
    if kind == "preset":
        assert got["num_gpus"] == 8


def test_thread_setup_and_time_together_answer_a_bare_follow_up() -> None:
    got = to_json(
        answer("and on H100?", Channel.MENTION, thread_fp32_hours=10.0, thread_setup=BERT_ON_A100)
    )
    assert (got["kind"], got["gpu"], got["model"], got["fp32_hours"]) == (
        "preset",
        "H100",
        "BERT",
        10.0,
    )


def test_memory_questions_stand_alone_in_a_thread() -> None:
    got = to_json(answer("memory 7B adam", Channel.MENTION, thread_setup=BERT_ON_A100))
    assert got["kind"] == "memory" and got["gpu"] is None


# Messages whose readings go through several rules, in both languages.
READ_BY_SAMPLES = [
    "36h fp32 ResNet-50 on V100, 2x",
    "100 2",
    "FP32 takes 10 h, AMP takes 6 h",
    "fp32 step 0.5 s/it, amp 0.25 s/it, 10000 steps",
    "التدريب ياخذ ٥٠ ساعة والنسبة ٢",
    "يستغرق خمسين ساعة بمعامل ١٫٥",
    "١٠٠ ساعة على ٨ بطاقات، و ٢٫٥",
    "التدريب ياخذ يومين ونص على A100",
]


@pytest.mark.parametrize("text", READ_BY_SAMPLES)
def test_replies_carry_no_rule_names_or_normalised_spellings(text):
    """What was read is worded for people in the user's own words; the rules that read
    it are for ``mpbot ask --explain`` (issue 21)."""
    from bot.understanding.text.normalise import normalise

    turn = answer(text, Channel.DM)
    shown = turn.reply.text + "\n".join(turn.reply.details + turn.reply.notes)
    for rule, _said in turn.query.read_by.values():
        assert f"rule {rule}" not in shown and f"القاعدة {rule}" not in shown
        if "_" in rule:
            assert rule not in shown
    words = set(re.findall(r"\w+", shown))
    respelled = set(re.findall(r"\w+", normalise(text))) - set(re.findall(r"\w+", text.lower()))
    for word in respelled:
        if not word.isascii():
            assert word not in words, word  # e.g. "ساعه" for "ساعة"


@pytest.mark.parametrize(
    "text", ["<!channel> <@U0BOB> 100 2", "100 <@U0BOB> hours ratio 2", "&lt;@U1&gt; 36h, 2x"]
)
def test_what_was_read_never_quotes_a_mention_back(text):
    turn = answer(text, Channel.DM)
    said = "\n".join([turn.reply.text, *turn.reply.details, *turn.reply.notes])
    assert "<@" not in said and "<!" not in said and "&lt;@" not in said
