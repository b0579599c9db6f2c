"""Rates: throughputs ("25% more it/s") and step times ("0.9 s/it", "29ms/step").

Four rules live here, each with its examples:

* ``rate_unit`` joins a rate written in pieces into one token, so later rules
  see one thing: "it/s", "samples/sec", "tokens per second", "صورة في الثانية",
  "عينات/ث" become a throughput word; "0.9 s/it", "5.40it/s", "29ms/step",
  "١٫٢ ث/خطوة" become a number whose suffix is the rate.
* ``step_named_time`` reads seconds said of a step as a step time, not the
  run's time: "fp32 step 1.2s", "bf16 step time: 0.55 s", "زمن الخطوة ١٫٢ ث".
* ``step_time_partner``: with one such step time said of one precision, seconds
  said of the other are its partner ("fp32 step 1.2s, amp 0.6s").
* ``step_rate`` reads two rates said of two precisions, one FP32 and one mixed
  ("0.9 s/it in fp32, 0.5 s/it with amp"; pasted tqdm, Lightning or Keras
  progress lines, one per precision), as the ratio; with a step count ("20k
  iterations", "Epoch 1/10 ... 1000/1000") the FP32 rate gives the FP32 time
  too (0.9 s × 20,000 = 5 h).
"""

from __future__ import annotations

from dataclasses import replace

from bot.understanding.candidates import RATIO, STEP_TIME, THROUGHPUT, TIME, Candidate
from bot.understanding.lexicon import EPOCH_NOUNS, lookup
from bot.understanding.tokens import ARABIC, NUM, SYM, WORD, Token
from bot.understanding.words import mapping, table

THROUGHPUT_SUFFIX = "/s"  # a number's suffix "it/s": work per second
STEP_SUFFIX = "s/"  # a number's suffix "s/it": seconds per step
_COUNT_SCALES = mapping("COUNT_SCALES")
_SEARCH = 12  # tokens looked at around a rate for its precision, in its clause
_LINE_SEARCH = 64  # ... and back across a progress line ("fp32:\nEpoch 0: 100%|███| ...")
_FP32 = table("FP32")
_MIXED = table("MIXED")


def _in(tok: Token | None, name: str) -> bool:
    if tok is None or tok.kind != WORD:
        return False
    words = table(name)
    return tok.text in words or (tok.script == ARABIC and lookup(tok.text, words) is not None)


def _sym(tok: Token | None, text: str) -> bool:
    return tok is not None and tok.kind == SYM and tok.text == text


def _rate_words(tokens: list[Token], i: int) -> tuple[str, int] | None:
    """ "it/s", "it per second", "الصور في الثانية", "s/it" at ``i``: (kind, end)."""
    if _in(tokens[i], "PER_SECOND_WORDS"):
        return THROUGHPUT, i + 1  # "367 fps"
    if tokens[i].kind != WORD or i + 1 >= len(tokens):
        return None
    a, b, c = (tokens[i + k] if i + k < len(tokens) else None for k in range(3))
    if _in(a, "WORK_NOUNS") and _sym(b, "/") and _in(c, "SECOND_WORDS"):
        return THROUGHPUT, i + 3
    if _in(a, "WORK_NOUNS") and _in(b, "PER_WORDS") and _in(c, "SECOND_WORDS"):
        return THROUGHPUT, i + 3
    if _in(a, "WORK_NOUNS") and b is not None and b.script == ARABIC and _in(b, "SECOND_WORDS"):
        return THROUGHPUT, i + 2  # "الصور بالثانية"
    if (
        (_in(a, "SECOND_WORDS") or _in(a, "MILLISECOND_WORDS"))
        and _sym(b, "/")
        and _in(c, "WORK_NOUNS")
    ):
        return STEP_TIME, i + 3
    return None


def merge_rates(tokens: list[Token]) -> list[Token]:
    """Rules ``rate_unit``, ``step_named_time`` and ``step_time_partner``: one token
    per rate (see the module docstring)."""
    return _step_partners(_merged_rates(tokens))


