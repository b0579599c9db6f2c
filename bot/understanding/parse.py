"""The grammar: which number is the FP32 time, which the ratio, and what was asked.

Passes run in a fixed order, each marking the tokens it takes so a later pass
can never reuse them: names (V100, ResNet-50), setup numbers (8 GPUs, batch
256, CUDA 12.1, prices), durations (100 h, يومين), ratio markers and phrases
(2x, 40% faster, أسرع بمرتين), then numbers labelled in words ("ratio 2",
"النسبة ٢", "FP32 time: 100"), and last, in a bare slash command, position
(``100 2`` = 100 hours, ratio 2). What is left decides the intent and the
reason code. Nothing here is specific to one sentence.

The rules it calls last live beside it: ``position.py`` (``position``,
``thread_lone_ratio``), ``fp32_and_mixed.py`` (``fp32_and_mixed_times``) and
``questions.py`` (what a message without numbers asks).
"""

from __future__ import annotations

import math
import re

from bot.advice.catalog import family_of_model
from bot.models import (
    HOURS_PER_UNIT,
    MAX_MESSAGE_CHARS,
    Channel,
    Duration,
    Intent,
    Lang,
    Query,
    Reason,
    TimeUnit,
)
from bot.understanding.context import Context, mark_context, sized_as_experts
from bot.understanding.limits import reason_for, refuse_absurd_setup
from bot.understanding.memory_words import (
    asks_memory_by_method,
    catalog_params,
    continues_memory,
    memory_setup,
)
from bot.understanding.questions import (
    asks_if_it_fits,
    sized_on_gpu,
    with_unused,
    without_numbers,
)
from bot.understanding.resolving.candidates import RATIO, TIME, Candidate
from bot.understanding.resolving.resolve import resolve
from bot.understanding.rules.alternatives import alike_words_offered, offers_alternatives
from bot.understanding.rules.labels import read_labels
from bot.understanding.rules.names.name_rules import SIZES as CARD_SIZES
from bot.understanding.rules.names.names import (
    Names,
    card_size,
    find_names,
    memory_size_alone,
    variant_size_after,
)
from bot.understanding.rules.rate.rate_precision import precision_arrows
from bot.understanding.rules.rate.rates import (
    progress_clock,
    progress_lines,
    progress_readouts,
    step_rate,
)
from bot.understanding.rules.ratio.ratios import RatioCand, find_ratios
from bot.understanding.rules.record.record_command import (
    DeleteCommand,
    HistoryCommand,
    RecordCommand,
    is_delete_without_id,
    read_command,
)
from bot.understanding.rules.setup.setting_words import in_setting_phrase, setting_words_read
from bot.understanding.rules.talk.first_questions import greeting
from bot.understanding.rules.talk.language_request import language_request
from bot.understanding.rules.talk.small_talk import small_talk_kind
from bot.understanding.rules.time.durations import Quantity, find_durations
from bot.understanding.rules.time.fp32_and_mixed import (
    epoch_time_change,
    fp32_and_mixed,
    measured_pair_and_job,
)
from bot.understanding.rules.time.other_durations import asks_run_total, log_epochs
from bot.understanding.rules.time.own_result import own_results
from bot.understanding.rules.time.position import by_alternatives, by_position, lone_ratio
from bot.understanding.rules.time.time_saved import time_saved
from bot.understanding.text.chatter import strip_chatter
from bot.understanding.text.language import detect_language
from bot.understanding.text.normalise import normalise
from bot.understanding.text.tokens import NUM, WORD, Token, tokenize
from bot.understanding.text.tokens import word_in as _is
from bot.understanding.values.lexicon import (
    ARCHITECTURE_MODELS,
    EPOCH_NOUNS,
    FIT_WORDS,
    MEMORY_WORDS,
    TECH_WORDS,
    TIME_LABELS,
    UNIT_CODES,
    UNIT_HOURS,
)
from bot.understanding.values.numbers import merge_number_words
from bot.understanding.values.rate_units import merge_rates
from bot.understanding.words import table

# Longer messages are refused before any work is done (Slack's own limit for
# a slash command is 4,000 characters too).
MAX_CHARS = MAX_MESSAGE_CHARS  # the limit the too_long reply quotes

