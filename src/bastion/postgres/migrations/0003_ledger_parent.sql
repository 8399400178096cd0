-- Delegated agents: ledger.parent is the parent session of a child session's call
-- (bastion.delegation); NULL for a top-level session. Not under the chain when NULL.
ALTER TABLE ledger ADD COLUMN parent text;
