"""Read the team-measurement commands: ``record ...``, ``history [page]``, ``delete N``.

These are commands, not questions, so they get their own small reader: a
keyword first (``record``/``سجل``, ``history``/``سجل القياسات``,
``delete``/``احذف``), then labelled values in any order::

    record A100 BERT 8 GPUs bf16 fp32 420ms amp 190ms
    record V100 resnet50 fp32 367 img/s amp 1200 img/s
    record T4 ratio 1.9
    سجل A100 BERT على ٨ بطاقات fp32 ٤٢٠ مللي ثانية amp ١٩٠ مللي ثانية

A number only counts next to a label (FP32 side, mixed side, ratio) or as a
GPU count, so digits inside names (ResNet-50, A100, FP32) are never values.
Step times and throughputs must carry a unit on at least one side, because
"fp32 420 amp 190" could be either, and they give inverse ratios.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from bot.advice.catalog import family_of_model
from bot.models import GPU_NAMES, MAX_MESSAGE_CHARS, MODEL_NAMES, Lang
from bot.records.models import (
    MAX_GPU_CHARS,
    MAX_MODEL_CHARS,
    RecordDraft,
    StepTime,
    StepUnit,
    Throughput,
)
from bot.records.ratio import RecordReason, validate
from bot.understanding.lexicon import model_word_family
from bot.understanding.words import mapping


@dataclass(frozen=True)
class RecordCommand:
    """``record ...``: a draft that passed validation, or the reasons it did not."""

    lang: Lang
    draft: RecordDraft | None = None
    reasons: tuple[RecordReason, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class HistoryCommand:
    lang: Lang
    page: int = 1


@dataclass(frozen=True)
class DeleteCommand:
    lang: Lang
    record_id: int


Command = RecordCommand | HistoryCommand | DeleteCommand


def read_command(text: str) -> Command | None:
    """The records command in ``text``, or None when it is not one (then it is a question)."""
    clean = _normalise(text)
    lang = Lang.AR if _ARABIC_LETTER.search(clean) else Lang.EN
    if m := _HISTORY.match(clean):
        return HistoryCommand(lang=lang, page=max(1, int(m["page"] or 1)))
    if m := _DELETE.match(clean):
        return DeleteCommand(lang=lang, record_id=int(m["id"]))
    if m := _RECORD.match(clean):
        result = read_record(clean[m.end() :])
        if isinstance(result, RecordDraft):
            return RecordCommand(lang=lang, draft=result)
        return RecordCommand(lang=lang, reasons=result)
    return None


def is_delete_without_id(text: str) -> bool:
    """ "delete abc", "delete", "احذف القياس": a delete command with no record number.

    Only the keyword with at most one more word, so that a sentence that opens
    with "remove" is still read as a question.
    """
    clean = _normalise(text)
    return _DELETE.match(clean) is None and _DELETE_NEAR_MISS.match(clean) is not None


def read_record(text: str) -> RecordDraft | tuple[RecordReason, ...]:
    """A valid draft from the words after ``record``, or every reason it is not one.

    The setup (GPU, model, task, GPU count, precision, baseline) is read by the
    question reader itself, so a record knows every name a question does
    ("A800", "2080 Ti", "on 4 A100"); the measurement pair is read here.
    """
    text = _normalise(text)[:MAX_MESSAGE_CHARS]
    values = _setup(text)
    _baseline(text, values)
    text = _blank_count(_blank_names(text, values))
    fp32, mixed, text = _take_pair(text)
    ratio, text = _take_ratio(text)
    return _finish(values, fp32, mixed, ratio)


def read_fields(
    *,
    gpu: str = "",
    model: str = "",
    num_gpus: int | None = None,
    precision: str | None = None,
    fp32: str = "",
    mixed: str = "",
    ratio: str = "",
) -> RecordDraft | tuple[RecordReason, ...]:
    """The "Record my result" modal's fields, read by the same rules as the command.

    Each field holds one thing ("420 ms", "367 img/s", "1.9"), so a field that
    is filled but unreadable counts as missing and the reply says what to type.
    """
    values: dict[str, object] = {}
    if gpu := _normalise(gpu):
        values["gpu"] = _setup(gpu).get("gpu") or gpu[:MAX_GPU_CHARS]
    if model := _normalise(model):
        read = _setup(model)
        values.update({k: v for k, v in read.items() if k in ("model", "family")})
        # A model the bot has no rows for ("my llama <x>") is kept as typed; a task
        # alone ("تصنيف الصور") names no model.
        named = any(model_word_family(w) for w in model.lower().split())
        if "model" not in read and (named or "family" not in read):
            values["model"] = model[:MAX_MODEL_CHARS]
    if num_gpus is not None and num_gpus >= 1:
        values["num_gpus"] = num_gpus
    if precision in ("fp16", "bf16", "fp8"):
        values["precision"] = precision
    fp32_reading = _one_value(fp32)
    mixed_reading = _one_value(mixed)
    stated = _RATIO_ALONE.fullmatch(_normalise(ratio))
    stated_ratio = _number(stated["num"]) if stated else None
    return _finish(values, fp32_reading, mixed_reading, stated_ratio)


def _finish(
    values: dict[str, object],
    fp32: _Reading | None,
    mixed: _Reading | None,
    ratio: float | None,
) -> RecordDraft | tuple[RecordReason, ...]:
    missing_unit = False
    if fp32 is not None and mixed is not None:
        fp32, mixed = _share_unit(fp32, mixed)
        missing_unit = fp32.unit is None and mixed.unit is None
    for side, reading in (("fp32", fp32), ("mixed", mixed)):
        if reading is None or reading.unit is None:
            continue
        if isinstance(reading.unit, StepUnit):
            values[f"{side}_step"] = StepTime(value=reading.value, unit=reading.unit)
        else:
            values[f"{side}_throughput"] = Throughput(value=reading.value, unit=reading.unit)
    if ratio is not None:
        values["ratio"] = ratio

    draft = RecordDraft(**values)
    checked = validate(draft)
    if missing_unit and not (draft.fp32_step or draft.fp32_throughput):
        reasons = tuple(
            RecordReason.MISSING_UNIT if r is RecordReason.MISSING_PAIR else r
            for r in checked.reasons
        )
        return reasons or (RecordReason.MISSING_UNIT,)
    return draft if checked.ok else checked.reasons


# --- normalising ---------------------------------------------------------------

_ARABIC_LETTER = re.compile(r"[\u0621-\u064A]")
_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹٫", "01234567890123456789.")
# Bidi marks and isolates, tatweel, Arabic diacritics, markdown emphasis: noise around values.
_NOISE = re.compile(r"[\u200e\u200f\u202a-\u202e\u2066-\u2069\u0640\u064b-\u0652*`]")


def _normalise(text: str) -> str:
    text = html.unescape(text).translate(_DIGITS)
    text = _NOISE.sub("", text)
    text = text.replace("\u2212", "-").replace("\u00a0", " ").replace("٬", "")
    text = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)  # 1,200 is one number
    return re.sub(r"\s+", " ", text).strip()


# --- keywords ----------------------------------------------------------------------

_B = r"(?![\w])"  # end of a word (Arabic letters are \w too)
_RECORD = re.compile(rf"^(?:record|سجل|أضف قياسا|اضف قياسا){_B}\s*", re.IGNORECASE)
_HISTORY = re.compile(
    r"^(?:history|records|measurements|سجل القياسات|القياسات|قياسات الفريق|سجل الفريق|السجل)"
    r"(?:\s*(?:page|الصفحة|صفحة)?\s*#?(?P<page>\d{1,6}))?$",
    re.IGNORECASE,
)
_DELETE = re.compile(
    r"^(?:delete|remove|احذف|حذف|امسح)(?:\s+(?:record|القياس|قياس|رقم))?\s*#?(?P<id>\d{1,12})$",
    re.IGNORECASE,
)
_DELETE_NEAR_MISS = re.compile(
    r"^(?:delete|remove|احذف|حذف|امسح)(?:\s+(?:record|القياس|قياس|رقم))?(?:\s+#?[^\s\d]\S*)?$",
    re.IGNORECASE,
)

# --- names -------------------------------------------------------------------------


def _name_pattern(name: str) -> str:
    """ "RTX 2080 Ti" -> rtx[\\s-]?2080[\\s-]?ti: spaces, hyphens and their absence alike."""
    parts = re.findall(r"[A-Za-z]+|\d+", name)
    return r"[\s-]?".join(re.escape(p) for p in parts)


_EDGE_L, _EDGE_R = r"(?<![A-Za-z0-9])", r"(?![A-Za-z0-9])"
_GPU_RE = tuple(
    (
        re.compile(
            rf"{_EDGE_L}(?:(?:nvidia|tesla|geforce|amd|instinct)\s+)*{_name_pattern(n)}"
            rf"(?:[\s-]?\d+\s?gb|[\s-]?(?:sxm\d?|pcie))*{_EDGE_R}",
            re.IGNORECASE,
        ),
        n,
    )
    for n in sorted(GPU_NAMES, key=len, reverse=True)
)
_MODEL_ALIASES: dict[str, str] = {
    "ResNet-50": r"resnet[\s-]?50(?:[\s-]?v1\.5)?|rn[\s-]?50|ريزنت[\s-]?50",
    "BERT": r"bert(?:[\s-]?(?:large|base))?|بيرت",
    "Wide&Deep": r"wide\s*(?:&|and|n)\s*deep",
    "SSD": r"ssd\d*",
}
_MODEL_RE = tuple(
    (
        re.compile(
            rf"{_EDGE_L}(?:{_MODEL_ALIASES.get(n, _name_pattern(n))}){_EDGE_R}", re.IGNORECASE
        ),
        n,
    )
    for n in sorted(MODEL_NAMES, key=len, reverse=True)
)
_FREE_MODEL = re.compile(r"(?:model|نموذج)\s*[:=]\s*(?P<name>[^\s,;]+)", re.IGNORECASE)


def _blank(text: str, m: re.Match[str]) -> str:
    """Replace a used span with spaces so its digits are never read again."""
    return text[: m.start()] + " " * (m.end() - m.start()) + text[m.end() :]


_SETUP_FIELDS = ("gpu", "model", "family", "num_gpus", "precision", "baseline")


def _setup(text: str) -> dict[str, object]:
    """What the question reader reads of the setup ("A800 BERT on 8 GPUs bf16")."""
    from bot.models import Channel
    from bot.understanding.parse import understand  # parse reads commands first

    query = understand(text, Channel.DM)
    values = {f: v for f in _SETUP_FIELDS if (v := getattr(query, f)) is not None}
    model = values.get("model")
    if model and "family" not in values and (family := family_of_model(str(model))):
        values["family"] = str(family)
    return values


_BASELINE = re.compile(r"(?<![a-z0-9])(tf32|fp\s?32)(?![a-z0-9])", re.IGNORECASE)


def _baseline(text: str, values: dict[str, object]) -> None:
    """The FP32 side's label is the baseline a record was measured against (TF32 wins)."""
    labels = {m[1].lower().replace(" ", "") for m in _BASELINE.finditer(text)}
    if "baseline" not in values and labels:
        values["baseline"] = "tf32" if "tf32" in labels else "fp32"


