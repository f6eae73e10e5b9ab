"""A worker told to stop inside a callback from compiled code stops a moment later instead."""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType

import pytest

from tuning import pool


def _frame_in(path: str) -> FrameType:
    namespace: dict[str, object] = {}
    exec(compile("import sys\nframe = sys._getframe()", path, "exec"), namespace)
    frame = namespace["frame"]
    assert isinstance(frame, FrameType)
    return frame


@pytest.mark.skipif(sys.platform == "win32", reason="no SIGALRM")
def test_sigterm_inside_an_llvmlite_callback_is_retried_later() -> None:
    callback = _frame_in(os.path.join(os.sep, "site", "llvmlite", "binding", "engine.py"))
    previous = signal.getsignal(signal.SIGALRM)
    try:
        pool._exit(signal.SIGTERM, callback)  # no SystemExit: it would be swallowed there
        delay, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 0.0 < delay <= pool.EXIT_RETRY_SECONDS
        assert signal.getsignal(signal.SIGALRM) is pool._exit
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0.0)
        signal.signal(signal.SIGALRM, previous)


def test_sigterm_elsewhere_exits_at_once() -> None:
    for frame in (_frame_in(os.path.join(os.sep, "site", "numpy", "core.py")), None):
        with pytest.raises(SystemExit):
            pool._exit(signal.SIGTERM, frame)
