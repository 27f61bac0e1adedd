#!/usr/bin/env python3
"""A constant-rate load for scripts/bench-http: PUT one pre-minted AUTHORIZE body per request at a
fixed rate over keep-alive connections, and print the latency percentiles.

  bench-constant-rate.py URL BODIES AUTHORIZATION RATE SECONDS [ORDER_PREFIX] [CONNECTIONS]

Unlike closed-loop wrk, which waits for an answer before sending again and so hides queueing
(coordinated omission), each request has a scheduled send time (start + i / RATE) and its latency
is measured from that time, not from when a connection was free to send it. Last line:
`constant_rate: rate=R sent=N ok=M p50_ms=A p99_ms=B p999_ms=C`.
"""

import asyncio
import sys
import time
from urllib.parse import urlsplit


async def connection(host, port, queue, auth, prefix, latencies, failures):
    reader, writer = await asyncio.open_connection(host, port)
    while True:
        item = await queue.get()
        if item is None:
            writer.close()
            return
        index, body, scheduled = item
        path = f"/api/rest/version/100/merchant/TESTMERCHANT/order/{prefix}{index}/transaction/1"
        head = (
            f"PUT {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: {auth}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        writer.write(head.encode() + body)
        status_line = await reader.readline()
        length = 0
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        await reader.readexactly(length)
        latencies.append(time.perf_counter() - scheduled)
        if not status_line.startswith(b"HTTP/1.1 201"):
            failures.append(status_line.decode("latin-1").strip())


async def main():
    url, bodies_path, auth, rate, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
    prefix = sys.argv[6] if len(sys.argv) > 6 else "rate-"
    connections = int(sys.argv[7]) if len(sys.argv) > 7 else 64
    parts = urlsplit(url)
    with open(bodies_path, "rb") as file:
        bodies = [line.rstrip(b"\n") for line in file]
    count = min(len(bodies), int(rate * seconds))
    queue = asyncio.Queue()
    latencies, failures = [], []
    workers = [
        asyncio.create_task(connection(parts.hostname, parts.port, queue, auth, prefix, latencies, failures))
        for _ in range(connections)
    ]
    start = time.perf_counter() + 0.2
    for index in range(count):
        scheduled = start + index / rate
        delay = scheduled - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        queue.put_nowait((index, bodies[index], scheduled))
    for _ in workers:
        queue.put_nowait(None)
    await asyncio.gather(*workers)
    latencies.sort()

    def percentile(p):
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies else float("nan")

    if failures:
        print(f"constant_rate: {len(failures)} non-201 answers, first: {failures[0]}", file=sys.stderr)
    print(
        f"constant_rate: rate={rate:.0f} sent={count} ok={count - len(failures)} "
        f"p50_ms={percentile(0.50):.2f} p99_ms={percentile(0.99):.2f} p999_ms={percentile(0.999):.2f}"
    )


asyncio.run(main())
