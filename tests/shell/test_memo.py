"""The command memo (``shell.memo``): within one analysis an identical simple command met in
an identical classifier state is classified once, and nothing it returns differs from
classifying every command afresh (``analyze(..., memo=False)``)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bastion.call.effects import Effect
from bastion.shell import unwrap, walk
from bastion.shell.analysis import analyze
from bastion.shell.parser import parse
from bastion.shell.walk_memo import StatementMemo
from bastion.shell.walk_model import Ids, Walk

E = Effect

#: Pairs of identical commands between which something may change what the second means.
ADVERSARIAL = [
    "f() { cat a; }; f; f() { rm -rf ~; }; f",
    "f() { cat a; }; cat a; f() { rm -rf ~; }; f",
    "cat a; f() { cat b; }; cat a; f; f",
    "cat() { rm -rf /; }; cat a; unset -f cat; cat a",
    "cat a; alias cat='rm -rf ~'; cat a",
    "cat a; cd /etc; cat a; cd -; cat a",
    "rm -rf *; cd /; rm -rf *",
    "(cd /; rm -rf *); rm -rf *",
    "pushd /; rm -rf *; popd; rm -rf *",
    "cat a; CDPATH=/etc; cd ssh; cat a",
    "ls; PATH=/tmp; ls; ls",
    "ls; unset PATH; ls",
    "x=1; echo $((x)); x='a[$(id)]'; echo $((x))",
    "echo $((y)); y=1; echo $((y))",
    "for f in a b; do rm $f; done; rm $f",
    "for f in a '*'; do cat \"$f\"; done",
    "grep x a | head; grep x a | head; cd /etc; grep x a | head",
    "ls | head; ls | head & ls | head",
    "cat a & cat a; cat a",
    "echo $(cat a); cat a; echo $(cat a)",
    "sh -c 'ls | head'; sh -c 'ls | head'",
    "sh -c 'cd /; rm -rf *'; rm -rf *",
    "eval 'cd /'; rm -rf *; eval 'cd /'; rm -rf *",
    "{ cat a; } > out; cat a; { cat a; } > out",
    "cat a; cat a 2>/dev/null; cat a > b; cat a",
    "while :; do ls & done; ls &",
    "true && cat a || cat a; cat a",
    "if [ -f a ]; then cat a; fi; cat a; [ -f a ]",
    "find . -exec cat {} +; find . -exec cat {} +",
    "xargs cat; xargs cat",
    "sudo cat a; cat a; sudo cat a",
    "cat <<EOF; cat a\nbody $(id)\nEOF\ncat a",
    "read x; echo $((x)); read x; echo $((x))",
    "exec 3>out; cat a; exec 3>out; cat a",
    "trap 'rm -rf ~' EXIT; cat a; trap - EXIT; cat a",
    "a=1; a=1; export a; a=1",
    "case x in a) cat a;; b) cat a;; esac; cat a",
    'bash -c "$X"; bash -c "$X"',
    "bash -c ''; bash -c ''; bash -c 'ls'",  # a child shell id drawn, no command run in it
    "(ls); (ls); ls | head; (ls); ls | head; sh -c 'ls | ls'; (ls)",
    "for f in a b; do rm $f; rm $f; done; rm $f; rm $f",
    "f() { ls; }; f() { ls; }; f",
    "((x++)); ((x++)); echo $((x)); echo $((x))",
    "echo $((x)); echo $((x)); x=$(id); echo $((x))",
    "ls )); ls ))",
    "echo a\\\nb; echo a\\\nb",  # a walk error names its position: each one is reported
    "cat <<A; cat <<A\none\nA\ntwo\nA\ncat <<A; cat <<A",
    "cat <<A; ls; ls\n$(rm -rf ~)\nA\nls; ls",
    "{ ls; ls; } > a; { ls; ls; } > a",
    "ls; ls & ls; ls &",
    "a && a && b || a; a",
    "cd /; ls; cd /; ls; rm -rf *",
]

PLAIN = [
    "git status",
    "git log --oneline -5",
    "ls -la src",
    "grep -rn TODO src | head -5",
    "cat README.md | wc -l",
    "npm run build && npm test",
    "echo test > docs/out.txt",
    "rm -rf build",
    "curl -s https://pypi.org/simple/requests/",
    "python3 -c 'print(1)'",
]


def _joined(parts: list[str]) -> list[str]:
    """Every command twice in a row and interleaved, with `;`, `&&`, `|` and newlines."""
    out = []
    for a, b in itertools.product(parts, repeat=2):
        out += [f"{a}; {b}; {a}; {b}", f"{a} && {a}", f"{a}\n{b}\n{a}", f"{a} | {a}"]
    return out


@pytest.mark.parametrize("command", ADVERSARIAL)
def test_the_memo_changes_nothing_in_a_command_where_the_meaning_may_change(command):
    assert analyze(command) == analyze(command, memo=False)


def test_the_memo_changes_nothing_in_repeated_ordinary_commands():
    for command in _joined(PLAIN):
        assert analyze(command) == analyze(command, memo=False), command


def test_the_memo_changes_nothing_in_a_long_repeated_command():
    command = "; ".join(["grep -rn TODO src | head -5"] * 400)[:10240]
    fresh = analyze(command, memo=False)
    assert analyze(command) == fresh
    assert len(fresh.commands) == 707 and fresh.decidable


def test_a_redefined_function_is_judged_by_its_new_body():
    first, second = analyze("f() { cat a; }; f; f() { rm -rf ~; }; f").commands[1::2][:2]
    assert first.argv == ("f",) and first.pure_reader and first.catastrophic is None
    assert second.argv == ("f",) and second.catastrophic == "rm of the home directory"


def test_a_loop_variable_is_not_taken_from_an_earlier_turn():
    removed = [use.path for c in analyze("for f in a b; do rm $f; done").commands for use in c.paths]
    assert removed == ["a", "b"]


def test_a_cd_between_two_identical_commands_moves_the_second():
    paths = [c.paths[0].path for c in analyze("cat a; cd /etc; cat a").commands if c.program == "cat"]
    assert paths == ["a", "/etc/a"]


def test_each_pipeline_stage_keeps_its_own_child_shell():
    scopes = [c.scope for c in analyze("grep x a | head; grep x a | head").commands]
    assert len(set(scopes)) == 4


def test_identical_commands_are_classified_once(monkeypatch):
    calls = []
    original = unwrap.Classifier.command

    def counting(self, raw, words, outer, applied=False, extra_args=False):
        calls.append(raw.text)
        return original(self, raw, words, outer, applied, extra_args)

    monkeypatch.setattr(unwrap.Classifier, "command", counting)
    analyze("; ".join(["grep -rn TODO src | head -5"] * 50))
    assert sorted(set(calls)) == ["grep -rn TODO src", "head -5"] and len(calls) == 2
    calls.clear()
    analyze("; ".join(["grep -rn TODO src | head -5"] * 50), memo=False)
    assert len(calls) == 100


def test_identical_statements_of_a_list_are_walked_once(monkeypatch):
    calls = []
    original = walk._command

    def counting(w, node, *args):
        calls.append(node.text)
        return original(w, node, *args)

    monkeypatch.setattr(walk, "_command", counting)
    analyze("; ".join(["grep -rn TODO src | head -5"] * 50))
    assert calls == [b"grep -rn TODO src", b"head -5"]
    calls.clear()
    analyze("; ".join(["grep -rn TODO src | head -5"] * 50), memo=False)
    assert len(calls) == 100


def _walked_twice(source: bytes) -> tuple[StatementMemo, Walk, list]:
    """A memo holding the first statement of ``source``, the walk, and the second statement."""
    root = parse(source).root_node
    ids = Ids()
    w = Walk(source, walk._stmt, ids=ids)
    memo = StatementMemo(ids)
    first, second = root.named_children[:2]
    out: list = []
    memo.statement(w, first, out, lambda: walk._stmt(w, first, (), out, ()))
    return memo, w, [second]


def _replayed(memo: StatementMemo, w: Walk, node) -> list | None:
    """What the memo appends for ``node``, or None when it walks it afresh."""
    out: list = []
    fresh: list = []
    memo.statement(w, node, out, lambda: fresh.append(node))
    return None if fresh else out


def test_a_statement_is_replayed_only_over_the_same_tree():
    memo, w, (second,) = _walked_twice(b"ls -l | head; ls -l | head")
    assert [r.text for r in _replayed(memo, w, second)] == ["ls -l", "head"]
    for walked in memo._walked.values():  # the same bytes, another tree: walked afresh
        walked[0].shape = "(program (command))"
    assert _replayed(memo, w, second) is None


def test_a_statement_is_not_replayed_under_other_loop_bindings():
    from bastion.shell.words import Binding

    memo, w, (second,) = _walked_twice(b"rm $f; rm $f")
    assert _replayed(memo, w, second) is not None
    w.bindings["f"] = Binding("a")
    assert _replayed(memo, w, second) is None


#: Statements that define, move, assign or nest, and the plain ones they may change.
VOCABULARY = [
    "cat a", "rm -rf *", "f", "f() { cat a; }", "f() { rm -rf ~; }", "unset -f f", "cd /", "cd -",
    "cd src", "alias cat='rm -rf ~'", "PATH=/tmp", "x=1", "x='a[$(id)]'", "echo $((x))", "ls | head",
    "(cd /; ls)", "sh -c 'cat a'", "bash -c ''", "eval 'cd /'", "for f in a b; do rm $f; done",
    "{ cat a; } > out", "cat a &", "echo $(cat a)", "read x", "trap 'rm -rf ~' EXIT", "rm $f",
]  # fmt: skip


@settings(max_examples=400, deadline=None, derandomize=True)
@given(
    st.lists(st.sampled_from(VOCABULARY), min_size=2, max_size=10),
    st.sampled_from(["; ", " && ", "\n", " || "]),
)
def test_the_memo_changes_nothing_in_any_sequence_of_statements(statements, separator):
    command = separator.join(statements)
    assert analyze(command) == analyze(command, memo=False)
