"""What the reader read and what a follow-up inherited, worded for the reply.

Four pieces, added to a rendered reply by :func:`with_reading`:

* a note naming each number the reader saw but did not use ("I did not use
  2.5: nothing said whether it is a time or a ratio."), so none is dropped
  silently;
* a note saying the times are one epoch's when the FP32 time read is ("These
  times are for one epoch: ..."), so a per-epoch answer is never taken for the run's;
* a note naming what a follow-up took from earlier in the thread ("Carried
  over from earlier: BERT, 4 GPUs, SAR 12.00 per hour."), so nothing is assumed
  silently either;
* one Details line saying what was read as what, quoting the user's own words
  ("I read “36h” as the FP32 time and “2x” as the ratio."). The rule that read
  each is for ``mpbot ask --explain``, never in a reply.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.models import Lang, Query, Reply
from bot.rendering.cost import money
from bot.rendering.reply import _Words, phrases


def unused_note(w: _Words, query: Query) -> str | None:
    if not query.unused:
        return None
    numbers = {"numbers": w.echo(", ".join(query.unused))}
    # At most three numbers are named (Query.unused), so one and "some" are the two forms.
    if len(query.unused) == 1:
        return (
            w._("I did not use %(numbers)s: nothing said whether it is a time or a ratio.")
            % numbers
        )
    return (
        w._("I did not use %(numbers)s: nothing said whether they are times or ratios.") % numbers
    )


def per_epoch_note(w: _Words, query: Query) -> str | None:
    """ "These times are for one epoch: ..." when the FP32 time read is one epoch's
    and no epoch count was given (Query.per_epoch), so no one reads it as the run's."""
    if not query.per_epoch or query.fp32 is None:
        return None
    return w._(
        "These times are for one epoch: multiply them by your epoch count for the whole run."
    )


def reading_line(w: _Words, query: Query) -> str | None:
    """ "I read “36h” as the FP32 time and “2x” as the ratio." (the user's spelling)."""
    _ = w._
    parts = []
    if "fp32" in query.read_by and "fp32" not in query.carried:
        said = {"text": _said(w, query, "fp32")}
        if _unit_assumed(query):  # "42": the hours are the bot's assumption; say so
            parts.append(_("“%(text)s” as the FP32 time in hours (no unit given)") % said)
        else:
            parts.append(_("“%(text)s” as the FP32 time") % said)
    if "ratio" in query.read_by and "ratio" not in query.carried:
        parts.append(_("“%(text)s” as the ratio") % {"text": _said(w, query, "ratio")})
    if not parts:
        return None
    return _("I read %(parts)s.") % {"parts": w.fmt.join(parts)}


def _unit_assumed(query: Query) -> bool:
    """The FP32 time was a number without a unit ("42", "FP32 time: 100"): hours
    by convention, which the reading line says rather than assumes silently."""
    read = query.read_by["fp32"]
    said = read[1] if len(read) > 1 else ""
    return read[0] in ("position", "labelled_time") and not any(c.isalpha() for c in said)


def _said(w: _Words, query: Query, key: str) -> str:
    read = query.read_by[key]
    return w.echo((read[1] if len(read) > 1 else "") or "?")


def carried_note(w: _Words, query: Query) -> str | None:
    """ "Carried over from earlier: BERT, A100, 4 GPUs, SAR 12.00 per hour, 30 hours in FP32." """
    said = [name for name in _CARRIED_WORDS if name in query.carried]
    items = [item for name in said if (item := _carried_item(w, query, name))]
    if not items:
        return None
    return w._("Carried over from earlier: %(items)s.") % {"items": w.fmt.join(items)}


def _carried_item(w: _Words, query: Query, name: str) -> str | None:
    item = _CARRIED_WORDS.get(name)
    value = query.fp32 if name == "fp32" else getattr(query, name, None)
    return item(w, query) if item is not None and value is not None else None


def _fp32(w: _Words, query: Query) -> str:
    w.unit = query.fp32.unit
    high = query.fp32_high.hours if query.fp32_high is not None else None
    time = w.said_span(query.fp32.hours, high, as_given=True)
    return w.fill(w._("%(time)s in FP32"), {"time": time})


