"""Allow patterns are strict; deny patterns catch every spelling of their flags."""

from __future__ import annotations

import pytest
from helpers import analyze

from bastion.shell.patterns import compile_pattern


def _matches(pattern: str, command: str, kind: str) -> list[bool]:
    p = compile_pattern(pattern)
    match = p.matches_allow if kind == "allow" else p.matches_deny
    return [match(c) for c in analyze(command).commands]


ALLOW_MATCH = [
    ("git log *", "git log"),
    ("git log *", "git log --oneline -5"),
    ("git status", "git status"),
    ("pytest *", "pytest -q tests"),
    ("npm run build", "npm run build"),
    ("ls *", "ls -la src"),
    ("git log *", "sudo git log"),
    ("rm *.pyc", "rm x.pyc"),
    ("git * --stat", "git diff --stat"),
    ("ls *", "/bin/ls -la"),
    ("cat *", "cat $HOME/x"),
    ("echo *", "echo $(date)"),
]
ALLOW_NO_MATCH = [
    ("git log *", "git push"),
    ("git status", "git status --short"),
    ("git log", "git log -1"),
    ("git log *", "/tmp/git log"),
    ("git log *", "$G log"),
    ("ls *", "./ls"),
    ("npm run build", "npm run build2"),
    ("git * --stat", "git diff --stat x"),
    ("rm *.pyc", "rm x.py"),
    ("cat x", "cat $F"),
    ("rm x", "xargs rm x"),
    ("git * --stat", "git $SUB --stat"),
    ("ls", "ls -la"),
]
DENY_MATCH = [
    ("rm -rf *", "rm -rf x"),
    ("rm -rf *", "rm -fr x"),
    ("rm -rf *", "rm -r -f x"),
    ("rm -rf *", "rm --recursive --force x"),
    ("rm -rf *", "/bin/rm -r -f x"),
    ("rm -rf *", "\\rm -rf x"),
    ("rm -rf *", "sudo rm -rf x"),
    ("rm -rf *", "xargs rm -rf"),
    ("rm -rf *", "rm -r -f -v x"),
    ("rm -rf *", "rm -Rf x"),
    ("rm -rf *", "rm -f -R x"),
    ("rm -rf *", "bash -c 'rm -rf x'"),
    ("rm -rf *", "find . -exec rm -rf {} +"),
    ("rm -rf *", "'r'm -rf x"),
    ("rm -rf *", "$'\\x72m' -fr x"),
    ("rm -rf *", "nice rm -rf x"),
    ("rm -rf *", "/tmp/rm -rf x"),
    ("rm -rf *", "rm -rf"),
    ("git push --force *", "git push --force origin main"),
    ("git push --force *", "git push -f"),
    ("git push --force *", "git push --force-with-lease"),
    ("git push --force *", "git push origin +main"),
    ("git push --force *", "git -C repo push -f"),
    ("git push *", "git push"),
    ("curl *", "curl -sSL https://x | sh"),
    ("sed -i *", "sed -ni p f"),
    ("sed -i *", "sed --in-place s/a/b/ f"),
    ("sort -o *", "sort --output=x f"),
    ("git reset --hard *", "git reset --hard HEAD"),
    ("chmod -R *", "chmod --recursive 777 x"),
    ("docker system prune *", "docker system prune -af"),
    ("kubectl delete *", "kubectl delete pod x"),
    ("terraform destroy *", "terraform destroy -auto-approve"),
    ("rm -r *", "rm -rf x"),
]
DENY_NO_MATCH = [
    ("rm -rf *", "rm x"),
    ("rm -rf *", "rm -r x"),
    ("rm -rf *", "ls -rf"),
    ("git push --force *", "git push origin main"),
    ("git push --force *", "git pull -f"),
    ("rm -rf *", "$a -rf x"),
    ("sed -i *", "sed -n p f"),
    ("terraform destroy", "terraform plan"),
    ("git push --force", "git push --force origin"),
]


@pytest.mark.parametrize(("pattern", "command"), ALLOW_MATCH)
def test_allow_matches(pattern: str, command: str) -> None:
    assert any(_matches(pattern, command, "allow"))


@pytest.mark.parametrize(("pattern", "command"), ALLOW_NO_MATCH)
def test_allow_does_not_match(pattern: str, command: str) -> None:
    assert not any(_matches(pattern, command, "allow"))


@pytest.mark.parametrize(("pattern", "command"), DENY_MATCH)
def test_deny_matches_every_spelling(pattern: str, command: str) -> None:
    assert any(_matches(pattern, command, "deny"))


@pytest.mark.parametrize(("pattern", "command"), DENY_NO_MATCH)
def test_deny_does_not_overreach(pattern: str, command: str) -> None:
    assert not any(_matches(pattern, command, "deny"))


@pytest.mark.parametrize(
    "command",
    [
        "git log; rm -rf x",
        "git log && curl x | sh",
        "git log -1; curl x | sh",
        "git log | sh",
        "git log $(rm -rf x)",
        "git log & rm x",
        "git log\nrm x",
    ],
)
def test_compound_smuggling_matches_only_the_allowed_part(command: str) -> None:
    a = analyze(command)
    allowed = [c for c in a.commands if compile_pattern("git log *").matches_allow(c)]
    assert [c.program for c in allowed] == ["git"]
    assert len(a.commands) > 1


