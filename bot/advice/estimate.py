"""Turn a typed :class:`Query` into an :class:`Advice`: numbers and note codes.

Pure functions, no I/O and no language: the rendering room words the result.
The arithmetic is the guide's ``mixed-precision time = FP32 time / ratio``;
when the user gave no ratio, :func:`bot.advice.prediction.predict` suggests
one from whatever was named, and with nothing named the answer is the guide's
typical range.
Memory questions go to :mod:`bot.advice.memory`, and a price turns both runs
into money with :mod:`bot.advice.cost`.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.advice.cost import CostEstimate, estimate_cost
from bot.advice.memory import MemoryEstimate, Method, estimate_memory, parse_optimizer
from bot.advice.model_sizes import model_size_source
from bot.advice.notes import TYPICAL_CEILING, Note
from bot.advice.precision import precision_advice
from bot.advice.prediction import TYPICAL_HIGH, TYPICAL_LOW, Prediction, Setup, predict
from bot.models import (
    MAX_MESSAGE_CHARS,
    MAX_PLAUSIBLE_RATIO,
    Advice,
    AdviceFactor,
    Intent,
    Kind,
    Query,
    Reason,
)
from bot.records.models import Record

# bot.models names these result types only for type checkers (importing them
# there would be circular); every path to advise() passes through here.
Advice.model_rebuild(
    _types_namespace={"MemoryEstimate": MemoryEstimate, "CostEstimate": CostEstimate}
)

# The ResNet-50/V100 honesty note: the guide's rule of thumb against NVIDIA's
# published DeepLearningExamples runs (PyTorch 3.26x, TF1 3.08x, MXNet 3.58x on
# one V100; 2.91x on eight), which doubled the batch and used channels-last in
# the mixed-precision run only (shared/docs/mixed-precision-facts.md, section 1).
RESNET50_RULE_OF_THUMB = 2.1
RESNET50_PUBLISHED_LOW = 2.9
RESNET50_PUBLISHED_HIGH = 3.6

# The largest ratio a user may give (team records refuse the same).
MAX_RATIO = MAX_PLAUSIBLE_RATIO

# Where the memory figures come from (shared/docs/mixed-precision-facts.md, section 2).
MEMORY_SOURCES = (
    "https://arxiv.org/abs/1910.02054",  # ZeRO, section 3.1: 2 + 2 + 12 = 16 bytes/param
    "https://pytorch.org/docs/stable/amp.html",  # autocast keeps FP32 parameters
    "https://deepspeed.readthedocs.io/en/stable/zero3.html",  # what each ZeRO stage shards
)
# Added when the answer is about adapters or quantised weights.
ADAPTER_SOURCES = (
    "https://arxiv.org/abs/2106.09685",  # LoRA
    "https://arxiv.org/abs/2305.14314",  # QLoRA: NF4 and double quantisation
)

# The validation recipe's step counts (steady state after warm-up, as the DLE
# benchmarks measure it).
WARMUP_STEPS = 20
TIMED_STEPS = 100


def advise(query: Query, team_records: Sequence[Record] = ()) -> Advice:
    """Decide the kind of answer, its numbers and the notes worth saying.

    ``team_records`` are the workspace's own measurements (any setup); when
    any apply, the suggested ratio comes from them first (basis ``team``).
    """
    if _asks_cost_without_time(query):
        return _bill_share(query, team_records)
    if query.reason is not None:
        error = _error(query, query.reason)
        if query.reason is Reason.NO_NUMBERS:
            return _with_suggested_ratio(error, query, team_records)
        return error
    if query.intent is Intent.SET_LANG:
        return Advice(
            kind=Kind.HELP,
            notes=[Note.LANG_SET],
            facts={"lang": (query.lang_choice or query.lang).value},
        )
    if query.intent is Intent.MEMORY:
        return _memory(query)
    if query.intent is Intent.PRECISION:
        return precision_advice(query)
    if query.intent in (Intent.RECORD, Intent.HISTORY, Intent.DELETE_RECORD):
        # Answered by the records service; here only a pointer, never numbers.
        return Advice(kind=Kind.HELP, facts={"team_command": query.intent.value})
    if query.small_talk:  # "thanks!": a short answer, never the usage list
        facts = {"talk": query.small_talk, **_talk_facts(query.small_talk)}
        return Advice(kind=Kind.HELP, notes=[Note.SMALL_TALK], facts=facts)
    if query.intent is not Intent.ESTIMATE:
        return _with_suggested_ratio(Advice(kind=Kind.HELP), query, team_records)
    if query.fp32 is None:
        return _with_suggested_ratio(_error(query, Reason.NO_NUMBERS), query, team_records)
    if query.ratio is not None and query.ratio > MAX_RATIO:
        return _error(query, Reason.TOO_LARGE)
    advice = _timed(query, query.fp32.hours, team_records)
    if query.fp32_high is None:
        return advice
    # Rule time_range ("30-40 hours"): the same answer at the high end, beside the low one.
    high = _timed(query, query.fp32_high.hours, team_records)
    return advice.model_copy(update={"fp32_hours_high": high.fp32_hours, "high_end": high})


def _timed(query: Query, fp32_hours: float, team_records: Sequence[Record]) -> Advice:
    """The answer for ``fp32_hours`` of FP32 training: the user's ratio, a suggested
    one, or the typical range; with the cost when a price was given."""
    if query.ratio is not None:
        advice = _estimate(query, fp32_hours, query.ratio)
    else:
        prediction = _predict(query, team_records)
        if prediction.named or _names_something(query):
            advice = _preset(query, fp32_hours, prediction)
        else:
            advice = _range(query, fp32_hours)
    # Answered in the unit the time was given in, for the GPUs it was given for.
    assert query.fp32 is not None
    advice = advice.model_copy(update={"time_unit": query.fp32.unit, "num_gpus": query.num_gpus})
    return _with_cost(query, advice) if query.price is not None else advice


def _memory(query: Query) -> Advice:
    """Model-state memory under each regime; the parameter count is the one thing required."""
    if query.params is None:
        return _error(query, Reason.NO_PARAMS)
    try:
        parse_optimizer(query.optimizer)
    except ValueError:
        return _error(query, Reason.UNKNOWN_OPTIMIZER)
    try:
        memory = estimate_memory(
            query.params,
            query.optimizer,
            gpu=query.gpu,
            num_gpus=query.num_gpus,
            memory_gb=query.gpu_memory_gb,
            method=query.memory_method,
            recipe=query.memory_recipe,
            weight_precision=query.weight_precision,
            sharding=query.sharding,
            model=query.sized_model,
            batch=query.batch_amp or query.batch_fp32,
        )
    except ValueError:  # zero, negative or infinite parameter counts
        return _error(query, Reason.NO_PARAMS)
    sources = list(MEMORY_SOURCES)
    if memory.method in (Method.LORA, Method.QLORA):
        sources += ADAPTER_SOURCES
    if memory.model:
        sources.append(model_size_source(memory.model))
    return Advice(
        kind=Kind.MEMORY,
        gpu=query.gpu,
        model=query.model,
        memory=memory,
        sources=sources,
        facts={"gpu_memory_given": int(query.gpu_memory_gb is not None)},
    )


def _with_cost(query: Query, advice: Advice) -> Advice:
    """Both runs in the currency the user wrote (no exchange rates).

    A price that makes no cost (unknown currency code, negative amount) keeps
    the time estimate and says why the money is missing.
    """
    price, gpus = query.price, query.num_gpus
    assert price is not None and advice.fp32_hours is not None
    try:
        if advice.mp_hours is not None:
            cost = estimate_cost(advice.fp32_hours, price, gpus, mp_hours=advice.mp_hours)
            return advice.model_copy(update={"cost": cost})
        assert advice.mp_hours_low is not None and advice.mp_hours_high is not None
        low = estimate_cost(advice.fp32_hours, price, gpus, mp_hours=advice.mp_hours_low)
        high = estimate_cost(advice.fp32_hours, price, gpus, mp_hours=advice.mp_hours_high)
    except ValueError:
        notes = [Note.PRICE_UNREADABLE, *advice.notes]
        facts = advice.facts | {"currency": price.currency}
        return advice.model_copy(update={"notes": notes, "facts": facts})
    return advice.model_copy(update={"cost_low": low, "cost_high": high})


def _error(query: Query, reason: Reason) -> Advice:
    notes: list[str] = []
    facts: dict[str, float | int | str | None] = {}
    if reason is Reason.AMBIGUOUS:
        notes.append(Note.WHICH_NUMBER)
    elif reason is Reason.RATIO_BELOW_ONE:
        notes.append(Note.SLOWDOWN)
        facts["ratio"] = query.ratio
        if query.fp32 is not None and query.ratio and query.ratio * MAX_RATIO >= 1:
            # a slowdown the user reported is still an answer: what their run becomes
            # (a slowdown beyond the most a speed-up could be is only refused)
            facts["fp32_hours"] = query.fp32.hours
            facts["mp_hours"] = query.fp32.hours / query.ratio
    elif reason is Reason.TOO_LARGE and query.ratio is not None and query.ratio > MAX_RATIO:
        facts["ratio_limit"] = MAX_RATIO  # the refusal names the cap
    elif reason is Reason.NO_NUMBERS and query.ratio is not None:
        facts["ratio"] = query.ratio  # "0.85s/it fp32, 0.41s/it amp, what's my ratio?": said back
    elif reason is Reason.TOO_LONG:
        facts["limit"] = MAX_MESSAGE_CHARS
    elif reason is Reason.UNKNOWN_OPTIMIZER and query.optimizer:
        facts["optimizer"] = query.optimizer  # the refusal names what it does not know
    return Advice(
        kind=Kind.ERROR,
        reason=reason,
        candidates=list(query.candidates),
        gpu=query.gpu,
        model=query.model,
        notes=notes,
        facts=facts,
        time_unit=query.fp32.unit if query.fp32 is not None else None,
    )


def _estimate(query: Query, fp32_hours: float, ratio: float) -> Advice:
    mp_hours = fp32_hours / ratio
    return Advice(
        kind=Kind.ESTIMATE,
        fp32_hours=fp32_hours,
        ratio=ratio,
        mp_hours=mp_hours,
        gpu=query.gpu,
        model=query.model,
        basis="given",
        notes=_notes(query, ratio, given=True),
        facts=_facts(query),
        **_savings(fp32_hours, mp_hours),
    )


def _preset(query: Query, fp32_hours: float, prediction: Prediction) -> Advice:
    mp_hours = fp32_hours / prediction.ratio
    notes = _notes(query, prediction.ratio)
    if prediction.basis in ("typical", "modelled"):
        # First, unless a predicted slowdown leads: that one matters more.
        notes.insert(int(Note.EXPECTED_SLOWDOWN in notes), Note.NO_MEASUREMENT)
    return Advice(
        kind=Kind.PRESET,
        fp32_hours=fp32_hours,
        mp_hours=mp_hours,
        mp_hours_low=fp32_hours / prediction.high,
        mp_hours_high=fp32_hours / prediction.low,
        **_suggested(query, prediction, notes),
        **_savings(fp32_hours, mp_hours),
    )


# The published setup a speed question with no setup is shown as an example.
SPEED_EXAMPLE = Setup(gpu="V100", model="ResNet-50")


def _talk_facts(talk: str) -> dict:
    """ "how much faster is mixed precision?": the typical range and what the published
    runs of one well-known setup reach, from the same prediction as any answer; "what
    is mixed precision?": the typical range alone."""
    if talk == "definition_question":
        return {"low": TYPICAL_LOW, "high": TYPICAL_HIGH}
    if talk != "speed_question":
        return {}
    example = predict(SPEED_EXAMPLE)
    return {
        "low": TYPICAL_LOW,
        "high": TYPICAL_HIGH,
        "example_ratio": example.ratio,
        "example_model": SPEED_EXAMPLE.model,
        "example_gpu": SPEED_EXAMPLE.gpu,
    }


