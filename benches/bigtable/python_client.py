"""The same rows through Google's Python client (google-cloud-bigtable), for the README's
side-by-side figures: put and full-scan rows/s against the emulator at BIGTABLE_EMULATOR_HOST.

The rows are shaped like the Rust benchmark's (tests/bigtable.rs, `Event`): a salt byte, an
8-byte user id, an 8-byte kind, an 8-byte reverse timestamp, a 16-byte value in family `d`,
qualifier `v`; written in batches of 10,000 with `mutate_rows`, read back with one
`read_rows` per salt bucket, one after another (the Python client has no merge).
"""
import os
import struct
import sys
import time

from google.cloud import bigtable
from google.cloud.bigtable import column_family

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
client = bigtable.Client(project="p", admin=True)
instance = client.instance("i")
table = instance.table(f"py_{os.getpid()}")
table.create(column_families={"d": column_family.MaxVersionsGCRule(1)})

value = bytes([7]) * 16
t = time.time()
batch = []
for i in range(n):
    user = i % 5003
    key = bytes([user % 16]) + struct.pack(">Q", user) + b"click\0\0\0" + struct.pack(">Q", (1 << 63) - 1 - (1_700_000_000_000 + i * 7))
    row = table.direct_row(key)
    row.set_cell("d", b"v", value)
    batch.append(row)
    if len(batch) == 10_000:
        table.mutate_rows(batch)
        batch = []
if batch:
    table.mutate_rows(batch)
put = n / (time.time() - t)

t = time.time()
count = 0
for bucket in range(16):
    for _ in table.read_rows(start_key=bytes([bucket]), end_key=bytes([bucket + 1])):
        count += 1
scan = count / (time.time() - t)
assert count == n, (count, n)
print(f"python google-cloud-bigtable, {n} rows: put {put:.0f} rows/s; scan {scan:.0f} rows/s")
