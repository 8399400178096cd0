"""The hook's cache holds the whole Configuration: the sections a hook reads (``ask_via``,
``[exec] contain``) come back from the pickle exactly as loaded, and an edit is a miss."""

from __future__ import annotations

import os
from pathlib import Path

from bastion.adapters.hooks.policy_cache import cache_path, load_cached_sources, source_stamp, sources_key
from bastion.adapters.hooks.settings import AskVia
from bastion.exec.profile import Contain
from bastion.policy.sources import PolicySources


def test_a_cached_configuration_keeps_every_section(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path / "home"), "BASTION_STATE_DIR": str(tmp_path / "state")}
    file = tmp_path / "policy.toml"
    file.write_text('ask_via = "bastion"\n[exec]\ncontain = "all"\n[limits]\nmax_calls_per_turn = 4\n')
    sources = PolicySources.find(str(file), cwd=str(tmp_path), env=env)

    loaded = load_cached_sources(sources, env)
    assert os.path.isfile(cache_path(sources_key(sources, env), env))
    cached = load_cached_sources(sources, env)

    assert cached == loaded and cached is not loaded  # the second came from the pickle
    assert (cached.hooks.ask_via, cached.exec.contain, cached.limits.max_calls_per_turn) == (
        AskVia.BASTION,
        Contain.ALL,
        4,
    )


def test_an_edited_section_is_a_miss(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path / "home"), "BASTION_STATE_DIR": str(tmp_path / "state")}
    file = tmp_path / "policy.toml"
    file.write_text('ask_via = "bastion"\n')
    first = load_cached_sources(PolicySources.find(str(file), cwd=str(tmp_path), env=env), env)
    file.write_text('ask_via = "agent"\n# edited\n')
    second = load_cached_sources(PolicySources.find(str(file), cwd=str(tmp_path), env=env), env)
    assert (first.hooks.ask_via, second.hooks.ask_via) == (AskVia.BASTION, AskVia.AGENT)


def test_reading_a_cached_configuration_does_not_import_the_schema(tmp_path: Path) -> None:
    import subprocess
    import sys

    env = {"HOME": str(tmp_path / "home"), "BASTION_STATE_DIR": str(tmp_path / "state")}
    file = tmp_path / "policy.toml"
    file.write_text('[gateway]\nrequest_timeout = "30s"\n')
    load_cached_sources(PolicySources.find(str(file), cwd=str(tmp_path), env=env), env)  # fills the cache
    probe = (
        "import sys\n"
        "from bastion.adapters.hooks.policy_cache import load_cached_policy\n"
        f"config = load_cached_policy({str(file)!r}, cwd={str(tmp_path)!r}, env={env!r})\n"
        "print(config.gateway.request_timeout, 'pydantic' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env={**os.environ, **env}, check=True
    )
    assert done.stdout.split() == ["30s", "False"]


def test_a_key_made_with_a_stamp_taken_earlier_is_the_fresh_key_until_the_code_changes(
    tmp_path: Path,
) -> None:
    # The resident daemon takes the stamp of Bastion's sources once, at start.
    env = {"HOME": str(tmp_path / "home"), "BASTION_STATE_DIR": str(tmp_path / "state")}
    file = tmp_path / "policy.toml"
    file.write_text('ask_via = "bastion"\n')
    sources = PolicySources.find(str(file), cwd=str(tmp_path), env=env)
    taken = source_stamp()

    assert sources_key(sources, env, stamp=taken) == sources_key(sources, env)
    assert sources_key(sources, env, stamp=taken + b"\nshell/words.py:1:1") != sources_key(sources, env)
