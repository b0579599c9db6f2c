"""Words for a precision answer: BF16 or FP16 on the GPU named, and loss scaling.

Visible: the verdict for the GPU (or by GPU generation when none was named) and
one line on loss scaling. Behind Details: range and mantissa bits, the Tensor
Core rates, how GradScaler works, sources.
"""

from __future__ import annotations

from bot.advice.precision import PrecisionPoint, PrecisionTopic
from bot.models import Advice
from bot.rendering.i18n import Phrases


def precision_parts(w: Phrases, a: Advice) -> tuple[str, list[str], list[str]]:
    """Summary, the one notes line, and the detail lines."""
    points = [PrecisionPoint(p) for p in a.notes]
    said = [_point(w, p, a) for p in points]
    if a.facts.get("topic") == PrecisionTopic.LOSS_SCALING.value:
        # The question was about scaling: lead with it, the GPU's verdict after.
        return f"{said[1]} {said[2]}", [said[0]], said[3:]
    return said[0], [_point(w, PrecisionPoint.BF16_NO_SCALING, a)], said[1:]


def _gpu(w: Phrases, a: Advice) -> str:
    return w.echo(a.gpu or w._("GPU"))


def _point(w: Phrases, p: PrecisionPoint, a: Advice) -> str:
    _ = w._
    gpu = {"gpu": _gpu(w, a), "arch": w.echo(str(a.facts.get("architecture") or ""))}
    if p is PrecisionPoint.PREFER_BF16:
        return (
            _(
                "On %(gpu)s prefer BF16: it runs as fast as FP16 there, needs no loss scaling and "
                "does not overflow, at the cost of coarser rounding that FP32 master weights absorb."
            )
            % gpu
        )
    if p is PrecisionPoint.USE_FP16:
        return (
            _(
                "%(gpu)s (%(arch)s) has no BF16 Tensor Cores: use FP16 with loss scaling "
                "(GradScaler); BF16 would run far slower there."
            )
            % gpu
        )
    if p is PrecisionPoint.NO_TENSOR_CORES:
        return (
            _(
                "%(gpu)s (%(arch)s) has no Tensor Cores and no BF16 support: neither format gets "
                "Tensor Core speed; FP16 with GradScaler mainly saves memory."
            )
            % gpu
        )
    if p is PrecisionPoint.BY_GENERATION:
        return _(
            "On Ampere and newer (A100, RTX 30xx/40xx, L4, H100) prefer BF16: same speed as "
            "FP16, no loss scaling, no overflow. Volta and Turing (V100, T4, RTX 20xx) have no "
            "BF16 Tensor Cores: use FP16 with GradScaler there."
        )
    return _facts(w, p, a)


def _facts(w: Phrases, p: PrecisionPoint, a: Advice) -> str:
    _ = w._
    if p is PrecisionPoint.BF16_NO_SCALING:
        return _(
            "BF16 does not need loss scaling: it has FP32's exponent range, so small gradients "
            "do not underflow."
        )
    if p is PrecisionPoint.FP16_NEEDS_SCALING:
        return _(
            "FP16 needs loss scaling: gradients below about 6e-5 (6e-8 as subnormals) flush to zero "
            'without it, so use `torch.amp.GradScaler("cuda")` with FP16 autocast.'
        )
    if p is PrecisionPoint.FP8_NEEDS_SCALING:
        return _(
            "FP8 needs its own per-tensor scaling (Transformer Engine's recipes), beyond "
            "loss scaling."
        )
    if p is PrecisionPoint.RANGE:
        return _(
            "Range: BF16 has 8 exponent bits like FP32 (up to about 3.4e38); FP16 has 5 "
            "(at most 65504, smallest normal about 6.1e-5)."
        )
    if p is PrecisionPoint.MANTISSA:
        return _(
            "Precision: BF16 keeps 7 mantissa bits, FP16 10, so BF16 rounds more coarsely; "
            "with autocast the weights and the optimizer stay in FP32, which absorbs it. Pure "
            "BF16 without an FP32 master copy can lose small updates."
        )
    if p is PrecisionPoint.SAME_SPEED:
        return _(
            "Speed: %(gpu)s runs BF16 and FP16 at the same Tensor Core rate (%(rate)s "
            "dense TFLOPS each)."
        ) % {"gpu": _gpu(w, a), "rate": w.fmt.number(float(a.facts.get("bf16_tflops") or 0))}
    return _(
        "GradScaler starts the scale at 65,536, doubles it after 2,000 steps without "
        "inf/NaN, and halves it (skipping that step) when one appears; a few skipped steps "
        "at the start are normal."
    )
