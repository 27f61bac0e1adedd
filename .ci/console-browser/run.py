#!/usr/bin/env python3
"""Merchant Administration in a real headless Chromium (Debian's chromium and chromium-driver,
driven by Selenium): a sandbox gateway on a fresh store, an operator added with `gateway operator
add`, an Apple Pay AUTHORIZE (a minted sandbox token) and a card PAY through the API; then the
browser logs in, searches, opens the order, captures and refunds, reads the audit log, and logs
out; a forged form, another merchant's order, a stale session and a viewer's refund are refused.
Every page must pass axe-core's rules (axe-selenium-python) with no serious or critical
violation, weigh under 100 KB, and load nothing from outside the gateway. A screenshot of each
page is kept in SCREENSHOTS (default .build/console-screenshots).

Usage: .ci/console-browser/run.py [GATEWAY_BINARY]   (default .build/debug/gateway)
"""
import base64, hashlib, json, os, re, shutil, subprocess, sys, tempfile, time, urllib.error, urllib.request

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
gateway = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build/debug/gateway"))
shots = os.path.abspath(os.environ.get("SCREENSHOTS", os.path.join(root, ".build/console-screenshots")))
os.makedirs(shots, exist_ok=True)
work = tempfile.mkdtemp(prefix="console-browser-")
# A second merchant, OTHERSHOP, whose order TESTMERCHANT's operators must not reach.
env = dict(os.environ, GATEWAY_STORE_URL=f"sqlite://{work}/console.sqlite",
           GATEWAY_SANDBOX_AUTHORITY_DIRECTORY=f"{work}/sandbox-authority", GATEWAY_LOG_LEVEL="notice",
           GATEWAY_MERCHANTS="TESTMERCHANT,OTHERSHOP",
           GATEWAY_MERCHANT_OTHERSHOP_API_PASSWORDS="ffeeddccbbaa99887766554433221100")
password = "browser test password"
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def run(*arguments, stdin=None):
    return subprocess.run([gateway, *arguments], input=stdin, text=True, env=env, cwd=root, check=True,
                          capture_output=True).stdout


