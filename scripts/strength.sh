#!/usr/bin/env bash
# Strength of the agents and levels (issue 3): the matches behind docs/strength.md.
# Usage: scripts/strength.sh [UR_BINARY] [GAMES] [EXPERT_GAMES]
#   UR_BINARY     default build/release/ur
#   GAMES         games per match, default 2000
#   EXPERT_GAMES  games for the match with expert (slow), default GAMES
# Each match uses seed 1 and every core; results depend only on the seed, not on threads.
set -euo pipefail
ur=${1:-build/release/ur}
games=${2:-2000}
expert_games=${3:-$games}
if [[ ! -x $ur ]]; then
  echo "strength.sh: no ur binary at $ur (build it with make build)" >&2
  exit 2
fi

run() {
  local n=$1
  shift
  echo "\$ ur match $* --games $n --seed 1"
  "$ur" match "$@" --games "$n" --seed 1
  echo
}

# The targets.
run "$games" hard random
run "$games" hard greedy
run "$games" easy random
run "$games" easy hard
run "$expert_games" expert hard
# The ladder below the levels.
run "$games" greedy random
run "$games" medium greedy
run "$games" medium hard