# The unit a duration is kept in: its own, or the nearest the replies use
# (seconds as minutes, months as days), scaled from the one unit table.
_UNITS = {"sec": TimeUnit.MINUTES, **UNIT_CODES, "fn": TimeUnit.WEEKS, "mo": TimeUnit.DAYS}
_UNIT_SCALE = {code: UNIT_HOURS[code] / HOURS_PER_UNIT[unit] for code, unit in _UNITS.items()}
# "@mpbot `/mpestimate 100 2`": the bot's own command written in a mention or a DM
# (often in a code span) is read as that command, not as a sentence about it.
_OWN_COMMAND = re.compile(r"\s*(?:<@[^<>\s]*>\s*)*`*\s*/mpestimate(?![\w-])", re.IGNORECASE)


def understand(
    text: str,
    channel: Channel,
    *,
    preferred_lang: Lang | None = None,
    follow_up: bool = False,
    follows_memory: str | None = None,
    seen: list[Token] | None = None,
    offered: list[tuple[Candidate, bool]] | None = None,
) -> Query:
    """Read one message (exactly as Slack delivers it) into a typed query.

    ``follow_up``: the message answers an estimate whose FP32 time is known (a
    thread), so a lone number without a unit ("and at 2.5?", "و٢٫٥؟") is the
    ratio to try, not a new time. ``follows_memory``: the message follows a memory
    question with this method ("full" when it named none), so a message that names
    only a setup detail ("and with LoRA?", "وعلى H100؟") asks about memory again
    (rule ``memory_follow_up``). ``seen``, when given, receives the tokens
    with the roles the rules gave them, and ``offered`` every candidate the
    candidate passes emitted with whether the resolver chose it (for ``--explain``).
    """
    if len(text) > MAX_CHARS:
        head = tokenize(normalise(text[:MAX_CHARS]))
        lang = detect_language(head, preferred_lang)
        return Query(intent=Intent.ESTIMATE, lang=lang, reason=Reason.TOO_LONG)
    if (own := _OWN_COMMAND.match(text)) is not None:
        text, channel = text[own.end() :].strip().rstrip("`").strip(), Channel.COMMAND
    if (command := read_command(text)) is not None:
        # "record A100 BERT fp32 420ms amp 190ms" holds numbers but is no question:
        # the records service answers it; here it must never become an estimate.
        return Query(intent=_COMMAND_INTENTS[type(command)], lang=command.lang)
    whole = tokenize(normalise(text))
    tokens = merge_rates(precision_arrows(merge_number_words(strip_chatter(whole))))
    if is_delete_without_id(text):
        # "delete abc", "delete": a records command missing its number, not a question.
        lang = detect_language(tokens, preferred_lang)
        return Query(intent=Intent.DELETE_RECORD, lang=lang, reason=Reason.NO_RECORD_ID)
    reading = _Reading(
        tokens,
        channel,
        preferred_lang,
        follow_up,
        lang_tokens=whole,
        follows_memory=follows_memory,
        offered=offered,
    )
    query = with_unused(refuse_absurd_setup(reading.query()), tokens)
    if seen is not None:
        seen.extend(tokens)
    return query


_COMMAND_INTENTS = {
    RecordCommand: Intent.RECORD,
    HistoryCommand: Intent.HISTORY,
    DeleteCommand: Intent.DELETE_RECORD,
}


