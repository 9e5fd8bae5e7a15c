#!/usr/bin/env bash
# Browser tests of the web game: scripts/run-e2e.sh path/to/ur [playwright test arguments]
# (for example `scripts/run-e2e.sh build/release/ur specs/table-build.spec.js` runs one file).
# Starts `ur serve` on a port it picks, with a throw-away data directory (also its XDG_DATA_HOME,
# so tables the user solved do not change what is tested), waits for /api/health, runs the
# Playwright tests in Debian's Chromium, stops the server and exits with the tests' status.
# Screenshots go to build/e2e-screenshots/.
set -euo pipefail

ur_binary=${1:-build/release/ur}
if [[ $# -gt 0 ]]; then shift; fi
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
e2e_dir="$repo_root/tests/e2e"

if [[ ! -x "$ur_binary" ]]; then
  echo "run-e2e: '$ur_binary' is not an executable ur binary (build it first: make build)" >&2
  exit 2
fi
ur_binary=$(cd "$(dirname "$ur_binary")" && pwd)/$(basename "$ur_binary")
if ! "$ur_binary" serve --help > /dev/null 2>&1; then
  echo "run-e2e: '$ur_binary' has no 'serve' command (the server area is not built)" >&2
  exit 2
fi
if [[ ! -x /usr/bin/chromium ]]; then
  echo "run-e2e: /usr/bin/chromium is missing (scripts/install-deps.sh installs it)" >&2
  exit 2
fi

if [[ ! -d "$e2e_dir/node_modules/@playwright/test" ]]; then
  echo "run-e2e: installing @playwright/test (browser download skipped: Debian's Chromium is used)"
  (cd "$e2e_dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi

data_dir=$(mktemp -d "${TMPDIR:-/tmp}/ur-e2e.XXXXXX")
server_log="$data_dir/server.log"
server_pid=""

cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2> /dev/null; then
    kill -INT "$server_pid" 2> /dev/null || true
    for _ in $(seq 50); do
      kill -0 "$server_pid" 2> /dev/null || break
      sleep 0.1
    done
    kill -KILL "$server_pid" 2> /dev/null || true
  fi
  rm -rf "$data_dir"
}
trap cleanup EXIT

# Port 0: the system picks a free port at bind time (no race with another process for a port
# chosen earlier), which the server names in its "open http://127.0.0.1:PORT/" line.
: > "$server_log"
XDG_DATA_HOME="$data_dir" "$ur_binary" serve --host 127.0.0.1 --port 0 --data "$data_dir" --quiet > "$server_log" 2>&1 &
server_pid=$!

port=""
for _ in $(seq 300); do
  port=$(sed -n 's|.*open http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$server_log" | head -n 1)
  [[ -n "$port" ]] && break
  kill -0 "$server_pid" 2> /dev/null || break
  sleep 0.1
done
if [[ -z "$port" ]]; then
  echo "run-e2e: ur serve did not start within 30 s; its output:" >&2
  cat "$server_log" >&2
  exit 1
fi
base_url="http://127.0.0.1:$port"
if ! node -e "
  const deadline = Date.now() + 20000;
  (async () => {
    while (Date.now() < deadline) {
      try { const r = await fetch('$base_url/api/health'); if (r.ok) process.exit(0); } catch {}
      await new Promise((f) => setTimeout(f, 100));
    }
    process.exit(1);
  })();"; then
  echo "run-e2e: ur serve did not answer /api/health within 20 s; its output:" >&2
  cat "$server_log" >&2
  exit 1
fi

mkdir -p "$repo_root/build/e2e-screenshots"
status=0
# UR_BINARY and UR_DATA_DIR let a test put a small solved table where the server looks.
(cd "$e2e_dir" && UR_BASE_URL="$base_url" UR_SCREENSHOTS="$repo_root/build/e2e-screenshots" \
  UR_BINARY="$ur_binary" UR_DATA_DIR="$data_dir" npx --no-install playwright test "$@") || status=$?
if [[ $status -ne 0 ]]; then
  echo "run-e2e: browser tests failed; server output:" >&2
  tail -n 40 "$server_log" >&2
fi
exit $status
