#!/usr/bin/env python3
"""What a wake-up costs the thread woken, on this machine, for scripts/bench-http: the CPU time a
thread spends to be woken and go back to sleep, with no work in between, when its waker runs on
the same core and when it runs on the other core (the woken core idle in between).
  bench-wake-cost.py [WAKES]
A request that arrives at an idle server is woken from another core (the client's), so this is a
floor under its CPU time that no server code pays less than. On a nested virtual machine the
cross-core figure is several times the same-core one (the wake-up is an interrupt the hypervisor
delivers); on bare metal both are a few microseconds. Needs two CPUs (0 and 1). Last line:
`wake_cost: same_core_us=A cross_core_us=B` (medians of five rounds, CPU time of the woken thread).
"""
import os
import statistics
import sys
import threading
import time

wakes = int(sys.argv[1]) if len(sys.argv) > 1 else 3000


def woken_thread_cpu_us(woken_cpu, waker_cpu):
    """The woken thread's CPU time per wake-up, in microseconds."""
    go, done = threading.Semaphore(0), threading.Semaphore(0)
    spent = []

    def woken():
        os.sched_setaffinity(0, {woken_cpu})
        started = time.thread_time()
        for _ in range(wakes):
            go.acquire()
            done.release()
        spent.append(time.thread_time() - started)

    os.sched_setaffinity(0, {waker_cpu})
    thread = threading.Thread(target=woken)
    thread.start()
    time.sleep(0.05)  # the woken thread has moved to its CPU and waits
    for _ in range(wakes):
        go.release()
        done.acquire()
    thread.join()
    return spent[0] / wakes * 1e6


same, cross = [], []
for _ in range(5):  # alternating, so drift in the machine's speed falls on both alike
    same.append(woken_thread_cpu_us(1, 1))
    cross.append(woken_thread_cpu_us(1, 0))
print(f"wake_cost: same_core_us={statistics.median(same):.1f} cross_core_us={statistics.median(cross):.1f}")