def _with_suggested_ratio(
    advice: Advice, query: Query, team_records: Sequence[Record] = ()
) -> Advice:
    """A help or no_numbers answer that names a setup still says which ratio to expect.

    "What speedup for BERT on A100?" has no FP32 time to divide, so its kind
    stays what the reading rules say (help, or no_numbers when a time estimate
    was asked for); the predicted ratio, its range and basis come along, ready
    for the time the user adds next.
    """
    if not _names_something(query) or query.ratio is not None:
        return advice  # nothing named, or the user's own ratio already says it
    prediction = _predict(query, team_records)
    notes = [Note.ADD_FP32_TIME]
    if prediction.basis in ("typical", "modelled"):
        notes.append(Note.NO_MEASUREMENT)
    notes += [n for n in _notes(query, prediction.ratio) if n is not Note.THEORETICAL]
    fields = _suggested(query, prediction, [*advice.notes, *notes])
    fields["facts"] = advice.facts | fields["facts"]
    return advice.model_copy(update=fields)


def _asks_cost_without_time(query: Query) -> bool:
    """ "how much would bf16 save on 8 A100s at $2/h each?", «كم بنوفر بالـ bf16 بسعر ٢
    دولار للساعة؟»: a price said for a question with no FP32 time (nor a refusal)."""
    talk = query.small_talk in (None, "cost_question", "saving_question")
    asks = query.intent in (Intent.ESTIMATE, Intent.HELP) and talk
    unread = query.reason in (None, Reason.NO_NUMBERS)
    return asks and unread and query.price is not None and query.fp32 is None


