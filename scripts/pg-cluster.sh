#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and load runs: Unix socket only (no TCP port),
# password authentication, one database `ur` owned by the superuser `ur`.
#
#   pg-cluster.sh start DIR    initdb into DIR, start it, print its URL on stdout:
#                              postgresql://ur:ur-test@/ur?host=DIR
#   pg-cluster.sh down DIR     stop the server, keep the data (a fault test's outage)
#   pg-cluster.sh up DIR       start it again after `down`
#   pg-cluster.sh restart DIR  down, then up
#   pg-cluster.sh stop DIR     stop the server and remove DIR
#
# DIR must be an absolute path short enough for a socket name (DIR/.s.PGSQL.5432, at most
# 107 bytes). Run as root, the PostgreSQL processes run as `nobody` (PostgreSQL refuses root),
# and DIR is handed to that user. Every step is bounded in time (PG_TIMEOUT seconds, 30 by
# default). PG_BIN picks the PostgreSQL programs; otherwise the newest Debian version is used.
set -euo pipefail

readonly password="ur-test"
readonly timeout_seconds="${PG_TIMEOUT:-30}"

die() {
  echo "pg-cluster.sh: $*" >&2
  exit 2
}

usage() {
  die "usage: pg-cluster.sh start|stop|down|up|restart DIR (DIR absolute)"
}

(($# == 2)) || usage
command=$1
dir=${2%/}
[[ "$dir" == /* ]] || die "DIR must be an absolute path, not '$2'"
((${#dir} + 15 <= 107)) || die "DIR '$dir' is too long for a Unix socket path (at most 92 bytes)"

find_bin() {
  if [[ -n "${PG_BIN:-}" ]]; then
    echo "$PG_BIN"
    return
  fi
  local candidate
  candidate=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -n 1 || true)
  if [[ -n "$candidate" && -x "$candidate/initdb" ]]; then
    echo "$candidate"
  elif command -v initdb > /dev/null 2>&1; then
    dirname "$(command -v initdb)"
  else
    die "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb); run scripts/install-deps.sh"
  fi
}
bin=$(find_bin)
[[ -x "$bin/initdb" && -x "$bin/pg_ctl" ]] || die "no initdb and pg_ctl in $bin"

# The user PostgreSQL runs as: ourselves, or `nobody` when we are root.
run_user=""
if [[ $(id -u) -eq 0 ]]; then run_user=nobody; fi

as_owner() {
  if [[ -n "$run_user" ]]; then
    timeout "$timeout_seconds" setpriv --reuid="$run_user" --regid="$(id -g "$run_user")" \
      --clear-groups -- "$@"
  else
    timeout "$timeout_seconds" "$@"
  fi
}

data="$dir/data"
log="$dir/server.log"

server_up() {
  as_owner "$bin/pg_ctl" -D "$data" -l "$log" -w -t "$timeout_seconds" start > /dev/null ||
    die "the server in $dir did not start; see $log: $(tail -n 3 "$log" 2> /dev/null | tr '\n' ' ')"
}

server_down() {
  [[ -f "$data/postmaster.pid" ]] || return 0
  if ! as_owner "$bin/pg_ctl" -D "$data" -m fast -w -t "$timeout_seconds" stop > /dev/null; then
    # Did not stop in time: end the postmaster (its first pid line) and its children.
    local pid
    pid=$(head -n 1 "$data/postmaster.pid" 2> /dev/null || true)
    [[ -n "$pid" ]] && kill -9 "$pid" 2> /dev/null || true
    sleep 1
  fi
}

case "$command" in
  start)
    [[ ! -e "$data" ]] || die "$dir already holds a cluster; stop it first"
    mkdir -p "$dir"
    chmod 700 "$dir"
    printf '%s\n' "$password" > "$dir/password"
    if [[ -n "$run_user" ]]; then
      chown -R "$run_user" "$dir"
      as_owner test -w "$dir" ||
        die "$run_user cannot reach $dir (is a parent directory private?); use a directory under /tmp"
    fi
    as_owner "$bin/initdb" -D "$data" -U ur --auth=scram-sha-256 --pwfile="$dir/password" \
      --encoding=UTF8 --locale=C > "$dir/initdb.log" 2>&1 ||
      die "initdb failed; see $dir/initdb.log: $(tail -n 3 "$dir/initdb.log" | tr '\n' ' ')"
    {
      echo "listen_addresses = ''"
      echo "unix_socket_directories = '$dir'"
      echo "max_connections = 200"
    } >> "$data/postgresql.conf"
    server_up
    PGPASSWORD="$password" timeout "$timeout_seconds" "$bin/createdb" -h "$dir" -U ur ur ||
      die "could not create database ur in $dir"
    echo "postgresql://ur:$password@/ur?host=$dir"
    ;;
  down)
    [[ -d "$data" ]] || die "no cluster in $dir"
    server_down
    ;;
  up)
    [[ -d "$data" ]] || die "no cluster in $dir"
    server_up
    ;;
  restart)
    [[ -d "$data" ]] || die "no cluster in $dir"
    server_down
    server_up
    ;;
  stop)
    if [[ -d "$data" ]]; then server_down; fi
    rm -rf "$dir"
    ;;
  *)
    usage
    ;;
esac
