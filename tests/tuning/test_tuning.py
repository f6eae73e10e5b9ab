"""The tuning study: space, settings, batches and racing, resuming, storage, re-evaluation."""

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
from tuning.batches import round_blocks
from tuning.evaluation import MatchProtocol, Namespace, evaluate_points
from tuning.launch import run_trials
from tuning.pool import EvaluationPool
from tuning.racing import Pruning, stored_pruner
from tuning.reevaluate import Candidate, Confirmation, Estimate, confirm
from tuning.report import finish_study, write_outputs
from tuning.samplers import GreedySampler, SamplerName, make_sampler
from tuning.storage import fail_and_requeue, open_storage, requeue_orphans, worker_tag
from tuning.studies import bpp
from tuning.study import StudySettings, prepare_study

TINY = MatchProtocol(opponents=("call",), deals_per_block=4, blocks=6, seed=11)
BPP = bpp.spec()
HOPELESS = bpp.from_params(BPPParams(fp=0.01, cp=0.01))  # near-uniform play


def settings(tmp_path: Path, trials: int, **changes: object) -> StudySettings:
    base: dict[str, object] = {
        "study_name": "t",
        "trials": trials,
        "results_dir": tmp_path,
        "protocol": TINY,
        "sampler": SamplerName.RANDOM,
        "batch_size": 3,
        "rounds": 2,
    }
    return StudySettings(**{**base, **changes})  # type: ignore[arg-type]


def memory(tmp_path: Path, **changes: object) -> optuna.Study:
    chosen = settings(tmp_path, **{"trials": 3, **changes})  # type: ignore[arg-type]
    storage = open_storage("memory", results_dir=tmp_path, study_name="t")
    return run_trials(chosen, storage=storage)


def test_space_round_trips_bpp_params() -> None:
    for per_round_alpha in (False, True):
        space = bpp.spec(per_round_alpha=per_round_alpha)
        values = bpp.from_params(BPPParams(), per_round_alpha=per_round_alpha)
        assert set(values) == set(space.names)
        assert bpp.to_params(values) == BPPParams()
    assert len(bpp.spec().names) == 10 and len(bpp.spec(per_round_alpha=True).names) == 16
    curves = bpp.spec(curves_only=True)
    assert len(curves.names) == 8 and all(n[:3] in ("fp_", "cp_") for n in curves.names)
    assert bpp.to_params(curves.defaults) == BPPParams()
    with pytest.raises(ValueError, match="exclude each other"):
        bpp.spec(curves_only=True, per_round_alpha=True)


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


def test_bad_protocols_settings_and_names_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"unknown opponent 'nobody'.*registered agents"):
        MatchProtocol(opponents=("nobody",))
    with pytest.raises(ValueError, match="deals_per_block must be a positive integer"):
        MatchProtocol(deals_per_block=0)
    with pytest.raises(ValueError, match="at least one opponent"):
        MatchProtocol(opponents=())
    with pytest.raises(ValueError, match="opponents repeat"):
        MatchProtocol(opponents=("call", "call"))
    for name in ("", ".", "..", "a/b", "a\\b"):
        with pytest.raises(ValueError, match=r"study name must be non-empty, not '\.' or '\.\.'"):
            settings(tmp_path, 1, study_name=name)
    with pytest.raises(ValueError, match="unknown pruner 'nosuch'; choose one of none, racing"):
        settings(tmp_path, 1, pruner="nosuch")
    with pytest.raises(ValueError, match="unknown pruner 'wilcoxon'"):
        settings(tmp_path, 1, pruner="wilcoxon")  # the old name: only stored studies say it


def test_studies_stored_before_the_rename_read_as_racing() -> None:
    assert stored_pruner("wilcoxon") is Pruning.RACING
    assert stored_pruner("racing") is Pruning.RACING
    assert stored_pruner("none") is Pruning.NONE
    with pytest.raises(ValueError, match="unknown pruner 'median'"):
        stored_pruner("median")


def test_storages_journal_files_and_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"unsupported storage URL 'redis.*journal file"):
        open_storage("redis://localhost", results_dir=tmp_path, study_name="s")
    with pytest.raises(ValueError, match="cannot open the storage"):
        open_storage("sqlite:////nonexistent/dir/x.db", results_dir=tmp_path, study_name="s")
    missing = tmp_path / "s" / "study.log"
    with pytest.raises(ValueError, match="no journal file"):
        open_storage(str(missing), results_dir=tmp_path, study_name="s", create=False)
    run_trials(settings(tmp_path, 1, study_name="s"))
    for url in (str(missing), f"journal:{missing}"):
        storage = open_storage(url, results_dir=tmp_path, study_name="x")
        assert len(optuna.load_study(study_name="s", storage=storage).trials) == 1


