"""``SqliteKeyStore.get`` answers repeated lookups from a cache that never outlives a change
to the file: a key created or revoked by any connection (another process's, or another
store's in this one) or by the store itself is seen at the very next lookup."""

from __future__ import annotations

from pathlib import Path

from bastion.keys.model import Role
from bastion.keys.sqlite import MAX_CACHED, SqliteKeyStore


def _selects(store: SqliteKeyStore) -> list[str]:
    seen: list[str] = []
    store.db.conn.set_trace_callback(lambda sql: seen.append(sql) if "FROM api_keys" in sql else None)
    return seen


def test_a_repeated_lookup_of_an_unchanged_file_reads_no_row(tmp_path: Path) -> None:
    store = SqliteKeyStore(str(tmp_path / "keys.db"))
    record, _ = store.create(Role.AGENT, now=1.0)
    selects = _selects(store)
    assert store.get(record.id) == record
    assert store.get(record.id) == record
    assert store.get("nope") is None
    assert store.get("nope") is None
    assert len(selects) == 2  # one per distinct id


def test_a_key_revoked_through_another_connection_is_refused_at_the_next_lookup(tmp_path: Path) -> None:
    daemon = SqliteKeyStore(str(tmp_path / "keys.db"))
    cli = SqliteKeyStore(str(tmp_path / "keys.db"))  # `bastion keys revoke` in another process
    record, _ = cli.create(Role.AGENT, now=1.0)
    assert daemon.get(record.id) == record
    assert cli.revoke(record.id, now=2.0)
    found = daemon.get(record.id)
    assert found is not None and found.revoked_at == 2.0


def test_a_key_created_elsewhere_after_a_miss_is_found_at_the_next_lookup(tmp_path: Path) -> None:
    daemon = SqliteKeyStore(str(tmp_path / "keys.db"))
    cli = SqliteKeyStore(str(tmp_path / "keys.db"))
    assert daemon.get("whatever") is None
    record, _ = cli.create(Role.ADMIN, now=1.0)
    assert daemon.get(record.id) == record


def test_the_store_s_own_revocation_is_seen_at_its_next_lookup(tmp_path: Path) -> None:
    store = SqliteKeyStore(str(tmp_path / "keys.db"))
    record, _ = store.create(Role.AGENT, now=1.0)
    assert store.get(record.id) == record
    assert store.revoke(record.id, now=3.0)  # a commit on its own connection: data_version stays
    found = store.get(record.id)
    assert found is not None and found.revoked_at == 3.0


def test_lookups_of_many_unknown_ids_keep_the_cache_bounded(tmp_path: Path) -> None:
    store = SqliteKeyStore(str(tmp_path / "keys.db"))
    record, _ = store.create(Role.AGENT, now=1.0)
    for i in range(3 * MAX_CACHED):
        assert store.get(f"bk_{i}") is None
    assert len(store._cached) <= MAX_CACHED
    assert store.get(record.id) == record
