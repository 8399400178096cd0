"""Grant patterns: plain commands only, prefix or exact, bare programs never suggested."""

from __future__ import annotations

import pytest

from bastion.approval.grants import covers, parse_pattern, plain_argv, suggest_pattern
from bastion.approval.model import Grant, Scope
from bastion.call.model import ToolCall


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        ("git push origin main", ("git", "push", "origin", "main")),
        ("git commit -m 'two words'", ("git", "commit", "-m", "two words")),
        ("  ls   -la ", ("ls", "-la")),
    ],
)
def test_a_plain_command_splits_into_its_words(command: str, argv: tuple[str, ...]) -> None:
    assert plain_argv(command) == argv


@pytest.mark.parametrize(
    "command",
    [
        "git push origin main && rm -rf ~",
        "git push; rm x",
        "git push | tee log",
        "git push > out",
        "git push $(whoami)",
        "git push `id`",
        "git push $HOME",
        "FOO=1 git push",
        "git push 'unbalanced",
        "git push (x)",
        "git push\nrm x",
        "",
    ],
)
def test_anything_more_than_one_plain_command_has_no_argv(command: str) -> None:
    assert plain_argv(command) is None


def test_a_prefix_pattern_matches_longer_commands_and_an_exact_one_only_itself() -> None:
    prefix, exact = parse_pattern("git push origin *"), parse_pattern("git push origin main")
    assert (prefix.words, prefix.prefix, prefix.bare_program) == (("git", "push", "origin"), True, False)
    assert [
        prefix.matches(a)
        for a in (
            ("git", "push", "origin", "main"),
            ("git", "push", "origin"),
            ("git", "push", "upstream", "main"),
        )
    ] == [True, True, False]
    assert [
        exact.matches(a) for a in (("git", "push", "origin", "main"), ("git", "push", "origin", "main", "-f"))
    ] == [True, False]


def test_a_single_program_word_with_a_star_is_a_bare_program_pattern() -> None:
    assert parse_pattern("git *").bare_program is True


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("*", "a pattern needs at least the program name, e.g. 'git push origin *'"),
        ("git * push", "only a final '*' is a wildcard; '*' is not allowed in a pattern"),
        ("git pu?h *", "only a final '*' is a wildcard; 'pu?h' is not allowed in a pattern"),
        ("git push && rm *", "pattern 'git push && rm *' must be one plain command (no ;, |, &&, >, $, `…`)"),
    ],
)
def test_a_bad_pattern_is_refused_with_how_to_fix_it(pattern: str, message: str) -> None:
    with pytest.raises(ValueError) as raised:
        parse_pattern(pattern)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("argv", "suggested"),
    [
        # git push's handler decides from later words (--force, +refspec, --delete): exact
        (("git", "push", "origin", "main"), "git push origin main"),
        # every package is dangerous to the knowledge base: exact, never "npm install *"
        (("npm", "install", "left-pad"), "npm install left-pad"),
        (("git", "commit", "-m", "msg"), "git commit -m msg"),
        (("docker", "compose", "up", "web", "-d"), "docker compose up web -d"),
        (("rm", "-rf", "build"), "rm -rf build"),
        (("git", "status"), "git status"),
        # docker ps now has an option table (its -a, --format… are judged): exact words
        (("docker", "ps", "-a"), "docker ps -a"),
        (("ls", "src/"), "ls src/"),
        (("ls", "*.py"), None),
        (None, None),
    ],
)
def test_approve_always_suggests_the_narrowest_pattern_not_one_covering_force_or_any_package(
    argv: tuple[str, ...] | None, suggested: str | None
) -> None:
    assert suggest_pattern(argv) == suggested


@pytest.mark.parametrize(
    ("approved", "other"),
    [
        ("git push origin main", "git push origin main --force"),
        ("git push origin main", "git push origin +main"),
        ("npm install left-pad", "npm install evil-package"),
        ("pip install requests", "pip install requests-evil"),
        ("docker ps -a", "docker ps -a; rm -rf ~"),
    ],
)
def test_the_suggested_pattern_never_covers_a_more_dangerous_neighbour(approved: str, other: str) -> None:
    suggested = suggest_pattern(plain_argv(approved))
    assert suggested is not None
    argv = plain_argv(other)
    assert (
        parse_pattern(suggested).matches(plain_argv(approved) or ()),
        argv is not None and parse_pattern(suggested).matches(argv),
    ) == (True, False)


def _grant(**kw: object) -> Grant:
    base: dict[str, object] = {
        "id": "g1",
        "tool": "shell",
        "scope": Scope.PROJECT,
        "scope_value": "/proj/.bastion/policy.toml",
        "summary": "s",
        "created": 0.0,
    }
    base.update(kw)
    return Grant(**base)  # type: ignore[arg-type]


def _shell(command: str, session: str | None = None) -> ToolCall:
    return ToolCall("shell", {"command": command}, cwd="/proj", session=session)


def test_a_pattern_grant_covers_matching_plain_commands_in_its_project_only() -> None:
    grant = _grant(pattern="git push origin *")
    project = "/proj/.bastion/policy.toml"
    assert covers(grant, _shell("git push origin main"), call_key="k", project=project) is True
    assert covers(grant, _shell("git push origin main && rm -rf ~"), call_key="k", project=project) is False
    assert covers(grant, _shell("sudo git push origin main"), call_key="k", project=project) is False
    assert covers(grant, _shell("git push origin main"), call_key="k", project="/other") is False


def test_an_exact_grant_covers_only_the_call_with_its_key() -> None:
    grant = _grant(key="abc")
    assert covers(grant, _shell("anything"), call_key="abc", project="/proj/.bastion/policy.toml") is True
    assert covers(grant, _shell("anything"), call_key="abd", project="/proj/.bastion/policy.toml") is False


def test_a_session_grant_covers_its_session_only() -> None:
    grant = _grant(key="abc", scope=Scope.SESSION, scope_value="s1")
    assert covers(grant, _shell("x", session="s1"), call_key="abc", project="p") is True
    assert covers(grant, _shell("x", session="s2"), call_key="abc", project="p") is False
    assert covers(grant, _shell("x"), call_key="abc", project="p") is False


def test_a_grant_for_one_tool_never_covers_another() -> None:
    grant = _grant(key="abc", tool="fetch")
    assert covers(grant, _shell("x"), call_key="abc", project="/proj/.bastion/policy.toml") is False