def test_rounds_cover_every_block_once() -> None:
    assert round_blocks(10, 4) == [[0], [1], [2, 3, 4], [5, 6, 7, 8, 9]]
    assert round_blocks(128, 4) == [
        list(range(0, 16)), list(range(16, 32)), list(range(32, 64)), list(range(64, 128))
    ]  # fmt: skip
    assert round_blocks(2, 4) == [[0], [1]] and round_blocks(7, 1) == [list(range(7))]


def test_a_study_starts_with_the_defaults_and_pairs_every_trial_with_them(
    tmp_path: Path,
) -> None:
    study = memory(tmp_path, trials=4)
    trials = study.get_trials()
    assert [t.state for t in trials] == [TrialState.COMPLETE] * 4
    first = trials[0]
    assert first.user_attrs["source"] == "defaults" and first.params == BPP.defaults
    defaults = np.array(study.user_attrs["defaults_blocks"]["aivat"])
    assert len(defaults) == TINY.blocks
    assert first.value == pytest.approx(defaults.mean()) and first.user_attrs["diff"] == 0.0
    for trial in trials:
        played = sorted(trial.intermediate_values)
        assert played == list(range(trial.user_attrs["blocks"]))  # one report per block
        diffs = np.array([trial.intermediate_values[b] for b in played]) - defaults[played]
        assert trial.user_attrs["diff"] == pytest.approx(diffs.mean())
        assert trial.value == pytest.approx(defaults.mean() + diffs.mean())
        assert trial.user_attrs["hands"] == TINY.hands_per_block * len(played)
    assert not (tmp_path / "t").exists()  # nothing written for an in-memory study


def test_racing_drops_a_hopeless_candidate_and_never_the_defaults(tmp_path: Path) -> None:
    protocol = MatchProtocol(opponents=("call",), deals_per_block=20, blocks=16, seed=3)
    chosen = settings(tmp_path, 2, protocol=protocol, rounds=2, batch_size=2)
    storage = open_storage("memory", results_dir=tmp_path, study_name="t")
    prepare_study(chosen, storage).enqueue_trial(HOPELESS)
    defaults, hopeless = run_trials(chosen, storage=storage).get_trials()
    assert not defaults.user_attrs["pruned"] and defaults.user_attrs["blocks"] == 16
    assert hopeless.user_attrs["pruned"] and hopeless.user_attrs["blocks"] == 8
    assert hopeless.state == TrialState.COMPLETE and hopeless.value is not None
    assert hopeless.value < defaults.value  # type: ignore[operator]
    unraced = settings(tmp_path, 2, protocol=protocol, pruner="none", study_name="u")
    storage = open_storage("memory", results_dir=tmp_path, study_name="u")
    prepare_study(unraced, storage).enqueue_trial(HOPELESS)
    assert not run_trials(unraced, storage=storage).get_trials()[1].user_attrs["pruned"]


def test_the_same_seed_gives_the_same_study_bit_for_bit_with_any_workers(
    tmp_path: Path,
) -> None:
    def trials(workers: int, name: str) -> list[tuple[dict[str, float], float | None]]:
        chosen = settings(tmp_path, 5, sampler=SamplerName.TPE, study_name=name)
        study = run_trials(chosen, workers=workers)
        return [(t.params, t.value) for t in study.get_trials()]

    assert trials(1, "one") == trials(2, "two")


def test_a_resumed_study_never_proposes_an_evaluated_point_again(tmp_path: Path) -> None:
    """Issue 16: after Ctrl-C, trials 18-21 repeated 1-4 (samplers re-seeded as before)."""
    study = run_trials(settings(tmp_path, 4))
    interrupted = [study.ask() for _ in range(2)]  # a batch cut short, as Ctrl-C leaves it
    for trial in interrupted:
        BPP.suggest(trial)
    fail_and_requeue(study, [t.number for t in interrupted])
    resumed = run_trials(settings(tmp_path, 8))
    complete = resumed.get_trials(states=(TrialState.COMPLETE,))
    points = [tuple(sorted(t.params.items())) for t in complete]
    assert len(complete) == 8 and len(set(points)) == 8
    retried = [t for t in complete if t.system_attrs.get("retry_history")]
    assert sorted(t.params["alpha"] for t in retried) == sorted(
        t.params["alpha"] for t in interrupted
    )


