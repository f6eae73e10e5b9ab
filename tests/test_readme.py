"""Every shell command and Python block of README.md runs, as a new user would run them.

The README is cut into sections at its headings. Each section runs in a fresh temporary
directory, its ```sh / ```bash / ```console commands and ```python blocks in the order they
appear, so a section's later commands see what its earlier ones wrote. Python blocks run in a
subprocess with this interpreter, and commands run through the installed console scripts
(``holdem-lab``, ...) next to it.

Sizes are reduced (``shrink``): fewer hands, trials, steps and blocks, one worker process (a
study is the same bit for bit whatever the number of workers), sampled flops for the best
response. The README says so. The whole file then costs about a minute of CPU, half a minute
of wall time with ``pytest -n 2`` on two idle cores.
Commands that cannot run here are listed in ``NOT_RUN`` with the reason. Commands that can
run only in a changed form are listed in ``REDUCED`` with the reason and run in that form.
A README command in neither table always runs. Afterwards no tracked file may have changed.
"""

from __future__ import annotations

import math
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
BIN = Path(sys.executable).parent

NOT_RUN = {
    "make test": "the suite itself: running it here would recurse",
    "pip install": "changes the environment the suite runs in; `make` installs the same extras",
    "optuna-dashboard": (
        "a web server that runs until stopped; tests/tuning/test_cli_tune.py::"
        "test_optuna_dashboard_reads_a_study_journal starts it on a study journal and reads "
        "the study back through its HTTP API"
    ),
}
"""README commands (by prefix) that this test does not run, with the reason."""

PG_PLACEHOLDER = "postgresql://USER:PASSWORD@DB-HOST:5432/optuna"
REDUCED = {
    PG_PLACEHOLDER: (
        "a placeholder server: the commands run on the throwaway server of "
        "tools/with_postgres.sh (HOLDEM_LAB_PG_URL, set by make test), or without one on the "
        "study's journal file"
    ),
}
"""README text that is replaced before running, with the reason (see ``_reduced``)."""

TINY_PROTOCOL = ["--deals-per-block", "3", "--blocks", "4", "--batch-size", "2", "--rounds", "2"]
APPENDED: dict[str, list[str]] = {
    "tune": [
        "--trials", "2", *TINY_PROTOCOL, "--top-k", "1", "--reevaluation-blocks", "2",
        "--confirmation-blocks", "2", "--max-confirmation-blocks", "2", "--quiet",
    ],
    "compare-samplers": [
        *TINY_PROTOCOL, "--budget-hands", "48", "--holdout-blocks", "2", "--quiet",
    ],
    "pilot": ["--blocks", "3", "--deals-per-block", "3", "--quiet"],
    "transfer": ["--blocks", "2", "--deals-per-block", "3", "--quiet"],
    "worker": ["--quiet"],
    "train": [
        "--num-envs", "1", "--batch-size", "64", "--eval-every", "256", "--eval-hands", "20",
        "--final-eval-hands", "20", "--quiet",
    ],
    "learning-curve": ["--block", "50", "--quiet"],
    "best-response": ["--flops", "2", "--quiet"],
    "match": ["--quiet"],
}  # fmt: skip
"""Options added to a ``holdem-lab`` sub-command when the README does not give them."""

SHRUNK = {
    "--hands": lambda n: min(n, 200),
    "--sessions": lambda n: min(n, 4),
    "--trials": lambda n: max(2, math.ceil(n / 32)),
    "--steps": lambda n: 256 * math.ceil(n / 150_000),  # one rollout per 150,000 steps asked
    "--matches": lambda n: 2,
    "--check": lambda n: min(n, 400),
    "--workers": lambda n: 1,
    "--max-hands": lambda n: min(n, 400),
}
"""Sizes given in the README, made small (the order of two values is kept)."""


@dataclass(frozen=True)
class Block:
    kind: str  # "sh" or "python"
    code: str


def sections() -> dict[str, list[Block]]:
    """README's runnable blocks, by section heading, in order."""
    found: dict[str, list[Block]] = {}
    heading, fence, lines = "top", None, []
    for line in README.read_text(encoding="utf-8").splitlines():
        if fence is None:
            if line.startswith("```"):
                fence, lines = line[3:].strip(), []
            elif line.startswith("#"):
                heading = line.lstrip("#").strip()
        elif line.startswith("```"):
            kind = {"sh": "sh", "bash": "sh", "console": "sh", "python": "python"}.get(fence)
            if kind is not None:
                found.setdefault(heading, []).append(Block(kind, "\n".join(lines)))
            fence = None
        else:
            lines.append(line)
    assert fence is None, "README.md ends inside a code block"
    return found


def commands(code: str) -> list[str]:
    """The commands of a shell block: continuations joined, prompts and comments dropped."""
    joined = re.sub(r"\\\n\s*", " ", code)
    out = []
    for line in joined.splitlines():
        line = line.strip().removeprefix("$ ")
        words = shlex.split(line, comments=True)
        if words:
            out.append(shlex.join(words))
    return out


