"""Issue 21's reading classes, one table each, in English, MSA, Gulf, Levantine and
Egyptian Arabic (Arabic-Indic and Western digits, English terms mixed in).

Written from the class descriptions (own phrasings, held-out style), not from the
sentences of the issue: two numbers offered as alternatives, «كم» with a clitic
before a singular unit, number words in long sentences, days-plus-hours compounds,
halving in dialect, `key: value` lines, slowdowns below 1, infinite ratios in words,
a week with a bare ratio, and a time-and-cost question that names a model size.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from readings import check_reading

from bot.conversation import answer, to_json
from bot.models import Channel, Intent
from bot.understanding import understand
from bot.understanding.rules.ratio.examples import EXAMPLES as RATIO_EXAMPLES
from bot.understanding.rules.ratio.examples import INFINITE_IN_WORDS
from bot.understanding.rules.time.examples import AMB
from bot.understanding.rules.time.examples import EXAMPLES as TIME_EXAMPLES

CLASSES = TIME_EXAMPLES + RATIO_EXAMPLES


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "reason", "cands"), CLASSES)
def test_class_reading(text, channel, hours, ratio, reason, cands) -> None:
    check_reading(text, channel, hours, ratio, reason, cands)


@pytest.mark.parametrize(
    ("text", "channel", "hours", "ratio", "reason", "cands"), INFINITE_IN_WORDS
)
def test_infinite_ratio_in_words_is_refused(text, channel, hours, ratio, reason, cands) -> None:
    q = understand(text, Channel(channel))
    assert q.reason is not None and q.reason.value == reason, q
    assert q.fp32 is not None and q.fp32.hours == pytest.approx(hours), q
    reply = to_json(answer(text, Channel(channel)))
    assert reply["kind"] == "error" and reply["reason"] == "not_finite", reply


@pytest.mark.parametrize(
    "text",
    [
        "7B at $2/hr takes 3 days, how much would bf16 save?",
        "7B model on A100 at $2/hr takes 3 days, how much would bf16 save?",
        "a 7b llama at 2 usd/hour takes 3 days in fp32; bf16 savings?",
        "نموذج 7B بسعر ٢ دولار بالساعة ياخذ ٣ أيام، كم بيوفر bf16؟",
        "موديل 7B على A100 بـ ٢ دولار في الساعة وياخد ٣ أيام، قد ايه هيوفر الـ bf16؟",
    ],
)
def test_time_and_cost_question_naming_a_size(text: str) -> None:
    """A time and an hourly price make an estimate with its cost; the size is the model's."""
    q = understand(text, Channel.DM)
    assert q.intent == Intent.ESTIMATE, q
    assert q.fp32 is not None and q.fp32.hours == pytest.approx(72), q
    assert q.price is not None and q.price.amount == 2, q
    assert q.params == pytest.approx(7e9), q
    reply = to_json(answer(text, Channel.DM))
    assert reply["kind"] in ("estimate", "range", "preset") and reply["cost"], reply


_NUMBERS = st.integers(min_value=1, max_value=999)
_JOINERS = st.sampled_from(["or", "ولا", "والا", "أو", "او"])


@settings(max_examples=60, deadline=None)
@given(a=_NUMBERS, b=_NUMBERS, joiner=_JOINERS)
def test_two_alternatives_always_ask_which(a: int, b: int, joiner: str) -> None:
    """Any two different times joined as alternatives are both offered, never the first."""
    if a == b:
        return
    q = understand(f"training takes {a} {joiner} {b} hours", Channel.DM)
    assert q.reason is not None and q.reason.value == AMB, q
    assert q.candidates == [str(a), str(b)], q


_KEYS = st.sampled_from(["train_time", "fp32_time", "training_time", "run_time", "train_hours"])
_OTHER = st.sampled_from(["batch_size: 64", "num_gpus: 4", "model: bert", "lr: 3e-4", "seed: 1"])


@settings(max_examples=60, deadline=None)
@given(
    key=_KEYS, hours=st.integers(min_value=1, max_value=500), others=st.lists(_OTHER, max_size=3)
)
def test_a_time_key_in_a_config_block_is_the_fp32_time(key, hours, others) -> None:
    """Rule ``config_key``: whatever other keys stand around it, the time key's value is
    the FP32 time (a bare number under an hours key too)."""
    value = f"{hours}" if key.endswith("hours") else f"{hours}h"
    lines = [*others, f"{key}: {value}"]
    q = understand("```\n" + "\n".join(lines) + "\n```", Channel.DM)
    assert q.fp32 is not None and q.fp32.hours == pytest.approx(hours), (lines, q)


@pytest.mark.parametrize(
    "text", ["ResNet-50 batch -1 0 GPUs 1", "batch 0, 10h 2x", "batch -64 36h"]
)
def test_a_batch_below_one_is_no_batch(text: str) -> None:
    """Rule ``batch_with_precision`` takes only a batch of at least one (a negative one
    once reached the advice's logarithm and raised)."""
    q = understand(text, Channel.COMMAND)
    assert q.batch_fp32 in (None,) or q.batch_fp32 >= 1, q
    assert q.batch_amp in (None,) or q.batch_amp >= 1, q
    assert to_json(answer(text, Channel.COMMAND))["text"].strip()
