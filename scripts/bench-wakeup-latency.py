#!/usr/bin/env python3
"""The machine's own floor under latency percentiles, for scripts/bench-http: how late a thread
that sleeps for 1 ms wakes up, on an otherwise idle core (run it under taskset).
  bench-wakeup-latency.py [SECONDS]
On a virtual machine the hypervisor's scheduling shows here: no request served on this core can
count on being scheduled sooner than this, whatever the server does. Last line:
`wakeup_latency: wakeups=N p50_ms=A p99_ms=B p999_ms=C max_ms=D` (lateness past the 1 ms asked).
"""
import sys
import time

seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
lateness = []
deadline = time.perf_counter() + seconds
while time.perf_counter() < deadline:
    started = time.perf_counter()
    time.sleep(0.001)
    lateness.append((time.perf_counter() - started - 0.001) * 1000)
lateness.sort()


def percentile(p):
    return lateness[min(len(lateness) - 1, int(p * len(lateness)))]


print(
    f"wakeup_latency: wakeups={len(lateness)} p50_ms={percentile(0.5):.2f} p99_ms={percentile(0.99):.2f}"
    f" p999_ms={percentile(0.999):.2f} max_ms={lateness[-1]:.2f}"
)
