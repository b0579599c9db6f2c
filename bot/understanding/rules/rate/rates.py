"""Rule ``step_rate``: two rates said of two precisions, one FP32 and one mixed
("0.9 s/it in fp32, 0.5 s/it with amp"; pasted tqdm, Lightning or Keras
progress lines, one per precision), are the ratio; with a step count ("20k
iterations", "Epoch 1/10 ... 1000/1000") the FP32 rate gives the FP32 time too
(0.9 s × 20,000 = 5 h). Also where the progress lines are, whose elapsed times
time an epoch, never the run.

It reads the rates ``rate_units.py`` merged and the precision
``rate_precision.py`` finds for each.
"""

from __future__ import annotations

from dataclasses import replace

from bot.understanding.resolving.candidates import RATIO, SETUP, STEP_TIME, TIME, Candidate
from bot.understanding.rules.rate.rate_precision import is_rate, precision_near
from bot.understanding.rules.time.durations import Quantity
from bot.understanding.rules.time.fp32_and_mixed import time_precision
from bot.understanding.text.tokens import NUM, WORD, Token
from bot.understanding.values.lexicon import EN_UNITS, EPOCH_NOUNS, UNIT_HOURS, lookup
from bot.understanding.values.nearby import at, in_table, is_sym
from bot.understanding.words import mapping

_COUNT_SCALES = mapping("COUNT_SCALES")
_LINE_SEARCH = 64  # tokens looked back across a progress line for its counter


def _seconds_per_step(tokens: list[Token], i: int) -> float:
    """A rate's seconds per step; "420 ms" and "900 µs" (marked by the context pass) too."""
    tok = tokens[i]
    if "seconds_per_step" in tok.extra:
        return tok.extra["seconds_per_step"]
    return tok.value * step_scale(tokens, i)


def step_scale(tokens: list[Token], i: int) -> float:
    """Seconds per unit of the step time at ``i``: 1 ("1.2 s/it"), 1e-3 ("420 ms",
    "٤٢٠ مللي ثانية") or 1e-6 ("900 µs")."""
    tok = tokens[i]
    if "scale" in tok.extra:
        return tok.extra["scale"]
    nxt = at(tokens, i + 1)
    unit = tok.suffix or (nxt.text if nxt is not None else "")
    return 1e-6 if unit.startswith(("u", "μ", "µ", "micro", "مايكرو", "ميكرو")) else 1e-3


def _steps_before(tokens: list[Token], i: int, epochs: float | None) -> float | None:
    """Steps of the run a rate at ``i`` times: "20k iterations" anywhere, else a
    progress line's "n/N" total times the epochs ("Epoch a/b" on it, "20 epochs")."""
    said = _step_count(tokens, epochs)
    return said if said is not None else _progress_steps(tokens, i, epochs)


def _step_count(tokens: list[Token], epochs: float | None) -> float | None:
    """ "20k iterations", "١٠ آلاف خطوة", "1000 steps per epoch" (times the epochs);
    else :func:`_count_after_steps`. "One step" ("one step takes a minute") names
    the step a time is said of, not the run's count."""
    for k, tok in enumerate(tokens):
        if _counts(tok) and in_table(at(tokens, k + 1), "STEP_COUNT_NOUNS"):
            steps = _count_at(tokens, k - 1) if _spelled_scale(tokens, k) else _count_at(tokens, k)
            if steps > 1:
                return steps * epochs if epochs and _steps_of_an_epoch(tokens, k) else steps
    return _count_after_steps(tokens)


def _count_after_steps(tokens: list[Token]) -> float | None:
    """ "total steps: 20k", "number of steps 1,200", «والخطوات ١٠ آلاف»: a count right
    after a plural step noun (``STEP_TOTAL_NOUNS``; "step 1200" names one step)."""
    for k, tok in enumerate(tokens):
        if not in_table(tok, "STEP_TOTAL_NOUNS"):
            continue
        j = k + 1 + is_sym(at(tokens, k + 1), ":") + is_sym(at(tokens, k + 1), "=")
        if _counts(at(tokens, j)):
            return _count_at(tokens, j)
    return None


def _counts(tok: Token | None) -> bool:
    return tok is not None and tok.kind == NUM and tok.suffix in _COUNT_SCALES and not is_rate(tok)


def _spelled_scale(tokens: list[Token], k: int) -> bool:
    """ "١٠ آلاف", "20 thousand": a number, then its scale spelled (the token at ``k``)."""
    prev = at(tokens, k - 1)
    return prev is not None and prev.kind == NUM and not tokens[k].text[0].isdigit()