def not_run_reason(command: str) -> str | None:
    return next((why for prefix, why in NOT_RUN.items() if command.startswith(prefix)), None)


def shrink(argv: list[str]) -> list[str]:
    """``argv`` with the README's sizes made small and the options of ``APPENDED`` added."""
    argv = list(argv)
    for i, word in enumerate(argv[:-1]):
        if word in SHRUNK and argv[i + 1].isdigit():
            argv[i + 1] = str(SHRUNK[word](int(argv[i + 1])))
    if argv[0] == "holdem-lab" and len(argv) > 1:
        sub = argv[1]
        extra = APPENDED.get(sub, [])
        if sub == "train" and "--resume" in argv:
            extra = ["--quiet"]  # a resumed run keeps its own settings
        if sub == "best-response" and "--check" in argv:
            extra = ["--quiet"]
        i = 0
        while i < len(extra):
            option = extra[i]
            value = extra[i + 1 : i + 2] if i + 1 < len(extra) and extra[i + 1][0] != "-" else []
            if option not in argv:
                argv += [option, *value]
            i += 1 + len(value)
    return argv


def _reduced(command: str, workdir: Path) -> str:
    if PG_PLACEHOLDER in command:
        url = os.environ.get("HOLDEM_LAB_PG_URL")
        if not url and os.environ.get("HOLDEM_LAB_REQUIRE_PG") == "1":
            pytest.fail("HOLDEM_LAB_REQUIRE_PG=1 but HOLDEM_LAB_PG_URL is not set")
        command = command.replace(PG_PLACEHOLDER, url or str(workdir / "big.log"))
    return command


def _git_status() -> str | None:
    git = shutil.which("git")
    if git is None or not (REPO / ".git").exists():
        return None
    status = subprocess.run(
        [git, "-C", str(REPO), "status", "--porcelain", "--untracked-files=all"],
        capture_output=True,
        text=True,
        check=True,
    )
    return status.stdout


def _env() -> dict[str, str]:
    return {
        **os.environ,
        "MPLBACKEND": "Agg",
        "COLUMNS": "100",
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def _run(argv: list[str], workdir: Path, what: str) -> None:
    executable = BIN / argv[0]
    if executable.exists():
        argv = [str(executable), *argv[1:]]
    done = subprocess.run(
        argv, cwd=workdir, env=_env(), capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{what} failed ({done.returncode}):\n{done.stderr[-3000:]}"


SECTIONS = sections()


def test_the_readme_has_the_blocks_and_the_tables_name_real_commands() -> None:
    kinds = [block.kind for blocks in SECTIONS.values() for block in blocks]
    assert kinds.count("sh") >= 8 and kinds.count("python") >= 6
    every = [c for blocks in SECTIONS.values() for b in blocks if b.kind == "sh" for c in
             commands(b.code)]  # fmt: skip
    for prefix in NOT_RUN:
        assert any(c.startswith(prefix) for c in every), (
            f"NOT_RUN names no README command: {prefix}"
        )
    for text in REDUCED:
        assert any(text in c for c in every), f"REDUCED names no README command: {text}"


def test_shrink_makes_sizes_small_and_keeps_their_order() -> None:
    argv = shrink(shlex.split("holdem-lab tune --study demo --trials 96 --workers 2"))
    assert argv[:7] == ["holdem-lab", "tune", "--study", "demo", "--trials", "3", "--workers"]
    assert argv[7] == "1" and argv.count("--trials") == 1 and "--quiet" in argv
    assert shrink(["holdem-lab", "train", "--steps", "150000"])[3] == "256"
    assert shrink(["holdem-lab", "train", "--resume", "r", "--steps", "300000"]) == [
        "holdem-lab", "train", "--resume", "r", "--steps", "512", "--quiet",
    ]  # fmt: skip


READ_RESULTS = ("default/best_params.json",)
"""Committed results that README commands read (``bpp:results/default``): copied into the
working directory first, so that the commands read them where the README says."""


@pytest.mark.parametrize("heading", list(SECTIONS), ids=lambda h: re.sub(r"\W+", "-", h)[:40])
def test_readme_section_runs(heading: str, tmp_path: Path) -> None:
    before = _git_status()
    for name in READ_RESULTS:
        (tmp_path / "results" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / "results" / name, tmp_path / "results" / name)
    ran = 0
    for number, block in enumerate(SECTIONS[heading]):
        if block.kind == "python":
            script = tmp_path / f"readme_block_{number}.py"
            script.write_text(block.code + "\n", encoding="utf-8")
            _run([sys.executable, str(script)], tmp_path, f"Python block {number}:\n{block.code}")
            ran += 1
            continue
        for command in commands(block.code):
            if not_run_reason(command) is not None:
                continue
            argv = shrink(shlex.split(_reduced(command, tmp_path)))
            _run(argv, tmp_path, f"{command!r} (run as {shlex.join(argv)!r})")
            ran += 1
    assert ran > 0 or all(
        not_run_reason(c) for b in SECTIONS[heading] for c in commands(b.code)
    ), heading
    assert _git_status() == before, "a README command changed the repository's files"
