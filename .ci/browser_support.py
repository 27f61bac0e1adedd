"""What the browser tests under .ci/ share: a sandbox `gateway serve` of their own (free port, fresh
SQLite store and sandbox authority), Debian's headless Chromium through chromium-driver, the
merchant-API calls of the shops they stage, and the check lines they print."""
import base64
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parent.parent
MERCHANT = "TESTMERCHANT"
AUTHORIZATION = "Basic " + base64.b64encode(b"merchant.TESTMERCHANT:00112233445566778899aabbccddeeff").decode()
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def start_gateway(binary, directory):
    """`gateway serve --port 0` from the repository root; the process and its base URL."""
    log = open(directory / "server.log", "w+")
    environment = dict(os.environ, GATEWAY_STORE_URL=f"sqlite://{directory}/applepay.sqlite",
                       GATEWAY_SANDBOX_AUTHORITY_DIRECTORY=str(directory / "sandbox-authority"))
    process = subprocess.Popen([str(binary), "serve", "--port", "0"], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=environment)
    for _ in range(300):
        match = re.search(r"listening on (http://[0-9.]+:[0-9]+)", (directory / "server.log").read_text())
        if match:
            return process, match.group(1)
        if process.poll() is not None:
            break
        time.sleep(0.1)
    process.kill()
    sys.exit("the gateway did not start:\n" + (directory / "server.log").read_text())


def browser(window="1000,900"):
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", f"--window-size={window}"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)


def call(url, method="GET", body=None, headers=None):
    """A JSON call; the status and the parsed answer (also for 4xx and 5xx)."""
    request = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else None, method=method,
                                     headers=dict({"Content-Type": "application/json"}, **(headers or {})))
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def api(gateway, path, method="GET", body=None, version=100):
    """The merchant API as TESTMERCHANT's server calls it."""
    return call(f"{gateway}/api/rest/version/{version}/merchant/{MERCHANT}{path}", method, body, {"Authorization": AUTHORIZATION})
