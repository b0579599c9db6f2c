"""Words for a memory answer: what the setup asked needs, whether it fits, and a table.

Visible: one headline for the method asked (full fine-tune, LoRA, QLoRA,
inference) with its bytes per parameter and total, and one line on whether it
fits the GPUs named (with the CUDA context and the activation share kept free)
and what to try. Behind Details: the same model under the usual setups, the
suggestions explained, caveats and sources.
"""

from __future__ import annotations

from bot.advice.memory import (
    MemoryEstimate,
    MemoryNote,
    Method,
    Optimizer,
    Option,
    Recipe,
    Setup,
    Sharding,
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


def _bytes(w: Phrases, n: float) -> str:
    """ "18 bytes per parameter"; a fraction ("0.52") takes the plural CLDR gives it."""
    return w.ngettext(
        "%(n)s byte per parameter", "%(n)s bytes per parameter", w.fmt.plural_count(round(n, 2))
    ) % {"n": w.fmt.number(n)}


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
        Optimizer.ADAM_8BIT: _("8-bit Adam"),
        Optimizer.SGD_MOMENTUM: _("SGD with momentum"),
        Optimizer.SGD: _("plain SGD"),
    }[optimizer]


def _precision(w: Phrases, precision: str | None) -> str:
    names = {"int4": w._("4-bit"), "nf4": w._("4-bit NF4")}
    return names.get(precision or "fp16", (precision or "fp16").upper())


def _recipe(w: Phrases, recipe: Recipe) -> str:
    _ = w._
    return {
        Recipe.FP32: _("FP32"),
        Recipe.AMP: _("torch.amp"),
        Recipe.MASTER: _("an FP32 master copy (ZeRO, DeepSpeed)"),
        Recipe.BF16: _("pure BF16"),
    }[recipe]


def _setup(w: Phrases, s: Setup) -> str:
    """ "Full fine-tune, torch.amp", "QLoRA (4-bit NF4 base)", "Inference in INT8"."""
    _ = w._
    precision = {"precision": _precision(w, s.weight_precision)}
    if s.method is Method.INFERENCE:
        return _("Inference in %(precision)s") % precision
    if s.method is Method.FULL:
        text = _("Full fine-tune, %(recipe)s") % {"recipe": _recipe(w, s.recipe)}
    elif s.method is Method.LORA:
        text = _("LoRA (%(precision)s base)") % precision
    else:
        text = _("QLoRA (%(precision)s base)") % precision
    if s.optimizer is Optimizer.ADAM_8BIT:
        text = _("%(setup)s, 8-bit Adam") % {"setup": text}
    return text


# -- headline ------------------------------------------------------------------
def _headline(w: Phrases, m: MemoryEstimate) -> str:
    if m.method is Method.INFERENCE:
        return _inference_headline(w, m)
    if m.method in (Method.LORA, Method.QLORA):
        return _adapter_headline(w, m)
    return _full_headline(w, m)


def _subject(w: Phrases, m: MemoryEstimate, what: str) -> str:
    return w.bold(w._("%(params)s, %(what)s") % {"params": _parameters(w, m.params), "what": what})


def _full_headline(w: Phrases, m: MemoryEstimate) -> str:
    _ = w._
    a = m.asked
    what = _("full fine-tune with %(optimizer)s") % {"optimizer": _optimizer(w, m.optimizer)}
    values = {
        "subject": _subject(w, m, what),
        "bytes": _bytes(w, a.bytes_per_param.total),
        "size": w.bold(_gb(w, a.model_states_gb)),
        "recipe": _recipe(w, m.recipe),
    }
    if MemoryNote.AMP_WEIGHT_COPY in m.notes:
        return (
            _(
                "%(subject)s: with torch.amp the model states take %(bytes)s (%(size)s): FP32 "
                "weights and gradients, Adam's two FP32 states and a 16-bit copy of the weights. "
                "That is 2 more than plain FP32's 16: mixed precision does not shrink the model "
                "states; activations roughly halve."
            )
            % values
        )
    if MemoryNote.MODEL_STATES_UNCHANGED in m.notes:
        return (
            _(
                "%(subject)s: with %(recipe)s the model states take %(bytes)s (%(size)s), as many "
                "as in FP32: mixed precision does not shrink them; activations roughly halve."
            )
            % values
        )
    return _("%(subject)s: with %(recipe)s the model states take %(bytes)s (%(size)s).") % values


