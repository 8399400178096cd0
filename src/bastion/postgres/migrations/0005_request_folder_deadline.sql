-- What the approvals card states as facts: the folder the call runs in (its cwd, not the
-- policy file that scopes a project grant) and what ends the wait (the policy's ttl, or the
-- caller's own shorter timeout).
ALTER TABLE approval_requests ADD COLUMN folder text;
ALTER TABLE approval_requests ADD COLUMN deadline text;