def _merged_rates(tokens: list[Token]) -> list[Token]:
    out: list[Token] = []
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        if (named := _named_step_time(tokens, i)) is not None:
            out.append(named[0])
            i = named[1]
            continue
        if tok.kind == NUM and tok.suffix and _sym(_at(tokens, i + 1), "/"):
            merged = _glued_rate(tok, tokens, i)
            if merged is not None:
                out.append(merged[0])
                i = merged[1]
                continue
        got = _rate_words(tokens, i)
        if got is None:
            out.append(tok)
            i += 1
            continue
        kind, end = got
        text = " ".join(t.text for t in tokens[i:end])
        prev = out[-1] if out else None
        if prev is not None and prev.kind == NUM and not prev.role and _counts_rate(prev, kind):
            scale = 1e-3 if _in(tokens[i], "MILLISECOND_WORDS") else 1.0
            out[-1] = _rate_number(_thousands(prev), kind, text, scale)
        else:
            out.append(Token(WORD, text, glued=tok.glued, script=tok.script, role=kind))
        i = end
    return out


def _named_step_time(tokens: list[Token], i: int) -> tuple[Token, int] | None:
    """Rule ``step_named_time``: a step word, at most two fillers ("time", ":",
    "takes", "تستغرق"), then seconds ("1.2s", "0.55 seconds", "١٫٢ ث"): one
    step-time token from the step word on (so "fp32 step 1.2s" has its precision
    next to it), and where it ends. Milliseconds need no rule ("420ms" is never a
    run's time)."""
    if not _in(tokens[i], "STEP_TIME_LEADERS"):
        return None
    j = i + 1
    while j < min(len(tokens), i + 3) and _step_filler(tokens[j]):
        j += 1
    num = _at(tokens, j)
    if num is None or num.kind != NUM or num.role:
        return None
    unit = _at(tokens, j + 1)
    if num.suffix and _in(Token(WORD, num.suffix, script="lat"), "SECOND_WORDS"):
        end = j + 1
    elif not num.suffix and _in(unit, "SECOND_WORDS"):
        end = j + 2
    else:
        return None
    said = " ".join(t.text for t in tokens[i:j])
    merged = _rate_number(num, STEP_TIME, num.suffix or unit.text, 1.0)
    merged.extra["rule"] = "step_named_time"
    return replace(merged, text=f"{said} {merged.text}"), end


def _step_partners(tokens: list[Token]) -> list[Token]:
    """Rule ``step_time_partner``: with one step time named in seconds and said of one
    precision, seconds said of the other precision are its partner, a step time
    too: "fp32 step 1.2s, amp 0.6s", "زمن الخطوة ١٫٢ ث في fp32 و٠٫٦ ث مع amp"."""
    named = [i for i, t in enumerate(tokens) if t.extra.get("rule") == "step_named_time"]
    side = precision_near(tokens, named[0]) if len(named) == 1 else ""
    if not side:
        return tokens
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        end = _seconds_end(tokens, i)
        if end and precision_near(tokens, i) not in ("", side):
            unit = tokens[i].suffix or tokens[i + 1].text
            partner = _rate_number(tokens[i], STEP_TIME, unit, 1.0)
            partner.extra["rule"] = "step_time_partner"
            out.append(partner)
            i = end
            continue
        out.append(tokens[i])
        i += 1
    return out


def _seconds_end(tokens: list[Token], i: int) -> int:
    """Where a bare number in seconds ("0.6s", "٠٫٦ ث") ends, or 0 when there is none."""
    tok = tokens[i]
    if tok.kind != NUM or tok.role:
        return 0
    if tok.suffix:
        return i + 1 if _in(Token(WORD, tok.suffix, script="lat"), "SECOND_WORDS") else 0
    return i + 2 if _in(_at(tokens, i + 1), "SECOND_WORDS") else 0


def _step_filler(tok: Token) -> bool:
    return _in(tok, "STEP_TIME_FILLERS") or (
        tok.kind == SYM and tok.text in table("STEP_TIME_FILLERS")
    )


