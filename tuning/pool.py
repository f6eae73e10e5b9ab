"""Evaluating points with several local processes, each playing a share of the tables.

``EvaluationPool(spec, protocol, workers)`` evaluates points on blocks
(``tuning.evaluation``): the passes of an evaluation are cut into ``workers`` contiguous
shares, each played by one worker process on its own batch of tables, and the results are
merged in pass order. A pass's result does not depend on the passes beside it, so the
values are the same for any number of workers, and a study driven by one process (which asks
and tells in a fixed order) is reproducible bit for bit.

The workers are started once (``spawn``: the simulator is CPU-bound Python), talk to the
parent over pipes (no shared semaphores), ignore SIGINT (Ctrl-C reaches the whole process
group: only the parent handles it) and report progress in hands while they play. On an
interrupt or an error the parent stops them with SIGTERM, which they turn into a normal exit
(so that their finalizers release what they hold, e.g. the lock tqdm creates: a killed process
would leave a ``leaked semaphore`` warning), and joins them before the exception goes on.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from types import FrameType, TracebackType
from typing import Any

import numpy as np

from envs.validation import whole_number
from tuning.evaluation import (
    BlockValues,
    EvaluationPasses,
    MatchProtocol,
    Namespace,
    Point,
    block_values,
    play_share,
)
from tuning.studies import StudySpec

__all__ = ["EvaluationPool", "OnHands"]

OnHands = Callable[[int], None]
"""Called with the number of hands just played (for progress bars)."""
PROGRESS_SECONDS = 0.5
"""How often a worker reports the hands it played."""
EXIT_RETRY_SECONDS = 0.05
"""Delay before a worker retries an exit that arrived inside a foreign callback."""


class EvaluationPool:
    """Evaluates points of ``spec`` under ``protocol`` in this process (``workers=1``) or in
    ``workers`` processes (see the module docstring). A context manager: leaving it stops
    the processes."""

    def __init__(self, spec: StudySpec, protocol: MatchProtocol, workers: int = 1) -> None:
        self.spec = spec
        self.protocol = protocol
        self.workers = whole_number("workers", workers, minimum=1, what="a positive integer")
        self._processes: list[Any] = []
        self._pipes: list[Connection] = []
        self.cpu_seconds = 0.0
        """CPU time the evaluations took, in every process."""

    def __enter__(self) -> EvaluationPool:
        if self.workers > 1:
            context = multiprocessing.get_context("spawn")
            with _children_ignore_sigint():
                for k in range(self.workers):
                    parent, child = context.Pipe()
                    process = context.Process(
                        target=_worker_main,
                        args=(child, self.spec, self.protocol),
                        name=f"tune-eval-{k}",
                        daemon=True,
                    )
                    process.start()
                    child.close()
                    self._processes.append(process)
                    self._pipes.append(parent)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close(clean=kind is None)

    def close(self, *, clean: bool = True) -> None:
        """Stop the workers: asked to leave after a clean run, terminated otherwise."""
        for pipe in self._pipes:
            if clean:
                with contextlib.suppress(BrokenPipeError, OSError):
                    pipe.send(None)
        for process in self._processes:
            if not clean:
                process.terminate()
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
                process.join()
        for pipe in self._pipes:
            pipe.close()
        self._processes, self._pipes = [], []

    def evaluate(
        self,
        namespace: Namespace,
        points: Sequence[Point],
        blocks: Sequence[int],
        on_hands: OnHands | None = None,
        *,
        seed: int | None = None,
    ) -> BlockValues:
        """Every point on the same ``blocks`` of ``namespace`` (deals of the root ``seed``,
        the protocol's by default)."""
        plain = [dict(p) for p in points]
        blocks = [int(b) for b in blocks]
        protocol = self.protocol
        passes = EvaluationPasses.of(len(plain), blocks, len(protocol.lineups), protocol.seats)
        if not self._processes:
            start = time.process_time()
            raw, corrected = play_share(
                self.spec, self.protocol, namespace, plain, passes, on_hands, seed
            )
            self.cpu_seconds += time.process_time() - start
        else:
            raw, corrected = self._scatter(namespace, plain, passes, on_hands, seed)
        return block_values(self.protocol, len(plain), blocks, passes, raw, corrected)

    def _scatter(
        self,
        namespace: Namespace,
        points: list[dict[str, float]],
        passes: EvaluationPasses,
        on_hands: OnHands | None,
        seed: int | None,
    ) -> tuple[Any, Any]:
        shares = [passes.share(k, self.workers) for k in range(self.workers)]
        for pipe, share in zip(self._pipes, shares, strict=True):
            pipe.send((namespace, points, share, seed))
        results: dict[int, tuple[Any, Any]] = {}
        waiting = {pipe: k for k, pipe in enumerate(self._pipes)}
        while waiting:
            for ready in wait(list(waiting)):
                assert isinstance(ready, Connection)
                try:
                    kind, payload = ready.recv()
                except EOFError:
                    raise RuntimeError(
                        f"evaluation worker {waiting[ready]} died (see its messages above)"
                    ) from None
                if kind == "hands":
                    if on_hands is not None:
                        on_hands(payload)
                elif kind == "done":
                    raw, corrected, cpu = payload
                    results[waiting.pop(ready)] = (raw, corrected)
                    self.cpu_seconds += cpu
                else:
                    raise RuntimeError(f"evaluation worker {waiting[ready]} failed:\n{payload}")
        raw = np.concatenate([results[k][0] for k in range(self.workers)])
        corrected = np.concatenate([results[k][1] for k in range(self.workers)])
        return raw, corrected


@contextlib.contextmanager
def _children_ignore_sigint() -> Iterator[None]:
    """Start processes that ignore SIGINT from their first instruction.

    A spawned worker unpickles its arguments (importing the agents, numba: seconds) before
    ``_worker_main`` can ignore SIGINT, and a Ctrl-C in that window printed each worker's
    ``KeyboardInterrupt`` traceback. An ignored signal stays ignored across ``exec``, and
    Python then installs no handler of its own, so the parent ignores it while it starts them.
    """
    previous = signal.getsignal(signal.SIGINT)
    if previous is None or threading.current_thread() is not threading.main_thread():
        yield  # a handler set outside Python, or not the main thread: leave it be
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _exit(signum: int, frame: FrameType | None) -> None:
    """SIGTERM: leave through ``SystemExit``, so that exit handlers and finalizers run.

    Not from inside a callback that C code made into Python (numba's compiler storing a
    kernel in its cache calls llvmlite's ``_raw_object_cache_notify``): the exception would
    stop at the C boundary, be printed as "Exception ignored" and the worker would go on. The
    exit is then retried a moment later, by which time the callback has returned.
    """
    if _inside_foreign_callback(frame):
        signal.signal(signal.SIGALRM, _exit)
        signal.setitimer(signal.ITIMER_REAL, EXIT_RETRY_SECONDS)
        return
    sys.exit(0)


def _inside_foreign_callback(frame: FrameType | None) -> bool:
    """Whether ``frame`` or a caller of it runs llvmlite's callbacks from compiled code."""
    while frame is not None:
        if f"{os.sep}llvmlite{os.sep}" in frame.f_code.co_filename:
            return True
        frame = frame.f_back
    return False


def _worker_main(pipe: Connection, spec: StudySpec, protocol: MatchProtocol) -> None:
    """A worker process: play each share it is sent, until it is sent ``None``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops us
    signal.signal(signal.SIGTERM, _exit)
    while True:
        try:
            task = pipe.recv()
        except EOFError:
            return
        if task is None:
            return
        namespace, points, share, seed = task
        played, last = 0, time.monotonic()

        def report(hands: int) -> None:
            nonlocal played, last
            played += hands
            if time.monotonic() - last >= PROGRESS_SECONDS:
                pipe.send(("hands", played))
                played, last = 0, time.monotonic()

        try:
            start = time.process_time()
            raw, corrected = play_share(spec, protocol, namespace, points, share, report, seed)
            if played:
                pipe.send(("hands", played))
            pipe.send(("done", (raw, corrected, time.process_time() - start)))
        except Exception:
            pipe.send(("error", traceback.format_exc()))
