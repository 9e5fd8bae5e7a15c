#!/usr/bin/env bash
# Bounded load test of two `ur serve` on one PostgreSQL, on 127.0.0.1 and a Unix socket only
# (make load-cluster). Starts a throwaway cluster (scripts/pg-cluster.sh), two `ur serve
# --database URL` on free ports, and ur_load with each game's host on the first server and its
# friend on the second, so every move reaches the opponent across servers (LISTEN/NOTIFY).
# Then stops the servers with SIGTERM (a clean drain) and removes the cluster.
# Usage: scripts/load-cluster.sh [path/to/ur] [ur_load options...]
#   Without options, `make load-cluster`'s run: 1,000 concurrent online games (think times
#   0.5-2 s, as `make load`), every result confirmed by its replayed record; it fails on any
#   error, on the time limit, or a missed target (server time per action p99 < 30 ms, a move
#   reaching the opponent on the other server p99 < 100 ms).
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
    echo "load-cluster: $tool is missing; build first (make build)" >&2
    exit 2
  fi
done
if [[ $# -eq 0 ]]; then
  set -- --games 1000 --think-min-ms 500 --think-max-ms 2000 --max-seconds 900 --require-targets
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# 2,000 sockets spread over two servers, and ur_load holding all of them.
ulimit -n "$(ulimit -Hn)"

work=$(mktemp -d /tmp/ur-load-cluster.XXXXXX)
chmod 755 "$work"
cluster="$work/pg"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do
    if kill -0 "$pid" 2> /dev/null; then
      kill -TERM "$pid" 2> /dev/null || true
      wait "$pid" 2> /dev/null || true
    fi
  done
  "$here/pg-cluster.sh" stop "$cluster" || true
  rm -rf "$work"
}
trap cleanup EXIT

url=$("$here/pg-cluster.sh" start "$cluster")
echo "load-cluster: PostgreSQL at ${url/:ur-test@/@} ($(psql -X -t -A "$url" -c 'show server_version'))"

ports=()
for i in 1 2; do
  log="$work/serve-$i.log"
  mkdir -p "$work/data-$i"
  : > "$log"  # there before the server writes to it, so the port look-up never misses it
  "$ur" serve --host 127.0.0.1 --port 0 --data "$work/data-$i" --database "$url" --quiet \
    > "$log" 2>&1 &
  pids+=($!)
  port=""
  for _ in $(seq 200); do
    port=$(sed -n 's|^ur serve: open http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$log")
    [[ -n $port ]] && break
    if ! kill -0 "${pids[-1]}" 2> /dev/null; then break; fi
    sleep 0.1
  done
  if [[ -z $port ]]; then
    echo "load-cluster: ur serve $i did not start:" >&2
    cat "$log" >&2
    exit 1
  fi
  ports+=("$port")
done
echo "load-cluster: two ur serve on 127.0.0.1:${ports[0]} and 127.0.0.1:${ports[1]}"
echo "load-cluster: $load --port ${ports[0]} --friend-port ${ports[1]} $*"

status=0
"$load" --port "${ports[0]}" --friend-port "${ports[1]}" "$@" || status=$?

for i in 0 1; do
  kill -TERM "${pids[$i]}"
  serve_status=0
  wait "${pids[$i]}" || serve_status=$?
  if [[ $serve_status -ne 0 ]]; then
    echo "load-cluster: ur serve $((i + 1)) exited with $serve_status; its log:" >&2
    tail -20 "$work/serve-$((i + 1)).log" >&2
    [[ $status -eq 0 ]] && status=1
  fi
done
pids=()
echo "load-cluster: both servers stopped"
exit "$status"
