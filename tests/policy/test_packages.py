"""Install calls name a known manager and plain package names; anything else is a DENY."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bastion import Decision, Gate, ToolCall
from bastion.policy.packages import MANAGERS, package_denials

Call = Callable[..., ToolCall]
GateFactory = Callable[..., Gate]


def rules(gate: Gate, call: ToolCall) -> tuple[str, list[str]]:
    evaluation = gate.evaluate(call)
    return evaluation.decision.label, [r.rule for r in evaluation.reasons]


@pytest.mark.parametrize(
    ("manager", "package"),
    [
        ("pip", "requests"),
        ("pip", "requests==2.32.3"),
        ("pip", "Django"),
        ("pip", "uvicorn[standard]==0.30.1"),
        ("pip", "zope.interface"),
        ("npm", "left-pad"),
        ("npm", "left-pad@1.3.0"),
        ("npm", "@types/node@20.11.5"),
        ("npm", "lodash@latest"),
        ("cargo", "ripgrep"),
        ("cargo", "ripgrep@14.1.0"),
        ("gem", "rake:13.2.1"),
        ("apt", "jq"),
        ("apt", "libssl-dev=3.0.11-1"),
    ],
)
def test_a_plain_name_with_an_exact_pin_is_valid(manager: str, package: str) -> None:
    assert package_denials(manager, (package,)) == []


@pytest.mark.parametrize(
    ("manager", "package", "says"),
    [
        ("pip", "-r", "starts with '-': a flag"),
        ("pip", "--index-url=https://evil.example/simple", "starts with '-': a flag"),
        ("pip", "-e", "starts with '-': a flag"),
        ("pip", "https://evil.example/pkg.tar.gz", "is a URL"),
        ("pip", "git+https://github.com/x/y", "is a URL"),
        ("npm", "git@github.com:x/y.git", "is a URL"),
        ("pip", "../evil", "contains '..'"),
        ("pip", "./local", "is a path"),
        ("pip", "/tmp/evil", "is a path"),
        ("npm", "~/pkg", "is a path"),
        ("pip", "evil-1.0-py3-none-any.whl", "is a package file"),
        ("pip", "requests;rm", "contains a shell metacharacter"),
        ("pip", "requests>=2", "contains a shell metacharacter"),
        ("npm", "a$(id)", "contains a shell metacharacter"),
        ("pip", "two words", "contains a shell metacharacter or space"),
        ("npm", "Left-Pad", "is not a plain package name"),
        ("pip", "requests=2", "is not a plain package name"),
        ("cargo", "a/b", "is not a plain package name"),
    ],
)
def test_flags_paths_urls_and_metacharacters_are_denied_with_what_is_wrong(
    manager: str, package: str, says: str
) -> None:
    [reason] = package_denials(manager, (package,))
    assert (reason.decision, reason.rule, reason.source) == (
        Decision.DENY,
        "install.invalid-package",
        "built-in",
    )
    assert says in reason.message
    assert MANAGERS[manager].example in reason.message


def test_an_unknown_manager_is_denied_naming_the_known_ones() -> None:
    [reason] = package_denials("curl", ("x",))
    assert reason.rule == "install.unknown-manager"
    assert reason.message == "'curl' is not a known package manager (pip, npm, cargo, gem, apt)"


def test_every_bad_word_of_a_call_is_named() -> None:
    denials = package_denials("pip", ("requests", "-r", "../x"))
    assert [r.matched for r in denials] == ["-r", "../x"]


def test_an_invalid_package_denies_the_call_in_every_mode(make_gate: GateFactory, call: Call) -> None:
    for mode in ("workspace", "full-access"):
        gate = make_gate(f'mode = "{mode}"\n')
        assert rules(gate, call("install", manager="pip", packages=["--index-url", "x"])) == (
            "deny",
            ["install.invalid-package"],
        )


def test_a_rule_allowing_the_manager_does_not_allow_an_invalid_word(
    make_gate: GateFactory, call: Call
) -> None:
    gate = make_gate('[[rule]]\ntool = "install"\npattern = "pip *"\naction = "allow"\n')
    assert rules(gate, call("install", manager="pip", packages=["requests"])) == ("allow", ["rule[1]"])
    assert rules(gate, call("install", manager="pip", packages=["-rreqs.txt"])) == (
        "deny",
        ["install.invalid-package"],
    )


def test_a_valid_install_still_asks_and_is_refused_non_interactive(
    make_gate: GateFactory, call: Call
) -> None:
    gate = make_gate()
    assert rules(gate, call("install", manager="npm", packages=["left-pad@1.3.0"])) == (
        "ask",
        ["install.confirm"],
    )
    assert rules(gate, call("install", interactive=False, manager="npm", packages=["left-pad"])) == (
        "deny",
        ["install.non-interactive"],
    )


# -- adversarial: no word with a flag, path, URL or metacharacter is ever a valid name --------

_BAD = st.sampled_from([*";&|<>()$`'\"\\*?!{}#^% \t\n\r\x00/~", "..", "://", "-"])
_SAFE = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=0, max_size=8)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(manager=st.sampled_from(sorted(MANAGERS)), before=_SAFE, bad=_BAD, after=_SAFE)
def test_no_metacharacter_path_or_url_anywhere_in_a_word_is_accepted(
    manager: str, before: str, bad: str, after: str
) -> None:
    # A dash inside a name is ordinary (left-pad): as a flag it leads the word.
    word = bad + before + after if bad == "-" else before + bad + after
    assert package_denials(manager, (word,)) != []


@settings(max_examples=300, derandomize=True, deadline=None)
@given(manager=st.sampled_from(sorted(MANAGERS)), word=st.text(min_size=1, max_size=40))
def test_any_accepted_word_is_plain_ascii_without_a_leading_dash_or_path(manager: str, word: str) -> None:
    if package_denials(manager, (word,)):
        return
    assert word.isascii() and word.isprintable()
    assert not word.startswith(("-", ".", "/", "~"))
    assert ".." not in word and "://" not in word and "\\" not in word
    assert not set(word) & set(";&|<>()$`'\"*?!{}#^% ")