def _bill_share(query: Query, team_records: Sequence[Record]) -> Advice:
    """The share of the bill mixed precision saves, ``1 − 1/ratio`` (the GPUs are billed
    for the hours the run takes): at the user's ratio, else at the ratio expected for
    the setup named (and at its likely range's ends), else across the typical range.
    Money needs the FP32 time, which the reply asks for (``Note.ADD_TIME_FOR_MONEY``)."""
    notes = [Note.ADD_TIME_FOR_MONEY]
    if query.ratio is not None:
        fields: dict = {"ratio": query.ratio, "basis": "given", "gpu": query.gpu}
        fields |= {"model": query.model, "notes": notes, "facts": _facts(query)}
    elif _names_something(query):
        prediction = _predict(query, team_records)
        if prediction.basis in ("typical", "modelled"):
            notes.append(Note.NO_MEASUREMENT)
        fields = _suggested(query, prediction, notes)
    else:
        fields = {"ratio_low": TYPICAL_LOW, "ratio_high": TYPICAL_HIGH, "basis": "typical"}
        fields |= {"notes": [*notes, Note.RATIO_GUIDE], "facts": _facts(query)}
    share = {name: _bill_saved(fields.get(name)) for name in ("ratio", "ratio_low", "ratio_high")}
    fields["facts"] = fields["facts"] | {
        "saved_percent_low": share["ratio_low"],
        "saved_percent_high": share["ratio_high"],
        "currency": query.price.currency if query.price else None,
    }
    fields.setdefault("num_gpus", query.num_gpus)
    return Advice(kind=Kind.COST, saved_percent=share["ratio"], **fields)


