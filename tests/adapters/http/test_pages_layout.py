"""The approvals and settings pages in real headless Chromium, at a desktop width and a phone
width: no horizontal scroll, every question a person asks before answering is answered on the
card, and a grant revoked on the settings page stops covering the very next call."""

from __future__ import annotations

from pathlib import Path

from tests.adapters.http.helpers import Gateway
from tests.adapters.http.test_approvals_page import _PAGE_CHANGING, browser, card_for  # noqa: F401

COMMAND = "make deploy prod && ls -la src"


def _login(driver: object, gateway: Gateway) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(gateway.url + "/")  # type: ignore[attr-defined]
    driver.find_element(By.ID, "key").send_keys(gateway.keys["approver"])  # type: ignore[attr-defined]
    driver.find_element(By.CSS_SELECTOR, "form.login button").click()  # type: ignore[attr-defined]
    WebDriverWait(driver, 30, ignored_exceptions=_PAGE_CHANGING).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-live")
    )


def _park(gateway: Gateway, command: str) -> str:
    body = {"tool": "shell", "args": {"command": command}, "session": "sess-42", "agent": "claude"}
    answer = gateway.client("agent").post("/v1/requests", json=body)
    assert answer.status_code == 202, answer.text
    return str(answer.json()["id"])


def _no_horizontal_scroll(driver: object) -> tuple[int, int]:
    return driver.execute_script(  # type: ignore[attr-defined,no-any-return]
        "return [document.documentElement.scrollWidth, window.innerWidth]"
    )


def test_a_card_answers_every_question_without_horizontal_scroll_at_1280_and_390_px(
    gateway: Gateway,
    browser: object,  # noqa: F811
    tmp_path: Path,
) -> None:
    from selenium.webdriver.common.by import By

    driver = browser
    _park(gateway, COMMAND)
    _login(driver, gateway)
    for width in (1280, 390):
        driver.set_window_size(width, 900)  # type: ignore[attr-defined]
        driver.get(gateway.url + "/")  # type: ignore[attr-defined]
        card = card_for(driver, COMMAND)
        scroll, inner = _no_horizontal_scroll(driver)
        assert scroll <= inner, f"{width} px: the page is {scroll} px wide"
        driver.save_screenshot(str(tmp_path / f"card-{width}.png"))  # type: ignore[attr-defined]
        text = card.text  # type: ignore[attr-defined]
        title = card.find_element(By.TAG_NAME, "h2").text  # type: ignore[attr-defined]
        assert title == f"shell {COMMAND}"  # the tool once, never "shell shell: …"
        # The folder the call runs in, not the policy file that scopes a project grant.
        assert card.find_element(By.CSS_SELECTOR, ".project").text == str(gateway.workspace)  # type: ignore[attr-defined]
        assert (
            card.find_element(By.CSS_SELECTOR, ".agent").text,  # type: ignore[attr-defined]
            card.find_element(By.CSS_SELECTOR, ".session").text,
        ) == ("claude", "sess-42")  # type: ignore[attr-defined]
        parse = [li.text for li in card.find_elements(By.CSS_SELECTOR, ".parse li")]  # type: ignore[attr-defined]
        assert parse == ["make deploy prod code", "ls -la src read"]
        assert card.find_element(By.CSS_SELECTOR, ".reason").text == "deploys need a person"  # type: ignore[attr-defined]
        grants = card.find_element(By.CSS_SELECTOR, ".grant-what").text  # type: ignore[attr-defined]
        assert grants.startswith("commands matching") or grants.startswith("this exact call")
        assert f"this project: every call under the policy file {gateway.policy_file}" in text
        assert "Time left" in text
        # Parked through the HTTP API, whose caller runs the call itself: the decision carries
        # no sandbox profile, so the card claims none (it said "sandbox profile …" before #30).
        assert card.find_element(By.CSS_SELECTOR, ".profile").text == "no sandbox: it runs as written"  # type: ignore[attr-defined]


def test_a_resolved_card_no_longer_shows_time_left(gateway: Gateway, browser: object) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver = browser
    request_id = _park(gateway, "make deploy qa")
    _login(driver, gateway)
    card = card_for(driver, "make deploy qa")
    answer = gateway.client("approver").post(f"/v1/requests/{request_id}/deny", json={"feedback": "no"})
    assert answer.status_code == 200, answer.text
    WebDriverWait(driver, 30, ignored_exceptions=_PAGE_CHANGING).until(lambda d: "Resolved" in card.text)  # type: ignore[attr-defined]
    assert "Time left" not in card.text  # type: ignore[attr-defined]
    driver.get(gateway.url + "/history")  # type: ignore[attr-defined]
    rows = WebDriverWait(driver, 30, ignored_exceptions=_PAGE_CHANGING).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "table.history tbody tr") or False
    )
    by = rows[0].find_elements(By.TAG_NAME, "td")[4].text
    assert (by, gateway.key_ids["approver"] in driver.page_source) == (
        "approver",
        False,
    )  # its name, not its id


def test_the_settings_page_shows_what_is_in_force_and_a_revoke_takes_effect_on_the_next_call(
    gateway: Gateway,
    browser: object,  # noqa: F811
    tmp_path: Path,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver = browser
    request_id = _park(gateway, "make deploy blue")
    approve = gateway.client("approver").post(f"/v1/requests/{request_id}/approve", json={"always": True})
    assert approve.status_code == 200, approve.text
    agent = gateway.client("agent")
    call = {"tool": "shell", "args": {"command": "make deploy blue"}}
    assert agent.post("/v1/decide", json=call).json()["decision"] == "allow"  # the grant covers it

    settings = gateway.client("approver").get("/v1/settings").json()
    assert settings["mode"] == {"value": "workspace", "source": settings["mode"]["source"]}
    assert [g["evidence"]["request_id"] for g in settings["grants"]] == [request_id]
    assert gateway.client("agent").get("/v1/settings").status_code == 403

    _login(driver, gateway)
    for width in (1280, 390):
        driver.set_window_size(width, 900)  # type: ignore[attr-defined]
        driver.get(gateway.url + "/settings")  # type: ignore[attr-defined]
        WebDriverWait(driver, 30, ignored_exceptions=_PAGE_CHANGING).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, ".grant")
        )
        scroll, inner = _no_horizontal_scroll(driver)
        assert scroll <= inner, f"{width} px: the settings page is {scroll} px wide"
        driver.save_screenshot(str(tmp_path / f"settings-{width}.png"))  # type: ignore[attr-defined]
    body = driver.find_element(By.TAG_NAME, "main").text  # type: ignore[attr-defined]
    assert "workspace" in driver.find_element(By.CSS_SELECTOR, ".mode").text  # type: ignore[attr-defined]
    assert str(gateway.workspace) in body and str(gateway.policy_file) in body
    grant = driver.find_element(By.CSS_SELECTOR, ".grant")  # type: ignore[attr-defined]
    assert "approved by a person" in grant.find_element(By.CSS_SELECTOR, ".evidence").text
    grant.find_element(By.XPATH, ".//button[.='Revoke']").click()
    WebDriverWait(driver, 30, ignored_exceptions=_PAGE_CHANGING).until(
        lambda d: d.find_element(By.ID, "no-grants").is_displayed()
    )
    assert agent.post("/v1/decide", json=call).json()["decision"] == "ask"  # decided again at once
    assert gateway.client("approver").get("/v1/settings").json()["grants"] == []
