"""One turn of conversation: text in, a localized reply out.

This is the only place the three rooms meet (understand -> advise -> render),
so the console, ``mpbot ask`` and the Slack app all answer alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.advice import advise
from bot.follow_up import kept_for_next, memory_method_followed, setup_of, with_thread
from bot.models import (
    HOURS_PER_UNIT,
    Advice,
    Channel,
    Duration,
    Intent,
    Lang,
    Query,
    Reply,
    TimeUnit,
)
from bot.records.models import Record
from bot.rendering import render
from bot.rendering.reading import with_reading
from bot.spelling import in_users_spelling
from bot.understanding import understand
from bot.understanding.limits import reason_for


@dataclass(frozen=True)
class Turn:
    query: Query
    advice: Advice
    reply: Reply


def answer(
    text: str,
    channel: Channel = Channel.DM,
    *,
    preferred_lang: Lang | None = None,
    thread_fp32_hours: float | None = None,
    thread_setup: Mapping[str, object] | None = None,
    team_records: Sequence[Record] = (),
) -> Turn:
    """Answer one message.

    ``preferred_lang`` decides the language of messages without words (bare
    numbers). ``thread_fp32_hours`` is the FP32 time of an earlier answer in
    the same thread, so "and with ratio 2.5?" can be answered as a follow-up;
    ``thread_setup`` (see :func:`bot.follow_up.thread_memory`) is what the thread named
    before, so "it takes 36 hours" after "what speedup for BERT on A100?" is about BERT
    and "and on 4 GPUs?" after "36h, ratio 2" keeps the ratio. Both apply only to a
    real follow-up: a message that asks its own question starts afresh
    (:func:`bot.follow_up.with_thread`).
    ``team_records`` are the workspace's own measurements (any order); the
    prediction picks those matching the question's setup and puts them before
    published figures.
    """
    text, channel = _typed_command(text, channel)
    query = understand(
        text,
        channel,
        preferred_lang=preferred_lang,
        follow_up=thread_fp32_hours is not None,
        follows_memory=memory_method_followed(thread_setup or {}),
    )
    query = in_users_spelling(query, text)
    if thread_setup or thread_fp32_hours is not None:
        query = with_thread(query, thread_setup or {}, thread_fp32_hours, text)
    return answer_query(query, team_records)


def answer_query(query: Query, team_records: Sequence[Record] = ()) -> Turn:
    """Answer a query already read: a button's or the form's structured query."""
    advice = advise(query, team_records)
    return Turn(query=query, advice=advice, reply=with_reading(render(advice, query.lang), query))


def query_from_fields(
    lang: Lang, fp32: float, unit: TimeUnit, ratio: float | None = None, setup: str = ""
) -> Query:
    """The App Home form as a query: each number field holds one number, so it is
    taken as typed (rule ``form_field``); only the free setup text is read."""
    duration = Duration(value=fp32, unit=unit, hours=fp32 * HOURS_PER_UNIT[unit])
    named = setup_of(understand(setup, Channel.DM)) if setup else {}
    read_by = {"fp32": ["form_field", f"{fp32:g} {unit.value}"]}
    if ratio is not None:
        read_by["ratio"] = ["form_field", f"{ratio:g}"]
    return Query(
        intent=Intent.ESTIMATE,
        lang=lang,
        fp32=duration,
        ratio=ratio,
        reason=reason_for(duration, ratio),
        read_by=read_by,
        **named,
    )


def with_ratio(turn: Turn, ratio: float, lang: Lang) -> Query:
    """``turn``'s question with another ratio (a ratio button): everything it read stays."""
    query = turn.query
    hours = turn.advice.fp32_hours
    fp32 = query.fp32 or (
        Duration(value=hours, unit=TimeUnit.HOURS, hours=hours) if hours is not None else None
    )
    return query.model_copy(
        update={
            "intent": Intent.ESTIMATE,
            "lang": lang,
            "fp32": fp32,
            "ratio": ratio,
            "reason": reason_for(fp32, ratio),
            "candidates": [],
            "unused": [],
            "small_talk": None,
            "read_by": {**query.read_by, "ratio": ["button", f"{ratio:g}"]},
        }
    )


