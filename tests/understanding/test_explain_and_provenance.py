"""Readings explain themselves: Query.read_by and ``mpbot ask --explain``."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from bot.models import Channel
from bot.understanding import understand
from bot.understanding.explain import explain
from bot.understanding.resolving.candidates import RATIO, TIME, Candidate
from bot.understanding.resolving.resolve import resolve

BIDI = re.compile("[\u2066-\u2069\u200e\u200f\u061c]")


@pytest.mark.parametrize(
    ("text", "channel", "fp32_rule", "ratio_rule"),
    [
        ("100 2", "command", "position", "position"),
        ("٣٦ ساعة والنسبة ٢", "dm", "duration", "labelled_ratio"),
        ("36h, 40% faster", "dm", "duration", "ratio_marker"),
        ("0.9 s/it in fp32, 0.5 s/it with amp, 20k iterations", "dm", "step_rate", "step_rate"),
        ("fp32 takes 10 h, amp takes 6 h", "dm", "duration", "fp32_and_mixed_times"),
        (
            "كل ايبوك ٣ ساعات، ١٠ ايبوكات، بمعامل ٢",
            "dm",
            "per_epoch_times_epochs",
            "labelled_ratio",
        ),
    ],
)
def test_query_keeps_the_rule_of_each_value(text, channel, fp32_rule, ratio_rule):
    q = understand(text, Channel(channel))
    assert q.read_by["fp32"][0] == fp32_rule
    assert q.read_by["ratio"][0] == ratio_rule


def test_explain_lists_candidates_and_choice():
    out = explain("0.9 s/it in fp32, 0.5 s/it with amp, 20k iterations on 8 A100")
    assert "step_time 0.9 (step_rate, fp32)" in out
    assert "ratio = 1.8 (rule step_rate" in out
    assert "8 -> gpus" in out


def test_explain_names_unused_numbers():
    assert "3 -> unused" in explain("100 2 3", Channel.COMMAND)


def test_cli_explain_flag():
    got = subprocess.run(
        [sys.executable, "-m", "bot", "ask", "--explain", "36h", "2x"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "fp32 = 36 h (rule duration" in got.stdout


def test_resolver_prefers_priority_then_length_and_reports_ties():
    name = Candidate("name", 0, 2, "32x8d", "variant_code")
    ratio = Candidate(RATIO, 0, 1, 32.0, "ratio_marker")
    time = Candidate(TIME, 1, 2, 192.0, "duration")
    got = resolve([ratio, time, name])
    assert got.chosen == [name] and not got.ties
    a, b = Candidate(TIME, 0, 1, 100.0, "x"), Candidate(TIME, 0, 1, 200.0, "y")
    tie = resolve([a, b])
    assert len(tie.chosen) == 1 and len(tie.ties) == 1


@pytest.mark.parametrize(
    ("text", "lang", "expected", "as_written"),
    [
        ("36h, at 2.5?", "en", "I did not use 2.5", "2.5"),
        # A lone number after a setting phrase is the ratio by position ("fp32 100h on 8
        # gpus, 2.5": test_first_hour_messages.py); a word no rule reads keeps it unused.
        ("fp32 100h on 8 gpus, then 2.5", "en", "I did not use 2.5", "2.5"),
        ("١٠٠ ساعة على ٨ بطاقات، وبعدين ٢٫٥", "ar", "لم أستخدم ٢٫٥", "٢٫٥"),
    ],
)
def test_unused_numbers_are_named_in_the_reply(text, lang, expected, as_written):
    from bot.conversation import answer

    turn = answer(text, Channel.DM)
    assert turn.query.unused == [as_written]  # the user's spelling, not the normalised one
    assert turn.reply.lang.value == lang
    assert any(expected in note for note in turn.reply.notes) and expected in turn.reply.text


def test_used_numbers_are_not_named():
    from bot.conversation import answer

    turn = answer("36h on 8 A100, ratio 2", Channel.DM)
    assert turn.query.unused == []
    assert "did not use" not in turn.reply.text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("36h fp32 ResNet-50 on V100, 2X", "I read “36h” as the FP32 time and “2X” as the ratio."),
        ("٣٦ ساعة ResNet-50 على V100 بمعامل ٢", "فهمتُ من رسالتك «٣٦ ساعة» مدةً للتدريب"),
    ],
)
def test_details_say_what_was_read_as_what(text, expected):
    """In the user's own spelling (never the normalised "ساعه"), without rule names."""
    from bot.conversation import answer

    turn = answer(text, Channel.DM)
    details = [BIDI.sub("", line) for line in turn.reply.details]
    assert any(expected in line for line in details), details
    assert "(rule " not in turn.reply.text and "(القاعدة " not in turn.reply.text


def test_progress_readouts_are_not_named_as_unused():
    from bot.conversation import answer

    text = (
        "fp32: Epoch 1/10: 100%|████| 1000/1000 [03:20<00:00, 5.00it/s, loss=0.23]\n"
        "amp: Epoch 1/10: 100%|████| 1000/1000 [01:51<00:00, 9.00it/s, loss=0.23]"
    )
    assert answer(text, Channel.DM).query.unused == []


def test_the_decision_drops_a_ratio_read_inside_a_time_and_keeps_ties():
    from bot.understanding.parse import _without_overlaps
    from bot.understanding.rules.ratio.ratios import RatioCand
    from bot.understanding.rules.time.durations import Quantity

    compound = Quantity(54, "h", 0, 4, rule="duration")  # "2 days 6 hours"
    inside = RatioCand(6.0, 2, "6")
    times, ratios = _without_overlaps([compound], [inside, RatioCand(2.0, 5, "2")])
    assert times == [compound] and [r.value for r in ratios] == [2.0]
    tied = _without_overlaps([Quantity(1, "h", 0, 1), Quantity(2, "h", 0, 1)], [])[0]
    assert len(tied) == 2  # two readings of one token: ambiguous, never a guess


def test_explain_names_the_setup_rule_of_each_number():
    out = explain("A100 x8, 100h in fp32, amp 2x, $3/h, 420 ms per step")
    assert "8 -> gpus (rule gpu_times_count)" in out
    assert "3 -> price (rule price)" in out
    assert (
        "420ms -> step_time (rule step_time)" in out or "420 -> step_time (rule step_time)" in out
    )
