"""Advice -> Reply: the answer in one language, short enough for a phone.

Every word goes through the gettext catalogs in ``locales/`` (plural forms
from the catalog headers, which Babel fills from CLDR), every number through
Babel. The reply is written twice by the same code: once as Slack mrkdwn
(bold, user text escaped) and once as plain text for the console and JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from bot.advice.notes import Note
from bot.advice.prediction import NAMES_SEPARATOR, TYPICAL_HIGH, TYPICAL_LOW
from bot.models import Advice, AdviceFactor, Kind, Lang, Reason, Reply, TimeUnit
from bot.rendering.cost import (
    cost_range_sentence,
    cost_sentence,
    cost_span,
    cost_span_sentence,
    price_detail,
)
from bot.rendering.grammar import Case, Worded, fill
from bot.rendering.i18n import translations
from bot.rendering.memory import memory_parts
from bot.rendering.numbers import (
    FSI,
    PDI,
    Digits,
    NumberFormat,
    duration,
    duration_span,
    isolate_latin,
    shown_seconds,
    split_shown,
)
from bot.rendering.precision import precision_parts

# Prediction factors said as sentences ahead of the notes, in this order.
_LEAD_SENTENCES = ("cpu_device", "run_evidence", "projects", "narrow_by")
# Small talk a new user opens with: answered by ``_first_question`` in two lines
# (a hello with one example, the typical speed-up, what a cost needs), not a thanks.
FIRST_QUESTION_TALK = frozenset(
    {"greeting", "speed_question", "cost_question", "definition_question"}
)
# Precisions the subject names ("ResNet-50 on A100 in BF16"): FP16 is what
# "mixed precision" means when unsaid.
NAMED_PRECISIONS = frozenset({"bf16", "fp8"})
# The notes line shows the first notes while it stays about one phone line.
NOTES_LINE_CHARS = 160
# Private-use characters stand in for formatted amounts while a line is isolated.
_SLOT_BASE = 0xE000


def render(advice: Advice, lang: Lang, *, digits: Digits | str = Digits.LATN) -> Reply:
    """Word ``advice`` in ``lang``; ``digits="arab"`` shows Arabic-Indic digits in Arabic."""
    digits = Digits(digits)
    slack = _Words(lang, digits, mrkdwn=True).compose(advice)
    plain = _Words(lang, digits, mrkdwn=False).compose(advice)
    # No blank lines inside one answer: the console separates answers with one.
    details = [plain.details_heading, *plain.details] if plain.details else []
    text = "\n".join([plain.summary, *plain.notes, *details])
    return Reply(
        lang=lang,
        kind=advice.kind,
        summary=slack.summary,
        notes=slack.notes,
        details=slack.details,
        text=text,
    )


@dataclass
class _Parts:
    summary: str
    notes: list[str]
    details: list[str]
    details_heading: str = ""


def phrases(lang: Lang, *, mrkdwn: bool) -> _Words:
    """The phrase helpers a reply is written with (for lines added after rendering:
    what was read, what a follow-up carried over), in Western digits as replies are."""
    return _Words(lang, Digits.LATN, mrkdwn=mrkdwn)


def escape(text: str) -> str:
    """Slack's three control characters, so echoed text can never ping or link."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class _Words:
    """One language, one digit style, one markup: the phrases of a reply."""

    def __init__(self, lang: Lang, digits: Digits, *, mrkdwn: bool) -> None:
        self.lang = lang
        self.mrkdwn = mrkdwn
        self.fmt = NumberFormat(lang, digits)
        catalog = translations(lang)
        self.catalog = catalog
        self._ = catalog.gettext
        self.ngettext = catalog.ngettext
        self._atoms: list[str] = []
        self.unit: TimeUnit | None = None  # the user's, set per answer

    # -- small helpers -------------------------------------------------------
    def bold(self, text: str) -> str:
        return f"*{text}*" if self.mrkdwn else text

    def echo(self, text: str) -> str:
        return escape(text) if self.mrkdwn else text

    def hours(
        self,
        value: float,
        *,
        as_given: bool = False,
        calendar: bool = False,
        case: Case = Case.NOMINATIVE,
        unit: TimeUnit | None | Literal["user"] = "user",
    ) -> str:
        """A time in the user's unit (or ``unit``); ``calendar`` adds days after many hours."""
        return duration(
            value,
            self.fmt,
            self.catalog,
            as_given=as_given,
            unit=self.unit if unit == "user" else unit,
            calendar=calendar,
            case=case,
        )

    def said(self, value: float, *, bold: bool = False, **options: Any) -> Worded:
        """:meth:`hours` worded once :meth:`fill` knows its place in the sentence."""
        return lambda case: (self.bold if bold else str)(self.hours(value, case=case, **options))

    def said_span(
        self, low: float, high: float | None, *, bold: bool = False, **options: Any
    ) -> Worded:
        """Both ends of a time said as a range ("15–20 hours", rule ``time_range``), or
        ``low`` alone (:meth:`said`) when there is no high end."""
        if high is None:
            return self.said(low, bold=bold, **options)
        unit = options.pop("unit", "user")
        options.pop("calendar", None)  # "(about 2 days)" after each end would crowd a range
        return lambda case: (self.bold if bold else str)(
            duration_span(
                low,
                high,
                self.fmt,
                self.catalog,
                unit=self.unit if unit == "user" else unit,
                case=case,
                **options,
            )
        )

    def fill(self, template: str, values: dict[str, object]) -> str:
        """``template % values``, each duration in the case its place gives it."""
        return fill(template, values, self.lang)

    def shown(self, value: float, *, as_given: bool = False) -> int:
        """The seconds :meth:`hours` says, so differences of said times add up."""
        return shown_seconds(value, as_given=as_given, unit=self.unit)

    def atom(self, text: str) -> str:
        """A formatted value (money) that Arabic isolation keeps whole, in one isolate.

        Babel writes "1,234.50 US$" with marks and a no-break space; isolating
        its pieces separately would split it, so a placeholder stands in for it
        until :meth:`line` has isolated the rest.
        """
        if self.lang is not Lang.AR:
            return text
        self._atoms.append(text)
        return chr(_SLOT_BASE + len(self._atoms) - 1)

    def line(self, text: str) -> str:
        if self.lang is not Lang.AR:
            return text
        text = isolate_latin(text, arab_digits=self.fmt.arab)
        for i, atom in enumerate(self._atoms):
            text = text.replace(chr(_SLOT_BASE + i), f"{FSI}{atom}{PDI}")
        return text

    def compose(self, advice: Advice) -> _Parts:
        build = {
            Kind.ESTIMATE: self._estimate,
            Kind.PRESET: self._preset,
            Kind.RANGE: self._range,
            Kind.ERROR: self._error,
            Kind.MEMORY: self._memory,
            Kind.PRECISION: self._precision,
            Kind.COST: self._cost,
        }.get(advice.kind, self._help)
        self.unit = advice.time_unit
        parts = build(advice)
        return _Parts(
            summary=self.line(parts.summary),
            notes=[self.line(n) for n in parts.notes],
            details=[self.line(d) for d in parts.details],
            details_heading=self._("Details:"),
        )

    # -- kinds ---------------------------------------------------------------
    def _estimate(self, a: Advice) -> _Parts:
        _ = self._
        if a.high_end is not None:
            return self._estimate_span(a, a.high_end)
        # The estimate and the saving, each from its unrounded value, add up to the FP32 time.
        split = split_shown(a.fp32_hours, a.mp_hours, self.unit)
        mp = self.said(split.part / 3600, bold=True, as_given=True, calendar=True, unit=split.unit)
        saved = split.rest
        if self.shown(a.mp_hours) >= self.shown(a.fp32_hours, as_given=True):
            # Rounding an estimate up ("1 minute and 30 seconds" at ratio 1 -> "2 minutes")
            # must not make it longer than the job itself: then it is said as the job.
            mp, saved = self.said(a.fp32_hours, bold=True, as_given=True, calendar=True), 0
        values = {
            "fp32": self.said(a.fp32_hours, bold=True, as_given=True),
            "mp": mp,
            "ratio": self.fmt.number(a.ratio),
            "percent": self.fmt.percent(a.saved_percent),
        }
        if saved <= 0 and a.saved_percent and a.saved_percent > 0:
            # Too little to show at this scale ("2 minutes → about 2 minutes"): the share.
            summary = _(
                "%(fp32)s in FP32 → about %(mp)s with mixed precision "
                "(ratio %(ratio)s, saves %(percent)s)"
            )
        elif saved <= 0:  # ratio 1 (or slower): no "saves 0 hours"
            summary = _(
                "%(fp32)s in FP32 → about %(mp)s with mixed precision (ratio %(ratio)s, no saving)"
            )
        else:
            values["saved"] = self.said(saved / 3600, as_given=True, unit=split.unit)
            summary = _(
                "%(fp32)s in FP32 → about %(mp)s with mixed precision "
                "(ratio %(ratio)s, saves %(saved)s, %(percent)s)"
            )
        summary = self.fill(summary, values)
        if a.model or a.gpu or a.family:  # a thread's or a button's setup stays in view
            summary = _("%(subject)s: %(answer)s") % {
                "subject": self.bold(self._subject(a)),
                "answer": summary,
            }
        return self._with_notes(summary, a, [])

    def _estimate_span(self, a: Advice, high: Advice) -> _Parts:
        """The user's ratio applied to both ends of an FP32 time said as a range ("30-40
        hours, 2x" → "15–20 hours"); the share saved is the same at both ends."""
        _ = self._
        values = {
            "fp32": self.said_span(a.fp32_hours, high.fp32_hours, bold=True, as_given=True),
            "mp": self.said_span(a.mp_hours, high.mp_hours, bold=True),
            "ratio": self.fmt.number(a.ratio),
            "percent": self.fmt.percent(a.saved_percent),
        }
        if a.saved_percent and a.saved_percent > 0:
            values["saved"] = self.said_span(a.saved_hours, high.saved_hours)
            summary = _(
                "%(fp32)s in FP32 → about %(mp)s with mixed precision "
                "(ratio %(ratio)s, saves %(saved)s, %(percent)s)"
            )
        else:
            summary = _(
                "%(fp32)s in FP32 → about %(mp)s with mixed precision (ratio %(ratio)s, no saving)"
            )
        summary = self.fill(summary, values)
        if a.model or a.gpu or a.family:
            summary = _("%(subject)s: %(answer)s") % {
                "subject": self.bold(self._subject(a)),
                "answer": summary,
            }
        return self._with_notes(summary, a, [])

    def _preset(self, a: Advice) -> _Parts:
        _ = self._
        # An FP32 time said as a range: each time at both ends (None without a range).
        high_fp32, high_mp = (
            (a.high_end.fp32_hours, a.high_end.mp_hours) if a.high_end else (None, None)
        )
        template = (
            _(
                "%(subject)s: %(fp32)s in FP32 (run as TF32) → about %(mp)s with mixed "
                "precision (ratio %(ratio)s, likely %(span)s; basis: %(basis)s)"
            )
            if a.baseline == "tf32"
            else _(
                "%(subject)s: %(fp32)s in FP32 → about %(mp)s with mixed precision "
                "(ratio %(ratio)s, likely %(span)s; basis: %(basis)s)"
            )
        )
        summary = self.fill(
            template,
            {
                "subject": self.bold(self._subject(a)),
                "fp32": self.said_span(a.fp32_hours, high_fp32, bold=True, as_given=True),
                "mp": self.said_span(a.mp_hours, high_mp, bold=True, calendar=True),
                "ratio": self.fmt.number(a.ratio),
                "span": self.fmt.span(a.ratio_low, a.ratio_high),
                "basis": self._basis(a.basis),
            },
        )
        likely = (
            _("Likely from %(low)s to %(high)s with mixed precision (saves %(percent)s).")
            if a.saved_percent >= 0
            else _(
                "Likely from %(low)s to %(high)s with mixed precision (takes %(percent)s longer)."
            )
        )
        # "from ... to ...": durations say "and" themselves ("8 hours and 15 minutes").
        values = {
            "low": self.said(a.mp_hours_low),
            "high": self.said((a.high_end or a).mp_hours_high),
            "percent": self.fmt.percent(abs(a.saved_percent)),
        }
        details = [self.fill(likely, values)]
        lead, evidence = self._evidence(a)
        return self._with_notes(summary, a, details + evidence, lead=lead)

    def _ratio(self, a: Advice) -> _Parts:
        """The ratio to expect for a named setup, asked without an FP32 time."""
        _ = self._
        summary = (
            _(
                "%(subject)s: mixed precision should run about %(ratio)s× as fast as a TF32 "
                "baseline (likely %(span)s; basis: %(basis)s)"
            )
            if a.baseline == "tf32"
            else _(
                "%(subject)s: mixed precision should run about %(ratio)s× as fast as FP32 "
                "(likely %(span)s; basis: %(basis)s)"
            )
        ) % {
            "subject": self.bold(self._subject(a)),
            "ratio": self.bold(self.fmt.number(a.ratio)),
            "span": self.fmt.span(a.ratio_low, a.ratio_high),
            "basis": self._basis(a.basis),
        }
        lead, evidence = self._evidence(a)
        return self._with_notes(summary, a, evidence, lead=lead)

    def _evidence(self, a: Advice) -> tuple[list[str], list[str]]:
        """(lead, details) for a predicted ratio: the team's own figure leads the
        visible notes, with the published one beside it; the other factors and the
        sources wait behind Details."""
        _ = self._
        team = [f for f in a.factors if f.code == "team_records"]
        # Realistic vs tuned, then what would narrow the range: sentences of their own.
        said = [f for f in a.factors if f.code in _LEAD_SENTENCES]
        details = [
            _("Why: %(reason)s.") % {"reason": self.factor(f)}
            for f in a.factors
            if f not in team and f not in said
        ]
        details += [_("Source: %(url)s") % {"url": url} for url in a.sources]
        if a.basis == "modelled":  # no published run of this setup: point at measuring it
            details.append(
                _(
                    "For your own model, run `mpbot predict --factory ...` (no GPU needed), "
                    "or `mpbot experiment` on the GPU."
                )
            )
        lead = [_("Why: %(reason)s.") % {"reason": self.factor(f)} for f in team]
        order = sorted(said, key=lambda f: _LEAD_SENTENCES.index(f.code))
        return lead + [self.factor(f) for f in order], details

    def _range(self, a: Advice) -> _Parts:
        template = self._(
            "%(fp32)s in FP32 → from %(low)s to %(high)s with mixed precision "
            "(typical ratio %(span)s)"
        )
        summary = self.fill(
            template,
            {
                "fp32": self.said_span(
                    a.fp32_hours, a.high_end and a.high_end.fp32_hours, bold=True, as_given=True
                ),
                "low": self.said(a.mp_hours_low, bold=True),
                "high": self.said((a.high_end or a).mp_hours_high, bold=True),
                "span": self.fmt.span(a.ratio_low, a.ratio_high),
            },
        )
        return self._with_notes(summary, a, [])

    def _cost(self, a: Advice) -> _Parts:
        """A whole run's cost asked with no FP32 time: the share of the bill mixed
        precision saves (``1 − 1/ratio``: the GPUs are billed for the hours the run
        takes), and the notes ask for the FP32 time that turns it into money."""
        _ = self._
        pct = self.fmt.percent
        low, high = a.facts.get("saved_percent_low"), a.facts.get("saved_percent_high")
        values: dict[str, object] = {}
        if a.ratio is None:  # nothing named: across the typical range
            summary = _(
                "Mixed precision usually cuts the bill by %(low)s–%(high)s (typical ratio "
                "%(span)s): the GPUs are billed for the hours the run takes."
            ) % {
                "low": self.bold(pct(float(low or 0))),
                "high": self.bold(pct(float(high or 0))),
                "span": self.fmt.span(a.ratio_low, a.ratio_high),
            }
            return self._with_notes(summary, a, [])
        values |= {
            "ratio": self.fmt.number(a.ratio),
            "percent": self.bold(pct(abs(a.saved_percent or 0))),
        }
        if a.ratio_low is None or a.ratio_high is None:  # the user's own ratio
            summary = _(
                "At a ratio of %(ratio)s, mixed precision cuts the bill by %(percent)s: the "
                "GPUs are billed for the hours the run takes."
            )
            return self._with_notes(summary % values, a, [])
        values |= {
            "subject": self.bold(self._subject(a)),
            "span": self.fmt.span(a.ratio_low, a.ratio_high),
            "basis": self._basis(a.basis),
            "low": pct(float(low or 0)),
            "high": pct(float(high or 0)),
        }
        if (a.saved_percent or 0) < 0:
            summary = _(
                "%(subject)s: mixed precision is expected to be slower here, so the bill "
                "grows by about %(percent)s (ratio %(ratio)s, likely %(span)s; basis: %(basis)s)"
            )
        else:
            summary = _(
                "%(subject)s: mixed precision should cut the bill by about %(percent)s (ratio "
                "%(ratio)s, likely %(span)s, so %(low)s to %(high)s; basis: %(basis)s)"
            )
        lead, evidence = self._evidence(a)
        return self._with_notes(summary % values, a, evidence, lead=lead)

    def _memory(self, a: Advice) -> _Parts:
        if a.memory is None:
            return self._help(a)
        summary, notes, details = memory_parts(
            self, a.memory, memory_given=bool(a.facts.get("gpu_memory_given"))
        )
        details += [self._("Source: %(url)s") % {"url": url} for url in a.sources]
        return _Parts(summary, notes, details)

    def _precision(self, a: Advice) -> _Parts:
        summary, notes, details = precision_parts(self, a)
        details += [self._("Source: %(url)s") % {"url": url} for url in a.sources]
        return _Parts(summary, notes, details)

    def _help(self, a: Advice) -> _Parts:
        _ = self._
        if a.ratio is not None:  # a question naming a setup: the ratio to expect
            return self._ratio(a)
        if Note.SMALL_TALK in a.notes:
            talk = str(a.facts.get("talk", "thanks"))
            if talk in FIRST_QUESTION_TALK:
                return self._first_question(talk, a)
            return _Parts(self._small_talk(talk), [], [])
        if Note.LANG_SET in a.notes:
            chosen = Lang(str(a.facts.get("lang", self.lang.value)))
            summary = (
                _("Done: I will answer in English.")
                if chosen is Lang.EN
                else _("Done: I will answer in Arabic.")
            )
            return _Parts(summary, [], [])
        if "team_command" in a.facts:  # record/history/delete that skipped the records service
            summary = _(
                "That is a team-measurements command (`record`, `history`, `delete N`), "
                "not a question: nothing was estimated. Send it to the bot in Slack, "
                "`mpbot console` or `mpbot ask`."
            )
            return _Parts(summary, [], [])
        summary = _(
            "I estimate training time with mixed precision: FP32 time ÷ ratio "
            "(the ratio is usually 1.2–2.5)."
        )
        notes = [_("Try `/mpestimate 100 2` or `/mpestimate 36h A100 BERT`.")]
        details = [
            _("`/mpestimate 100 2`: 100 hours in FP32 with ratio 2."),
            _("`/mpestimate 36h A100 BERT`: a suggested ratio for BERT on A100."),
            _("`/mpestimate A100 BERT` or `what speedup for BERT on A100?`: that ratio alone."),
            _("`@mpestimate 3 days on V100, ratio 2.1?`: ask in a channel or a direct message."),
            _("`/mpestimate ٤٨ ساعة ٢`: Arabic works too (48 hours, ratio 2)."),
            _("`/mpestimate memory 7B adam on A100 80GB`: memory per regime and whether it fits."),
            _(
                "`/mpestimate QLoRA 13B on a 24GB 4090?`, `llama 7b inference in fp16 on a "
                "4090`: LoRA, QLoRA and inference memory too."
            ),
            _("`/mpestimate is bf16 better than fp16 on A100?`: BF16 or FP16, and loss scaling."),
            _("`/mpestimate 100h ratio 2 at $2.5 per GPU-hour on 8 GPUs`: the cost of both runs."),
            _(
                "`/mpestimate record A100 BERT fp32 420ms amp 190ms`: save your team's measured "
                "ratio; later estimates for that setup use it first."
            ),
            _("`/mpestimate history` and `/mpestimate delete 12`: list or remove measurements."),
            _(
                "`mpbot experiment --model bert` in a terminal on your GPU: measure your real "
                "ratio; it prints the line that records it."
            ),
            _(
                "`mpbot predict --model bert --gpu A100` in a terminal: predict the ratio on a "
                "GPU you do not have (no GPU needed)."
            ),
            _("`/mpestimate lang ar` or `lang en`: choose the reply language."),
            _("`/mpestimate help`: this message."),
        ]
        return _Parts(summary, notes, details)

    def _error(self, a: Advice) -> _Parts:
        _ = self._
        try_this = _("Try: `/mpestimate 100 2` (100 hours in FP32, ratio 2).")
        reason = a.reason
        if reason is Reason.AMBIGUOUS:
            numbers = self.fmt.join([self.echo(c) for c in a.candidates]) or "?"
            summary = _("I saw several numbers (%(numbers)s): which one do you mean?") % {
                "numbers": numbers
            }
            note = _("Write one FP32 time and at most one ratio, e.g. `/mpestimate 100h ratio 2`.")
            return _Parts(summary, [note], [])
        if reason is Reason.RATIO_BELOW_ONE:
            return self._slowdown(a, try_this)
        if reason is Reason.TOO_LARGE and a.facts.get("ratio_limit"):
            summary = _(
                "That ratio is not realistic: mixed precision speeds training up by at most "
                "about %(limit)s×, usually %(span)s×."
            ) % {
                "limit": self.fmt.number(float(a.facts["ratio_limit"] or 0)),
                "span": self.fmt.span(TYPICAL_LOW, TYPICAL_HIGH),
            }
            return _Parts(summary, [try_this], [])
        if reason is Reason.UNKNOWN_LANGUAGE:
            summary = _("I answer in Arabic or English: `lang ar` or `lang en`.")
            return _Parts(summary, [], [])
        if reason is Reason.NO_RECORD_ID:
            summary = _("`delete` needs a record number, e.g. `delete 12`.")
            return _Parts(
                summary, [_("`history` lists your team's records with their numbers.")], []
            )
        if reason is Reason.TOO_LONG:
            summary = _("That message is too long: I read at most %(limit)s characters.") % {
                "limit": self.fmt.integer(int(a.facts.get("limit") or 0))
            }
            return _Parts(summary, [try_this], [])
        if reason is Reason.NO_PARAMS:
            summary = _("I need the model's parameter count to estimate memory.")
            note = _("Try: `/mpestimate memory 7B adam on A100 80GB` (also 340M, 1.5B or 7e9).")
            return _Parts(summary, [note], [])
        if reason is Reason.UNKNOWN_OPTIMIZER:
            summary = (
                _(
                    "I do not know the memory of “%(optimizer)s” yet: I know Adam/AdamW, SGD "
                    "with momentum and plain SGD."
                )
                % {"optimizer": self.echo(str(a.facts["optimizer"]))}
                if a.facts.get("optimizer")
                else _("I know the memory of Adam/AdamW, SGD with momentum and plain SGD.")
            )
            note = _("Try: `/mpestimate memory 7B adam on A100 80GB` or `memory 340M sgd`.")
            return _Parts(summary, [note], [])
        summary = {
            Reason.RATIO_NOT_POSITIVE: _("The ratio must be greater than zero."),
            Reason.TIME_NOT_POSITIVE: _("The FP32 training time must be greater than zero."),
            Reason.NOT_FINITE: _("That number is not finite: give a real FP32 time."),
            Reason.TOO_LARGE: _(
                "That number is too large: the FP32 time must be under 100 years, the "
                "ratio realistic, and parameter counts, GPU counts and prices those of a real job."
            ),
            Reason.NO_NUMBERS: _("I need the FP32 training time to estimate anything."),
        }.get(reason, _("I could not read an estimate request."))
        if reason is Reason.NO_NUMBERS and isinstance(a.facts.get("ratio"), int | float):
            return self._ratio_alone(float(a.facts["ratio"]))
        if reason is Reason.NO_NUMBERS and a.ratio is not None:
            # The setup was named: say which ratio to expect; the notes say how to add the time.
            expected = self._ratio(a)
            return _Parts(summary, [expected.summary, *expected.notes], expected.details)
        if reason is Reason.NO_NUMBERS:
            try_this = _("Try: `/mpestimate 100 2` or `/mpestimate 36h A100 BERT`.")
        return _Parts(summary, [try_this], [])

    def _ratio_alone(self, ratio: float) -> _Parts:
        """The user's own ratio (said, or worked out from two step times) without an
        FP32 time: said back, and how to add the time."""
        _ = self._
        number = self.fmt.number(ratio)
        summary = _("Your ratio: %(ratio)s× (mixed precision runs %(ratio)s× as fast as FP32).")
        example = self.echo(f"/mpestimate 36h {ratio:.3g}")
        note = _("Add your FP32 training time to get hours, e.g. `%(example)s`.")
        return _Parts(summary % {"ratio": number}, [note % {"example": example}], [])

    # -- notes, factors, names -----------------------------------------------
    def _slowdown(self, a: Advice, try_this: str) -> _Parts:
        """A ratio below 1 is refused as an estimate, but a slowdown the user reported
        with their FP32 time still gets what that time becomes, and no usage hint."""
        _ = self._
        ratio, fp32, mp = (a.facts.get(k) for k in ("ratio", "fp32_hours", "mp_hours"))
        note = [self.note(Note.SLOWDOWN, a)]
        if not isinstance(ratio, int | float):
            summary = _("A ratio below 1 means mixed precision would be slower, not faster.")
            return _Parts(summary, note, [try_this])
        values = {"ratio": self.fmt.number(float(ratio))}
        if isinstance(fp32, int | float) and isinstance(mp, int | float):
            values |= {"fp32": self.said(fp32, as_given=True), "mp": self.said(mp)}
            summary = _(
                "At a ratio of %(ratio)s mixed precision is slower than FP32: "
                "%(fp32)s in FP32 would take about %(mp)s."
            )
            return _Parts(self.fill(summary, values), note, [])
        summary = _("A ratio of %(ratio)s means mixed precision would be slower, not faster.")
        return _Parts(summary % values, note, [try_this])

    def _with_notes(
        self, summary: str, a: Advice, details: list[str], *, lead: list[str] | None = None
    ) -> _Parts:
        """The notes line: the cost first when a price was given, then the most relevant notes."""
        # A predicted slowdown leads even the realistic/tuned sentence: it matters more.
        first = [c for c in a.notes if c == Note.EXPECTED_SLOWDOWN]
        rest = [c for c in a.notes if c not in first]
        worded = [
            *(self.note(code, a) for code in first),
            *(lead or []),
            *(self.note(code, a) for code in rest),
        ]
        if a.high_end is not None and (span := cost_span(a, a.high_end)) is not None:
            worded.insert(0, cost_span_sentence(self, *span))
            details = [price_detail(self, span[0]), *details]
        elif a.cost is not None:
            worded.insert(0, cost_sentence(self, a.cost))
            details = [price_detail(self, a.cost), *details]
        elif a.cost_low is not None and a.cost_high is not None:
            worded.insert(0, cost_range_sentence(self, a.cost_low, a.cost_high))
            details = [price_detail(self, a.cost_low), *details]
        head = worded[:1]
        for extra in worded[1:]:
            if len(" ".join([*head, extra])) > NOTES_LINE_CHARS:
                break
            head.append(extra)
        notes_line = [" ".join(head)] if head else []
        return _Parts(summary, notes_line, details + worded[len(head) :])

    def note(self, code: str, a: Advice) -> str:
        _ = self._
        f = a.facts
        num = self.fmt.number
        match code:
            case Note.THEORETICAL:
                return _("This is a rule-of-thumb estimate, not a guarantee.")
            case Note.MEMORY:
                return _(
                    "Activations need about half as much memory as in FP32, so a larger batch "
                    "may fit and speed things up more; the model states do not shrink (with "
                    "Adam 16 bytes per parameter in FP32, 18 with torch.amp's 16-bit weight copy)."
                )
            case Note.LOSS_SCALING:
                return _(
                    "FP16 needs loss (gradient) scaling, e.g. GradScaler; BF16 usually does not."
                )
            case Note.VALIDATE:
                return _(
                    "To measure your ratio: same batch size, warm up %(warmup)s steps, then time "
                    "%(steps)s steady steps in FP32 and in mixed precision; ratio = FP32 step "
                    "time ÷ mixed step time."
                ) % {
                    "warmup": self.fmt.integer(int(f.get("warmup_steps") or 20)),
                    "steps": self.fmt.integer(int(f.get("timed_steps") or 100)),
                }
            case Note.FP8_SCALING:
                return _(
                    "FP8 (8-bit floating point) needs per-tensor scaling, e.g. NVIDIA "
                    "Transformer Engine, and runs only on Hopper or Ada GPUs (H100, L4, L40S, "
                    "RTX 4090) and newer."
                )
            case Note.EXPECTED_SLOWDOWN:
                return _(
                    "Mixed precision is expected to be slower here: memory-bound or recurrent "
                    "layers, small batches or a TF32 baseline gain little and still pay for "
                    "casting; measure both before switching."
                )
            case Note.DOUBLE_CHECK:
                return _(
                    "A ratio above %(ceiling)s is more than usual: double-check it with a short "
                    "measurement."
                ) % {"ceiling": num(float(f.get("double_check_above") or 2.5))}
            case Note.RESNET50_V100:
                if a.ratio is not None and a.basis != "given":
                    # The figure above is already NVIDIA's: no second number beside it.
                    return _(
                        "ResNet-50 on V100: NVIDIA's published runs doubled the batch and used "
                        "channels-last in the mixed-precision run; with the same batch in both "
                        "runs expect less."
                    )
                return _(
                    "ResNet-50 on V100: the rule of thumb is about %(rule)s; NVIDIA's published "
                    "runs show %(span)s, but with a doubled batch and channels-last in the "
                    "mixed-precision run."
                ) % {
                    "rule": num(float(f.get("rule_of_thumb") or 2.1)),
                    "span": self.fmt.span(
                        float(f.get("published_low") or 2.9), float(f.get("published_high") or 3.6)
                    ),
                }
            case Note.NO_MEASUREMENT:
                if a.basis == "modelled":
                    return _(
                        "No published measurement matches this setup: the ratio is modelled "
                        "from similar ones."
                    )
                return _(
                    "No published measurement matches this setup, so the typical range is used."
                )
            case Note.RATIO_GUIDE:
                return _(
                    "To pick a ratio: large batches on Tensor Core GPUs and conv or transformer "
                    "models sit near the top; small batches, GPUs without Tensor Cores, TF32 "
                    "baselines (A100, H100) and RNN- or embedding-heavy models near the bottom."
                )
            case Note.SLOWDOWN:
                return _(
                    "That usually comes from small batches or layers, a GPU without Tensor "
                    "Cores, casting overhead, or an input-bound data pipeline."
                )
            case Note.PRICE_UNREADABLE:
                return _(
                    "I could not price this in “%(currency)s”: write an amount with a currency "
                    "such as $, €, SAR, AED, EGP, QAR or KWD."
                ) % {"currency": self.echo(str(f.get("currency") or ""))}
            case Note.ADD_FP32_TIME:
                example = " ".join(["/mpestimate 36h", *filter(None, (a.gpu, a.model))])
                return _("Add your FP32 training time to get hours, e.g. `%(example)s`.") % {
                    "example": self.echo(example)
                }
            case Note.WHICH_NUMBER:
                return _("Which number is the FP32 time, and which the ratio?")
            case Note.ADD_TIME_FOR_MONEY:
                return _(
                    "Add your FP32 training time to get the amounts, e.g. “it takes 36 hours "
                    "in FP32”."
                )
        return ""

    def factor(self, factor: AdviceFactor) -> str:
        """One short clause per prediction factor, with its parameters."""
        _ = self._
        p = factor.params

        def name(key: str) -> str:
            return self.echo(str(p.get(key, "")))

        def number(key: str) -> float:
            try:
                return float(p.get(key, 0))
            except (TypeError, ValueError):
                return 0.0

        def count(key: str) -> int:
            return int(number(key))

        def listed(key: str) -> str:
            """ "BERT and GPT-2" / "BERT وGPT-2": a list of names joined the reader's way."""
            names = [n for n in str(p.get(key, "")).split(NAMES_SEPARATOR) if n]
            return self.fmt.join([self.echo(n) for n in names])

        def runs_of() -> str:
            """ "BERT on A100": which models and GPUs the runs were."""
            models, gpus = listed("models"), listed("gpus")
            if models and gpus:
                return _("%(model)s on %(gpu)s") % {"model": models, "gpu": gpus}
            return models or gpus

        match factor.code:
            case "measured_match":
                n = count("n")
                text = self.ngettext(
                    "matches %(n)s published measurement", "matches %(n)s published measurements", n
                ) % {"n": self.fmt.integer(n)}
                return f"{text} ({runs_of()})" if runs_of() else text
            case "memory_bound":
                return _(
                    "recurrent and embedding-heavy models are memory-bound, so Tensor Cores help "
                    "them less: about %(shift)s of the usual ratio"
                ) % {"shift": self.fmt.number(number("shift")) + "×"}
            case "framework":
                if count("matched"):
                    return _("only the %(framework)s runs are used") % {
                        "framework": name("framework")
                    }
                return _(
                    "no published %(framework)s runs of this model, so the other frameworks' are used"
                ) % {"framework": name("framework")}
            case "team_records":
                n = count("n")
                text = self.ngettext(
                    "your team measured %(ratio)s× in %(n)s run",
                    "your team measured %(ratio)s× in %(n)s runs",
                    n,
                ) % {"ratio": self.fmt.number(number("ratio")), "n": self.fmt.integer(n)}
                if listed("models"):  # "in 2 runs of ResNet-50 on V100"
                    text += " " + _("of %(setup)s") % {"setup": runs_of()}
                elif listed("gpus"):
                    text += " " + _("on %(gpu)s") % {"gpu": listed("gpus")}
                if number("reference_ratio"):
                    text += " " + _("(%(basis)s: %(ratio)s×)") % {
                        "basis": self._basis(str(p.get("reference_basis", ""))),
                        "ratio": self.fmt.number(number("reference_ratio")),
                    }
                return text
            case "gpu_generation":
                values = {"gpu": name("gpu"), "architecture": name("architecture")}
                if number("peak_ratio") and p.get("bits") == 8:
                    return _(
                        "%(gpu)s is from the %(architecture)s generation; its 8-bit (FP8) "
                        "Tensor Core peak is %(peak)s× its baseline rate"
                    ) % {**values, "peak": self.fmt.number(number("peak_ratio"))}
                if number("peak_ratio"):
                    return _(
                        "%(gpu)s is from the %(architecture)s generation; its 16-bit Tensor "
                        "Core peak is %(peak)s× its baseline rate"
                    ) % {**values, "peak": self.fmt.number(number("peak_ratio"))}
                return _("%(gpu)s is from the %(architecture)s generation") % values
            case "no_tensor_cores":
                if count("fast_fp16"):
                    return _(
                        "%(gpu)s has no Tensor Cores but runs FP16 at twice its FP32 rate on "
                        "its ordinary cores: expect a modest gain at best (the casts still "
                        "cost time); mixed precision also saves memory there"
                    ) % {"gpu": name("gpu")}
                return _(
                    "%(gpu)s has no Tensor Cores: FP16 runs on its ordinary cores, so expect "
                    "about 1× or a slowdown (the casts still cost time); mixed precision "
                    "mainly saves memory there"
                ) % {"gpu": name("gpu")}
            case "cpu_device":
                return _(
                    "On a CPU, mixed precision (BF16 autocast) is faster only where the CPU has "
                    "BF16 instructions (AVX-512 BF16 or AMX: Intel Xeon 3rd generation or newer, "
                    "AMD Zen 4 or newer): about %(gain)s× in published runs; elsewhere it is "
                    "usually slower. Check with `lscpu | grep -E 'avx512_bf16|amx_bf16'`."
                ) % {"gain": self.fmt.span(number("gain_low"), number("gain_high"))}
            case "broken_setups":
                return _(
                    "what projects report reaches this low because %(framework)s projects "
                    "often report broken setups (a mixed-precision policy not applied, a build "
                    "without FP16 kernels) that run several times slower: check the first "
                    "steps' speed before a long run"
                ) % {"framework": name("framework")}
            case "unknown_gpu":
                return _(
                    "%(gpu)s is not in my GPU table, so its ratio is unknown: the range is "
                    "the one for an unnamed GPU"
                ) % {"gpu": name("gpu")}
            case "projects":
                return _(
                    "That is for a run that keeps the GPU busy; projects report "
                    "%(span)s, lower when data loading, small batches or CPU-side steps make "
                    "the GPU wait: check that GPU utilisation stays near 100%% in nvidia-smi."
                ) % {"span": self.fmt.span(number("low"), number("high"))}
            case "run_evidence":
                return self.run_evidence(str(p.get("run", "")))
            case "narrow_by":
                return _(
                    "What would narrow this most: %(fact)s; then measure it with "
                    "`mpbot experiment`."
                ) % {"fact": self.narrowing_fact(str(p.get("fact", "")))}
            case "tf32_baseline":
                text = {
                    "assumed": _(
                        "on %(gpu)s the FP32 baseline is assumed to run in TF32 (NGC "
                        "containers, TensorFlow and JAX do; stock PyTorch only for "
                        "convolutions), which makes the ratio smaller"
                    ),
                    "pytorch_convs": _(
                        "on %(gpu)s stock PyTorch runs convolutions in TF32, so the baseline "
                        "is TF32, which makes the ratio smaller"
                    ),
                    "framework": _(
                        "on %(gpu)s the framework runs FP32 in TF32 by default, so the "
                        "baseline is TF32, which makes the ratio smaller"
                    ),
                }.get(
                    str(p.get("why", "")),
                    _("the baseline on %(gpu)s is TF32, which makes the ratio smaller"),
                ) % {"gpu": name("gpu")}
                if number("fp32_ratio"):
                    text += _("; against strict FP32 it would be about %(ratio)s×") % {
                        "ratio": self.fmt.number(number("fp32_ratio"))
                    }
                return text
            case "strict_fp32_baseline":
                text = (
                    _(
                        "on %(gpu)s stock PyTorch (1.12 and later) runs matmuls in strict "
                        "FP32, so the baseline is strict FP32, which makes the ratio larger"
                    )
                    if p.get("why") == "pytorch_matmuls"
                    else _(
                        "the baseline on %(gpu)s is strict FP32 (TF32 off), which makes the "
                        "ratio larger"
                    )
                ) % {"gpu": name("gpu")}
                if number("tf32_ratio"):
                    text += _("; against a TF32 baseline it would be about %(ratio)s×") % {
                        "ratio": self.fmt.number(number("tf32_ratio"))
                    }
                return text
            case "multi_gpu":
                n = count("num_gpus")
                return self.ngettext(
                    "%(n)s GPU: communication between GPUs usually makes the ratio smaller",
                    "%(n)s GPUs: communication between GPUs usually makes the ratio smaller",
                    n,
                ) % {"n": self.fmt.integer(n)}
            case "larger_amp_batch":
                if count("published"):
                    return _(
                        "the published runs used batch %(fp32)s in FP32 and %(amp)s with mixed "
                        "precision: a larger batch raises the ratio"
                    ) % {"fp32": name("batch_fp32"), "amp": name("batch_amp")}
                return _(
                    "batch %(fp32)s in FP32 vs %(amp)s with mixed precision: the larger batch "
                    "raises the ratio"
                ) % {"fp32": name("batch_fp32"), "amp": name("batch_amp")}
            case "precision":
                precision = {"precision": name("precision").upper()}
                if "supported" in p and not count("supported"):
                    if p.get("instead"):
                        return _(
                            "%(precision)s is not accelerated on this GPU, so the estimate "
                            "assumes %(instead)s"
                        ) % {**precision, "instead": name("instead").upper()}
                    return _("%(precision)s is not accelerated on this GPU") % precision
                return _("computes in %(precision)s") % precision
            case "family_prior":
                return _("typical of %(family)s models") % {"family": self.family(p.get("family"))}
            case "typical":
                return _("nothing specific is known, so the typical range %(span)s applies") % {
                    "span": self.fmt.span(TYPICAL_LOW, TYPICAL_HIGH)
                }
        return self.echo(str(factor.code))

    def run_evidence(self, run: str) -> str:
        """What the user said about the run, and what it did to the figure."""
        _ = self._
        if run == "busy":
            return _("Your run keeps the GPU busy, so this is the figure to expect.")
        return {
            "input_bound": _(
                "Your run waits on data loading or the CPU, so this is what such projects "
                "report: the GPU-bound part speeds up, the wait does not."
            ),
            "small_model": _(
                "A small model leaves the GPU waiting on kernel launches and the input "
                "pipeline, so this is what such projects report."
            ),
            "pure_fp16": _(
                "Hand-rolled pure FP16 (.half()) runs often lose time to casts and unstable "
                "steps, so this is what such projects report; torch.amp usually does better."
            ),
        }.get(run, "")

    def narrowing_fact(self, fact: str) -> str:
        """The unknown the prediction names as the one that would narrow it most."""
        _ = self._
        return {
            "batch": _("your batch size in FP32 and with mixed precision"),
            "baseline": _("whether your FP32 baseline runs in TF32 or strict FP32"),
            "gpu": _("which GPU you train on"),
            "model": _("which model you train"),
        }.get(
            fact,
            _(
                "whether your FP32 run keeps the GPU busy (utilisation near 100%%, not "
                "waiting on data loading)"
            )
            % {},  # python-format: "%%" is a literal percent sign only once formatted
        )

    def family(self, code: object) -> str:
        _ = self._
        names = {
            "image_classification": _("image classification"),
            "detection": _("object detection"),
            "segmentation": _("segmentation"),
            "language_model": _("language"),
            "translation": _("translation"),
            "speech_recognition": _("speech recognition"),
            "tts": _("text-to-speech"),
            "recommender": _("recommender"),
            "time_series": _("time-series"),
            "graph": _("graph and molecule"),
        }
        return names.get(str(code), self.echo(str(code)))

    def _basis(self, basis: str | None) -> str:
        _ = self._
        return {
            "measured": _("published measurements"),
            "measured_realistic": _("published measurements, less what real projects lose"),
            "team": _("your team's measurements"),
            "modelled": _("modelled from GPU, task and setup"),
            "reported": _("published CPU runs and reports"),
            "given": _("your ratio"),
        }.get(basis or "", _("the typical range"))

    def _first_question(self, talk: str, a: Advice) -> _Parts:
        """A new user's first words: a hello with one example, the typical speed-up,
        or what a cost needs; two lines, never the whole usage."""
        _ = self._
        if talk == "greeting":
            summary = _("Hi! I estimate how much faster training gets with mixed precision.")
            note = _(
                "Send your FP32 training time and a ratio, e.g. `/mpestimate 100 2` "
                "(100 hours in FP32, ratio 2); `help` lists the rest."
            )
        elif talk == "definition_question":
            summary = _(
                "Mixed precision runs most of the training math in FP16 or BF16 instead of "
                "FP32, keeps FP32 master weights and scales the loss so small gradients do not "
                "underflow; on GPUs with Tensor Cores (Volta and newer) it usually trains "
                "%(low)s–%(high)s× as fast and needs less activation memory."
            ) % {
                "low": self.fmt.number(float(a.facts["low"])),
                "high": self.fmt.number(float(a.facts["high"])),
            }
            note = _(
                "Send your FP32 training time for an estimate, e.g. `/mpestimate 100 2` "
                "(100 hours in FP32, ratio 2); `help` lists the rest."
            )
        elif talk == "cost_question":
            summary = _(
                "To work out the cost I need the FP32 training time and the price per hour."
            )
            note = _("Try: `/mpestimate 100h ratio 2 at $2.5 per GPU-hour on 8 GPUs`.")
        else:
            f = a.facts
            summary = _(
                "Mixed precision usually trains %(low)s–%(high)s× as fast as FP32; published "
                "runs of %(model)s on %(gpu)s reach about %(example)s×."
            ) % {
                "low": self.fmt.number(float(f["low"])),
                "high": self.fmt.number(float(f["high"])),
                "example": self.fmt.number(float(f["example_ratio"])),
                "model": self.echo(str(f["example_model"])),
                "gpu": self.echo(str(f["example_gpu"])),
            }
            note = _(
                "For your job, name the GPU and model (`what speedup for BERT on A100?`) "
                "or add your FP32 time (`/mpestimate 36h A100 BERT`)."
            )
        return _Parts(summary, [note], [])

    def _small_talk(self, talk: str) -> str:
        """One line back, in kind: welcome for thanks, a wish for a wish, a smile for a reaction."""
        if talk == "wellness":
            return self._("And to you! Ask me another estimate any time.")
        if talk == "reaction":
            return self._("Glad it helps. Ask me another estimate any time.")
        if talk == "off_topic":
            return self._(
                "I estimate how much faster training gets with mixed precision,"
                " e.g. `/mpestimate 100 2` (100 hours in FP32, ratio 2)."
            )
        return self._("You're welcome — ask me another estimate any time.")

    def _subject(self, a: Advice) -> str:
        """What the answer is about: the model, else its task ("object detection
        models", for a YOLO the data has no rows of), on the GPU."""
        model, gpu = self.echo(a.model or ""), self.echo(a.gpu or "")
        if gpu and a.num_gpus and a.num_gpus > 1:  # "8 × V100": the count the estimate is for
            gpu = self._("%(count)s × %(gpu)s") % {
                "count": self.fmt.integer(a.num_gpus),
                "gpu": gpu,
            }
        if not model and a.family:
            model = self._("%(family)s models") % {"family": self.family(a.family)}
        if model and gpu:
            subject = self._("%(model)s on %(gpu)s") % {"model": model, "gpu": gpu}
        elif not (model or gpu) and a.framework:
            subject = self._("%(framework)s projects") % {"framework": self.echo(a.framework)}
        else:
            subject = model or gpu or self._("Your setup")
        if a.precision in NAMED_PRECISIONS:
            subject = self._("%(subject)s in %(precision)s") % {
                "subject": subject,
                "precision": self.echo(a.precision.upper()),
            }
        return subject[:1].upper() + subject[1:]  # it leads the reply: "Language models on A100"
