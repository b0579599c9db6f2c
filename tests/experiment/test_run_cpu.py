"""``mpbot experiment`` end to end on CPU with tiny models (a few steps each).

Skipped without PyTorch (the optional ``experiment`` extra); CI installs the
CPU build so these run there.
"""

from __future__ import annotations

import json

import pytest

torch = pytest.importorskip(
    "torch",
    reason="PyTorch is the optional 'experiment' extra: pip install \"mpestimate[experiment]\"",
)

from bot.cli.main import main
from bot.experiment.maxbatch import find_max_batch
from bot.experiment.models import ExperimentError, load_factory, odd_dimensions
from bot.experiment.report import Report, WarningCode
from bot.experiment.timing import precision_problem

QUICK = ["--steps", "2", "--warmup", "1", "--repeats", "2"]
CPU = torch.device("cpu")


@pytest.fixture(autouse=True)
def one_thread():
    """Two threads fighting other test processes for two cores make steps 10x slower."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _json_run(capsys, *args: str) -> Report:
    assert main(["experiment", *QUICK, "--json", *args]) == 0
    return Report.model_validate(json.loads(capsys.readouterr().out))


def test_json_report_structure_and_arithmetic(capsys):
    report = _json_run(capsys, "--model", "mlp", "--fp32-time", "100h")
    assert report.schema_version == 1
    assert (report.model, report.size, report.environment.device) == ("MLP", "tiny", "cpu")
    assert (report.baseline.precision, report.mixed.precision) == ("fp32", "bf16")
    assert report.baseline.batch == report.mixed.batch == 16
    assert len(report.baseline.time.per_repeat_s) == 2
    assert len(report.baseline.losses) == len(report.mixed.losses) == 1 + 2 * 2
    assert report.ratio.ratio == pytest.approx(
        report.baseline.time.median_s / report.mixed.time.median_s
    )
    assert report.ratio.low <= report.ratio.ratio <= report.ratio.high
    assert report.projection.mixed_hours == pytest.approx(100 / report.ratio.ratio)
    assert report.loss.steps == 5 and report.loss.median_rel_diff < 0.05
    assert report.baseline.peak_memory_bytes > 0
    assert report.baseline.scaler_final_scale is None  # no GradScaler for bf16
    codes = {note.code for note in report.warnings}
    assert {WarningCode.CPU_NOT_GPU, WarningCode.DIMS_NOT_MULTIPLE_OF_8} <= codes
    # A CPU run is no measurement the bot's record command should store: no paste line.
    assert report.record_line is None and "measured on CPU" in report.record_refused


def test_fp16_uses_a_grad_scaler_and_reports_it(capsys):
    report = _json_run(capsys, "--model", "gpt2", "--precision", "fp16")
    assert report.mixed.scaler_final_scale is not None and report.mixed.scaler_final_scale > 0
    assert 0 <= report.mixed.scaler_skipped_steps <= 5
    assert report.baseline.scaler_skipped_steps is None


def test_text_report_has_the_table_ratio_and_says_a_cpu_run_is_not_recorded(capsys):
    assert main(["experiment", *QUICK, "--model", "resnet50", "--fp32-time", "2d"]) == 0
    out = capsys.readouterr().out
    for expected in (
        "ResNet-50 (tiny)",
        "step time (median)",
        "fp32 (baseline)",
        "bf16 (mixed)",
        "ratio: ",
        "projected: 48 h in fp32",
        "loss agreement",
        "CPU ratios do not predict GPU ratios",
        "not a valid measurement to record: measured on CPU",
    ):
        assert expected in out
    assert "/mpestimate record" not in out


def test_unknown_model_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["experiment", "--model", "alexnet"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'alexnet'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("factory", "message"),
    [
        ("no_colon", "must look like module:function"),
        ("no_such_module_anywhere:build", "cannot import 'no_such_module_anywhere'"),
        ("experiment_factories:missing", "has no function 'missing'"),
        ("experiment_factories:not_a_triple", "must return (model, batch_fn, loss_fn)"),
    ],
)
def test_bad_factory_is_a_clear_error(capsys, factory, message):
    assert main(["experiment", *QUICK, "--factory", factory]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_tf32_baseline_needs_a_gpu(capsys):
    assert (
        main(["experiment", *QUICK, "--model", "mlp", "--device", "cpu", "--baseline", "tf32"]) == 1
    )
    assert "--baseline tf32 needs an NVIDIA Ampere or newer GPU" in capsys.readouterr().err


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without CUDA")
def test_cuda_requested_without_a_gpu(capsys):
    assert main(["experiment", *QUICK, "--model", "mlp", "--device", "cuda"]) == 1
    assert "no CUDA GPU is visible" in capsys.readouterr().err


def test_precision_not_supported_on_the_device():
    problem = precision_problem("cuda", "bf16", (7, 0), bf16_supported=False)
    assert "bf16 needs an NVIDIA Ampere or newer GPU" in problem and "7.0" in problem
    assert "--precision fp16" in problem
    assert precision_problem("cuda", "bf16", (8, 0), bf16_supported=True) is None
    assert precision_problem("cuda", "fp16", (7, 0), bf16_supported=False) is None
    assert precision_problem("cpu", "bf16", None, bf16_supported=False) is None


@pytest.mark.parametrize("factory", ["oom_runtime_error", "oom_cuda_error"])
@pytest.mark.parametrize("precision", ["fp32", "bf16"])
def test_max_batch_search_stops_at_out_of_memory(factory, precision):
    build = load_factory(f"experiment_factories:{factory}")
    found = find_max_batch(lambda b: build(b, CPU), 8, precision, CPU)
    assert (found.batch, found.capped) == (48, False)


def test_max_batch_search_on_cpu_is_capped():
    build = load_factory("experiment_factories:oom_runtime_error")
    found = find_max_batch(lambda b: build(b, CPU), 4, "fp32", CPU)
    assert (found.batch, found.capped) == (32, True)


def test_max_batch_search_does_not_hide_other_errors():
    build = load_factory("experiment_factories:broken_model")
    with pytest.raises(ValueError):
        find_max_batch(lambda b: build(b, CPU), 8, "fp32", CPU)


def test_max_batch_search_from_a_batch_that_does_not_fit():
    build = load_factory("experiment_factories:oom_runtime_error")
    with pytest.raises(ExperimentError, match="batch 64 already runs out of memory"):
        find_max_batch(lambda b: build(b, CPU), 64, "fp32", CPU)


def test_find_max_batch_reports_the_ratio_there(capsys):
    report = _json_run(
        capsys,
        "--factory",
        "experiment_factories:oom_cuda_error",
        "--batch",
        "8",
        "--find-max-batch",
    )
    found = report.max_batch
    assert (found.baseline_batch, found.mixed_batch, found.capped) == (48, 48, False)
    assert found.baseline.batch == 48 and found.ratio.ratio > 0
    assert report.model == "experiment_factories:oom_cuda_error" and report.size is None


def test_out_of_memory_in_the_main_run_is_a_clear_error(capsys):
    assert (
        main(
            [
                "experiment",
                *QUICK,
                "--factory",
                "experiment_factories:oom_runtime_error",
                "--batch",
                "64",
            ]
        )
        == 1
    )
    assert "out of memory at batch 64 in fp32" in capsys.readouterr().err


def test_post_never_claims_success_it_did_not_have(capsys, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgresql://user:secret@db/mpestimate")
    assert main(["experiment", *QUICK, "--model", "mlp", "--post", "--team", "T1"]) == 1
    captured = capsys.readouterr()
    assert "/mpestimate record" not in captured.out  # a CPU run has no line to paste or post
    assert "not saved: measured on CPU" in captured.err and "secret" not in captured.err

    from bot.experiment.post import post

    report = _gpu_report(capsys)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    saved, message = post(report, "T1", "U1")
    assert not saved and "not saved: --post needs DATABASE_URL" in message
    monkeypatch.setenv("DATABASE_URL", "postgresql://user:secret@db/mpestimate")
    saved, message = post(report, None, "U1")
    assert not saved and "not saved: --post needs --team" in message


def _gpu_report(capsys):
    """A CPU run's report dressed as an A100 run (2.1x), as a GPU run would report it."""
    from bot.experiment.report import record_line, time_stats

    report = _json_run(capsys, "--model", "mlp")
    env = report.environment.model_copy(update={"device": "cuda", "device_name": "NVIDIA A100"})
    base = report.baseline.model_copy(update={"time": time_stats([0.042])})
    mixed = report.mixed.model_copy(update={"time": time_stats([0.020])})
    return report.model_copy(
        update={
            "environment": env,
            "baseline": base,
            "mixed": mixed,
            "record_line": record_line("BERT", env, mixed, base, 8),
            "record_refused": None,
        }
    )


