"""Hardline destructive class: catastrophic forms are flagged with a reason, whatever the
spelling; workspace-wide recursive deletes are destructive but not catastrophic."""

from __future__ import annotations

import pytest
from helpers import E, analyze

CATASTROPHIC = [
    "rm -rf /",
    "rm -fr /",
    "rm -r -f /",
    "rm --recursive --force /",
    "rm -Rf /",
    "/bin/rm -rf /",
    "/usr/bin/rm -rf /",
    "\\rm -rf /",
    "'r'm -rf /",
    '"rm" -rf /',
    "$'\\x72m' -rf /",
    "$'\\162m' -rf /",
    "r\\m -rf /",
    "sudo rm -rf /",
    "sudo -u root rm -rf /",
    "doas rm -rf /",
    "rm -rf /*",
    "rm -rf ~",
    "rm -rf ~/",
    "rm -rf $HOME",
    'rm -rf "$HOME"',
    "rm -rf ${HOME}",
    "rm -rf /etc",
    "rm -rf /usr",
    "rm -rf /bin",
    "rm -rf /boot",
    "rm -rf /var",
    "rm -rf /lib",
    "rm -rf /usr/",
    "rm -rf //",
    "rm -rf /./",
    "rm -rf /etc/",
    'rm -rf "$DIR"/*',
    "rm -rf $X/",
    "rm -rf ${BUILD}/*",
    'rm -rf "$TMP"/',
    "rm -rf -- /",
    "rm -f -r /",
    "rm -rfv /",
    "rm -r /",
    "FOO=1 rm -rf /",
    "nice rm -rf /",
    "timeout 10 rm -rf /",
    "nohup rm -rf / &",
    "env rm -rf /",
    "env -i rm -rf /",
    "time rm -rf /",
    "command rm -rf /",
    "exec rm -rf /",
    "stdbuf -o0 rm -rf /",
    "ionice -c3 rm -rf /",
    "setsid rm -rf /",
    "nice -n 5 rm -rf ~",
    "bash -c 'rm -rf /'",
    'sh -c "rm -rf /"',
    "zsh -lc 'rm -rf ~'",
    "bash -xc 'rm -rf /'",
    "eval 'rm -rf /'",
    "eval rm -rf /",
    "echo $(rm -rf ~)",
    "echo `rm -rf ~`",
    "ls & rm -rf /",
    "ls; rm -rf /",
    "ls && rm -rf /",
    "false || rm -rf /",
    "git log -1; rm -rf /",
    "{ rm -rf /; }",
    "(rm -rf /)",
    "if true; then rm -rf /; fi",
    "for i in 1; do rm -rf /; done",
    "while true; do rm -rf ~; done",
    "case x in x) rm -rf /;; esac",
    "f() { rm -rf /; }; f",
    "cat <(rm -rf ~)",
    "echo x >(rm -rf ~)",
    "x=$(rm -rf ~)",
    "bash <<'EOF'\nrm -rf /\nEOF",
    "sh <<< 'rm -rf /'",
    "xargs rm -rf /",
    "watch rm -rf /",
    "flock /tmp/l rm -rf /",
    "flock /tmp/l -c 'rm -rf /'",
    "su -c 'rm -rf /'",
    "env -S 'rm -rf /'",
    "sudo bash -c 'rm -rf /'",
    "sudo -s rm -rf /",
    "find / -delete",
    "find / -name x -delete",
    "mkfs.ext4 /dev/sda1",
    "mkfs -t ext4 /dev/sdb",
    "mke2fs /dev/sda",
    "wipefs -a /dev/sda",
    "dd if=/dev/zero of=/dev/sda",
    "dd if=/dev/urandom of=/dev/nvme0n1 bs=1M",
    "cat x > /dev/sda",
    "echo > /dev/sdb",
    "cp img /dev/sda",
    "tee /dev/sda < img",
    "shred /dev/sda",
    ":(){ :|:& };:",
    "bomb() { bomb | bomb & }; bomb",
    "chmod -R 777 /",
    "chmod -R 777 ~",
    "chown -R nobody /",
    "chown -R x:y /etc",
    "chmod --recursive 000 /usr",
    "mv ~ /tmp/x",
    "mv /etc /tmp",
    "mv $HOME /dev/null",
    "rm -rf /home",
    "rm -rf /Users",
    "rm -rf ~/*",
    "rmdir /",
    "shred -u /dev/sda",
    "sudo find / -delete",
    "timeout 5 find / -delete",
    "kill -9 -1",  # every process of the user: the whole session (issue 31)
]
DESTRUCTIVE_NOT_CATASTROPHIC = [
    "rm -rf .",
    "rm -rf ..",
    "rm -rf *",
    "rm -rf ./*",
    "rm -rf ../",
    "rm -rf ../..",
    "rm -rf ~/projects",
    "shred secret.txt",
    "rm -rf ../../../../..//",
]
PLAIN_DELETES = [
    ("rm x", ["x"]),
    ("rm -f a b", ["a", "b"]),
    ("rm -rf build", ["build"]),
    ("rm -rf node_modules dist", ["node_modules", "dist"]),
    ("rmdir empty", ["empty"]),
    ("unlink f", ["f"]),
    ("rm -- -weird", ["-weird"]),
    ("rm -rf /tmp/x", ["/tmp/x"]),
    ("rm -r src/old", ["src/old"]),
    ("rm *.pyc", ["*.pyc"]),
]


@pytest.mark.parametrize("command", CATASTROPHIC)
def test_is_catastrophic(command: str) -> None:
    a = analyze(command)
    hits = [c for c in a.commands if c.catastrophic]
    assert hits, [(c.argv, c.effects, c.notes) for c in a.commands]
    assert all(E.DESTRUCTIVE in c.effects for c in hits)


@pytest.mark.parametrize("command", DESTRUCTIVE_NOT_CATASTROPHIC)
def test_is_destructive_but_not_catastrophic(command: str) -> None:
    a = analyze(command)
    assert a.decidable, a.errors
    assert any(E.DESTRUCTIVE in c.effects for c in a.commands)
    assert not any(c.catastrophic for c in a.commands)


@pytest.mark.parametrize(("command", "paths"), PLAIN_DELETES)
def test_plain_delete_lists_its_targets(command: str, paths: list[str]) -> None:
    a = analyze(command)
    assert a.decidable, a.errors
    (c,) = a.commands
    assert c.program in ("rm", "rmdir", "unlink")
    assert E.DELETE in c.effects and E.DESTRUCTIVE not in c.effects
    assert c.catastrophic is None
    assert [p.path for p in c.paths] == paths
    assert {p.access.value for p in c.paths} == {"delete"}


def test_git_clean_fdx_is_a_delete_not_a_catastrophe() -> None:
    (c,) = analyze("git clean -fdx").commands
    assert E.DELETE in c.effects and c.catastrophic is None


def test_git_reset_hard_is_a_delete() -> None:
    (c,) = analyze("git reset --hard HEAD~1").commands
    assert E.DELETE in c.effects and c.catastrophic is None


def test_rm_of_unknown_variable_path_is_unknown_not_catastrophic() -> None:
    (c,) = analyze('rm -rf "$BUILD_DIR/out"').commands
    assert c.catastrophic is None
    assert [p.path for p in c.paths] == [None]
