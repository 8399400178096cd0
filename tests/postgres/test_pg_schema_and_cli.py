"""Choosing the backend, versioned migrations, ``bastion db upgrade|status`` and doctor's check."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import psycopg
import pytest
from typer.testing import CliRunner

from bastion.adapters.cli.app import build_app
from bastion.adapters.cli.db_cmd import db_checks
from bastion.configuration import Configuration, load_policy_text
from bastion.postgres import migrations
from bastion.postgres.migrations import SchemaBehind
from bastion.state import ENV_URL, StateUrlError, open_stores, state_url_for
from bastion.state.settings import StateSettings

PG = "postgresql://u@db.example:5432/bastion"


def cli(args: list[str], env: dict[str, str]) -> tuple[int, str]:
    result = CliRunner().invoke(build_app(), args, env=env)
    return result.exit_code, result.stdout


# -- choosing the backend ------------------------------------------------------------------
def test_the_environment_overrides_the_policy_and_neither_means_sqlite() -> None:
    written = StateSettings(url=PG)
    other = "postgres://v@elsewhere/b"
    assert (
        state_url_for(written, {}),
        state_url_for(written, {ENV_URL: other}),
        state_url_for(None, {ENV_URL: "  "}),
        state_url_for(StateSettings(), {}),
    ) == (PG, other, None, None)


@pytest.mark.parametrize("url", ["sqlite:///tmp/x.db", "mysql://u@h/db", "/var/lib/bastion"])
def test_a_url_that_is_not_postgresql_is_refused_not_ignored(url: str) -> None:
    with pytest.raises(StateUrlError) as caught:
        state_url_for(None, {ENV_URL: url})
    assert "only postgresql://" in str(caught.value)


# -- migrations ------------------------------------------------------------------------------
def test_stores_refuse_a_database_whose_schema_is_behind_and_say_how_to_fix_it(
    pg_empty_url: str, tmp_path: Path
) -> None:
    with pytest.raises(SchemaBehind) as caught:
        open_stores(pg_empty_url, str(tmp_path))
    assert (str(caught.value), caught.value.hint) == (
        f"the PostgreSQL schema is version 0, this Bastion needs {migrations.target_version()}",
        "run 'bastion db upgrade' (with the same state_url / BASTION_STATE_URL)",
    )


def test_db_status_and_upgrade_report_the_versions_and_upgrade_is_idempotent(pg_empty_url: str) -> None:
    env = {ENV_URL: pg_empty_url}
    target = migrations.target_version()
    before = cli(["db", "status", "--json"], env)
    first = cli(["db", "upgrade", "--json"], env)
    again = cli(["db", "upgrade", "--json"], env)
    after = cli(["db", "status", "--json"], env)
    assert (
        (before[0], json.loads(before[1])["current"], json.loads(before[1])["pending"]),
        (first[0], json.loads(first[1])["applied"]),
        (again[0], json.loads(again[1])["applied"]),
        (after[0], json.loads(after[1])["up_to_date"]),
    ) == ((1, 0, list(range(1, target + 1))), (0, list(range(1, target + 1))), (0, []), (0, True))


def test_db_upgrade_takes_the_url_option_over_the_environment(pg_empty_url: str) -> None:
    code, out = cli(["db", "upgrade", "--url", pg_empty_url], {ENV_URL: "postgresql://nobody@127.0.0.1:1/x"})
    every = ", ".join(str(v) for v in range(1, migrations.target_version() + 1))
    assert (
        code,
        out.strip().endswith(f"schema version {migrations.target_version()} (applied {every})"),
    ) == (0, True)


def test_concurrent_upgrades_apply_each_migration_once(pg_empty_url: str) -> None:
    errors: list[BaseException] = []

    def run() -> None:
        try:
            migrations.upgrade(pg_empty_url)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with psycopg.connect(pg_empty_url) as conn:
        versions = [r[0] for r in conn.execute("SELECT version FROM bastion_schema_version ORDER BY 1")]
    assert (errors, versions) == ([], list(range(1, migrations.target_version() + 1)))


def test_db_status_without_postgresql_says_the_state_is_sqlite(tmp_path: Path) -> None:
    code, out = cli(
        ["db", "status", "--json"], {"BASTION_STATE_DIR": str(tmp_path), ENV_URL: "", "HOME": str(tmp_path)}
    )
    assert (code, json.loads(out)["backend"], json.loads(out)["path"]) == (
        0,
        "sqlite",
        os.path.join(str(tmp_path), "bastion.db"),
    )


def test_db_status_on_an_unreachable_database_exits_1_with_a_hint() -> None:
    code, out = cli(["db", "status", "--json"], {ENV_URL: "postgresql://nobody@127.0.0.1:1/x"})
    body = json.loads(out)
    assert (
        code,
        body["up_to_date"],
        "unavailable" in body["error"],
        "is PostgreSQL running" in body["hint"],
    ) == (1, False, True, True)


# -- doctor ------------------------------------------------------------------------------------
def test_doctor_checks_reachability_and_schema(
    pg_empty_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def configured(url: str | None) -> Configuration:
        policy = load_policy_text(
            "", cwd=str(tmp_path), env={"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path)}
        )
        return Configuration(policy, state=StateSettings(url=url))

    monkeypatch.delenv(ENV_URL, raising=False)
    behind = db_checks(configured(pg_empty_url))
    migrations.upgrade(pg_empty_url)
    current = db_checks(configured(pg_empty_url))
    down = db_checks(configured("postgresql://n@127.0.0.1:1/x"))
    sqlite = db_checks(configured(None))
    assert [
        (c[0], c[1], ("upgrade" in c[2], "running" in c[2])) for c in behind + current + down + sqlite
    ] == [
        ("state database", False, (True, False)),
        ("state database", True, (False, False)),
        ("state database", False, (False, True)),
        ("state database", True, (False, False)),
    ]


def test_doctor_lists_the_state_database_row(pg_url: str, tmp_path: Path) -> None:
    env = {ENV_URL: pg_url, "BASTION_STATE_DIR": str(tmp_path / "state"), "HOME": str(tmp_path)}
    _code, out = cli(["doctor", "--json", "--cwd", str(tmp_path)], env)
    rows = [c for c in json.loads(out)["checks"] if c["name"] == "state database"]
    assert [(r["ok"], r["detail"].startswith("PostgreSQL")) for r in rows] == [(True, True)]


# -- the argument-hash key ---------------------------------------------------------------------
def test_every_daemon_shares_one_argument_hash_key_seeded_from_the_first_hosts_file(
    pg_url: str, tmp_path: Path
) -> None:
    first_host, second_host = tmp_path / "a", tmp_path / "b"
    first_host.mkdir()
    (first_host / "ledger.key").write_bytes(b"k" * 32)
    one = open_stores(pg_url, str(first_host)).hasher_key()
    two = open_stores(pg_url, str(second_host)).hasher_key()
    assert (one, two, (second_host / "ledger.key").exists()) == (b"k" * 32, b"k" * 32, False)
