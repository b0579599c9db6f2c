"""The prediction's report: its schema, what limits the gain, and its renderings.

Pure (no torch): :mod:`bot.predict.cli` fills it from the roofline's per-kernel
times. The pydantic models are the documented ``--json`` schema
(``mpbot predict --schema``). Every figure here is predicted, never measured,
and the Slack line says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, Field

from bot.predict.ops import LABELS, TENSOR_CORE_CLASSES, OpClass
from bot.predict.roofline import OpTime

SCHEMA_VERSION = 1
TOP_CLASSES = 4
# A limiter is named when it takes at least this share of the mixed-precision step.
LIMITER_SHARE = 0.25


class ClassTime(BaseModel):
    """One operator class's share of a step in each precision."""

    op_class: OpClass
    label: str
    baseline_ms: float
    mixed_ms: float
    baseline_share: float = Field(description="fraction of the baseline step")
    mixed_share: float = Field(description="fraction of the mixed-precision step")
    speedup: float | None = Field(description="baseline_ms / mixed_ms; None if absent in one")
    memory_bound_share: float = Field(
        description="fraction of this class's mixed-precision time that is bandwidth-bound"
    )


class Prediction(BaseModel):
    """``mpbot predict --json``: a roofline prediction, calibrated on published runs."""

    schema_version: int = SCHEMA_VERSION
    kind: Literal["predicted"] = Field(
        "predicted", description="always 'predicted': no GPU ran this; records stay measurements"
    )
    model: str
    gpu: str = Field(description="the gpu_specs.csv row used")
    baseline: str = Field(
        description="pytorch (stock: matmuls strict FP32, convolutions TF32), fp32 or tf32"
    )
    precision: str = Field(description="fp16, bf16 or fp8")
    batch: int
    batch_amp: int
    ratio: float = Field(description="baseline time per sample / mixed-precision time per sample")
    ratio_low: float = Field(description="10th percentile of the range (80%, held-out errors)")
    ratio_high: float = Field(description="90th percentile of the range (80%, held-out errors)")
    basis: str = Field(
        "roofline",
        description="measured or modelled: the chat's ratio for the same setup (one ratio "
        "model); roofline: a GPU the chat does not know, the kernels' timing alone",
    )
    roofline_ratio: float | None = Field(
        None, description="the roofline's own ratio: the traced kernels timed on the GPU's peaks"
    )
    baseline_step_ms: float
    mixed_step_ms: float
    kernels_baseline: int
    kernels_mixed: int
    per_class: list[ClassTime]
    limit: str = Field(description="what limits the gain, in one sentence")
    unaligned_tensor_ops: int = Field(
        description="Tensor Core kernels whose dims are not multiples of 8 (slower)"
    )
    notes: list[str] = Field(default_factory=list)
    slack_line: str | None = Field(
        description="an ordinary question the bot reads, marked as predicted; "
        "None when mixed precision is predicted to be slower (the bot refuses ratios below 1)"
    )


def per_class(base: Sequence[OpTime], mixed: Sequence[OpTime]) -> list[ClassTime]:
    base_total = sum(t.seconds for t in base)
    mixed_total = sum(t.seconds for t in mixed)
    rows = []
    for kind in OpClass:
        b = sum(t.seconds for t in base if t.op.kind is kind)
        m = sum(t.seconds for t in mixed if t.op.kind is kind)
        if not b and not m:
            continue
        bound = sum(t.seconds for t in mixed if t.op.kind is kind and t.memory_bound)
        rows.append(
            ClassTime(
                op_class=kind,
                label=LABELS[kind],
                baseline_ms=b * 1e3,
                mixed_ms=m * 1e3,
                baseline_share=b / base_total,
                mixed_share=m / mixed_total,
                speedup=b / m if b and m else None,
                memory_bound_share=bound / m if m else 0.0,
            )
        )
    return sorted(rows, key=lambda r: -r.mixed_ms)


