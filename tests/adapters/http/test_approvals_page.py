"""The approvals page in real headless Chromium: log in, watch requests parked by other
processes appear live, approve one and deny one with feedback, and see the waiters resume."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.adapters.http.helpers import Gateway

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
BASTION = [sys.executable, "-m", "bastion.adapters.cli.main"]

#: Another process that parks a call through the HTTP API and long-polls until it is answered.
HTTP_WAITER = textwrap.dedent("""
    import json, sys, httpx
    url, key, command = sys.argv[1:4]
    with httpx.Client(base_url=url, headers={"X-API-Key": key}, timeout=90) as client:
        request = client.post("/v1/requests", json={"tool": "shell", "args": {"command": command}}).json()
        while request["state"] == "pending":
            request = client.get(f"/v1/requests/{request['id']}", params={"wait": 30}).json()
    print(json.dumps(request))
""")


def _require_browser() -> None:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.path.exists(p)]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium (pip)")
    if missing:
        message = f"the browser test needs {', '.join(missing)} (apt: chromium chromium-driver)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[object]:
    _require_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def _page_changing() -> tuple[type[Exception], ...]:
    from selenium.common.exceptions import WebDriverException

    # NoSuchElement and StaleElementReference are WebDriverExceptions; so is Chromium's
    # "Node with given id does not belong to the document", met when a lookup races the
    # navigation a form post starts. A real fault still ends the wait in a timeout.
    return (WebDriverException,)


#: While a new page replaces the old one, elements of the old one go stale: keep waiting.
_PAGE_CHANGING = _page_changing()


def card_for(driver: object, summary: str) -> object:
    """Wait until a pending card for ``summary`` is on the page (added live, not reloaded)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    def find(d: object) -> object:
        for card in d.find_elements(By.CSS_SELECTOR, '.card[data-state="pending"]'):  # type: ignore[attr-defined]
            if card.find_element(By.CSS_SELECTOR, ".summary").text == summary:
                return card
        return False

    return WebDriverWait(driver, 30, ignored_exceptions=_PAGE_CHANGING).until(find)  # type: ignore[arg-type]


def test_a_person_answers_parked_calls_live_and_the_waiters_resume(gateway: Gateway, browser: object) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver = browser
    driver.get(gateway.url + "/")  # type: ignore[attr-defined]
    driver.find_element(By.ID, "key").send_keys(gateway.keys["approver"])  # type: ignore[attr-defined]
    driver.find_element(By.CSS_SELECTOR, "form.login button").click()  # type: ignore[attr-defined]
    WebDriverWait(driver, 30, ignored_exceptions=_PAGE_CHANGING).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-live")
    )
    cookie = driver.get_cookie("bastion_session")  # type: ignore[attr-defined]
    assert (cookie["httpOnly"], cookie["sameSite"]) == (True, "Strict")
    loaded_at = driver.execute_script("return performance.timeOrigin")  # type: ignore[attr-defined]

    # 1. `bastion request` (another process) parks a call; it appears; "Approve once" resumes it.
    cli = subprocess.Popen(
        [*BASTION, "request", "--policy", str(gateway.policy_file), "--json", "shell", "make deploy prod"],
        env=gateway.env,
        cwd=gateway.workspace,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        card = card_for(driver, "make deploy prod")
        assert card.find_element(By.CSS_SELECTOR, ".reason").text == "deploys need a person"  # type: ignore[attr-defined]
        legends = [e.text for e in card.find_elements(By.TAG_NAME, "legend")]  # type: ignore[attr-defined]
        buttons = [e.text for e in card.find_elements(By.TAG_NAME, "button")]  # type: ignore[attr-defined]
        # Its suggested pattern is the exact words: no second "Covering" choice just like the first.
        assert legends == ["Approve always, for"]
        assert buttons == ["Approve once", "Deny", "Approve always"]
        # One line for the new request: the call and its tool once ("shell shell: …" before).
        assert driver.find_element(By.ID, "live-status").text == "New request: make deploy prod (shell)"  # type: ignore[attr-defined]
        card.find_element(By.XPATH, ".//button[.='Approve once']").click()  # type: ignore[attr-defined]
        out, err = cli.communicate(timeout=60)
    finally:
        cli.kill()
    approved = json.loads(out)
    assert (cli.returncode, approved["decision"], approved["reasons"][0]["message"]) == (
        0,
        "allow",
        "approved once by a person",
    ), err
    WebDriverWait(driver, 30, ignored_exceptions=_PAGE_CHANGING).until(
        lambda d: "Resolved: approved once" in card.text
    )  # type: ignore[attr-defined]

    # 2. An HTTP agent parks a call; "Deny" with feedback sends the feedback to it.
    agent = subprocess.Popen(
        [sys.executable, "-c", HTTP_WAITER, gateway.url, gateway.keys["agent"], "make deploy staging"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        card = card_for(driver, "make deploy staging")
        card.find_element(By.TAG_NAME, "textarea").send_keys("use the blue-green script instead")  # type: ignore[attr-defined]
        card.find_element(By.XPATH, ".//button[.='Deny']").click()  # type: ignore[attr-defined]
        out, err = agent.communicate(timeout=60)
    finally:
        agent.kill()
    denied = json.loads(out)
    assert (denied["state"], denied["decision"], denied["feedback"]) == (
        "denied",
        "deny",
        "use the blue-green script instead",
    ), err
    assert (
        denied["evaluation"]["reasons"][0]["message"]
        == "denied by a person: use the blue-green script instead"
    )
    assert driver.execute_script("return performance.timeOrigin") == loaded_at  # type: ignore[attr-defined]

    # 3. The history tab lists both resolutions from the ledger.
    driver.find_element(By.LINK_TEXT, "History").click()  # type: ignore[attr-defined]
    rows = WebDriverWait(driver, 30, ignored_exceptions=_PAGE_CHANGING).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "table.history tbody tr") or False
    )
    assert [r.find_elements(By.TAG_NAME, "td")[2].text for r in rows] == [
        "shell: make deploy staging",
        "shell: make deploy prod",
    ]


def test_the_page_refuses_an_agent_key_and_a_wrong_key(gateway: Gateway, browser: object) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver = browser
    messages = []
    for key in (gateway.keys["agent"], "bst_000000000000_" + "x" * 43):
        driver.get(gateway.url + "/")  # type: ignore[attr-defined]
        driver.find_element(By.ID, "key").send_keys(key)  # type: ignore[attr-defined]
        driver.find_element(By.CSS_SELECTOR, "form.login button").click()  # type: ignore[attr-defined]
        # The answer is a new page: wait for it rather than reading the one being replaced.
        alert = WebDriverWait(driver, 30, ignored_exceptions=_PAGE_CHANGING).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "[role=alert]")
        )  # type: ignore[attr-defined]
        messages.append(alert[0].text)
    assert messages == ["That key cannot answer requests: use an approver key.", "That key is not valid."]
