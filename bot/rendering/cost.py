"""Words for what the two runs cost: one visible sentence and one detail line.

Amounts are formatted by Babel in the reader's locale and in the currency the
user wrote (no exchange rates), with that currency's own decimals (KWD has 3).
"""

from __future__ import annotations

from bot.advice.cost import CostEstimate
from bot.models import Advice
from bot.rendering.i18n import Phrases
from bot.rendering.numbers import shown_amount


def money(w: Phrases, amount: float, currency: str) -> str:
    return w.atom(w.fmt.money(amount, currency))


def difference(w: Phrases, more: float, less: float, currency: str) -> str:
    """``more - less`` as the difference of the two amounts as shown, so a cost line
    adds up to the cent ("$99.21 → $84.41, saves $14.80", not "$14.81")."""
    shown = shown_amount(more, currency) - shown_amount(less, currency)
    return money(w, shown_amount(shown, currency), currency)


def cost_sentence(w: Phrases, cost: CostEstimate) -> str:
    """ "Cost: $2,000 in FP32 → $1,000 with mixed precision (saves $1,000)."

    The saving is the difference of the two shown amounts, so the line adds up."""
    _, c = w._, cost.currency
    values = {
        "fp32": money(w, cost.fp32_cost, c),
        "mp": w.bold(money(w, cost.mp_cost, c)),
    }
    if cost.saving < 0:  # a predicted ratio below one: mixed precision is slower
        return _("Cost: %(fp32)s in FP32 → %(mp)s with mixed precision (%(extra)s more).") % {
            **values,
            "extra": difference(w, cost.mp_cost, cost.fp32_cost, c),
        }
    return _("Cost: %(fp32)s in FP32 → %(mp)s with mixed precision (saves %(saved)s).") % {
        **values,
        "saved": difference(w, cost.fp32_cost, cost.mp_cost, c),
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
        "least": difference(w, slow.fp32_cost, slow.mp_cost, c),
        "most": difference(w, fast.fp32_cost, fast.mp_cost, c),
    }


Span = tuple[CostEstimate, CostEstimate, CostEstimate, CostEstimate]


def cost_span(low: Advice, high: Advice) -> Span | None:
    """The costs that bound an FP32 time said as a range (rule ``time_range``), answered
    at its ``low`` and ``high`` ends: (cheapest, dearest, least saved, most saved); the
    cheapest run is the low end at its fastest ratio, the dearest the high end at its
    slowest. None without a cost at both ends."""
    cheap = low.cost or low.cost_low
    dear = high.cost or high.cost_high
    least = low.cost or low.cost_high
    most = high.cost or high.cost_low
    if cheap is None or dear is None or least is None or most is None:
        return None
    return cheap, dear, least, most


def cost_span_sentence(
    w: Phrases, cheap: CostEstimate, dear: CostEstimate, least: CostEstimate, most: CostEstimate
) -> str:
    """ "Cost: $480–$640 in FP32 → $240–$320 with mixed precision (saves $240–$320)."."""
    c = cheap.currency
    return w._(
        "Cost: %(fp32_low)s–%(fp32_high)s in FP32 → %(low)s–%(high)s with mixed precision "
        "(saves %(least)s–%(most)s)."
    ) % {
        "fp32_low": money(w, cheap.fp32_cost, c),
        "fp32_high": money(w, dear.fp32_cost, c),
        "low": w.bold(money(w, cheap.mp_cost, c)),
        "high": w.bold(money(w, dear.mp_cost, c)),
        "least": difference(w, least.fp32_cost, least.mp_cost, c),
        "most": difference(w, most.fp32_cost, most.mp_cost, c),
    }


def price_detail(w: Phrases, cost: CostEstimate) -> str:
    """How the hourly rate was counted, and that no currency was converted."""
    c, price = cost.currency, cost.price
    hourly = cost.fp32_cost / cost.fp32_hours
    no_exchange = w._("Amounts stay in %(currency)s, the currency you wrote (no exchange rates).")
    no_exchange %= {"currency": w.echo(c)}
    if price.per_run:
        run = w._("%(price)s for the whole FP32 run is %(hourly)s an hour.") % {
            "price": money(w, price.amount, c),
            "hourly": money(w, hourly, c),
        }
        return f"{run} {no_exchange}"
    parts = [_per_hour(w, price.amount, price.period_hours, price.hourly, c)]
    if price.per_node:
        parts.append(_per_node(w, cost, hourly))
    elif cost.num_gpus > 1:
        parts.append(
            w.ngettext(
                "%(price)s per GPU-hour × %(n)s GPU = %(rate)s per hour.",
                "%(price)s per GPU-hour × %(n)s GPUs = %(rate)s per hour.",
                cost.num_gpus,
            )
            % {
                "price": money(w, hourly / cost.num_gpus, c),
                "n": w.fmt.integer(cost.num_gpus),
                "rate": money(w, hourly, c),
            }
        )
        if price.per_gpu is None:
            parts.append(
                w._("If that price is for all the GPUs together, write “per node” after it.")
            )
    elif price.period_hours == 1:
        parts.append(w._("%(rate)s per hour.") % {"rate": money(w, hourly, c)})
    parts.append(no_exchange)
    return " ".join(p for p in parts if p)


def _per_node(w: Phrases, cost: CostEstimate, hourly: float) -> str:
    """A node's price is billed once per node, whatever its GPU count."""
    c = cost.currency
    if cost.num_nodes > 1:
        return w.ngettext(
            "%(price)s per node-hour × %(n)s node = %(rate)s per hour (billed per node, not per GPU).",
            "%(price)s per node-hour × %(n)s nodes = %(rate)s per hour (billed per node, not per GPU).",
            cost.num_nodes,
        ) % {
            "price": money(w, hourly / cost.num_nodes, c),
            "n": w.fmt.integer(cost.num_nodes),
            "rate": money(w, hourly, c),
        }
    return w._(
        "%(rate)s per hour for one whole node (billed per node, not per GPU; "
        "on more nodes, say how many, e.g. “on 2 nodes”)."
    ) % {"rate": money(w, hourly, c)}


def _per_hour(w: Phrases, amount: float, period_hours: float, hourly: float, c: str) -> str:
    """ "$30.00 a day is $1.25 an hour." Empty for a price that is already hourly."""
    values = {"price": money(w, amount, c), "hourly": money(w, hourly, c)}
    if period_hours == 24:
        return w._("%(price)s a day is %(hourly)s an hour.") % values
    if period_hours == 168:
        return w._("%(price)s a week is %(hourly)s an hour.") % values
    if period_hours != 1:
        return w._(
            "%(price)s a month is %(hourly)s an hour (a month counted as %(hours)s hours)."
        ) % {
            **values,
            "hours": w.fmt.integer(round(period_hours)),
        }
    return ""
