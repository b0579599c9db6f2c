"""Rules that join a rate written in pieces into one token, so later rules see
one thing:

* ``rate_unit``: "it/s", "samples/sec", "tokens per second", "صورة في الثانية",
  "عينات/ث" become a throughput word; "0.9 s/it", "5.40it/s", "29ms/step",
  "١٫٢ ث/خطوة" become a number whose suffix is the rate; a throughput in
  thousands is one too ("1.2k tokens/s").
* ``step_named_time`` reads seconds said of a step as a step time, not the
  run's time: "fp32 step 1.2s", "bf16 step time: 0.55 s", "زمن الخطوة ١٫٢ ث".
* ``step_time_partner``: with one such step time said of one precision, seconds
  said of the other are its partner ("fp32 step 1.2s, amp 0.6s").
* ``rate_label``: a rate's unit said once as a label, then bare numbers each said
  of a precision ("tokens/s: 4,200 in fp32 vs 7,560 in bf16").
* ``rate_change``: a rate changed "from A to B" or "A → B", its unit said once, is
  two rates ("tokens/sec went 2.4k → 4.2k", "from 1.5k to 2.7k tokens/s").
* ``rate_partner``: a bare number the rate became with the other precision is in
  the rate's unit ("fp32 does 3000 tok/s, with bf16 it went to 5100", "bf16 5100").

What they read: the tokens of one rate and the precision said beside it
(``rate_precision.py``); ``rates.py`` reads the merged rates.
"""

from __future__ import annotations

from dataclasses import replace

from bot.understanding.resolving.candidates import STEP_TIME, THROUGHPUT
from bot.understanding.rules.rate.rate_precision import is_rate, precision_near, precision_of
from bot.understanding.text.tokens import ARABIC, NUM, SYM, WORD, Token
from bot.understanding.values.lexicon import EN_UNITS
from bot.understanding.values.nearby import at, in_table, is_sym, is_time_unit, text_at
from bot.understanding.words import table

THROUGHPUT_SUFFIX = "/s"  # a number's suffix "it/s": work per second
STEP_SUFFIX = "s/"  # a number's suffix "s/it": seconds per step
_SECONDS = frozenset(w for w, unit in EN_UNITS.items() if unit == "sec")
_SECOND_SUFFIXES = table("SECOND_WORDS")  # "0.6s": a suffix is Latin, so no clitics


def _rate_words(tokens: list[Token], i: int) -> tuple[str, int] | None:
    """ "it/s", "it per second", "الصور في الثانية", "s/it" at ``i``: (kind, end)."""
    if in_table(tokens[i], "PER_SECOND_WORDS"):
        return THROUGHPUT, i + 1  # "367 fps"
    if tokens[i].kind != WORD or i + 1 >= len(tokens):
        return None
    a, b, c = (tokens[i + k] if i + k < len(tokens) else None for k in range(3))
    if in_table(a, "WORK_NOUNS") and is_sym(b, "/") and in_table(c, "SECOND_WORDS"):
        return THROUGHPUT, i + 3
    if in_table(a, "WORK_NOUNS") and in_table(b, "PER_WORDS") and in_table(c, "SECOND_WORDS"):
        return THROUGHPUT, i + 3
    if (
        in_table(a, "WORK_NOUNS")
        and b is not None
        and b.script == ARABIC
        and in_table(b, "SECOND_WORDS")
    ):
        return THROUGHPUT, i + 2  # "الصور بالثانية"
    if (
        (in_table(a, "SECOND_WORDS") or in_table(a, "MILLISECOND_WORDS"))
        and is_sym(b, "/")
        and in_table(c, "WORK_NOUNS")
    ):
        return STEP_TIME, i + 3
    return _seconds_per_step_words(tokens, i)


