"""Memory of training, fine-tuning and inference: numbers and codes, no words.

One mechanism for every way people use a GPU today. A *method* (full fine-tune,
LoRA, QLoRA, inference) says which parameters train and how the frozen ones are
stored; a *recipe* (FP32, torch.amp, FP32 master copy, pure BF16) how each
trained parameter is held; an *optimizer* how many state values it keeps; a
*sharding* (DDP, ZeRO-1/2/3, FSDP) which parts are split across GPUs. All of
them are named data in ``data/memory.toml`` with their sources; the code only
adds up parts:

    per GPU = frozen weights + trained params x (weights + gradients + master
              + slots x state bytes + 16-bit weight copy) + KV cache,
              each part divided by the GPU count when the sharding splits it

and a setup fits when that, plus the CUDA context, stays within the card less
the share the method keeps for activations. The honest headline for Adam
(facts sheet section 2): mixed precision does not shrink the model states
(torch.amp even adds a 16-bit weight copy: 18 bytes against FP32's 16); what
shrinks are the activations.

Sizes are decimal gigabytes (1e9 bytes), as in ZeRO's "1.5 Billion parameters
... at least 24 GB" (1.5e9 x 16 bytes).
"""

from __future__ import annotations

import math
import tomllib
from enum import StrEnum
from functools import cache
from importlib.resources import files

from pydantic import BaseModel, computed_field

from bot.advice.gpus import gpu_memory_gb
from bot.advice.model_sizes import ModelSize, model_size

BYTES_PER_GB = 1e9
MAX_GPUS = 100_000  # beyond this, "how many GPUs" has no useful answer


