"""Words for a memory answer: the honest headline, the fit, and a table behind Details.

Visible: the headline (with Adam, mixed precision does not shrink the model
states; activations roughly halve) and one line on whether it fits the named
GPU and what to try. Behind Details: bytes per parameter for each regime with
totals in GB and GiB, the suggestions explained, caveats and sources.
"""

from __future__ import annotations

from bot.advice.memory import (
    ACTIVATION_RESERVE,
    MemoryEstimate,
    MemoryNote,
    Optimizer,
    Regime,
    RegimeMemory,
    Suggestion,
)
from bot.rendering.i18n import Phrases

BYTES_PER_GIB = 2**30
BYTES_PER_GB = 1e9


def memory_parts(
    w: Phrases, m: MemoryEstimate, *, memory_given: bool
) -> tuple[str, list[str], list[str]]:
    """Summary, the one notes line, and the detail lines."""
    return _headline(w, m), [_fit(w, m)], _details(w, m, memory_given=memory_given)


def _gb(w: Phrases, gb: float) -> str:
    return w._("%(n)s GB") % {"n": w.fmt.number(gb)}


def _gb_and_gib(w: Phrases, gb: float) -> str:
    return w._("%(gb)s GB (%(gib)s GiB)") % {
        "gb": w.fmt.number(gb),
        "gib": w.fmt.number(gb * BYTES_PER_GB / BYTES_PER_GIB),
    }


def _bytes_per_param(w: Phrases, n: int) -> str:
    return w.ngettext("%(n)s byte per parameter", "%(n)s bytes per parameter", n) % {
        "n": w.fmt.integer(n)
    }


def _parameters(w: Phrases, params: float) -> str:
    """ "7B parameters" / "7 مليارات معلمة": the count with its scale word and noun.

    One message per scale so each language can inflect both words by the count
    (Arabic: مليار، ملياران، مليارات ...), which a compact number pattern cannot.
    """
    scales = (1e12, 1e9, 1e6, 1e3)
    scale = next((s for s in scales if round(params / s, 1) >= 1), 1.0)
    n = round(params / scale, 1)
    count, ngettext = w.fmt.plural_count(n), w.ngettext
    # English says "1B parameters" (the count is a billion), so both forms are plural there.
    if scale == 1e12:
        text = ngettext("%(n)sT parameters", "%(n)sT parameters", count)
    elif scale == 1e9:
        text = ngettext("%(n)sB parameters", "%(n)sB parameters", count)
    elif scale == 1e6:
        text = ngettext("%(n)sM parameters", "%(n)sM parameters", count)
    elif scale == 1e3:
        text = ngettext("%(n)sK parameters", "%(n)sK parameters", count)
    else:
        text = ngettext("%(n)s parameter", "%(n)s parameters", count)
    return text % {"n": w.fmt.short(n)}


def _optimizer(w: Phrases, optimizer: Optimizer) -> str:
    _ = w._
    return {
        Optimizer.ADAM: _("Adam"),
        Optimizer.SGD_MOMENTUM: _("SGD with momentum"),
        Optimizer.SGD: _("plain SGD"),
    }[optimizer]


def _headline(w: Phrases, m: MemoryEstimate) -> str:
    _ = w._
    fp32, mixed = m.regime(Regime.FP32), m.regime(Regime.MIXED)
    subject = w.bold(
        _("%(params)s with %(optimizer)s")
        % {"params": _parameters(w, m.params), "optimizer": _optimizer(w, m.optimizer)}
    )
    if MemoryNote.MODEL_STATES_UNCHANGED in m.notes:
        return _(
            "%(subject)s: mixed precision does not shrink the model states, %(bytes)s either "
            "way (%(size)s); activations roughly halve."
        ) % {
            "subject": subject,
            "bytes": _bytes_per_param(w, fp32.bytes_per_param.total),
            "size": w.bold(_gb(w, mixed.model_states_gb)),
        }
    return _(
        "%(subject)s: model states take %(fp32)s in FP32 and %(mixed)s with mixed precision; "
        "activations roughly halve."
    ) % {
        "subject": subject,
        "fp32": w.bold(_gb(w, fp32.model_states_gb)),
        "mixed": w.bold(_gb(w, mixed.model_states_gb)),
    }