def _bill_saved(ratio: float | None) -> float | None:
    """The percent of an hourly bill a run ``ratio`` times as fast saves."""
    return None if ratio is None or ratio <= 0 else 100.0 * (1 - 1 / ratio)


def _predict(query: Query, team_records: Sequence[Record]) -> Prediction:
    """The ratio for the query's setup, the team's records first when there are any."""
    setup = _setup(query)
    # Called without records when there are none, as before the team's records existed.
    return predict(setup, team_records) if team_records else predict(setup)


def _suggested(query: Query, prediction: Prediction, notes: list[str]) -> dict:
    """The fields every answer with a suggested ratio carries: the ratio, its range and
    basis, the setup it assumed and why."""
    return {
        "ratio": prediction.ratio,
        "ratio_low": prediction.low,
        "ratio_high": prediction.high,
        "gpu": query.gpu,
        "num_gpus": query.num_gpus,
        "model": query.model,
        "basis": str(prediction.basis),
        "sources": list(prediction.sources),
        "family": prediction.family or query.family,
        "precision": prediction.precision or query.precision,
        "baseline": prediction.baseline or query.baseline,
        "framework": query.framework,
        "notes": notes,
        "facts": _facts(query),
        "factors": _factors(prediction),
        "projects": prediction.projects.model_dump() if prediction.projects else None,
    }