run("operator", "add", "--merchant", "TESTMERCHANT", "--name", "ada", "--role", "admin", stdin=password + "\n")
run("operator", "add", "--merchant", "TESTMERCHANT", "--name", "vera", "--role", "viewer", stdin=password + "\n")
server_log = open(f"{work}/server.log", "w")
server = subprocess.Popen([gateway, "serve", "--port", "0"], env=env, cwd=root, stdout=server_log, stderr=server_log)
driver = None
base = None
try:
    for _ in range(200):
        match = re.search(r"listening on (http://[0-9.]+:[0-9]+)", open(f"{work}/server.log").read())
        if match:
            base = match.group(1)
            break
        time.sleep(0.1)
    assert base, "the gateway did not start"

    def api(order, transaction, body, merchant="TESTMERCHANT", password="00112233445566778899aabbccddeeff"):
        basic = "Basic " + base64.b64encode(f"merchant.{merchant}:{password}".encode()).decode()
        request = urllib.request.Request(
            f"{base}/api/rest/version/100/merchant/{merchant}/order/{order}/transaction/{transaction}",
            data=json.dumps(body).encode(), method="PUT", headers={"Authorization": basic, "Content-Type": "application/json"})
        return json.load(urllib.request.urlopen(request))

    # The API password in use (the integration settings below rotate it).
    api_password = ["00112233445566778899aabbccddeeff"]

    def refunded(order):
        basic = "Basic " + base64.b64encode(f"merchant.TESTMERCHANT:{api_password[0]}".encode()).decode()
        request = urllib.request.Request(f"{base}/api/rest/version/100/merchant/TESTMERCHANT/order/{order}",
                                         headers={"Authorization": basic})
        return json.load(urllib.request.urlopen(request))["totalRefundedAmount"]

    token = run("mint-token", "--merchant", "TESTMERCHANT", "--amount", "56.56", "--currency", "USD").strip()
    authorized = api("applepay-1", "1", {
        "apiOperation": "AUTHORIZE", "order": {"amount": "56.56", "currency": "USD", "walletProvider": "APPLE_PAY"},
        "sourceOfFunds": {"type": "CARD", "provided": {"card": {"devicePayment": {"paymentToken": token}}}},
        "transaction": {"source": "INTERNET"}})
    check(authorized["result"] == "SUCCESS", "an Apple Pay AUTHORIZE through the API")
    for n in range(3):
        api(f"card-{n}", "1", {"apiOperation": "PAY", "order": {"amount": "56.56", "currency": "USD"},
                               "sourceOfFunds": {"type": "CARD", "provided": {"card": {
                                   "number": "5123450000000008", "expiry": {"month": "1", "year": "39"}}}}})

    other = api("other-1", "1", {"apiOperation": "PAY", "order": {"amount": "56.56", "currency": "USD"},
                                 "sourceOfFunds": {"type": "CARD", "provided": {"card": {
                                     "number": "5123450000000008", "expiry": {"month": "1", "year": "39"}}}}},
                merchant="OTHERSHOP", password="ffeeddccbbaa99887766554433221100")
    check(other["result"] == "SUCCESS", "another merchant's order through the API")

    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1100"]:
        options.add_argument(argument)
    downloads = os.path.join(work, "downloads")
    os.makedirs(downloads)
    options.add_experimental_option("prefs", {"download.default_directory": downloads, "download.prompt_for_download": False})
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)

    def replaced(old):
        """A wait condition: true once the page holding `old` is gone. Selenium's staleness_of
        knows only StaleElementReferenceException; chromedriver sometimes answers a node of a page
        being replaced with "Node with given id does not belong to the document" instead (a red
        CI run on the "Generate a second API password" click)."""
        def gone(_):
            try:
                old.is_enabled()
                return False
            except StaleElementReferenceException:
                return True
            except WebDriverException as error:
                if "does not belong to the document" in (error.msg or ""):
                    return True
                raise
        return gone

    def click(by, value):
        """Clicks and waits for the next page (a form's answer, a link's page)."""
        old = driver.find_element(By.TAG_NAME, "html")
        driver.find_element(by, value).click()
        WebDriverWait(driver, 15).until(replaced(old))

    def page(name):
        """The checks every page passes, and its screenshot."""
        html = driver.page_source
        resources = driver.execute_script(
            "return performance.getEntriesByType('resource').map(e => [e.name, e.transferSize || e.encodedBodySize || 0])")
        weight = len(html.encode()) + sum(size for _, size in resources)
        check(weight < 100_000, f"{name}: {weight} bytes, under 100 KB")
        outside = [url for url, _ in resources if not url.startswith(base)]
        check(not outside, f"{name}: no request leaves the gateway {outside or ''}")
        axe = Axe(driver)
        axe.inject()
        results = axe.run()
        check(len(results["passes"]) > 0, f"{name}: axe-core ran ({len(results['passes'])} rules passed)")
        violations = [v for v in results["violations"] if v["impact"] in ("serious", "critical")]
        check(not violations, f"{name}: no serious or critical axe-core violation "
              + "; ".join(f"{v['id']} ({v['impact']})" for v in violations))
        # The whole page, from its top.
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(1280, min(max(height, 600), 6000))
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(shots, f"{name}.png"))
        driver.set_window_size(1280, 1100)

    driver.get(base + "/ma/")
    check(driver.current_url.endswith("/ma/login"), "the console sends a visitor to the login page")
    page("login")
    driver.find_element(By.ID, "merchant").send_keys("TESTMERCHANT")
    driver.find_element(By.ID, "name").send_keys("ada")
    driver.find_element(By.ID, "password").send_keys(password)
    click(By.CSS_SELECTOR, "form.stack button")
    check(driver.current_url.endswith("/ma/orders"), "logging in opens the orders")
    page("orders")

    Select(driver.find_element(By.ID, "wallet")).select_by_value("APPLE_PAY")
    click(By.CSS_SELECTOR, "form.filters button")
    links = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "tbody a")]
    check(links == ["applepay-1"], f"searching for Apple Pay finds the one Apple Pay order {links}")
    page("search")

    click(By.LINK_TEXT, "applepay-1")
    check("Device number" in driver.page_source, "the order page shows the device fields")
    driver.find_element(By.ID, "captureAmount").send_keys("56.56")
    click(By.XPATH, "//button[text()='Capture']")
    check("CAPTURE" in driver.find_element(By.CSS_SELECTOR, ".message").text, "capturing from the order page")
    driver.find_element(By.ID, "refundAmount").send_keys("10.00")
    click(By.XPATH, "//button[text()='Refund']")
    message = driver.find_element(By.CSS_SELECTOR, ".message").text
    check("REFUND" in message and "APPROVED" in message, f"refunding from the order page ({message})")
    check("PARTIALLY_REFUNDED" in driver.page_source, "the order is partially refunded")
    page("order")

    # Refused as a person would meet it, changing nothing: a forged form (its CSRF token
    # replaced), and another merchant's order id.
    before = refunded("applepay-1")
    driver.execute_script("document.querySelectorAll(\"input[name='csrf']\").forEach(i => i.value = 'forged')")
    driver.find_element(By.ID, "refundAmount").send_keys("1.00")
    click(By.XPATH, "//button[text()='Refund']")
    check("did not come from the console" in driver.page_source and refunded("applepay-1") == before,
          "a forged form (another CSRF token) is refused and refunds nothing")
    driver.get(base + "/ma/orders/other-1")
    check("There is no order other-1 for this merchant" in driver.page_source, "another merchant's order id is not found")
    driver.get(base + "/ma/orders/applepay-1")

    # Apple Pay: a key and CSR made on the server, the CSR downloaded, signed by the sandbox
    # authority as Apple would, and Apple's certificate uploaded and checked.
    identifier = "merchant.com.example.console"
    click(By.LINK_TEXT, "Apple Pay certificates")
    driver.find_element(By.ID, "newIdentifier").send_keys(identifier)
    click(By.XPATH, "//button[text()='Create key and CSR']")
    check("Key ec created" in driver.find_element(By.CSS_SELECTOR, ".message").text, "creating a key and CSR")
    driver.find_element(By.LINK_TEXT, "ec.certSigningRequest").click()
    csr = os.path.join(downloads, "ec.certSigningRequest")
    for _ in range(100):
        if os.path.exists(csr):
            break
        time.sleep(0.1)
    check(os.path.exists(csr) and b"CERTIFICATE REQUEST" in open(csr, "rb").read(), "downloading the CSR")
    cer = os.path.join(work, "apple_pay.cer")
    run("applepay-identity", "sandbox-sign", "--merchant", identifier, "--csr", csr, "--output", cer)
    driver.find_element(By.ID, "uploadIdentifier").send_keys(identifier)
    driver.find_element(By.ID, "certificate").send_keys(cer)
    click(By.XPATH, "//button[text()='Install certificate']")
    message = driver.find_element(By.CSS_SELECTOR, ".message").text
    check("is installed" in message, f"uploading the sandbox-signed certificate ({message})")
    page("certificates")

    # Sandbox mode's test payment: a token minted and paid through the API, from the browser.
    click(By.LINK_TEXT, "Sandbox payment")
    click(By.XPATH, "//button[text()='Run test payment']")
    message = driver.find_element(By.CSS_SELECTOR, ".message").text
    check("SUCCESS, APPROVED" in message, f"the sandbox page's payment ({message})")
    page("sandbox")
    click(By.PARTIAL_LINK_TEXT, "Open order sandbox-")
    check("AUTHORIZED" in driver.page_source and "Device number" in driver.page_source,
          "the sandbox payment's order is an authorized Apple Pay order")

    # Integration settings: a second API password generated and used by the API, then the
    # first retired (the rotation the gateway allows); the notification secret and delivery log.
    def api_status(password):
        request = urllib.request.Request(
            f"{base}/api/rest/version/100/merchant/TESTMERCHANT/order/no-such-order",
            headers={"Authorization": "Basic " + base64.b64encode(f"merchant.TESTMERCHANT:{password}".encode()).decode()})
        try:
            return urllib.request.urlopen(request).status
        except urllib.error.HTTPError as error:
            return error.code

    first = "00112233445566778899aabbccddeeff"
    click(By.LINK_TEXT, "Integration settings")
    check("X-Notification-Secret" in driver.page_source and "Delivery log" in driver.page_source,
          "the integration page shows the notification secret and the delivery log")
    click(By.XPATH, "//button[text()='Generate a second API password']")
    second = driver.find_element(By.CSS_SELECTOR, ".message code").text
    check(len(second) == 32 and api_status(second) == 404 and api_status(first) == 404,
          "a generated second password works beside the first")
    page("integration")
    fingerprint = hashlib.sha256(first.encode()).hexdigest()[:8]
    click(By.CSS_SELECTOR, f"button[aria-label='Retire password {fingerprint}']")
    check(api_status(first) == 401 and api_status(second) == 404, "the first password, retired, is refused")
    api_password[0] = second

    click(By.LINK_TEXT, "Audit log")
    check("REFUND" in driver.page_source and "CAPTURE" in driver.page_source, "the audit log shows the actions")
    page("audit")

    session = driver.get_cookie("ma_session")
    click(By.XPATH, "//button[text()='Log out']")
    driver.get(base + "/ma/orders")
    check(driver.current_url.endswith("/ma/login"), "after logging out the orders need a login again")
    # The logged-out session's cookie, sent again (a stale session), opens nothing.
    driver.add_cookie({"name": "ma_session", "value": session["value"], "path": "/ma"})
    driver.get(base + "/ma/orders/applepay-1")
    check(driver.current_url.endswith("/ma/login"), "a stale session's cookie is sent to the login page")

    # A viewer looks, but a refund posted anyway (the form built by hand) is refused.
    driver.find_element(By.ID, "merchant").send_keys("TESTMERCHANT")
    driver.find_element(By.ID, "name").send_keys("vera")
    driver.find_element(By.ID, "password").send_keys(password)
    click(By.CSS_SELECTOR, "form.stack button")
    driver.get(base + "/ma/orders/applepay-1")
    check("Device number" in driver.page_source and not driver.find_elements(By.XPATH, "//button[text()='Refund']"),
          "a viewer sees the order without a refund button")
    before = refunded("applepay-1")
    old = driver.find_element(By.TAG_NAME, "html")
    driver.execute_script("""
        const form = document.createElement('form');
        form.method = 'post'; form.action = '/ma/orders/applepay-1/refund';
        const fields = {csrf: document.querySelector("input[name='csrf']").value, transactionId: 'ma-viewer-1', amount: '1.00'};
        for (const [name, value] of Object.entries(fields)) {
          const input = document.createElement('input'); input.type = 'hidden'; input.name = name; input.value = value;
          form.appendChild(input);
        }
        document.body.appendChild(form); form.submit();""")
    WebDriverWait(driver, 15).until(replaced(old))
    check("needs an admin" in driver.page_source and refunded("applepay-1") == before,
          "a viewer's refund is refused and refunds nothing")
finally:
    if driver:
        driver.quit()
    server.terminate()
    server.wait()
    if not failures and base:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(open(f"{work}/server.log").read()[-3000:], file=sys.stderr)

print(f"screenshots in {shots}")
if failures:
    print(f"{len(failures)} check(s) failed", file=sys.stderr)
    sys.exit(1)
