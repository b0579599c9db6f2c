"""What to train: the built-in model shapes and the user's own factory.

Every workload is the same triple a user's ``--factory`` returns:
``(model, batch_fn, loss_fn)``, where ``batch_fn()`` gives ``(inputs, targets)``
and ``loss_fn(outputs, targets)`` a scalar. The built-ins are written here with
random inputs of the right shape, so nothing is downloaded and torchvision is
not needed; they match the published models' layer shapes, not their weights.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from itertools import cycle
from typing import Any

import torch
from torch import nn
from torch.nn import functional as F


class ExperimentError(Exception):
    """A problem the user can fix; its message is printed without a traceback."""


@dataclass
class Workload:
    model: nn.Module
    batch_fn: Callable[[], tuple[Any, Any]]
    loss_fn: Callable[[Any, Any], torch.Tensor]


# ---- ResNet-50 shape -------------------------------------------------------


class _Bottleneck(nn.Module):
    """1x1 reduce, 3x3, 1x1 expand (x4), with a projected shortcut when shapes change."""

    def __init__(self, in_ch: int, width: int, stride: int) -> None:
        super().__init__()
        out_ch = width * 4
        self.body = nn.Sequential(
            nn.Conv2d(in_ch, width, 1, bias=False),
            nn.BatchNorm2d(width),
            nn.ReLU(inplace=True),
            nn.Conv2d(width, width, 3, stride, 1, bias=False),
            nn.BatchNorm2d(width),
            nn.ReLU(inplace=True),
            nn.Conv2d(width, out_ch, 1, bias=False),
            nn.BatchNorm2d(out_ch),
        )
        self.shortcut = (
            nn.Identity()
            if stride == 1 and in_ch == out_ch
            else nn.Sequential(
                nn.Conv2d(in_ch, out_ch, 1, stride, bias=False), nn.BatchNorm2d(out_ch)
            )
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.relu(self.body(x) + self.shortcut(x))


def _resnet(base: int, blocks: tuple[int, ...], classes: int) -> nn.Module:
    layers: list[nn.Module] = [
        nn.Conv2d(3, base, 7, 2, 3, bias=False),
        nn.BatchNorm2d(base),
        nn.ReLU(inplace=True),
        nn.MaxPool2d(3, 2, 1),
    ]
    in_ch = base
    for stage, count in enumerate(blocks):
        width = base * 2**stage
        for i in range(count):
            layers.append(_Bottleneck(in_ch, width, 2 if i == 0 and stage > 0 else 1))
            in_ch = width * 4
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(in_ch, classes)]
    return nn.Sequential(*layers)


# ---- Transformer shapes ----------------------------------------------------


class _Transformer(nn.Module):
    """Token + position embeddings, a stack of encoder layers, a vocabulary head.

    ``causal`` turns the BERT-shaped encoder (post-norm, bidirectional,
    masked-LM head) into the GPT-2-shaped decoder (pre-norm, causal, LM head).
    """

    def __init__(
        self, vocab: int, seq: int, hidden: int, heads: int, layers: int, causal: bool
    ) -> None:
        super().__init__()
        self.causal = causal
        self.tokens = nn.Embedding(vocab, hidden)
        self.positions = nn.Embedding(seq, hidden)
        layer = nn.TransformerEncoderLayer(
            hidden,
            heads,
            4 * hidden,
            dropout=0.1,
            activation="gelu",
            batch_first=True,
            norm_first=causal,
        )
        self.stack = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(hidden)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        seq = ids.shape[1]
        x = self.tokens(ids) + self.positions(torch.arange(seq, device=ids.device))
        mask = (
            nn.Transformer.generate_square_subsequent_mask(seq, device=ids.device)
            if self.causal
            else None
        )
        return self.head(self.norm(self.stack(x, mask=mask, is_causal=self.causal)))


def _mlp(features: int, hidden: int, depth: int, classes: int) -> nn.Module:
    layers: list[nn.Module] = []
    width = features
    for _ in range(depth):
        layers += [nn.Linear(width, hidden), nn.ReLU()]
        width = hidden
    return nn.Sequential(*layers, nn.Linear(width, classes))


# name -> size -> (builder kwargs, default batch)
_RESNET = {
    "full": ({"base": 64, "blocks": (3, 4, 6, 3), "classes": 1000, "image": 224}, 64),
    "small": ({"base": 32, "blocks": (1, 2, 2, 1), "classes": 1000, "image": 128}, 32),
    "tiny": ({"base": 8, "blocks": (1, 1, 1, 1), "classes": 10, "image": 32}, 8),
}
_BERT = {
    "full": ({"vocab": 30522, "seq": 128, "hidden": 768, "heads": 12, "layers": 12}, 32),
    "small": ({"vocab": 30522, "seq": 128, "hidden": 256, "heads": 4, "layers": 4}, 32),
    "tiny": ({"vocab": 1000, "seq": 16, "hidden": 32, "heads": 2, "layers": 2}, 8),
}
_GPT2 = {
    "full": ({"vocab": 50257, "seq": 1024, "hidden": 768, "heads": 12, "layers": 12}, 8),
    "small": ({"vocab": 50257, "seq": 256, "hidden": 256, "heads": 4, "layers": 4}, 8),
    "tiny": ({"vocab": 1000, "seq": 16, "hidden": 32, "heads": 2, "layers": 2}, 8),
}
_MLP = {
    "full": ({"features": 1024, "hidden": 4096, "depth": 3, "classes": 1000}, 256),
    "small": ({"features": 256, "hidden": 1024, "depth": 2, "classes": 100}, 128),
    "tiny": ({"features": 60, "hidden": 64, "depth": 2, "classes": 10}, 16),
}
BUILTINS = {"resnet50": _RESNET, "bert": _BERT, "gpt2": _GPT2, "mlp": _MLP}
# The canonical names the bot's records use for these shapes.
CANONICAL = {"resnet50": "ResNet-50", "bert": "BERT", "gpt2": "GPT-2", "mlp": "MLP"}


def default_batch(name: str, size: str) -> int:
    return BUILTINS[name][size][1]


def _fixed_batches(make: Callable[[], tuple[torch.Tensor, torch.Tensor]]) -> Callable[[], Any]:
    """Two batches made once and alternated: the step, not data making, is timed."""
    batches = cycle([make(), make()])
    return lambda: next(batches)


def build_builtin(
    name: str,
    size: str,
    batch: int,
    device: torch.device,
    overrides: dict[str, Any] | None = None,
) -> Workload:
    """Build a built-in shape with random data already on ``device``.

    ``overrides`` changes named builder arguments (``mpbot predict``'s bench
    uses it for a published run's sequence length or BERT-large's depth).
    """
    if name not in BUILTINS:
        raise ExperimentError(f"unknown model {name!r}; choose one of {', '.join(BUILTINS)}")
    cfg = {**BUILTINS[name][size][0], **(overrides or {})}
    if name == "resnet50":
        image, classes = cfg.pop("image"), cfg["classes"]
        model = _resnet(**cfg)
        make = lambda: (
            torch.randn(batch, 3, image, image, device=device),
            torch.randint(classes, (batch,), device=device),
        )
        return Workload(model, _fixed_batches(make), F.cross_entropy)
    if name == "mlp":
        model = _mlp(**cfg)
        make = lambda: (
            torch.randn(batch, cfg["features"], device=device),
            torch.randint(cfg["classes"], (batch,), device=device),
        )
        return Workload(model, _fixed_batches(make), F.cross_entropy)
    model = _Transformer(**cfg, causal=name == "gpt2")
    vocab, seq = cfg["vocab"], cfg["seq"]

    def make() -> tuple[torch.Tensor, torch.Tensor]:
        ids = torch.randint(vocab, (batch, seq), device=device)
        return ids, torch.randint(vocab, (batch, seq), device=device)

    def token_loss(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(logits.reshape(-1, vocab), targets.reshape(-1))

    return Workload(model, _fixed_batches(make), token_loss)


def load_factory(path: str) -> Callable[[int, torch.device], Workload]:
    """Resolve ``module:function`` to a builder of :class:`Workload` at a batch size."""
    module_name, sep, func_name = path.partition(":")
    if not sep or not module_name or not func_name:
        raise ExperimentError(f"--factory must look like module:function, got {path!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ExperimentError(f"cannot import {module_name!r} for --factory: {exc}") from None
    func = getattr(module, func_name, None)
    if not callable(func):
        raise ExperimentError(f"{module_name!r} has no function {func_name!r} for --factory")

    def build(batch: int, device: torch.device) -> Workload:
        result = func(batch, device)
        if not (
            isinstance(result, tuple)
            and len(result) == 3
            and isinstance(result[0], nn.Module)
            and callable(result[1])
            and callable(result[2])
        ):
            raise ExperimentError(
                f"{path} must return (model, batch_fn, loss_fn) with an nn.Module first"
            )
        return Workload(*result)

    return build


def odd_dimensions(model: nn.Module, batch: int) -> list[str]:
    """Layer sizes that are not multiples of 8, which keeps Tensor Cores idle.

    The 3 colour channels of an image input are left out: every CNN has them
    and cuDNN pads that first convolution itself.
    """
    found: list[str] = []
    if batch % 8:
        found.append(f"batch {batch}")
    for name, module in model.named_modules():
        if isinstance(module, nn.Linear):
            dims = {"in": module.in_features, "out": module.out_features}
        elif isinstance(module, nn.Conv2d):
            dims = {"in": module.in_channels, "out": module.out_channels}
            if dims["in"] == 3:
                del dims["in"]
        elif isinstance(module, nn.Embedding):
            dims = {"rows": module.num_embeddings, "dim": module.embedding_dim}
        else:
            continue
        odd = [f"{k}={v}" for k, v in dims.items() if v % 8]
        if odd:
            # Sequential children are named "0", "4": say which kind of layer they are.
            label = f"{type(module).__name__} {name}" if name.isdigit() else name
            found.append(f"{label or type(module).__name__} ({', '.join(odd)})")
    return found
