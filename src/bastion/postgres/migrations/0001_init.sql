-- Bastion's shared state on PostgreSQL: every store of the embedded SQLite files, in one database.
-- Times are epoch seconds (double precision), exactly as the SQLite stores keep them, so the
-- ledger's hashes (which cover the stored values) verify the same way on both.

-- approvals ------------------------------------------------------------------------------
CREATE TABLE approval_requests (
    id text PRIMARY KEY,
    state text NOT NULL CHECK (state IN ('pending', 'approved_once', 'approved_always', 'denied',
                                         'expired', 'cancelled')),
    created double precision NOT NULL,
    expires double precision NOT NULL,
    tool text NOT NULL,
    summary text NOT NULL,
    reason text NOT NULL,
    evaluation text NOT NULL,
    call_key text NOT NULL,
    project text NOT NULL,
    session text,
    agent text,
    turn text,
    argv text,
    grantable boolean NOT NULL,
    suggested_pattern text,
    resolved_at double precision,
    resolver text,
    feedback text,
    grant_id text,
    -- the creation fields as JSON when one of them holds a NUL (which text columns cannot)
    nul_fields text
);
CREATE INDEX approval_requests_pending ON approval_requests (expires) WHERE state = 'pending';
CREATE INDEX approval_requests_created ON approval_requests (created DESC);

CREATE TABLE grants (
    id text PRIMARY KEY,
    tool text NOT NULL,
    scope text NOT NULL,
    scope_value text NOT NULL,
    summary text NOT NULL,
    created double precision NOT NULL,
    key text,
    pattern text,
    request_id text
);
CREATE INDEX grants_tool ON grants (tool, created);

-- per-session limits and the repeat-failure guard ----------------------------------------
CREATE TABLE session_turns (
    session text NOT NULL,
    turn text NOT NULL,
    started double precision NOT NULL,
    calls integer NOT NULL,
    PRIMARY KEY (session, turn)
);
CREATE TABLE session_calls (
    session text NOT NULL,
    at double precision NOT NULL
);
CREATE INDEX session_calls_at ON session_calls (session, at);
CREATE TABLE call_failures (
    session text NOT NULL,
    key text NOT NULL,
    failures integer NOT NULL,
    hard integer NOT NULL,
    updated double precision NOT NULL,
    PRIMARY KEY (session, key)
);

-- global rate limits (one budget per key and minute, across every daemon) -----------------
CREATE TABLE rate_counters (
    key text NOT NULL,
    window_start bigint NOT NULL,
    count integer NOT NULL,
    PRIMARY KEY (key, window_start)
);

-- the audit ledger (hash chain; appends serialised by an advisory lock) -------------------
CREATE TABLE ledger (
    seq bigint PRIMARY KEY,
    prev text NOT NULL,
    hash text NOT NULL,
    kind text NOT NULL,
    decision_id text NOT NULL,
    time double precision NOT NULL,
    tool text NOT NULL,
    decision text NOT NULL,
    resolver text NOT NULL,
    rule text NOT NULL,
    source text NOT NULL,
    message text NOT NULL,
    reasons text NOT NULL,
    args_hash text NOT NULL,
    summary text NOT NULL,
    session text,
    agent text,
    turn text,
    raw_args text,
    exit_code integer,
    duration double precision,
    nul_fields text
);
CREATE INDEX ledger_session ON ledger (session, seq);
CREATE INDEX ledger_time ON ledger (time);

-- API keys of the HTTP gateway, its page logins and request owners ------------------------
CREATE TABLE api_keys (
    id text PRIMARY KEY,
    role text NOT NULL,
    hash text NOT NULL,
    created double precision NOT NULL,
    label text NOT NULL DEFAULT '',
    revoked_at double precision
);
CREATE TABLE web_sessions (
    token_hash text PRIMARY KEY,
    key_id text NOT NULL,
    csrf text NOT NULL,
    created double precision NOT NULL,
    expires double precision NOT NULL
);
CREATE TABLE request_owners (
    request_id text PRIMARY KEY,
    key_id text NOT NULL,
    created double precision NOT NULL
);

-- MCP trust-on-first-use pins ------------------------------------------------------------
CREATE TABLE mcp_servers (
    server text PRIMARY KEY,
    first_seen double precision NOT NULL
);
CREATE TABLE mcp_pins (
    server text NOT NULL,
    tool text NOT NULL,
    digest text,
    definition text,
    trusted_at double precision,
    pending_digest text,
    pending_definition text,
    pending_at double precision,
    PRIMARY KEY (server, tool)
);

-- launch sessions ------------------------------------------------------------------------
CREATE TABLE launch_sessions (
    id text PRIMARY KEY,
    created double precision NOT NULL,
    data text NOT NULL
);

-- secrets every daemon must share (the argument-hash key, so exact grants match anywhere) --
CREATE TABLE bastion_secrets (
    name text PRIMARY KEY,
    value bytea NOT NULL,
    created timestamptz NOT NULL DEFAULT now()
);
