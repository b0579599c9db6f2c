"""A record's draft, from the words after ``record`` or from the form's fields.

Everything is read by the question reader (:func:`bot.understanding.parse.understand`):
the setup (GPU, model, task, GPU count, precision, baseline), the ratio when one
is stated ("ratio 1.9", "2.3x", "نسبة التسريع ١٫٩") and, from the tokens it
leaves, the FP32/mixed measurement pair (:mod:`bot.understanding.rules.record.record_pair`).
So a record knows every name, count, precision and unit a question does
("A800", "2080 Ti", "on 4 A100", "fp32 step 1.2s", "بالدقة الكاملة").
"""

from __future__ import annotations

import html
import re

from bot.advice.catalog import family_of_model
from bot.models import MAX_MESSAGE_CHARS, Channel, Query
from bot.records.models import (
    MAX_GPU_CHARS,
    MAX_MODEL_CHARS,
    RecordDraft,
    StepTime,
    StepUnit,
    Throughput,
)
from bot.records.ratio import RecordReason, validate
from bot.understanding.rules.record.record_pair import (
    Measurement,
    measurement_pair,
    one_measurement,
    share_unit,
)
from bot.understanding.text.tokens import Token
from bot.understanding.values.lexicon import model_word_family
from bot.understanding.words import table

_SETUP_FIELDS = ("gpu", "model", "family", "num_gpus", "precision", "baseline")
# Ratios the reader works out rather than reads: from the pair itself, from two
# times, from a number's place in a bare command or in a thread. A record states
# its ratio or measures it; it never guesses one.
_WORKED_OUT_RATIO_RULES = frozenset(
    {"step_rate", "fp32_and_mixed_times", "position", "thread_lone_ratio"}
)
_FREE_MODEL = re.compile(r"(?:model|نموذج)\s*[:=]\s*(?P<name>[^\s,;]+)", re.IGNORECASE)
_FP32_LABELS = table("FP32")
_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹٫", "01234567890123456789.")
# Bidi marks and isolates, tatweel, Arabic diacritics, markdown emphasis: noise around values.
_NOISE = re.compile(r"[\u200e\u200f\u202a-\u202e\u2066-\u2069\u0640\u064b-\u0652*`]")


def normalise_command(text: str) -> str:
    """A command as its keywords and kept names are matched: entities decoded, Latin
    digits, no bidi marks or emphasis, "1,200" one number, single spaces."""
    text = html.unescape(text).translate(_DIGITS)
    text = _NOISE.sub("", text)
    text = text.replace("\u2212", "-").replace("\u00a0", " ").replace("٬", "")
    text = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)  # 1,200 is one number
    return re.sub(r"\s+", " ", text).strip()


def read_record(text: str) -> RecordDraft | tuple[RecordReason, ...]:
    """A valid draft from the words after ``record``, or every reason it is not one."""
    text = normalise_command(text)[:MAX_MESSAGE_CHARS]
    query, tokens = _read(text)
    values = _setup(query)
    _baseline(tokens, values)
    if m := _FREE_MODEL.search(text):  # "model: mynet" names a model, as typed
        name = m["name"][:MAX_MODEL_CHARS]
        values["model"] = _setup(_read(name)[0]).get("model") or name
    fp32, mixed = measurement_pair(tokens)
    return _finish(values, fp32, mixed, _stated_ratio(query))


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
    if gpu := normalise_command(gpu):
        values["gpu"] = _setup(_read(gpu)[0]).get("gpu") or gpu[:MAX_GPU_CHARS]
    if model := normalise_command(model):
        read = _setup(_read(model)[0])
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
    return _finish(values, _field(fp32), _field(mixed), _ratio_field(ratio))


def _read(text: str) -> tuple[Query, list[Token]]:
    """The question reader's query and its tokens, with the roles its rules gave them."""
    from bot.understanding.parse import understand  # parse reads commands first

    tokens: list[Token] = []
    return understand(text, Channel.DM, seen=tokens), tokens


def _setup(query: Query) -> dict[str, object]:
    """What the question reader read of the setup ("A800 BERT on 8 GPUs bf16")."""
    values = {f: v for f in _SETUP_FIELDS if (v := getattr(query, f)) is not None}
    model = values.get("model")
    if model and "family" not in values and (family := family_of_model(str(model))):
        values["family"] = str(family)
    return values


def _baseline(tokens: list[Token], values: dict[str, object]) -> None:
    """The FP32 side's label is the baseline a record was measured against (TF32 wins)."""
    words = {t.text for t in tokens}
    if "baseline" not in values and words & _FP32_LABELS:
        values["baseline"] = "tf32" if "tf32" in words else "fp32"


def _stated_ratio(query: Query) -> float | None:
    """The ratio the message states ("ratio 1.9", "2.3x", "معامل ١٫٩"), not one worked out."""
    rule = query.read_by.get("ratio", [""])[0]
    return query.ratio if rule not in _WORKED_OUT_RATIO_RULES else None


def _field(text: str) -> Measurement | None:
    """A field holding one value with its unit ("420 ms"), or None when unreadable."""
    return one_measurement(_read(normalise_command(text))[1]) if text.strip() else None


def _ratio_field(text: str) -> float | None:
    """The form's ratio field: one number, "1.9" or "1.9x" (a ratio by what it holds)."""
    tokens = _read(normalise_command(text))[1] if text.strip() else []
    numbers = [t for t in tokens if t.kind == "num"]
    if len(numbers) != 1 or numbers[0].suffix not in ("", "x"):
        return None
    return numbers[0].value


def _finish(
    values: dict[str, object],
    fp32: Measurement | None,
    mixed: Measurement | None,
    ratio: float | None,
) -> RecordDraft | tuple[RecordReason, ...]:
    fp32, mixed = share_unit(fp32, mixed)
    missing_unit = fp32 is not None and mixed is not None and fp32.unit is mixed.unit is None
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
