"""Estimates for a matching setup use the team's records first (core plumbing)."""

from bot import conversation
from bot.advice import advise
from bot.models import Channel, Duration, Intent, Kind, Lang, Query, TimeUnit


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


def test_answer_passes_only_matching_records(make_record, monkeypatch):
    monkeypatch.setattr(conversation, "understand", lambda *_a, **_k: bert_on_a100())
    v100 = [make_record(gpu="V100", model="BERT", ratio=3.5)]
    assert conversation.answer("…", Channel.DM, team_records=v100).advice.basis != "team"
    a100 = [make_record(gpu="A100", model="BERT", ratio=1.8), *v100]
    turn = conversation.answer("…", Channel.DM, team_records=a100)
    assert turn.advice.basis == "team" and turn.advice.ratio == 1.8