@cache
def _data() -> dict:
    text = files("bot.advice").joinpath("data", "memory.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


class Method(StrEnum):
    FULL = "full"  # every parameter trains
    LORA = "lora"  # frozen 16-bit base, small trained adapters
    QLORA = "qlora"  # frozen 4-bit (NF4) base, small trained adapters
    INFERENCE = "inference"  # weights and KV cache only


class Recipe(StrEnum):
    """How each trained parameter is held."""

    FP32 = "fp32"
    AMP = "amp"  # torch.amp autocast: FP32 weights and gradients, a 16-bit weight copy
    MASTER = "master"  # 16-bit weights and gradients with an FP32 master copy (ZeRO)
    BF16 = "bf16"  # pure BF16, no master copy


class Optimizer(StrEnum):
    ADAM = "adam"  # Adam and AdamW: momentum and variance per parameter
    ADAM_8BIT = "adam8bit"  # bitsandbytes 8-bit Adam: both moments in one byte each
    SGD_MOMENTUM = "sgd_momentum"  # one momentum buffer
    SGD = "sgd"  # no state


class Sharding(StrEnum):
    DDP = "ddp"  # plain data parallelism: every GPU holds everything
    ZERO1 = "zero1"
    ZERO2 = "zero2"
    ZERO3 = "zero3"  # ZeRO-3, FSDP full shard; for inference, tensor/pipeline parallel
    ZERO2_OFFLOAD = "zero2_offload"  # ZeRO-Offload: optimizer side in CPU memory
    ZERO3_OFFLOAD = "zero3_offload"  # ZeRO-3/FSDP with the parameters offloaded too


_OPTIMIZER_ALIASES = {
    "adam": Optimizer.ADAM,
    "adamw": Optimizer.ADAM,
    "paged adam": Optimizer.ADAM,  # paged: same states, moved to CPU under pressure
    "paged adamw": Optimizer.ADAM,
    "sgd_momentum": Optimizer.SGD_MOMENTUM,
    "momentum": Optimizer.SGD_MOMENTUM,
    "sgd": Optimizer.SGD,
}


class MemoryNote(StrEnum):
    """What rendering should say about the numbers (stable codes)."""

    MODEL_STATES_UNCHANGED = "model_states_unchanged"  # master recipe = FP32 bytes with Adam
    AMP_WEIGHT_COPY = "amp_weight_copy"  # torch.amp: FP32 states plus a 16-bit weight copy
    ACTIVATIONS_HALVE = "activations_halve"
    ACTIVATIONS_NOT_INCLUDED = "activations_not_included"  # totals are model states only
    BF16_ROUNDING_RISK = "bf16_rounding_risk"  # pure BF16 drops the FP32 master copy
    ADAPTER_SHARE = "adapter_share"  # LoRA/QLoRA: the adapters' assumed share
    KV_SHAPE_ASSUMED = "kv_shape_assumed"  # KV cache from a typical decoder's shape
    SHARDING_ASSUMED = "sharding_assumed"  # several GPUs, no sharding said: a full shard
    CAST_PER_UNIT = "cast_per_unit"  # ZeRO-3/FSDP: no whole-model 16-bit weight copy
    CPU_OFFLOAD = "cpu_offload"  # the offloaded parts sit in CPU memory (Option.offloaded_gb)


class Suggestion(StrEnum):
    """What to try when the setup does not fit, or fits with little room."""

    ZERO_FSDP = "zero_fsdp"  # shard across GPUs (ZeRO-3 / FSDP; split weights for inference)
    LIGHTER_METHOD = "lighter_method"  # the first lighter option that fits (see lighter)
    ACTIVATION_CHECKPOINTING = "activation_checkpointing"
    SMALLER_BATCH = "smaller_batch"
    SHORTER_CONTEXT = "shorter_context"  # inference: a smaller KV cache


class BytesPerParam(BaseModel):
    """Bytes each *trained* parameter costs, by what holds it."""

    weights: float
    gradients: float
    master_weights: float
    optimizer_states: float
    weight_cache: float = 0.0  # torch.amp's 16-bit copy of the weights

    @computed_field  # type: ignore[prop-decorator]
    @property
    def total(self) -> float:
        return (
            self.weights
            + self.gradients
            + self.master_weights
            + self.optimizer_states
            + self.weight_cache
        )


class KvCache(BaseModel):
    tokens: int
    batch: int
    layers: int
    width: int  # K (or V) values per token per layer: heads x head size, KV heads under GQA
    gb: float
    shape_known: bool  # from the model catalog, not the typical shape


class Setup(BaseModel):
    """One way to run the model: what the estimate and each alternative are."""

    method: Method
    recipe: Recipe
    optimizer: Optimizer
    weight_precision: str | None  # the frozen weights' (LoRA, QLoRA, inference)


class Option(BaseModel):
    """One setup's memory on the user's GPUs, and whether it fits."""

    setup: Setup
    bytes_per_param: BytesPerParam  # per trained parameter
    frozen_bytes_per_param: float  # per frozen parameter
    trainable_params: float
    parts_gb: dict[str, float]  # whole model, before sharding
    kv_cache: KvCache | None
    model_states_gb: float  # all parts together, before sharding
    per_gpu_gb: float  # on each of the GPUs asked, sharded as said or assumed
    offloaded_gb: float = 0.0  # held in CPU memory by an offloading sharding, all GPUs together
    fits: bool | None  # None when no GPU memory is known
    gpus_needed: int | None  # GPUs this setup needs with a full shard; None if none do
    headroom_gb: float | None  # per GPU, after the states and the CUDA context


class MemoryEstimate(BaseModel):
    params: float
    optimizer: Optimizer
    gpu: str | None
    gpu_memory_gb: float | None
    num_gpus: int
    method: Method
    recipe: Recipe
    # As said; unsaid on several GPUs the least that fits (DDP, else ZeRO-3); None on one.
    sharding: Sharding | None
    model: str | None  # catalog model whose size or shape was used
    cuda_context_gb: float
    reserve: float  # share of each GPU kept for activations by this method
    usable_gb: float | None  # per GPU: memory less the reserve and the CUDA context
    asked: Option  # the method, precision and GPU count asked
    lighter: Option | None  # the first lighter setup that fits when the asked one does not
    options: list[Option]  # the same model under the usual setups, for the details
    notes: list[MemoryNote]
    suggestions: list[Suggestion]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def fits(self) -> bool | None:
        return self.asked.fits

    @computed_field  # type: ignore[prop-decorator]
    @property
    def gpus_needed(self) -> int | None:
        return self.asked.gpus_needed


def parse_optimizer(name: str | Optimizer | None) -> Optimizer:
    """Adam when unsaid (the common case); AdamW counts as Adam (same states);
    "8-bit adam", "adamw8bit", "paged_adamw_8bit" are 8-bit Adam."""
    if name is None:
        return Optimizer.ADAM
    raw = str(name).strip().lower()
    for text in (raw, raw.replace("_", " ")):
        if text in _OPTIMIZER_ALIASES:
            return _OPTIMIZER_ALIASES[text]
    if raw in set(Optimizer):
        return Optimizer(raw)
    squashed = raw.replace(" ", "").replace("-", "").replace("_", "")
    if "adam" in squashed and "8bit" in squashed:
        return Optimizer.ADAM_8BIT
    raise ValueError(f"unknown optimizer: {name!r}")


def estimate_memory(
    params: float,
    optimizer: str | Optimizer | None = None,
    gpu: str | None = None,
    num_gpus: int | None = None,
    memory_gb: float | None = None,
    *,
    method: Method | str | None = None,
    recipe: Recipe | str | None = None,
    weight_precision: str | None = None,
    sharding: Sharding | str | None = None,
    model: str | None = None,
    batch: int | None = None,
) -> MemoryEstimate:
    """Memory of ``params`` parameters for the method, recipe and GPUs asked, and what to try.

    ``memory_gb`` overrides the GPU's memory (e.g. "A100 40GB"); otherwise the
    largest published variant of the named GPU is assumed (A100 -> 80 GB).
    ``model`` names a catalog model for its KV-cache shape. Raises ValueError for
    a parameter count that is not a positive finite number.
    """
    if not math.isfinite(params) or params <= 0:
        raise ValueError("params must be a positive finite number")
    chosen = Method(method) if method else Method.FULL
    setup = Setup(
        method=chosen,
        recipe=Recipe(recipe) if recipe else Recipe.AMP,
        optimizer=parse_optimizer(optimizer),
        weight_precision=weight_precision or _method(chosen).get("frozen_precision"),
    )
    count = num_gpus if num_gpus and num_gpus > 0 else 1
    memory = memory_gb if memory_gb else (gpu_memory_gb(gpu) if gpu else None)
    shape = model_size(model) if model else None
    shard = Sharding(sharding) if sharding else None
    calc = _Calculator(params, memory, count, shard, shape, batch)
    if sharding is None and count > 1:
        # Unsaid on several GPUs: the least sharding that fits (a full copy on each
        # GPU with plain DDP, else ZeRO-3/FSDP).
        calc.sharding = Sharding.DDP
        if calc.option(setup).fits is not True:
            calc.sharding = Sharding.ZERO3
    asked = calc.option(setup)
    options = [calc.option(s) for s in _usual_setups(setup)]
    lighter = _lighter(setup, asked, calc)
    return MemoryEstimate(
        params=params,
        optimizer=setup.optimizer,
        gpu=gpu,
        gpu_memory_gb=memory,
        num_gpus=count,
        method=setup.method,
        recipe=setup.recipe,
        sharding=calc.sharding,
        model=shape.name if shape else None,
        cuda_context_gb=_data()["cuda_context_gb"],
        reserve=_method(setup.method)["reserve"],
        usable_gb=calc.usable(setup.method),
        asked=asked,
        lighter=lighter,
        options=options,
        notes=_notes(setup, asked, calc.sharding, assumed=sharding is None),
        suggestions=_suggestions(setup, asked, lighter, calc.usable(setup.method)),
    )


def _method(method: Method) -> dict:
    return _data()["methods"][method.value]


def _sharding_rule(sharding: Sharding | None) -> dict:
    return _data()["shardings"][sharding.value] if sharding else {}


class _Calculator:
    """The sums for one model on the user's GPUs, for any setup."""

    def __init__(
        self,
        params: float,
        memory: float | None,
        num_gpus: int,
        sharding: Sharding | None,
        shape: ModelSize | None,
        batch: int | None,
    ) -> None:
        self.params, self.memory, self.num_gpus = params, memory, num_gpus
        self.sharding, self.shape, self.batch = sharding, shape, batch

    def usable(self, method: Method) -> float | None:
        if not self.memory:
            return None
        return self.memory * (1 - _method(method)["reserve"]) - _data()["cuda_context_gb"]

    def option(self, setup: Setup) -> Option:
        data = _method(setup.method)
        per_param = bytes_per_param(setup.recipe, setup.optimizer)
        trained = self.params * data["trainable_share"]
        frozen_bytes = _precision_bytes(setup.weight_precision) if trained < self.params else 0.0
        parts = {
            name: trained * getattr(per_param, name) / BYTES_PER_GB
            for name in ("weights", "gradients", "master_weights", "optimizer_states")
        }
        parts["weight_cache"] = trained * per_param.weight_cache / BYTES_PER_GB
        parts["frozen_weights"] = (self.params - trained) * frozen_bytes / BYTES_PER_GB
        kv = self._kv_cache(setup) if data.get("kv_cache") else None
        parts["kv_cache"] = kv.gb if kv else 0.0
        usable = self.usable(setup.method)
        per_gpu = self._per_gpu(parts, self.num_gpus, self.sharding)
        offloaded = set(_sharding_rule(self.sharding).get("offloaded", ()))
        return Option(
            setup=setup,
            bytes_per_param=per_param,
            frozen_bytes_per_param=frozen_bytes,
            trainable_params=trained,
            parts_gb=parts,
            kv_cache=kv,
            model_states_gb=sum(parts.values()),
            per_gpu_gb=per_gpu,
            offloaded_gb=sum(gb for name, gb in parts.items() if name in offloaded),
            fits=per_gpu <= usable if usable is not None else None,
            gpus_needed=self._gpus_needed(parts, usable),
            headroom_gb=max(0.0, self.memory - _data()["cuda_context_gb"] - per_gpu)
            if self.memory
            else None,
        )

    def _per_gpu(self, parts: dict[str, float], num_gpus: int, sharding: Sharding | None) -> float:
        """Each part whole, split by the GPU count, or gone from the GPU (held one unit at
        a time, or offloaded to CPU memory); offloaded weights come back for the layers
        being computed, at most ``live_params`` of them at once."""
        rule = _sharding_rule(sharding)
        split = set(rule.get("split", ()))
        gone = set(rule.get("per_unit", ())) | set(rule.get("offloaded", ()))
        resident = sum(
            0.0 if name in gone else gb / num_gpus if name in split else gb
            for name, gb in parts.items()
        )
        live = min(1.0, rule.get("live_params", 0.0) / self.params)
        return resident + live * (parts["weights"] + parts["frozen_weights"])

    def _gpus_needed(self, parts: dict[str, float], usable: float | None) -> int | None:
        """The fewest GPUs a full shard (ZeRO-3/FSDP) fits on, if any; 1 when one GPU
        holds it all."""
        if usable is None or usable <= 0:
            return None
        if self._per_gpu(parts, 1, None) <= usable:
            return 1
        needed = max(2, math.ceil(self._per_gpu(parts, 1, Sharding.ZERO3) / usable - 1e-9))
        return needed if needed <= MAX_GPUS else None

    def _kv_cache(self, setup: Setup) -> KvCache | None:
        kv = _data()["kv_cache"]
        shape = self.shape
        if shape is not None and not shape.decoder:
            return None
        if shape is not None and shape.layers and shape.kv_width:
            layers, width, known = shape.layers, shape.kv_width, True
            tokens = min(kv["tokens"], shape.context or kv["tokens"])
        elif self.params >= kv["min_params"]:
            # params = 12 x layers x width^2 with width = r x layers (module docstring).
            ratio = kv["width_per_layer"]
            layers = max(1, round((self.params / (12 * ratio**2)) ** (1 / 3)))
            width, known, tokens = ratio * layers, False, kv["tokens"]
            if self.params >= kv["gqa_min_params"]:
                width = min(width, kv["gqa_width"])
        else:
            return None
        batch = self.batch or kv["batch"]
        # K and V are cached in 16 bits whatever the weights are quantised to
        # (FP32 only for an FP32 model).
        value_bytes = 4.0 if setup.weight_precision == "fp32" else 2.0
        gb = 2 * layers * width * tokens * batch * value_bytes / BYTES_PER_GB
        return KvCache(
            tokens=tokens, batch=batch, layers=layers, width=width, gb=gb, shape_known=known
        )


def bytes_per_param(recipe: Recipe, optimizer: Optimizer) -> BytesPerParam:
    """Bytes per trained parameter: the recipe's weights, gradients, master copy and
    weight copy, and the optimizer's state values at the recipe's (or its own) width.

    FP32 Adam 4 + 4 + 8 = 16; torch.amp Adam 4 + 4 + 8 + 2 = 18; FP32 master (ZeRO)
    2 + 2 + 4 + 8 = 16; pure BF16 2 + 2 + 4 = 8; 8-bit Adam keeps 2 bytes of states.
    """
    r = _data()["recipes"][recipe.value]
    o = _data()["optimizers"][optimizer.value]
    return BytesPerParam(
        weights=r["weights"],
        gradients=r["gradients"],
        master_weights=r["master_weights"],
        optimizer_states=o["slots"] * o.get("state_bytes", r["state_bytes"]),
        weight_cache=r["weight_cache"],
    )


def _precision_bytes(precision: str | None) -> float:
    table = _data()["precision_bytes"]
    return table.get(precision or "fp16", table["fp16"])


def _usual_setups(asked: Setup) -> list[Setup]:
    """The same model under the usual setups (the details' table): full fine-tunes
    for training questions, weight precisions for inference."""
    opt = asked.optimizer
    if asked.method is Method.INFERENCE:
        return [
            Setup(method=Method.INFERENCE, recipe=asked.recipe, optimizer=opt, weight_precision=p)
            for p in ("fp32", "fp16", "int8", "int4")
        ]
    full = [
        Setup(method=Method.FULL, recipe=r, optimizer=opt, weight_precision=None) for r in Recipe
    ]
    adapters = [
        Setup(method=m, recipe=asked.recipe, optimizer=opt, weight_precision=None)
        for m in (Method.LORA, Method.QLORA)
    ]
    return full + [_with_method_precision(s) for s in adapters]


def _with_method_precision(setup: Setup) -> Setup:
    return setup.model_copy(
        update={"weight_precision": _method(setup.method).get("frozen_precision")}
    )


def _lighter_setups(asked: Setup) -> list[Setup]:
    """Lighter ways to do the same job, least change first."""
    if asked.method is Method.INFERENCE:
        order = {"fp32": 4, "fp16": 2, "bf16": 2, "fp8": 1, "int8": 1}
        bytes_now = _precision_bytes(asked.weight_precision)
        return [
            asked.model_copy(update={"weight_precision": p})
            for p in ("fp16", "int8", "int4")
            if order.get(p, 0.5) < bytes_now
        ]
    out = []
    if asked.method is Method.FULL and asked.optimizer is Optimizer.ADAM:
        out.append(asked.model_copy(update={"optimizer": Optimizer.ADAM_8BIT}))
    if asked.method is Method.FULL:
        out.append(_with_method_precision(asked.model_copy(update={"method": Method.LORA})))
    if asked.method in (Method.FULL, Method.LORA):
        out.append(_with_method_precision(asked.model_copy(update={"method": Method.QLORA})))
    return out


def _lighter(asked: Setup, option: Option, calc: _Calculator) -> Option | None:
    if option.fits is not False:
        return None
    return next((o for s in _lighter_setups(asked) if (o := calc.option(s)).fits), None)


def _notes(
    setup: Setup, asked: Option, sharding: Sharding | None, *, assumed: bool
) -> list[MemoryNote]:
    notes = []
    full_shard = sharding is Sharding.ZERO3
    trains = setup.method is not Method.INFERENCE
    full_adam = setup.method is Method.FULL and setup.optimizer is Optimizer.ADAM
    if full_adam and setup.recipe is Recipe.AMP:
        notes.append(MemoryNote.AMP_WEIGHT_COPY)
    if full_adam and setup.recipe is Recipe.MASTER:
        notes.append(MemoryNote.MODEL_STATES_UNCHANGED)
    if setup.method in (Method.LORA, Method.QLORA):
        notes.append(MemoryNote.ADAPTER_SHARE)
    if trains:
        if setup.recipe is not Recipe.FP32:
            notes.append(MemoryNote.ACTIVATIONS_HALVE)
        notes.append(MemoryNote.ACTIVATIONS_NOT_INCLUDED)
    if setup.method is Method.FULL and setup.recipe is Recipe.BF16:
        notes.append(MemoryNote.BF16_ROUNDING_RISK)
    if asked.kv_cache is not None and not asked.kv_cache.shape_known:
        notes.append(MemoryNote.KV_SHAPE_ASSUMED)
    if full_shard and assumed:
        notes.append(MemoryNote.SHARDING_ASSUMED)
    if full_shard and asked.parts_gb["weight_cache"] > 0:
        notes.append(MemoryNote.CAST_PER_UNIT)
    if asked.offloaded_gb > 0:
        notes.append(MemoryNote.CPU_OFFLOAD)
    return notes


def _suggestions(
    setup: Setup, asked: Option, lighter: Option | None, usable: float | None
) -> list[Suggestion]:
    """Sharding and a lighter method when it does not fit; activation (or KV) savers
    when it does not fit or leaves less than half the usable memory free.

    Activation checkpointing and a smaller batch only shrink activations, so they
    follow sharding rather than replace it.
    """
    if usable is None or asked.fits is None:
        return []
    out = [] if asked.fits else [Suggestion.ZERO_FSDP]
    if lighter is not None:
        out.append(Suggestion.LIGHTER_METHOD)
    if not asked.fits or asked.per_gpu_gb > 0.6 * usable:
        if setup.method is Method.INFERENCE:
            out += [Suggestion.SHORTER_CONTEXT] if asked.kv_cache else []
        else:
            out += [Suggestion.ACTIVATION_CHECKPOINTING, Suggestion.SMALLER_BATCH]
    return out
