"""Trace one training step on the CPU with fake tensors and record every kernel.

Fake tensors (``FakeTensorMode``) carry shapes and dtypes but no data, so a
GPT-2 or BERT-large step costs milliseconds and no memory. Mixed precision is
traced under CPU autocast with the chosen 16-bit dtype: it casts the same
matmul and convolution inputs CUDA autocast does, so the recorded bytes are
what the GPU would move. FLOPs of Tensor Core ops come from PyTorch's own
``torch.utils.flop_counter`` formulas.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import torch
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.nn import functional as F
from torch.utils import _pytree as pytree
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils.flop_counter import flop_registry

from bot.experiment.models import ExperimentError, Workload, build_builtin, load_factory
from bot.predict.ops import FREE, TENSOR_CORE_CLASSES, Op, OpClass, classify

DTYPES = {torch.float32: "fp32", torch.float16: "fp16", torch.bfloat16: "bf16"}
AUTOCAST = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp8": torch.bfloat16}
SIXTEEN_BIT_DTYPES = frozenset({torch.float16, torch.bfloat16})
LAYOUT_OP = "NCHW<->NHWC transposes (cuDNN)"
LOSS_SCALE = 65536.0  # GradScaler's initial scale; only its cost matters here
# CUDA's multi-tensor apply: one launch covers at most this many tensors / 64K-element chunks.
FOREACH_TENSORS, FOREACH_CHUNKS, CHUNK = 110, 320, 65536
_CHANNELS_EXEMPT = 4  # an image's 3 colour channels: cuDNN pads that first conv itself


class PredictError(ExperimentError):
    """A problem the user can fix (bad factory, a model that cannot be traced)."""


def _tensors(args: Iterable[Any]) -> list[torch.Tensor]:
    return [a for a in pytree.tree_leaves(list(args)) if isinstance(a, torch.Tensor)]


def _nbytes(t: torch.Tensor) -> int:
    """Bytes a kernel touches: broadcast (stride-0) dimensions are read once."""
    elements = math.prod(s for s, st in zip(t.shape, t.stride(), strict=True) if st != 0)
    return elements * t.element_size()


def _mutated(func: Any, args: tuple) -> list[torch.Tensor]:
    """What an in-place op that returns nothing (``_foreach_mul_``) writes: its first argument."""
    schema = getattr(func, "_schema", None)
    if schema is None or not schema.is_mutable or not args:
        return []
    return _tensors([args[0]])


def _aligned(kind: OpClass, name: str, tensors: list[torch.Tensor]) -> bool:
    """Whether the GEMM or convolution dims are multiples of 8 (Tensor Cores' tile)."""
    if kind is OpClass.CONV:
        weights = [t for t in tensors if t.dim() >= 3]
        weight = weights[2] if "backward" in name and len(weights) > 2 else weights[-1]
        dims = [d for d in weight.shape[:2] if d > _CHANNELS_EXEMPT]
    else:
        dims = [d for t in tensors if t.dim() >= 2 for d in t.shape[-2:]]
    return all(d % 8 == 0 for d in dims)


def _kernels(name: str, tensors: list[torch.Tensor]) -> int:
    if "_foreach_" not in name:
        return 1
    chunks = sum(math.ceil(t.numel() / CHUNK) for t in tensors)
    return max(1, math.ceil(len(tensors) / FOREACH_TENSORS), math.ceil(chunks / FOREACH_CHUNKS))


class Recorder(TorchDispatchMode):
    """Records each kernel-launching aten op with its FLOPs, bytes and dtype."""

    def __init__(self) -> None:
        super().__init__()
        self.in_optimizer = False
        self.paused = False
        self.ops: Counter[Op] = Counter()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        if not self.paused:
            self._record(func, args, kwargs, out)
        return out

    def _layout(self, activation: torch.Tensor, tensors: list[torch.Tensor]) -> None:
        """16-bit Tensor Core convolutions work in NHWC: on an NCHW activation, cuDNN
        transposes its tensors in and out (each read and written once), as separate
        memory-bound kernels. An NHWC (channels-last) activation needs none."""
        if not _channels_first(activation):
            return
        moved = sum(2 * _nbytes(t) for t in tensors if _channels_first(t))
        if moved:
            self.ops[Op(LAYOUT_OP, OpClass.LAYOUT, 0.0, float(moved), "fp16", True)] += 1

    def _record(self, func: Any, args: tuple, kwargs: dict, out: Any) -> None:
        name = str(func)
        kind = classify(name)
        inputs = _tensors([args, kwargs])
        outputs = _tensors([out]) or _mutated(func, args)
        if kind == FREE or getattr(func, "is_view", False) or not outputs:
            return
        if self.in_optimizer:
            if all(t.dim() == 0 for t in inputs + outputs):
                return  # AdamW's step counters live on the host
            kind = OpClass.OPTIMIZER
        read = {id(t): t for t in inputs}.values()
        floating = [t for t in inputs if t.is_floating_point()] or outputs
        packet = getattr(func, "_overloadpacket", None)
        if kind in TENSOR_CORE_CLASSES and packet in flop_registry:
            flops = flop_registry[packet](*args, **kwargs, out_val=out)
        else:
            flops = sum(t.numel() for t in outputs)
        tensor_op = kind in TENSOR_CORE_CLASSES
        if kind is OpClass.CONV and floating[0].dtype in SIXTEEN_BIT_DTYPES:
            self._layout(inputs[1] if "backward" in name else inputs[0], inputs + outputs)
        self.ops[
            Op(
                name=name.removeprefix("aten."),
                kind=kind,
                flops=float(flops),
                bytes=float(sum(_nbytes(t) for t in [*read, *outputs])),
                dtype=DTYPES.get(floating[0].dtype, "other"),
                aligned=_aligned(kind, name, inputs) if tensor_op else True,
                kernels=_kernels(name, inputs),
            )
        ] += 1


def _attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, **_):
    """Unfused attention (scores, softmax, dropout, weighted sum) in the autocast dtype.

    The CPU's fused attention upcasts 16-bit inputs to FP32, which no GPU run
    does; this is the attention BERT and GPT-2 reference code runs, with the
    softmax in FP32 as CUDA autocast puts it.
    """
    scores = query @ key.transpose(-2, -1) * (scale or query.shape[-1] ** -0.5)
    if is_causal:
        length = scores.shape[-1]
        scores = scores.masked_fill(torch.ones(length, length, dtype=torch.bool).triu(1), -1e4)
    elif attn_mask is not None:
        scores = scores + attn_mask
    weights = F.dropout(torch.softmax(scores.float(), dim=-1), dropout_p).to(value.dtype)
    return weights @ value


