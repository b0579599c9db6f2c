"""What a thread remembers of a question, and what a later message inherits.

A thread (or the console session) keeps the setup of the question before; the
next message inherits it only when it is a real follow-up: an elliptical
message ("and on H100?", "what about 8 GPUs?", "it takes 36 hours on A100")
that leans on what was said. A message that asks its own question starts
afresh, so nothing from before leaks into it and the thread then remembers
that question alone: it names the job (a model or task) with a GPU, a time or
a ratio ("GPT-2 on RTX 3090, training takes 2 days"), or gives both a time and
a ratio ("30 hours, ratio 2"), or, once the thread has had its time, a new
time with two more facts ("3 days on 4 A100 at $30/h"); unless it opens as a
follow-up ("and ..."). A follow-up also keeps the kind of question it
follows: after a memory question, "and on H100?" asks about memory again.

What was carried over is named on the query (``Query.carried``), so the reply
can say so ("Carried over: 4 GPUs, SAR 12/h").
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from bot.models import HOURS_PER_UNIT, Duration, Intent, Query, Reason, TimeUnit
from bot.understanding.text.normalise import normalise

# What a question says about the training job; a thread remembers these so a
# follow-up ("it takes 36 hours", "and on H100?") is about the same job.
SETUP_FIELDS = (
    "gpu",
    "gpu_memory_gb",
    "model",
    "family",
    "num_gpus",
    "precision",
    "baseline",
    "framework",
    "architecture",
    "dimensions",
    "batch_fp32",
    "batch_amp",
)

# What a memory question adds: a memory follow-up ("and on H100?", "and with
# LoRA?") keeps what it does not change, the method included.
MEMORY_FIELDS = (
    "params",
    "optimizer",
    "memory_method",
    "memory_recipe",
    "weight_precision",
    "sharding",
    "sized_model",
)

# What the ratio depends on: a follow-up naming any of these asks for a new
# ratio, so the one the user gave earlier in the thread no longer applies.
RATIO_DEPENDS_ON = ("gpu", "model", "family", "precision", "baseline", "framework", "architecture")

# A follow-up that names one of these drops what the thread said that came
# with the old value: a new model has its own task family and size, a new GPU
# its own memory ("and on H100?" after "A100 40GB" is no 40 GB H100).
SUPERSEDES = {
    "model": ("family", "architecture", "dimensions", "params"),
    "family": ("model", "architecture", "dimensions"),
    "params": ("model", "sized_model"),
    "gpu": ("gpu_memory_gb",),
    # "and for inference?" after QLoRA: the new method holds its weights its own way.
    "memory_method": ("weight_precision",),
    # "and in bf16?" after "in fp32": the precision named decides how states are held.
    "precision": ("memory_recipe",),
    "baseline": ("memory_recipe",),
}

# What a memory method does not use, so a follow-up switching to it leaves it
# behind ("and for inference?" has no optimizer states to carry).
UNUSED_BY_METHOD = {"inference": ("optimizer", "memory_recipe", "sharding")}

# Thread memory key for the kind of question the thread is about.
KIND_KEY = "kind"


def memory_method_followed(setup: Mapping[str, object]) -> str | None:
    """The method of the memory question a thread was about ("full" when it named
    none), for the reader; None when the thread was not about memory."""
    if setup.get(KIND_KEY) != Intent.MEMORY.value:
        return None
    return str(setup.get("memory_method") or "full")


def setup_of(query: Query) -> dict:
    """The setup fields a question named (what a thread keeps), without the empty ones."""
    return {name: value for name in SETUP_FIELDS if (value := getattr(query, name)) is not None}


def thread_memory(query: Query) -> dict:
    """What a thread keeps of a question: its kind, its setup, the ratio the user
    gave and the price, JSON-ready ("and at $2 an hour?" keeps "ratio 2")."""
    memory = setup_of(query)
    if query.intent is Intent.MEMORY:
        memory[KIND_KEY] = Intent.MEMORY.value
        memory |= {n: v for n in MEMORY_FIELDS if (v := getattr(query, n)) is not None}
    if query.fp32 is not None:  # follow-ups answer in the unit the time was given in
        memory["time_unit"] = query.fp32.unit.value
    if query.fp32_high is not None:  # "30-40 hours", then "and on H100?": both ends still
        memory["fp32_high_hours"] = query.fp32_high.hours
    if query.per_epoch:  # "and at 2.5?" after one epoch's time: still per epoch
        memory["per_epoch"] = True
    if query.ratio is not None:
        memory["ratio"] = query.ratio
    if query.price is not None:
        memory["price"] = query.price.model_dump()
    return memory


@cache
def _openers() -> dict[str, tuple[str, ...]]:
    """Words that open a follow-up, normalised as messages are (``follow_up.toml``)."""
    data = tomllib.loads((Path(__file__).with_name("follow_up.toml")).read_text("utf-8"))
    return {key: tuple(normalise(w) for w in words) for key, words in data.items()}


_WORD = re.compile(r"[^\W\d_]+|\d+")


def opens_as_follow_up(text: str) -> bool:
    """ "and on H100, 20 hours?", "what about BERT on A100?", "وعلى T4؟": the
    message's first words say it goes on from the one before."""
    words = _WORD.findall(normalise(text[:200]))
    if not words:
        return False
    openers = _openers()
    first = " ".join(words[:3])
    if any(first == o or first.startswith(o + " ") for o in openers["openers"]):
        return True
    # Arabic "و" glued to the next word: "وعلى", "وبالـ", "ولو", "واذا".
    head = words[0]
    return head.startswith("و") and any(
        head[1:] == p or (len(p) > 1 and head[1:].startswith(p)) for p in openers["after_wa"]
    )


