#!/usr/bin/env python3
"""Merchant Administration's order search on a store of 100,000 orders.

Fills a fresh store (schema made by the gateway itself, through `gateway operator add`) with
ORDERS orders of one merchant, spread over a year, each with its payment transaction (card last
four, statuses, Apple Pay for a third), then logs in to /ma/ and times each search over HTTP,
end to end (the query, the page rendered, the bytes read), RUNS times. Prints one line per search
(median and 95th percentile in ms, rows on the page), then one summary line.

The store is SQLite (a file in a temporary directory, filled through Python's sqlite3) or, with
`--store postgres`, a throwaway PostgreSQL server the script starts itself (Debian's binaries in
/usr/lib/postgresql/*/bin; initdb with trust authentication for `gateway` on a free loopback
port, fsync off: this only reads), filled with the same rows by COPY through psql, vacuumed and
analyzed, and stopped when the script ends, however it ends. Under root the server runs as the
`postgres` user, as PostgreSQL refuses root.

Usage: scripts/bench-console-search.py [--store sqlite|postgres] [ORDERS] [RUNS]
       (defaults sqlite, 100000 and 20)
GATEWAY names the binary (default: the debug build's).
"""
import argparse, glob, http.cookiejar, os, random, re, shutil, signal, socket, sqlite3, statistics, subprocess, sys, tempfile, time
import urllib.parse, urllib.request

arguments = argparse.ArgumentParser(description="Times Merchant Administration's order search.")
arguments.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite")
arguments.add_argument("orders", nargs="?", type=int, default=100_000)
arguments.add_argument("runs", nargs="?", type=int, default=20)
options = arguments.parse_args()
orders, runs = options.orders, options.runs
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
gateway = os.environ.get("GATEWAY") or os.path.join(
    subprocess.run(["swift", "build", "--show-bin-path"], cwd=root, capture_output=True, text=True, check=True).stdout.strip(), "gateway")
port = int(os.environ.get("BENCH_PORT", "18491"))
work = tempfile.mkdtemp(prefix="console-bench-")
env = dict(os.environ, GATEWAY_SANDBOX_AUTHORITY_DIRECTORY=os.path.join(work, "authority"), GATEWAY_LOG_LEVEL="warning")
password = "bench password 1"
# A SIGTERM ends the script as Ctrl-C does, through the `finally` that stops what it started.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


