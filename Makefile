# ur: the two Quick start commands are `make run` and `make test`.
# Each installs what is missing, builds, then does its job.
PRESET ?= release
JOBS ?= 2
BUILD := build/$(PRESET)
UR := $(BUILD)/ur

.PHONY: all deps build run play test test-unit test-asan test-e2e bench strength solve7 load load-cluster format clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake --preset $(PRESET) > /dev/null
	@cmake --build --preset $(PRESET) -j $(JOBS)

# The main job: the game.
run: build
	@if $(UR) serve --help > /dev/null 2>&1; then exec $(UR) serve; else $(UR) --help; fi

# The terminal game.
play: build
	$(UR) play

# Unit, property, protocol and end-to-end tests (under 15 minutes on 2 cores).
test: build
	ctest --preset $(PRESET)
	@if [ -f tests/e2e/package.json ]; then $(MAKE) --no-print-directory test-e2e; fi

test-asan:
	@$(MAKE) --no-print-directory build PRESET=asan
	ctest --preset asan

test-e2e:
	@scripts/run-e2e.sh $(UR)

bench: build
	$(UR) perft --depth 9
	$(UR) bench
	$(BUILD)/bench/ur_bench

# Agent ladder and level strength (long; not part of `make test`).
strength: build
	scripts/strength.sh $(UR)

# The full 7-piece solve into the default table location (minutes; not part of `make test`).
solve7: build
	$(UR) solve --pieces 7

# Every named set's full solve into its default table (finkel, blitz, aseb under a minute each;
# masters about 9 minutes on two free cores and 6.5 GiB; not part of `make test`).
.PHONY: solve-all solve-masters solve-check
solve-all: build
	$(UR) solve --rules finkel
	$(UR) solve --rules blitz
	$(UR) solve --rules aseb
	$(UR) solve --rules masters

solve-masters: build
	$(UR) solve --rules masters

# Solves each SET:PIECES and checks the first mover's start value against the published one
# (percent) within 1e-7 (1e-5 points); aseb's value is ur's own (docs/performance.md).
# Restrict with e.g. `make solve-check SOLVE_CHECKS="finkel:5:51.6026115569"`.
SOLVE_CHECKS ?= finkel:5:51.6026115569 finkel:7:51.5404732509 blitz:5:50.4052555093 \
	aseb:5:50.6492153012 masters:7:50.4809002027
solve-check: build
	@for check in $(SOLVE_CHECKS); do \
	  set=$${check%%:*}; rest=$${check#*:}; pieces=$${rest%%:*}; want=$${rest#*:}; \
	  got=$$($(UR) solve --rules $$set --pieces $$pieces | \
	    sed -n 's/^start value (light to move) \([0-9.]*\)%$$/\1/p'); \
	  awk -v set=$$set -v pieces=$$pieces -v got="$$got" -v want=$$want 'BEGIN { \
	    d = got - want; if (d < 0) d = -d; ok = got != "" && d <= 1e-5; \
	    printf "%s %s pieces: start value %s%%, expected %s%%: %s\n", set, pieces, got, want, \
	      ok ? "ok" : "MISMATCH"; exit !ok }' || exit 1; \
	done

# Bounded load test of `ur serve` on 127.0.0.1 only: 1,000 concurrent online games (2,000
# WebSocket clients), every result checked against its replayed record (minutes; not part of
# `make test`, which runs 10 such games). LOAD_ARGS replaces the run's ur_load options, e.g.
# `make load LOAD_ARGS="--mode computer --games 500"`.
load: build
	scripts/load-test.sh $(UR) $(LOAD_ARGS)

# The same 1,000 online games over two `ur serve` on one throwaway PostgreSQL (issue 17): each
# game's friend plays through the second server, so every move crosses servers. Targets: 0
# errors, p99 action < 30 ms, p99 cross-server delivery < 100 ms (minutes; not in `make test`).
load-cluster: build
	scripts/load-cluster.sh $(UR) $(LOAD_ARGS)

format:
	@git ls-files '*.cpp' '*.h' | xargs clang-format -i

clean:
	rm -rf build
