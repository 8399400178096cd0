"""The bwrap command line: mount order, namespaces and the wrapper prefix (no bwrap run)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion.exec import BubblewrapRunner, ExecConfig, Limits, RunSpec, build_spec
from bastion.exec.bubblewrap import plan_mounts
from tests.conftest import PolicyFactory


def _spec(policy_text: str, make_policy: PolicyFactory, home: Path, **kw: object) -> RunSpec:
    policy = make_policy(policy_text)
    return build_spec(
        policy, ExecConfig(), ["true"], cwd=policy.workspace[0], environ={"HOME": str(home)}, **kw
    )  # type: ignore[arg-type]


def _index(argv: list[str], *items: str) -> int:
    for i in range(len(argv) - len(items) + 1):
        if tuple(argv[i : i + len(items)]) == items:
            return i
    raise AssertionError(f"{items} not in {argv}")


def test_tmpfs_over_tmp_and_home_comes_before_the_workspace_bind_beneath_them(
    make_policy: PolicyFactory, home: Path, workspace: Path
) -> None:
    argv = BubblewrapRunner("/usr/bin/bwrap").argv(_spec("", make_policy, home))
    tmp = _index(argv, "--tmpfs", "/tmp")
    private_home = _index(argv, "--tmpfs", str(home))
    bind = _index(argv, "--bind", str(workspace), str(workspace))
    assert tmp < private_home < bind


def test_without_network_every_namespace_is_unshared(make_policy: PolicyFactory, home: Path) -> None:
    argv = BubblewrapRunner("/usr/bin/bwrap").argv(_spec("", make_policy, home))
    assert argv[:6] == [
        "/usr/bin/bwrap",
        "--unshare-all",
        "--cap-drop",
        "ALL",
        "--die-with-parent",
        "--new-session",
    ]
    assert "--share-net" not in argv


def test_allowed_network_shares_only_the_network_namespace(make_policy: PolicyFactory, home: Path) -> None:
    argv = BubblewrapRunner("/usr/bin/bwrap").argv(_spec("", make_policy, home, network=True))
    assert argv[:7] == [
        "/usr/bin/bwrap",
        "--unshare-all",
        "--share-net",
        "--cap-drop",
        "ALL",
        "--die-with-parent",
        "--new-session",
    ]


def test_the_command_runs_under_nice_and_only_the_prlimits_that_are_set(
    make_policy: PolicyFactory, home: Path
) -> None:
    runner = BubblewrapRunner("/usr/bin/bwrap")
    plain = runner.argv(_spec("", make_policy, home))
    assert plain[plain.index("--") + 1 :] == ["/usr/bin/nice", "-n", "10", "true"]
    spec = RunSpec(
        argv=("true",),
        cwd=str(_spec("", make_policy, home).writable_roots[0]),
        writable_roots=_spec("", make_policy, home).writable_roots,
        limits=Limits(max_memory_mb=100),
    )
    capped = runner.argv(spec)
    assert capped[capped.index("--") + 1 :] == [
        "/usr/bin/nice",
        "-n",
        "10",
        "/usr/bin/prlimit",
        f"--as={100 * 1024 * 1024}",
        "--",
        "true",
    ]


def test_the_etc_allow_list_leaves_out_shadow_and_ssh_host_keys(
    make_policy: PolicyFactory, home: Path
) -> None:
    dests = {m.dest for m in plan_mounts(_spec("", make_policy, home))}
    assert {"/etc/passwd", "/etc/resolv.conf", "/etc/ld.so.cache"} <= dests
    assert not dests & {"/etc", "/etc/shadow", "/etc/gshadow", "/etc/ssh", "/etc/ssl/private"}


def test_read_only_mode_has_no_writable_bind(make_policy: PolicyFactory, home: Path, workspace: Path) -> None:
    mounts = plan_mounts(_spec('mode = "read-only"', make_policy, home))
    workspace_mounts = [(m.op, m.dest) for m in mounts if m.dest == str(workspace)]
    assert workspace_mounts == [("ro-bind", str(workspace))]
    assert not [m for m in mounts if m.op == "bind"]


def test_credentials_inside_a_bound_root_are_masked_after_the_root_is_bound(
    make_policy: PolicyFactory, home: Path
) -> None:
    mounts = plan_mounts(_spec(f'trusted_roots = ["{home}"]', make_policy, home))
    ops = [(m.op, m.dest) for m in mounts]
    assert ops.index(("ro-bind", str(home))) < ops.index(("hide-dir", str(home / ".ssh")))


def test_every_run_gets_its_own_user_namespace_with_no_nested_one_and_the_filter(
    make_policy: PolicyFactory, home: Path
) -> None:
    argv = BubblewrapRunner("/usr/bin/bwrap").argv(_spec("", make_policy, home), seccomp_fd=7)
    start = _index(argv, "--unshare-user", "--disable-userns", "--seccomp", "7")
    assert start < argv.index("--")


def test_tmp_and_the_private_home_are_size_capped(make_policy: PolicyFactory, home: Path) -> None:
    policy = make_policy("")
    spec = build_spec(policy, ExecConfig(tmp_size_mb=8), ["true"], cwd=policy.workspace[0],
                      environ={"HOME": str(home)})  # fmt: skip
    argv = BubblewrapRunner("/usr/bin/bwrap").argv(spec)
    size = str(8 * 1024 * 1024)
    _index(argv, "--size", size, "--tmpfs", "/tmp")
    _index(argv, "--size", size, "--tmpfs", str(home))


def test_a_protected_path_is_bound_read_only_over_the_workspace_and_its_folder_pinned(
    make_policy: PolicyFactory, home: Path, workspace: Path
) -> None:
    (workspace / ".git" / "hooks").mkdir(parents=True)
    (workspace / ".git" / "config").write_text("[core]\n")
    argv = BubblewrapRunner("/usr/bin/bwrap").argv(_spec("", make_policy, home))
    bind = _index(argv, "--bind", str(workspace), str(workspace))
    pin = _index(argv, "--bind", str(workspace / ".git"), str(workspace / ".git"))
    config = _index(argv, "--ro-bind", str(workspace / ".git" / "config"), str(workspace / ".git" / "config"))
    hooks = _index(argv, "--ro-bind", str(workspace / ".git" / "hooks"), str(workspace / ".git" / "hooks"))
    assert bind < pin < min(config, hooks)


def test_a_read_only_profile_binds_no_root_writable(make_policy: PolicyFactory, home: Path) -> None:
    from bastion.exec.profile import Profile

    spec = _spec("", make_policy, home, profile=Profile())
    assert (spec.writable_roots, spec.profile, spec.hosts) == ((), "read-only", ())
    assert "--bind" not in BubblewrapRunner("/usr/bin/bwrap").argv(spec)


def test_without_a_pids_cgroup_a_normal_user_gets_rlimit_nproc_above_what_it_runs_now(
    make_policy: PolicyFactory, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bastion.exec.bubblewrap as bubblewrap

    monkeypatch.setattr(bubblewrap.cgroups, "enforceable", lambda: {"pids": False, "memory": False})
    monkeypatch.setattr(bubblewrap.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(bubblewrap, "_tasks_of", lambda uid: 700)
    argv = BubblewrapRunner("/usr/bin/bwrap").argv(_spec("", make_policy, home))
    assert "--nproc=1212" in argv  # 700 running + the default 512
    monkeypatch.setattr(bubblewrap.os, "geteuid", lambda: 0)  # root: RLIMIT_NPROC would not hold
    assert not any(
        a.startswith("--nproc") for a in BubblewrapRunner("/usr/bin/bwrap").argv(_spec("", make_policy, home))
    )
