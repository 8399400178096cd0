"""The hook client finds the daemon's socket and reads the environment without ``os``: the same
answers ``os`` gives, for any spelling of the state dir and home."""

from __future__ import annotations

import os
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from bastion.adapters.hooks import fastpath
from bastion.adapters.hooks.client import SOCKET_NAME, socket_path


def with_os(env: dict[str, str]) -> str:
    """The path as the client computed it with ``os`` (and as the daemon binds it)."""
    state = env.get("BASTION_STATE_DIR") or os.path.join(
        env.get("HOME") or os.path.expanduser("~"), ".local", "state", "bastion"
    )
    return os.path.join(os.path.abspath(os.path.expanduser(state)), SOCKET_NAME)


_PART = st.sampled_from(["", ".", "..", "~", "~root", "a", "state dir", "é", "x.y", "..a"])
_PATH = st.lists(_PART, max_size=5).map("/".join) | st.lists(_PART, min_size=1, max_size=5).map(
    lambda parts: "/" + "/".join(parts)
)


@given(st.none() | _PATH, st.none() | _PATH)
@settings(max_examples=400, deadline=None)
def test_the_socket_path_is_the_one_os_path_gives_for_any_state_dir_and_home(
    state: str | None, home: str | None
) -> None:
    env = {name: value for name, value in (("BASTION_STATE_DIR", state), ("HOME", home)) if value is not None}
    assert socket_path(env) == with_os(env)


def test_a_plain_state_dir_or_home_gives_the_socket_path_as_written() -> None:
    assert (
        socket_path({"BASTION_STATE_DIR": "/var/lib/b s", "HOME": "/h"}),
        socket_path({"HOME": "/home/u"}),
    ) == ("/var/lib/b s/hooks.sock", "/home/u/.local/state/bastion/hooks.sock")


def test_an_explicit_hook_socket_wins_over_the_state_dir_unless_it_is_not_a_plain_absolute_path() -> None:
    """``bastion launch`` points a contained agent's hooks at its own socket this way."""
    state = {"BASTION_STATE_DIR": "/var/lib/b", "HOME": "/h"}
    assert (
        socket_path({**state, "BASTION_HOOK_SOCKET": "/tmp/bastion-hooks-1/hooks.sock"}),
        socket_path({**state, "BASTION_HOOK_SOCKET": "relative/hooks.sock"}),
        socket_path({**state, "BASTION_HOOK_SOCKET": "/tmp/../etc/hooks.sock"}),
    ) == ("/tmp/bastion-hooks-1/hooks.sock", "/var/lib/b/hooks.sock", "/var/lib/b/hooks.sock")


def test_without_os_loaded_the_environment_is_decoded_as_os_environ_decodes_it() -> None:
    # A fresh interpreter without site (as the installed launcher runs), and with it.
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); from bastion.adapters.hooks.client import environ;"
        "loaded = 'os' in sys.modules; env = dict(environ()); import os;"
        "print(loaded, env == dict(os.environ))"
    )
    root = fastpath.package_root()
    env = {**os.environ, "BASTION_PROBE": "caf\udce9 é", "B\udcff": "x"}
    out = [
        subprocess.run(
            [sys.executable, *flags, "-c", probe, root],
            env={
                k.encode("utf-8", "surrogateescape"): v.encode("utf-8", "surrogateescape")
                for k, v in env.items()
            },
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        for flags in (["-S"], [])
    ]
    assert out == [["False", "True"], ["True", "True"]]
