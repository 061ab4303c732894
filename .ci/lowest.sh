#!/usr/bin/env bash
# The lowest-versions run (`make lowest`): moji installed in a fresh venv with every runtime
# dependency at the floor pyproject.toml allows (constraints-lowest.txt pins each with ==),
# then the adapter, storage (SQLite and PostgreSQL), bot and web tests. A floor that no longer
# passes fails this run, so pyproject.toml's lower bounds stay true.
#
# Settings: PYTHON (default python3), LOWEST_VENV (default build/lowest-venv, recreated each
# run), MOJI_TEST_POSTGRES_URL (.ci/run exports it; if unset, .ci/postgres.sh starts a server,
# which CI requires and a developer's machine may lack: then the PostgreSQL tests are skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

PYTHON="${PYTHON:-python3}"
VENV="${LOWEST_VENV:-build/lowest-venv}"

if [ -z "${MOJI_TEST_POSTGRES_URL:-}" ]; then
  # postgres.sh stops its server when its parent exits: run it as this shell's own child
  # (not inside $(…)), so the server lives as long as this script.
  mkdir -p build
  if bash .ci/postgres.sh > build/lowest-postgres.env; then
    eval "$(cat build/lowest-postgres.env)"
  elif [ "${CI:-}" = "true" ]; then
    exit 1
  else
    echo "lowest: no PostgreSQL (.ci/postgres.sh failed): its storage tests are skipped" >&2
  fi
fi
if [ "${CI:-}" = "true" ] && [ -z "${MOJI_TEST_POSTGRES_URL:-}" ]; then
  echo "lowest: CI needs MOJI_TEST_POSTGRES_URL" >&2
  exit 1
fi
export MOJI_TEST_POSTGRES_URL="${MOJI_TEST_POSTGRES_URL:-}"

echo "lowest: fresh venv in $VENV ($("$PYTHON" --version))"
"$PYTHON" -m venv --clear "$VENV"
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check -q)
"${PIP[@]}" install -e '.[dev]' -c constraints-lowest.txt

# The constraints must have taken: each pinned distribution is installed at exactly its pin.
"$VENV/bin/python" - constraints-lowest.txt <<'PY'
import re
import sys
from importlib.metadata import version

bad = []
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    name, pin = re.split(r"\s*==\s*", line)
    have = version(name)
    print(f"  {name}=={have}")
    if have != pin:
        bad.append(f"{name}: {have} installed, {pin} pinned")
if bad:
    sys.exit("lowest: constraints not applied: " + "; ".join(bad))
PY

"$VENV/bin/python" -m pytest -p no:cacheprovider tests/adapters tests/storage tests/bot tests/web
echo "lowest: passed in $(( $(date +%s) - started )) s"
