"""Numbers read by their place, once no label or unit has claimed them.

* ``position``: in a bare slash command the first number is the hours, the
  second the ratio ("100 2", "١٠٠ ٢"); three bare numbers are ``ambiguous``.
* ``thread_lone_ratio``: in a thread whose FP32 time is known, a lone number is
  the ratio to try ("and at 2.5?", "و٢٫٥؟", "و٢؟").
"""

from __future__ import annotations

from bot.understanding.resolving.candidates import RATIO, TIME, Candidate
from bot.understanding.resolving.resolve import resolve
from bot.understanding.rules.ratio.ratios import RatioCand
from bot.understanding.rules.time.durations import Quantity
from bot.understanding.text.tokens import NUM, WORD, Token
from bot.understanding.values.lexicon import HOW_WORDS
from bot.understanding.values.nearby import word_in

# A lone number in a thread is a ratio only up to what published runs reach (5.84x).
LONE_RATIO_MAX = 6.0


def by_position(tokens: list[Token], times: list[Quantity], ratios: list[RatioCand]) -> list[str]:
    """Rule ``position``: ``100 2`` = 100 hours and ratio 2; labels and units already won.

    Returns the bare numbers when there are more than the free slots
    (``100 2 3``): which one is which cannot be known.
    """
    bare = [(i, t) for i, t in enumerate(tokens) if t.kind == NUM and not t.role]
    slots = (not times) + (not ratios)
    if len(bare) > max(slots, 1):
        return [t.text for _, t in bare]
    cands = [
        Candidate(RATIO if times or k else TIME, i, i + 1, tok.value, "position", role="position")
        for k, (i, tok) in enumerate(bare)
    ]
    for cand in resolve(cands).chosen:  # bare numbers never overlap: all are chosen
        cand.mark(tokens)
        if cand.kind == TIME:
            times.append(Quantity(cand.value, "h", cand.start, cand.end, rule="position"))
        else:
            ratios.append(RatioCand(cand.value, cand.start, tokens[cand.start].text, "position"))
    return []


def lone_ratio(tokens: list[Token]) -> list[RatioCand]:
    """Rule ``thread_lone_ratio``: the one number without a unit or a setup role is
    the ratio to try, when it is one a real job reaches (published runs top out
    near 6x; "20" is more likely hours). A message naming a model ("ResNet-50
    v1.5", "Tacotron 2") is not one."""
    loose = [
        (i, t)
        for i, t in enumerate(tokens)
        if t.kind == NUM and t.role in ("", "clock") and not t.suffix
    ]
    if len(loose) != 1 or sum(t.kind == NUM for t in tokens) != 1:
        return []
    i, tok = loose[0]
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    if nxt is not None and nxt.kind == WORD and not word_in(nxt, HOW_WORDS):
        return []  # "and at 8 GPUs?": a number with its noun is no ratio ("وعلى ٢٫٥ كم؟" is)
    if not 1 < tok.value <= LONE_RATIO_MAX:
        return []
    cand = Candidate(RATIO, i, i + 1, tok.value, "thread_lone_ratio", tok.text, role="ratio")
    cand.mark(tokens)
    return [RatioCand(tok.value, i, tok.text, "thread_lone_ratio")]