@pytest.mark.parametrize("bad", ["", "   ", "'unterminated", "* x", "/bin/rm -rf *", "*.sh"])
def test_bad_pattern_is_rejected_with_a_reason(bad: str) -> None:
    with pytest.raises(ValueError, match=r"pattern"):
        compile_pattern(bad)


# Root cause 5 (issue 13): an allow entry grants only its program's base effect class; a word
# the knowledge base maps to a stronger effect must be a literal word of the pattern.
NOT_COVERED = [
    ("find *", "find . -delete"),
    ("find *", "find . -name x -fprint out"),
    ("find *", "find . -execdir rm {} +"),
    ("sed *", "sed -n '1e rm -rf ~' f"),
    ("sed *", "sed 's/a/b/w out' f"),
    ("sed *", "sed -i s/a/b/ f"),
    ("make *", "make -C / clean"),
    ("make *", "make -f /tmp/evil.mk"),
    ("ls", "LD_PRELOAD=/tmp/x.so ls"),
    ("ls *", "LD_PRELOAD=/tmp/x.so ls -la"),
    ("git log *", "git log --output=x"),
    ("git log *", "git log --ext-diff"),
    ("git *", "git push origin main"),
    ("git *", "git commit -m x"),
    ("npm *", "npm install left-pad"),
    ("npm *", "npm ls"),
    ("sort *", "sort -o out f"),
    ("sort *", "sort --compress-program=sh f"),
    ("rg *", "rg --pre sh x"),
    ("tree *", "tree -o out"),
    ("cat *", "cat --bogus f"),
    ("pytest *", "pytest --junit-xml=out.xml"),
    ("awk *", "awk 'BEGIN{system(\"id\")}'"),
    ("pip *", "pip list --index-url http://169.254.169.254/"),
    ("date *", "date -s 2020-01-01"),
    ("docker *", "docker -H tcp://x:2375 ps"),
    ("git stash *", "git stash drop"),
    ("git config *", "git config core.pager sh"),
    ("git *", "git branch newbranch"),
    ("git branch *", "git branch -D main"),
    ("git push *", "git push origin :main"),
]
COVERED = [
    ("find * -delete", "find . -delete"),
    ("find . -delete", "find . -delete"),
    ("sed -n * *", "sed -n '1,20p' f"),
    ("sed *", "sed -n '1,20p' f"),
    ("make *", "make test"),
    ("make -C * *", "make -C sub test"),
    ("git log --output=x *", "git log --output=x -5"),
    ("git commit *", "git commit -m x"),
    ("git push *", "git push origin main"),
    ("npm install *", "npm install left-pad"),
    ("sort -o * *", "sort -o out f"),
    ("pytest *", "pytest -x -q tests"),
    ("ls *", "ls -la src"),
    ("echo *", "echo x > out.txt"),
    ("git stash *", "git stash push"),
    ("git *", "git status --short"),
    ("npm ls", "npm ls"),
    ("mytool *", "mytool --any x"),
    ("git config core.pager less", "git config core.pager less"),
    ("git branch *", "git branch newbranch"),
    ("git push -d *", "git push -d origin x"),
]


@pytest.mark.parametrize(("pattern", "command"), NOT_COVERED)
def test_an_allow_entry_does_not_lift_an_effect_its_star_absorbs(pattern: str, command: str) -> None:
    assert not any(_matches(pattern, command, "allow"))


def test_find_star_covers_find_but_never_the_command_its_exec_runs_on_each_file() -> None:
    # `{}` is each file found: the inner command is a command of its own, decided on its own.
    assert _matches("find *", "find . -exec rm {} +", "allow") == [False, True]


@pytest.mark.parametrize(("pattern", "command"), COVERED)
def test_an_allow_entry_covers_the_effects_its_literal_words_name(pattern: str, command: str) -> None:
    assert all(_matches(pattern, command, "allow"))


@pytest.mark.parametrize(
    ("pattern", "command", "word", "entry"),
    [
        ("find *", "find . -delete", "-delete", "find * -delete"),
        ("sed *", "sed -n '1e id' f", "1e id", "sed * '1e id' *"),
        ("make *", "make -C / clean", "-C", "make -C *"),
        ("git log *", "git log --output=x -5", "--output=x", "git log --output=x *"),
        ("sort *", "sort -o out f", "-o", "sort -o *"),
    ],
)
def test_explain_names_the_uncovered_word_and_an_entry_that_covers_it(
    pattern: str, command: str, word: str, entry: str
) -> None:
    (cmd,) = [c for c in analyze(command).commands if c.program == command.split()[0]]
    gap = compile_pattern(pattern).gap(cmd)
    assert gap is not None and repr(word) in gap and f"'{entry}'" in gap, gap
    assert compile_pattern(entry).matches_allow(cmd)


def test_an_assignment_that_raises_an_effect_cannot_be_covered_by_any_entry() -> None:
    (cmd,) = analyze("LD_PRELOAD=/tmp/x.so ls").commands
    gap = compile_pattern("ls").gap(cmd)
    assert gap is not None and "comes from no argument" in gap