def _adapter_headline(w: Phrases, m: MemoryEstimate) -> str:
    a = m.asked
    what = {Method.LORA: "LoRA", Method.QLORA: "QLoRA"}[m.method]
    trained = a.model_states_gb - a.parts_gb["frozen_weights"]
    return w._(
        "%(subject)s: the frozen base in %(precision)s takes %(base)s (%(bytes)s); the "
        "adapters (%(adapters)s) with their gradients and %(optimizer)s states add %(trained)s: "
        "%(size)s of model states."
    ) % {
        "subject": _subject(w, m, what),
        "precision": _precision(w, a.setup.weight_precision),
        "base": _gb(w, a.parts_gb["frozen_weights"]),
        "bytes": _bytes(w, a.frozen_bytes_per_param),
        "adapters": _parameters(w, a.trainable_params),
        "optimizer": _optimizer(w, m.optimizer),
        "trained": _gb(w, trained),
        "size": w.bold(_gb(w, a.model_states_gb)),
    }


def _inference_headline(w: Phrases, m: MemoryEstimate) -> str:
    _ = w._
    a = m.asked
    values = {
        "subject": _subject(
            w,
            m,
            _("inference in %(precision)s")
            % {"precision": _precision(w, a.setup.weight_precision)},
        ),
        "weights": _gb(w, a.parts_gb["frozen_weights"]),
        "bytes": _bytes(w, a.frozen_bytes_per_param),
        "size": w.bold(_gb(w, a.model_states_gb)),
    }
    if a.kv_cache is None:
        return (
            _(
                "%(subject)s: the weights take %(size)s (%(bytes)s); no gradients, optimizer "
                "states or KV cache."
            )
            % values
        )
    return w.ngettext(
        "%(subject)s: the weights take %(weights)s (%(bytes)s) and the KV cache %(kv)s "
        "(%(tokens)s tokens, batch %(batch)s): %(size)s; no gradients or optimizer states.",
        "%(subject)s: the weights take %(weights)s (%(bytes)s) and the KV cache %(kv)s "
        "(%(tokens)s tokens, batch %(batch)s): %(size)s; no gradients or optimizer states.",
        a.kv_cache.tokens,
    ) % {
        **values,
        "kv": _gb(w, a.kv_cache.gb),
        "tokens": w.fmt.integer(a.kv_cache.tokens),
        "batch": w.fmt.integer(a.kv_cache.batch),
    }


# -- fit -----------------------------------------------------------------------
def _fit(w: Phrases, m: MemoryEstimate) -> str:
    """Whether the setup asked fits the GPUs asked, and the first things to try if not."""
    _ = w._
    if m.gpu_memory_gb is None:
        if m.gpu:
            return _("I do not know how much memory %(gpu)s has: add its size, e.g. `80GB`.") % {
                "gpu": w.echo(m.gpu)
            }
        return _("Name a GPU, e.g. `on A100 80GB`, and I will say whether it fits.")
    line = _fits_line(w, m) if m.fits else _does_not_fit_line(w, m)
    extra = [_lighter_line(w, m)] if m.lighter else []
    if m.fits and Suggestion.ACTIVATION_CHECKPOINTING in m.suggestions:
        extra.append(
            _(
                "Little room is left for activations: try activation checkpointing or "
                "a smaller batch."
            )
        )
    return " ".join([line, *extra])


def _values(w: Phrases, m: MemoryEstimate) -> dict[str, str]:
    a = m.asked
    return {
        "gpu": w.echo(m.gpu or w._("GPU")),
        "memory": _gb(w, m.gpu_memory_gb or 0.0),
        "need": _gb(w, a.per_gpu_gb),
        "context": _gb(w, m.cuda_context_gb),
        "left": _gb(w, a.headroom_gb or 0.0),
        "usable": _gb(w, max(0.0, m.usable_gb or 0.0)),
        "reserve": w.fmt.percent(100 * m.reserve),
        "count": w.fmt.integer(m.num_gpus),
        "sharding": _sharding(w, m),
    }


def _sharding(w: Phrases, m: MemoryEstimate) -> str:
    _ = w._
    if m.method is Method.INFERENCE:
        return _("the weights split across them")
    return {
        Sharding.DDP: _("plain data parallelism (every GPU holds everything)"),
        Sharding.ZERO1: _("ZeRO-1"),
        Sharding.ZERO2: _("ZeRO-2"),
        Sharding.ZERO3: _("ZeRO-3/FSDP"),
        Sharding.ZERO2_OFFLOAD: _("ZeRO-Offload (optimizer side in CPU memory)"),
        Sharding.ZERO3_OFFLOAD: _("ZeRO-3/FSDP with CPU offload"),
        None: _("ZeRO-3/FSDP"),
    }[m.sharding]


