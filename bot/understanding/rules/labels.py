"""Rules ``labelled_ratio`` and ``labelled_time``: a number named by a word.

"ratio 2", "speedup: 1.8", "النسبة ٢ أو ٣" are ratios; "FP32 time: 100",
"hours: 20", "بالساعات: ٢٠" are times. The label may sit a few words before
its number (a GPU, a model or a filler between), and a second number joined to
a labelled one ("النسبة ٢ أو ٣", "ratio 2 on V100 vs 3 on A100") shares it.

Rule ``mixed_precision_ratio``: the name of a mixed precision ("amp", "bf16",
"mixed precision", «الدقة المختلطة») labels a ratio too, but with a reach of one
word (``_MIXED_REACH``) and only for a bare number in digits no larger than a
ratio can be (``LONE_RATIO_MAX``) in a message that already holds a time with
its unit (a pasted progress line's elapsed time too): "fp32 takes 40 hours, with
amp 1.7", «الـ fp32 ياخذ ٤٠ ساعة، مع amp ١٫٧», "with amp 1.5, 40 hours". The time with a unit is the FP32 one, so the
mixed precision's unitless number is how much faster it is, not its time.
"""

from __future__ import annotations

from bot.understanding.resolving.candidates import RATIO, TIME, Candidate
from bot.understanding.resolving.resolve import resolve
from bot.understanding.rules.alternatives import JOINERS as ALTERNATIVES
from bot.understanding.rules.alternatives import (
    offered_between,
    opened_before,
    opens_a_pair,
    partner_after,
)
from bot.understanding.rules.rate.rates import progress_clock
from bot.understanding.rules.ratio.ratios import RatioCand
from bot.understanding.rules.time.durations import Quantity, unit_of
from bot.understanding.rules.time.position import LONE_RATIO_MAX
from bot.understanding.text.tokens import ARABIC, NUM, WORD, Token
from bot.understanding.text.tokens import word_in as _is
from bot.understanding.values.lexicon import RATIO_LABELS, TIME_LABELS, lookup
from bot.understanding.values.nearby import (
    in_table,
    mixed_precision_at,
    names_mixed_precision,
    text_at,
)
from bot.understanding.words import mapping, table

_LABEL_WINDOW = 4
# How many counted words before its number a mixed precision's name may label it from.
_MIXED_REACH = 1
_BETWEEN = table("BETWEEN")
_JOINERS = table("JOINERS")
_LABEL_SIGNS = frozenset(":=")  # "amp = 1.45": a sign between a label and its number
_YIELDS = table("YIELD_VERBS")
_UNCOUNTED = table("ARTICLES") | table("HEDGES") | _YIELDS | table("YIELD_OBJECTS")


def read_labels(tokens: list[Token], ratios: list[RatioCand]) -> list[Quantity]:
    """Numbers labelled in words: "ratio 2", "النسبة ٢ أو ٣", "FP32 time: 100", "بالساعات: ٢٠".

    Each labelled number is a ``time`` or ``ratio`` candidate; the one resolver
    picks them, and only then are they marked.
    """
    said: dict[int, tuple[str, str]] = {}  # index -> (kind, unit), read in this pass
    for i, tok in enumerate(tokens):
        if tok.kind != NUM or tok.role:
            continue
        label = _label_before(tokens, i, said) or _label_after(tokens, i)
        if label is not None:
            said[i] = label
            _share_with_guesses(tokens, i, said)
    if not said:
        return []
    cands = {
        i: Candidate(
            RATIO if kind == "ratio" else TIME,
            i,
            i + 1,
            tokens[i].value,
            f"labelled_{kind}",
            tokens[i].text,
            role=kind,
        )
        for i, (kind, _) in said.items()
    }
    times: list[Quantity] = []
    for cand in resolve(list(cands.values())).chosen:
        cand.mark(tokens)
        i, (kind, unit) = cand.start, said[cand.start]
        if kind == "ratio":
            ratios.append(RatioCand(tokens[i].value, i, tokens[i].text, "labelled_ratio"))
        else:
            times.append(
                Quantity(
                    tokens[i].value,
                    unit or "h",
                    i,
                    i + 1,
                    rule="labelled_time",
                    unit_said=bool(unit),
                )
            )
    return times


def _label_before(
    tokens: list[Token], i: int, said: dict[int, tuple[str, str]]
) -> tuple[str, str] | None:
    """A label a few tokens before the number at ``i`` (names and fillers between),
    in its clause; or the label of a number joined to it. An article written apart
    («الـ amp») and a hedge ("about", «حوالي») are no words of their own there:
    «والتسريع المتوقع من الـ amp حوالي ١٫٧». A mixed precision that opens a clause
    of its own («fp32 والـ amp ١٫٥», "fp32 9h and bf16 gives 1.5") owns the number
    after it: no label before that clause reaches it (rule ``mixed_clause``)."""
    words, j, mixed = 0, i, False
    while words < _LABEL_WINDOW and j > 0:
        j -= 1
        tok = tokens[j]
        words += tok.text not in _UNCOUNTED and tok.text not in _LABEL_SIGNS
        if tok.is_boundary or (mixed and in_table(tok, "CLAUSE_JOINERS")):
            return None  # rule mixed_clause: «fp32 والـ amp ١٫٥», the number is the amp's
        if tok.kind == NUM:
            return _shared_label(tokens, j, i, said)
        if tok.kind == WORD and tok.role == "time" and (j == 0 or tokens[j - 1].kind != NUM):
            return None  # "التدريب أسبوع ٢", "training a week 2": the label was the week's
        if tok.kind == WORD and (label := _word_label(tokens, j)) is not None:
            return label
        if words <= _MIXED_REACH and _mixed_precision_ratio(tokens, j, i):
            return ("ratio", "")
        mixed = mixed or in_table(tok, "MIXED")
    return None