class Postgres:
    """A throwaway PostgreSQL server with one database, `bench`, for the user `gateway`."""

    def __init__(self):
        versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[-3]))
        if not versions:
            sys.exit("no /usr/lib/postgresql/*/bin/initdb: apt-get install postgresql")
        self.bin = os.path.dirname(versions[-1])
        # Its own directory: `work` is root's alone, and the server may run as `postgres`.
        self.directory = tempfile.mkdtemp(prefix="console-bench-pg-")
        self.as_server_user = ["/usr/sbin/runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        if os.getuid() == 0:
            shutil.chown(self.directory, "postgres")
        self.data = os.path.join(self.directory, "data")
        self.started = False
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"postgres://gateway@127.0.0.1:{self.port}/bench"

    def start(self):
        self.server_command("initdb", "-D", self.data, "-U", "gateway", "--auth=trust", "-E", "UTF8", "--no-sync")
        self.started = True
        self.server_command("pg_ctl", "-D", self.data, "-l", os.path.join(self.directory, "server.log"), "-w", "-t", "60", "-o",
                            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.directory} -c fsync=off "
                            "-c full_page_writes=off", "start")
        self.psql("CREATE DATABASE bench", database="postgres")

    def server_command(self, name, *args):
        # Output to a file, never a pipe: the server pg_ctl leaves running would hold the pipe open.
        with tempfile.TemporaryFile() as output:
            status = subprocess.run(self.as_server_user + [os.path.join(self.bin, name), *args], stdin=subprocess.DEVNULL,
                                    stdout=output, stderr=output, cwd="/", env=dict(os.environ, LC_ALL="C")).returncode
            if status != 0:
                output.seek(0)
                raise RuntimeError(f"{name} failed ({status}): {output.read().decode(errors='replace')}")

    def psql(self, sql, database="bench", input=None):
        command = [os.path.join(self.bin, "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "gateway", "-d", database,
                   "-v", "ON_ERROR_STOP=1", "-Atq", "-c", sql]
        done = subprocess.run(command, input=input, capture_output=True)
        if done.returncode != 0:
            raise RuntimeError(f"psql failed ({done.returncode}) on {sql}: {done.stderr.decode(errors='replace')}")

    def stop(self):
        if self.started:
            try:
                self.server_command("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
            except RuntimeError as error:
                print(error, file=sys.stderr)
        shutil.rmtree(self.directory, ignore_errors=True)


postgres = None
server = None
try:
    if options.store == "postgres":
        postgres = Postgres()
        postgres.start()
        env["GATEWAY_STORE_URL"] = postgres.url
    else:
        sqlite_path = os.path.join(work, "console.sqlite")
        env["GATEWAY_STORE_URL"] = f"sqlite://{sqlite_path}"
    subprocess.run([gateway, "operator", "add", "--merchant", "TESTMERCHANT", "--name", "bench", "--role", "viewer"],
                   input=password + "\n", text=True, env=env, cwd=root, check=True, capture_output=True)

    # The orders, as the gateway writes them (the columns the search reads, and each payment's card).
    random.seed(7)
    now_ms = int(time.time() * 1000)
    year_ms = 365 * 86_400_000
    statuses = ["CAPTURED"] * 6 + ["AUTHORIZED", "REFUNDED", "PARTIALLY_REFUNDED", "FAILED", "CANCELLED"]
    order_rows, transaction_rows = [], []
    for n in range(orders):
        created = now_ms - random.randrange(year_ms)
        amount = random.randrange(100, 100_000)
        status = random.choice(statuses)
        wallet = "APPLE_PAY" if n % 3 == 0 else None
        last_four = f"{random.randrange(10_000):04d}"
        order_id = f"bench-{n:06d}"
        order_rows.append(("TESTMERCHANT", order_id, "USD", amount, status, amount, amount if status == "CAPTURED" else 0, 0, wallet,
                           None, True, created, created, 1))
        transaction_rows.append(("TESTMERCHANT", order_id, "1", "PAY", b"\0" * 33, b"{}", "SUCCESS", "APPROVED", amount, "USD",
                                 created, "PAYMENT", True, None if wallet else f"512345xxxxxx{last_four}",
                                 f"520424xxxxxx{last_four}" if wallet else None))
    order_columns = """merchant_id, order_id, currency, amount_minor, status, total_authorized_minor, total_captured_minor,
        total_refunded_minor, wallet_provider, reference, initial_succeeded, created_at_ms, updated_at_ms, version"""
    transaction_columns = """merchant_id, order_id, transaction_id, operation, request_hash, response_body, result, gateway_code,
        amount_minor, currency, created_at_ms, type, succeeded, card_number, device_number"""
    if postgres:
        # COPY's text format: tab-separated, \N for NULL, bytea as \x hex (its backslash doubled),
        # booleans t/f. None of the values holds a tab, newline or backslash.
        def copy_field(value):
            if value is None:
                return "\\N"
            if isinstance(value, bool):
                return "t" if value else "f"
            if isinstance(value, bytes):
                return "\\\\x" + value.hex()
            return str(value)

        def copy_text(rows):
            return "".join("\t".join(map(copy_field, row)) + "\n" for row in rows).encode()

        postgres.psql(f"COPY orders ({order_columns}) FROM STDIN", input=copy_text(order_rows))
        postgres.psql(f"COPY transactions ({transaction_columns}) FROM STDIN", input=copy_text(transaction_rows))
        # VACUUM as well as ANALYZE: the visibility map a live table's autovacuum keeps (index-only
        # scans), and no autovacuum of the fresh rows starting while searches are timed.
        postgres.psql("VACUUM ANALYZE")
    else:
        db = sqlite3.connect(sqlite_path)
        db.execute("BEGIN")
        db.executemany(f"INSERT INTO orders ({order_columns}) VALUES ({', '.join('?' * 14)})", order_rows)
        db.executemany(f"INSERT INTO transactions ({transaction_columns}) VALUES ({', '.join('?' * 15)})", transaction_rows)
        db.execute("COMMIT")
        db.execute("ANALYZE")
        db.close()

    server = subprocess.Popen([gateway, "serve", "--port", str(port)], env=env, cwd=root, stdout=subprocess.DEVNULL,
                              stderr=open(os.path.join(work, "server.log"), "w"))
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
    print(f"console_search_median_ms_max={max(medians):.2f} orders={orders} store={options.store}")
finally:
    if server:
        server.terminate()
        server.wait()
    if postgres:
        postgres.stop()