def _seconds_per_step_words(tokens: list[Token], i: int) -> tuple[str, int] | None:
    """ "seconds per step", "sec each iteration", «ثانية لكل step», «ثانية للخطوة»:
    a step time written in words, like "s/it" (milliseconds are a step time alone)."""
    a, b, c = (tokens[i + k] if i + k < len(tokens) else None for k in range(3))
    if not in_table(a, "SECOND_WORDS"):
        return None
    if in_table(b, "PER_WORDS") and in_table(c, "WORK_NOUNS"):
        return STEP_TIME, i + 3
    glued = b is not None and b.script == ARABIC and b.text.startswith(("لل", "ل"))
    if glued and in_table(b, "WORK_NOUNS"):
        return STEP_TIME, i + 2
    return None


def merge_rates(tokens: list[Token]) -> list[Token]:
    """Rules ``rate_unit``, ``step_named_time``, ``step_time_partner``, ``rate_label``,
    ``rate_change`` and ``rate_partner``: one token per rate (see the module docstring)."""
    return _step_partners(_rate_partners(_rate_changes(_rate_labels(_merged_rates(tokens)))))


_FROM = table("FROM_WORDS")
_TO = table("RATE_TO_WORDS")
_ARROW = "→"  # "->" and "=>" are written as it (``normalise``)
_UNIT_REACH = 3  # tokens back from a change to the rate word it is of ("tokens/sec went from")


def _rate_changes(tokens: list[Token]) -> list[Token]:
    """Rule ``rate_change``: a rate changed from A to B ("from A to B", "A → B", «من A
    ل B») with its unit said once makes A and B two rates of that kind (A before the
    change, B after). The unit is a rate word before both ("tokens/sec went from 3.1k
    to 5.2k with bf16", "tokens/sec went 2.4k → 4.2k", «الصور في الثانية زادت من ٢٠٠ ل
    ٣٥٠ مع bf16»), or the second number's ("throughput went from 1.5k to 2.7k
    tokens/s", "900 → 1440 img/s"): one unit written for both, as "from 3 to 5 hours"
    is. A first number far from the second rate (``_near``) is no rate of its run.
    Each change sign looks only at its neighbours, so the pass is linear."""
    for c in range(1, len(tokens) - 1):
        a, b = tokens[c - 1], tokens[c + 1]
        if not (_bare(a) and _change_sign(tokens, c)):
            continue
        if _bare(b):
            word = _rate_word_before(tokens, c - 1 - (text_at(tokens, c - 2) in _FROM))
            if word is not None:
                tokens[c - 1], tokens[c + 1] = _in_unit_of(a, word), _in_unit_of(b, word)
        elif is_rate(b) and _near(_thousands(a).value, b.value):
            unit, scale = b.extra["unit"], b.extra["scale"]
            tokens[c - 1] = _rate_number(_thousands(a), b.role, unit, scale)
    return tokens


def _change_sign(tokens: list[Token], c: int) -> bool:
    """An arrow at ``c`` ("2.4k → 4.2k"), or "to" after "from" and a number ("from 1.5k
    to 2.7k", «من ٢٠٠ ل ٣٥٠»; a lone "to" is a range's or an aim's)."""
    tok = tokens[c]
    if tok.kind == SYM:
        return tok.text == _ARROW
    return tok.text in _TO and text_at(tokens, c - 2) in _FROM


def _rate_word_before(tokens: list[Token], start: int) -> Token | None:
    """The rate word ("tokens/sec", «الصور في الثانية») ending at most ``_UNIT_REACH``
    tokens before ``start`` (a verb of change between: "went", «زادت»)."""
    for k in range(start - 1, max(-1, start - 1 - _UNIT_REACH), -1):
        if tokens[k].kind == WORD and tokens[k].role in (THROUGHPUT, STEP_TIME):
            return tokens[k]
    return None


def _in_unit_of(num: Token, word: Token) -> Token:
    """The bare number ``num`` as a rate in the unit of the rate word ``word``
    ("ms/step from 420 to 190": milliseconds)."""
    head = Token(WORD, word.text.split()[0], script=word.script)
    scale = 1e-3 if in_table(head, "MILLISECOND_WORDS") else 1.0
    return _rate_number(_thousands(num), word.role, word.text, scale)