def _blank_names(text: str, values: dict[str, object]) -> str:
    """Blank the names (their digits are no values); "model: mynet" names a model."""
    if m := _FREE_MODEL.search(text):
        name = m["name"][:MAX_MODEL_CHARS]
        values["model"] = next((n for rx, n in _MODEL_RE if rx.fullmatch(name)), name)
        text = _blank(text, m)
    for rx, _name in (*_GPU_RE, *_MODEL_RE):
        if m := rx.search(text):
            text = _blank(text, m)
    return text


# --- GPU count ---------------------------------------------------------------------

_COUNT = re.compile(
    r"(?<![\w.])(?P<n>\d{1,5})\s*[x×]?\s*"
    r"(?:gpus?|cards?|devices?|بطاقات|بطاقة|وحدات|وحدة|معالجات رسومية)(?![\w])"
    r"|(?<![\w.])(?P<m>\d{1,5})\s*[x×](?=\s*$|\s)",
    re.IGNORECASE,
)


def _blank_count(text: str) -> str:
    """Blank a GPU count ("8 GPUs", "على ٨ بطاقات", "8x"): the reader took it; its
    digits are no measurement."""
    if m := _COUNT.search(text):
        return _blank(text, m)
    return text


# --- the measurement pair ------------------------------------------------------------