def _dropout(input, p=0.5, training=True, inplace=False):
    """Dropout as CUDA runs it: one fused kernel (the CPU splits it into three)."""
    if not training or p == 0:
        return input
    return torch.native_dropout(input, p, True)[0]


@contextmanager
def _gpu_kernels() -> Iterator[None]:
    """While tracing, run attention and dropout the way a GPU step does (see above).

    ``nn.MultiheadAttention`` and ``nn.Dropout`` look these up in
    ``torch.nn.functional`` at call time, so patching the module is enough.
    """
    with (
        mock.patch.object(F, "scaled_dot_product_attention", _attention),
        mock.patch.object(F, "dropout", _dropout),
    ):
        yield


def _channels_first(t: torch.Tensor) -> bool:
    return (
        t.dim() in (4, 5)
        and t.is_floating_point()
        and not (
            t.is_contiguous(memory_format=torch.channels_last)
            if t.dim() == 4
            else t.is_contiguous(memory_format=torch.channels_last_3d)
        )
    )


def _fake(mode: FakeTensorMode, value: Any) -> Any:
    return pytree.tree_map(
        lambda t: torch.empty_like(t, device="cpu") if isinstance(t, torch.Tensor) else t, value
    )


def _build(make: Callable[[torch.device], Workload]) -> Workload:
    """Build on the meta device (no weights allocated); on CPU if the code refuses meta."""
    try:
        with torch.device("meta"):
            return make(torch.device("meta"))
    except ExperimentError:
        raise
    except Exception:  # noqa: BLE001 - user code that needs real tensors to build
        return make(torch.device("cpu"))


def trace_step(make: Callable[[torch.device], Workload], precision: str | None) -> list[Op]:
    """Kernels of one forward + backward + AdamW step; ``precision`` None is the FP32 step."""
    workload = _build(make)
    batch = workload.batch_fn()
    recorder = Recorder()
    try:
        with FakeTensorMode(allow_non_fake_inputs=True) as mode:
            model = workload.model.to_empty(device="cpu")
            inputs, targets = _fake(mode, batch)
            optimizer = torch.optim.AdamW(model.parameters(), foreach=True)
            with recorder, _gpu_kernels():
                _step(workload, model, optimizer, inputs, targets, precision, recorder)
    except ExperimentError:
        raise
    except Exception as exc:  # noqa: BLE001 - the user's model, traced: say what failed
        raise PredictError(
            f"could not trace the training step: {type(exc).__name__}: {exc}"
        ) from None
    return [Op(**{**op.__dict__, "count": n}) for op, n in recorder.ops.items()]


def _step(
    workload: Workload,
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    inputs: Any,
    targets: Any,
    precision: str | None,
    recorder: Recorder,
) -> None:
    if precision is None:
        loss = workload.loss_fn(model(inputs), targets)
    else:
        with torch.autocast("cpu", dtype=AUTOCAST[precision], cache_enabled=False):
            loss = workload.loss_fn(model(inputs), targets)
    if precision == "fp16":
        loss = loss * LOSS_SCALE
    loss.backward()
    recorder.in_optimizer = True
    recorder.paused = True
    optimizer.step()  # creates AdamW's state: a first step's cost, not a steady one
    recorder.paused = False
    if precision == "fp16":
        _unscale(model)
    optimizer.step()


def _unscale(model: torch.nn.Module) -> None:
    """GradScaler's check-and-unscale pass over every gradient, before the step."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    torch._foreach_mul_(grads, 1.0 / LOSS_SCALE)
    torch._foreach_norm(grads)  # stands in for the non-finite check: one read of each grad


def workload_maker(
    model: str | None, factory: str | None, size: str, batch: int, overrides: dict | None = None
) -> Callable[[torch.device], Workload]:
    """A builder for the built-in shape or the user's ``--factory`` at ``batch``."""
    if factory:
        build = load_factory(factory)
        return lambda device: build(batch, device)
    name = model or "resnet50"
    return lambda device: build_builtin(name, size, batch, device, overrides)
