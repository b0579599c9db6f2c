"""Rule unlisted_card: a card of a GPU-only line that gpu_specs.csv lacks is still
read as a GPU, named as its vendor writes it, so the reply says it is unknown
(never the digits as a time, never "which GPU?")."""

from __future__ import annotations

import json

import pytest

from bot.conversation import answer, to_json
from bot.models import Channel
from bot.understanding.parse import understand


def parse_query(text: str):
    return understand(text, Channel.DM)


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("ResNet-50 on a Radeon 8060S, 100 hours in fp32", "Radeon 8060S"),
        ("100h fp32 on my RX 7900 XTX", "RX 7900 XTX"),
        ("bert on rtx 3050, 20h fp32", "RTX 3050"),
        ("GTX 980 Ti: 30 hours fp32", "GTX 980 Ti"),
        ("RTX 6000 Ada, 30 hours fp32", "RTX 6000 Ada"),
        ("على RTX 3050 التدريب ياخذ 20 ساعة fp32", "RTX 3050"),
        # A line and a model code: Pascal, Maxwell and Kepler cards, AMD's accelerators.
        ("yolov5 on a Quadro P6000, 20 hours fp32", "Quadro P6000"),
        ("100h fp32 on a Tesla M60, amp?", "Tesla M60"),
        ("bert on instinct mi100 30h fp32", "Instinct MI100"),
        ("على كرت Quadro P6000 التدريب ياخذ 20 ساعة fp32", "Quadro P6000"),
    ],
)
def test_an_unlisted_card_is_read_as_a_gpu_and_its_number_is_no_value(text, gpu):
    query = parse_query(text)
    assert query.gpu == gpu
    assert query.fp32.hours in (100, 20, 30)


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("bert on rtx 4090, 20h fp32", "RTX 4090"),
        ("tesla t4 10h fp32", "T4"),
        ("tesla v100s 10h fp32", "V100"),  # the code alone names a listed card
        ("tesla p100 10h fp32", "P100"),
        ("quadro rtx 8000 10h fp32", "RTX 8000"),
    ],
)
def test_a_listed_card_keeps_its_canonical_name(text, gpu):
    assert parse_query(text).gpu == gpu


def test_a_line_word_without_a_model_code_names_no_card():
    query = parse_query("tesla 10h fp32, and with amp?")
    assert query.gpu is None
    assert query.fp32.hours == 10


def test_the_reply_to_an_unlisted_card_says_it_is_unknown():
    got = to_json(answer("100h fp32 on my RX 7900 XTX", Channel.DM))
    assert "RX 7900 XTX is not in my GPU table" in got["text"]


def test_the_reply_to_a_card_name_the_reader_does_not_know_says_it_is_unknown():
    got = to_json(answer("BERT on a Frobnitz 9000 GPU, 10 hours in fp32", Channel.DM))
    assert "Frobnitz 9000 is not in my GPU table" in json.dumps(got, ensure_ascii=False)
