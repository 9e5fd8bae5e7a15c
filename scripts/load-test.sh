#!/usr/bin/env bash
# Bounded load test of `ur serve`, on 127.0.0.1 only (make load).
# Starts `ur serve` on a free port with a temporary --data directory, runs ur_load against it,
# then stops the server with SIGINT (a clean shutdown) and removes the temporary data.
# Usage: scripts/load-test.sh [path/to/ur] [ur_load options...]
#   Without options, `make load`'s run: 1,000 concurrent online games (2,000 WebSocket
#   clients, think times 0.5-2 s), every result confirmed by the game's replayed record;
#   it fails on any error, on the time limit, or when a target is missed (server time per
#   action p99 < 20 ms, a move reaching the opponent p99 < 50 ms).
#   With options, one ur_load run with exactly those (ur_load --help lists them), e.g.
#   `--games 10` or `--mode computer --games 500 --level hard`.
# Environment: UR_LOAD, the ur_load binary (default: src/server/ur_load beside ur).
# Exit status: ur_load's (0 all well, 1 errors or a missed target, 3 the time limit).
set -euo pipefail

ur=build/release/ur
if [[ $# -gt 0 && $1 != -* ]]; then
  ur=$1
  shift
fi
load=${UR_LOAD:-"$(dirname "$ur")/src/server/ur_load"}
for tool in "$ur" "$load"; do
  if [[ ! -x $tool ]]; then
    echo "load-test: $tool is missing; build first (make build)" >&2
    exit 2
  fi
done
if [[ $# -eq 0 ]]; then
  set -- --games 1000 --think-min-ms 500 --think-max-ms 2000 --max-seconds 900 --require-targets
fi

# 2,000 sockets on each side: the server and ur_load both need more than the usual 1,024
# file descriptors (ur_load raises its own limit too).
ulimit -n "$(ulimit -Hn)"

data=$(mktemp -d)
log="$data/serve.log"
server_pid=""
cleanup() {
  if [[ -n $server_pid ]] && kill -0 "$server_pid" 2> /dev/null; then
    kill -INT "$server_pid" 2> /dev/null || true
    wait "$server_pid" 2> /dev/null || true
  fi
  rm -rf "$data"
}
trap cleanup EXIT

: > "$log"  # there before the server writes to it, so the port look-up never misses it
"$ur" serve --host 127.0.0.1 --port 0 --data "$data" --quiet > "$log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 100); do
  port=$(sed -n 's|^ur serve: open http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$log")
  [[ -n $port ]] && break
  if ! kill -0 "$server_pid" 2> /dev/null; then break; fi
  sleep 0.1
done
if [[ -z $port ]]; then
  echo "load-test: ur serve did not start:" >&2
  cat "$log" >&2
  exit 1
fi
echo "load-test: ur serve on 127.0.0.1:$port, data in $data"
echo "load-test: $load --port $port $*"

status=0
"$load" --port "$port" "$@" || status=$?

kill -INT "$server_pid"
stop_begin=$(date +%s)
serve_status=0
wait "$server_pid" || serve_status=$?
server_pid=""
if [[ $serve_status -eq 0 ]]; then
  echo "load-test: ur serve stopped cleanly in $(( $(date +%s) - stop_begin )) s"
else
  echo "load-test: ur serve exited with $serve_status; its log:" >&2
  tail -20 "$log" >&2
  [[ $status -eq 0 ]] && status=1
fi
exit "$status"
