"""The whole pipeline (understand -> advise -> render) never raises, whatever the numbers.

Random text rarely reaches the arithmetic; these messages are built from the
words that route numbers into it (memory, GPUs, prices, ratios, batches) with
numbers from tiny to absurd, in both languages.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.conversation import answer, to_json
from bot.models import Channel, Lang

NUMBERS = st.one_of(
    st.integers(min_value=-(10**6), max_value=10**12).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(lambda x: f"{x:g}"),
    st.integers(min_value=-400, max_value=400).map(lambda e: f"1e{e}"),
)
WORDS = st.sampled_from(
    [
        "memory",
        "params",
        "adam",
        "sgd",
        "on",
        "A100",
        "80GB",
        "GPUs",
        "nodes",
        "batch",
        "hours",
        "h",
        "days",
        "minutes",
        "ratio",
        "x",
        "%",
        "faster",
        "at",
        "$",
        "per GPU hour",
        "USD",
        "SAR",
        "ساعة",
        "أيام",
        "ذاكرة",
        "بطاقات",
        "بسعر",
        "ريال",
        "النسبة",
        "أسرع بنسبة",
        "ResNet-50",
        "BERT",
        "V100",
        "fp32",
        "bf16",
        "TF32",
        "or",
        "record",
        "history",
    ]
)
MESSAGES = st.lists(st.one_of(NUMBERS, WORDS), min_size=1, max_size=12).map(" ".join)


@settings(max_examples=400, deadline=None)
@given(text=MESSAGES, channel=st.sampled_from(list(Channel)), lang=st.sampled_from(list(Lang)))
def test_any_mix_of_words_and_numbers_gets_an_answer(text: str, channel: Channel, lang: Lang):
    got = to_json(answer(text, channel, preferred_lang=lang))
    assert got["text"].strip()
    if got["kind"] == "error":
        assert got["reason"]
