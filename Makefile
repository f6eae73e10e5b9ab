# Every target bootstraps .venv by itself on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The rl extra's torch: the CPU build that lies on this kind of machine's disk. Named
# explicitly because a plain torch requirement would download a CUDA build of several GB.
TORCH ?= torch==2.13.0

.PHONY: test lint typecheck pytest match tune bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet '$(TORCH)'
	$(BIN)/python -m pip install --quiet -e '.[dev,rl,postgres,pettingzoo,dashboard]' '$(TORCH)'
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# The PostgreSQL integration tests need a server: tools/with_postgres.sh installs (Debian
# package) and starts a throwaway one on loopback, and stops it afterwards.
pytest: $(STAMP)
	HOLDEM_LAB_REQUIRE_PG=1 tools/with_postgres.sh $(BIN)/pytest -n 2 --durations=15

## make test: lint, type check and the full test suite
test: lint typecheck pytest

## make tune: the default tuning study on 2 cores -> runs/default/ (ignored by git: the
## committed evidence in results/ is never touched), ending with the confirmed answer in words
tune: $(STAMP)
	$(BIN)/holdem-lab tune --study default --workers 2

## make match: a short duplicate match of the baseline bots, printed as a table
match: $(STAMP)
	$(BIN)/holdem-lab match random call raise rule --hands 4000 --seed 1

## make bench: every benchmark, written to results/benchmarks.md (run it on a quiet machine)
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,rl,postgres,bench]' '$(TORCH)'
	$(BIN)/python benchmarks/bench_engine.py --write results/benchmarks.md
	$(BIN)/python benchmarks/bench_batched.py --write results/benchmarks.md
	$(BIN)/python benchmarks/bench_vector_env.py --write results/benchmarks.md
	$(BIN)/python benchmarks/bench_bpp.py --write results/benchmarks.md
	$(BIN)/python benchmarks/bench_bpp_batched.py --write results/benchmarks.md
	$(BIN)/python benchmarks/bench_runner.py --write results/benchmarks.md
	$(BIN)/python benchmarks/bench_loki.py --write results/benchmarks.md
	$(BIN)/python benchmarks/bench_lbr.py --write results/benchmarks.md
	$(BIN)/python benchmarks/bench_training.py --write results/benchmarks.md
	$(BIN)/python benchmarks/bench_best_response.py --write results/benchmarks.md
	tools/with_postgres.sh $(BIN)/python benchmarks/bench_workers.py --write results/benchmarks.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
