"""The tuning study: search space, objective, storage, workers, re-evaluation, outputs, CLI."""

from __future__ import annotations

import csv
import json
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import optuna
import pytest
from optuna.trial import TrialState

from agents.bpp import BPPParams
from tuning.cli import main
from tuning.evaluation import MatchProtocol, Namespace, play_block
from tuning.launch import run_trials
from tuning.objective import make_objective
from tuning.report import finish_study, write_outputs
from tuning.samplers import GreedySampler, SamplerName, make_sampler
from tuning.storage import open_storage, requeue_orphans, worker_tag
from tuning.studies import bpp
from tuning.study import StudySettings, prepare_study

TINY = MatchProtocol(opponents=("call",), deals_per_block=4, blocks=3, seed=11)
BPP = bpp.spec()


def settings(tmp_path: Path, trials: int, **changes: object) -> StudySettings:
    base: dict[str, object] = {
        "study_name": "t",
        "trials": trials,
        "results_dir": tmp_path,
        "protocol": TINY,
        "sampler": SamplerName.RANDOM,
    }
    return StudySettings(**{**base, **changes})  # type: ignore[arg-type]


def test_space_round_trips_bpp_params() -> None:
    for per_round_alpha in (False, True):
        space = bpp.spec(per_round_alpha=per_round_alpha)
        values = bpp.from_params(BPPParams(), per_round_alpha=per_round_alpha)
        assert set(values) == set(space.names)
        assert bpp.to_params(values) == BPPParams()
    assert len(bpp.spec().names) == 10 and len(bpp.spec(per_round_alpha=True).names) == 16


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"ranges": {"alpha": (1.0, 1.0)}}, "empty range for alpha"),
        ({"ranges": {"alpha": (2.0, 1.0)}}, "empty range for alpha"),
        ({"ranges": {"fp_flop": (0.0, 3.0)}}, "log scale"),
        ({"ranges": {"gamma": (0.0, 1.0)}}, "unknown parameter"),
    ],
)
def test_bad_ranges_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        bpp.spec(**kwargs)  # type: ignore[arg-type]


def test_unknown_opponent_and_bad_protocols_are_refused() -> None:
    with pytest.raises(ValueError, match=r"unknown opponent 'nobody'.*registered agents"):
        MatchProtocol(opponents=("nobody",))
    with pytest.raises(ValueError, match="deals_per_block must be a positive integer"):
        MatchProtocol(deals_per_block=0)
    with pytest.raises(ValueError, match="at least one opponent"):
        MatchProtocol(opponents=())


def test_bad_storage_urls_give_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unsupported storage URL 'redis"):
        open_storage("redis://localhost", results_dir=tmp_path, study_name="s")
    with pytest.raises(ValueError, match="cannot open the storage"):
        open_storage("sqlite:////nonexistent/dir/x.db", results_dir=tmp_path, study_name="s")


def test_blocks_share_deals_across_candidates_and_namespaces_differ() -> None:
    a = play_block(BPP, BPP.defaults, TINY, Namespace.TUNE, 0)
    assert np.array_equal(a, play_block(BPP, BPP.defaults, TINY, Namespace.TUNE, 0))
    assert not np.array_equal(a, play_block(BPP, BPP.defaults, TINY, Namespace.CONFIRM, 0))
    assert len(a) == TINY.deals_per_block


def test_objective_is_deterministic_for_fixed_seeds() -> None:
    point = bpp.from_params(BPPParams(fp=(0.5, 2.0, 2.0, 4.0)))
    objective = make_objective(BPP, TINY)
    values = [objective(optuna.trial.FixedTrial(point)) for _ in range(2)]
    assert values[0] == values[1]
    other = make_objective(
        BPP, MatchProtocol(opponents=("call",), deals_per_block=4, blocks=3, seed=12)
    )
    assert other(optuna.trial.FixedTrial(point)) != values[0]


