"""strace lines become effect events with absolute, kernel-resolved paths."""

from __future__ import annotations

from tests.differential.oracle.trace import Event, Op, events, split_args, unquote

CWD = "AT_FDCWD</h/w>"


def test_a_successful_open_takes_the_path_the_kernel_resolved_through_a_symlink() -> None:
    line = f'7 openat({CWD}, "k", O_RDONLY) = 3</h/.ssh/id_rsa>'
    assert events([line]) == [Event(Op.READ, "/h/.ssh/id_rsa", True, line)]


def test_a_failed_open_for_writing_is_an_attempt_joined_to_its_directory_fd() -> None:
    line = (
        f'7 openat({CWD}, "../.bashrc", O_WRONLY|O_CREAT|O_APPEND, 0666) = -1 EROFS (Read-only file system)'
    )
    assert events([line]) == [Event(Op.WRITE, "/h/.bashrc", False, line)]


def test_an_open_with_o_path_is_neither_a_read_nor_a_write() -> None:
    assert events(['7 openat(4</>, "run", O_RDONLY|O_NOFOLLOW|O_CLOEXEC|O_PATH) = 5</run>']) == []


def test_rename_is_a_delete_of_the_source_and_a_write_of_the_target() -> None:
    line = '8 renameat2(AT_FDCWD</h/w>, "a", 3</h/w/src>, "b", RENAME_NOREPLACE) = 0'
    assert events([line]) == [
        Event(Op.DELETE, "/h/w/a", True, line),
        Event(Op.WRITE, "/h/w/src/b", True, line),
    ]


def test_an_exec_keeps_argv1_for_the_interpreter_of_a_script() -> None:
    line = '9 execve("/usr/bin/node", ["node", "/usr/bin/npm", "ls"], 0x7ffd /* 9 vars */) = 0'
    assert events([line]) == [Event(Op.EXEC, "/usr/bin/node", True, line, detail="/usr/bin/npm")]


def test_unfinished_and_resumed_halves_are_joined() -> None:
    lines = [
        f'7 openat({CWD}, "src/a.py", O_RDONLY <unfinished ...>',
        "8 exit_group(0) = ?",
        "7 <... openat resumed>) = 3</h/w/src/a.py>",
    ]
    assert [(e.op, e.path) for e in events(lines)] == [(Op.READ, "/h/w/src/a.py")]


def test_connect_records_the_address_family_and_sendto_without_an_address_is_nothing() -> None:
    line = '5 connect(3<socket:[1]>, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 ENETUNREACH (Network is unreachable)'
    found = events([line, '5 sendto(3<socket:[1]>, "x", 1, 0, NULL, 0) = 1'])
    assert [(e.op, e.ok, e.detail) for e in found] == [(Op.CONNECT, False, "AF_INET")]


def test_arguments_split_at_top_level_commas_only() -> None:
    assert split_args('3</a,b>, "x, y", [1, 2], {a=1, b=2}') == ["3</a,b>", '"x, y"', "[1, 2]", "{a=1, b=2}"]


def test_strace_string_escapes_are_decoded() -> None:
    assert unquote(r'"a\nb\"c\\d\x41\101"') == 'a\nb"c\\dAA'
    assert unquote("AT_FDCWD") is None