def _price(w: _Words, query: Query) -> str:
    price = query.price
    amount = money(w, price.amount if price.per_run else price.hourly, price.currency)
    if price.per_run:
        return w._("%(price)s for the whole FP32 run") % {"price": amount}
    if price.per_node:
        return w._("%(price)s per node-hour") % {"price": amount}
    return w._("%(price)s per hour") % {"price": amount}


def _gpus(w: _Words, query: Query) -> str:
    n = query.num_gpus
    return w.ngettext("%(n)s GPU", "%(n)s GPUs", n) % {"n": w.fmt.integer(n)}


def _method(w: _Words, query: Query) -> str:
    return {
        "lora": lambda: w.echo("LoRA"),
        "qlora": lambda: w.echo("QLoRA"),
        "inference": lambda: w._("inference"),
    }.get(query.memory_method, lambda: w._("a full fine-tune"))()


def _weights(w: _Words, query: Query) -> str:
    names = {"int4": w._("4-bit"), "nf4": w._("4-bit NF4")}
    precision = names.get(query.weight_precision, query.weight_precision.upper())
    return w._("%(precision)s weights") % {"precision": precision}


def _recipe(w: _Words, query: Query) -> str:
    return {
        "fp32": lambda: w._("FP32 training"),
        "master": lambda: w._("an FP32 master copy"),
        "bf16": lambda: w._("pure BF16"),
    }.get(query.memory_recipe, lambda: "torch.amp")()


_SHARDINGS = {"ddp": "DDP", "zero1": "ZeRO-1", "zero2": "ZeRO-2", "zero3": "ZeRO-3/FSDP"}


# How each carried field is said; a field not listed (one the reply's own
# subject already says, such as the task family) is not repeated.
_CARRIED_WORDS: dict[str, Callable[[_Words, Query], str]] = {
    "model": lambda w, q: w.echo(q.model),
    "gpu": lambda w, q: w.echo(q.gpu),
    "gpu_memory_gb": lambda w, q: w._("%(n)s GB") % {"n": w.fmt.number(q.gpu_memory_gb)},
    "num_gpus": _gpus,
    "precision": lambda w, q: q.precision.upper(),
    "baseline": lambda w, q: w._("a %(baseline)s baseline") % {"baseline": q.baseline.upper()},
    "framework": lambda w, q: w.echo(q.framework),
    "batch_fp32": lambda w, q: w._("batch %(n)s") % {"n": w.fmt.integer(q.batch_fp32)},
    "fp32": _fp32,
    "ratio": lambda w, q: w._("ratio %(ratio)s") % {"ratio": w.fmt.number(q.ratio)},
    "price": _price,
    "params": lambda w, q: w._("the parameter count"),
    "optimizer": lambda w, q: w._("the optimizer"),
    "memory_method": _method,
    "weight_precision": _weights,
    "memory_recipe": _recipe,
    "sharding": lambda w, q: _SHARDINGS.get(q.sharding, q.sharding),
}


def _lines(query: Query, lang: Lang, *, mrkdwn: bool) -> tuple[list[str], str | None]:
    """(notes, Details line) in one markup, isolated for Arabic like the rest of a reply."""
    w = phrases(lang, mrkdwn=mrkdwn)
    found = (carried_note(w, query), per_epoch_note(w, query), unused_note(w, query))
    notes = [n for n in found if n]
    line = reading_line(w, query)
    return [w.line(n) for n in notes], w.line(line) if line else None


def with_reading(reply: Reply, query: Query) -> Reply:
    """``reply`` with the carried-over and unused-numbers notes and the Details line."""
    plain_notes, plain_line = _lines(query, reply.lang, mrkdwn=False)
    slack_notes, slack_line = _lines(query, reply.lang, mrkdwn=True)
    if not reply.details:
        plain_line = slack_line = None
    if not plain_notes and plain_line is None:
        return reply
    lines = reply.text.split("\n")
    lines[1:1] = plain_notes  # right under the answer, before its own notes
    if plain_line is not None:
        lines.append(plain_line)
    return reply.model_copy(
        update={
            "notes": slack_notes + reply.notes,
            "details": reply.details + ([slack_line] if slack_line else []),
            "text": "\n".join(lines),
        }
    )
