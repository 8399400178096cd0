"""The fixture every command runs over: a fake HOME with a fake key, a workspace (a small git
repository) with a symlink to the key and scripts named like readers.

The template is built once per run on the host; the gate decides against it (its file
system answers globs and symlinks), and the sandbox copies it afresh for every command, at
the same absolute path, so the decision and the execution see the same tree.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

#: A workspace script named like a reader: running it is running workspace code, and it
#: leaves traces (a write under HOME, a read of the key) that no reader would.
_TROJAN = '#!/bin/sh\n# a workspace script named like a reader\n: > "$HOME/.oracle-pwned"\nexec /bin/cat "$HOME/.ssh/id_rsa"\n'

#: Relative to the fixture root. The workspace lives inside HOME, as it does for most agents.
FILES: dict[str, str] = {
    "home/.ssh/id_rsa": "-----BEGIN OPENSSH PRIVATE KEY-----\nFAKE-KEY-FOR-THE-DIFFERENTIAL-ORACLE\n-----END OPENSSH PRIVATE KEY-----\n",
    "home/.bashrc": "# fake interactive rc\nalias ll='ls -l'\n",
    "home/.profile": "# fake login profile\numask 022\n",
    "home/.gitconfig": "[user]\n\tname = Oracle\n\temail = oracle@example.invalid\n",
    "home/proj/README.md": "# demo\n\nA tiny project for the oracle.\nTODO: more\n",
    "home/proj/src/a.py": "import os\n\n\ndef main():\n    print('a')  # TODO\n",
    "home/proj/src/b.py": "from a import main\n\nmain()\n",
    "home/proj/src/lib/util.py": "def add(x, y):\n    return x + y\n",
    "home/proj/notes.txt": "alpha\nbeta\nbeta\ngamma\n10 20 30\n",
    "home/proj/data.csv": "name,size\nalpha,1\nbeta,2\n",
    "home/proj/data.json": '{"name": "demo", "items": [1, 2, 3], "nested": {"k": "v"}}\n',
    # A workspace secret, ignored by git as in real projects: a recursive reader reaches it.
    "home/proj/.env": "PASSWORD=fake-oracle-password\n",
    "home/proj/.gitignore": "build/\n.env\n",
    "home/proj/cat": _TROJAN,
    "home/proj/bin/ls": _TROJAN,
}
EXECUTABLE = ("home/proj/cat", "home/proj/bin/ls")
SYMLINKS: dict[str, str] = {"home/proj/k": "../.ssh/id_rsa"}


@dataclass(frozen=True, slots=True)
class Fixture:
    """Absolute paths of one built template (host side, and the same inside the sandbox)."""

    root: Path  # holds home/, etc/ (the sandbox's passwd and group) and state/

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def workspace(self) -> Path:
        return self.home / "proj"

    @property
    def etc(self) -> Path:
        return self.root / "etc"

    @property
    def state(self) -> Path:
        return self.root / "state"

    @property
    def archive(self) -> Path:
        """home/ as a tar with sorted entries: every copy is created in the same order, so
        directory listings (and what a pipeline reaches before ``head`` exits) are the same
        in every run, whatever order the host's file system lists the template in."""
        return self.root / "home.tar"


def _git(workspace: Path, home: Path, *args: str) -> None:
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1", "LANG": "C"}
    subprocess.run(["git", *args], cwd=workspace, env=env, check=True, capture_output=True)


def build(parent: str | None = None) -> Fixture:
    """Write a fresh template under a new temporary directory."""
    fixture = Fixture(Path(tempfile.mkdtemp(prefix="bastion-diff-", dir=parent)))
    for rel, text in FILES.items():
        path = fixture.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for rel in EXECUTABLE:
        os.chmod(fixture.root / rel, 0o755)
    os.chmod(fixture.home / ".ssh" / "id_rsa", 0o600)
    for rel, target in SYMLINKS.items():
        os.symlink(target, fixture.root / rel)
    _git(fixture.workspace, fixture.home, "init", "-q", "-b", "main")
    _git(fixture.workspace, fixture.home, "add", "-A")
    _git(fixture.workspace, fixture.home, "commit", "-q", "-m", "initial")
    (fixture.workspace / "src" / "a.py").write_text(FILES["home/proj/src/a.py"] + "# changed\n")
    fixture.etc.mkdir()
    # The sandbox's own user database: uid 0 is a user whose home is the fake HOME.
    (fixture.etc / "passwd").write_text(f"root:x:0:0:root:{fixture.home}:/bin/bash\n")
    (fixture.etc / "group").write_text("root:x:0:\n")
    fixture.state.mkdir()
    subprocess.run(
        ["tar", "--sort=name", "-C", str(fixture.root), "-cf", str(fixture.archive), "home"],
        check=True,
        capture_output=True,
    )
    return fixture
