"""Buttons and the App Home form pass a structured query, not an English sentence."""

from __future__ import annotations

import json

import pytest

from bot.conversation import answer, query_from_fields
from bot.models import Channel, Lang, TimeUnit
from bot.slack.asks import MAX_VALUE_CHARS, Ask
from bot.slack.views import ModalInput


@pytest.mark.parametrize(
    ("text", "lang"),
    [("ResNet-50 on V100, 30 hours", Lang.EN), ("ResNet-50 على V100، ٣٠ ساعة", Lang.AR)],
)
def test_a_ratio_button_carries_the_query_and_keeps_the_setup(text, lang):
    turn = answer(text, Channel.DM)
    button = Ask(text, Channel.DM, lang).with_ratio(2.5, turn)
    value = button.encode()
    assert value is not None and len(value) <= MAX_VALUE_CHARS
    assert json.loads(value)["q"]["ratio"] == 2.5 and json.loads(value)["t"] == ""
    again = Ask.decode(value).answer()
    assert again.advice.ratio == 2.5 and again.advice.fp32_hours == 30
    assert (again.query.gpu, again.query.model) == ("V100", "ResNet-50")
    assert again.reply.lang == lang
    assert again.query.read_by["ratio"][0] == "button"


def test_a_ratio_button_below_one_is_still_refused():
    turn = answer("30h", Channel.DM)
    again = Ask("30h", Channel.DM).with_ratio(0.5, turn).answer()
    assert again.advice.reason is not None and again.advice.reason.value == "ratio_below_one"


def test_a_foreign_structured_value_is_refused():
    forged = json.dumps({"t": "", "c": "dm", "l": None, "h": None, "f": True, "q": {"x": 1}})
    assert Ask.decode(forged) is None


def test_the_form_is_a_structured_query_read_only_in_its_setup_field():
    fields = ModalInput(Lang.AR, fp32="٣٦", unit="hours", ratio="2.5x", setup="BERT on A100")
    query = fields.as_query()
    assert query.fp32.hours == 36 and query.ratio == 2.5
    assert (query.gpu, query.model) == ("A100", "BERT")
    assert query.read_by["fp32"][0] == "form_field" and query.lang is Lang.AR
    turn = Ask.structured(query).answer()
    assert turn.reply.lang is Lang.AR and turn.advice.ratio == 2.5


def test_form_fields_check_like_a_typed_question():
    q = query_from_fields(Lang.EN, 10, TimeUnit.DAYS, 0.8)
    assert q.fp32.hours == 240 and q.reason.value == "ratio_below_one"
