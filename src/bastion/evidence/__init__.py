"""Evidence for writing policy: agent transcripts and the ledger read back as tool calls,
replayed against a policy, compared between two policies, learned from, imported."""
