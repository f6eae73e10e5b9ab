"""Speed of Loki's compiled street tables (``agents.strength.street``) and of the references.

Protocol. ``--rows`` random rows (two own cards and a board, all distinct) per street, drawn
before timing. Every figure is CPU time (``time.process_time``: the machine is shared), the
best of ``--repeats`` runs after a warm-up call (the kernels compile on their first call and
are cached on disk):

* ``street_tables``: microseconds per row and rows per CPU-second, validation and the
  output arrays included; then its three kernels alone on the same rows in the same chunks:
  the ranking one (``street_kernels.street_rows``: every 2- and 3-subset of the non-board
  cards ranked with the board, plus the own hand's counts; its hand ranks per row and per
  second), HS1 (``strength_all_kernels``) and PPOTc (``ppotc_kernels``);
* ``field_values``: microseconds per row (random field weights, one opponent);
* the NumPy references per row on the first ``--reference-rows`` rows: ``hand_strength_all``
  + ``ppot_c`` + ``hand_strength`` + ``hand_potential(lookahead=1)``, their per-board caches
  cleared first (a new board each row), and the ratio to ``street_tables`` + one
  ``field_values``;
* on the flop, ``field_potential2`` against ``hand_potential(lookahead=2)`` (PPOT2).

    python benchmarks/bench_strength_street.py [--rows 4096] [--reference-rows 48]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from math import comb

import numpy as np

from agents.strength import hand_potential, hand_strength, hand_strength_all, ppot_c
from agents.strength import holdings as _holdings
from agents.strength import ppotc as _ppotc
from agents.strength import street as _street
from agents.strength.holdings import NUM_HOLDINGS
from agents.strength.street import field_potential2, field_values, street_tables

STREETS = {3: "flop", 4: "turn", 5: "river"}


def random_rows(rng: np.random.Generator, count: int) -> np.ndarray:
    """``(count, 7)`` deals: two own cards, then five board cards."""
    return np.argsort(rng.random((count, 52)), axis=1)[:, :7]


def best_time(function: Callable[[], object], repeats: int) -> float:
    """The least CPU seconds of ``repeats`` calls, after one warm-up call."""
    function()
    times = []
    for _ in range(repeats):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return min(times)


def kernel_times(deals: np.ndarray, board_size: int, repeats: int) -> tuple[float, ...]:
    """CPU seconds of the three kernels of ``street_tables`` over the rows, called as it calls
    them (chunk by chunk): ranking, HS1, PPOTc."""
    holes, boards, lengths = _street._rows(
        deals[:, :2], deals[:, 2:], np.full(len(deals), board_size)
    )
    k, size = len(deals), _street._CHUNK
    hs1, ppotc = np.empty((k, NUM_HOLDINGS)), np.empty((k, NUM_HOLDINGS))
    versus = np.empty((k, NUM_HOLDINGS), dtype=np.int8)
    after = np.empty((k, NUM_HOLDINGS, 3), dtype=np.uint8)
    scratch = _street._Scratch.allocate(size)
    best = [np.inf, np.inf, np.inf]
    for _ in range(repeats + 1):  # the first run warms up
        spent = [0.0, 0.0, 0.0]
        for start in range(0, k, size):
            rows = slice(start, start + size)
            chunk = scratch.head(len(lengths[rows]))
            t0 = time.process_time()
            _street._rank_chunk(
                chunk, holes[rows], boards[rows], lengths[rows], versus[rows], after[rows]
            )
            t1 = time.process_time()
            _street._strength_chunk(chunk, boards[rows], lengths[rows], hs1[rows])
            t2 = time.process_time()
            _street._ppotc_chunk(chunk, boards[rows], lengths[rows], ppotc[rows])
            t3 = time.process_time()
            spent = [spent[0] + t1 - t0, spent[1] + t2 - t1, spent[2] + t3 - t2]
        best = [min(b, s) for b, s in zip(best, spent, strict=True)]
    return tuple(best)


def reference_time(deals: np.ndarray, board_size: int) -> float:
    """CPU seconds of the NumPy references over the rows (a new board each row)."""
    _holdings._board_ranks.cache_clear()
    _ppotc._ppot_c.cache_clear()
    rng = np.random.default_rng(0)
    fields = rng.random((len(deals), NUM_HOLDINGS))
    start = time.process_time()
    for deal, field in zip(deals.tolist(), fields, strict=True):
        hole, board = deal[:2], deal[2 : 2 + board_size]
        hand_strength_all(board)
        hand_strength(hole, board, field)
        if board_size < 5:
            ppot_c(board)
            hand_potential(hole, board, field)
    return time.process_time() - start


def street_figures(
    rng: np.random.Generator, board_size: int, rows: int, reference_rows: int, repeats: int
) -> None:
    """Print the figures of one street (see the module docstring)."""
    deals = random_rows(rng, rows)
    lengths = np.full(rows, board_size)
    tables = street_tables(deals[:, :2], deals[:, 2:], lengths)
    field = rng.random((rows, NUM_HOLDINGS))
    ones = np.ones(rows, dtype=np.int64)
    whole = best_time(lambda: street_tables(deals[:, :2], deals[:, 2:], lengths), repeats)
    values = best_time(lambda: field_values(tables, field, ones), repeats)
    ranking, strength, ppotc = kernel_times(deals, board_size, repeats)
    slots = 52 - board_size
    ranks = comb(slots, 2) + (comb(slots, 3) if board_size < 5 else 0)
    reference = reference_time(deals[:reference_rows], board_size) / reference_rows
    ours = (whole + values) / rows
    print(f"{STREETS[board_size]} ({rows:,} rows, CPU time, best of {repeats}):")
    print(f"  street_tables {whole / rows * 1e6:8.1f} us/row  {rows / whole:10,.0f} rows/s")
    print(
        f"    ranking kernel {ranking / rows * 1e6:6.1f} us/row: {ranks:,} hand ranks/row, "
        f"{ranks * rows / ranking / 1e6:,.0f} M ranks/s; HS1 {strength / rows * 1e6:.1f}"
        f" us/row; PPOTc {ppotc / rows * 1e6:.1f} us/row"
    )
    print(f"  field_values  {values / rows * 1e6:8.1f} us/row  {rows / values:10,.0f} rows/s")
    print(
        f"  references    {reference * 1e6:8.1f} us/row ({reference_rows} rows): "
        f"{reference / ours:,.0f} x street_tables + field_values"
    )


def potential2_figures(rng: np.random.Generator, rows: int, repeats: int) -> None:
    """Print ``field_potential2`` against ``hand_potential(lookahead=2)`` on the flop."""
    flop = random_rows(rng, rows)
    field = rng.random((rows, NUM_HOLDINGS))
    ours = best_time(lambda: field_potential2(flop[:, :2], flop[:, 2:], field), repeats)
    _holdings._board_ranks.cache_clear()
    start = time.process_time()
    for deal, weights in zip(flop.tolist(), field, strict=True):
        hand_potential(deal[:2], deal[2:5], weights, lookahead=2)
    slow = time.process_time() - start
    print(
        f"PPOT2 (flop, {rows} rows): field_potential2 {ours / rows * 1e3:.2f} ms/row,"
        f" hand_potential(lookahead=2) {slow / rows * 1e3:.2f} ms/row"
    )


def main(argv: list[str] | None = None) -> int:
    """Print the figures of every street, then PPOT2's."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=4096, help="rows per street")
    parser.add_argument("--reference-rows", type=int, default=48, help="rows for the references")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    for board_size in STREETS:
        street_figures(rng, board_size, args.rows, args.reference_rows, args.repeats)
    potential2_figures(rng, max(4, args.reference_rows // 8), args.repeats)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
