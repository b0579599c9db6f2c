"""Numbers that describe the setup, never the FP32 time or the ratio.

Counts (8 GPUs, 4 nodes, 90 epochs, batch 256, 340M params), versions
(CUDA 12.1), ids, clock times, dates and prices are marked here, before the
grammar looks for times and ratios. What they say is kept as context for the
advice: GPU count, batch sizes, parameter count, price, plus the task family,
the mixed-precision type, the baseline and the optimizer named in words.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from bot.models import Price
from bot.understanding.resolving.candidates import (
    COUNT,
    MEMORY,
    PRICE,
    SETUP,
    STEP_TIME,
    VALUE,
    Candidate,
)
from bot.understanding.resolving.resolve import resolve
from bot.understanding.rules.setup.prices import (
    after_ratio_label,
    join_european_amounts,
    read_price,
)
from bot.understanding.rules.setup.setup_numbers import (
    AR_PARAM_WORDS,
    PARAM_SUFFIXES,
    RULES,
    Claims,
    classify,
    counts_other_noun,
    keyed_noun,
)
from bot.understanding.rules.setup.setup_words import read_batches, read_words
from bot.understanding.text.tokens import ARABIC, NUM, WORD, Token
from bot.understanding.values.lexicon import (
    EPOCH_NOUNS,
    lookup,
)
from bot.understanding.values.nearby import at, is_duration_at, word_in
from bot.understanding.words import table

GPU_DUALS = table("GPU_DUALS")
NODE_DUALS = table("NODE_DUALS")
PER_NODE_WORDS = table("PER_NODE_WORDS")
TOTAL_WORDS = table("TOTAL_WORDS")


@dataclass
class Context:
    num_gpus: int | None = None
    batch_fp32: int | None = None
    batch_amp: int | None = None
    price: Price | None = None
    params: float | None = None
    optimizer: str | None = None
    family: str | None = None
    precision: str | None = None
    baseline: str | None = None
    framework: str | None = None
    architecture: str | None = None
    epochs: float | None = None  # "90 epochs": with one epoch's time, the job's time
    dimensions: int | None = None  # "3D U-Net": a three-dimensional model
    run: str | None = None  # "DALI", "CPU-bound": how busy the run keeps the GPU


def mark_context(
    tokens: list[Token],
    *,
    sizes_are_params: bool = False,
    offered: list[tuple[Candidate, bool]] | None = None,
) -> Context:
    """Mark setup numbers (role set) and read the context they describe.

    The setup-number rules emit candidates, the one resolver picks them (a rule
    tried earlier outranks a later one, so a claim such as the 8 of "4 x 8" wins),
    and only then are the chosen ones marked. ``sizes_are_params``: in a memory
    question "340M" is a parameter count, never 340 minutes. ``offered``, when
    given, receives every candidate with whether it was chosen (for --explain).
    """
    join_european_amounts(tokens)
    cands, own_ids = _candidates(tokens, sizes_are_params)
    chosen = resolve(cands).chosen
    if offered is not None:
        picked = {id(c) for c in chosen}
        offered.extend((c, id(c) in picked) for c in cands)
    # A number another number's rule claimed ("2 x 90 epochs": the 90) is marked
    # but not read as a count of its own.
    own = [c for c in chosen if c.role and id(c) in own_ids]
    ctx = _read_chosen(tokens, [c for c in chosen if c.role], own)
    if sizes_are_params and ctx.params is None:
        ctx.params = _size_in_name(tokens)
    return ctx


def _candidates(tokens: list[Token], sizes_are_params: bool) -> tuple[list[Candidate], set[int]]:
    """Every decision's candidates, and the ids of those that read the deciding
    number itself (not a token its rule claimed)."""
    # "8 V100 40h": with the time written with its unit, a number before a GPU
    # can only be how many ("100 V100" alone stays a time and a GPU).
    timed = any(is_duration_at(tokens, j) for j in range(len(tokens)))
    out: list[Candidate] = []
    own: set[int] = set()
    for i, tok in enumerate(tokens):
        if tok.kind != NUM or tok.role:
            continue
        role, rule, claims = _setup_role(tokens, i, sizes_are_params=sizes_are_params, timed=timed)
        if rule:
            decided = setup_candidates(tokens, i, role, rule, claims, _RANKS[rule])
            own.add(id(decided[0]))
            out += decided
    return out, own


# What each role is, as a candidate's kind.
_KINDS = {
    "gpus": COUNT,
    "nodes": COUNT,
    "count": COUNT,
    "multiplier": COUNT,
    "params": COUNT,
    "setting": COUNT,
    "step_time": STEP_TIME,
    "price": PRICE,
    "memory": MEMORY,
    "": VALUE,
}


def setup_candidates(
    tokens: list[Token], i: int, role: str, rule: str, claims: Claims, rank: int
) -> list[Candidate]:
    """The candidates of one decision: the number itself and each token the rule
    claimed, all ranked by the rule (``rank``: higher for a rule tried earlier), so
    "4 x 8" keeps the 8 a count even where "8" alone would be read otherwise."""
    out = [_setup_candidate(tokens, i, role, rule, rank)]
    out += [_setup_candidate(tokens, j, r, rule, rank) for j, r in claims.items()]
    return out


def _setup_candidate(tokens: list[Token], i: int, role: str, rule: str, rank: int) -> Candidate:
    tok = tokens[i]
    kind = _KINDS.get(role, SETUP)
    return Candidate(kind, i, i + 1, tok.value, rule, tok.written, 100 * rank, role=role)


def _read_chosen(tokens: list[Token], chosen: list[Candidate], own: list[Candidate]) -> Context:
    """Mark the chosen setup numbers, then read what each number's own rule says
    of it, left to right."""
    for cand in chosen:
        cand.mark(tokens)
    numbers = {c.start for c in own}
    ctx = Context()
    found = _Counts()
    for i, tok in enumerate(tokens):
        if tok.kind == WORD and not tok.role:
            found.take_dual(tok, i)
        elif i in numbers:
            found.take(tokens, i)
            _keep_value(tokens, i, ctx)
    epochs = found.epochs
    ctx.epochs = epochs[0] if len(epochs) == 1 and 1 < epochs[0] < math.inf else None
    ctx.num_gpus = _gpu_total(tokens, found.gpus, found.nodes)
    if ctx.price is not None and ctx.price.per_node:
        nodes = found.nodes.value if found.nodes is not None else None
        size = None if nodes is not None else _node_size(tokens)
        ctx.price = ctx.price.model_copy(update={"nodes": nodes, "gpus_per_node": size})
    read_batches(tokens, ctx)
    read_words(tokens, ctx)
    return ctx


def _keep_value(tokens: list[Token], i: int, ctx: Context) -> None:
    """The first parameter count, price and dimension said are the setup's."""
    tok = tokens[i]
    if tok.role == "params" and ctx.params is None:
        ctx.params = _param_value(tokens, i)
    elif tok.role == "price" and ctx.price is None:
        ctx.price = read_price(tokens, i)
    elif tok.role == "dimension" and ctx.dimensions is None:
        ctx.dimensions = int(tok.value)


