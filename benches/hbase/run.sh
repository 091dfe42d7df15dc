#!/usr/bin/env bash
# HBase figures for the README, one run, side by side on the same local HBase (hbase-local/run,
# 3 region servers) and the same keys: rowkey's HBase store through the Thrift2 gateway (the
# large-table test at ROWKEY_HBASE_ROWS rows, release build: one put_batch, then a merged scan
# of the 16 salt buckets) and HBase's own Java client (BufferedMutator writes of the same keys
# into a table with the same split points, then one scan with caching 5000).
# Usage: benches/hbase/run.sh [rows]   (default 1,000,000). Uses ROWKEY_HBASE_THRIFT and
# ROWKEY_HBASE_ZK when set; otherwise starts a local HBase for the run.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROWS="${1:-1000000}"
mkdir -p target/hbase-bench
if [ -z "${ROWKEY_HBASE_THRIFT:-}" ]; then
  PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  rm -f target/hbase-bench/ready target/hbase-bench/stdin
  mkfifo target/hbase-bench/stdin
  bash hbase-local/run --port "$PORT" --dir target/hbase-bench/data --ready-file target/hbase-bench/ready \
    <target/hbase-bench/stdin >target/hbase-bench/hbase.log 2>&1 &
  exec 7>target/hbase-bench/stdin
  while [ ! -f target/hbase-bench/ready ]; do sleep 0.5; done
  export ROWKEY_HBASE_THRIFT="127.0.0.1:$PORT"
  ROWKEY_HBASE_ZK="$(grep -o 'zk=[^ ]*' target/hbase-bench/ready | cut -d= -f2)"
  export ROWKEY_HBASE_ZK
  cat target/hbase-bench/ready
fi
KEYS="$PWD/target/hbase-bench/keys.hex"
ROWKEY_HBASE_ROWS="$ROWS" ROWKEY_HBASE_KEYS_OUT="$KEYS" cargo test --release --features hbase --test hbase \
  a_large_salted_table -- --nocapture 2>&1 | grep -E "rows/s|test result"
bash hbase-local/run --tool bench --zk "$ROWKEY_HBASE_ZK" --table "java_bench_$$" --keys "$KEYS" \
  <"$KEYS.splits" 2>/dev/null | sed 's/^BENCH \([0-9]*\) \([0-9]*\) \([0-9]*\)/HBase Java client, \1 rows: put \2 rows\/s (BufferedMutator); scan \3 rows\/s (one scan, caching 5000)/'
