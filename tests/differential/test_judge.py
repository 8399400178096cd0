"""Observed effects against declarations, on canned traces (no sandbox needed)."""

from __future__ import annotations

from tests.differential.oracle.judge import Declaration, Finding, Kind, Where, judge, judge_run
from tests.differential.oracle.trace import events

WHERE = Where(home="/h", workspace="/h/w")
CWD = "AT_FDCWD</h/w>"
SHELL = '1 execve("/bin/bash", ["/bin/bash", "-c", "x"], 0x1 /* 4 vars */) = 0'


def reader(*programs: str) -> Declaration:
    return Declaration(
        frozenset({"bash", *programs}), writes=False, deletes=False, network=False, long_running=False
    )


def kinds(lines: list[str], declared: Declaration) -> list[tuple[Kind, str]]:
    return [(f.kind, f.path) for f in judge(events(lines), declared, WHERE)]


def test_a_pure_reader_reading_the_workspace_and_the_system_has_no_finding() -> None:
    lines = [
        SHELL,
        '2 execve("/usr/bin/cat", ["cat", "src/a.py"], 0x1 /* 4 vars */) = 0',
        f'2 openat({CWD}, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3</etc/ld.so.cache>',
        f'2 openat({CWD}, "/lib/x86_64-linux-gnu/libc.so.6", O_RDONLY|O_CLOEXEC) = 3</usr/lib/x86_64-linux-gnu/libc.so.6>',
        f'2 openat({CWD}, "src/a.py", O_RDONLY) = 3</h/w/src/a.py>',
        f'2 openat({CWD}, "/dev/null", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 1</dev/null>',
        f'2 openat({CWD}, "/etc/shadow", O_RDONLY) = -1 ENOENT (No such file or directory)',
    ]
    assert kinds(lines, reader("cat")) == []


def test_a_read_through_the_workspace_symlink_is_a_credential_read() -> None:
    lines = [SHELL, f'2 openat({CWD}, "k", O_RDONLY) = 3</h/.ssh/id_rsa>']
    assert kinds(lines, reader("cat")) == [(Kind.CREDENTIAL_READ, "/h/.ssh/id_rsa")]


def test_a_workspace_dotenv_is_a_credential_even_inside_the_workspace() -> None:
    lines = [SHELL, '2 openat(3</h/w>, ".env", O_RDONLY) = 4</h/w/.env>']
    assert kinds(lines, reader("grep")) == [(Kind.CREDENTIAL_READ, "/h/w/.env")]


def test_reads_under_home_are_config_reads_only_for_the_program_that_ran() -> None:
    git = '2 execve("/usr/bin/git", ["git", "status"], 0x1 /* 4 vars */) = 0'
    read = f'2 openat({CWD}, "/h/.gitconfig", O_RDONLY) = 3</h/.gitconfig>'
    assert kinds([SHELL, git, read], reader("git")) == [(Kind.CONFIG_READ, "/h/.gitconfig")]
    assert kinds([SHELL, read], reader("cat")) == [(Kind.READ_OUTSIDE, "/h/.gitconfig")]


def test_an_attempted_write_outside_the_workspace_counts_even_when_it_failed() -> None:
    lines = [
        SHELL,
        f'1 openat({CWD}, "/etc/cron.d/x", O_WRONLY|O_CREAT|O_TRUNC, 0666) = -1 ENOENT (No such file or directory)',
    ]
    assert kinds(lines, reader("echo")) == [(Kind.WRITE_OUTSIDE, "/etc/cron.d/x")]


def test_a_workspace_write_needs_a_declared_write_and_never_reaches_protected_files() -> None:
    write = f'1 openat({CWD}, "out.txt", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</h/w/out.txt>'
    policy = f'1 openat({CWD}, ".bastion/policy.toml", O_WRONLY|O_CREAT|O_TRUNC, 0666) = -1 ENOENT (No such file or directory)'
    writer = Declaration(
        frozenset({"bash", "echo"}), writes=True, deletes=False, network=False, long_running=False
    )
    assert kinds([SHELL, write], reader("tree")) == [(Kind.WRITE_UNDECLARED, "/h/w/out.txt")]
    assert kinds([SHELL, write, policy], writer) == [(Kind.WRITE_PROTECTED, "/h/w/.bastion/policy.toml")]


def test_git_refreshing_its_index_is_reported_apart() -> None:
    lines = [
        SHELL,
        '2 execve("/usr/bin/git", ["git", "status"], 0x1 /* 4 vars */) = 0',
        f'2 openat({CWD}, "/h/w/.git/index.lock", O_RDWR|O_CREAT|O_EXCL|O_CLOEXEC, 0666) = 3</h/w/.git/index.lock>',
        '2 rename("/h/w/.git/index.lock", "/h/w/.git/index") = 0',
    ]
    assert kinds(lines, reader("git")) == [
        (Kind.INDEX_REFRESH, "/h/w/.git/index.lock"),
        (Kind.INDEX_REFRESH, "/h/w/.git/index"),
    ]


def test_a_git_write_renaming_its_lock_file_is_that_write() -> None:
    lines = [
        SHELL,
        '2 execve("/usr/bin/git", ["git", "tag", "v1"], 0x1 /* 4 vars */) = 0',
        f'2 openat({CWD}, "/h/w/.git/refs/tags/v1.lock", O_RDWR|O_CREAT|O_EXCL|O_CLOEXEC, 0666) = 3</h/w/.git/refs/tags/v1.lock>',
        '2 rename("/h/w/.git/refs/tags/v1.lock", "/h/w/.git/refs/tags/v1") = 0',
        '2 unlink("/h/w/.git/refs/tags/v0") = 0',
    ]
    writer = Declaration(
        frozenset({"bash", "git"}), writes=True, deletes=False, network=False, long_running=False
    )
    assert kinds(lines, writer) == [(Kind.DELETE_UNDECLARED, "/h/w/.git/refs/tags/v0")]
    assert (Kind.DELETE_UNDECLARED, "/h/w/.git/refs/tags/v1.lock") in kinds(lines, reader("git"))