@dataclass
class _Counts:
    """The first GPU and node counts said (with where), and the epoch counts."""

    gpus: _Count | None = None
    nodes: _Count | None = None
    epochs: list[float] = field(default_factory=list)

    def take_dual(self, tok: Token, i: int) -> None:
        """ "على بطاقتين", "عقدتين": two, said in one word."""
        dual = _dual_count(tok)
        if dual == "gpus" and self.gpus is None:
            self.gpus = _Count(2, i)
        elif dual == "nodes" and self.nodes is None:
            self.nodes = _Count(2, i)

    def take(self, tokens: list[Token], i: int) -> None:
        tok = tokens[i]
        count = _Count(int(tok.value), i) if 1 <= tok.value < math.inf else None
        if tok.role == "gpus" and self.gpus is None:
            self.gpus = count
        elif tok.role == "nodes" and self.nodes is None:
            self.nodes = count
        elif tok.role == "count" and tok.value != 1 and _counts_epochs(tokens, i):
            self.epochs.append(tok.value)  # (a 1 is "one epoch", a unit, not a count)


def _counts_epochs(tokens: list[Token], i: int) -> bool:
    """ "90 epochs", and "epochs: 90", "number of epochs is 90" (rule ``count_key``)."""
    if word_in(at(tokens, i + 1), EPOCH_NOUNS):
        return True
    return keyed_noun(tokens, i, EPOCH_NOUNS) is not None


