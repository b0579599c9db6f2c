"""The packaged data maps onto the bot's canonical GPU and model names."""

import pytest

from bot.advice import catalog
from bot.models import GPU_NAMES, MODEL_NAMES


@pytest.mark.parametrize(
    ("published", "canonical"),
    [
        ("A100 80GB", "A100"),
        ("A100 40GB SXM4", "A100"),
        ("V100 16GB", "V100"),
        ("Tesla V100 SXM2 32GB", "V100"),
        ("A10", "A10"),
        ("L4", "L4"),
        ("L40S", "L40S"),
        ("GeForce RTX 2080 Ti", "RTX 2080 Ti"),
        ("H200 SXM 141GB", "H200"),
        ("AMD Instinct MI300X", "MI300X"),
        ("Google TPU v4 (per chip)", None),
        ("Volta/Turing/Ampere", None),
    ],
)
def test_published_gpu_names_map_to_canonical(published, canonical):
    assert catalog.canonical_gpu(published) == canonical


def test_a10_is_not_a100():
    assert catalog.gpu_spec("A10").published_name == "A10"
    assert catalog.gpu_memory_gb("A10") == 24
    assert not any(m.gpu == "A10" for m in catalog.measurements())


@pytest.mark.parametrize(
    ("published", "canonical"),
    [
        ("BERT-large", "BERT"),
        ("BioBERT (BERT-base)", "BERT"),
        ("ResNet-50 v1.5", "ResNet-50"),
        ("SSD300 v1.1 (ResNet-50 backbone)", "SSD"),
        ("SSD320 v1.2 (ResNet-50 FPN)", "SSD"),
        ("Mask R-CNN (ResNet-50 FPN)", "Mask R-CNN"),
        ("3D U-Net", "UNet"),
        ("U-Net (industrial)", "UNet"),
        ("V-Net", "V-Net"),
        ("Tacotron 2", "Tacotron2"),
        ("Transformer (NVIDIA fairseq-based)", "Transformer"),
        ("efficientnet-widese-b0", "EfficientNet"),
        ("GPUNet-0", None),
        ("ResNet-101 (torchvision)", None),
    ],
)
def test_published_model_names_map_to_canonical(published, canonical):
    assert catalog.canonical_model(published) == canonical


def test_every_canonical_gpu_has_a_spec_row():
    for name in GPU_NAMES:
        assert catalog.gpu_spec(name) is not None, name


def test_every_canonical_model_has_a_family():
    assert set(catalog.MODEL_FAMILY) == set(MODEL_NAMES)
    assert set(catalog.MODEL_FAMILY.values()) <= set(catalog.FAMILIES)
    assert set(catalog.FAMILY_GROUP) == set(catalog.FAMILIES)


def test_measurements_are_measured_tables_with_sources():
    rows = catalog.measurements()
    assert len(rows) > 300
    assert {m.row_type for m in rows} == {"measured_table"}
    assert all(m.source_url.startswith("https://") for m in rows)
    assert {m.gpu for m in rows} == {"V100", "A100"}
    assert {m.baseline for m in rows} == {"fp32", "tf32"}
    # Quotes and issue reports stay out of the fitting set.
    assert {m.row_type for m in catalog.other_rows()} >= {"vendor_claim", "measured_issue"}


def test_measurement_families_are_known_codes():
    assert {m.family for m in catalog.measurements()} <= set(catalog.FAMILIES)


def test_larger_amp_batch_is_read_from_the_rows():
    resnet_v100 = [m for m in catalog.measurements() if m.model == "ResNet-50" and m.gpu == "V100"]
    assert any(m.larger_amp_batch for m in resnet_v100)
    assert not catalog.measurements()[0].larger_amp_batch  # FastSpeech: 32 and 32


def test_tf32_rate_fills_empty_ampere_cells_but_not_older_gpus():
    assert catalog.gpu_spec("A100").tf32_rate == 156
    rtx3090 = catalog.gpu_spec("RTX 3090")
    assert rtx3090.tf32_rate == 35.6  # GA102 whitepaper, Appendix A
    # An Ampere+ row without a published TF32 cell falls back to FP16 Tensor / 2.
    assert rtx3090.model_copy(update={"tf32_tflops": None}).tf32_rate == pytest.approx(71 / 2)
    assert catalog.gpu_spec("V100").tf32_rate is None
    assert not catalog.gpu_spec("P100").tensor_cores
    assert catalog.gpu_spec("T4").tensor_cores and not catalog.gpu_spec("T4").has_tf32


def test_bf16_rate_fills_empty_ampere_cells_but_not_older_gpus():
    a10 = catalog.gpu_spec("A10")
    assert a10.bf16_rate == 125
    assert a10.model_copy(update={"bf16_tensor_tflops": None}).bf16_rate == 125
    assert catalog.gpu_spec("H100").bf16_rate == 989.4
    assert catalog.gpu_spec("V100").bf16_rate is None
    assert catalog.gpu_spec("T4").bf16_rate is None


def test_memory_is_the_largest_variant():
    assert catalog.gpu_memory_gb("A100") == 80
    assert catalog.gpu_memory_gb("V100") == 32
