"""Records commands are never read as estimates, even by callers that skip the records service."""

import pytest

from bot.advice import advise
from bot.conversation import answer
from bot.models import Channel, Intent, Kind, Lang
from bot.understanding import understand


@pytest.mark.parametrize(
    ("text", "intent", "lang"),
    [
        ("record A100 BERT fp32 420ms amp 190ms", Intent.RECORD, Lang.EN),
        ("record A100", Intent.RECORD, Lang.EN),  # refused by the service, still no estimate
        ("سجل A100 BERT fp32 ٤٢٠ مللي ثانية amp ١٩٠ مللي ثانية", Intent.RECORD, Lang.AR),
        ("history 2", Intent.HISTORY, Lang.EN),
        ("سجل القياسات", Intent.HISTORY, Lang.AR),
        ("delete 12", Intent.DELETE_RECORD, Lang.EN),
        ("احذف ١٢", Intent.DELETE_RECORD, Lang.AR),
    ],
)
def test_records_commands_get_their_intent(text: str, intent: Intent, lang: Lang) -> None:
    query = understand(text, Channel.COMMAND)
    assert query.intent is intent and query.lang is lang
    assert query.fp32 is None and query.ratio is None


@pytest.mark.parametrize("text", ["record A100 BERT fp32 420ms amp 190ms", "احذف ١٢"])
def test_the_estimator_points_to_the_command_instead_of_numbers(text: str) -> None:
    turn = answer(text)
    assert turn.advice.kind is Kind.HELP and turn.advice.mp_hours is None
    assert "mpbot console" in turn.reply.text
    assert "18" not in turn.reply.text


def test_a_question_about_logging_is_still_a_question() -> None:
    assert understand("log 100 hours ratio 2", Channel.DM).intent is Intent.ESTIMATE
    assert advise(understand("100h ratio 2", Channel.DM)).kind is Kind.ESTIMATE