def test_two_trial_study_in_memory_starts_with_the_defaults(tmp_path: Path) -> None:
    study = run_trials(
        settings(tmp_path, 2, storage="memory"),
        storage=open_storage("memory", results_dir=tmp_path, study_name="t"),
    )
    trials = study.get_trials(states=(TrialState.COMPLETE,))
    assert len(trials) == 2
    assert trials[0].user_attrs["source"] == "defaults"
    assert trials[0].params == bpp.from_params(BPPParams())
    assert trials[0].user_attrs["hands"] == TINY.hands_per_block * TINY.blocks
    assert not (tmp_path / "t").exists()  # nothing written for an in-memory study


def test_a_study_resumes_up_to_the_new_total_and_refuses_a_changed_protocol(
    tmp_path: Path,
) -> None:
    first = run_trials(settings(tmp_path, 2))
    before = [(t.number, t.params, t.value) for t in first.get_trials()]
    resumed = run_trials(settings(tmp_path, 4))
    after = [(t.number, t.params, t.value) for t in resumed.get_trials()]
    assert after[:2] == before and len(after) == 4
    assert (tmp_path / "t" / "study.log").exists()
    changed = MatchProtocol(opponents=("call",), deals_per_block=5, blocks=3, seed=11)
    with pytest.raises(ValueError, match="exists with other protocol"):
        run_trials(settings(tmp_path, 5, protocol=changed))


def test_two_workers_honour_the_total_without_duplicates(tmp_path: Path) -> None:
    study = run_trials(settings(tmp_path, 7, sampler=SamplerName.RANDOM), workers=2)
    trials = study.get_trials()
    assert [t.state for t in trials] == [TrialState.COMPLETE] * 7
    assert sorted(t.number for t in trials) == list(range(7))
    assert len({tuple(sorted(t.params.items())) for t in trials}) == 7
    assert len({t.user_attrs["worker"] for t in trials}) == 2


def test_reevaluation_confirmation_outputs_and_plots(tmp_path: Path) -> None:
    study = run_trials(settings(tmp_path, 4))
    finish_study(study, BPP, TINY, top_k=2, reevaluation_blocks=3, confirmation_blocks=3)
    reevaluation = study.user_attrs["reevaluation"]
    assert reevaluation[0]["label"] == "defaults" and len(reevaluation) == 3
    for row in reevaluation:
        assert row["ci"][0] <= row["mean"] <= row["ci"][1]
    files = write_outputs(study, tmp_path / "t")
    names = {p.name for p in files}
    assert {"best_params.json", "trials.csv", "reevaluation.csv", "summary.md"} <= names
    assert {"curves.png", "history.png", "confirmation.png"} <= names
    for path in files:
        assert path.stat().st_size > 0
    best = json.loads((tmp_path / "t" / "best_params.json").read_text())
    assert best["defaults"] == BPPParams().to_dict()
    assert BPPParams.from_dict(best["tuned"])  # a valid parameter set
    with (tmp_path / "t" / "trials.csv").open() as handle:
        assert len(list(csv.DictReader(handle))) == 4
    summary = (tmp_path / "t" / "summary.md").read_text()
    assert "## Confirmation" in summary and "hands per CPU-second" in summary


def test_greedy_sampler_perturbs_the_incumbent_within_bounds() -> None:
    study = optuna.create_study(direction="maximize", sampler=GreedySampler(seed=1, step=0.05))
    dist = optuna.distributions.FloatDistribution(0.01, 10.0, log=True)
    study.add_trial(
        optuna.trial.create_trial(params={"x": 1.0}, distributions={"x": dist}, value=1.0)
    )
    study.add_trial(
        optuna.trial.create_trial(params={"x": 5.0}, distributions={"x": dist}, value=0.0)
    )
    proposals = [study.ask({"x": dist}).params["x"] for _ in range(50)]
    assert all(0.01 <= x <= 10.0 for x in proposals)
    assert 0.5 < float(np.median(proposals)) < 2.0  # around the incumbent 1.0, not 5.0


def test_unknown_sampler_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown sampler 'annealing'"):
        make_sampler("annealing", 0)


