"""Estimates for a matching setup use the team's records first (core plumbing)."""

from bot import conversation
from bot.advice import advise
from bot.models import Channel, Duration, Intent, Kind, Lang, Query, TimeUnit
from bot.rendering import render


def bert_on_a100(**values) -> Query:
    return Query(
        intent=Intent.ESTIMATE,
        lang=Lang.EN,
        fp32=Duration(value=100, unit=TimeUnit.HOURS, hours=100),
        gpu="A100",
        model="BERT",
        **values,
    )


def test_advise_puts_team_records_first(make_record):
    records = [make_record(gpu="A100", model="BERT", ratio=r) for r in (2.1, 2.2, 2.3)]
    advice = advise(bert_on_a100(), records)
    assert advice.kind is Kind.PRESET and advice.basis == "team"
    assert 2.1 <= advice.ratio <= 2.3
    assert advice.mp_hours == 100 / advice.ratio
    assert advise(bert_on_a100()).basis != "team"


def test_an_answer_uses_only_the_records_that_apply(make_record):
    text = "BERT on A100, 100 hours in fp32"
    v100 = [make_record(gpu="V100", model="BERT", ratio=3.5)]
    assert conversation.answer(text, Channel.DM, team_records=v100).advice.basis != "team"
    a100 = [make_record(gpu="A100", model="BERT", ratio=1.8), *v100]
    turn = conversation.answer(text, Channel.DM, team_records=a100)
    assert turn.advice.basis == "team" and turn.advice.ratio == 1.8


def test_records_of_another_model_on_the_named_gpu_say_which_model(make_record):
    """A V100-only question answered from ResNet-50 runs must not pass them off as its own."""
    records = [make_record(gpu="V100", model="ResNet-50", ratio=r) for r in (3.2, 3.3)]
    query = Query(
        intent=Intent.ESTIMATE,
        lang=Lang.EN,
        fp32=Duration(value=20, unit=TimeUnit.HOURS, hours=20),
        gpu="V100",
    )
    advice = advise(query, records)
    assert advice.basis == "team"
    english = render(advice, Lang.EN).notes[0]
    assert "your team measured 3.25× in 2 runs of ResNet-50 on V100" in english
    arabic = render(advice, Lang.AR).notes[0]
    assert "في تجربتين لـ \u2068ResNet-50\u2069 على \u2068V100\u2069" in arabic


def test_records_without_a_model_name_their_gpu(make_record):
    records = [make_record(gpu="A100", model=None, family="language_model", ratio=2.0)]
    query = bert_on_a100().model_copy(update={"model": None, "family": "language_model"})
    advice = advise(query, records)
    assert advice.basis == "team"
    assert "your team measured 2× in 1 run on A100 (" in render(advice, Lang.EN).notes[0]