@pytest.mark.parametrize("source", ["environment", ".env"])
def test_post_saves_a_gpu_result_through_the_bots_store(capsys, monkeypatch, tmp_path, source):
    from bot.experiment.post import post
    from bot.store import connect
    from bot.store.records import list_records

    gpu_report = _gpu_report(capsys)
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    if source == "environment":
        monkeypatch.setenv("DATABASE_URL", url)
    else:  # the bot's settings read .env too, and so does --post
        monkeypatch.delenv("DATABASE_URL", raising=False)
        monkeypatch.chdir(tmp_path)
        (tmp_path / ".env").write_text(f"DATABASE_URL={url}\n")
    saved, message = post(gpu_report, "T1", "U42")
    assert saved, message
    assert "tmp" not in message  # the URL is never echoed
    (stored,) = list_records(connect(url).engine, "T1").records
    assert (stored.gpu, stored.model, stored.num_gpus, stored.user_id) == ("A100", "BERT", 8, "U42")
    assert stored.ratio == pytest.approx(2.1)


def test_odd_dimensions_lists_what_keeps_tensor_cores_idle():
    model = torch.nn.Sequential(
        torch.nn.Conv2d(3, 64, 3),
        torch.nn.Conv2d(64, 30, 3),
        torch.nn.Flatten(),
        torch.nn.Linear(64, 10),
    )
    assert odd_dimensions(model, 12) == ["batch 12", "Conv2d 1 (out=30)", "Linear 3 (out=10)"]
    assert odd_dimensions(torch.nn.Linear(64, 64), 32) == []


def test_input_bound_run_is_flagged(capsys):
    report = _json_run(capsys, "--factory", "experiment_factories:slow_data", "--batch", "8")
    assert report.baseline.data_fraction > 0.5
    assert WarningCode.INPUT_BOUND in {note.code for note in report.warnings}


def test_progress_bar_draws_only_on_a_terminal():
    import io

    from bot.experiment.progress import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    shown, hidden = Terminal(), io.StringIO()
    for stream in (shown, hidden):
        bar = Progress(4, stream=stream, width=4)
        bar.phase("fp32")
        bar.tick()
        bar.tick()
    assert "[##--] 2/4 fp32" in shown.getvalue()
    assert hidden.getvalue() == ""
