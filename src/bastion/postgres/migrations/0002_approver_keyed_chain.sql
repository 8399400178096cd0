-- Who answered (approver), a keyed ledger chain, refused calls counted apart.
-- approval_requests.approver / ledger.approver: an approver key's id, local:<user> (a terminal
-- confirmation), callback, expiry or cancel. The chain is re-keyed by Bastion itself on first
-- open (it needs the key, which SQL does not have): ledger_meta records that it was, and where
-- an unkeyed chain was already broken.
ALTER TABLE approval_requests ADD COLUMN approver text;
ALTER TABLE ledger ADD COLUMN approver text;
CREATE INDEX ledger_decision ON ledger (decision_id);
CREATE TABLE ledger_meta (
    name text PRIMARY KEY,
    value text NOT NULL
);
-- a refused call (by a limit, the breaker, the policy or a person) is kept apart from the
-- calls let through, which are what calls_per_minute counts
ALTER TABLE session_calls ADD COLUMN refused boolean NOT NULL DEFAULT false;
