"""Rule ``measurement_pair``: a record's FP32 and mixed measurements, read with the
question reader's rate rules.

The question reader's tokens already hold every rate: "420ms", "1.2 s/it",
"367 img/s", "1.2k tokens/s", "fp32 step 1.2s", "٤٢٠ مللي ثانية", "367 صورة/ث",
each said of the precision nearest to it (``rate_precision.precision_near``: "fp32 420ms",
"420ms in fp32", "بالدقة الكاملة", "without amp"). A record holds measurements and
nothing else, so two conventions come on top:

* seconds said of a precision are a step ("0.42 s in fp32", "fp32 ١٫٢ ث"), never
  a training run;
* a bare number said of a precision takes the other side's unit ("fp32 420 amp
  190ms"); with no unit on either side the record asks for one, because
  "fp32 420 amp 190" could be step times or throughputs, which give inverse ratios.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.records.models import SECONDS_PER_STEP_UNIT, StepUnit
from bot.understanding.resolving.candidates import STEP_TIME, THROUGHPUT
from bot.understanding.rules.rate.rate_precision import precision_near
from bot.understanding.rules.rate.rates import step_scale
from bot.understanding.text.tokens import NUM, WORD, Token
from bot.understanding.values.lexicon import lookup
from bot.understanding.values.nearby import at, is_time_unit
from bot.understanding.words import mapping, table


@dataclass(frozen=True)
class Measurement:
    """One side's value as written, and its unit: a StepUnit for a step time, a label
    ("img/s") for a throughput, None for a bare number."""

    value: float
    unit: StepUnit | str | None


# The roles a question's rules give a number that a record may still measure with:
# none, a time ("0.42 s"), a position in a bare command ("fp32 420").
_MEASURABLE_ROLES = ("", "time", "position")
_STEP_UNITS = {scale: unit for unit, scale in SECONDS_PER_STEP_UNIT.items()}
_THROUGHPUT_THINGS: dict[str, list[str]] = mapping("THROUGHPUT_THINGS")
_SECOND_WORDS = table("SECOND_WORDS")


def measurement_pair(tokens: list[Token]) -> tuple[Measurement | None, Measurement | None]:
    """The FP32 and the mixed measurement: the first said of each."""
    sides: dict[str, Measurement] = {}
    for i, tok in enumerate(tokens):
        if tok.kind != NUM or (found := _measurement(tokens, i)) is None:
            continue
        side = precision_near(tokens, i)
        if side and side not in sides:
            sides[side] = found
    return sides.get("fp32"), sides.get("mixed")


def one_measurement(tokens: list[Token]) -> Measurement | None:
    """A form field's one value ("420 ms", "367 img/s", "1200"), or None when the
    field holds no number or more than one."""
    numbers = [i for i, tok in enumerate(tokens) if tok.kind == NUM]
    return _measurement(tokens, numbers[0]) if len(numbers) == 1 else None


def _measurement(tokens: list[Token], i: int) -> Measurement | None:
    tok = tokens[i]
    if tok.role == STEP_TIME:
        return Measurement(tok.value, _STEP_UNITS.get(step_scale(tokens, i)))
    if tok.role == THROUGHPUT:
        return Measurement(tok.value, _throughput_label(tok.extra.get("counts", "")))
    if tok.role not in _MEASURABLE_ROLES:
        return None
    if _in_seconds(tokens, i):
        return Measurement(tok.value, StepUnit.SECONDS)
    if tok.suffix or is_time_unit(at(tokens, i + 1)):
        return None  # "fp32 36h": a run's time, no measurement
    return Measurement(tok.value, None)


def _in_seconds(tokens: list[Token], i: int) -> bool:
    """ "0.42 s", "0.42s", "١٫٢ ث"."""
    tok, nxt = tokens[i], at(tokens, i + 1)
    if tok.suffix:
        return tok.suffix in _SECOND_WORDS
    return nxt is not None and nxt.kind == WORD and lookup(nxt.text, _SECOND_WORDS) is not None


def _throughput_label(counts: str) -> str:
    """ "img" -> "img/s", "الصور" -> "img/s"; work with no label keeps its name."""
    for label, words in _THROUGHPUT_THINGS.items():
        if lookup(counts, words) is not None:
            return label
    return f"{counts}/s"


def share_unit(
    fp32: Measurement | None, mixed: Measurement | None
) -> tuple[Measurement | None, Measurement | None]:
    """ "fp32 420 amp 190ms": a unit written once applies to both sides."""
    if fp32 is None or mixed is None:
        return fp32, mixed
    if fp32.unit is None and mixed.unit is not None:
        return Measurement(fp32.value, mixed.unit), mixed
    if mixed.unit is None and fp32.unit is not None:
        return fp32, Measurement(mixed.value, fp32.unit)
    return fp32, mixed
