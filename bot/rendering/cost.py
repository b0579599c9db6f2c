"""Words for what the two runs cost: one visible sentence and one detail line.

Amounts are formatted by Babel in the reader's locale and in the currency the
user wrote (no exchange rates), with that currency's own decimals (KWD has 3).
"""

from __future__ import annotations

from bot.advice.cost import CostEstimate
from bot.rendering.i18n import Phrases


def money(w: Phrases, amount: float, currency: str) -> str:
    return w.atom(w.fmt.money(amount, currency))


def cost_sentence(w: Phrases, cost: CostEstimate) -> str:
    """ "Cost: $2,000.00 in FP32 → $1,000.00 with mixed precision (saves $1,000.00)." """
    _, c = w._, cost.currency
    values = {
        "fp32": money(w, cost.fp32_cost, c),
        "mp": w.bold(money(w, cost.mp_cost, c)),
    }
    if cost.saving < 0:  # a predicted ratio below one: mixed precision is slower
        return _("Cost: %(fp32)s in FP32 → %(mp)s with mixed precision (%(extra)s more).") % {
            **values,
            "extra": money(w, -cost.saving, c),
        }
    return _("Cost: %(fp32)s in FP32 → %(mp)s with mixed precision (saves %(saved)s).") % {
        **values,
        "saved": money(w, cost.saving, c),
    }


def cost_range_sentence(w: Phrases, fast: CostEstimate, slow: CostEstimate) -> str:
    """The range's ends: ``fast`` at the highest ratio (cheapest), ``slow`` at the lowest."""
    c = fast.currency
    return w._(
        "Cost: %(fp32)s in FP32 → %(low)s–%(high)s with mixed precision (saves %(least)s–%(most)s)."
    ) % {
        "fp32": money(w, fast.fp32_cost, c),
        "low": w.bold(money(w, fast.mp_cost, c)),
        "high": w.bold(money(w, slow.mp_cost, c)),
        "least": money(w, slow.saving, c),
        "most": money(w, fast.saving, c),
    }


def price_detail(w: Phrases, cost: CostEstimate) -> str:
    """How the hourly rate was counted, and that no currency was converted."""
    c = cost.currency
    hourly = cost.fp32_cost / cost.fp32_hours
    if cost.num_gpus > 1:
        rate = w.ngettext(
            "%(price)s per GPU-hour × %(n)s GPU = %(rate)s per hour.",
            "%(price)s per GPU-hour × %(n)s GPUs = %(rate)s per hour.",
            cost.num_gpus,
        ) % {
            "price": money(w, hourly / cost.num_gpus, c),
            "n": w.fmt.integer(cost.num_gpus),
            "rate": money(w, hourly, c),
        }
    else:
        rate = w._("%(rate)s per hour.") % {"rate": money(w, hourly, c)}
    no_exchange = w._("Amounts stay in %(currency)s, the currency you wrote (no exchange rates).")
    return f"{rate} {no_exchange % {'currency': w.echo(c)}}"
