#!/usr/bin/env python3
"""The disk's floor under AUTHORIZE latency, for scripts/bench-http: the latency of one durable
SQLite commit (WAL, synchronous=FULL, as the gateway writes), one at a time.

  bench-commit-latency.py DIRECTORY [COMMITS]
  bench-commit-latency.py DIRECTORY [COMMITS] --like GATEWAY_DATABASE

Without --like, each commit is one 3 KiB row in an empty table: the least a commit costs on this
disk. With --like, each commit is one AUTHORIZE record as the gateway writes it (a transaction, its
order and its replay record, with ids as random as real ones) into a copy of the gateway's own
database after a run, so its indexes are as deep and its pages as many as the server's commits;
and, as in the gateway, the log is checkpointed by a second connection on a thread of its own
(every 100 commits, about the gateway's 1,000 pages), not by the committing one.

A 201 waits for its commit, so no AUTHORIZE percentile can be lower than this one measured on
the same disk in the same run. Last line: `commit_latency: commits=N p50_ms=A p99_ms=B p999_ms=C
max_ms=D` (with --like: `record_commit_latency: ... wal_kib_per_commit=E`). Under group commit one
slow commit delays every request that arrives while it lasts, so the p99.9 and maximum matter too.
"""

import os
import shutil
import sqlite3
import sys
import threading
import time

arguments = [a for a in sys.argv[1:] if a != "--like"]
like = sys.argv[sys.argv.index("--like") + 1] if "--like" in sys.argv else None
if like:
    arguments.remove(like)
directory = arguments[0]
commits = int(arguments[1]) if len(arguments) > 1 else 2000
path = os.path.join(directory, "commit-latency.sqlite")
for suffix in ("", "-wal", "-shm"):
    if os.path.exists(path + suffix):
        os.remove(path + suffix)
if like:
    # The log too, in case the server left one: the database is the two together.
    for suffix in ("", "-wal"):
        if os.path.exists(like + suffix):
            shutil.copyfile(like + suffix, path + suffix)
connection = sqlite3.connect(path, isolation_level=None)
connection.execute("PRAGMA journal_mode = WAL")
connection.execute("PRAGMA synchronous = FULL")


def one_row():
    connection.execute("INSERT INTO rows VALUES (?)", (os.urandom(3072),))


def one_record():
    order = "floor-" + os.urandom(8).hex()
    milliseconds = int(time.time() * 1000)
    connection.execute(
        "INSERT INTO transactions (merchant_id, order_id, transaction_id, operation, request_hash, response_body,"
        " result, gateway_code, amount_minor, currency, apple_pay_transaction_id, created_at_ms, type, succeeded)"
        " VALUES ('TESTMERCHANT', ?, '1', 'AUTHORIZE', ?, ?, 'SUCCESS', 'APPROVED', 5656, 'USD', ?, ?, 'AUTHORIZATION', 1)",
        (order, os.urandom(32), response, token, milliseconds),
    )
    connection.execute(
        "INSERT INTO orders (merchant_id, order_id, currency, amount_minor, status, total_authorized_minor,"
        " total_captured_minor, total_refunded_minor, wallet_provider, initial_succeeded, created_at_ms, updated_at_ms)"
        " VALUES ('TESTMERCHANT', ?, 'USD', 5656, 'AUTHORIZED', 5656, 0, 0, 'APPLE_PAY', 1, ?, ?)",
        (order, milliseconds, milliseconds),
    )
    connection.execute(
        "INSERT INTO apple_pay_transactions (apple_pay_transaction_id, merchant_id, order_id, transaction_id,"
        " accepted_at_ms) VALUES (?, 'TESTMERCHANT', ?, '1', ?)",
        (token, order, milliseconds),
    )


if like:
    # A real response body from the run, so the rows are as long as the server's.
    response = connection.execute("SELECT response_body FROM transactions ORDER BY rowid DESC LIMIT 1").fetchone()[0]
    write = one_record
else:
    connection.execute("CREATE TABLE rows (body BLOB)")
    write = one_row
connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
checkpoint_wanted = threading.Event()
finished = False


def checkpointer():
    checkpointing = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    while not finished:
        if checkpoint_wanted.wait(0.05):
            checkpoint_wanted.clear()
            checkpointing.execute("PRAGMA wal_checkpoint(PASSIVE)")
    checkpointing.close()


if like:
    connection.execute("PRAGMA wal_autocheckpoint = 0")
    checkpointing_thread = threading.Thread(target=checkpointer)
    checkpointing_thread.start()
# Log growth per commit, counted until a checkpoint first starts the log again (it is then
# overwritten, not grown).
wal_bytes = 0
wal_counted = 0
log_only_grew = True
latencies = []
for _ in range(commits):
    token = os.urandom(32).hex()
    before = os.path.getsize(path + "-wal")
    started = time.perf_counter()
    connection.execute("BEGIN IMMEDIATE")
    write()
    connection.execute("COMMIT")
    latencies.append((time.perf_counter() - started) * 1000)
    if like and len(latencies) % 100 == 0:
        checkpoint_wanted.set()
    after = os.path.getsize(path + "-wal")
    log_only_grew = log_only_grew and after > before
    if log_only_grew:
        wal_bytes += after - before
        wal_counted += 1
    time.sleep(0.002)  # the disk idles between commits, as it does at a moderate rate
finished = True
if like:
    checkpointing_thread.join()
connection.close()
latencies.sort()


def percentile(p):
    return latencies[min(len(latencies) - 1, int(p * len(latencies)))]


figures = (
    f"commits={commits} p50_ms={percentile(0.5):.2f} p99_ms={percentile(0.99):.2f}"
    f" p999_ms={percentile(0.999):.2f} max_ms={latencies[-1]:.2f}"
)
if like:
    print(f"record_commit_latency: {figures} wal_kib_per_commit={wal_bytes / 1024 / max(1, wal_counted):.1f}")
else:
    print(f"commit_latency: {figures}")
