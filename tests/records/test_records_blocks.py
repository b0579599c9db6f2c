"""Slack pieces for records that need no server: history blocks, button values, field errors."""

from bot.models import Lang
from bot.records import RecordReason
from bot.records.models import RecordPage
from bot.slack.records import (
    ACTION_DELETE,
    ACTION_NEWER,
    ACTION_OLDER,
    FP32,
    GPU,
    MIXED,
    RATIO,
    _encode,
    decode_value,
    field_errors,
    history_message,
    record_modal,
)

NO_FIELDS = {"gpu": "", "model": "", "fp32": "", "mixed": "", "ratio": ""}


def test_a_full_page_has_one_delete_button_per_record_and_both_paging_buttons(make_record):
    records = [make_record(gpu="T4", ratio=1.5) for _ in range(10)]
    message = history_message(RecordPage(records=records, page=2, pages=3, total=30), Lang.EN)
    accessories = [b["accessory"] for b in message["blocks"] if "accessory" in b]
    assert [a["action_id"] for a in accessories] == [ACTION_DELETE] * 10
    assert {decode_value(a["value"]).record_id for a in accessories} == {r.id for r in records}
    paging = message["blocks"][-1]["elements"]
    assert [(b["action_id"], decode_value(b["value"]).page) for b in paging] == [
        (ACTION_NEWER, 1),
        (ACTION_OLDER, 3),
    ]
    assert len(message["blocks"]) <= 50


def test_button_values_round_trip_and_forged_ones_fall_back():
    assert decode_value(_encode(Lang.AR, 4, 12)) == decode_value('{"l":"ar","p":4,"r":12}')
    assert decode_value(_encode(Lang.AR, 4, 12)).record_id == 12
    for forged in (None, "", "not json", '{"l":"fr","p":1}', '{"l":"en","p":"x"}', "[1]"):
        value = decode_value(forged)
        assert (value.lang, value.page, value.record_id) == (Lang.EN, 1, None)


def test_field_errors_go_under_the_field_to_fix():
    errors = field_errors(
        (RecordReason.MISSING_SETUP, RecordReason.MISSING_PAIR),
        {**NO_FIELDS, "fp32": "420ms"},
        Lang.EN,
    )
    assert set(errors) == {GPU, MIXED}
    assert "`" not in errors[MIXED]
    ratio = field_errors((RecordReason.IMPLAUSIBLE,), {**NO_FIELDS, "ratio": "30"}, Lang.AR)
    assert set(ratio) == {RATIO}
    assert set(
        field_errors(
            (RecordReason.MISSING_UNIT,), {**NO_FIELDS, "fp32": "4", "mixed": "2"}, Lang.EN
        )
    ) == {FP32}


def test_the_modal_is_labelled_in_the_users_language():
    modal = record_modal(Lang.AR)
    assert modal["private_metadata"] == "ar"
    assert modal["title"]["text"] == "تسجيل نتيجة"
    assert all(block["optional"] for block in modal["blocks"])
