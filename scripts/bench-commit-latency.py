#!/usr/bin/env python3
"""The disk's floor under AUTHORIZE latency, for scripts/bench-http: the latency of one durable
SQLite commit (WAL, synchronous=FULL, as the gateway writes) of a 3 KiB row, one at a time.

  bench-commit-latency.py DIRECTORY [COMMITS]

A 201 waits for its commit, so no AUTHORIZE percentile can be lower than this one measured on
the same disk in the same run. Last line: `commit_latency: commits=N p50_ms=A p99_ms=B p999_ms=C max_ms=D`. Under group commit one slow
commit delays every request that arrives while it lasts, so the p99.9 and maximum matter too.
"""

import os
import sqlite3
import sys
import time

directory = sys.argv[1]
commits = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
path = os.path.join(directory, "commit-latency.sqlite")
connection = sqlite3.connect(path, isolation_level=None)
connection.execute("PRAGMA journal_mode = WAL")
connection.execute("PRAGMA synchronous = FULL")
connection.execute("CREATE TABLE rows (body BLOB)")
latencies = []
for _ in range(commits):
    started = time.perf_counter()
    connection.execute("BEGIN")
    connection.execute("INSERT INTO rows VALUES (?)", (os.urandom(3072),))
    connection.execute("COMMIT")
    latencies.append((time.perf_counter() - started) * 1000)
    time.sleep(0.002)  # the disk idles between commits, as it does at a moderate rate
connection.close()
latencies.sort()


def percentile(p):
    return latencies[min(len(latencies) - 1, int(p * len(latencies)))]


print(
    f"commit_latency: commits={commits} p50_ms={percentile(0.5):.2f} p99_ms={percentile(0.99):.2f}"
    f" p999_ms={percentile(0.999):.2f} max_ms={latencies[-1]:.2f}"
)