# The setup facts a question can state without naming its job; with its own
# time, two of them make a whole new question once the thread has had its time.
JOBLESS_FACTS = ("gpu", "num_gpus", "price", "precision", "framework", "baseline")


def asks_its_own_question(query: Query, text: str, *, thread_timed: bool = False) -> bool:
    """Whether ``query`` stands on its own, so nothing from the thread applies.

    ``thread_timed``: the thread's question already had its FP32 time. Then a
    message with a time of its own and two more facts ("٣ أيام على A100 بتكلفة ٣٠
    ريال بالساعة على ٤ كروت") is a new question, not the time the bot asked for
    ("it takes 36 hours on A100" after "how much faster is BERT?").
    """
    if opens_as_follow_up(text):
        return False
    if query.intent is Intent.MEMORY:
        return query.params is not None or query.model is not None
    subject = query.model is not None or query.family is not None
    more = any(part is not None for part in (query.gpu, query.fp32, query.ratio))
    if (subject and more) or (query.fp32 is not None and query.ratio is not None):
        return True
    facts = sum(getattr(query, name) is not None for name in JOBLESS_FACTS)
    return thread_timed and query.fp32 is not None and facts >= 2


def about_the_job(query: Query) -> bool:
    """A time, a ratio, a price, a setup or memory detail ("and with LoRA?"):
    something a follow-up can build on."""
    if query.small_talk:
        return False
    given = (query.fp32, query.ratio, query.price, *(getattr(query, n) for n in MEMORY_FIELDS))
    return any(value is not None for value in given) or bool(setup_of(query))


def _asks_nothing_of_its_own(query: Query) -> bool:
    """No time, ratio or price of its own: a bare setup change ("and on H100?")."""
    if query.fp32 is not None or query.ratio is not None or query.price is not None:
        return False
    return query.intent is Intent.HELP or (
        query.intent is Intent.ESTIMATE and query.reason in (None, Reason.NO_NUMBERS)
    )


