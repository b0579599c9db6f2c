"""Numbers read by their place, once no label or unit has claimed them.

* ``alternatives`` (of bare numbers): two or more bare numbers offered as guesses
  at one value ("maybe 1.5, maybe 2", "perhaps 1.3 or perhaps 1.8", «إما ١٫٥ أو ٢»,
  «يا ١٫٥ يا ٢», «يمكن ١٫٥ يمكن ٢») are candidates of one dimension, so the reply
  asks which: the ratio when each could be one (up to what published runs reach)
  and no ratio was read, else the FP32 time in hours when none was read.
* ``position``: in a bare slash command the first number is the hours, the
  second the ratio ("100 2", "١٠٠ ٢"); three bare numbers are ``ambiguous``.
* ``thread_lone_ratio``: in a thread whose FP32 time is known, a lone number is
  the ratio to try ("and at 2.5?", "و٢٫٥؟", "و٢؟").
"""

from __future__ import annotations

from bot.understanding.resolving.candidates import RATIO, TIME, Candidate
from bot.understanding.resolving.resolve import resolve
from bot.understanding.rules.alternatives import opened_before, partner_after
from bot.understanding.rules.ratio.ratios import RatioCand
from bot.understanding.rules.time.durations import Quantity
from bot.understanding.text.tokens import NUM, WORD, Token
from bot.understanding.values.lexicon import COUNT_NOUNS, HOW_WORDS
from bot.understanding.values.nearby import counted_noun, word_in

# A lone number in a thread is a ratio only up to what published runs reach (5.84x).
LONE_RATIO_MAX = 6.0


def by_alternatives(tokens: list[Token], times: list[Quantity], ratios: list[RatioCand]) -> None:
    """Rule ``alternatives`` for bare numbers: each group of guesses at one value
    becomes candidates of the dimension still missing that they can be."""
    for group in _offered_groups(tokens):
        values = [tokens[i].value for i in group]
        if not ratios and all(0 < v <= LONE_RATIO_MAX for v in values):
            kind = RATIO
        elif not times:
            kind = TIME
        else:
            continue  # both read already: the guesses stay unused, and the reply says so
        cands = [
            Candidate(kind, i, i + 1, tokens[i].value, "alternatives", role=kind) for i in group
        ]
        for cand in resolve(cands).chosen:
            cand.mark(tokens)
            if kind == TIME:
                times.append(Quantity(cand.value, "h", cand.start, cand.end, rule="alternatives"))
            else:
                ratios.append(
                    RatioCand(cand.value, cand.start, tokens[cand.start].text, "alternatives")
                )


def _offered_groups(tokens: list[Token]) -> list[list[int]]:
    """Runs of bare numbers each offered as an alternative to the one before."""
    groups: list[list[int]] = []
    i, n = 0, len(tokens)
    while i < n:
        group = [i] if _bare(tokens, i) else []
        while group:
            k = partner_after(tokens, group[-1] + 1, opened_before(tokens, group[-1]))
            if k is None or not _bare(tokens, k):
                break
            group.append(k)
        if len(group) > 1:
            groups.append(group)
        i = group[-1] + 1 if group else i + 1
    return groups


def _bare(tokens: list[Token], i: int) -> bool:
    """A number nothing has read and nothing after it counts ("1.5", not "8 GPUs")."""
    tok, nxt = tokens[i], tokens[i + 1] if i + 1 < len(tokens) else None
    if tok.kind != NUM or tok.role or tok.suffix:
        return False
    return nxt is None or nxt.kind != WORD or counted_noun(nxt, COUNT_NOUNS) is None


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
