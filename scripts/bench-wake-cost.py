#!/usr/bin/env python3
"""What this machine charges the server's core (CPU 1) for being woken, for scripts/bench-http:
  - the CPU time a thread spends to be woken and go back to sleep, with no work in between, when
    its waker runs on the same core and when it runs on the other core (CPU 0, the client's);
  - the time the core loses to each interrupt a durable write brings it: a thread on core 1 counts
    the gaps in its own run while a loop on core 0 writes and fdatasyncs a file in DIRECTORY (the
    disk completes each write with an interrupt, delivered to whichever core the machine routes it).
  bench-wake-cost.py [DIRECTORY]   (default: the current directory)
A request that arrives at an idle server is woken from the client's core, and its durable commit
ends in such an interrupt, so these are floors under a lone request's CPU time that no server code
pays less than. On a nested virtual machine both are tens of microseconds (each is an interrupt
the hypervisor delivers); on bare metal a few. Needs two CPUs (0 and 1). Last line:
`wake_cost: same_core_us=A cross_core_us=B interrupt_us=C` (medians of five rounds for the first
two; C is nan when no extra interrupt reached core 1).
"""
import os
import statistics
import subprocess
import sys
import threading
import time

directory = sys.argv[1] if len(sys.argv) > 1 else "."
wakes = 3000


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


def core1_interrupts():
    total = 0
    for line in open("/proc/interrupts"):
        fields = line.split()
        if len(fields) > 2 and fields[0].endswith(":") and fields[2].isdigit():
            total += int(fields[2])
    return total


def lost_on_core1(seconds):
    """Microseconds a busy loop on core 1 lost in gaps over 2 us, and core 1's interrupts meanwhile."""
    os.sched_setaffinity(0, {1})
    now = time.perf_counter_ns
    interrupts = core1_interrupts()
    last = now()
    end = last + int(seconds * 1e9)
    lost = 0
    while last < end:
        current = now()
        if current - last > 2000:
            lost += current - last
        last = current
    return lost / 1e3, core1_interrupts() - interrupts


def interrupt_us():
    """Time core 1 loses per extra interrupt while core 0 makes durable writes, against idle."""
    idle_lost, idle_interrupts = lost_on_core1(2)
    path = os.path.join(directory, "bench-wake-cost.dat")
    writer = subprocess.Popen(
        ["taskset", "-c", "0", "python3", "-c",
         "import os, sys\nfd = os.open(sys.argv[1], os.O_CREAT | os.O_WRONLY, 0o600)\n"
         "while True:\n    os.pwrite(fd, b'x' * 4096, 0)\n    os.fdatasync(fd)\n", path])
    try:
        time.sleep(0.2)
        lost, interrupts = lost_on_core1(2)
    finally:
        writer.kill()
        writer.wait()
        os.remove(path)
    extra = interrupts - idle_interrupts
    return (lost - idle_lost) / extra if extra > 100 else float("nan")


same, cross = [], []
for _ in range(5):  # alternating, so drift in the machine's speed falls on both alike
    same.append(woken_thread_cpu_us(1, 1))
    cross.append(woken_thread_cpu_us(1, 0))
print(
    f"wake_cost: same_core_us={statistics.median(same):.1f} cross_core_us={statistics.median(cross):.1f}"
    f" interrupt_us={interrupt_us():.1f}"
)
