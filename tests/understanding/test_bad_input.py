"""Bad input never raises, is capped, and costs time linear in its length."""

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.models import Channel, Intent, Lang, Query
from bot.understanding import understand
from bot.understanding.parse import MAX_CHARS, _Reading
from bot.understanding.text.normalise import normalise
from bot.understanding.text.tokens import tokenize
from bot.understanding.values.numbers import merge_number_words

# Everything Python strings can hold, lone surrogates and control characters included.
any_text = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=300)
# Text built from the pieces the grammar reacts to, so the grammar paths are exercised.
pieces = st.sampled_from(
    [
        "100",
        "2",
        "-3",
        "1,200",
        "١٫٥",
        "h",
        "hours",
        "ساعة",
        "يومين",
        "ratio",
        "النسبة",
        "x",
        "×",
        "%",
        "faster",
        "أسرع",
        "نص",
        "and",
        "و",
        "a",
        "day",
        "or",
        "أو",
        "<@U1>",
        "&amp;",
        "<",
        ">",
        "*",
        "`",
        ":",
        "=",
        "fp32",
        "V100",
        "resnet",
        "50",
        "nan",
        "inf",
        "ما",
        "لا",
        "نهاية",
        "memory",
        "7B",
        "$",
        "ريال",
        "lang",
        "ar",
        "\n",
        "\u200f",
        "\ud800",
        "\x00",
        "ـ",
        ".",
    ]
)
grammar_text = st.lists(pieces, max_size=40).map(" ".join)
channels = st.sampled_from(list(Channel))


@settings(max_examples=300, deadline=None)
@given(text=any_text, channel=channels)
def test_never_raises_on_arbitrary_text(text: str, channel: Channel) -> None:
    assert isinstance(understand(text, channel), Query)


@settings(max_examples=500, deadline=None)
@given(text=grammar_text, channel=channels)
def test_never_raises_on_grammar_soup(text: str, channel: Channel) -> None:
    q = understand(text, channel)
    assert q.reason is not None or q.intent != Intent.ESTIMATE or q.fp32 is not None


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(any_text, grammar_text))
def test_normalisation_is_idempotent(text: str) -> None:
    once = normalise(text)
    assert normalise(once) == once


def test_input_over_the_cap_is_refused_before_any_work() -> None:
    q = understand("١" * (MAX_CHARS + 1), Channel.COMMAND, preferred_lang=Lang.AR)
    assert q.reason == "too_long" and q.fp32 is None
    assert understand("x" * MAX_CHARS, Channel.DM).reason != "too_long"


def _pipeline(text: str) -> Query:
    """The whole reading without the cap, to show the work itself is linear."""
    tokens = merge_number_words(tokenize(normalise(text)))
    return _Reading(tokens, Channel.DM, None).query()


# Inputs that stress one grammar path each, built to any length.
_STRESS = {
    "digits": lambda n: "9" * n,
    "arabic_hours": lambda n: "١٢٣ ساعة " * (n // 10),
    "arabic_words": lambda n: "التدريب يستغرق وقتا طويلا " * (n // 25),
    "angle_brackets": lambda n: "<" * (n // 2) + "@U1" + ">" * (n // 2),
    "broken_mentions": lambda n: "<@U1|" * (n // 5),
    "colons": lambda n: ":a" * (n // 2),
    "comma_groups": lambda n: "1," * (n // 2),
    "dashes": lambda n: "- " * (n // 2),
    "number_words": lambda n: "and a half " * (n // 11),
    "many_candidates": lambda n: "".join(f"{i}h " for i in range(n // 7)),
    "many_ratios": lambda n: "".join(f"ratio {i} " for i in range(n // 10)),
    # Issue 21's paths: alternatives with softeners, `key: value` lines and long
    # underscore runs (rule config_key), dialect teens and halving verbs.
    "alternatives": lambda n: "40 ساعة ولا يمكن 50 or maybe " * (n // 30),
    "config_keys": lambda n: "train_time_of_run: 36h\n" * (n // 23),
    "underscore_run": lambda n: "a_" * (n // 2) + ": 1",
    "dialect_values": lambda n: "تلتاشر ساعة والـ amp ينص الوقت " * (n // 32),
}


def _best_of_five(text: str) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        _pipeline(text)
        best = min(best, time.perf_counter() - start)
    return best


@pytest.mark.parametrize("name", sorted(_STRESS))
def test_reading_time_grows_linearly_with_input(name: str) -> None:
    """8x the text costs about 8x the time (quadratic would be 64x).

    Both sizes run in this process, back to back, so a slow or busy machine
    slows both alike; absolute times are printed by bench/core_throughput.py.
    """
    build = _STRESS[name]
    small, large = build(12_500), build(100_000)
    growth = _best_of_five(large) / max(_best_of_five(small), 1e-4)
    assert growth < 32, f"{name}: 8x input took {growth:.1f}x time"


def test_a_100_kb_message_is_answered_well_under_a_second() -> None:
    """The cap refuses it before any reading, so the margin is a thousandfold."""
    text = "١٢٣ ساعة " * 10_000
    start = time.perf_counter()
    query = understand(text, Channel.DM)
    assert time.perf_counter() - start < 0.5
    assert query.reason == "too_long"


@pytest.mark.parametrize("name", sorted(_STRESS))
def test_stress_inputs_are_read_without_error(name: str) -> None:
    text = _STRESS[name](100_000)
    assert understand(text, Channel.DM).reason == "too_long"
    assert understand(text[:MAX_CHARS], Channel.DM).reason != "too_long"
    assert isinstance(_pipeline(text), Query)


@pytest.mark.parametrize("text", ["¼¼", ".25.25 hours", "½½½ ratio", "-.5.5"])
def test_runs_of_fractions_and_dots_never_raise(text: str) -> None:
    understand(text, Channel.DM)


@pytest.mark.parametrize("count", ["inf", "nan", "1e400"])
@pytest.mark.parametrize(
    "template", ["{} GPUs 10 hours", "2 nodes x {} GPUs 10 hours", "batch {} 10 hours"]
)
def test_counts_that_are_not_finite_are_not_read_as_counts(template: str, count: str) -> None:
    query = understand(template.format(count), Channel.DM)
    assert query.num_gpus in (None, 2)
    assert query.batch_fp32 is None and query.batch_amp is None


@pytest.mark.parametrize(
    "text",
    [
        "memory 1e40",
        "memory 1e308 params adam on A100",
        "10 hours ratio 2 at $1e30 per GPU hour",
        "1e308 GPUs ResNet-50 2 days",
        "ذاكرة 1e40 معامل",
    ],
)
def test_absurd_setup_numbers_are_too_large_not_a_crash(text: str) -> None:
    from bot.conversation import answer, to_json

    got = to_json(answer(text, Channel.DM))
    assert (got["kind"], got["reason"]) == ("error", "too_large")
    assert "too large" in got["text"] or "كبير جدًا" in got["text"]


def test_real_setup_numbers_stay_readable() -> None:
    query = understand("memory 175B adam on 1024 GPUs", Channel.DM)
    assert query.reason is None and query.params == pytest.approx(175e9)
