"""A git command that names a remote reaches the host its configuration says (#30 item 2):
``git push origin`` is judged, shown and contained with ``github.com``, as if it were written."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall
from bastion.policy.containment import ssh_port
from bastion.policy.git_config import parse
from bastion.policy.git_remotes import (
    Routing,
    analysis_remote_hosts,
    named_remotes,
    remote_urls,
    url_host,
)
from bastion.shell.analysis import analyze

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]


@pytest.mark.parametrize(
    ("url", "host"),
    [
        ("https://github.com/acme/widget.git", "github.com"),
        ("http://127.0.0.1:8080/r.git", "127.0.0.1"),
        ("https://bot:TOKEN@GitHub.com/o/r", "github.com"),
        ("ssh://git@github.com/o/r.git", "github.com:22"),
        ("ssh://git@gitlab.example.com:2222/o/r.git", "gitlab.example.com:2222"),
        ("git+ssh://h.example/r", "h.example:22"),
        ("git@github.com:acme/widget.git", "github.com:22"),
        ("github.com:acme/widget.git", "github.com:22"),
        ("user@[::1]:r.git", "[::1]:22"),
        ("git://github.com/o/r", None),  # not proxied: no network
        ("file:///srv/r.git", None),
        ("/srv/r.git", None),
        ("../r.git", None),
        ("./a:b", None),
        ("dir/a:b", None),  # a slash before the colon: a path, as git reads it
        ("C:r", None),
        ("ext::ssh -o ProxyCommand=x h", None),
        ("origin", None),
        ("https://", None),
    ],
)
def test_a_url_gives_the_host_a_profile_names(url: str, host: str | None) -> None:
    assert url_host(url) == host


@pytest.mark.parametrize(
    ("host", "port"),
    [("github.com:22", 22), ("h:2222", 2222), ("[::1]:22", 22), ("github.com", None), ("::1", None)],
)
def test_a_profile_host_with_a_port_is_an_ssh_destination(host: str, port: int | None) -> None:
    assert ssh_port(host) == port


CONFIG = """
[remote "origin"]
    url = https://github.com/acme/widget.git
[remote "both"]
    url = https://a.example/r
    pushurl = https://push.example/r
[remote "up"]
    url = gh:acme/up
[url "ssh://git@github.com/"]
    pushInsteadOf = https://github.com/
[url "https://github.com/"]
    insteadOf = gh:
[url "https://mirror.example/"]
    insteadOf = gh:acme/