def _fit(w: Phrases, m: MemoryEstimate) -> str:
    """Whether the mixed-precision model states fit, and the first thing to try if not."""
    _ = w._
    if m.gpu_memory_gb is None:
        if m.gpu:
            return _("I do not know how much memory %(gpu)s has: add its size, e.g. `80GB`.") % {
                "gpu": w.echo(m.gpu)
            }
        return _("Name a GPU, e.g. `on A100 80GB`, and I will say whether it fits.")
    mixed = m.regime(Regime.MIXED)
    values = {
        "gpu": w.echo(m.gpu or _("GPU")),
        "memory": _gb(w, m.gpu_memory_gb),
        "size": _gb(w, mixed.model_states_gb),
        "left": _gb(w, mixed.activation_headroom_gb or 0.0),
    }
    if mixed.fits:
        if Suggestion.ACTIVATION_CHECKPOINTING in m.suggestions:
            line = (
                _(
                    "Fits on one %(gpu)s (%(memory)s), but only %(left)s are left for activations: "
                    "try activation checkpointing or a smaller batch."
                )
                % values
            )
        else:
            line = (
                _(
                    "Fits on one %(gpu)s (%(memory)s): the model states take %(size)s, leaving "
                    "%(left)s for activations."
                )
                % values
            )
        return f"{line} {_sharded(w, m)}" if m.num_gpus > 1 else line
    if m.num_gpus > 1 and mixed.fits_sharded:
        return w.ngettext(
            "Too big for one %(gpu)s (%(memory)s) with %(reserve)s kept free for activations "
            "and the CUDA context, but sharded with ZeRO-3/FSDP across your %(n)s GPU the "
            "model states take %(per_gpu)s each.",
            "Too big for one %(gpu)s (%(memory)s) with %(reserve)s kept free for activations "
            "and the CUDA context, but sharded with ZeRO-3/FSDP across your %(n)s GPUs the "
            "model states take %(per_gpu)s each.",
            m.num_gpus,
        ) % {
            **values,
            "n": w.fmt.integer(m.num_gpus),
            "per_gpu": _gb(w, mixed.sharded_per_gpu_gb),
            "reserve": w.fmt.percent(100 * ACTIVATION_RESERVE),
        }
    needed = mixed.gpus_needed or 2
    if m.num_gpus > 1:
        # The user named their GPUs: say it for them, not for one card.
        return w.ngettext(
            "Not on your %(count)s × %(gpu)s (%(memory)s each): sharded with ZeRO-3/FSDP the "
            "model states still need %(per_gpu)s per GPU. Use at least %(n)s GPU.",
            "Not on your %(count)s × %(gpu)s (%(memory)s each): sharded with ZeRO-3/FSDP the "
            "model states still need %(per_gpu)s per GPU. Use at least %(n)s GPUs.",
            needed,
        ) % {
            **values,
            "count": w.fmt.integer(m.num_gpus),
            "per_gpu": _gb(w, mixed.sharded_per_gpu_gb),
            "n": w.fmt.integer(needed),
        }
    if mixed.model_states_gb <= m.gpu_memory_gb:
        # In the card's memory on paper, but with nothing sensible left to run in.
        return w.ngettext(
            "Too tight for one %(gpu)s (%(memory)s): the model states take %(size)s, and about "
            "%(reserve)s should stay free for activations and the CUDA context. Shard them with "
            "ZeRO-3/FSDP across at least %(n)s GPU.",
            "Too tight for one %(gpu)s (%(memory)s): the model states take %(size)s, and about "
            "%(reserve)s should stay free for activations and the CUDA context. Shard them with "
            "ZeRO-3/FSDP across at least %(n)s GPUs.",
            needed,
        ) % {
            **values,
            "n": w.fmt.integer(needed),
            "reserve": w.fmt.percent(100 * ACTIVATION_RESERVE),
        }
    return w.ngettext(
        "Does not fit on one %(gpu)s (%(memory)s): the model states alone need %(size)s. "
        "Shard them with ZeRO-3/FSDP across at least %(n)s GPU.",
        "Does not fit on one %(gpu)s (%(memory)s): the model states alone need %(size)s. "
        "Shard them with ZeRO-3/FSDP across at least %(n)s GPUs.",
        needed,
    ) % {**values, "n": w.fmt.integer(needed)}


