"""`lang fr`, `lang`, `delete abc`: a short line saying what to type, never the usage list."""

from __future__ import annotations

import pytest

from bot.advice import advise
from bot.models import Channel, Intent, Kind, Lang, Query, Reason
from bot.rendering import render
from bot.rendering.numbers import FSI, PDI
from bot.understanding import understand

EXPECTED = {
    (Reason.UNKNOWN_LANGUAGE, Lang.EN): "I answer in Arabic or English: `lang ar` or `lang en`.",
    (Reason.UNKNOWN_LANGUAGE, Lang.AR): "أجيب بالعربية أو بالإنجليزية: `lang ar` أو `lang en`.",
    (Reason.NO_RECORD_ID, Lang.EN): "`delete` needs a record number, e.g. `delete 12`.",
    (Reason.NO_RECORD_ID, Lang.AR): "يحتاج الحذف إلى رقم القياس، مثل `delete 12` أو `احذف 12`.",
}
INTENT = {Reason.UNKNOWN_LANGUAGE: Intent.SET_LANG, Reason.NO_RECORD_ID: Intent.DELETE_RECORD}


@pytest.mark.parametrize(("reason", "lang"), list(EXPECTED))
def test_each_near_miss_is_worded_in_both_languages(reason, lang):
    query = Query(intent=INTENT[reason], lang=lang, reason=reason, candidates=["fr"])
    reply = render(advise(query), lang)
    assert reply.kind is Kind.ERROR
    assert reply.summary.replace(FSI, "").replace(PDI, "") == EXPECTED[reason, lang]
    assert len(reply.text.splitlines()) <= 2  # not the 13-line usage list


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("lang fr", Reason.UNKNOWN_LANGUAGE),
        ("lang", Reason.UNKNOWN_LANGUAGE),
        ("delete abc", Reason.NO_RECORD_ID),
    ],
)
def test_the_commands_as_typed_get_that_line(text, reason):
    query = understand(text, Channel.COMMAND)
    assert query.reason is reason
    reply = render(advise(query), query.lang)
    assert reply.summary.replace(FSI, "").replace(PDI, "") == EXPECTED[reason, query.lang]
