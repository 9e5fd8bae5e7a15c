#!/usr/bin/env bash
# Bounded load test of `ur serve`, on 127.0.0.1 only (make load).
# Starts `ur serve` on a free port with a temporary --data directory, then runs ur_load twice:
#   1. latency: 20 games against the `hard` computer on one client thread (one request at a
#      time, so the server's time for a computer turn is measured without queueing);
#   2. load: 500 concurrent games, computer against computer through the API.
# Stops the server with SIGINT (a clean shutdown) and removes the temporary data.
# Usage: scripts/load-test.sh [path/to/ur]   (ur_load is found in the same build tree)
# Environment: UR_LOAD_GAMES (500), UR_LOAD_LEVEL (hard), UR_LOAD_SECONDS (600 per phase).
set -euo pipefail

ur=${1:-build/release/ur}
load="$(dirname "$ur")/src/server/ur_load"
games=${UR_LOAD_GAMES:-500}
level=${UR_LOAD_LEVEL:-hard}
seconds=${UR_LOAD_SECONDS:-600}
for tool in "$ur" "$load"; do
  if [[ ! -x $tool ]]; then
    echo "load-test: $tool is missing; build first (make build)" >&2
    exit 2
  fi
done

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

echo "== latency: 20 games against $level, one request at a time"
"$load" --port "$port" --games 20 --threads 1 --level "$level" --max-seconds "$seconds"
echo "== load: $games concurrent games against $level"
"$load" --port "$port" --games "$games" --threads 16 --level "$level" --max-seconds "$seconds"

kill -INT "$server_pid"
stop_begin=$(date +%s)
wait "$server_pid"
status=$?
server_pid=""
echo "load-test: ur serve stopped cleanly (exit $status) in $(( $(date +%s) - stop_begin )) s"
