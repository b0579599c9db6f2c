"""Memory: bytes per parameter by method, recipe and optimizer (named data), what fits,
what to try. Verdicts worked out by hand in the comments."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.advice.memory import (
    MemoryNote,
    Method,
    Optimizer,
    Recipe,
    Sharding,
    Suggestion,
    bytes_per_param,
    estimate_memory,
    parse_optimizer,
)


@pytest.mark.parametrize(
    ("recipe", "optimizer", "parts", "total"),
    [
        (Recipe.FP32, Optimizer.ADAM, (4, 4, 0, 8, 0), 16),
        (Recipe.AMP, Optimizer.ADAM, (4, 4, 0, 8, 2), 18),  # FP32 states + 16-bit weight copy
        (Recipe.MASTER, Optimizer.ADAM, (2, 2, 4, 8, 0), 16),  # ZeRO section 3.1
        (Recipe.BF16, Optimizer.ADAM, (2, 2, 0, 4, 0), 8),
        (Recipe.AMP, Optimizer.ADAM_8BIT, (4, 4, 0, 2, 2), 12),  # 8-bit Adam: 2 bytes of states
        (Recipe.MASTER, Optimizer.ADAM_8BIT, (2, 2, 4, 2, 0), 10),
        (Recipe.FP32, Optimizer.SGD_MOMENTUM, (4, 4, 0, 4, 0), 12),
        (Recipe.MASTER, Optimizer.SGD_MOMENTUM, (2, 2, 4, 4, 0), 12),
        (Recipe.BF16, Optimizer.SGD_MOMENTUM, (2, 2, 0, 2, 0), 6),
        (Recipe.FP32, Optimizer.SGD, (4, 4, 0, 0, 0), 8),
        (Recipe.BF16, Optimizer.SGD, (2, 2, 0, 0, 0), 4),
    ],
)
def test_bytes_per_trained_parameter(recipe, optimizer, parts, total):
    b = bytes_per_param(recipe, optimizer)
    assert (b.weights, b.gradients, b.master_weights, b.optimizer_states, b.weight_cache) == parts
    assert b.total == total


def test_gpt2_xl_needs_24_gb_as_in_zero_and_27_with_torch_amp():
    assert estimate_memory(1.5e9, recipe="master").asked.model_states_gb == pytest.approx(24)
    e = estimate_memory(1.5e9)  # torch.amp is the default recipe
    assert e.asked.model_states_gb == pytest.approx(27)
    assert e.notes[0] is MemoryNote.AMP_WEIGHT_COPY
    assert MemoryNote.ACTIVATIONS_HALVE in e.notes
    assert MemoryNote.ACTIVATIONS_NOT_INCLUDED in e.notes
    assert e.gpu_memory_gb is None and e.suggestions == [] and e.fits is None


def test_7b_adam_on_a100_does_not_fit_and_says_what_to_try():
    e = estimate_memory(7e9, "AdamW", gpu="A100")
    assert e.optimizer is Optimizer.ADAM and e.gpu_memory_gb == 80
    assert e.asked.model_states_gb == pytest.approx(126)  # 7e9 x 18
    assert e.fits is False and e.gpus_needed == 2  # 126 over 63 usable (80 x 0.8 - 1)
    assert e.suggestions[:2] == [Suggestion.ZERO_FSDP, Suggestion.LIGHTER_METHOD]
    # 8-bit Adam: 84 GB, still no; LoRA: 14 GB + adapters, yes.
    assert e.lighter.setup.method is Method.LORA


def test_sharding_across_the_named_gpus():
    e = estimate_memory(7e9, "adam", gpu="A100", num_gpus=8)
    assert e.sharding is Sharding.ZERO3 and MemoryNote.SHARDING_ASSUMED in e.notes
    assert MemoryNote.CAST_PER_UNIT in e.notes  # no whole-model 16-bit copy when sharded
    # Under ZeRO-3/FSDP the 16-bit weights are cast one unit at a time: 16 B/param, not 18.
    assert e.asked.per_gpu_gb == pytest.approx(112 / 8) and e.fits is True


def test_ddp_replicates_and_zero_stages_shard_their_parts():
    # 7B torch.amp: weights 28 + grads 28 + Adam 56 + copy 14 GB.
    ddp = estimate_memory(7e9, gpu="A100", num_gpus=4, sharding="ddp")
    zero1 = estimate_memory(7e9, gpu="A100", num_gpus=4, sharding="zero1")
    zero2 = estimate_memory(7e9, gpu="A100", num_gpus=4, sharding="zero2")
    assert ddp.asked.per_gpu_gb == pytest.approx(126) and ddp.fits is False
    assert zero1.asked.per_gpu_gb == pytest.approx(28 + 28 + 14 + 56 / 4)
    assert zero2.asked.per_gpu_gb == pytest.approx(28 + 14 + (28 + 56) / 4)
    assert MemoryNote.SHARDING_ASSUMED not in ddp.notes


def test_memory_override_for_the_smaller_variant():
    # A full shard holds 16 B/param (no whole 16-bit copy): 112 GB over 40 x 0.8 - 1 = 31 GB.
    assert estimate_memory(7e9, gpu="A100", memory_gb=40).gpus_needed == 4


def test_lora_and_qlora_hold_a_frozen_base_and_small_adapters():
    lora = estimate_memory(7e9, gpu="H100", method="lora")
    assert lora.asked.frozen_bytes_per_param == 2
    assert lora.asked.trainable_params == pytest.approx(0.004 * 7e9)
    # 13.94 GB base + 28M x 18 bytes = 14.45 GB; 80 x 0.9 - 1 = 71 usable.
    assert lora.asked.model_states_gb == pytest.approx(13.944 + 0.504)
    assert lora.fits is True
    qlora = estimate_memory(13e9, gpu="RTX 4090", memory_gb=24, method="qlora")
    # 13e9 x 0.996 x 0.516 = 6.68 GB + 52M x 18 = 0.94 GB: 7.6 of 20.6 usable.
    assert qlora.asked.model_states_gb == pytest.approx(6.68 + 0.936, abs=0.01)
    assert qlora.fits is True and MemoryNote.ADAPTER_SHARE in qlora.notes


def test_inference_holds_weights_and_kv_cache_only():
    e = estimate_memory(7e9, gpu="RTX 4090", method="inference", weight_precision="fp16")
    parts = e.asked.parts_gb
    assert parts["gradients"] == parts["optimizer_states"] == 0
    assert parts["frozen_weights"] == pytest.approx(14)
    kv = e.asked.kv_cache  # typical decoder: 33 layers x 4224 wide, 4096 tokens, 2 bytes
    assert kv.layers == 33 and kv.width == 4224 and not kv.shape_known
    assert kv.gb == pytest.approx(2 * 33 * 4224 * 4096 * 2 / 1e9)
    assert e.fits is True and MemoryNote.KV_SHAPE_ASSUMED in e.notes


def test_a_large_decoder_without_a_catalog_shape_is_taken_with_grouped_query_attention():
    # 70B: 71 layers; from 30B up 8 KV heads of 128 -> 2 x 71 x 1024 x 4096 x 2 bytes.
    e = estimate_memory(70e9, gpu="A100", method="inference", weight_precision="int8")
    assert e.asked.kv_cache.width == 1024 and e.asked.kv_cache.layers == 71
    assert e.fits is True  # 70 GB of INT8 weights + 1.2 GB of KV cache on 80 GB


def test_a_catalog_model_gives_the_kv_cache_its_real_shape():
    # Llama-2 70B: GQA, 8 KV heads of 128 -> 2 x 80 x 1024 x 4096 x 2 bytes = 1.34 GB.
    e = estimate_memory(
        70e9,
        gpu="A100",
        num_gpus=2,
        method="inference",
        weight_precision="fp16",
        model="llama270b",
    )
    assert e.asked.kv_cache.gb == pytest.approx(1.342, abs=0.01)
    assert e.asked.per_gpu_gb == pytest.approx((140 + 1.342) / 2, abs=0.01)
    assert e.fits is True and e.model == "Llama-2-70B"
    encoder = estimate_memory(340e6, gpu="T4", method="inference", model="bertlarge")
    assert encoder.asked.kv_cache is None  # an encoder caches nothing


def test_multi_query_models_cache_one_kv_head():
    # Gemma-2B: one KV head of 256 -> 2 x 18 x 256 x 4096 x 2 bytes = 0.075 GB, where
    # the typical full-width shape of a 2.5B decoder would cache about 1.6 GB.
    e = estimate_memory(2.51e9, gpu="T4", method="inference", model="gemma2b")
    assert e.asked.kv_cache.shape_known and e.asked.kv_cache.gb == pytest.approx(0.075, abs=0.001)
    # Falcon-40B: 8 KV heads of 64, 2048 tokens -> 2 x 60 x 512 x 2048 x 2 = 0.25 GB.
    falcon = estimate_memory(40e9, gpu="A100", method="inference", model="falcon40b")
    assert falcon.asked.kv_cache.gb == pytest.approx(0.252, abs=0.001)


def test_phi_2_full_fine_tune_needs_more_than_a_24_gb_card_lora_fits_a_t4():
    # 2.7B x 18 bytes (torch.amp, Adam) = 48.6 GB > 24 x 0.8 - 1; LoRA: 2.7B x 2 = 5.4 GB.
    assert estimate_memory(2.7e9, gpu="RTX 4090", model="phi2").fits is False
    assert estimate_memory(2.7e9, gpu="T4", method="lora", model="phi2").fits is True


def test_cpu_offload_moves_the_offloaded_parts_off_the_gpu():
    # 13B, FP32 master copy: 2 + 2 + 4 + 8 = 16 bytes = 208 GB. ZeRO-Offload keeps only
    # the 16-bit weights (26 GB) on a 24 GB card: no fit; ZeRO-3 offload keeps the live
    # parameters, 1e9 x 2 bytes = 2 GB: fits, with 208 GB in CPU memory.
    stage2 = estimate_memory(13e9, gpu="RTX 3090", recipe="master", sharding="zero2_offload")
    assert stage2.asked.per_gpu_gb == pytest.approx(26.0) and stage2.fits is False
    assert stage2.asked.offloaded_gb == pytest.approx(182.0)
    stage3 = estimate_memory(13e9, gpu="RTX 3090", recipe="master", sharding="zero3_offload")
    assert stage3.asked.per_gpu_gb == pytest.approx(2.0) and stage3.fits is True
    assert stage3.asked.offloaded_gb == pytest.approx(208.0)
    assert MemoryNote.CPU_OFFLOAD in stage3.notes
    assert MemoryNote.CPU_OFFLOAD not in estimate_memory(13e9, gpu="RTX 3090").notes


def test_inference_that_does_not_fit_suggests_quantised_weights():
    e = estimate_memory(13e9, gpu="RTX 4090", method="inference", weight_precision="fp16")
    assert e.fits is False  # 26 GB of weights on a 24 GB card
    assert e.lighter.setup.weight_precision == "int8"


def test_small_model_fits_with_room_for_activations():
    e = estimate_memory(340e6, "sgd_momentum", gpu="V100", recipe="fp32")
    assert e.fits and e.asked.headroom_gb == pytest.approx(32 - 1 - 340e6 * 12 / 1e9)
    assert e.suggestions == []


def test_tight_headroom_suggests_activation_savers_only():
    e = estimate_memory(3e9, "adam", gpu="A100")  # 54 of 63 usable GB: fits, little room
    assert e.fits
    assert e.suggestions == [Suggestion.ACTIVATION_CHECKPOINTING, Suggestion.SMALLER_BATCH]


def test_optimizer_names():
    assert parse_optimizer(None) is Optimizer.ADAM
    assert parse_optimizer(" momentum ") is Optimizer.SGD_MOMENTUM
    for eight_bit in ("8-bit adam", "adamw 8-bit", "adamw8bit", "paged-adamw-8bit"):
        assert parse_optimizer(eight_bit) is Optimizer.ADAM_8BIT
    assert parse_optimizer("paged adamw") is Optimizer.ADAM
    with pytest.raises(ValueError):
        parse_optimizer("lion")


@pytest.mark.parametrize("params", [0, -1, math.nan, math.inf])
def test_bad_parameter_counts_are_refused(params):
    with pytest.raises(ValueError):
        estimate_memory(params)


@given(st.floats(1e3, 1e13), st.sampled_from(list(Optimizer)), st.integers(1, 64))
def test_sums_hold_for_any_size(params, optimizer, gpus):
    e = estimate_memory(params, optimizer, gpu="H100", num_gpus=gpus)
    by = {(o.setup.method, o.setup.recipe): o for o in e.options}
    fp32 = by[(Method.FULL, Recipe.FP32)].model_states_gb
    assert by[(Method.FULL, Recipe.MASTER)].model_states_gb == pytest.approx(fp32)
    assert by[(Method.FULL, Recipe.AMP)].model_states_gb >= fp32  # the 16-bit weight copy
    assert by[(Method.LORA, Recipe.AMP)].model_states_gb < fp32
    assert e.fits == (e.asked.per_gpu_gb <= e.usable_gb)
    if e.gpus_needed is not None:  # a full shard on that many GPUs fits
        parts = e.asked.parts_gb
        sharded = e.asked.model_states_gb - (parts["weight_cache"] if e.gpus_needed > 1 else 0)
        assert sharded / e.gpus_needed <= e.usable_gb + 1e-9
