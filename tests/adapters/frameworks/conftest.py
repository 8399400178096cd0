"""What the framework guard tests share: a real SQLite state dir, three tools with real side
effects (a read of a workspace file, a write, a "shell" that appends to a log), and the
ledger rows every framework must leave behind for the same three calls."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bastion.configuration import Configuration
from bastion.construct import open_gatekeeper
from bastion.policy.compiled import Policy
from bastion.runtime import Gatekeeper

Row = tuple[str, str, str, str, str | None, str, int | None]

#: The allowed read (decided, then executed) and the denied write (decided, never run).
READ_AND_WRITE: list[Row] = [
    ("decided", "read", "allow", "policy", None, "paths.roots", None),
    ("executed", "read", "allow", "policy", None, "paths.roots", 0),
    ("decided", "write", "deny", "policy", None, "hardline.credentials", None),
]
#: The asked shell call, approved by alice through the framework, then run.
SHELL_APPROVED: list[Row] = [
    ("requested", "shell", "ask", "policy", None, "shell.not-a-reader", None),
    ("resolved", "shell", "allow", "person", "alice", "approval.person", None),
    ("executed", "shell", "allow", "person", None, "approval.person", 0),
]
PUSH = "git push origin main"


#: How a denial ends: how to allow it (bastion.policy.remedy), as the model reads it.
PERSON_DENIED = ". A person denied it: it runs only if a person approves it when it is asked again."
HARDLINE_CREDENTIALS = (
    ". This cannot be allowed: the hardline check hardline.credentials refuses it whatever a policy, a grant "
    "or a person says."
)


def shell_rejected(approver: str = "alice") -> list[Row]:
    return [
        ("requested", "shell", "ask", "policy", None, "shell.not-a-reader", None),
        ("resolved", "shell", "deny", "person", approver, "approval.person", None),
    ]


@dataclass
class Tools:
    """Plain functions each framework wraps its own way; ``ran`` is every call that ran."""

    workspace: Path
    secret: Path
    ran: list[tuple[str, str]] = field(default_factory=list)

    def read(self, path: str) -> str:
        """Read a file of the workspace."""
        self.ran.append(("read", path))
        return (self.workspace / path).read_text()

    def write(self, path: str, content: str) -> str:
        """Write a file."""
        self.ran.append(("write", path))
        Path(path).write_text(content)
        return "written"

    def shell(self, command: str) -> str:
        """Run a shell command."""
        self.ran.append(("shell", command))
        with (self.workspace / "shell.log").open("a") as log:
            log.write(command + "\n")
        return "pushed"

    @property
    def shell_log(self) -> Path:
        return self.workspace / "shell.log"


@pytest.fixture
def policy(make_policy: Callable[..., Policy]) -> Policy:
    return make_policy("")  # the defaults: workspace mode, interactive calls ask


@pytest.fixture
def keeper(policy: Policy, env: dict[str, str]) -> Iterator[Gatekeeper]:
    with open_gatekeeper(Configuration(policy), env) as keeper:
        yield keeper


#: A policy whose last word on shell is a deny with no pattern: the family is disabled.
NO_SHELL = '[[rule]]\ntool = "shell"\naction = "deny"\nreason = "no shell here"\n'


@pytest.fixture
def no_shell(make_policy: Callable[..., Policy], env: dict[str, str]) -> Iterator[Gatekeeper]:
    with open_gatekeeper(Configuration(make_policy(NO_SHELL)), env) as keeper:
        yield keeper


@pytest.fixture
def tools(workspace: Path, home: Path) -> Tools:
    return Tools(workspace, home / ".ssh" / "authorized_keys")


def rows(keeper: Gatekeeper) -> list[Row]:
    return [
        (e.kind, e.tool, e.decision, e.resolver, e.approver, e.rule, e.exit_code)
        for e in (r.event for r in keeper.ledger.events())
    ]