def _count_at(tokens: list[Token], k: int) -> float:
    """The count whose number is at ``k``, times its spelled scale after it ("١٠ آلاف")."""
    tok = tokens[k]
    steps = tok.value * _COUNT_SCALES[tok.suffix]
    nxt = at(tokens, k + 1)
    if nxt is not None and _counts(nxt) and _spelled_scale(tokens, k + 1):
        steps *= nxt.value * _COUNT_SCALES[nxt.suffix]
    return steps


def _progress_steps(tokens: list[Token], i: int, epochs: float | None) -> float | None:
    """A progress line's "n/N" total times the epochs ("Epoch 3/10" on the line wins)."""
    per_epoch = None
    for j in range(i - 1, max(-1, i - _LINE_SEARCH), -1):
        tok = tokens[j]
        if tok.text == "\n":
            break
        if tok.kind == NUM and j >= 2 and is_sym(tokens[j - 1], "/") and tokens[j - 2].kind == NUM:
            word = at(tokens, j - 3)
            if word is not None and lookup(word.text, EPOCH_NOUNS):
                epochs = tok.value  # "Epoch 3/10": ten epochs
            elif per_epoch is None:
                per_epoch = tok.value
    return per_epoch * epochs if per_epoch is not None and epochs else None


def _steps_of_an_epoch(tokens: list[Token], k: int) -> bool:
    """ "30 epochs of 1000 steps", "1000 steps per epoch", "١٠٠٠ خطوة لكل ايبوك": the
    step count at ``k`` is one epoch's, so the run's is that times the epochs."""
    before, after = at(tokens, k - 1), tokens[k + 2 : k + 4]
    of_epochs = before is not None and before.text == "of" and _epoch_noun(at(tokens, k - 2))
    per_epoch = len(after) == 2 and in_table(after[0], "RATE_MARKERS") and _epoch_noun(after[1])
    return of_epochs or per_epoch


def _epoch_noun(tok: Token | None) -> bool:
    return tok is not None and tok.kind == WORD and lookup(tok.text, EPOCH_NOUNS) is not None


def step_rate(
    tokens: list[Token], epochs: float | None = None, durations: list[Quantity] = ()
) -> list[Candidate]:
    """Rule ``step_rate``: one FP32 and one mixed rate make the ratio (and FP32 time).

    Returns the rate candidates and, when they pair up, a ratio candidate and
    possibly a time candidate (in hours). The rates are the written ones ("30
    s/step") and the ``durations`` said of one step (:func:`said_step_times`).
    """
    written = [
        Candidate(
            tok.role,
            i,
            i + 1,
            _seconds_per_step(tokens, i),
            "step_rate",
            tok.text,
            precision=precision_near(tokens, i),
        )
        for i, tok in enumerate(tokens)
        if is_rate(tok)
    ]
    both = written + said_step_times(tokens, list(durations))
    rates = _contrast(sorted(both, key=lambda c: c.start))
    if len(rates) == 1 and rates[0].precision != "mixed":
        # A step count the user said, never a log's own counter: an epoch's bar
        # ("Epoch 3/10 ... 500/500") times an epoch, of a precision it does not say.
        return [*rates, *_run_time(tokens, rates[0], _step_count(tokens, epochs))]
    by_precision = {c.precision: c for c in rates if c.precision}
    if len(rates) != 2 or set(by_precision) != {"fp32", "mixed"}:
        return rates
    fp32, mixed = by_precision["fp32"], by_precision["mixed"]
    if not (fp32.value and mixed.value):
        return rates
    said = f"{fp32.text} ÷ {mixed.text}"  # what the ratio was worked out from
    out = [
        *rates,
        Candidate(RATIO, mixed.start, mixed.end, fp32.value / mixed.value, "step_rate", said),
    ]
    return out + _run_time(tokens, fp32, _steps_before(tokens, fp32.start, epochs))


def said_step_times(tokens: list[Token], durations: list[Quantity]) -> list[Candidate]:
    """Rule ``per_step_time``: durations said of one step ("a step is 1.5 minutes in
    fp32", «تستغرق الخطوة الواحدة دقيقتين») are step times like "90 s/step", so a step
    count makes the run's time of them and a pair of them the ratio. Rule
    ``step_time_partner`` as for seconds: the duration right after one, said of the
    other precision with no number between, is the other's step time ("each step takes
    2 minutes in fp32 and 1 minute with amp", «ثانية وحدة بالـ fp32 ونص ثانية بالـ
    bf16»); it is then no time of the job either."""
    out: list[Candidate] = []
    for k, q in enumerate(durations):
        prev = durations[k - 1] if k else None
        if not q.per_step and prev is not None and prev.per_step and _partners(tokens, prev, q):
            q.per_step = q.excluded = True
        if q.per_step:
            said = " ".join(t.written for t in tokens[q.start : q.end])
            precision = _step_precision(tokens, q)
            out.append(
                Candidate(
                    STEP_TIME,
                    q.start,
                    q.end,
                    q.hours * 3600,
                    "per_step_time",
                    said,
                    precision=precision,
                )
            )
    return out


