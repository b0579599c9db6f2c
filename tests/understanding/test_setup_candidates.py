"""The setup-number pass emits candidates and the one resolver chooses: a rule
never writes a token's role, what it says of another token is a claim ranked by
the rule, and only the chosen candidates are marked."""

from __future__ import annotations

import pytest

from bot.models import Channel
from bot.understanding.context import mark_context
from bot.understanding.explain import explain
from bot.understanding.parse import understand
from bot.understanding.resolving.candidates import COUNT, SETUP, STEP_TIME
from bot.understanding.rules.names.names import find_names
from bot.understanding.text.normalise import normalise
from bot.understanding.text.tokens import tokenize


def _offered(text: str):
    tokens = tokenize(normalise(text))
    find_names(tokens)
    offered: list = []
    ctx = mark_context(tokens, offered=offered)
    return ctx, tokens, offered


def test_a_claim_of_an_earlier_rule_outranks_the_numbers_own_reading():
    # "2 x 90 epochs": number_times_number claims the 90 as a count; the 90's
    # own count_noun_after reading loses, so 90 is not the epoch count alone.
    ctx, _, offered = _offered("2 x 90 epochs, 20 min per epoch")
    ninety = [(c.rule, ok) for c, ok in offered if c.value == 90]
    assert ninety == [("number_times_number", True), ("count_noun_after", False)]
    assert ctx.epochs is None
    query = understand("2 x 90 epochs, 20 min per epoch", Channel.DM)
    assert query.per_epoch and query.fp32.hours == pytest.approx(1 / 3)  # per epoch, not × 90


@pytest.mark.parametrize(
    ("text", "rule", "kind"),
    [
        ("٤٢٠ مللي ثانية للخطوة", "step_time", STEP_TIME),  # the seconds word too
        ("started at 10:30, 20h fp32", "date_or_clock_digits", SETUP),
        ("4x8 gpus", "unit_suffix", COUNT),
    ],
)
def test_the_claimed_token_takes_the_claiming_rules_role(text, rule, kind):
    _, tokens, offered = _offered(text)
    claimed = [c for c, ok in offered if ok and c.rule == rule]
    assert len(claimed) == 2 and {c.kind for c in claimed} == {kind}
    assert all(tokens[c.start].extra["rule"] == rule for c in claimed)


def test_setup_numbers_are_unmarked_until_the_resolver_has_chosen():
    ctx, tokens, _ = _offered("4 x 8 GPUs, 10h, 2x")
    roles = {t.text: t.role for t in tokens if t.kind == "num"}
    assert roles == {"4": "nodes", "8": "gpus", "10": "", "2": ""}
    assert ctx.num_gpus == 32


def test_explain_lists_the_setup_candidates():
    out = explain("8 GPUs, batch 256, 10h 2x")
    assert "8 -> count 8 (count_noun_after): chosen" in out
    assert "256 -> count 256 (setting): chosen" in out
