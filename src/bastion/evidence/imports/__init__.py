"""Existing permission configs → Bastion policy TOML (``bastion policy import``).

Every importer follows one rule: the imported policy never allows more than the source.
Where a source pattern cannot be expressed exactly, an allow is narrowed or dropped and a
deny/ask is widened, and the importer says so in ``notes``. Source precedence is
rebuilt with Bastion's own (rules in order, the last match wins), and a leading
catch-all ``ask`` rule per tool stands for the source's default where the source asks
by default (so Bastion's own mode cannot allow what the source would have asked about).
"""