# The slash command, as Slack registers it and as people type it.
COMMAND = "/mpestimate"


def _typed_command(text: str, channel: Channel) -> tuple[str, Channel]:
    """ "/mpestimate 100 2" typed as a message (slash commands do not run in threads,
    and help shows them) is read as the command it copies."""
    stripped = text.lstrip()
    if channel is not Channel.COMMAND and stripped.lower().startswith(COMMAND):
        rest = stripped[len(COMMAND) :]
        if not rest or rest[0].isspace():
            return rest.strip(), Channel.COMMAND
    return text, channel


def carried_over(turn: Turn, hours: float | None) -> tuple[float | None, dict] | None:
    """What the next follow-up in the same thread inherits: (FP32 hours, setup).

    A follow-up adds to what the thread kept before (``hours``: its time), the
    latest time winning; a question of its own replaces it; small talk and team
    commands leave the thread as it was (None). See :mod:`bot.follow_up`.
    """
    return kept_for_next(turn.query, turn.advice.fp32_hours, hours)


def to_json(turn: Turn) -> dict:
    """The stable JSON shape of ``mpbot ask --json`` (missing values are null)."""
    a, q = turn.advice, turn.query
    return {
        "kind": a.kind.value,
        "lang": turn.reply.lang.value,
        "fp32_hours": a.fp32_hours,
        # An FP32 time said as a range ("30-40 hours"): its high end, and the answer's
        # numbers at that end (fp32_hours and the fields beside it are the low end's).
        "fp32_hours_high": a.fp32_hours_high,
        "high_end": _high_end_json(a.high_end),
        # The times are one epoch's (Query.per_epoch): no epoch count was given.
        "per_epoch": q.per_epoch,
        "ratio": a.ratio,
        "ratio_low": a.ratio_low,
        "ratio_high": a.ratio_high,
        "projects": a.projects,
        "mp_hours": a.mp_hours,
        "mp_hours_low": a.mp_hours_low,
        "mp_hours_high": a.mp_hours_high,
        "saved_hours": a.saved_hours,
        "saved_percent": a.saved_percent,
        "gpu": a.gpu,
        "model": a.model,
        "reason": a.reason.value if a.reason else None,
        "candidates": a.candidates,
        "basis": a.basis,
        "sources": a.sources,
        "family": a.family or q.family,
        "num_gpus": q.num_gpus,
        "precision": a.precision or q.precision,
        "baseline": a.baseline or q.baseline,
        "framework": q.framework,
        "notes": list(a.notes),
        "carried": list(q.carried),
        "factors": [f.model_dump() for f in a.factors],
        "memory": a.memory.model_dump(mode="json") if a.memory else None,
        "cost": _cost_json(a),
        "text": turn.reply.text,
    }


def _high_end_json(high: Advice | None) -> dict | None:
    """The numbers of the answer at a time range's high end; null without a range."""
    if high is None:
        return None
    return {
        "mp_hours": high.mp_hours,
        "mp_hours_low": high.mp_hours_low,
        "mp_hours_high": high.mp_hours_high,
        "saved_hours": high.saved_hours,
        "cost": _cost_json(high),
    }


def _cost_json(a: Advice) -> dict | None:
    """One flat shape for a point and a range: the ends are null for a point, and vice versa."""
    point, fast, slow = a.cost, a.cost_low, a.cost_high
    first = point or fast
    if first is None:
        return None
    return {
        "currency": first.currency,
        "num_gpus": first.num_gpus,
        "num_nodes": first.num_nodes,
        # Per GPU (or node) and hour as billed; a whole run's price spread over its hours.
        "price_per_hour": first.fp32_cost / first.fp32_hours / first.num_gpus / first.num_nodes,
        "price_period_hours": first.fp32_hours if first.price.per_run else first.price.period_hours,
        "fp32_cost": first.fp32_cost,
        "mp_cost": point.mp_cost if point else None,
        "mp_cost_low": fast.mp_cost if fast else None,
        "mp_cost_high": slow.mp_cost if slow else None,
        "saving": point.saving if point else None,
        "saving_low": slow.saving if slow else None,
        "saving_high": fast.saving if fast else None,
    }
