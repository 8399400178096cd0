-- "approve uncontained": a person's explicit choice to run one approved call as written,
-- outside the sandbox, is a request state of its own (never a standing grant).
ALTER TABLE approval_requests DROP CONSTRAINT approval_requests_state_check;
ALTER TABLE approval_requests ADD CONSTRAINT approval_requests_state_check
    CHECK (state IN ('pending', 'approved_once', 'approved_always', 'approved_uncontained', 'denied',
                     'expired', 'cancelled'));