def _fits_line(w: Phrases, m: MemoryEstimate) -> str:
    _ = w._
    values = _values(w, m)
    if m.num_gpus > 1 and m.sharding is Sharding.DDP:
        return (
            _(
                "Fits on each of your %(count)s × %(gpu)s (%(memory)s each), a full copy per GPU "
                "(plain DDP): %(need)s plus %(context)s for the CUDA context."
            )
            % values
        )
    if m.num_gpus > 1:
        return (
            _(
                "Fits on your %(count)s × %(gpu)s (%(memory)s each) with %(sharding)s: %(need)s per "
                "GPU plus %(context)s for the CUDA context."
            )
            % values
        )
    if m.method is Method.INFERENCE:
        return (
            _(
                "Fits on one %(gpu)s (%(memory)s): %(need)s plus %(context)s for the CUDA context, "
                "leaving %(left)s free."
            )
            % values
        )
    return (
        _(
            "Fits on one %(gpu)s (%(memory)s): %(need)s plus %(context)s for the CUDA context, "
            "leaving %(left)s for activations."
        )
        % values
    )


def _does_not_fit_line(w: Phrases, m: MemoryEstimate) -> str:
    _ = w._
    values = _values(w, m)
    needed = m.gpus_needed
    if m.num_gpus > 1:
        line = (
            _(
                "Not on your %(count)s × %(gpu)s (%(memory)s each): with %(sharding)s it needs "
                "%(need)s per GPU, and %(usable)s are usable on each."
            )
            % values
        )
    else:
        line = (
            _(
                "Does not fit on one %(gpu)s (%(memory)s): it needs %(need)s, and %(usable)s are "
                "usable once %(reserve)s is kept for activations and %(context)s for the CUDA context."
            )
            % values
        )
        if m.method is Method.INFERENCE:
            line = (
                _(
                    "Does not fit on one %(gpu)s (%(memory)s): it needs %(need)s, and %(usable)s "
                    "are usable next to %(context)s for the CUDA context."
                )
                % values
            )
    if needed is None or needed <= m.num_gpus:
        return line
    if m.method is Method.INFERENCE:
        more = w.ngettext(
            "Split across GPUs it needs at least %(n)s GPU.",
            "Split across GPUs it needs at least %(n)s GPUs.",
            needed,
        )
    else:
        more = w.ngettext(
            "Sharded with ZeRO-3/FSDP it needs at least %(n)s GPU.",
            "Sharded with ZeRO-3/FSDP it needs at least %(n)s GPUs.",
            needed,
        )
    return f"{line} {more % {'n': w.fmt.integer(needed)}}"


def _lighter_line(w: Phrases, m: MemoryEstimate) -> str:
    assert m.lighter is not None
    return w._("%(setup)s would fit: %(size)s per GPU.") % {
        "setup": _setup(w, m.lighter.setup),
        "size": _gb(w, m.lighter.per_gpu_gb),
    }


# -- details -------------------------------------------------------------------
def _details(w: Phrases, m: MemoryEstimate, *, memory_given: bool) -> list[str]:
    _ = w._
    lines = [_("The same model under the usual setups (model states; the fit on your GPUs):")]
    lines += [_row(w, o, m) for o in m.options]
    if m.method is Method.FULL:
        lines.append(_breakdown(w, m.asked))
    lines += [_suggestion(w, s, m) for s in m.suggestions if s is not Suggestion.LIGHTER_METHOD]
    lines += [text for note in m.notes if (text := _note(w, note, m))]
    if m.gpu_memory_gb is not None:
        lines.append(_rule(w, m))
    if m.gpu and m.gpu_memory_gb is not None and not memory_given:
        lines.append(
            _("Assumed the %(memory)s %(gpu)s; name the size (e.g. `40GB`) if yours differs.")
            % {"memory": _gb(w, m.gpu_memory_gb), "gpu": w.echo(m.gpu)}
        )
    if m.model:
        lines.append(
            _("Size and shape of %(model)s from its paper or model card.")
            % {"model": w.echo(m.model)}
        )
    return lines