def _partners(tokens: list[Token], first: Quantity, second: Quantity) -> bool:
    """Two durations one after the other, said of the two precisions, no number between."""
    between = tokens[first.end : second.start]
    marks = {_step_precision(tokens, first), _step_precision(tokens, second)}
    return marks == {"fp32", "mixed"} and not any(t.kind == NUM for t in between)


def _step_precision(tokens: list[Token], q: Quantity) -> str:
    """The precision a step's duration is said of: in its own clause, as a time's (a
    «و» glued to it opens the clause: «ونص ثانية بالـ bf16»), else further on as a
    rate's, past the words of the step ("3 min per iteration in fp32")."""
    return time_precision(tokens, q) or precision_near(tokens, q.start)


def _run_time(tokens: list[Token], fp32: Candidate, steps: float | None) -> list[Candidate]:
    """The FP32 run's time, its rate times its steps (0.85 s × 50,000 = 11.8 h): the
    FP32 rate of a pair, or a lone rate said of no mixed precision ("step 1200 |
    loss 2.31 | 0.85 s/step, total 50k steps, what would bf16 give me?", «٠٫٩ ثانية
    لكل step و عندي ٥٠٠٠٠ step»; a rate is FP32 unless said otherwise, as a time is)."""
    if not steps:
        return []
    said = f"{fp32.text} × {steps:g}"  # what the time was worked out from
    return [Candidate(TIME, fp32.start, fp32.end, fp32.value * steps / 3600, "step_rate", said)]


def _contrast(rates: list[Candidate]) -> list[Candidate]:
    """Two rates, one said of a precision: the other is the other precision
    ("with amp 2 it/s instead of 1.5 it/s", "Epoch 3/90 ... 1s/step; with amp
    500ms/step", "مع amp ٢ it/s بدل ١٫٥ it/s")."""
    marks = [c.precision for c in rates]
    if len(rates) != 2 or sorted(marks) not in (["", "fp32"], ["", "mixed"]):
        return rates
    other = "mixed" if "fp32" in marks else "fp32"
    return [c if c.precision else replace(c, precision=other) for c in rates]


def progress_readouts(tokens: list[Token]) -> list[Candidate]:
    """Rule ``progress_readout``: each number on a pasted progress line ("100%",
    "450/1000", "[01:23<01:40]") is a ``setup`` candidate (role "progress"), set
    aside before the durations so it is never the FP32 run's time."""
    return [
        Candidate(
            SETUP, k, k + 1, tokens[k].value, "progress_readout", tokens[k].written, role="progress"
        )
        for k in sorted(progress_lines(tokens))
        if tokens[k].kind == NUM and not tokens[k].role and not _named_ratio(tokens, k)
    ]


def _named_ratio(tokens: list[Token], k: int) -> bool:
    """ "ratio 2", "speedup: 1.8", "2x" on a log's line: the user's ratio, no readout."""
    if tokens[k].suffix == "x":
        return True
    before = [t for t in tokens[max(0, k - 3) : k] if t.text not in (":", "=", "of", "is")]
    return bool(before) and before[-1].kind == WORD and in_table(before[-1], "RATIO_LABELS")


def progress_lines(tokens: list[Token]) -> set[int]:
    """Token indices on pasted progress lines (a rate and an "n/N" counter on one
    line, as tqdm, Lightning and Keras print): their elapsed times ("45s",
    "[02:10<00:00]") time an epoch or a step, never the FP32 run."""
    out: set[int] = set()
    start = 0
    for k in range(len(tokens) + 1):
        if k < len(tokens) and tokens[k].text != "\n":
            continue
        line = range(start, k)
        counter = any(
            tokens[j].kind == NUM
            and is_sym(at(tokens, j + 1), "/")
            and at(tokens, j + 2) is not None
            and tokens[j + 2].kind == NUM
            for j in line
        )
        if counter and _anchor(tokens, start, k) < k:
            out.update(range(start, _end_of_log(tokens, start, k)))
        start = k + 1
    return out


def _anchor(tokens: list[Token], start: int, end: int) -> int:
    """The rate on a line ("1.51s/it"), else the "]" of an elapsed<remaining bracket
    ("[18:00<00:00]", a bar printed with no rate); ``end`` when it has neither."""
    rate = next((j for j in range(start, end) if is_rate(tokens[j])), None)
    if rate is not None:
        return rate
    for j in range(start, end):
        if tokens[j].text != "[":
            continue
        close = next((c for c in range(j + 1, min(end, j + 12)) if tokens[c].text == "]"), None)
        inside = tokens[j + 1 : close] if close is not None else ()
        clocks = all(t.kind == NUM or t.text in (":", "<") for t in inside)
        if close is not None and clocks and len(_clocks_before(tokens, close)) == 2:
            return close
    return end


