"""HOME's credential files by (device, inode) come from the read policy's own credential
globs (#31): a hard link in the workspace to any file the gate denies by name (fish's
universal variables, a sops/age key, a docker context, dbt's profiles...) is denied as that
file, by the gate and by the read tool; past the walk's budget a file with several names is
asked. Decided on an in-memory file system whose files can share an inode."""

from __future__ import annotations

import pytest

from bastion import Decision, Gate, ToolCall
from bastion.configuration import load_policy_text
from bastion.policy.compiled import Policy
from bastion.policy.credential_inodes import Linked, Places, linked_credentials, starts
from bastion.policy.globs import GlobSet, compile_glob
from bastion.policy.paths import FileId
from bastion.policy.tree import MemoryTree

HOME = "/home/me"
WS = "/home/me/work/proj"
A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY

#: Stores the name-based deny knows and a table of named files did not (suite D).
LESS_KNOWN = (
    ".config/fish/fish_variables",
    ".local/share/fish/fish_history",
    ".config/sops/age/keys.txt",
    ".docker/contexts/meta/5f2a/meta.json",
    ".config/rbw/config.json",
    ".dbt/profiles.yml",
    ".config/atuin/key",
    ".thunderbird/xyz.default/logins.json",
    ".ssh/deploy_key",
    ".local/share/gh/tokens",  # a credential tool's data folder (suite D)
)


class LinkedTree(MemoryTree):
    """A MemoryTree in which each group of ``same`` paths is one file with that many names."""

    def __init__(self, files: dict[str, bytes], same: tuple[tuple[str, ...], ...] = (), **kw: object) -> None:
        super().__init__(files, **kw)  # type: ignore[arg-type]
        self.same = {path: (index, len(group)) for index, group in enumerate(same) for path in group}

    def identity(self, path: str) -> FileId | None:
        if path not in self.files:
            return None
        inode, links = self.same.get(path, (1000 + sorted(self.files).index(path), 1))
        return FileId(7, inode, links)


@pytest.fixture
def policy() -> Policy:
    return load_policy_text("", cwd=WS, env={"HOME": HOME, "BASTION_STATE_DIR": "/s"})


def _home(linked: dict[str, str], **kw: object) -> LinkedTree:
    """Every less-known store in HOME, a project, and ``linked``: workspace name -> HOME file."""
    files = {f"{HOME}/{name}": b"SECRET\n" for name in LESS_KNOWN}
    files |= {f"{HOME}/.bashrc": b"# rc\n", f"{WS}/README.md": b"# hi\n", f"{WS}/notes/plain.txt": b"x\n"}
    files |= {f"{WS}/{ws}": files[f"{HOME}/{home}"] for ws, home in linked.items()}
    same = tuple((f"{HOME}/{home}", f"{WS}/{ws}") for ws, home in linked.items())
    return LinkedTree(files, same, **kw)


def _decide(policy: Policy, tree: LinkedTree, tool: str, args: dict[str, str]) -> tuple[Decision, list[str]]:
    evaluation = Gate(policy, fs=tree, tree=tree, sandboxed=True).evaluate(
        ToolCall(tool, args, cwd=WS, interactive=True)
    )
    return evaluation.decision, [r.rule for r in evaluation.reasons if r.decision is evaluation.decision]


@pytest.mark.parametrize(
    ("pattern", "found", "listing"),
    [
        (".ssh", (f"{HOME}/.ssh",), True),  # a bare name: HOME's own, and any at its top level
        ("*.pem", (), True),
        ("**/.config/gcloud", (f"{HOME}/.config/gcloud",), False),
        ("**/.mozilla/firefox/*/logins.json", (f"{HOME}/.mozilla/firefox",), False),
        ("~/.*_history", (), True),
        ("~/.bundle/config", (f"{HOME}/.bundle/config",), False),
        ("/proc/*/environ", (), False),  # names nothing in HOME
        (f"{HOME}/.config/bastion/credentials", (f"{HOME}/.config/bastion/credentials",), False),
        ("/elsewhere/secret", (), False),
        ("deploy/keys.txt", (), False),  # anchored at its policy file, not HOME
    ],
)
def test_each_credential_glob_starts_where_its_fixed_components_end(
    pattern: str, found: tuple[str, ...], listing: bool
) -> None:
    glob = compile_glob(pattern, source="t", base="/work", home=HOME)

    assert starts([glob], HOME) == (found, listing)