@dataclass(frozen=True)
class _Reading:
    value: float
    unit: StepUnit | str | None  # StepUnit for step times, a label for throughputs


_NUM = (
    r"(?P<num>[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?"
    r"|[-+]?(?:nan|inf(?:inity)?|∞)(?![a-z])|ما لا نهاية)"
)
_STEP_UNITS: dict[StepUnit, str] = {
    StepUnit.MICROSECONDS: r"microseconds?|µs|μs|us|ميكرو ?ثانية",
    StepUnit.MILLISECONDS: r"milliseconds?|msecs?|ms|مل?لي ?ثانية|ميلي ?ثانية|مل?لي ?ث|مث",
    StepUnit.SECONDS: r"seconds?|secs?|s|ثوان[ي]?|ثانية|ث",
}
_THING = r"[a-z\u0621-\u064A]{1,20}"  # what is counted per second: img, tokens, صورة
_THROUGHPUT = (
    rf"(?P<thing>{_THING})\s*(?:/|per|لكل|في)\s*(?:s|secs?|seconds?|ث|ثانية|الثانية)(?![\w])"
    r"|(?P<fps>fps)(?![\w])"
)
_STEP = "|".join(rf"(?P<step_{u.name}>{words})" for u, words in _STEP_UNITS.items())
_UNIT = (
    rf"(?:{_THROUGHPUT}|(?:{_STEP})(?:\s*(?:/|per)\s*(?:step|it(?:er(?:ation)?)?|batch)"
    rf"|\s*لكل\s*خطوة)?(?![a-z\u0621-\u064A]))"
)
# "1.2k tokens/s": a thousand of them (throughputs are often written that way).
_VALUE = rf"{_NUM}(?P<kilo>k(?![a-z\u0621-\u064A]))?(?![\d.])\s*(?:{_UNIT})?"
_FP32_LABEL = (
    r"(?:true\s+)?fp\s?32|tf32|float32|full precision|single precision"
    r"|(?:ال)?دقة (?:ال)?كاملة|(?:ال)?دقة (?:ال)?أحادية"
)
_MIXED_LABEL = (
    r"amp|mixed(?: precision)?|mp|fp16|bf16|fp8|half(?: precision)?"
    r"|(?:ال)?دقة (?:ال)?مختلطة|(?:ال)?مختلطة|مختلطة|مختلط|(?:ال)?دقة (?:ال)?نصفية"
)
_LABEL = rf"(?<![\w])(?:(?P<fp32>{_FP32_LABEL})|(?P<mixed>{_MIXED_LABEL}))(?![\w])"
# "fp32 step 1.2s", "bf16 step time: 0.55s", "amp throughput 1200 img/s": what is measured
# may be named between the label and its value.
_MEASURE_WORD = (
    r"(?:(?:step|iteration|iter|batch)(?:\s*time)?|throughput|speed|time"
    r"|(?:زمن|وقت) (?:ال)?خطوة|(?:ال)?خطوة|(?:ال)?إنتاجية|(?:ال)?سرعة)"
)
_LABEL_FIRST = re.compile(
    rf"{_LABEL}\s*(?:{_MEASURE_WORD}(?![\w]))?\s*(?:[:=]|->|→|takes|is|يستغرق|تستغرق)?\s*{_VALUE}",
    re.IGNORECASE,
)
_VALUE_FIRST = re.compile(
    rf"(?<![\w.]){_VALUE}\s*(?:in|with|using|on|under|ب|في|مع|بدقة|باستخدام)?\s*{_LABEL}",
    re.IGNORECASE,
)
_THROUGHPUT_THINGS: dict[str, str] = mapping("THROUGHPUT_THINGS")