def test_an_interrupted_batch_is_failed_and_queued_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []

    def interrupt(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return original(*args, **kwargs)  # type: ignore[arg-type]

    original = EvaluationPool.evaluate
    monkeypatch.setattr(EvaluationPool, "evaluate", lambda self, *a, **k: interrupt(self, *a, **k))
    with pytest.raises(KeyboardInterrupt):
        run_trials(settings(tmp_path, 3))
    study = optuna.load_study(study_name="t", storage=settings(tmp_path, 3).open())
    states = [t.state for t in study.get_trials()]
    assert states == [TrialState.FAIL] * 3 + [TrialState.WAITING] * 3
    failed, queued = study.get_trials()[:3], study.get_trials()[3:]
    assert [t.params for t in failed] == [t.params for t in queued]


def test_resuming_with_other_settings_names_the_differences(tmp_path: Path) -> None:
    run_trials(settings(tmp_path, 1))
    changed = MatchProtocol(opponents=("call",), deals_per_block=5, blocks=6, seed=11)
    with pytest.raises(ValueError) as error:
        run_trials(settings(tmp_path, 2, protocol=changed, sampler=SamplerName.TPE))
    message = str(error.value)
    assert "protocol.deals_per_block 4 (stored) vs 5 (asked)" in message
    assert "sampler 'random' (stored) vs 'tpe' (asked)" in message
    lines = (tmp_path / "t" / "study.log").read_text().count("\n")
    with pytest.raises(ValueError):
        run_trials(settings(tmp_path, 2, protocol=changed))
    assert (tmp_path / "t" / "study.log").read_text().count("\n") == lines  # nothing written


def test_reevaluation_confirmation_outputs_and_plots(tmp_path: Path) -> None:
    study = run_trials(settings(tmp_path, 4, pruner="none"))
    with EvaluationPool(BPP, TINY) as pool:
        finish_study(
            study, pool, top_k=2, reevaluation_blocks=3, confirmation_blocks=2,
            target_half_width=1e-9, max_confirmation_blocks=5,
        )  # fmt: skip
    reevaluation = study.user_attrs["reevaluation"]
    assert reevaluation[0]["label"] == "defaults" and len(reevaluation) == 3
    confirmation = study.user_attrs["confirmation"]
    assert confirmation["hands"] == 5 * TINY.hands_per_block  # played up to the cap
    files = write_outputs(study, tmp_path / "t")
    names = {p.name for p in files}
    assert {"best_params.json", "trials.csv", "reevaluation.csv", "summary.md"} <= names
    assert {"curves.png", "history.png", "confirmation.png"} <= names
    best = json.loads((tmp_path / "t" / "best_params.json").read_text())
    assert best["defaults"] == BPPParams().to_dict()
    assert best["recommended"] in ("tuned", "defaults") and "the defaults" in best["verdict"]
    with (tmp_path / "t" / "trials.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 4 and rows[1]["paired_se"] and rows[0]["diff"] == "0.0"
    summary = (tmp_path / "t" / "summary.md").read_text()
    assert "**Answer: the tuned parameters" in summary and "paired standard error" in summary


def test_the_confirmation_stops_as_soon_as_its_interval_is_narrow_enough() -> None:
    with EvaluationPool(BPP, TINY) as pool:
        defaults = Candidate("defaults", None, dict(BPP.defaults))
        same = Candidate("trial 1", 1, dict(BPP.defaults))
        done = confirm(pool, defaults, same, blocks=2, target_half_width=0.01, max_blocks=8)
    assert done.hands == 2 * TINY.hands_per_block and done.half_width == 0.0


def test_the_verdict_says_beat_do_not_beat_or_lose() -> None:
    def confirmation(lo: float, hi: float) -> Confirmation:
        tuned = Estimate("trial 3", 3, 1000, 0.2, (0.1, 0.3), (lo + hi) / 2, (lo, hi))
        base = Estimate("defaults", None, 1000, 0.1, (0.0, 0.2), 0.0, (0.0, 0.0))
        return Confirmation.of(base, tuned, 0.01)

    assert (
        confirmation(0.002, 0.012)
        .verdict()
        .startswith("the tuned parameters (trial 3) beat the defaults by 0.0070 sb/hand")
    )
    assert "do not beat the defaults" in confirmation(-0.004, 0.006).verdict()
    assert "lose to the defaults by 0.0070" in confirmation(-0.012, -0.002).verdict()


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
def test_every_sampler_runs_batches(tmp_path: Path, sampler: SamplerName) -> None:
    study = memory(tmp_path, trials=4, sampler=sampler, protocol=MatchProtocol(
        opponents=("call",), deals_per_block=2, blocks=2, seed=1))  # fmt: skip
    trials = study.get_trials(states=(TrialState.COMPLETE,))
    assert len(trials) == 4
    assert len({tuple(sorted(t.params.items())) for t in trials}) == 4
    for trial in trials:
        assert BPP.outside(trial.params) == []


def test_a_hands_budget_stops_asking_batches(tmp_path: Path) -> None:
    protocol = MatchProtocol(opponents=("call",), deals_per_block=2, blocks=2, seed=1)
    study = memory(tmp_path, trials=100, hands_budget=30, pruner="none", protocol=protocol)
    assert len(study.trials) == 6  # 8 hands a trial, 3 a batch: the second batch passes 30


def test_curves_only_points_play_with_the_default_alphas() -> None:
    curves = bpp.spec(curves_only=True)
    point = {**curves.defaults, "fp_flop": 2.0}
    a = evaluate_points(curves, TINY, Namespace.TUNE, [point], range(2))
    b = evaluate_points(BPP, TINY, Namespace.TUNE, [{**BPP.defaults, "fp_flop": 2.0}], range(2))
    assert np.array_equal(a.aivat, b.aivat)