"""


@pytest.mark.parametrize(
    ("remote", "push", "urls"),
    [
        ("origin", False, ["https://github.com/acme/widget.git"]),
        ("origin", True, ["ssh://git@github.com/acme/widget.git"]),  # pushInsteadOf, push only
        ("both", True, ["https://push.example/r"]),  # pushurl wins and skips pushInsteadOf
        ("both", False, ["https://a.example/r"]),
        ("up", False, ["https://mirror.example/up"]),  # the longest insteadOf prefix wins
        ("https://x.example/r", False, ["https://x.example/r"]),  # not a remote: a URL
        ("gh:acme/z", True, ["https://mirror.example/z"]),
    ],
)
def test_a_remote_name_leads_to_the_urls_git_uses(remote: str, push: bool, urls: list[str]) -> None:
    assert remote_urls(Routing.of(parse(CONFIG)), remote, push=push) == urls


@pytest.mark.parametrize(
    ("command", "named"),
    [
        ("push", ([], False)),
        ("push origin main", (["origin"], False)),
        ("push -u --force-with-lease=main:abc origin HEAD", (["origin"], False)),
        ("push -o ci.skip origin", (["origin"], False)),
        ("push --repo=up", (["up"], False)),
        ("fetch --all", ([], True)),
        ("fetch --multiple a b", (["a", "b"], False)),
        ("fetch --depth 1 up", (["up"], False)),
        ("pull --rebase -X theirs origin main", (["origin"], False)),
        ("ls-remote --heads up", (["up"], False)),
        ("remote update", ([], True)),
        ("remote update up", (["up"], False)),
        ("remote -v", None),
    ],
)
def test_the_remotes_a_command_names(command: str, named: tuple[list[str], bool] | None) -> None:
    sub, *args = command.split()
    assert named_remotes(sub, args) == named


@pytest.fixture
def repo(workspace: Path) -> Path:
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    subprocess.run([git, "init", "-q", "-b", "main", "."], cwd=workspace, check=True)
    subprocess.run(
        [git, "remote", "add", "origin", "https://github.com/acme/widget.git"], cwd=workspace, check=True
    )
    subprocess.run(
        [git, "remote", "add", "lab", "git@gitlab.example.com:acme/w.git"], cwd=workspace, check=True
    )
    return workspace


def _hosts(repo: Path, home: Path, command: str) -> tuple[str, ...]:
    return analysis_remote_hosts(analyze(command), str(repo), str(home))


@pytest.mark.parametrize(
    ("command", "hosts"),
    [
        ("git push origin main", ("github.com",)),
        ("git push", ("github.com",)),  # no upstream, no pushDefault: origin
        ("git fetch lab", ("gitlab.example.com:22",)),
        ("git fetch --all", ("github.com", "gitlab.example.com:22")),
        ("git push https://other.example/r.git main", ("other.example",)),
        ("git status && git push origin", ("github.com",)),
        ("cd sub && git push origin", ("github.com",)),  # git finds the repository upwards
        ("git push nosuch main", ()),  # a path, as git reads it
        ("git -c remote.origin.pushurl=https://evil.example/ push origin", ()),  # run-time routing
        ("git push $R main", ()),
        ("git remote -v", ()),
        ("git log", ()),
    ],
)
def test_a_git_command_reaches_the_hosts_its_repository_configuration_names(
    repo: Path, home: Path, command: str, hosts: tuple[str, ...]
) -> None:
    (repo / "sub").mkdir()
    assert _hosts(repo, home, command) == hosts


def test_the_default_remote_follows_push_remote_push_default_and_the_branch(repo: Path, home: Path) -> None:
    config = repo / ".git" / "config"
    subprocess.run(["git", "config", "branch.main.remote", "lab"], cwd=repo, check=True)
    seen = [_hosts(repo, home, "git push"), _hosts(repo, home, "git fetch")]
    subprocess.run(["git", "config", "remote.pushDefault", "origin"], cwd=repo, check=True)
    seen.append(_hosts(repo, home, "git push"))
    subprocess.run(["git", "config", "branch.main.pushRemote", "lab"], cwd=repo, check=True)
    seen.append(_hosts(repo, home, "git push"))
    assert config.exists()
    assert seen == [
        ("gitlab.example.com:22",),
        ("gitlab.example.com:22",),
        ("github.com",),
        ("gitlab.example.com:22",),
    ]


def test_the_persons_own_rewrites_apply_too(repo: Path, home: Path) -> None:
    (home / ".gitconfig").write_text('[url "git@github.com:"]\n\tpushInsteadOf = https://github.com/\n')
    assert (_hosts(repo, home, "git push origin"), _hosts(repo, home, "git fetch origin")) == (
        ("github.com:22",),
        ("github.com",),
    )


def test_an_unreadable_configuration_reaches_no_host(repo: Path, home: Path) -> None:
    (repo / ".git" / "config").write_bytes(b"\xff\xfe[remote")
    assert _hosts(repo, home, "git push origin") == ()


def test_the_gate_judges_the_remotes_host_and_says_where_it_leads(
    make_gate: GateFactory, call: Call, repo: Path
) -> None:
    gate = make_gate('[network]\ndeny_hosts = ["github.com"]\n')
    evaluation = gate.explain(call("shell", command="git push origin main"))
    assert (evaluation.decision, evaluation.reasons[0].rule, evaluation.reasons[0].matched) == (
        Decision.DENY,
        "network.deny_hosts",
        "github.com",
    )
    assert any("remote 'origin' reaches github.com" in line for line in evaluation.trace)


def test_an_unlisted_remote_host_asks_with_its_name(make_gate: GateFactory, call: Call, repo: Path) -> None:
    evaluation = make_gate().evaluate(call("shell", command="git fetch origin"))
    unlisted = [r for r in evaluation.reasons if r.rule == "network.unlisted"]
    assert (evaluation.decision, [r.matched for r in unlisted]) == (Decision.ASK, ["github.com"])
