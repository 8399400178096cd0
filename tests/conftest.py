"""Shared fixtures: a throwaway HOME, a workspace inside it, and gates built from policy text."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import settings

from bastion import Gate, ToolCall, load_policy_text
from bastion.configuration import Configuration, load_text
from bastion.policy.compiled import Policy
from bastion.policy.layer import Layer
from bastion.policy.loader import parse_policy_text
from bastion.policy.network import StaticResolver

# CI draws the same examples on every run: an example that fails there is a bug to fix, found
# the same way again, never a one-run-in-N flake. Runs elsewhere keep exploring at random.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

_SESSION_STARTED = pytest.StashKey[float]()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    (path / ".ssh").mkdir(parents=True)
    (path / ".ssh" / "id_rsa").write_text("PRIVATE KEY")
    return path


@pytest.fixture
def workspace(home: Path) -> Path:
    path = home / "proj"
    (path / "src").mkdir(parents=True)
    (path / "README.md").write_text("# hi\n")
    (path / "src" / "app.py").write_text("print(1)\n")
    return path


@pytest.fixture
def env(home: Path, tmp_path: Path) -> dict[str, str]:
    return {"HOME": str(home), "BASTION_STATE_DIR": str(tmp_path / "state")}


def _runs_the_whole_session(config: pytest.Config) -> bool:
    """True in a plain run, and in pytest-xdist's controller; False in one of its workers,
    which must not end daemons that another worker's test is still using."""
    return not hasattr(config, "workerinput")


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[_SESSION_STARTED] = time.time()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Installed hooks start a detached daemon (``--autostart``) that ends when idle; a test
    run must not leave one behind, so those serving a test's state dir are ended here, once
    every test of the run is over (with workers, their temp dirs are under the controller's)."""
    config = session.config
    if not _runs_the_whole_session(config) or _SESSION_STARTED not in config.stash:
        return
    started = config.stash[_SESSION_STARTED]
    base = str(config._tmp_path_factory.getbasetemp())  # type: ignore[attr-defined]
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            environ = Path(f"/proc/{entry}/environ").read_bytes().split(b"\0")
        except OSError:
            continue
        try:
            born = os.stat(f"/proc/{entry}").st_ctime
        except OSError:
            continue
        # Daemons of this test run: under its temp dir, or started by it elsewhere (the real
        # agents' sessions keep their state in /var/tmp) - not those of another pytest run
        # going on at the same time, whose sockets sit under its own temp dir.
        if b"bastion.adapters.hooks.autostart" in cmdline and any(
            item.startswith(f"BASTION_HOOK_SOCKET={base}".encode())
            or (item.startswith(b"BASTION_HOOK_SOCKET=") and born >= started and b"/pytest-of-" not in item)
            for item in environ
        ):
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(entry), signal.SIGKILL)


PolicyFactory = Callable[..., Policy]
ConfigurationFactory = Callable[..., Configuration]
GateFactory = Callable[..., Gate]


@pytest.fixture
def make_policy(workspace: Path, env: dict[str, str]) -> PolicyFactory:
    def build(text: str = "", *, path: str | None = None) -> Policy:
        return load_policy_text(text, cwd=str(workspace), env=env, path=path)

    return build


@pytest.fixture
def make_configuration(workspace: Path, env: dict[str, str]) -> ConfigurationFactory:
    """The policy text's whole configuration: the Policy and every other section."""

    def build(text: str = "", *, path: str | None = None) -> Configuration:
        return load_text(text, cwd=str(workspace), env=env, path=path)

    return build


@pytest.fixture
def make_gate(make_policy: PolicyFactory) -> GateFactory:
    def build(
        text: str = "",
        *,
        sandboxed: bool = False,
        hosts: dict[str, list[str]] | None = None,
        contained: bool = False,
    ) -> Gate:
        return Gate(
            make_policy(text), sandboxed=sandboxed, resolver=StaticResolver(hosts or {}), contained=contained
        )

    return build


@pytest.fixture
def call(workspace: Path) -> Callable[..., ToolCall]:
    def build(family: str, /, interactive: bool = True, cwd: str | None = None, **args: object) -> ToolCall:
        return ToolCall(tool=family, args=args, cwd=cwd or str(workspace), interactive=interactive)

    return build


def pytest_configure(config: pytest.Config) -> None:
    # Tests must never read the developer's own policy files.
    os.environ.pop("BASTION_POLICY", None)


def policy_layers(folder: Path, *texts: tuple[str, bool]) -> list[Layer]:
    """The built-in defaults, then one layer per (text, trusted), as the loader reads files:
    ``folder/layer1.toml``, ``folder/layer2.toml``… (parsed from the text, never read)."""
    from bastion.policy.model import PolicyFile

    layers = [Layer(path=None, spec=PolicyFile(), trusted=True)]
    for number, (text, trusted) in enumerate(texts, start=1):
        layers.append(parse_policy_text(text, path=str(folder / f"layer{number}.toml"), trusted=trusted))
    return layers


def ignored_warning(folder: Path, number: int, what: str) -> str:
    """The warning for a loosening layer ``number`` of :func:`policy_layers` may not make."""
    path = folder / f"layer{number}.toml"
    return (
        f"{path}: untrusted project policy may only tighten; ignored {what} "
        f"(run 'bastion policy trust {path}' to accept it)"
    )