# The size that ends a model's name: "llama-2-13b", "qwen2.5-7b" (letters or a
# hyphen before it, so "2-13b" is read as 13B and a bare "13b" is not a name).
# "llama-2-13b", "qwen2.5-7b"; "mixtral-8x7b": experts times each one's size.
_NAME_SIZE = re.compile(r"[a-z-](?:(\d{1,3})x)?(\d{1,4}(?:\.\d{1,3})?)([bm])$")


# A rule's rank: tried earlier, ranked higher ("memory_question_size" first,
# "count_before_gpu" last).
_RANKS = {
    name: len(RULES) + 2 - k
    for k, name in enumerate(["memory_question_size", *(n for n, _ in RULES), "count_before_gpu"])
}


def _setup_role(
    tokens: list[Token], i: int, *, sizes_are_params: bool, timed: bool
) -> tuple[str, str, Claims]:
    """(role, rule) of the number at ``i``: the setup-number rules, then rule
    ``count_before_gpu`` ("memory 70B adam 64 H100", "8 V100 40h": with the time
    written with its unit, or in a memory question, a bare number before a GPU
    is how many; "100 V100" alone stays a time and a GPU, "ratio 2 A100" a ratio)."""
    if (
        sizes_are_params
        and tokens[i].suffix in PARAM_SUFFIXES
        and not counts_other_noun(tokens, i)  # "8k context": a length, not 8k parameters
    ):
        return "params", "memory_question_size", {}
    role, rule, claims = classify(tokens, i)
    if (
        not role
        and (sizes_are_params or timed)
        and float(tokens[i].value).is_integer()  # "72h 1.8 V100": no count is a fraction
        and _gpu_after(tokens, i)
        and not after_ratio_label(tokens, i)
    ):
        return "gpus", "count_before_gpu", {}
    return role, rule, claims


def _size_in_name(tokens: list[Token]) -> float | None:
    """ "memory for Llama 7B", "will llama-2-13b fit": the parameter count a
    model's name carries, when no count was written on its own."""
    for tok in tokens:
        if tok.kind == NUM and tok.role == "name" and tok.suffix in ("b", "m"):
            return tok.value * PARAM_SUFFIXES[tok.suffix]
        if tok.kind == WORD and (found := _NAME_SIZE.search(tok.text)):
            experts = int(found.group(1) or 1)
            return experts * float(found.group(2)) * PARAM_SUFFIXES[found.group(3)]
    return None


@dataclass(frozen=True)
class _Count:
    value: int
    at: int  # token index, to tell "64 GPUs (8 nodes x 8)" from "2 nodes of 8 GPUs"


def _dual_count(tok: Token) -> str:
    """ "بطاقتين", "كرتين", "عقدتين": an Arabic dual counts two GPUs or nodes."""
    if tok.script != ARABIC:
        return ""
    if lookup(tok.text, GPU_DUALS):
        return "gpus"
    return "nodes" if lookup(tok.text, NODE_DUALS) else ""


def _gpu_after(tokens: list[Token], i: int) -> bool:
    nxt = at(tokens, i + 1)
    return not tokens[i].suffix and nxt is not None and nxt.role == "gpu"