class _Reading:
    """One message being read; each pass adds to what is known."""

    def __init__(
        self,
        tokens: list[Token],
        channel: Channel,
        preferred: Lang | None,
        follow_up: bool = False,
        lang_tokens: list[Token] | None = None,
        follows_memory: str | None = None,
        offered: list[tuple[Candidate, bool]] | None = None,
    ) -> None:
        self.tokens = tokens
        # The whole message, chatter included: "مرحبا، ٨٠ ١٫٥" is answered in Arabic.
        self.lang_tokens = tokens if lang_tokens is None else lang_tokens
        self.channel = channel
        self.preferred = preferred
        self.follow_up = follow_up
        # The caller's list when it wants the candidates (--explain), else a private one.
        self.offered: list[tuple[Candidate, bool]] = [] if offered is None else offered
        self.follows_memory = follows_memory
        self.memory_from_thread = False
        # Both ends of an epoch's time that mixed precision changed (``_times``), FP32 first.
        self.epoch_change: list[Quantity] = []

    def query(self) -> Query:
        tokens = self.tokens
        asked_lang = language_request(tokens, self.lang_tokens, self.preferred)
        if asked_lang is not None:
            return asked_lang
        names = find_names(tokens)
        self.offered.extend(names.offered)
        memory, ctx = self._setup(names)
        durations, ratios, labelled_times, rated = self._values(ctx)
        lang = detect_language(self.lang_tokens, self.preferred)
        if talk := small_talk_kind(tokens):  # before bare numbers: "ألف شكر" is no 1000 hours
            return Query(intent=Intent.HELP, small_talk=talk, lang=lang)
        if greeting(tokens):  # "hi", "السلام عليكم": a short hello, not the usage
            return Query(intent=Intent.HELP, small_talk="greeting", lang=lang)
        times = (
            self._times(durations, labelled_times, ctx.epochs)
            or [
                Quantity(c.value, "h", c.start, c.end, rule=c.rule, said=c.text)
                for c in rated
                if c.kind == "time"
            ]
            or self._clock_time(ctx.epochs)
        )
        named = names.gpu or names.model or ctx.family
        if self.follow_up and not (ratios or durations or memory or named):
            ratios.extend(lone_ratio(self.tokens))
        if not memory:
            by_alternatives(self.tokens, times, ratios)
        unplaced = by_position(self.tokens, times, ratios) if self._is_bare() and not memory else []
        common = dict(
            lang=lang,
            gpu=names.gpu,
            gpu_memory_gb=names.gpu_memory_gb,
            model=_model_for_task(names.model, ctx.family),
            **self._context_fields(ctx),
        )
        if memory and not times and not (self.memory_from_thread and ratios):
            return self._memory_query(ctx, names, common)
        if unplaced:
            return Query(
                intent=Intent.ESTIMATE, reason=Reason.AMBIGUOUS, candidates=unplaced, **common
            )
        return self._decide(times, ratios, common)

    def _setup(self, names: Names) -> tuple[bool, Context]:
        """Whether memory is asked about, and the setup numbers and words."""
        tokens = self.tokens
        memory = self._asks_memory()
        # "on a T4", or a card by its size ("a 16GB card", «كرت ٨ جيجا»).
        gpu_named = names.gpu is not None or card_size(tokens) is not None
        fits = not memory and (
            any(_is(t, FIT_WORDS) for t in tokens) or sized_on_gpu(tokens, gpu_named)
        )
        # Before mark_context gives the numbers their roles.
        fits_alone = not memory and asks_if_it_fits(tokens, gpu_named)
        # "QLoRA 13B", "serve llama-2-70b": a method word with a size (before the roles too).
        memory = memory or asks_memory_by_method(tokens)
        thread = self.follows_memory is not None
        ctx = mark_context(tokens, sizes_are_params=memory or fits or thread, offered=self.offered)
        # "will a 7B model fit on one A100?": a parameter count and a fit verb ask about
        # memory as surely as the word "memory" does; "can I train GPT-2 on a T4?" too,
        # without the count (the reply asks for it).
        asked = memory or (fits and ctx.params is not None) or fits_alone
        if not asked and thread and continues_memory(tokens, ctx, gpu_named):
            self.memory_from_thread = asked = True
        return asked, ctx

    def _values(self, ctx: Context) -> tuple[list[Quantity], list[RatioCand], list[Quantity], list]:
        """Durations, ratios, labelled times and step-rate candidates, progress
        readouts ("100%", "450/1000", "[01:23<01:40]") set aside first."""
        tokens = self.tokens
        readouts = progress_readouts(tokens) + own_results(tokens)
        chosen = resolve(readouts).chosen
        for cand in chosen:
            cand.mark(tokens)
        self.offered.extend((c, True) for c in chosen)
        on_progress_lines = progress_lines(tokens)
        durations = [q for q in find_durations(tokens) if q.start not in on_progress_lines]
        ratios = find_ratios(tokens)
        labelled_times = read_labels(tokens, ratios)
        rated = step_rate(tokens, ctx.epochs, durations)
        if not ratios:
            ratios.extend(
                RatioCand(c.value, c.start, c.text, c.rule) for c in rated if c.kind == "ratio"
            )
        return durations, ratios, labelled_times, rated

    def _memory_query(self, ctx: Context, names: Names, common: dict) -> Query:
        if ctx.params is None:
            ctx.params = self._large_bare_number() or catalog_params(self.tokens)
        elif sized_as_experts(self.tokens):  # "mixtral 8x7b": the catalog's 46.7B, not 8 x 7B
            ctx.params = catalog_params(self.tokens) or ctx.params
        if common["gpu_memory_gb"] is None:  # "A100 40", «A100 ٤٠»
            common["gpu_memory_gb"] = variant_size_after(self.tokens, names)
        size = memory_size_alone(self.tokens)  # "fit in 80GB?", "A100 بسعة ٤٠ جيجا"
        if common["gpu_memory_gb"] is None and (names.gpu is None or size in CARD_SIZES):
            common["gpu_memory_gb"] = size  # with a GPU named, only a size cards are sold in
        common.update(memory_setup(self.tokens, ctx.precision, ctx.baseline, self.follows_memory))
        common["params"] = ctx.params
        return Query(intent=Intent.MEMORY, optimizer=ctx.optimizer, **common)

    # ------------------------------------------------------------ passes
    def _times(
        self, durations: list[Quantity], labelled: list[Quantity], epochs: float | None
    ) -> list[Quantity]:
        """Candidate FP32 times: written durations first, lone "a week" only if nothing else.

        With no time of the whole job, one epoch's time makes it with the epoch
        count ("20 min per epoch, 90 epochs" = 30 hours), else it is answered per
        epoch (:meth:`_epoch_time`); so do both ends of an epoch's time that mixed
        precision changed (rule ``epoch_time_change``), which keeps their ratio.
        """
        changed = epoch_time_change(self.tokens, sorted(durations + labelled, key=_start))
        usable = [q for q in durations if not q.excluded and q not in changed]
        self.epoch_change = [self._epoch_time(q, epochs) for q in changed]
        usable += self.epoch_change  # both ends: one ratio
        labelled = [q for q in labelled if q not in changed]
        per_epoch = [q for q in durations if q.per_epoch and q not in changed]
        if not usable and not labelled and len(per_epoch) == 1:
            usable = [self._epoch_time(per_epoch[0], epochs)]
        strong = [q for q in usable if q.strong] + labelled
        chosen = strong or [q for q in usable if not q.strong]
        return sorted(chosen, key=_start)

    def _epoch_time(self, q: Quantity, epochs: float | None, rule: str = "") -> Quantity:
        """One epoch's time ``q`` as the FP32 time: times the epochs said ("90
        epochs"), or those of a log's counter ("Epoch 5/20") when the run's total is
        asked ("total time", «الوقت الكامل», ``RUN_TOTAL_WORDS``), rule
        ``per_epoch_times_epochs``; else the epoch's own, answered per epoch (rule
        ``per_epoch_time``; a log's epoch varies with warm-up and evaluation, and the
        user may stop early, so its count is not taken unasked)."""
        count = epochs or (log_epochs(self.tokens) if asks_run_total(self.tokens) else None)
        said = q.said or self._span_text(q.start, q.end)
        if count:
            times = Quantity(q.value * count, q.unit, q.start, q.end, q.strong)
            times.rule, times.said = "per_epoch_times_epochs", f"{said} × {count:g}"
            return times
        one = Quantity(q.value, q.unit, q.start, q.end, q.strong, per_epoch=True)
        one.rule, one.said = rule or "per_epoch_time", said
        return one

    def _clock_time(self, epochs: float | None) -> list[Quantity]:
        """Rule ``progress_clock``: a pasted bar's elapsed + remaining time, the run's,
        or one epoch's when an epoch is named before it ("Epoch 3/10: ...", "Epoch 0:")."""
        clock = progress_clock(self.tokens)
        if clock is None:
            return []
        q = Quantity(clock.value, "h", clock.start, clock.end, rule=clock.rule, said=clock.text)
        if not any(_is(t, EPOCH_NOUNS) for t in self.tokens[: clock.start]):
            return [q]  # a bar with no epoch before it (Hugging Face's) times the run
        return [self._epoch_time(q, epochs, rule=clock.rule)]

    def _is_bare(self) -> bool:
        """A slash command, or a message of nothing but numbers, names, units, time
        labels ("التدريب أسبوع ٢", "training a week 2": the label names the week), the
        words of setting phrases ("48h 2 at $3/h", "on 4 GPUs") and the words that
        offer alternatives ("100 1.5 or 2", "١٠٠ يا ١٫٥ يا ٢")."""
        if self.channel == Channel.COMMAND:
            return True
        joiners = table("COMMAND_JOINERS")  # "64h and 1.9": a joiner keeps a command bare
        setting = setting_words_read(self.tokens)
        return all(
            t.kind != WORD
            or t.role
            or t.text in TECH_WORDS
            or t.text in joiners
            or _is(t, TIME_LABELS)
            or (setting and in_setting_phrase(t))
            or offers_alternatives(self.tokens, i)
            for i, t in enumerate(self.tokens)
        )

    def _asks_memory(self) -> bool:
        return any(_is(t, MEMORY_WORDS) for t in self.tokens)

    def _large_bare_number(self) -> float | None:
        for tok in self.tokens:
            if tok.kind == NUM and tok.value >= 1e5 and tok.role in ("", "setting"):
                return tok.value
        return None

    @staticmethod
    def _context_fields(ctx: Context) -> dict:
        return {
            "family": ctx.family,
            "num_gpus": ctx.num_gpus,
            "precision": ctx.precision,
            "baseline": ctx.baseline,
            "framework": ctx.framework,
            "architecture": ctx.architecture,
            "batch_fp32": ctx.batch_fp32,
            "batch_amp": ctx.batch_amp,
            "price": ctx.price,
            "dimensions": ctx.dimensions,
            "run": ctx.run,
            # "7B at $2/hr takes 3 days": the size rides along an estimate as the model's.
            "params": ctx.params,
        }

    # ------------------------------------------------------------ decision
    def _measured(
        self, times: list[Quantity]
    ) -> tuple[tuple[Quantity, Quantity] | None, Quantity | None, str]:
        """The FP32 and mixed times a message measured, the job's time if it names
        another one, and the rule that read them."""
        if len(self.epoch_change) == 2 and all(q in times for q in self.epoch_change):
            # "amp brought our epoch from 12 min down to 7.5 min, full fp32 run is 30h": the
            # change is the pair whatever precision is named near its ends; a third time is the job.
            others = [q for q in times if q not in self.epoch_change]
            if len(others) <= 1:
                rule = "measured_pair_for_job" if others else "fp32_and_mixed_times"
                return (self.epoch_change[0], self.epoch_change[1]), next(iter(others), None), rule
        if len(times) == 3:
            found = measured_pair_and_job(self.tokens, times)
            if found is not None:
                return found[:2], found[2], "measured_pair_for_job"
        saving = time_saved(self.tokens, times)
        if saving is not None:
            whole, saved = saving
            # The mixed run is the FP32 one less the time saved: "48h − 12 hours".
            mixed = Quantity(whole.hours - saved.hours, "h", saved.start, saved.end)
            spans = (self._span_text(q.start, q.end) for q in saving)
            mixed.said = "({} − {})".format(*spans)
            return (whole, mixed), None, "time_saved"
        pair = fp32_and_mixed(self.tokens, times) if len(times) == 2 else None
        return pair, None, "fp32_and_mixed_times"

    def _decide(self, times: list[Quantity], ratios: list[RatioCand], common: dict) -> Query:
        times, ratios = _without_overlaps(times, ratios)
        times = _distinct(times, key=lambda q: _to_the_minute(q.hours))
        ratios = alike_words_offered(self.tokens, ratios) or _distinct(
            ratios, key=lambda r: r.value
        )
        pair, job, rule = self._measured(times)
        high = _time_range(times) if pair is None else None
        if high is not None:  # "30-40 hours": one time, read at both ends
            times = [times[0]]
        if pair is not None:
            # "FP32 takes 10 h, AMP takes 6 h": the ratio is what was measured.
            fp32_q, mixed_q = pair
            times = [job or fp32_q]
            if not ratios and mixed_q.hours:
                said = " ÷ ".join(q.said or self._span_text(q.start, q.end) for q in pair)
                ratio = fp32_q.hours / mixed_q.hours
                ratios = [RatioCand(ratio, mixed_q.start, said, rule)]
        fp32 = _duration(times[0]) if len(times) == 1 else None
        ratio = ratios[0].value if len(ratios) == 1 else None
        if not times and not ratios:
            return without_numbers(self.tokens, common, self.follow_up)
        reason = None
        candidates: list[str] = []
        if len(times) > 1 or len(ratios) > 1:
            reason = Reason.AMBIGUOUS
            candidates = (
                self._candidates(times) if len(times) > 1 else self._ratio_candidates(ratios)
            )
        else:
            reason = reason_for(fp32, ratio) or (high and reason_for(_duration(high), ratio))
        read_by = {}
        if fp32 is not None and high is not None:
            read_by["fp32"] = ["time_range", self._span_text(times[0].start, high.end)]
        elif fp32 is not None:
            said = times[0].said or self._span_text(times[0].start, times[0].end)
            read_by["fp32"] = [times[0].rule, said]
        if ratio is not None:
            read_by["ratio"] = [ratios[0].rule, ratios[0].text]
        return Query(
            intent=Intent.ESTIMATE,
            fp32=fp32,
            fp32_high=_duration(high) if fp32 is not None and high is not None else None,
            per_epoch=fp32 is not None and times[0].per_epoch,
            ratio=ratio,
            reason=reason,
            candidates=candidates,
            read_by=read_by,
            **common,
        )

    def _candidates(self, times: list[Quantity]) -> list[str]:
        """The times to choose from: their numbers, or as written when their units
        differ ("36h30" or "40 hours", not 2190 or 40)."""
        if len({q.unit for q in times}) == 1:
            return [_fmt(q.value) for q in times]
        return [self._span_text(q.start, q.end) for q in times]

    def _ratio_candidates(self, ratios: list[RatioCand]) -> list[str]:
        """The ratios to choose from: their numbers, or as written when two are the
        same number («ضعف» or «ضعفين»)."""
        if len({r.value for r in ratios}) == len(ratios):
            return [_fmt(r.value) for r in ratios]
        return [self._span_text(r.start, max(r.end, r.start + 1)) for r in ratios]

    def _span_text(self, start: int, end: int) -> str:
        return " ".join(t.written for t in self.tokens[start:end])