@pytest.mark.parametrize("store", LESS_KNOWN)
def test_a_workspace_hard_link_to_any_credential_the_gate_denies_by_name_is_denied(
    policy: Policy, store: str
) -> None:
    tree = _home({"notes/innocent.txt": store})

    assert _decide(policy, tree, "shell", {"command": f"cat {HOME}/{store}"})[0] is D  # by name
    assert _decide(policy, tree, "shell", {"command": "cat notes/innocent.txt"}) == (
        D,
        ["hardline.credentials"],
    )
    assert _decide(policy, tree, "read", {"path": f"{WS}/notes/innocent.txt"}) == (
        D,
        ["hardline.credentials"],
    )


def test_the_set_holds_exactly_the_credential_files_with_another_name(policy: Policy) -> None:
    tree = _home({"a": ".config/fish/fish_variables", "b": ".docker/contexts/meta/5f2a/meta.json"})
    scandir = tree.scandir

    def identity(path: str) -> tuple[int, int, int] | None:
        found = tree.identity(path)
        return None if found is None else (found.device, found.inode, found.links)

    assert linked_credentials(policy.path_checks.credentials, identity, scandir) == Linked(
        {
            (7, 0): f"{HOME}/.config/fish/fish_variables",
            (7, 1): f"{HOME}/.docker/contexts/meta/5f2a/meta.json",
        }
    )
    # Past the budget: the files the globs name exactly are still looked at, folders are not.
    assert linked_credentials(policy.path_checks.credentials, identity, scandir, budget=3) == Linked(
        {(7, 0): f"{HOME}/.config/fish/fish_variables"}, complete=False
    )


def test_a_file_of_several_names_outside_the_credentials_stays_an_ordinary_read(policy: Policy) -> None:
    files = {f"{HOME}/.config/fish/fish_variables": b"S", f"{WS}/a": b"x", f"{WS}/b": b"x"}
    tree = LinkedTree(files, ((f"{WS}/a", f"{WS}/b"),))

    assert _decide(policy, tree, "shell", {"command": "cat a"}) == (A, ["mode.workspace"])
    assert _decide(policy, tree, "read", {"path": f"{WS}/a"})[0] is A


def test_when_the_credential_locations_are_too_many_to_look_at_a_file_of_several_names_is_asked(
    policy: Policy,
) -> None:
    files = {f"{HOME}/.config/fish/fish_variables": b"S", f"{WS}/a": b"x", f"{WS}/b": b"x", f"{WS}/c": b"y"}
    huge = {f"{HOME}/.config/google-chrome": 7000, f"{HOME}/.ssh": 7000}
    tree = LinkedTree(files, ((f"{WS}/a", f"{WS}/b"),), huge=huge)

    assert _decide(policy, tree, "read", {"path": f"{WS}/a"}) == (Q, ["paths.hard-link"])
    assert _decide(policy, tree, "shell", {"command": "cat a"}) == (Q, ["paths.hard-link"])
    assert _decide(policy, tree, "read", {"path": f"{WS}/c"})[0] is A  # one name: nothing to fear


def test_a_glob_with_a_wildcard_at_homes_top_level_is_found_from_homes_listing() -> None:
    files = {
        f"{HOME}/.bash_history": b"export T=S\n",
        f"{HOME}/.lesshst": b"",
        f"{WS}/h.txt": b"export T=S\n",
    }
    tree = LinkedTree(files, ((f"{HOME}/.bash_history", f"{WS}/h.txt"),))
    globs = GlobSet.of([compile_glob(p, source="t", base="/", home=HOME) for p in ("~/.*_history", "*.pem")])

    def identity(path: str) -> tuple[int, int, int] | None:
        found = tree.identity(path)
        return None if found is None else (found.device, found.inode, found.links)

    assert linked_credentials(Places.of(globs, HOME), identity, tree.scandir) == Linked(
        {(7, 0): f"{HOME}/.bash_history"}
    )