def _mixed_precision_ratio(tokens: list[Token], j: int, i: int) -> bool:
    """Rule ``mixed_precision_ratio`` (see the module): the mixed precision named at
    ``j`` labels the number at ``i`` as its ratio."""
    num = tokens[i]
    return (
        num.kind == NUM
        and not num.extra.get("spelled")
        and not num.suffix
        and 0 < num.value <= LONE_RATIO_MAX
        and names_mixed_precision(tokens, j)
        and (_holds_a_time(tokens) or _yielded(tokens, j, i))
    )


def _yielded(tokens: list[Token], j: int, i: int) -> bool:
    """A verb of bringing between the mixed precision at ``j`` and the number at ``i``
    ("amp gave me 1.8", «amp عطاني ١٫٨», «الـ bf16 يعطي ١٫٥»): the number is what the
    precision brings, its ratio, with no time in the message too (the reply then asks
    for the FP32 time, as for "amp 1.8x, how long?"); a bare "amp 1.8" says no more
    than a time in hours would, so it needs the time's unit beside it."""
    return any(t.text in _YIELDS or lookup(t.text, _YIELDS) for t in tokens[j + 1 : i])


def _holds_a_time(tokens: list[Token]) -> bool:
    """A time with its unit in the message: a duration read, an H:MM the tokenizer
    read as hours and minutes ("took 3:15 (h:mm)", "36:30 hours": its format is its
    unit), or the elapsed time of a pasted progress line ("[04:00<00:00, 2.08it/s]",
    Keras's "- 720s 460ms/step"), set aside before the labels but timing the FP32 run
    or its epoch all the same."""
    return any(
        (t.role == "time" and t.kind in (NUM, WORD)) or _hours_and_minutes(t) for t in tokens
    ) or (progress_clock(tokens) is not None)


def _hours_and_minutes(tok: Token) -> bool:
    """A number token written H:MM: the tokenizer joins one only when it is a duration."""
    return tok.kind == NUM and ":" in tok.text


def _share_with_guesses(tokens: list[Token], i: int, said: dict[int, tuple[str, str]]) -> None:
    """ "speedup could be 1.5, could be 2", "النسبة ١٫٥، يمكن ٢": the bare numbers
    offered after a labelled one as guesses at it, across a comma, share its label."""
    while (k := partner_after(tokens, i + 1, opened_before(tokens, i))) is not None:
        tok = tokens[k]
        if tok.role or tok.suffix or k in said:
            return
        said[k], i = said[i], k


def _shared_label(
    tokens: list[Token], j: int, i: int, said: dict[int, tuple[str, str]]
) -> tuple[str, str] | None:
    """ "النسبة ٢ أو ٣", "ratio 2 on V100 vs 3 on A100", "speedup maybe 1.5 maybe 2":
    the second number shares the first one's label (read in this pass or an earlier
    one) when a joiner stands between them or it is offered as its alternative."""
    tok = tokens[j]
    kind = said[j][0] if j in said else tok.role
    joiners = _JOINERS | ALTERNATIVES
    if j and tokens[j - 1].text in _BETWEEN:
        joiners |= {"and", "و"}
    opened = opened_before(tokens, j)
    if opens_a_pair(tokens, i) and not opened:
        return None  # «١٠٠ ساعة يا ١٫٥ يا ٢»: the «يا» opens a pair of its own
    between = {t.text for t in tokens[j + 1 : i]}
    offered = between & joiners or offered_between(tokens, j + 1, i, opened=opened)
    if kind in ("ratio", "time") and not tok.suffix and offered:
        return (kind, "")
    return None


def _word_label(tokens: list[Token], j: int) -> tuple[str, str] | None:
    """ "ratio", "speedup", "hours:", "بالساعات", "FP32 time": a word that labels."""
    tok = tokens[j]
    if _is(tok, RATIO_LABELS) or mixed_precision_at(tokens, j):
        return ("ratio", "")
    unit = unit_of(tok, allow_article=True)
    if unit and unit[1] != 2 and not tok.role and (tok.script == ARABIC or _unit_label(tokens, j)):
        return ("time", unit[0])
    if _is(tok, TIME_LABELS) and tok.role in ("", "time"):
        # No unit said: hours, unless a time it is paired with says one, or the key is
        # one a tool prints in its own unit (Hugging Face's "train_runtime" in seconds).
        return ("time", _KEYED_UNITS.get(f"{text_at(tokens, j - 1)} {tok.text}", ""))
    return None


# "{'train_runtime': 25200.3}": a tool's key with the unit the tool writes it in.
_KEYED_UNITS: dict[str, str] = mapping("TIME_KEY_UNITS")


def _unit_label(tokens: list[Token], j: int) -> bool:
    """ "hours: 20", "in hours 20": a unit written before its number."""
    nxt = tokens[j + 1] if j + 1 < len(tokens) else None
    prev = tokens[j - 1] if j else None
    return (nxt is not None and nxt.text in (":", "=")) or (prev is not None and prev.text == "in")


def _label_after(tokens: list[Token], i: int) -> tuple[str, str] | None:
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    if nxt is None or (nxt.script == ARABIC and nxt.text.startswith("و")):
        return None  # "كرت واحد والتسريع ١٫٥": a label after "و" opens the next clause
    if _is(nxt, RATIO_LABELS) and nxt.text not in ("factor",):
        return ("ratio", "")
    return None