_LABEL_SIGNS = frozenset(":=")
_SENTENCE_ENDS = frozenset(".?!;\n")


def _rate_labels(tokens: list[Token]) -> list[Token]:
    """Rule ``rate_label``: a rate's unit said once as a label ("tokens/s:", "img/sec
    =", "throughput (samples/s):", «الإنتاجية (صورة/ث):») is the unit of each bare
    number after it in its sentence that is said of a precision: "tokens/s: 4,200 in
    fp32 vs 7,560 in bf16" are two throughputs, as "4,200 tokens/s in fp32 vs 7,560
    tokens/s in bf16" are. A number of something else ("3 days", "8 GPUs") keeps its
    own unit, and a rate written in full ends the label's reach; so does a number far
    from the label's first (``_near``: "..., what with bf16 at 1.8?" asks a ratio)."""
    for k, word in enumerate(tokens):
        if word.kind != WORD or word.role not in (THROUGHPUT, STEP_TIME):
            continue
        j = k + 1 + is_sym(at(tokens, k + 1), ")")
        sign = at(tokens, j)
        if sign is None or sign.kind != SYM or sign.text not in _LABEL_SIGNS:
            continue
        first = None
        for i in range(j + 1, len(tokens)):
            tok = tokens[i]
            if (tok.kind == SYM and tok.text in _SENTENCE_ENDS) or tok.role in (
                THROUGHPUT,
                STEP_TIME,
            ):
                break
            if not (_bare_value(tokens, i) and precision_near(tokens, i)):
                continue
            value = _thousands(tok).value
            if first is not None and not _near(value, first):
                break
            first = value if first is None else first
            tokens[i] = _in_unit_of(tok, word)
    return tokens


def _bare_value(tokens: list[Token], i: int) -> bool:
    """A bare number that counts nothing written after it ("3 days", "8 GPUs" do)."""
    nxt = at(tokens, i + 1)
    return _bare(tokens[i]) and not is_time_unit(nxt) and not in_table(nxt, "COUNT_NOUNS")


_PARTNER_REACH = 10.0  # two rates of one run, FP32 and mixed, lie within this factor


def _rate_partners(tokens: list[Token]) -> list[Token]:
    """Rule ``rate_partner``: with the rates said of one precision only, a bare number
    said of the other is that rate with the other precision, in its unit, when it
    comes right after a word of what the rate became or does (``RATE_NEW_WORDS``:
    "became", "now", "does", «صارت», «كنديرو»), a verb of change and "to"
    (``RATE_CHANGE_VERBS``: "went to", «وصلت لـ»), or the other precision itself
    ("..., bf16 5100"): "fp32 does 3000 tok/s, with bf16 it went to 5100", «سرعة
    الـ fp32 ٣٠٠٠ توكن بالثانية، ومع الـ bf16 صارت ٥١٠٠», «... وبالـ bf16 ٢٠٤٠». A
    number far from the rate (more than ``_PARTNER_REACH`` times) is no rate of the
    same run: "... with bf16 it became 1.7", "with bf16 1.7" are ratios."""
    rates = [i for i, t in enumerate(tokens) if t.kind == NUM and t.role in (THROUGHPUT, STEP_TIME)]
    sides = {precision_near(tokens, i) for i in rates}
    if not rates or len(sides) != 1 or "" in sides or len({tokens[i].role for i in rates}) != 1:
        return tokens
    other = "mixed" if sides == {"fp32"} else "fp32"
    said = set(rates)
    rate = tokens[rates[0]]
    for i in range(rates[0] + 1, len(tokens)):
        if i in said:
            rate = tokens[i]  # the latest rate before the numbers that follow it
            continue
        if (
            _bare_value(tokens, i)
            and _near(_thousands(tokens[i]).value, rate.value)
            and _said_as_partner(tokens, i)
            and precision_near(tokens, i) == other
        ):
            tokens[i] = _rate_number(
                _thousands(tokens[i]), rate.role, rate.extra["unit"], rate.extra["scale"]
            )
    return tokens