# What each limiter is called, and what would help; {p} is its share of the step.
LIMITS = {
    "memory": (
        "{p} of the mixed-precision step is memory-bound elementwise and normalisation work: "
        "fusing it (torch.compile){layout} would help more than Tensor Cores"
    ),
    "layout": (
        "{p} of the mixed-precision step is NCHW<->NHWC transposes around convolutions: "
        "model.to(memory_format=torch.channels_last) would remove them"
    ),
    "optimizer": (
        "{p} of the mixed-precision step is the optimizer, which stays FP32: "
        "AdamW(fused=True) or a larger batch would help"
    ),
    "launch": (
        "{p} of the mixed-precision step is kernel launch overhead: "
        "a larger batch or CUDA graphs would help"
    ),
    "thin": (
        "{p} of the mixed-precision step is matmuls and convolutions that wait on memory "
        "(small or thin layers): a larger batch or wider layers would help"
    ),
    "math": (
        "{p} of the mixed-precision step is Tensor Core math: the gain is set by the GPU's "
        "16-bit peak over its baseline peak{bound}"
    ),
    "no_tensor_cores": (
        "this GPU has no Tensor Cores: 16-bit matmuls run at the FP32 rate, "
        "so only memory traffic shrinks and casts add work"
    ),
}
_MEMORY_CLASSES = {OpClass.ELEMENTWISE, OpClass.NORMALIZATION, OpClass.REDUCTION}


def limit(
    mixed: Sequence[OpTime], launch_s: float, tensor_cores: bool, peak_ratio: float | None
) -> str:
    """The biggest thing the mixed-precision step spends its time on, and what would help."""
    if not tensor_cores:
        return LIMITS["no_tensor_cores"]
    total = sum(t.seconds for t in mixed)

    def share(kinds: set[OpClass], memory_bound: bool | None = None) -> float:
        picked = (
            t.seconds
            for t in mixed
            if t.op.kind in kinds and memory_bound in (None, t.memory_bound)
        )
        return sum(picked) / total

    shares = {
        "memory": share(_MEMORY_CLASSES),
        "layout": share({OpClass.LAYOUT}),
        "optimizer": share({OpClass.OPTIMIZER}),
        "launch": launch_s / total,
        "thin": share(set(TENSOR_CORE_CLASSES), memory_bound=True),
    }
    name = max(shares, key=shares.__getitem__)
    if shares[name] < LIMITER_SHARE:
        name = "math"
        shares[name] = share(set(TENSOR_CORE_CLASSES), memory_bound=False)
    return LIMITS[name].format(
        p=f"{shares[name]:.0%}",
        layout=" or channels-last" if share({OpClass.CONV}) else "",
        bound=f" (at most {peak_ratio:.1f}x on this GPU)" if peak_ratio else "",
    )


def slack_line(ratio: float, model: str, gpu: str, fp32_time: str | None) -> str | None:
    """A question the bot already reads (FP32 time, ratio, model, GPU), marked as predicted.

    The bot's records are measurements, so a prediction cannot be saved as the
    team's setup; this line asks for the estimate with the predicted ratio.
    """
    if round(ratio, 2) < 1:
        return None
    time = fp32_time or "<FP32 time>"
    return (
        f"/mpestimate {time} ratio {ratio:.2f} for {model} on {gpu} "
        "(predicted by mpbot predict, not measured)"
    )


def render_text(p: Prediction) -> str:
    # Stock PyTorch's baseline is neither plain FP32 nor TF32: its convolutions run TF32.
    base = "FP32/TF32" if p.baseline == "pytorch" else p.baseline.upper()
    mixed = p.precision.upper()
    batches = f"{p.batch}" + (f" / {p.batch_amp}" if p.batch_amp != p.batch else "")
    ratio = f"{p.ratio:.2f}x (range {p.ratio_low:.2f}-{p.ratio_high:.2f})"
    steps = f"{p.baseline_step_ms:.1f} ms {base} -> {p.mixed_step_ms:.1f} ms {mixed}"
    lines = [
        f"mpbot predict: {p.model} on {p.gpu}, {base} vs {mixed} (batch {batches})",
        f"Predicted ratio: {ratio}; predicted, not measured.",
        f"Step: {steps} ({p.kernels_baseline} / {p.kernels_mixed} kernels)",
        "",
        f"{'class':24} {p.baseline.upper():>14} {p.precision.upper():>14} {'speedup':>8}",
    ]
    for row in p.per_class[:TOP_CLASSES]:
        speedup = f"{row.speedup:.2f}x" if row.speedup else "-"
        lines.append(
            f"{row.label:24} {row.baseline_ms:8.1f} ms {row.baseline_share:3.0%} "
            f"{row.mixed_ms:8.1f} ms {row.mixed_share:3.0%} {speedup:>8}"
        )
    lines += ["", f"What limits the gain: {p.limit}."]
    lines += [f"Note: {n}" for n in p.notes]
    if p.slack_line:
        lines += ["", "Paste into Slack (the bot reads it as a question, not a record):"]
        lines.append(p.slack_line)
    else:
        lines += ["", "Mixed precision is predicted to be slower here: keep FP32, or measure it."]
    return "\n".join(lines)