def _sharded(w: Phrases, m: MemoryEstimate) -> str:
    """What a full shard across the GPUs the user named gives each of them."""
    return w.ngettext(
        "Sharded with ZeRO-3/FSDP across your %(n)s GPU: %(per_gpu)s each.",
        "Sharded with ZeRO-3/FSDP across your %(n)s GPUs: %(per_gpu)s each.",
        m.num_gpus,
    ) % {
        "n": w.fmt.integer(m.num_gpus),
        "per_gpu": _gb(w, m.regime(Regime.MIXED).sharded_per_gpu_gb),
    }


def _details(w: Phrases, m: MemoryEstimate, *, memory_given: bool) -> list[str]:
    _ = w._
    lines = [
        _(
            "Bytes per parameter: weights + gradients + FP32 master copy + optimizer states "
            "= total → model states:"
        )
    ]
    lines += [_row(w, r) for r in m.regimes]
    lines += [_suggestion(w, s, m) for s in m.suggestions]
    if MemoryNote.ACTIVATIONS_NOT_INCLUDED in m.notes:
        lines.append(
            _(
                "These totals are model states only: activations come on top, and mixed "
                "precision stores most of them in 16 bits instead of 32, so they roughly halve."
            )
        )
    if MemoryNote.BF16_ROUNDING_RISK in m.notes:
        lines.append(
            _(
                "Pure BF16 halves the model states by dropping the FP32 master copy, but with only "
                "7 mantissa bits small updates can round away."
            )
        )
    if m.gpu and m.gpu_memory_gb is not None and not memory_given:
        lines.append(
            _("Assumed the %(memory)s %(gpu)s; name the size (e.g. `40GB`) if yours differs.")
            % {"memory": _gb(w, m.gpu_memory_gb), "gpu": w.echo(m.gpu)}
        )
    return lines


def _row(w: Phrases, r: RegimeMemory) -> str:
    _ = w._
    name = {
        Regime.FP32: _("FP32"),
        Regime.MIXED: _("Mixed precision (FP32 master)"),
        Regime.BF16: _("Pure BF16"),
    }[r.regime]
    b = r.bytes_per_param
    return _(
        "• %(regime)s: %(weights)s + %(gradients)s + %(master)s + %(states)s = %(total)s → %(size)s"
    ) % {
        "regime": w.bold(name),
        "weights": w.fmt.integer(b.weights),
        "gradients": w.fmt.integer(b.gradients),
        "master": w.fmt.integer(b.master_weights),
        "states": w.fmt.integer(b.optimizer_states),
        "total": w.fmt.integer(b.total),
        "size": _gb_and_gib(w, r.model_states_gb),
    }


def _suggestion(w: Phrases, s: Suggestion, m: MemoryEstimate) -> str:
    _ = w._
    if s is Suggestion.ZERO_FSDP:
        mixed = m.regime(Regime.MIXED)
        n = max(m.num_gpus, mixed.gpus_needed or 2)
        return w.ngettext(
            "ZeRO-3 or FSDP (full shard) splits weights, gradients and optimizer states across "
            "the GPUs: about %(per_gpu)s each on %(n)s GPU.",
            "ZeRO-3 or FSDP (full shard) splits weights, gradients and optimizer states across "
            "the GPUs: about %(per_gpu)s each on %(n)s GPUs.",
            n,
        ) % {"per_gpu": _gb(w, mixed.model_states_gb / n), "n": w.fmt.integer(n)}
    if s is Suggestion.ACTIVATION_CHECKPOINTING:
        return _(
            "Activation checkpointing keeps fewer activations and recomputes the rest in the "
            "backward pass: less memory for some extra compute."
        )
    return _(
        "A smaller batch per GPU (with gradient accumulation to keep the effective batch) "
        "needs fewer activations."
    )