def test_a_scratch_file_created_and_removed_in_tmp_is_a_temp_file() -> None:
    lines = [
        SHELL,
        f'2 openat({CWD}, "/tmp/tacX", O_RDWR|O_CREAT|O_EXCL, 0600) = 3</tmp/tacX>',
        '2 unlink("/tmp/tacX") = 0',
        f'2 openat({CWD}, "/tmp/kept", O_WRONLY|O_CREAT, 0600) = 3</tmp/kept>',
    ]
    assert kinds(lines, reader("tac")) == [
        (Kind.TEMP_FILE, "/tmp/tacX"),
        (Kind.WRITE_OUTSIDE, "/tmp/kept"),
    ]


def test_execs_must_be_named_by_the_decision_and_come_from_system_directories() -> None:
    lines = [
        SHELL,
        '2 execve("/h/w/cat", ["./cat", "src/a.py"], 0x1 /* 4 vars */) = 0',
        '3 execve("/usr/bin/id", ["id"], 0x1 /* 4 vars */) = 0',
        '4 execve("/usr/local/bin/cat", ["cat"], 0x1 /* 4 vars */) = -1 ENOENT (No such file or directory)',
    ]
    assert kinds(lines, reader("cat")) == [
        (Kind.EXEC_UNTRUSTED, "/h/w/cat"),
        (Kind.EXEC_UNDECLARED, "/usr/bin/id"),
    ]


def test_the_interpreter_of_a_named_system_script_and_a_named_helper_are_accepted() -> None:
    lines = [
        SHELL,
        '2 execve("/usr/bin/node", ["node", "/usr/bin/npm", "ls"], 0x1 /* 9 vars */) = 0',
        '3 execve("/usr/bin/grep", ["grep", "-E"], 0x1 /* 9 vars */) = 0',
        '4 execve("/usr/bin/egrep", ["egrep"], 0x1 /* 9 vars */) = 0',
    ]
    assert kinds(lines, reader("npm", "egrep")) == []


def test_a_login_shell_running_id_from_etc_profile_is_a_startup_exec() -> None:
    lines = [
        SHELL,
        f'1 openat({CWD}, "/etc/profile", O_RDONLY) = 3</etc/profile>',
        '2 execve("/usr/bin/id", ["id", "-u"], 0x1 /* 9 vars */) = 0',
    ]
    assert kinds(lines, reader("ls")) == [(Kind.STARTUP_EXEC, "/usr/bin/id")]
    assert kinds([SHELL, lines[2]], reader("ls")) == [(Kind.EXEC_UNDECLARED, "/usr/bin/id")]


def test_network_is_a_violation_unless_declared_except_name_cache_and_loopback_probes() -> None:
    docker = '2 connect(3<socket:[1]>, {sa_family=AF_UNIX, sun_path="/var/run/docker.sock"}, 23) = -1 ENOENT (No such file or directory)'
    nscd = '2 connect(3<socket:[1]>, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT (No such file or directory)'
    probe = '2 bind(3<socket:[2]>, {sa_family=AF_INET6, sin6_port=htons(0), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = 0'
    outward = '2 connect(3<socket:[3]>, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("169.254.169.254")}, 16) = -1 ENETUNREACH (Network is unreachable)'
    found = kinds([SHELL, docker, nscd, probe, outward], reader("docker"))
    assert [k for k, _ in found] == [Kind.NETWORK, Kind.NETWORK]
    networked = Declaration(
        frozenset({"bash", "curl"}), writes=False, deletes=False, network=True, long_running=False
    )
    assert kinds([SHELL, outward], networked) == []


def test_a_run_without_the_shell_is_a_sandbox_failure_and_a_timeout_is_judged_by_the_declaration() -> None:
    assert judge_run((), False, reader("ls"), WHERE) == [
        Finding(Kind.SANDBOX, "", "no execve of the shell in the trace")
    ]
    sleeper = Declaration(
        frozenset({"bash", "sleep"}), writes=False, deletes=False, network=False, long_running=True
    )
    assert [f.kind for f in judge_run((SHELL,), True, sleeper, WHERE)] == [Kind.CAPPED]
    assert [f.kind for f in judge_run((SHELL,), True, reader("cat"), WHERE)] == [Kind.TIMEOUT]


def test_xargs_without_a_command_may_run_echo_but_nothing_else() -> None:
    xargs = '2 execve("/usr/bin/xargs", ["xargs"], 0x1 /* 4 vars */) = 0'
    echo = '3 execve("/usr/bin/echo", ["echo", "a"], 0x1 /* 4 vars */) = 0'
    rm = '4 execve("/usr/bin/rm", ["rm", "a"], 0x1 /* 4 vars */) = 0'
    assert kinds([SHELL, xargs, echo, rm], reader("ls", "xargs")) == [(Kind.EXEC_UNDECLARED, "/usr/bin/rm")]


def test_an_allow_built_on_a_parse_the_classifier_could_not_read_is_a_high_finding() -> None:
    unread = Declaration(
        frozenset({"bash"}), writes=False, deletes=False, network=False, long_running=False, parsed=False
    )
    findings = judge_run((SHELL,), False, unread, WHERE)
    assert [(f.kind, f.severity.value) for f in findings] == [(Kind.PARSE_LOST, "high")]
    assert judge_run((SHELL,), False, reader(), WHERE) == []  # a redirection alone runs nothing more
