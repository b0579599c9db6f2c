"""render(): every kind and reason in both languages, plurals, rounding, bidi, escaping."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.advice import advise
from bot.advice.notes import Note
from bot.advice.prediction import Factor
from bot.conversation import answer
from bot.models import (
    Advice,
    AdviceFactor,
    Channel,
    Duration,
    Intent,
    Kind,
    Lang,
    Query,
    Reason,
    TimeUnit,
)
from bot.rendering import render
from bot.rendering.i18n import translations
from bot.rendering.numbers import FSI, PDI, NumberFormat, duration, isolate_latin
from bot.rendering.reply import escape

ISOLATED = re.compile(f"{FSI}[^{PDI}]*{PDI}")
URL = re.compile(r"https?://\S+")


def ask(hours: float | None = 100.0, **fields) -> Query:
    fp32 = None if hours is None else Duration(value=hours, unit=TimeUnit.HOURS, hours=hours)
    return Query(intent=fields.pop("intent", Intent.ESTIMATE), lang=Lang.EN, fp32=fp32, **fields)


QUERIES = {
    "estimate": ask(100, ratio=2),
    "estimate_high": ask(100, ratio=3.2, model="ResNet-50"),
    "range": ask(36),
    "preset": ask(100, gpu="V100", model="ResNet-50"),
    "preset_family": ask(10, family="translation"),
    "help": Query(intent=Intent.HELP, lang=Lang.EN),
    "lang_ar": Query(intent=Intent.SET_LANG, lang=Lang.AR, lang_choice=Lang.AR),
    "lang_en": Query(intent=Intent.SET_LANG, lang=Lang.EN, lang_choice=Lang.EN),
    **{
        f"error_{r.value}": ask(None, reason=r, candidates=["100", "200"], ratio=0.8)
        for r in Reason
    },
}


def hours_text(hours: float, lang: Lang, digits: str = "latn") -> str:
    catalog = translations(lang)
    return duration(hours, NumberFormat(lang, digits), catalog)


def arabic_leftovers(text: str) -> str:
    """Latin letters left once isolated runs and URLs are removed: English that slipped in."""
    return "".join(re.findall(r"[A-Za-z]+", URL.sub("", ISOLATED.sub("", text))))


@pytest.mark.parametrize("lang", list(Lang))
@pytest.mark.parametrize("name", list(QUERIES))
def test_every_kind_renders_short_and_complete(name, lang):
    advice = advise(QUERIES[name])
    reply = render(advice, lang)
    assert reply.kind is advice.kind and reply.lang is lang
    assert reply.summary and "\n" not in reply.summary
    assert len(reply.notes) <= 1 and all("\n" not in n for n in reply.notes)
    assert "*" not in reply.text
    assert "\n\n" not in reply.text  # the console separates answers with a blank line
    assert reply.text.splitlines()[0] == reply.summary.replace("*", "")


@pytest.mark.parametrize("name", list(QUERIES))
def test_arabic_replies_have_no_english_outside_isolates(name):
    reply = render(advise(QUERIES[name]), Lang.AR)
    assert arabic_leftovers(reply.text) == ""
    assert re.search("[\u0600-\u06ff]", reply.summary)


@pytest.mark.parametrize("name", list(QUERIES))
def test_english_replies_have_no_arabic_except_examples(name):
    reply = render(advise(QUERIES[name]), Lang.EN)
    outside_code = re.sub(r"`[^`]*`", "", reply.text)
    assert not re.search("[\u0600-\u06ff]", outside_code)
    assert FSI not in reply.text


def test_estimate_summary_english():
    reply = render(advise(ask(100, ratio=2)), Lang.EN)
    assert reply.summary == (
        "*100 hours* in FP32 → about *50 hours (about 2 days)* with mixed precision "
        "(ratio 2, saves 50 hours, 50%)"
    )


def test_estimate_summary_arabic_uses_duals_and_isolates():
    reply = render(advise(ask(100, ratio=2)), Lang.AR)
    assert f"{FSI}FP32{PDI}" in reply.summary
    assert "المختلطة: *\u206850\u2069 ساعةً (أي يومان)* تقريبًا" in reply.summary
    assert f"{FSI}50%{PDI}" in reply.summary


def test_arabic_indic_digits_on_request():
    reply = render(advise(ask(100, ratio=2.5)), Lang.AR, digits="arab")
    assert "٤٠ ساعة" in reply.summary and "٢٫٥" in reply.summary and "٦٠٪" in reply.summary
    # Digits inside names stay as typed, isolated; bare numbers are Arabic-Indic.
    assert f"{FSI}FP32{PDI}" in reply.summary
    assert not re.search(r"[0-9]", ISOLATED.sub("", reply.text))
    # English ignores the option.
    assert "40 hours" in render(advise(ask(100, ratio=2.5)), Lang.EN, digits="arab").summary


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (0, "0 ساعة"),
        (1, "ساعة واحدة"),
        (2, "ساعتان"),
        (3, "3 ساعات"),
        (11, "11 ساعةً"),
        (100, "100 ساعة"),
    ],
)
def test_arabic_plural_forms_for_hours(n, expected):
    assert translations(Lang.AR).ngettext("%(n)s hour", "%(n)s hours", n) % {"n": n} == expected


@pytest.mark.parametrize(
    ("hours", "en", "ar"),
    [
        (0, "0 hours", "0 ساعة"),
        (1, "1 hour", "ساعة واحدة"),
        (2, "2 hours", "ساعتان"),
        (3, "3 hours", "3 ساعات"),
        (11, "11 hours", "11 ساعةً"),
        (50, "2 days and 2 hours", "يومان وساعتان"),
        (49.99999, "2 days and 2 hours", "يومان وساعتان"),
        (100 / 3, "33 hours", "33 ساعةً"),
        (1.5, "1 hour and 30 minutes", "ساعة و30 دقيقةً"),
        (1.2345, "1 hour and 15 minutes", "ساعة و15 دقيقةً"),
        (25, "25 hours", "25 ساعةً"),
        (49, "2 days and 1 hour", "يومان وساعة"),
        (24 * 3 + 1, "3 days and 1 hour", "3 أيام وساعة"),
        (0.5, "30 minutes", "30 دقيقةً"),
        (2 / 60, "2 minutes", "دقيقتان"),
        (0.001, "4 seconds", "4 ثوانٍ"),
        (1 / 3600, "1 second", "ثانية واحدة"),
        (2 / 3600, "2 seconds", "ثانيتان"),
        (30 / 3600, "30 seconds", "30 ثانيةً"),
        (1e-6, "under 1 second", "أقل من ثانية"),  # not "1 second": it is 0.0036 s
        (72, "3 days", "3 أيام"),
        (24 * 11 + 3, "11 days", "11 يومًا"),
        (876_000, "36,500 days", "36,500 يوم"),
    ],
)
def test_durations_round_like_people_say_them(hours, en, ar):
    assert hours_text(hours, Lang.EN) == en
    assert hours_text(hours, Lang.AR) == ar


def test_numbers_round_sensibly():
    fmt = NumberFormat(Lang.EN)
    assert [fmt.number(v) for v in (49.99999, 2.0, 1.23456, 12.345, 1234.5)] == [
        "50",
        "2",
        "1.23",
        "12.3",
        "1,234",
    ]
    assert NumberFormat(Lang.AR, "arab").number(1234.5) == "١٬٢٣٤"
    assert NumberFormat(Lang.AR, "arab").number(2.5) == "٢٫٥"


def test_isolates_wrap_latin_runs_but_not_links():
    line = isolate_latin("على Mask R-CNN مع BF16 انظر https://example.org/a.b و<https://x.y|رابط>")
    assert f"{FSI}Mask R-CNN{PDI}" in line and f"{FSI}BF16{PDI}" in line
    assert "https://example.org/a.b" in line and f"{FSI}https" not in line
    assert "<https://x.y|رابط>" in line
    assert isolate_latin("مثل GradScaler.") == f"مثل {FSI}GradScaler{PDI}."


@pytest.mark.parametrize(
    ("line", "runs"),
    [
        ("النسخة الرئيسية FP32 0 + حالات", ["FP32", "0"]),
        ("بدقة BF16 2 بايت لكل معلمة.", ["BF16", "2"]),
        ("على A100 80 GB اليوم", ["A100", "80 GB"]),
        ("بطاقة H100 4 فقط", ["H100", "4"]),
    ],
)
def test_a_number_after_a_term_that_ends_in_a_digit_is_its_own_run(line, runs):
    """ "FP32 0" in one isolate reads as a name; the term and the number are isolated apart."""
    isolated = isolate_latin(line)
    assert re.findall(f"{FSI}([^{PDI}]*){PDI}", isolated) == runs
    arab = re.findall(f"{FSI}([^{PDI}]*){PDI}", isolate_latin(line, arab_digits=True))
    assert arab == [run for run in runs if re.search("[A-Za-z]", run)]  # bare numbers as ٠–٩


@pytest.mark.parametrize(
    "line", ["على RTX 4090 بسعة", "مثل GTX 1080 Ti هنا", "جرّب `/mpestimate 100 2` الآن"]
)
def test_names_with_numbers_and_code_spans_stay_one_run(line):
    assert len(re.findall(FSI, isolate_latin(line))) == 1


def test_arabic_memory_bytes_line_isolates_each_term_and_number():
    reply = answer("الذاكرة لنموذج 7B مع adam على A100 80GB", Channel.DM).reply
    line = next(d for d in reply.details if "FP32" in d and "+" in d)
    runs = re.findall(f"{FSI}([^{PDI}]*){PDI}", line)
    assert "FP32" in runs and "0" in runs
    assert not any(re.search(r"[A-Za-z]\S*\d \d", run) for run in runs), runs


def test_echoed_candidates_are_escaped_in_mrkdwn_only():
    query = ask(None, reason=Reason.AMBIGUOUS, candidates=["<!channel>", "<@U123>", "a&b"])
    for lang in Lang:
        reply = render(advise(query), lang)
        assert "&lt;!channel&gt;" in reply.summary and "&lt;@U123&gt;" in reply.summary
        assert "a&amp;b" in reply.summary
        assert "<!channel>" not in reply.summary and "<@U123>" not in reply.summary
        assert "<!channel>" in reply.text  # plain text for the console is shown as written
    assert escape("<&>") == "&lt;&amp;&gt;"


def test_ambiguous_lists_the_numbers_and_asks():
    reply = render(advise(ask(None, reason=Reason.AMBIGUOUS, candidates=["100", "200"])), Lang.EN)
    assert "100 and 200" in reply.summary and "?" in reply.summary
    ar = render(advise(ask(None, reason=Reason.AMBIGUOUS, candidates=["100", "200"])), Lang.AR)
    assert "أيها تقصد؟" in ar.summary


def test_too_long_states_the_limit():
    assert "4,000 characters" in render(advise(ask(reason=Reason.TOO_LONG)), Lang.EN).summary


def test_slowdown_explains_causes():
    reply = render(advise(ask(reason=Reason.RATIO_BELOW_ONE, ratio=0.8)), Lang.EN)
    assert "0.8" in reply.summary and "slower" in reply.summary
    assert "Tensor Cores" in reply.notes[0] and "input-bound" in reply.notes[0]


def test_a_reported_slowdown_with_its_fp32_time_says_what_the_run_becomes():
    """A slowdown is refused as an estimate, but the user's own time is still answered,
    in their unit, with no usage hint (they wrote what they meant)."""
    en = answer("fp16 made it 40% slower, fp32 was 10h", Channel.DM).reply
    assert "0.71" in en.summary and "10 hours" in en.summary and "14 hours" in en.summary
    assert "/mpestimate 100 2" not in en.text
    ar = answer("التدريب ٣ أيام بالـfp32 والـamp أبطأ مرتين", Channel.DM).reply
    summary = re.sub("[\u2068\u2069]", "", ar.summary)  # the bidi isolates
    assert "أبطأ" in summary and "3 أيام" in summary and "6 أيام" in summary


@pytest.mark.parametrize("text", ["1 1e-29", "100 0.001", "876000h 0.04"])
def test_an_absurd_slowdown_is_refused_without_a_time(text):
    """Beyond 1/20 (the most a speed-up could be) a slowdown's time is not stated:
    1e-29 once made a 10^29-hour figure Babel could not format."""
    for lang, would_take in ((Lang.EN, "would take"), (Lang.AR, "سيستغرق")):
        reply = answer(text, Channel.COMMAND, preferred_lang=lang).reply
        assert reply.kind is Kind.ERROR and would_take not in reply.summary


def test_a_slowdown_within_the_bounds_states_the_time():
    reply = answer("876000h 0.06", Channel.COMMAND, preferred_lang=Lang.EN).reply
    assert "would take" in reply.summary


def test_help_shows_usage_in_both_languages():
    help_ = advise(Query(intent=Intent.HELP, lang=Lang.EN))
    en = render(help_, Lang.EN).text
    for example in (
        "/mpestimate 100 2",
        "/mpestimate 36h A100 BERT",
        "@mpestimate",
        "lang ar",
        "help",
    ):
        assert example in en
    ar = render(help_, Lang.AR).text
    assert "/mpestimate ٤٨ ساعة ٢" in ar and "lang ar" in ar and "مساعدة" in ar


def test_language_choice_is_confirmed():
    chosen = advise(Query(intent=Intent.SET_LANG, lang=Lang.AR, lang_choice=Lang.AR))
    assert render(chosen, Lang.AR).summary == "تم: سأجيبك بالعربية."


def test_notes_line_leads_with_the_most_relevant_note():
    reply = render(advise(ask(100, ratio=3.2)), Lang.EN)
    assert reply.notes[0].startswith("A ratio above 2.5")
    assert any("GradScaler" in d for d in reply.details)


def test_range_reply_has_the_guide():
    reply = render(advise(ask(36)), Lang.EN)
    assert "from *14 hours* to *30 hours*" in reply.summary and "1.2–2.5" in reply.summary
    assert reply.notes[0].startswith("To pick a ratio")


# One or more parameter sets per factor code (variants say different things).
FACTOR_PARAMS = {
    Factor.MEASURED_MATCH: [
        {"n": 3, "models": "ResNet-50", "gpus": "V100"},
        {"n": 1, "gpus": "T4"},
    ],
    Factor.TEAM_RECORDS: [{"n": 2, "ratio": 2.2}],
    Factor.GPU_GENERATION: [
        {"gpu": "A100", "architecture": "Ampere", "peak_ratio": 2.0},
        {"gpu": "T4", "architecture": "Turing"},
    ],
    Factor.NO_TENSOR_CORES: [{"gpu": "P100", "fast_fp16": 1}, {"gpu": "GTX 1080", "fast_fp16": 0}],
    Factor.CPU_DEVICE: [{"precision": "bf16", "gain_low": 1.4, "gain_high": 1.6}],
    Factor.TF32_BASELINE: [
        {"gpu": "A100", "why": "assumed", "fp32_ratio": 3.1},
        {"gpu": "A100", "why": "pytorch_convs"},
        {"gpu": "A100", "why": "framework"},
        {"gpu": "H100", "why": "stated"},
    ],
    Factor.STRICT_FP32_BASELINE: [
        {"gpu": "A100", "why": "stated", "tf32_ratio": 1.7},
        {"gpu": "L4", "why": "pytorch_matmuls"},
    ],
    Factor.MULTI_GPU: [{"num_gpus": 8}],
    Factor.LARGER_AMP_BATCH: [
        {"batch_fp32": 112, "batch_amp": 256, "published": 0},
        {"batch_fp32": 8, "batch_amp": 16, "published": 1},
    ],
    Factor.PRECISION: [{"precision": "bf16", "supported": 1}, {"precision": "fp8", "supported": 0}],
    Factor.FAMILY_PRIOR: [{"family": "speech_recognition"}, {"family": "graph"}],
    Factor.TYPICAL: [{}],
    Factor.FRAMEWORK: [{"framework": "PyTorch", "matched": 1}, {"framework": "JAX", "matched": 0}],
    Factor.MEMORY_BOUND: [{"shift": 0.7}],
    Factor.UNKNOWN_GPU: [{"gpu": "RTX 9999"}],
    Factor.BROKEN_SETUPS: [{"framework": "TensorFlow"}],
    Factor.PROJECTS: [{"ratio": 1.6, "low": 0.9, "high": 2.7}],
    Factor.RUN_EVIDENCE: [{"run": r} for r in ("busy", "input_bound", "small_model", "pure_fp16")],
    Factor.NARROW_BY: [{"fact": f} for f in ("utilisation", "batch", "baseline", "gpu", "model")],
}
FACTOR_CASES = [(code, params) for code, variants in FACTOR_PARAMS.items() for params in variants]


def test_every_factor_code_has_params_listed():
    assert set(FACTOR_PARAMS) == set(Factor)


def preset_with(factor: AdviceFactor, basis: str = "modelled") -> Advice:
    """A 10-hour preset at ratio 2 whose only factor is ``factor``."""
    return Advice(
        kind=Kind.PRESET,
        fp32_hours=10,
        ratio=2,
        ratio_low=1.5,
        ratio_high=2.5,
        mp_hours=5,
        mp_hours_low=4,
        mp_hours_high=6.7,
        saved_hours=5,
        saved_percent=50,
        basis=basis,
        factors=[factor],
    )


@pytest.mark.parametrize(("code", "params"), FACTOR_CASES)
def test_every_factor_is_worded_in_both_languages(code, params):
    advice = preset_with(AdviceFactor(code=code.value, params=params))
    en = render(advice, Lang.EN)
    # The team's figure leads the visible notes line; the other factors sit in details.
    # A CPU's check, what projects report, what the user said of the run and what
    # would narrow the range are sentences of their own.
    sentence = code in (Factor.CPU_DEVICE, Factor.PROJECTS, Factor.RUN_EVIDENCE, Factor.NARROW_BY)
    lines = [*en.notes, *en.details]
    openings = (
        "On a CPU",
        "That is for",
        "Your run",
        "A small model",
        "Hand-rolled",
        "What would narrow",
    )
    why = (
        [d for d in lines if d.startswith(openings)]
        if sentence
        else [d for d in lines if d.startswith("Why: ")]
    )
    # No code echoed as a name ("cpu_device"); a command in backticks may have one.
    prose = re.sub(r"`[^`]*`", "", why[0]) if why else ""
    assert len(why) == 1 and "_" not in prose and len(why[0]) > 20
    for key, value in params.items():
        # Codes are worded, not echoed; the projects' line says its range, not a second
        # headline figure.
        if key not in ("family", "fact", "why", "run") and (code, key) != (
            Factor.PROJECTS,
            "ratio",
        ):
            shown = value.upper() if isinstance(value, str) else NumberFormat(Lang.EN).number(value)
            flags = ("supported", "matched", "published", "fast_fp16")
            assert key in flags or shown in why[0].upper()
    ar = render(advice, Lang.AR)
    assert arabic_leftovers(ar.text) == ""
    assert sentence or any(d.startswith("السبب: ") for d in [*ar.notes, *ar.details])


def test_factor_plural_in_arabic():
    advice = advise(ask(10, gpu="A100"))
    advice = advice.model_copy(
        update={"factors": [AdviceFactor(code="measured_match", params={"n": 2})]}
    )
    assert any("يطابق قياسين منشورين" in d for d in render(advice, Lang.AR).details)


def test_note_codes_all_worded():
    advice = advise(ask(100, ratio=3, model="ResNet-50"))
    for code in Note:
        for lang in Lang:
            words = render(advice.model_copy(update={"notes": [code]}), lang)
            if code not in (Note.LANG_SET, Note.SMALL_TALK):  # whole replies of their own
                assert words.notes and words.notes[0]


@settings(max_examples=150, deadline=None)
@given(
    hours=st.floats(min_value=1e-4, max_value=876_000),
    ratio=st.floats(min_value=1.0, max_value=1e6),
    lang=st.sampled_from(list(Lang)),
    digits=st.sampled_from(["latn", "arab"]),
)
def test_any_estimate_renders_cleanly(hours, ratio, lang, digits):
    reply = render(advise(ask(hours, ratio=ratio)), lang, digits=digits)
    assert "\n" not in reply.summary and "e+" not in reply.text and "nan" not in reply.text
    if lang is Lang.AR:
        assert arabic_leftovers(reply.text) == ""


def test_the_team_figure_is_visible_with_the_published_one_beside_it():
    team = {"n": 3, "ratio": 2.2, "reference_ratio": 1.84, "reference_basis": "measured"}
    advice = preset_with(AdviceFactor(code="team_records", params=team), basis="team")
    en = render(advice, Lang.EN)
    assert en.notes[0].startswith(
        "Why: your team measured 2.2× in 3 runs (published measurements: 1.84×)"
    )
    ar = render(advice, Lang.AR)
    assert "1.84" in ar.notes[0] and "قياسات منشورة" in ar.notes[0]


def test_an_estimate_with_the_users_ratio_keeps_the_named_setup_in_view():
    """After a ratio button or "and with ratio 1.5?", the headline still says what it is about."""
    from bot.conversation import answer
    from bot.models import Channel

    english = answer("ResNet-50 on V100, 30 hours, ratio 1.5", Channel.DM).reply.summary
    assert english.startswith("*ResNet-50 on V100*: *30 hours* in FP32 → about *20 hours*")
    arabic = answer("التدريب ٣٠ ساعة على V100 لـ ResNet-50 والنسبة ١.٥", Channel.DM).reply.summary
    assert arabic.startswith("*\u2068ResNet-50\u2069 على \u2068V100\u2069* — ")
    assert answer("100 2", Channel.COMMAND).reply.summary.startswith("*100 hours*")


def test_each_narrowing_fact_is_worded_differently_in_both_languages():
    for lang in Lang:
        texts = {
            render(preset_with(AdviceFactor(code="narrow_by", params=p)), lang).text
            for p in FACTOR_PARAMS[Factor.NARROW_BY]
        }
        assert len(texts) == len(FACTOR_PARAMS[Factor.NARROW_BY])
        assert all("mpbot experiment" in t for t in texts)
