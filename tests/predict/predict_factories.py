"""``--factory`` builders used by the predict tests (importable by module name)."""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F


def small_cnn(batch: int, device: torch.device):
    """A user's own model: two convolutions, batch norm, a classifier."""
    model = nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1),
        nn.BatchNorm2d(16),
        nn.ReLU(),
        nn.Conv2d(16, 32, 3, padding=1),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(32, 8),
    ).to(device)
    images = torch.randn(batch, 3, 16, 16, device=device)
    labels = torch.randint(8, (batch,), device=device)
    return model, (lambda: (images, labels)), F.cross_entropy


def channels_last_cnn(batch: int, device: torch.device):
    """The same model and data in NHWC: no layout transposes around its convolutions."""
    model, batch_fn, loss_fn = small_cnn(batch, device)
    images, labels = batch_fn()
    images = images.to(memory_format=torch.channels_last)
    return model.to(memory_format=torch.channels_last), (lambda: (images, labels)), loss_fn


def odd_mlp(batch: int, device: torch.device):
    """Linear layers of 12 -> 10 -> 16 features: the first two are not multiples of 8."""
    model = nn.Sequential(nn.Linear(12, 10), nn.ReLU(), nn.LayerNorm(10), nn.Linear(10, 16))
    model = model.to(device)
    inputs = torch.randn(batch, 12, device=device)
    targets = torch.randint(16, (batch,), device=device)
    return model, (lambda: (inputs, targets)), F.cross_entropy


def wide_mlp(batch: int, device: torch.device):
    """Matmul-dominated: where Tensor Cores decide the ratio."""
    model = nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(), nn.Linear(4096, 1024)).to(device)
    inputs = torch.randn(batch, 1024, device=device)
    targets = torch.randint(1024, (batch,), device=device)
    return model, (lambda: (inputs, targets)), F.cross_entropy
