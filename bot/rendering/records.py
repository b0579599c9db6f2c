"""Words for the team's measurements: confirmations, refusals, history pages, deletions.

They live in their own gettext domain, ``records`` (``locales/<lang>/LC_MESSAGES/
records.po``), so the estimate catalog and this one can change independently.
The phrase functions are called ``tr``/``ntr`` (not ``_``) so that extracting
the ``messages`` domain never sweeps these strings in; extract this domain with::

    pybabel extract --no-default-keywords -k tr -k ntr:1,2 -o locales/records.pot \\
        bot/rendering/records.py
    pybabel compile -d locales -D records

Everything returned is Slack mrkdwn: echoed user text (free-text model names)
is escaped, Latin runs in Arabic lines are isolated, and the recorder is shown
as a ``<@U…>`` mention on purpose: history says who measured what. It pings
nobody: in a channel a records command is answered to the asker alone
(ephemeral, which notifies no one), and in a DM the recorders are not members.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from babel.dates import format_date

from bot.models import Lang
from bot.records.models import Measure, Record, RecordPage, RecordSetup
from bot.records.ratio import PLAUSIBLE_HIGH, PLAUSIBLE_LOW, RecordReason
from bot.rendering.i18n import translations
from bot.rendering.numbers import FSI, PDI, NumberFormat, isolate_latin
from bot.rendering.reply import escape

DOMAIN = "records"
SEPARATOR = " · "
_PLACEHOLDER = re.compile(r"%\((\w+)\)s")
_SLOT_BASE = 0xE000  # private-use characters stand in for values while isolating
_ARABIC_LETTER = re.compile(r"[\u0621-\u064A]")
_LATIN = re.compile(r"[A-Za-z0-9]")


class RecordWords:
    """The phrases of one language (numbers with Babel, plurals from the catalog)."""

    def __init__(self, lang: Lang) -> None:
        self.lang = lang
        self.fmt = NumberFormat(lang)
        catalog = translations(lang, DOMAIN)
        self.tr = catalog.gettext
        self.ntr = catalog.ngettext

    # -- pieces ----------------------------------------------------------------
    def examples(self) -> tuple[str, str, str]:
        """Commands to copy, in the user's language (the reader takes both)."""
        return (
            self.tr("record A100 BERT 8 GPUs bf16 fp32 420ms amp 190ms"),
            self.tr("record V100 resnet50 fp32 367 img/s amp 1200 img/s"),
            self.tr("record T4 ratio 1.9"),
        )

    def fill(self, template: str, **values: object) -> str:
        """``template % values``, with bidi isolation done right in Arabic.

        The template's own Latin runs are isolated before the values go in, and
        each value containing Latin is isolated whole, so escaped user text
        (``&lt;``) is never split by an isolate and nested phrases are not
        wrapped twice.
        """
        if self.lang is not Lang.AR:
            return template % values
        slots = {key: chr(_SLOT_BASE + i) for i, key in enumerate(values)}
        marked = _PLACEHOLDER.sub(lambda m: slots[m[1]], template)
        text = isolate_latin(marked)
        for key, slot in slots.items():
            text = text.replace(slot, self.iso(str(values[key])))
        return text

    def iso(self, value: str) -> str:
        """A Latin value (name, number, escaped user text) as one isolated run in Arabic."""
        if self.lang is not Lang.AR or _ARABIC_LETTER.search(value) or not _LATIN.search(value):
            return value
        if value.startswith("<") and value.endswith(">"):  # mention or date token
            return value
        if value.startswith(FSI) and value.endswith(PDI):  # already one run ("A100" from what())
            return value
        return f"{FSI}{value}{PDI}"

    def line(self, text: str) -> str:
        return isolate_latin(text) if self.lang is Lang.AR else text

    def ratio(self, value: float) -> str:
        return f"{self.fmt.number(value)}×"

    def family(self, code: str) -> str:
        names = {
            "image_classification": self.tr("image classification"),
            "detection": self.tr("object detection"),
            "segmentation": self.tr("segmentation"),
            "language_model": self.tr("language models"),
            "translation": self.tr("translation"),
            "speech_recognition": self.tr("speech recognition"),
            "tts": self.tr("text to speech"),
            "recommender": self.tr("recommender systems"),
            "time_series": self.tr("time series"),
            "graph": self.tr("graph and molecule models"),
        }
        return names.get(code, escape(code))

    def what(self, setup: RecordSetup) -> str:
        """ "BERT on A100", "language models", "A100" (user text escaped)."""
        name = (
            escape(setup.model)
            if setup.model
            else (self.family(setup.family) if setup.family else None)
        )
        gpu = escape(setup.gpu) if setup.gpu else None
        if name and gpu:
            return self.fill(self.tr("%(model)s on %(gpu)s"), model=name, gpu=gpu)
        return self.iso(name or gpu or self.tr("an unnamed setup"))

    def gpus(self, n: int) -> str:
        return self.fill(self.ntr("%(n)s GPU", "%(n)s GPUs", n), n=self.fmt.integer(n))

    def conditions(self, setup: RecordSetup) -> list[str]:
        """GPU count, precision and baseline, each only when stated."""
        parts = []
        if setup.num_gpus:
            parts.append(self.gpus(setup.num_gpus))
        if setup.precision:
            parts.append(self.iso(setup.precision.upper()))
        if setup.baseline:
            parts.append(
                self.fill(self.tr("%(baseline)s baseline"), baseline=setup.baseline.upper())
            )
        return parts

    def numbers(self, record: Record) -> str | None:
        """The user's own pair, "FP32 420 ms vs mixed 190 ms", or None for a stated ratio."""
        if record.measure is Measure.RATIO or record.fp32_value is None:
            return None
        unit = escape(record.unit or "")
        return self.fill(
            self.tr("FP32 %(fp32)s vs mixed %(mixed)s"),
            fp32=f"{self.fmt.number(record.fp32_value)} {unit}",
            mixed=f"{self.fmt.number(record.mixed_value or 0)} {unit}",
        )

    def when(self, moment: datetime) -> str:
        """Slack shows the date in the reader's time zone; the fallback is Babel's."""
        fallback = format_date(moment.date(), "medium", locale=self.lang.value)
        return f"<!date^{int(moment.timestamp())}^{{date_short}}|{fallback}>"

    # -- replies ---------------------------------------------------------------
    def recorded(self, record: Record) -> str:
        # A GPU alone takes its own preposition (Arabic "على T4", not "في T4").
        template = (
            self.tr("Recorded #%(id)s: *%(ratio)s* on %(what)s.")
            if record.gpu and not (record.model or record.family)
            else self.tr("Recorded #%(id)s: *%(ratio)s* for %(what)s.")
        )
        lines = [
            self.fill(
                template, id=record.id, ratio=self.ratio(record.ratio), what=self.what(record)
            )
        ]
        extra = self.conditions(record)
        if numbers := self.numbers(record):
            extra.append(numbers)
        if extra:
            lines.append(SEPARATOR.join(extra))
        lines.append(
            self.line(self.tr("Estimates for a matching setup will use your team's records first."))
        )
        return "\n".join(lines)

    def refused(self, reasons: tuple[RecordReason, ...]) -> str:
        step, throughput, ratio = self.examples()
        return "\n".join(
            [
                self.line(self.tr("Nothing was recorded:")),
                *(f"• {self.reason(r)}" for r in reasons),
                self.fill(
                    self.tr("For example: `%(step)s`, `%(throughput)s` or `%(ratio)s`."),
                    step=step,
                    throughput=throughput,
                    ratio=ratio,
                ),
            ]
        )

    def reason(self, reason: RecordReason) -> str:
        """What is wrong, said as what to type instead."""
        if reason is RecordReason.IMPLAUSIBLE:
            return self.fill(
                self.tr(
                    "The ratio must be between %(low)s and %(high)s; "
                    "check for a typo or swapped units."
                ),
                low=self.fmt.number(PLAUSIBLE_LOW),
                high=self.fmt.number(PLAUSIBLE_HIGH),
            )
        texts = {
            RecordReason.MISSING_SETUP: self.tr(
                "Say what was measured: a GPU, a model or a task, e.g. `A100 BERT`."
            ),
            RecordReason.MISSING_PAIR: self.tr(
                "Give both FP32 and mixed-precision step times (`fp32 420ms amp 190ms`), "
                "both throughputs (`fp32 367 img/s amp 1200 img/s`), or the ratio (`ratio 1.9`)."
            ),
            RecordReason.MISSING_UNIT: self.tr(
                "Add a unit: `ms` or `s` for step times, or e.g. `img/s` for throughputs."
            ),
            RecordReason.NOT_POSITIVE: self.tr(
                "Times, throughputs and ratios must be greater than zero."
            ),
            RecordReason.NOT_FINITE: self.tr("Use ordinary numbers, not NaN or infinity."),
            RecordReason.UNIT_MISMATCH: self.tr(
                "Both throughputs need the same unit, e.g. `img/s` for FP32 and for mixed."
            ),
            RecordReason.INCONSISTENT: self.tr(
                "The ratio you gave does not match your numbers; give one or the other."
            ),
        }
        return self.line(texts[reason])

    def history(self, page: RecordPage) -> str:
        if not page.total:
            return self.fill(
                self.tr("Your team has no measurements yet. Add one with `%(example)s`."),
                example=self.examples()[0],
            )
        if not page.records:
            return self.fill(
                self.tr("There is no page %(page)s; the last page is %(pages)s."),
                page=self.fmt.integer(page.page),
                pages=self.fmt.integer(page.pages),
            )
        head = self.fill(
            self.tr("*Team measurements* (%(count)s, page %(page)s of %(pages)s)"),
            count=self.fill(
                self.ntr("%(n)s record", "%(n)s records", page.total),
                n=self.fmt.integer(page.total),
            ),
            page=self.fmt.integer(page.page),
            pages=self.fmt.integer(page.pages),
        )
        return "\n".join([head, *(self.history_line(r) for r in page.records)])

    def history_line(self, record: Record) -> str:
        """#id · ratio · GPU · model · N GPUs · precision · who · when."""
        if record.model:
            what = self.iso(escape(record.model))
        else:
            what = self.family(record.family) if record.family else "—"
        parts = [
            self.iso(f"#{record.id}"),
            f"*{self.iso(self.ratio(record.ratio))}*",
            self.iso(escape(record.gpu)) if record.gpu else "—",
            what,
            self.gpus(record.num_gpus) if record.num_gpus else "—",
            self.iso(record.precision.upper()) if record.precision else "—",
            f"<@{record.user_id}>",
            self.when(record.created_at),
        ]
        return SEPARATOR.join(parts)

    def deleted(self, record_id: int) -> str:
        return self.fill(self.tr("Deleted record #%(id)s."), id=record_id)

    def delete_forbidden(self, record_id: int) -> str:
        return self.fill(
            self.tr("Only the person who recorded #%(id)s or a workspace admin can delete it."),
            id=record_id,
        )

    def not_found(self, record_id: int) -> str:
        return self.fill(
            self.tr("There is no record #%(id)s in this workspace; `history` lists them."),
            id=record_id,
        )

    def unavailable(self) -> str:
        """The database did not answer: say nothing changed, so a retry is safe."""
        return self.line(
            self.tr("Your team's measurements cannot be reached right now; nothing was changed.")
        )

    # -- Slack chrome (buttons, the modal, confirmations) -------------------------
    def labels(self) -> RecordLabels:
        """Plain-text labels for the Slack layer (Latin runs isolated in Arabic)."""
        tr = self.tr
        return RecordLabels(
            **{
                key: self.line(text)
                for key, text in {
                    "record_button": tr("Record my result"),
                    "modal_title": tr("Record a result"),
                    "submit": tr("Record"),
                    "close": tr("Cancel"),
                    "gpu": tr("GPU"),
                    "gpu_placeholder": tr("e.g. A100"),
                    "model": tr("Model or task"),
                    "model_placeholder": tr("e.g. BERT or image classification"),
                    "num_gpus": tr("Number of GPUs"),
                    "precision": tr("Mixed-precision type"),
                    "fp32": tr("FP32 result"),
                    "mixed": tr("Mixed-precision result"),
                    "result_hint": tr("A step time (420 ms) or a throughput (367 img/s)"),
                    "ratio": tr("Ratio, if you have no results to enter"),
                    "ratio_hint": tr("FP32 step time ÷ mixed-precision step time, e.g. 1.9"),
                    "newer": tr("Newer"),
                    "older": tr("Older"),
                    "delete": tr("Delete"),
                    "confirm_title": tr("Delete this record?"),
                    "confirm_keep": tr("Keep it"),
                }.items()
            }
        )

    def confirm_delete(self, record_id: int) -> str:
        return self.fill(
            self.tr("Record #%(id)s will be removed for the whole workspace."), id=record_id
        )

    def field_error(self, reasons: list[RecordReason]) -> str:
        """Modal errors are plain text: the same advice without code marks."""
        return " ".join(self.reason(r) for r in reasons).replace("`", "")


@dataclass(frozen=True)
class RecordLabels:
    record_button: str
    modal_title: str
    submit: str
    close: str
    gpu: str
    gpu_placeholder: str
    model: str
    model_placeholder: str
    num_gpus: str
    precision: str
    fp32: str
    mixed: str
    result_hint: str
    ratio: str
    ratio_hint: str
    newer: str
    older: str
    delete: str
    confirm_title: str
    confirm_keep: str
