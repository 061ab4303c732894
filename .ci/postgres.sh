#!/usr/bin/env bash
# Start a throwaway PostgreSQL server for the storage tests.
#
# Installs PostgreSQL from Debian's packages when it is missing, initialises a
# cluster in a temporary folder (as a non-root user: initdb refuses root), starts
# it on a free local port and creates a database. Prints ONLY
#   export MOJI_TEST_POSTGRES_URL=postgresql://…
# on stdout (everything else goes to stderr), so `.ci/run` can
#   eval "$(bash .ci/postgres.sh)"
# The server stops and its folder is removed when the calling shell exits
# (MOJI_PG_KEEP=1 keeps it; stop it with `pg_ctl -D <dir>/data stop`).
set -euo pipefail
exec 3>&1 1>&2  # fd 3 is the real stdout; all chatter goes to stderr

find_bin() {
  local dir
  # Debian's versioned folders first (newest), then whatever PATH has (symlinks resolved).
  local candidates
  candidates="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r || true)"
  if command -v pg_ctl >/dev/null 2>&1; then
    candidates="$candidates $(dirname "$(readlink -f "$(command -v pg_ctl)")")"
  fi
  for dir in $candidates; do
    if [ -x "$dir/pg_ctl" ] && [ -x "$dir/initdb" ] && [ -x "$dir/postgres" ]; then
      echo "$dir"
      return 0
    fi
  done
  return 1
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if ! BIN="$(find_bin)"; then
  echo "postgres.sh: PostgreSQL not found; installing the Debian package" >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql
  BIN="$(find_bin)" || { echo "postgres.sh: PostgreSQL did not install" >&2; exit 1; }
fi
echo "postgres.sh: using $BIN" >&2

# initdb refuses to run as root: run the server as the 'postgres' user (or make one).
RUN=()
if [ "$(id -u)" -eq 0 ]; then
  if ! id -u postgres >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin postgres
  fi
  RUN=(runuser -u postgres --)
fi

DIR="$(mktemp -d "${TMPDIR:-/tmp}/moji-pg.XXXXXX")"
chmod 755 "$DIR"
mkdir -p "$DIR/socket"
if [ "${#RUN[@]}" -gt 0 ]; then chown -R postgres "$DIR"; fi

PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"

"${RUN[@]}" "$BIN/initdb" -D "$DIR/data" -U moji -A trust -E UTF8 --locale=C.UTF-8 --no-sync >&2 \
  || "${RUN[@]}" "$BIN/initdb" -D "$DIR/data" -U moji -A trust -E UTF8 --no-sync >&2
# A test server: no fsync (the crash test is on SQLite), small and local only.
# 3>&- : the server must not hold the caller's stdout open (eval "$(…)" would wait forever).
"${RUN[@]}" "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 3>&- \
  -o "-p $PORT -k $DIR/socket -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100" \
  start >&2 || { cat "$DIR/server.log" >&2; exit 1; }
if [ -x "$BIN/createdb" ]; then
  "${RUN[@]}" "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U moji moji_test >&2
else
  # no client tools next to the server: create the database in single-user mode is not
  # possible while it runs, so use the server's own SQL through psql if PATH has it
  psql -h 127.0.0.1 -p "$PORT" -U moji -d postgres -c "CREATE DATABASE moji_test" >&2
fi

if [ "${MOJI_PG_KEEP:-0}" != "1" ]; then
  WATCH="$PPID"
  (
    exec 3>&-
    while kill -0 "$WATCH" 2>/dev/null; do sleep 2; done
    "${RUN[@]}" "$BIN/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$DIR"
  ) </dev/null >/dev/null 2>&1 &
  disown || true
fi

echo "postgres.sh: PostgreSQL on 127.0.0.1:$PORT, data in $DIR" >&2
echo "export MOJI_TEST_POSTGRES_URL=postgresql://moji@127.0.0.1:$PORT/moji_test" >&3