def _throughput_label(thing: str) -> str:
    for label, words in _THROUGHPUT_THINGS.items():
        if re.fullmatch(words, thing, re.IGNORECASE):
            return label
    return f"{thing.lower()}/s"


def _reading(m: re.Match[str]) -> _Reading:
    value = _number(m["num"]) * (1000 if m["kilo"] else 1)
    unit: StepUnit | str | None = None
    if m["thing"]:
        unit = _throughput_label(m["thing"])
    elif m["fps"]:
        unit = "img/s"
    else:
        unit = next((u for u in StepUnit if m[f"step_{u.name}"]), None)
    return _Reading(value=value, unit=unit)


_ONE_VALUE = re.compile(rf"\s*{_VALUE}\s*", re.IGNORECASE)
_RATIO_ALONE = re.compile(rf"\s*{_NUM}\s*[x×]?\s*", re.IGNORECASE)


def _number(raw: str) -> float:
    return float(raw.lower().replace("∞", "inf").replace("ما لا نهاية", "inf"))


def _one_value(field: str) -> _Reading | None:
    """A field holding one value with its unit ("420 ms"), or None when unreadable."""
    m = _ONE_VALUE.fullmatch(_normalise(field))
    return _reading(m) if m else None


def _take_pair(text: str) -> tuple[_Reading | None, _Reading | None, str]:
    """FP32 and mixed readings: "fp32 420ms" first, then "420ms in fp32" for a missing side."""
    sides: dict[str, _Reading] = {}
    for pattern in (_LABEL_FIRST, _VALUE_FIRST):
        for m in list(pattern.finditer(text)):
            side = "fp32" if m["fp32"] else "mixed"
            if side not in sides:
                sides[side] = _reading(m)
                text = _blank(text, m)
    return sides.get("fp32"), sides.get("mixed"), text