def _model_for_task(model: str | None, family: str | None) -> str | None:
    """A model name that is also an architecture word (ARCHITECTURE_MODELS) named with
    another task ("vision transformer", "transformer language model") is the
    architecture: the task speaks instead of that model's published rows."""
    if model in ARCHITECTURE_MODELS and family not in (None, family_of_model(model)):
        return None
    return model


def _start(q: Quantity) -> int:
    return q.start


def _without_overlaps(
    times: list[Quantity], ratios: list[RatioCand]
) -> tuple[list[Quantity], list[RatioCand]]:
    """The passes' readings through the one resolver: a token read both as a time and
    as a ratio keeps the reading that covers more of the message (resolve.PRIORITIES);
    a tie keeps both, so the answer is ``ambiguous``."""
    cands = [Candidate(TIME, q.start, max(q.end, q.start + 1), q.hours, q.rule) for q in times]
    cands += [Candidate(RATIO, r.start, r.start + 1, r.value, r.rule) for r in ratios]
    got = resolve(cands)
    keep = {id(c) for c in got.chosen} | {id(tied) for _, tied in got.ties}
    kept = [id(c) in keep for c in cands]
    n = len(times)
    return (
        [q for q, ok in zip(times, kept[:n], strict=True) if ok],
        [r for r, ok in zip(ratios, kept[n:], strict=True) if ok],
    )


def _time_range(times: list[Quantity]) -> Quantity | None:
    """Rule ``time_range``: the high end when the two times left are the ends of one
    range ("30-40 hours", "between 2 and 3 days", «من يومين لـ ٣ أيام»), low end first;
    else None (two times offered as alternatives are asked about)."""
    if len(times) != 2 or not times[1].ranged:
        return None
    low, high = times
    return high if 0 < low.hours < high.hours else None


def _to_the_minute(hours: float) -> float:
    """A time as said to the minute: "{'train_runtime': 25200.3} ... i.e. 7 hours" says
    one time twice."""
    minutes = hours * 60
    return round(minutes) / 60 if math.isfinite(minutes) else hours


def _distinct(items: list, key) -> list:
    """Drop repeats of the same value (a time said twice is one time)."""
    out: list = []
    seen: set[float | str] = set()
    for item in items:
        v = key(item)
        k = "nan" if math.isnan(v) else round(v, 9)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return out


def _duration(q: Quantity) -> Duration:
    scale = _UNIT_SCALE[q.unit]
    return Duration(value=q.value * scale, unit=_UNITS[q.unit], hours=q.hours)


def _fmt(value: float) -> str:
    return f"{value:g}"