def test_cli_tune_then_plot_from_the_stored_study(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [
        "tune", "--study", "cli", "--trials", "3", "--opponent", "call", "--deals-per-block",
        "3", "--blocks", "2", "--results", str(tmp_path), "--sampler", "random", "--top-k", "1",
        "--reevaluation-blocks", "2", "--confirmation-blocks", "2", "--quiet",
    ]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "results in" in out
    (tmp_path / "cli" / "plots" / "curves.png").unlink()
    assert main(["plot", "--study", "cli", "--results", str(tmp_path)]) == 0
    assert (tmp_path / "cli" / "plots" / "curves.png").stat().st_size > 0


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--opponent", "nobody"], "unknown opponent 'nobody'"),
        (["--range", "alpha=1:1"], "empty range for alpha"),
        (["--storage", "ftp://x"], "unsupported storage URL"),
        (["--sampler", "annealing"], "unknown sampler"),
    ],
)
def test_cli_reports_bad_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    assert main(["tune", "--study", "bad", "--results", str(tmp_path), *extra]) == 2
    assert message in capsys.readouterr().err


def test_a_dead_local_workers_trial_is_failed_and_queued_again(tmp_path: Path) -> None:
    """Journal storages have no heartbeat: trials of dead local processes are re-queued."""
    study = run_trials(settings(tmp_path, 1))
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    orphan = study.ask()
    orphan.suggest_float("alpha", 0.0, 2.0)
    orphan.set_user_attr("worker", f"{socket.gethostname()}:{dead.pid}")
    alive = study.ask()
    alive.set_user_attr("worker", worker_tag())
    assert requeue_orphans(study) == [orphan.number]
    states = {t.number: t.state for t in study.get_trials()}
    assert states[orphan.number] == TrialState.FAIL and states[alive.number] == TrialState.RUNNING
    (retry,) = study.get_trials(states=(TrialState.WAITING,))
    assert retry.params == {"alpha": orphan.params["alpha"]}
    assert retry.system_attrs["retry_history"] == [orphan.number]


@pytest.mark.parametrize("sampler", list(SamplerName))
def test_every_sampler_runs_a_study(tmp_path: Path, sampler: SamplerName) -> None:
    storage = open_storage("memory", results_dir=tmp_path, study_name="t")
    study = run_trials(settings(tmp_path, 3, sampler=sampler), storage=storage)
    trials = study.get_trials(states=(TrialState.COMPLETE,))
    assert len(trials) == 3
    for trial in trials:
        assert BPP.outside(trial.params) == []


def test_wilcoxon_prunes_a_hopeless_trial_and_returns_its_partial_mean(tmp_path: Path) -> None:
    protocol = MatchProtocol(opponents=("call",), deals_per_block=20, blocks=12, seed=3)
    chosen = settings(tmp_path, 2, protocol=protocol, pruner="wilcoxon")
    storage = open_storage("memory", results_dir=tmp_path, study_name="t")
    study = prepare_study(chosen, storage)
    hopeless = bpp.from_params(BPPParams(fp=0.01, cp=0.01))  # near-uniform play
    study.enqueue_trial(hopeless)
    best, pruned = run_trials(chosen, storage=storage).get_trials()
    assert not best.user_attrs["pruned"] and best.user_attrs["blocks"] == 12
    assert pruned.user_attrs["pruned"] and 5 <= pruned.user_attrs["blocks"] < 12
    assert pruned.state == TrialState.COMPLETE and pruned.value is not None
    assert pruned.value < best.value  # type: ignore[operator]


def test_a_sequential_study_is_reproducible(tmp_path: Path) -> None:
    def trials() -> list[tuple[dict[str, float], float | None]]:
        storage = open_storage("memory", results_dir=tmp_path, study_name="t")
        study = run_trials(settings(tmp_path, 3, sampler=SamplerName.TPE), storage=storage)
        return [(t.params, t.value) for t in study.get_trials()]

    assert trials() == trials()