def _end_of_log(tokens: list[Token], start: int, end: int) -> int:
    """Where the pasted log ends on its line: after the "]" that closes the rate
    ("... [12:34<00:00, 1.51s/it] ratio 2", "... 3.3it/s] and fp32 takes 20h"), or
    the bracket of a bar with no rate ("[18:00<00:00]` per epoch in fp32"): what
    follows is the user's own words. A line without one (Keras) is all log."""
    anchor = _anchor(tokens, start, end)
    close = [j for j in range(anchor, end) if tokens[j].text == "]"]
    return (
        close[0] + 1 if close and not is_rate(tokens[anchor]) else (close[-1] + 1 if close else end)
    )


def progress_clock(tokens: list[Token]) -> Candidate | None:
    """Rule ``progress_clock``: the one pasted progress bar's elapsed and remaining
    clocks add up to the loop it times ("7%|▋ | 350/5000 [04:12<55:48, 1.39it/s]" =
    1 h), when its rate is said of no mixed precision (FP32 unless said otherwise).
    The caller decides whose time it is: the run's, or one epoch's when an epoch
    counter is on its line ("Epoch 3/10: ... [06:52<00:00, 3.79it/s]")."""
    rates = [i for i, tok in enumerate(tokens) if is_rate(tok)]
    lines = progress_lines(tokens)
    if not rates and lines:  # a bar with no rate: its bracket's "]" ("[18:00<00:00]")
        rates = [_anchor(tokens, min(lines), max(lines) + 1)]
    if len(rates) != 1 or rates[0] not in lines or precision_near(tokens, rates[0]) == "mixed":
        return None
    clocks = _clocks_before(tokens, rates[0])
    if len(clocks) != 2:
        return _finished_elapsed(tokens, rates[0])
    hours = sum(h for h, _, _ in clocks)
    said = " + ".join(text for _, text, _ in clocks)
    return Candidate(TIME, clocks[0][2], rates[0], hours, "progress_clock", said)


def _finished_elapsed(tokens: list[Token], rate: int) -> Candidate | None:
    """Rule ``progress_elapsed``: a finished Keras line's elapsed time, the duration
    just before its rate ("Epoch 1/10\n1563/1563 [=====] - 720s 460ms/step", Keras 3's
    "━━━ 720s 460ms/step"), is how long the epoch took. Keras prints a line per epoch
    after its "Epoch a/b" header; a line with no epoch before it times an evaluation
    or a prediction, and one still running prints its time left ("ETA: 5:12")."""
    elapsed = at(tokens, rate - 1)
    unit = EN_UNITS.get(elapsed.suffix) if elapsed is not None else None
    if elapsed is None or elapsed.kind != NUM or unit is None or not _counter_full(tokens, rate):
        return None
    if not any(_epoch_noun(t) for t in tokens[: rate - 1]):
        return None
    hours = elapsed.value * UNIT_HOURS[unit]
    return Candidate(TIME, rate - 1, rate, hours, "progress_elapsed", elapsed.written)


def _counter_full(tokens: list[Token], rate: int) -> bool:
    """The "n/N" counter nearest before the rate on its line reads N/N: the loop is done."""
    for j in range(rate - 1, max(1, rate - _LINE_SEARCH), -1):
        if tokens[j].text == "\n":
            return False
        if tokens[j].kind == NUM and is_sym(tokens[j - 1], "/") and tokens[j - 2].kind == NUM:
            return tokens[j].value == tokens[j - 2].value
    return False


def _clocks_before(tokens: list[Token], rate: int) -> list[tuple[float, str, int]]:
    """The MM:SS or H:MM:SS clocks between the "[" and the rate: (hours, text, start)."""
    k = rate - 1
    while k >= 0 and tokens[k].text not in ("[", "\n"):
        k -= 1
    clocks, j = [], k + 1
    while j < rate:
        if tokens[j].kind != NUM:
            j += 1
            continue
        first, parts, j = j, [tokens[j]], j + 1
        while j + 1 < rate and is_sym(tokens[j], ":") and tokens[j + 1].kind == NUM:
            parts, j = [*parts, tokens[j + 1]], j + 2
        if len(parts) in (2, 3):
            seconds = 0.0
            for part in parts:
                seconds = seconds * 60 + part.value
            clocks.append((seconds / 3600, ":".join(p.written for p in parts), first))
    return clocks
