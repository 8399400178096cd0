"""Fixtures: a real gateway per test (uvicorn on a loopback port), keys of every role."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bastion.adapters.http import GatewaySettings, ServerSettings, create_app
from bastion.keys import Role, SqliteKeyStore
from tests.adapters.http.helpers import ASK_POLICY, Gateway, free_socket, start

GatewayFactory = Callable[..., Gateway]


@pytest.fixture
def gateway_factory(tmp_path: Path, home: Path, workspace: Path) -> Iterator[GatewayFactory]:
    started: list[Gateway] = []

    def build(
        policy: str = ASK_POLICY,
        gateway: GatewaySettings | None = None,
        reload_interval: float = 0.1,
        events_interval: float = 0.1,
        head_timeout: float = 10.0,
        body_timeout: float = 30.0,
        parser: str = "auto",
    ) -> Gateway:
        state = tmp_path / f"state{len(started)}"
        env = {"HOME": str(home), "BASTION_STATE_DIR": str(state), "PATH": "/usr/bin:/bin"}
        if os.environ.get("PYTHONPATH"):  # child CLIs run the same code as this test
            env["PYTHONPATH"] = os.environ["PYTHONPATH"]
        policy_file = tmp_path / f"policy{len(started)}.toml"
        policy_file.write_text(policy)
        store = SqliteKeyStore.in_state_dir(str(state))
        keys, ids = {}, {}
        for name, role in (
            ("agent", Role.AGENT),
            ("approver", Role.APPROVER),
            ("admin", Role.ADMIN),
            ("approver2", Role.APPROVER),
        ):
            record, key = store.create(role, now=time.time(), label=name)
            keys[name], ids[name] = key, record.id
        settings = ServerSettings(
            policy_path=str(policy_file),
            cwd=str(workspace),
            env=env,
            gateway=gateway or GatewaySettings(rate_limit_per_minute=10_000),
            reload_interval=reload_interval,
            events_interval=events_interval,
            sandboxed=False,
            head_timeout=head_timeout,
            body_timeout=body_timeout,
        )
        app = create_app(settings, keys=store)
        server, thread = start(app, free_socket(), head_timeout=head_timeout, parser=parser)
        host, port = server.servers[0].sockets[0].getsockname()[:2]
        running = Gateway(f"http://{host}:{port}", keys, ids, env, policy_file, workspace, server, thread)
        started.append(running)
        return running

    yield build
    for running in started:
        running.stop()


@pytest.fixture
def gateway(gateway_factory: GatewayFactory) -> Gateway:
    return gateway_factory()
