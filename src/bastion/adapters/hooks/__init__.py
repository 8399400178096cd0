"""Agent hooks: ``bastion hook AGENT`` answers an agent's pre-tool hook; ``install`` wires it in.

Kept import-free: a hook runs once per tool call and start-up is its cost."""