def _row(w: Phrases, o: Option, m: MemoryEstimate) -> str:
    _ = w._
    values = {"setup": w.bold(_setup(w, o.setup)), "size": _gb_and_gib(w, o.model_states_gb)}
    if o.fits is None:
        return _("• %(setup)s: %(size)s") % values
    verdict = _("fits") if o.fits else _("does not fit")
    return _("• %(setup)s: %(size)s, %(per_gpu)s per GPU: %(verdict)s") % {
        **values,
        "per_gpu": _gb(w, o.per_gpu_gb),
        "verdict": verdict,
    }


def _breakdown(w: Phrases, o: Option) -> str:
    b = o.bytes_per_param
    return w._(
        "Bytes per parameter: weights %(weights)s + gradients %(gradients)s + FP32 master copy "
        "%(master)s + optimizer states %(states)s + 16-bit weight copy %(cache)s = %(total)s."
    ) % {
        "weights": w.fmt.number(b.weights),
        "gradients": w.fmt.number(b.gradients),
        "master": w.fmt.number(b.master_weights),
        "states": w.fmt.number(b.optimizer_states),
        "cache": w.fmt.number(b.weight_cache),
        "total": w.fmt.number(b.total),
    }


def _rule(w: Phrases, m: MemoryEstimate) -> str:
    _ = w._
    values = {"reserve": w.fmt.percent(100 * m.reserve), "context": _gb(w, m.cuda_context_gb)}
    if m.reserve == 0:
        return _("“Fits” keeps %(context)s per GPU for the CUDA context.") % values
    return (
        _(
            "“Fits” keeps %(reserve)s of each GPU for activations and %(context)s for the CUDA "
            "context."
        )
        % values
    )


def _note(w: Phrases, note: MemoryNote, m: MemoryEstimate) -> str:
    _ = w._
    if note is MemoryNote.ACTIVATIONS_NOT_INCLUDED:
        return _(
            "These totals are model states only: activations come on top, and mixed "
            "precision stores most of them in 16 bits instead of 32, so they roughly halve."
        )
    if note is MemoryNote.BF16_ROUNDING_RISK:
        return _(
            "Pure BF16 halves the model states by dropping the FP32 master copy, but with only "
            "7 mantissa bits small updates can round away."
        )
    if note is MemoryNote.ADAPTER_SHARE:
        return _(
            "Adapters taken as about %(share)s of the parameters (rank 16 on the attention "
            "and MLP projections); a higher rank adds little."
        ) % {"share": w.fmt.percent(100 * m.asked.trainable_params / m.params)}
    if note is MemoryNote.KV_SHAPE_ASSUMED:
        return _(
            "KV cache for a typical decoder of this size (grouped-query attention with 8 KV "
            "heads from 30B up, none below); name the model if its shape differs."
        )
    if note is MemoryNote.CAST_PER_UNIT:
        return _(
            "Sharded with ZeRO-3/FSDP, the 16-bit weights are gathered and cast one layer at "
            "a time, so torch.amp's whole-model 16-bit copy is not kept: per GPU the states "
            "are the total without it, split across the GPUs."
        )
    if note is MemoryNote.CPU_OFFLOAD:
        return _(
            "With CPU offload, %(cpu)s of the model states sit in CPU memory instead of on "
            "the GPUs (the host needs that much free RAM), and each step waits on the "
            "transfers."
        ) % {"cpu": _gb(w, m.asked.offloaded_gb)}
    if note is MemoryNote.SHARDING_ASSUMED:
        return _(
            "On several GPUs I assumed a full shard (ZeRO-3/FSDP, or split weights for "
            "inference); with plain DDP every GPU holds everything."
        )
    return ""


def _suggestion(w: Phrases, s: Suggestion, m: MemoryEstimate) -> str:
    _ = w._
    if s is Suggestion.ZERO_FSDP:
        if m.method is Method.INFERENCE:
            return _(
                'Tensor or pipeline parallelism (vLLM, `device_map="auto"`) splits the '
                "weights and the KV cache across GPUs."
            )
        return _(
            "ZeRO-3 or FSDP (full shard) splits weights, gradients and optimizer states across "
            "the GPUs."
        )
    if s is Suggestion.ACTIVATION_CHECKPOINTING:
        return _(
            "Activation checkpointing keeps fewer activations and recomputes the rest in the "
            "backward pass: less memory for some extra compute."
        )
    if s is Suggestion.SHORTER_CONTEXT:
        return _("A shorter context or a smaller batch shrinks the KV cache in proportion.")
    return _(
        "A smaller batch per GPU (with gradient accumulation to keep the effective batch) "
        "needs fewer activations."
    )
