"""``--factory`` builders used by the experiment tests (importable by module name)."""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

OOM_ABOVE = 48


class _OutOfMemoryAbove(nn.Module):
    """A small classifier that fails like a full GPU once the batch passes a limit."""

    def __init__(self, error: type[Exception]) -> None:
        super().__init__()
        self.error = error
        self.layer = nn.Linear(16, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.shape[0] > OOM_ABOVE:
            raise self.error("CUDA out of memory. Tried to allocate 2.00 GiB")
        return self.layer(x)


def _classifier(model: nn.Module, batch: int, device: torch.device):
    inputs = torch.randn(batch, 16, device=device)
    targets = torch.randint(8, (batch,), device=device)
    return model, (lambda: (inputs, targets)), F.cross_entropy


def oom_runtime_error(batch: int, device: torch.device):
    return _classifier(_OutOfMemoryAbove(RuntimeError), batch, device)


def oom_cuda_error(batch: int, device: torch.device):
    return _classifier(_OutOfMemoryAbove(torch.cuda.OutOfMemoryError), batch, device)


def broken_model(batch: int, device: torch.device):
    """Fails for a reason that is not memory: the search must not hide it."""
    return _classifier(_OutOfMemoryAbove(ValueError), batch, device)


def not_a_triple(batch: int, device: torch.device):
    return nn.Linear(4, 4)


def slow_data(batch: int, device: torch.device):
    """A batch that takes far longer to make than the step: an input-bound run."""
    import time

    model, batch_fn, loss_fn = _classifier(nn.Linear(16, 8), batch, device)

    def slow_batch():
        time.sleep(0.01)
        return batch_fn()

    return model, slow_batch, loss_fn