def with_thread(query: Query, setup: Mapping[str, object], hours: float | None, text: str) -> Query:
    """``query`` with what the thread said, when it is a follow-up; as read otherwise."""
    if query.intent not in (Intent.ESTIMATE, Intent.HELP, Intent.MEMORY):
        return query  # language and team commands stand alone
    own = asks_its_own_question(query, text, thread_timed=hours is not None)
    if not about_the_job(query) or own:
        return query
    if setup.get(KIND_KEY) == Intent.MEMORY.value and _asks_nothing_of_its_own(query):
        query = query.model_copy(update={"intent": Intent.MEMORY, "reason": None})
    carried = _missing_setup(query, setup)
    if query.intent is not Intent.MEMORY:
        carried |= _missing_price_and_ratio(query, setup)
    if carried:
        query = query.model_validate(query.model_dump() | carried)
    names = list(carried)
    if hours is not None and query.intent is not Intent.MEMORY:
        high = setup.get("fp32_high_hours")
        high = float(high) if isinstance(high, int | float) and high > hours else None
        timed = _with_time(query, hours, _time_unit(setup.get("time_unit")), high)
        if timed is not query:
            per_epoch = bool(setup.get("per_epoch"))
            query, names = timed.model_copy(update={"per_epoch": per_epoch}), [*names, "fp32"]
    return query.model_copy(update={"carried": names}) if names else query


def _missing_setup(query: Query, setup: Mapping[str, object]) -> dict:
    """The thread's setup the follow-up did not name, less what its own names replace."""
    fields = SETUP_FIELDS + (MEMORY_FIELDS if query.intent is Intent.MEMORY else ())
    replaced = {
        old for name, olds in SUPERSEDES.items() if getattr(query, name) is not None for old in olds
    }
    method = query.memory_method or setup.get("memory_method")
    replaced.update(UNUSED_BY_METHOD.get(str(method), ()))
    return {
        name: setup[name]
        for name in fields
        if setup.get(name) is not None and getattr(query, name) is None and name not in replaced
    }


def _missing_price_and_ratio(query: Query, setup: Mapping[str, object]) -> dict:
    """The thread's price, and the ratio the user gave while nothing it depends on changed."""
    missing: dict = {}
    if query.price is None and isinstance(setup.get("price"), Mapping):
        missing["price"] = setup["price"]
    ratio = setup.get("ratio")
    if (
        query.ratio is None
        and isinstance(ratio, int | float)
        and not any(getattr(query, name) is not None for name in RATIO_DEPENDS_ON)
        and query.reason in (None, Reason.NO_NUMBERS)
    ):
        missing["ratio"] = ratio
    return missing


def _time_unit(value: object) -> TimeUnit:
    """The unit a thread's time was given in; hours for threads kept before units were."""
    try:
        return TimeUnit(value)
    except ValueError:
        return TimeUnit.HOURS


def _with_time(query: Query, hours: float, unit: TimeUnit, high: float | None = None) -> Query:
    """The thread's FP32 time, when a follow-up about the estimate gave none (both ends
    of a range: ``high`` is its high end)."""
    if query.fp32 is not None or query.reason not in (None, Reason.NO_NUMBERS):
        return query
    return query.model_copy(
        update={
            "fp32": _in_unit(hours, unit),
            "fp32_high": _in_unit(high, unit) if high is not None else None,
            "reason": None,
            "intent": Intent.ESTIMATE,
        }
    )


def _in_unit(hours: float, unit: TimeUnit) -> Duration:
    return Duration(value=hours / HOURS_PER_UNIT[unit], unit=unit, hours=hours)


def kept_for_next(query: Query, latest_hours: float | None, hours: float | None):
    """(FP32 hours, memory) the thread keeps after ``query``; None to leave it as it was.

    A question of its own replaces what the thread kept (its time too, none if it
    gave none); a follow-up adds to it, the latest time winning.
    """
    if query.intent not in (Intent.ESTIMATE, Intent.HELP, Intent.MEMORY):
        return None
    if not about_the_job(query):
        return None  # a "thanks!" leaves the thread as it was
    memory = thread_memory(query)
    fresh = not query.carried
    latest = latest_hours if latest_hours is not None or fresh else hours
    return (latest, memory) if latest is not None or memory else None