def _glued_rate(tok: Token, tokens: list[Token], i: int) -> tuple[Token, int] | None:
    """ "5.40it/s", "29ms/step", "2s/it": the unit glued to the number."""
    nxt = _at(tokens, i + 2)
    head = Token(WORD, tok.suffix, script="lat")
    if _in(head, "WORK_NOUNS") and _in(nxt, "SECOND_WORDS"):
        return _rate_number(tok, THROUGHPUT, f"{tok.suffix}/{nxt.text}", 1.0), i + 3
    if (_in(head, "SECOND_WORDS") or _in(head, "MILLISECOND_WORDS")) and _in(nxt, "WORK_NOUNS"):
        scale = 1e-3 if _in(head, "MILLISECOND_WORDS") else 1.0
        return _rate_number(tok, STEP_TIME, f"{tok.suffix}/{nxt.text}", scale), i + 3
    return None


def _counts_rate(tok: Token, kind: str) -> bool:
    """A bare number counts the rate after it; so does one in thousands of a
    throughput ("1.2k tokens/s", never "1.2k parameters")."""
    return not tok.suffix or (tok.suffix == "k" and kind == THROUGHPUT)


def _thousands(tok: Token) -> Token:
    if tok.suffix != "k":
        return tok
    return Token(NUM, tok.text + "k", value=tok.value * 1000, glued=tok.glued)


def _rate_number(tok: Token, kind: str, unit: str, scale: float) -> Token:
    """A number that is a rate: its role says which, ``extra`` holds seconds per step."""
    seconds = tok.value * scale if kind == STEP_TIME else (1 / tok.value if tok.value else 0.0)
    suffix = THROUGHPUT_SUFFIX if kind == THROUGHPUT else STEP_SUFFIX
    return Token(
        NUM,
        f"{tok.text} {unit}",
        value=tok.value,
        suffix=suffix,
        glued=tok.glued,
        role=kind,
        # "counts": what a throughput counts ("img" of "367 img/s"), for records.
        extra={
            "seconds_per_step": seconds,
            "scale": scale,
            "counts": unit.split()[0].split("/")[0],
        },
    )


def _at(tokens: list[Token], i: int) -> Token | None:
    return tokens[i] if 0 <= i < len(tokens) else None


def is_throughput_word(tok: Token) -> bool:
    """ "it/s", "samples/sec", "الصور في الثانية" (a merged word): a speed, like "throughput"."""
    return tok.kind == WORD and tok.role == THROUGHPUT


# ------------------------------------------------------------------ step_rate
def _precision_of(tokens: list[Token], j: int) -> str:
    """ "fp32" or "mixed" for a precision word at ``j``; "without amp" / "بدون amp" is FP32,
    and so is a negation said alone of the precision named before ("... vs 1.1 it/s without")."""
    tok = tokens[j]
    if tok.kind != WORD:
        return ""
    if _in(tok, "BARE_NEGATIONS") and not (j + 1 < len(tokens) and _precision_of(tokens, j + 1)):
        return "fp32"  # "1.1 it/s without", "وبدونه ١٫١ it/s": without the mixed precision
    if tok.text in _FP32:
        return "fp32"
    if not (tok.text in _MIXED or lookup(tok.text, _MIXED)):
        return ""
    return "fp32" if _in(_at(tokens, j - 1), "NEGATIONS") else "mixed"


def _is_rate(tok: Token) -> bool:
    return tok.kind == NUM and tok.role in (STEP_TIME, THROUGHPUT)


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
    nxt = _at(tokens, i + 1)
    unit = tok.suffix or (nxt.text if nxt is not None else "")
    return 1e-6 if unit.startswith(("u", "μ", "µ", "micro", "مايكرو", "ميكرو")) else 1e-3


def precision_near(tokens: list[Token], i: int) -> str:
    """The precision a rate at ``i`` is said of: nearest in its clause (before wins a
    tie), else the nearest earlier on its line ("fp32: 100%|███| 1000/1000 [.., 5.0it/s]")."""
    best, best_at = "", _SEARCH + 1
    for step in range(1, _SEARCH):
        j = i - step
        if j < 0 or tokens[j].is_boundary or _is_rate(tokens[j]):
            break
        if mark := _precision_of(tokens, j):
            best, best_at = mark, step
            break
        if _in(tokens[j], "CLAUSE_JOINERS"):
            break
    for step in range(1, min(best_at, _SEARCH)):
        j = i + step
        if j >= len(tokens) or tokens[j].is_boundary or _is_rate(tokens[j]):
            break
        if mark := _precision_of(tokens, j):
            return mark
        if _in(tokens[j], "CLAUSE_JOINERS"):
            break  # "1s/step - loss: 0.4 and with amp 500ms/step": amp is the next clause's
    if best:
        return best
    for j in range(i - 1, max(-1, i - _LINE_SEARCH), -1):
        if _is_rate(tokens[j]):
            break
        if (mark := _precision_of(tokens, j)) and not _trails_rate(tokens, j):
            return mark
    return ""


