"""The settings page's form in real headless Chromium: a person changes the tier, and the
very next call is decided under it; another site's form cannot change anything."""

from __future__ import annotations

import html
import tomllib
from pathlib import Path
from urllib.parse import quote

from tests.adapters.http.helpers import Gateway
from tests.adapters.http.test_approvals_page import _PAGE_CHANGING, browser  # noqa: F401
from tests.adapters.http.test_pages_layout import _login, _no_horizontal_scroll


def _decided(gateway: Gateway) -> str:
    call = {"tool": "write", "args": {"path": str(gateway.workspace / "notes.txt"), "content": "x"}}
    return str(gateway.client("agent").post("/v1/decide", json=call).json()["decision"])


def _save_mode(driver: object, mode: str) -> str:
    """Choose ``mode`` in the form, save, and return what the page then says."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    Select(driver.find_element(By.ID, "mode")).select_by_value(mode)  # type: ignore[attr-defined]
    loaded_at = driver.execute_script("return performance.timeOrigin")  # type: ignore[attr-defined]
    driver.find_element(By.XPATH, "//button[.='Save settings']").click()  # type: ignore[attr-defined]
    # The page before the post may hold the last save's status: wait for a new document (its
    # time origin differs), and read the status inside the wait. Asking an element of the old
    # page whether it is stale can itself fail in Chromium while the navigation runs ("Node
    # with given id does not belong to the document"), so no old element is asked anything.
    WebDriverWait(driver, 30, ignored_exceptions=_PAGE_CHANGING).until(
        lambda d: d.execute_script("return performance.timeOrigin") != loaded_at
    )
    text = WebDriverWait(driver, 30, ignored_exceptions=_PAGE_CHANGING).until(
        lambda d: next((e.text for e in d.find_elements(By.CSS_SELECTOR, "[role=status]")), False)
    )
    return str(text)


def test_a_person_changes_the_tier_on_the_page_and_the_next_call_is_decided_under_it(
    gateway: Gateway,
    browser: object,  # noqa: F811
    tmp_path: Path,
) -> None:
    from selenium.webdriver.common.by import By

    driver = browser
    assert _decided(gateway) == "allow"  # workspace: a write inside the workspace
    _login(driver, gateway)
    driver.get(gateway.url + "/settings")  # type: ignore[attr-defined]
    assert driver.find_element(By.ID, "mode").get_attribute("value") == "workspace"  # type: ignore[attr-defined]

    said = _save_mode(driver, "read-only")
    assert said == f"Saved to {gateway.policy_file}; the next call is decided with it."
    assert "read-only" in driver.find_element(By.CSS_SELECTOR, ".mode").text  # type: ignore[attr-defined]
    assert _decided(gateway) == "deny"

    assert _save_mode(driver, "ask-before-edit").startswith("Saved to")
    assert _decided(gateway) == "ask"
    for width in (1280, 390):
        driver.set_window_size(width, 900)  # type: ignore[attr-defined]
        scroll, inner = _no_horizontal_scroll(driver)
        assert scroll <= inner, f"{width} px: the settings page is {scroll} px wide"
        driver.save_screenshot(str(tmp_path / f"settings-form-{width}.png"))  # type: ignore[attr-defined]

    assert tomllib.loads(gateway.policy_file.read_text())["mode"] == "ask-before-edit"
    events = gateway.client("admin").get("/v1/logs").json()["events"]
    changes = [(e["raw_args"], e["approver"]) for e in events if e["kind"] == "settings"]
    assert changes == [
        ({"mode": "read-only"}, gateway.key_ids["approver"]),
        ({"mode": "ask-before-edit"}, gateway.key_ids["approver"]),
    ]


def test_another_sites_form_cannot_change_the_tier_even_while_the_person_is_logged_in(
    gateway: Gateway,
    browser: object,  # noqa: F811
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver = browser
    _login(driver, gateway)  # the login cookie is in this browser
    before = gateway.policy_file.read_text()
    forged = (
        f'<form method="post" action="{html.escape(gateway.url)}/settings">'
        '<input name="mode" value="full-access"><input name="csrf" value="guessed"></form>'
        "<script>document.forms[0].submit()</script>"
    )
    driver.get("data:text/html," + quote(forged))  # type: ignore[attr-defined]
    body = WebDriverWait(driver, 30, ignored_exceptions=_PAGE_CHANGING).until(
        lambda d: d.current_url.startswith(gateway.url) and d.find_element(By.TAG_NAME, "body").text
    )
    # SameSite=Strict: the cross-site post carries no login, so it is refused as from nobody.
    assert '"invalid_session"' in body
    assert (gateway.policy_file.read_text(), _decided(gateway)) == (before, "allow")
