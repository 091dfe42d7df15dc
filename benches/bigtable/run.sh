#!/usr/bin/env bash
# Bigtable figures for the README, one run, side by side: rowkey's store (the large-table test at
# ROWKEY_BT_ROWS rows, release build) and Google's Python client on the same emulator.
# Usage: benches/bigtable/run.sh [rows]   (default 1,000,000; needs BIGTABLE_EMULATOR_HOST or
# the emulator .ci/run builds in target/ci). Installs google-cloud-bigtable with pip (not in CI).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROWS="${1:-1000000}"
if [ -z "${BIGTABLE_EMULATOR_HOST:-}" ]; then
  PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  target/ci/cbtemulator -host 127.0.0.1 -port "$PORT" >/dev/null 2>&1 &
  trap 'kill $! 2>/dev/null || true' EXIT
  sleep 1
  export BIGTABLE_EMULATOR_HOST="127.0.0.1:$PORT"
fi
ROWKEY_BT_ROWS="$ROWS" cargo test --release -p rowkey-tests --features bigtable --test bigtable \
  a_large_salted_table -- --nocapture 2>&1 | grep -E "rows/s|test result"
python3 -m pip install -q google-cloud-bigtable >/dev/null
python3 benches/bigtable/python_client.py "$ROWS"