def _trails_rate(tokens: list[Token], j: int) -> bool:
    """ "... 2.50it/s] fp32 and ... 5.00it/s] amp": a precision written right after a
    rate (only marks between) is that rate's, not the next line's."""
    k = j - 1
    while k >= 0 and tokens[k].kind == SYM:
        k -= 1
    return k >= 0 and _is_rate(tokens[k])


def _steps_before(tokens: list[Token], i: int, epochs: float | None) -> float | None:
    """Steps of the run a rate at ``i`` times: "20k iterations" anywhere, else a
    progress line's "n/N" total times the epochs ("Epoch a/b" on it, "20 epochs")."""
    for k, tok in enumerate(tokens):
        counted = tok.kind == NUM and tok.suffix in _COUNT_SCALES and not _is_rate(tok)
        if counted and _in(_at(tokens, k + 1), "STEP_COUNT_NOUNS"):
            prev = _at(tokens, k - 1)
            # "١٠ آلاف خطوة", "20 thousand steps": a number and a spelled scale.
            spelled = prev is not None and prev.kind == NUM and not tok.text[0].isdigit()
            return (prev.value if spelled else 1.0) * tok.value * _COUNT_SCALES[tok.suffix]
    per_epoch = None
    for j in range(i - 1, max(-1, i - _LINE_SEARCH), -1):
        tok = tokens[j]
        if tok.text == "\n":
            break
        if tok.kind == NUM and j >= 2 and _sym(tokens[j - 1], "/") and tokens[j - 2].kind == NUM:
            word = _at(tokens, j - 3)
            if word is not None and lookup(word.text, EPOCH_NOUNS):
                epochs = tok.value  # "Epoch 3/10": ten epochs
            elif per_epoch is None:
                per_epoch = tok.value
    return per_epoch * epochs if per_epoch is not None and epochs else None


def step_rate(tokens: list[Token], epochs: float | None = None) -> list[Candidate]:
    """Rule ``step_rate``: one FP32 and one mixed rate make the ratio (and FP32 time).

    Returns the rate candidates and, when they pair up, a ratio candidate and
    possibly a time candidate (in hours).
    """
    rates = [
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
        if _is_rate(tok)
    ]
    rates = _contrast(rates)
    by_precision = {c.precision: c for c in rates if c.precision}
    if len(rates) != 2 or set(by_precision) != {"fp32", "mixed"}:
        return rates
    fp32, mixed = by_precision["fp32"], by_precision["mixed"]
    if not (fp32.value and mixed.value):
        return rates
    out = [
        *rates,
        Candidate(RATIO, mixed.start, mixed.end, fp32.value / mixed.value, "step_rate", mixed.text),
    ]
    steps = _steps_before(tokens, fp32.start, epochs)
    if steps:
        out.append(
            Candidate(TIME, fp32.start, fp32.end, fp32.value * steps / 3600, "step_rate", fp32.text)
        )
    return out


def _contrast(rates: list[Candidate]) -> list[Candidate]:
    """Two rates, one said of a precision: the other is the other precision
    ("with amp 2 it/s instead of 1.5 it/s", "Epoch 3/90 ... 1s/step; with amp
    500ms/step", "مع amp ٢ it/s بدل ١٫٥ it/s")."""
    marks = [c.precision for c in rates]
    if len(rates) != 2 or sorted(marks) not in (["", "fp32"], ["", "mixed"]):
        return rates
    other = "mixed" if "fp32" in marks else "fp32"
    return [c if c.precision else replace(c, precision=other) for c in rates]


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
            and _sym(_at(tokens, j + 1), "/")
            and _at(tokens, j + 2) is not None
            and tokens[j + 2].kind == NUM
            for j in line
        )
        if counter and any(_is_rate(tokens[j]) for j in line):
            out.update(line)
        start = k + 1
    return out