def _near(value: float, rate: float) -> bool:
    return rate > 0 and 1 / _PARTNER_REACH <= value / rate <= _PARTNER_REACH


def _said_as_partner(tokens: list[Token], i: int) -> bool:
    """ "became 5100", "now does 5100", «صارت ٥١٠٠», «ولينا كنديرو ١٤٤٠», "went to
    5100", "shot up to 5100", «وصلت لـ ٥١٠٠», or a precision right before ("and bf16
    5100", «وبالـ bf16 ٢٠٤٠»; which one the caller checks). A hedge may sit between:
    "became about 5100"."""
    k = i - 1 - in_table(at(tokens, i - 1), "HEDGES")
    if in_table(at(tokens, k), "RATE_NEW_WORDS") or (k >= 0 and precision_of(tokens, k)):
        return True
    if at(tokens, k) is None or tokens[k].text not in _TO:
        return False
    k -= 1 + (text_at(tokens, k - 1) in ("up", "down"))
    return in_table(at(tokens, k), "RATE_CHANGE_VERBS")


def _bare(tok: Token | None) -> bool:
    """A number with no unit (or in thousands) that no rule took."""
    return tok is not None and tok.kind == NUM and not tok.role and tok.suffix in ("", "k")


def _merged_rates(tokens: list[Token]) -> list[Token]:
    out: list[Token] = []
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        if (named := _named_step_time(tokens, i)) is not None:
            out.append(named[0])
            i = named[1]
            continue
        if tok.kind == NUM and tok.suffix and is_sym(at(tokens, i + 1), "/"):
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
            scale = 1e-3 if in_table(tokens[i], "MILLISECOND_WORDS") else 1.0
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
    if not in_table(tokens[i], "STEP_TIME_LEADERS"):
        return None
    j = i + 1
    while j < min(len(tokens), i + 3) and _step_filler(tokens[j]):
        j += 1
    num = at(tokens, j)
    if num is None or num.kind != NUM or num.role:
        return None
    unit = at(tokens, j + 1)
    if num.suffix and in_table(Token(WORD, num.suffix, script="lat"), "SECOND_WORDS"):
        end = j + 1
    elif not num.suffix and in_table(unit, "SECOND_WORDS"):
        end = j + 2
    else:
        return None
    said = " ".join(t.text for t in tokens[i:j])
    merged = _rate_number(num, STEP_TIME, num.suffix or unit.text, 1.0)
    merged.extra["rule"] = "step_named_time"
    return replace(merged, text=f"{said} {merged.text}"), end


def _step_partners(tokens: list[Token]) -> list[Token]:
    """Rules ``step_time_partner`` and ``step_seconds_pair``: seconds said of a
    precision that are a step time, not the run's time.

    ``step_time_partner``: with one step time named in seconds and said of one
    precision, seconds said of the other precision are its partner: "fp32 step
    1.2s, amp 0.6s", "زمن الخطوة ١٫٢ ث في fp32 و٠٫٦ ث مع amp".
    ``step_seconds_pair``: with no step named, two numbers in seconds, one said
    of FP32 and one of a mixed precision, in a message with no rate, are two step
    times (no run of FP32 training takes seconds): "0.9 s in fp32 and 0.5 s with amp",
    "٠٫٩ ثانية بالـfp32 و٠٫٥ ثانية مع amp".
    """
    named = [i for i, t in enumerate(tokens) if t.extra.get("rule") == "step_named_time"]
    side = precision_near(tokens, named[0]) if len(named) == 1 else ""
    if side:
        return _as_step_times(
            tokens, lambda said: said not in ("", side), "step_time_partner", after=named[0]
        )
    if named or any(t.role in (STEP_TIME, THROUGHPUT) for t in tokens):
        return tokens  # rates said already: "45s 29ms/step" times an epoch
    seconds = [i for i in range(len(tokens)) if _seconds_end(tokens, i)]
    if len(seconds) == 2 and sorted(precision_near(tokens, i) for i in seconds) == [
        "fp32",
        "mixed",
    ]:
        return _as_step_times(tokens, bool, "step_seconds_pair")
    return tokens


