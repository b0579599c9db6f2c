"""Tokenizer and number words: what becomes a number, and what never does."""

import math

import pytest

from bot.understanding.text.normalise import normalise
from bot.understanding.text.tokens import NUM, WORD, tokenize
from bot.understanding.values.numbers import merge_number_words


def nums(text: str) -> list[tuple[float, str]]:
    tokens = merge_number_words(tokenize(normalise(text)))
    return [(t.value, t.suffix) for t in tokens if t.kind == NUM]


def test_digits_inside_names_are_not_numbers() -> None:
    assert nums("FP32 BF16 V100 A100-80GB ResNet-50 GPT-2 SSD300 apex O2") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1h30m", [(1.0, "h"), (30.0, "m")]),
        ("2.1-fold", [(2.1, "-fold")]),
        ("21-hour", [(21.0, "-hour")]),
        ("1,200 hours", [(1200.0, "")]),
        ("12,34", [(12.34, "")]),  # a decimal comma: one comma, one or two digits
        ("10,11,12", [(10.0, ""), (11.0, ""), (12.0, "")]),  # a list, not decimals
        ("-5h", [(-5.0, "h")]),
        ("x2.5", [(2.5, "")]),
        ("٢×", [(2.0, "x")]),
        ("1e308", [(1e308, "")]),
        ("8xA100", [(8.0, "x")]),
        (".5 h", [(0.5, "")]),
    ],
)
def test_number_tokens(text: str, expected: list) -> None:
    assert nums(text) == expected


def test_a_hyphen_after_a_word_is_not_a_minus() -> None:
    assert nums("run-5") == [] and nums("ratio -2") == [(-2.0, "")]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("two", 2),
        ("twelve", 12),
        ("a hundred", 100),
        ("one hundred twenty four", 124),
        ("twenty-four", 24),
        ("صفر", 0),
        ("مئة", 100),
        ("مائة", 100),
        ("مية", 100),
        ("خمسة وعشرين", 25),
        ("مية وعشرين", 120),
        ("ثلاث مئة", 300),
        ("سالب ٣", -3),
        ("minus 2", -2),
    ],
)
def test_number_words(text: str, value: float) -> None:
    assert nums(text) == [(float(value), "")]


@pytest.mark.parametrize("text", ["inf", "infinity", "∞", "ما لا نهاية", "لا نهاية"])
def test_infinity_words(text: str) -> None:
    assert nums(text)[0][0] == math.inf


def test_nan_word() -> None:
    assert math.isnan(nums("NaN")[0][0])


def test_arabic_clitics_are_split_from_digits_and_latin() -> None:
    tokens = tokenize(normalise("و٦ بـFP32 بـ٤٠٪"))
    assert [(t.kind, t.text) for t in tokens] == [
        (WORD, "و"),
        (NUM, "6"),
        (WORD, "ب"),
        (WORD, "fp32"),
        (WORD, "ب"),
        (NUM, "40"),
        ("sym", "%"),
    ]
