#!/usr/bin/env bash
# Strength of the agents and levels (issue 3): the matches behind docs/strength.md.
# Usage: scripts/strength.sh [UR_BINARY] [GAMES] [EXPERT_GAMES]
#   UR_BINARY     default build/release/ur
#   GAMES         games per match, default 2000
#   EXPERT_GAMES  games for the match with expert (slow), default GAMES
# Each match uses seed 1 and every core; results depend only on the seed, not on threads.
# With a solved 7-piece table (ur solve --pieces 7, or UR_TABLE=FILE) every match also rates
# each move by the table (--judge), and each agent plays a match against perfect.
set -euo pipefail
ur=${1:-build/release/ur}
games=${2:-2000}
expert_games=${3:-$games}
if [[ ! -x $ur ]]; then
  echo "strength.sh: no ur binary at $ur (build it with make build)" >&2
  exit 2
fi

table=${UR_TABLE:-${XDG_DATA_HOME:-$HOME/.local/share}/ur/ur-7p-exact.table}
judge=()
if [[ -f $table ]]; then
  judge=(--judge "$table")
else
  echo "strength.sh: no solved table at $table: no move ratings, no matches against perfect" >&2
fi

run() {
  local n=$1
  shift
  echo "\$ ur match $* --games $n --seed 1 ${judge[*]}"
  "$ur" match "$@" --games "$n" --seed 1 "${judge[@]}"
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
run "$games" greedy heuristic
# Each agent against perfect play, with its mean loss of win chance per move.
if [[ -f $table ]]; then
  for agent in random first last greedy heuristic easy medium hard; do
    run "$games" "$agent" "perfect:$table"
  done
  run "$expert_games" expert "perfect:$table"
fi