def _as_step_times(tokens: list[Token], takes, rule: str, after: int = -1) -> list[Token]:
    """The tokens with each number in seconds whose precision ``takes`` accepts
    merged into one step-time token of rule ``rule``. Right after the step time at
    ``after`` and a joiner, a bare number is in its seconds: "step takes 0.8 s in
    fp32 and 0.4 with amp", «خطوة التدريب تاخد ٠٫٨ ثانية بالـ fp32 و ٠٫٤ مع amp»."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        end = _seconds_end(tokens, i) or _bare_partner_end(tokens, i, after)
        if end and takes(precision_near(tokens, i)):
            unit = tokens[i].suffix or (tokens[i + 1].text if end > i + 1 else "s")
            step = _rate_number(tokens[i], STEP_TIME, unit, 1.0)
            step.extra["rule"] = rule
            out.append(step)
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
        end = i + 1 if tok.suffix in _SECOND_SUFFIXES else 0
    else:
        end = i + 2 if in_table(at(tokens, i + 1), "SECOND_WORDS") else 0
    return 0 if not end or _after_larger_unit(tokens, i) else end


def _bare_partner_end(tokens: list[Token], i: int, after: int) -> int:
    """Where a bare number joined to the step time at ``after`` ends (0: none): the
    step time's precision between them, then "and" («و»), then the number."""
    tok = tokens[i]
    if after < 0 or i <= after or tok.kind != NUM or tok.role or tok.suffix:
        return 0
    if _seconds_end(tokens, i) or is_time_unit(at(tokens, i + 1)):
        return 0
    joiner = at(tokens, i - 1)
    between = tokens[after + 1 : i - 1]
    joined = joiner is not None and joiner.text in ("and", "و")
    return i + 1 if joined and len(between) <= 3 and not any(t.kind == NUM for t in between) else 0


def _after_larger_unit(tokens: list[Token], i: int) -> bool:
    """ "1 min 30 s", "1m 30s", "دقيقة و٣٠ ثانية": the seconds end a compound duration."""
    k = i - 1 - (i >= 2 and tokens[i - 1].text in ("و", "and"))
    prev = at(tokens, k)
    if prev is None:
        return False
    unit = prev.suffix if prev.kind == NUM else prev.text
    return is_time_unit(prev) or (prev.kind == NUM and unit in EN_UNITS and unit not in _SECONDS)


def _step_filler(tok: Token) -> bool:
    return in_table(tok, "STEP_TIME_FILLERS") or (
        tok.kind == SYM and tok.text in table("STEP_TIME_FILLERS")
    )


def _glued_rate(tok: Token, tokens: list[Token], i: int) -> tuple[Token, int] | None:
    """ "5.40it/s", "29ms/step", "2s/it": the unit glued to the number."""
    nxt = at(tokens, i + 2)
    head = Token(WORD, tok.suffix, script="lat")
    if in_table(head, "WORK_NOUNS") and in_table(nxt, "SECOND_WORDS"):
        return _rate_number(tok, THROUGHPUT, f"{tok.suffix}/{nxt.text}", 1.0), i + 3
    if (in_table(head, "SECOND_WORDS") or in_table(head, "MILLISECOND_WORDS")) and in_table(
        nxt, "WORK_NOUNS"
    ):
        scale = 1e-3 if in_table(head, "MILLISECOND_WORDS") else 1.0
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
            "unit": unit,
            "counts": unit.split()[0].split("/")[0],
        },
    )


def is_throughput_word(tok: Token) -> bool:
    """ "it/s", "samples/sec", "الصور في الثانية" (a merged word): a speed, like "throughput"."""
    return tok.kind == WORD and tok.role == THROUGHPUT
