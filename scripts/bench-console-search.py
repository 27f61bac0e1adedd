#!/usr/bin/env python3
"""Merchant Administration's order search on a store of 100,000 orders.

Fills a fresh SQLite store (schema made by the gateway itself, through `gateway operator add`)
with ORDERS orders of one merchant, spread over a year, each with its payment transaction (card
last four, statuses, Apple Pay for a third), then logs in to /ma/ and times each search over
HTTP, end to end (the query, the page rendered, the bytes read), RUNS times. Prints one line per
search (median and 95th percentile in ms, rows on the page), then one summary line.

Usage: scripts/bench-console-search.py [ORDERS] [RUNS]   (defaults 100000 and 20)
GATEWAY names the binary (default: the debug build's).
"""
import http.cookiejar, os, random, re, sqlite3, statistics, subprocess, sys, tempfile, time, urllib.parse, urllib.request

orders = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
gateway = os.environ.get("GATEWAY") or os.path.join(
    subprocess.run(["swift", "build", "--show-bin-path"], cwd=root, capture_output=True, text=True, check=True).stdout.strip(), "gateway")
port = int(os.environ.get("BENCH_PORT", "18491"))
work = tempfile.mkdtemp(prefix="console-bench-")
store = os.path.join(work, "console.sqlite")
env = dict(os.environ, GATEWAY_STORE_URL=f"sqlite://{store}", GATEWAY_SANDBOX_AUTHORITY_DIRECTORY=os.path.join(work, "authority"),
           GATEWAY_LOG_LEVEL="warning")
password = "bench password 1"
subprocess.run([gateway, "operator", "add", "--merchant", "TESTMERCHANT", "--name", "bench", "--role", "viewer"],
               input=password + "\n", text=True, env=env, cwd=root, check=True, capture_output=True)

# The orders, as the gateway writes them (the columns the search reads, and each payment's card).
random.seed(7)
now_ms = int(time.time() * 1000)
year_ms = 365 * 86_400_000
statuses = ["CAPTURED"] * 6 + ["AUTHORIZED", "REFUNDED", "PARTIALLY_REFUNDED", "FAILED", "CANCELLED"]
db = sqlite3.connect(store)
db.execute("BEGIN")
order_rows, transaction_rows = [], []
for n in range(orders):
    created = now_ms - random.randrange(year_ms)
    amount = random.randrange(100, 100_000)
    status = random.choice(statuses)
    wallet = "APPLE_PAY" if n % 3 == 0 else None
    last_four = f"{random.randrange(10_000):04d}"
    order_id = f"bench-{n:06d}"
    order_rows.append(("TESTMERCHANT", order_id, "USD", amount, status, amount, amount if status == "CAPTURED" else 0, 0, wallet,
                       None, 1, created, created, 1))
    transaction_rows.append(("TESTMERCHANT", order_id, "1", "PAY", b"\0" * 33, b"{}", "SUCCESS", "APPROVED", amount, "USD",
                             created, "PAYMENT", 1, None if wallet else f"512345xxxxxx{last_four}",
                             f"520424xxxxxx{last_four}" if wallet else None))
db.executemany("""INSERT INTO orders (merchant_id, order_id, currency, amount_minor, status, total_authorized_minor,
    total_captured_minor, total_refunded_minor, wallet_provider, reference, initial_succeeded, created_at_ms, updated_at_ms, version)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", order_rows)
db.executemany("""INSERT INTO transactions (merchant_id, order_id, transaction_id, operation, request_hash, response_body, result,
    gateway_code, amount_minor, currency, created_at_ms, type, succeeded, card_number, device_number)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", transaction_rows)
db.execute("COMMIT")
db.execute("ANALYZE")

server = subprocess.Popen([gateway, "serve", "--port", str(port)], env=env, cwd=root, stdout=subprocess.DEVNULL,
                          stderr=open(os.path.join(work, "server.log"), "w"))
try:
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/api/rest/version/100/information")
            break
        except OSError:
            time.sleep(0.1)
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', browser.open(base + "/ma/login").read().decode()).group(1)
    browser.open(base + "/ma/login", urllib.parse.urlencode(
        {"csrf": token, "merchant": "TESTMERCHANT", "name": "bench", "password": password}).encode())
    month_start = time.strftime("%Y-%m-%d", time.gmtime((now_ms - 60 * 86_400_000) / 1000))
    month_end = time.strftime("%Y-%m-%d", time.gmtime((now_ms - 30 * 86_400_000) / 1000))
    searches = [
        ("newest first, page 1", {}),
        ("newest first, page 100", {"page": "100"}),
        ("order id", {"orderId": "bench-054321"}),
        ("date range (30 days)", {"from": month_start, "to": month_end}),
        ("status REFUNDED", {"status": "REFUNDED"}),
        ("amount 500.00-510.00", {"minAmount": "500.00", "maxAmount": "510.00"}),
        ("card last four", {"last4": "4242"}),
        ("wallet APPLE_PAY", {"wallet": "APPLE_PAY"}),
        ("status + wallet + 30 days", {"status": "CAPTURED", "wallet": "APPLE_PAY", "from": month_start, "to": month_end}),
    ]
    print(f"{orders} orders, {runs} runs each, times in ms over HTTP (search, page render, transfer)")
    medians = []
    for name, params in searches:
        url = base + "/ma/orders?" + urllib.parse.urlencode(params)
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            body = browser.open(url).read()
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        median = statistics.median(times)
        medians.append(median)
        rows = body.count(b'<tr><td><a href="/ma/orders/')
        print(f"{name:28s} median {median:7.2f}  p95 {times[int(len(times) * 0.95) - 1]:7.2f}  rows {rows:3d}")
    print(f"console_search_median_ms_max={max(medians):.2f} orders={orders}")
finally:
    server.terminate()
    server.wait()