def _gpu_total(tokens: list[Token], gpus: _Count | None, nodes: _Count | None) -> int | None:
    """All the GPUs: the GPU count times the nodes when it is counted per node.

    A GPU count said after the nodes ("2 nodes of 8 A100", "4 nodes x 8 GPUs",
    "على عقدتين في كل واحدة ٨ بطاقات") is per node unless called the total; one
    said before them is the total ("64 A100s (8 nodes x 8)", "16 GPUs on 2
    nodes") unless a per-node word follows it ("8 GPUs per node, 4 nodes").
    """
    if gpus is None:
        return None
    if nodes is None:
        return gpus.value
    near = tokens[max(gpus.at - 2, 0) : gpus.at + 4]
    after = tokens[gpus.at + 1 : gpus.at + 4]
    said_per_node = any(t.text in PER_NODE_WORDS or word_in(t, PER_NODE_WORDS) for t in after)
    if gpus.at > nodes.at:
        per_node = not any(word_in(t, TOTAL_WORDS) for t in near) and (
            said_per_node or _linked_to_nodes(tokens[nodes.at + 1 : gpus.at])
        )
    else:
        per_node = said_per_node
    return gpus.value * nodes.value if per_node else gpus.value


NODE_LINKS = table("NODE_LINKS")
_NODE_WORDS = table("NODE_PRICE_WORDS") | table("NODE_NOUNS")
_NODE_SIZE_LINKS = NODE_LINKS | table("NODE_SIZE_LINKS")


def _node_size(tokens: list[Token]) -> int | None:
    """Rule ``per_node_price``: the GPUs of one node, from a GPU count said of a
    node: right after it over link words ("per node of 8 GPUs", «للعقدة اللي فيها ٨
    كروت») or glued before it ("per 8-GPU node"). None when no count is (the cost
    then takes the usual node size)."""
    for i, tok in enumerate(tokens):
        if tok.kind != NUM or tok.role != "gpus" or not 1 <= tok.value < math.inf:
            continue
        if word_in(at(tokens, i + 1), _NODE_WORDS):
            return int(tok.value)
        j = i - 1
        while j >= 0 and j >= i - 3 and word_in(tokens[j], _NODE_SIZE_LINKS):
            j -= 1
        if j < i - 1 and word_in(at(tokens, j), _NODE_WORDS):
            return int(tok.value)
    return None


def _linked_to_nodes(between: list[Token]) -> bool:
    """Whether a GPU count after the nodes is per node: tied to them by a link
    word in the same clause, or said with nothing between ("2 nodes 8 GPUs").
    "4 nodes, 32 H100s" is a second fact, the total, not 32 per node."""
    last_break = max(
        (k for k, t in enumerate(between) if t.is_boundary or t.text in ("and", "و")), default=-1
    )
    if last_break < 0:
        return True
    return any(t.text in NODE_LINKS for t in between[last_break + 1 :])


def _param_value(tokens: list[Token], i: int) -> float:
    tok = tokens[i]
    scale = PARAM_SUFFIXES.get(tok.suffix, 1.0)
    nxt = at(tokens, i + 1)
    word = word_in(nxt, AR_PARAM_WORDS)
    if word:
        scale = AR_PARAM_WORDS[word]
    elif nxt is not None and nxt.text in ("billion", "million"):
        scale = PARAM_SUFFIXES[nxt.text]
    return tok.value * scale * experts_of(tokens, i)


def sized_as_experts(tokens: list[Token]) -> bool:
    """Whether the size was said as experts times a size ("8x7b", "mixtral-8x7b")."""
    return any(
        (t.role == "params" and experts_of(tokens, i) > 1)
        or (t.kind == WORD and (found := _NAME_SIZE.search(t.text)) and found.group(1))
        for i, t in enumerate(tokens)
    )


def experts_of(tokens: list[Token], i: int) -> int:
    """Rule ``experts_times_size``: "8x7b", "8x22B": a mixture of experts, each of
    that size; their product bounds the whole (shared layers make Mixtral 8x7B
    46.7B, which the model catalog gives). 1 for any other size."""
    before = at(tokens, i - 1) if i else None
    if not tokens[i].glued or before is None or before.kind != NUM or before.suffix != "x":
        return 1
    return int(before.value) if float(before.value).is_integer() and before.value >= 2 else 1
