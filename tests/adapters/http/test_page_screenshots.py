"""Screenshots of the approvals page and the history page in headless Chromium at 1280 and
390 px: what is on screen is asserted (texts, and boxes inside the viewport: the call, what it
runs in and the Approve/Deny buttons above the fold on a phone), and each screenshot matches
its reference image in ``screenshots/`` (see ``screens.py`` for why it cannot flake)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bastion.adapters.http import cards, render
from bastion.approval.model import ApprovalRequest, Deadline
from bastion.audit.events import AuditEvent, LedgerRecord
from bastion.call.effects import Effect
from bastion.policy.containment import Filesystem, Profile
from bastion.policy.decision import Decision, Evaluation, Reason
from tests.adapters.http.screens import matches_reference, outside, serve_pages, set_viewport
from tests.adapters.http.test_approvals_page import CHROMEDRIVER, CHROMIUM, _require_browser

NOW = 1_796_122_800.0  # a fixed "now": the time left is rendered, not counted by a script
FOLDER = "/home/ana/projects/shop"
POLICY = f"{FOLDER}/.bastion/policy.toml"
SESSION = "5f0c2a41-9d7e-4c1b-a2f3-8e6d1b7c9a20"
PHONE, DESKTOP = (390, 844), (1280, 800)
#: What must be visible without scrolling: the call, what it runs in, Approve and Deny.
ABOVE_THE_FOLD = [
    "#req-r1 h2",
    "#req-r1 .profile",
    '#req-r1 button[value="approve_once"]',
    '#req-r1 button[value="deny"]',
]


def _push() -> ApprovalRequest:
    reason = Reason(Decision.ASK, "rule[3]", POLICY, "git push", "pushes need a person")
    evaluation = Evaluation(
        Decision.ASK,
        (reason,),
        (Effect.NETWORK, Effect.WRITE),
        profile=Profile(Filesystem.WORKSPACE_WRITE, ("github.com",)),
    )
    return ApprovalRequest(
        id="r1", created=NOW - 60, expires=NOW + 240, tool="shell", summary="shell: git push origin main",
        reason="pushes need a person", evaluation=evaluation, call_key="k1", project=POLICY,
        session=SESSION, agent="claude/toolu_01HqK3xYz", argv=("git", "push", "origin", "main"),
        suggested_pattern="git push origin *", folder=FOLDER, deadline=Deadline.POLICY,
    )  # fmt: skip


def _workflow() -> ApprovalRequest:
    reason = Reason(Decision.ASK, "paths.allow_write", "built-in", ".github", "CI files need a person")
    return ApprovalRequest(
        id="r2", created=NOW - 10, expires=NOW + 45, tool="write",
        summary=f"write: {FOLDER}/.github/workflows/deploy.yml", reason="CI files need a person",
        evaluation=Evaluation(Decision.ASK, (reason,), (Effect.WRITE,)), call_key="k2", project=FOLDER,
        agent="codex", folder=FOLDER, deadline=Deadline.CALLER,
    )  # fmt: skip


def _resolution(seq: int, summary: str, decision: str, approver: str, message: str) -> LedgerRecord:
    event = AuditEvent(
        kind="resolved", decision_id=f"d{seq}", time=NOW - 600 * seq, tool="shell", decision=decision,
        resolver="person", rule="approval.person", source="built-in", message=message, reasons="[]",
        args_hash="", summary=summary, approver=approver,
    )  # fmt: skip
    return LedgerRecord(seq, "", "", event)


PAGES = {
    "/": cards.pending([_push(), _workflow()], csrf="c", now=NOW),
    "/history": render.history(
        [
            _resolution(1, "shell: git push origin main", "allow", "kABC123", "approved once by a person"),
            _resolution(2, "shell: rm -rf build", "deny", "local:ana", "denied by a person: not now"),
            _resolution(3, "shell: make deploy prod", "deny", "expiry", "nobody answered in 5:00"),
        ],
        csrf="c",
        names={"kABC123": "ana's phone"},
    ),
}


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    _require_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    profile = tmp_path_factory.mktemp("chromium-profile")
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--hide-scrollbars", "--force-device-scale-factor=1", "--font-render-hinting=none",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--force-color-profile=srgb", f"--user-data-dir={profile}"):  # fmt: skip
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve_pages(PAGES) as url:
        yield url


def _open(driver: Any, url: str, size: tuple[int, int]) -> None:
    set_viewport(driver, *size)
    driver.get(url)
    driver.execute_script("return document.fonts.ready")


def _text(driver: Any, selector: str) -> str:
    return str(driver.execute_script("return document.querySelector(arguments[0]).innerText", selector))


def _width(driver: Any) -> int:
    return int(driver.execute_script("return document.documentElement.scrollWidth"))


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_card_states_the_call_where_it_runs_and_its_answers_above_the_fold(
    chromium: Any, site: str, size: tuple[int, int], tmp_path: Path
) -> None:
    driver = chromium
    _open(driver, site + "/", size)

    facts = {
        s: _text(driver, f"#req-r1 {s}")
        for s in ("h2", ".profile", ".reason", ".agent", ".session", ".project", "dd.timing")
    }
    assert facts == {
        "h2": "shell git push origin main",
        ".profile": "sandbox workspace-write, network: github.com",
        ".reason": "pushes need a person",
        ".agent": "claude",
        ".session": SESSION,
        ".project": FOLDER,
        "dd.timing": "4:00 then it is denied (the policy's time to answer)",
    }
    assert _text(driver, "#req-r2 dd.timing") == (
        "0:45 then it is denied: the caller stops waiting (its own time-out is shorter than the policy's)"
    )
    assert _text(driver, "#req-r2 .profile") == "no sandbox: it runs as written"
    assert (_width(driver), outside(driver, ABOVE_THE_FOLD, *size)) == (size[0], {})

    png = driver.get_screenshot_as_png()
    share, kept = matches_reference(driver, f"pending-{size[0]}", png, tmp_path)
    assert share <= 0.02, f"{share:.1%} of the screenshot differs from its reference (new one: {kept})"


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_history_names_who_answered_and_keeps_its_labels_on_a_phone(
    chromium: Any, site: str, size: tuple[int, int], tmp_path: Path
) -> None:
    driver = chromium
    _open(driver, site + "/history", size)

    labels = driver.execute_script(
        "const row = document.querySelector('table.history tbody tr');"
        "const th = Array.from(document.querySelectorAll('table.history th'));"
        "if (th.length && th[0].offsetParent !== null) return th.map(e => e.innerText);"
        "return Array.from(row.cells).map(td => getComputedStyle(td, '::before').content.replaceAll('\"', ''));"
    )
    by = driver.execute_script(
        "return Array.from(document.querySelectorAll('table.history tbody tr'))"
        ".map(tr => tr.cells[4].lastChild.textContent)"
    )
    assert labels == ["Time", "Tool", "Call", "Decision", "By", "Why"]
    assert by == ["ana's phone", "ana (at a terminal)", "nobody (time ran out)"]
    assert _width(driver) == size[0]

    png = driver.get_screenshot_as_png()
    share, kept = matches_reference(driver, f"history-{size[0]}", png, tmp_path)
    assert share <= 0.02, f"{share:.1%} of the screenshot differs from its reference (new one: {kept})"


def test_the_comparison_tells_another_layout_from_the_reference(chromium: Any) -> None:
    from tests.adapters.http.screens import REFERENCES, changed_share

    pending, history = ((REFERENCES / f"{name}-390.png").read_bytes() for name in ("pending", "history"))
    assert (changed_share(chromium, pending, pending), changed_share(chromium, pending, history) > 0.2) == (
        0.0,
        True,
    )
