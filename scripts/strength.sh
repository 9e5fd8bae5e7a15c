#!/usr/bin/env bash
# Strength of the agents and levels (issues 3 and 18): the matches behind docs/strength.md.
# Usage: scripts/strength.sh [UR_BINARY] [GAMES] [EXPERT_GAMES]
#        scripts/strength.sh --sets [UR_BINARY] [GAMES] [EXPERT_GAMES]
#   --sets        only the per-set matches: hard against greedy in every named set, and each
#                 level against perfect in every set whose table exists (ur solve --rules NAME
#                 writes it; tables are looked up where it writes them)
#   UR_BINARY     default build/release/ur
#   GAMES         games per match, default 2000
#   EXPERT_GAMES  games for the match with expert (slow), default GAMES
# Each match uses seed 1 and every core; results depend only on the seed, not on threads.
# With a solved 7-piece table (ur solve --pieces 7, or UR_TABLE=FILE) every match also rates
# each move by the table (--judge), and each agent plays a match against perfect.
set -euo pipefail
sets_only=false
if [[ ${1:-} == --sets ]]; then
  sets_only=true
  shift
fi
ur=${1:-build/release/ur}
games=${2:-2000}
expert_games=${3:-$games}
if [[ ! -x $ur ]]; then
  echo "strength.sh: no ur binary at $ur (build it with make build)" >&2
  exit 2
fi

tables=${XDG_DATA_HOME:-$HOME/.local/share}/ur
table=${UR_TABLE:-$tables/ur-7p-exact.table}
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

# Every named set at its own piece count: hard against greedy (issue 18: >= 75% each), and
# the levels against perfect play, each move rated by the set's table.
per_set() {
  local set pieces file
  for set in finkel masters blitz aseb; do
    echo "\$ ur match hard greedy --rules $set --games $games --seed 1"
    "$ur" match hard greedy --rules "$set" --games "$games" --seed 1
    echo
  done
  for set in finkel masters blitz aseb; do
    case $set in finkel | masters) pieces=7 ;; *) pieces=5 ;; esac
    if [[ $set == finkel ]]; then file=$tables/ur-7p-exact.table; else file=$tables/ur-$set-${pieces}p-exact.table; fi
    if [[ ! -f $file ]]; then
      echo "strength.sh: no table for $set at $file (ur solve --rules $set): no ladder" >&2
      continue
    fi
    for agent in random greedy easy medium hard expert; do
      local n=$games
      [[ $agent == expert ]] && n=$expert_games
      echo "\$ ur match $agent perfect:$file --rules $set --games $n --seed 1 --judge $file"
      "$ur" match "$agent" "perfect:$file" --rules "$set" --games "$n" --seed 1 --judge "$file"
      echo
    done
  done
}
if $sets_only; then
  per_set
  exit 0
fi

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

per_set