def _range(query: Query, fp32_hours: float) -> Advice:
    scaling = Note.FP8_SCALING if query.precision == "fp8" else Note.LOSS_SCALING
    notes = [Note.RATIO_GUIDE, Note.THEORETICAL, Note.MEMORY, scaling, Note.VALIDATE]
    return Advice(
        kind=Kind.RANGE,
        fp32_hours=fp32_hours,
        ratio_low=TYPICAL_LOW,
        ratio_high=TYPICAL_HIGH,
        mp_hours_low=fp32_hours / TYPICAL_HIGH,
        mp_hours_high=fp32_hours / TYPICAL_LOW,
        basis="typical",
        notes=notes,
        facts=_facts(query),
    )


def _factors(prediction: Prediction) -> list[AdviceFactor]:
    """Prediction factors as advice; the team's figure carries the published one beside it."""
    reference = prediction.reference
    factors = []
    for f in prediction.factors:
        params = dict(f.params)
        if f.code == "team_records" and reference is not None:
            params |= {"reference_ratio": reference.ratio, "reference_basis": str(reference.basis)}
        factors.append(AdviceFactor(code=str(f.code), params=params))
    return factors


def _savings(fp32_hours: float, mp_hours: float) -> dict[str, float]:
    saved = fp32_hours - mp_hours
    return {"saved_hours": saved, "saved_percent": 100.0 * saved / fp32_hours}


def _notes(query: Query, ratio: float, *, given: bool = False) -> list[str]:
    """Most relevant first: rendering shows the head on one line, all under Details.
    A ratio the user ``given`` above 2.5 is worth a check; a predicted one stands on
    the tables it came from (V100 BERT runs 4x), so no such note doubts it."""
    notes: list[str] = []
    # A predicted slowdown first: the estimate above reads like any other otherwise.
    # (A user's own ratio below one never gets here: it is the ratio_below_one error.)
    if ratio < 1:
        notes.append(Note.EXPECTED_SLOWDOWN)
    # The ResNet-50/V100 note next: it explains why published ratios run high.
    if _resnet50_on_v100(query):
        notes.append(Note.RESNET50_V100)
    if given and ratio > TYPICAL_CEILING:
        notes.append(Note.DOUBLE_CHECK)
    # FP8's scaling is its own (per tensor, Hopper/Ada and newer); FP16's note would mislead.
    scaling = Note.FP8_SCALING if query.precision == "fp8" else Note.LOSS_SCALING
    notes += [Note.THEORETICAL, Note.MEMORY, scaling, Note.VALIDATE]
    return notes


def _facts(query: Query) -> dict[str, float | int | str | None]:
    """Numbers the notes quote, so rendering formats them in the user's locale."""
    facts: dict[str, float | int | str | None] = {
        "typical_low": TYPICAL_LOW,
        "typical_high": TYPICAL_HIGH,
        "double_check_above": TYPICAL_CEILING,
        "warmup_steps": WARMUP_STEPS,
        "timed_steps": TIMED_STEPS,
    }
    if _resnet50_on_v100(query):
        facts |= {
            "rule_of_thumb": RESNET50_RULE_OF_THUMB,
            "published_low": RESNET50_PUBLISHED_LOW,
            "published_high": RESNET50_PUBLISHED_HIGH,
        }
    return facts


def _resnet50_on_v100(query: Query) -> bool:
    """ResNet-50 on a V100, the one setup the guide's 2.1 rule of thumb is about.

    A V100 alone (any other model, or none named) or ResNet-50 on another GPU
    says nothing about that figure, so the note would only distract there.
    """
    return query.model == "ResNet-50" and query.gpu == "V100"


def _names_something(query: Query) -> bool:
    """A GPU, a model, a task or a framework: what the prediction narrows the rule by
    (a framework alone carries what its projects saw, see prediction._informative)."""
    return bool(query.gpu or query.model or query.family or query.framework)


def _setup(query: Query) -> Setup:
    return Setup(
        gpu=query.gpu,
        model=query.model,
        family=query.family,
        num_gpus=query.num_gpus,
        precision=query.precision,
        baseline=query.baseline,
        framework=query.framework,
        architecture=query.architecture,
        batch_fp32=query.batch_fp32,
        batch_amp=query.batch_amp,
        dimensions=query.dimensions,
        run=query.run,
    )
