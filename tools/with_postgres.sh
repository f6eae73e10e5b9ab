#!/usr/bin/env bash
# Run a command next to a throwaway PostgreSQL server on loopback, then stop the server.
#
#   tools/with_postgres.sh COMMAND [ARGS...]
#
# Installs the Debian package `postgresql` when no server binaries are found, initialises a
# cluster in a temporary directory (password authentication on 127.0.0.1, a free port),
# creates the database `holdem_test`, exports HOLDEM_LAB_PG_URL for the command, and stops
# and deletes the cluster afterwards, whatever the command's outcome. Exits with the command's
# status, or 3 with a message when the server cannot be installed or started.
set -euo pipefail

fail() { echo "with_postgres: error: $*" >&2; exit 3; }
# The client package also fills /usr/lib/postgresql/N/bin: look for the server itself.
server_bin() {
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1) || return 0
  [ -z "$found" ] || [ ! -x "${found%/initdb}/postgres" ] || dirname "$found"
}

[ $# -ge 1 ] || fail "usage: tools/with_postgres.sh COMMAND [ARGS...]"

PGBIN=$(server_bin || true)
if [ -z "$PGBIN" ]; then
  command -v apt-get >/dev/null || fail "no PostgreSQL server and no apt-get to install one"
  SUDO=()
  [ "$(id -u)" -eq 0 ] || SUDO=(sudo)
  echo "with_postgres: installing PostgreSQL from Debian's packages ..." >&2
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 \
    || fail "apt-get update failed: cannot install PostgreSQL"
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2 \
    || fail "apt-get install postgresql failed"
  PGBIN=$(server_bin || true)
  [ -n "$PGBIN" ] || fail "the postgresql package installed no server under /usr/lib/postgresql"
fi

WORK=$(mktemp -d /tmp/holdem-pg.XXXXXX)
RUNAS=()
if [ "$(id -u)" -eq 0 ]; then  # the server refuses to run as root
  id postgres >/dev/null 2>&1 || fail "running as root but there is no 'postgres' user"
  chown postgres: "$WORK"
  RUNAS=(runuser -u postgres --)
fi
PASSWORD=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
printf '%s\n' "$PASSWORD" > "$WORK/password"
[ "$(id -u)" -ne 0 ] || chown postgres: "$WORK/password"

cleanup() {
  "${RUNAS[@]}" "$PGBIN/pg_ctl" -D "$WORK/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

"${RUNAS[@]}" "$PGBIN/initdb" -D "$WORK/data" -U holdem --pwfile="$WORK/password" \
  --auth-host=scram-sha-256 --auth-local=trust -E UTF8 >"$WORK/initdb.log" 2>&1 \
  || { cat "$WORK/initdb.log" >&2; fail "initdb failed"; }
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${RUNAS[@]}" "$PGBIN/pg_ctl" -D "$WORK/data" -l "$WORK/server.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $PORT -k $WORK -c max_connections=200" start >/dev/null \
  || { cat "$WORK/server.log" >&2; fail "the PostgreSQL server did not start"; }
PGPASSWORD="$PASSWORD" "$PGBIN/createdb" -h 127.0.0.1 -p "$PORT" -U holdem holdem_test \
  || fail "cannot create the test database"

export HOLDEM_LAB_PG_URL="postgresql://holdem:$PASSWORD@127.0.0.1:$PORT/holdem_test"
echo "with_postgres: PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT" >&2
set +e
"$@"
status=$?
set -e
exit "$status"
