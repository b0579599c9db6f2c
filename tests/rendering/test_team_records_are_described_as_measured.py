"""Team records say what was measured: names listed the reader's way, only names every
run had, and a team ratio below 1 warns of the slowdown like any predicted one."""

from __future__ import annotations

from types import SimpleNamespace

from bot.advice import advise
from bot.advice.notes import Note
from bot.models import Duration, Intent, Lang, Query, TimeUnit
from bot.rendering import render
from bot.rendering.numbers import FSI, PDI


def record(ratio: float, **setup) -> SimpleNamespace:
    fields = {"gpu": None, "model": None, "family": None, "num_gpus": None, "precision": None}
    return SimpleNamespace(**{**fields, **setup, "ratio": ratio})


def ask(hours: float, lang: Lang = Lang.EN, **fields) -> Query:
    fp32 = Duration(value=hours, unit=TimeUnit.HOURS, hours=hours)
    return Query(intent=Intent.ESTIMATE, lang=lang, fp32=fp32, **fields)


def plain(text: str) -> str:
    return text.replace(FSI, "").replace(PDI, "")


def team_line(query: Query, records: list, lang: Lang) -> str:
    reply = render(advise(query, records), lang)
    return plain(
        next(
            line
            for line in reply.text.splitlines()
            if "team measured" in line or "قاس فريقك" in line
        )
    )


def test_several_models_are_listed_with_the_locales_conjunction():
    records = [
        record(2.0, gpu="A100", model="BERT", family="language_model"),
        record(2.4, gpu="A100", model="GPT-2", family="language_model"),
    ]
    query = ask(36, gpu="A100", family="language_model")
    en = team_line(query, records, Lang.EN)
    assert "2 runs of BERT and GPT-2 on A100" in en and "BERT, GPT-2" not in en
    ar = team_line(query.model_copy(update={"lang": Lang.AR}), records, Lang.AR)
    assert "BERT وGPT-2" in ar and "BERT, GPT-2" not in ar


def test_a_gpu_is_named_only_when_every_run_had_it():
    records = [
        record(2.0, gpu="A100", model="BERT"),
        record(2.2, model="BERT"),
    ]
    line = team_line(ask(36, model="BERT"), records, Lang.EN)
    assert "2 runs of BERT" in line and "on A100" not in line


def test_a_model_is_named_only_when_every_run_had_it():
    records = [record(3.0, gpu="V100", model="ResNet-50"), record(3.4, gpu="V100")]
    line = team_line(ask(36, gpu="V100"), records, Lang.EN)
    assert "ResNet-50" not in line and "2 runs on V100" in line


def test_a_team_ratio_below_one_gets_the_slowdown_note_in_both_languages():
    records = [record(0.8, gpu="T4", model="ResNet-50")]
    query = ask(36, gpu="T4", model="ResNet-50")
    advice = advise(query, records)
    assert advice.basis == "team" and advice.ratio == 0.8
    assert Note.EXPECTED_SLOWDOWN in advice.notes
    assert "expected to be slower" in render(advice, Lang.EN).text
    assert "أبطأ" in render(advice, Lang.AR).text