def _share_unit(fp32: _Reading, mixed: _Reading) -> tuple[_Reading, _Reading]:
    """ "fp32 420 amp 190ms": a unit written once applies to both sides."""
    if fp32.unit is None and mixed.unit is not None:
        return _Reading(fp32.value, mixed.unit), mixed
    if mixed.unit is None and fp32.unit is not None:
        return fp32, _Reading(mixed.value, fp32.unit)
    return fp32, mixed


# --- a ratio stated directly ---------------------------------------------------------

_RATIO_LABELLED = re.compile(
    r"(?<![\w])(?:ratio|speed[\s-]?up|reduction factor|نسبة (?:ال)?تسريع|نسبة (?:ال)?تخفيض"
    r"|معامل (?:ال)?تخفيض|معامل (?:ال)?تسريع|(?:ال)?نسبة|(?:ال)?معامل|(?:ال)?تسريع)(?![\w])"
    rf"\s*(?:[:=]|of|is|هي|هو)?\s*{_NUM}(?![\d.])\s*[x×]?",
    re.IGNORECASE,
)
_RATIO_TIMES = re.compile(rf"(?<![\w.]){_NUM}\s*[x×](?![\w])", re.IGNORECASE)


def _take_ratio(text: str) -> tuple[float | None, str]:
    """ "ratio 1.9", "نسبة التسريع ٢٫٢" or "2.2x" (GPU counts like "8x" are gone by now)."""
    for pattern in (_RATIO_LABELLED, _RATIO_TIMES):
        if m := pattern.search(text):
            return _number(m["num"]), _blank(text, m)
    return None, text
