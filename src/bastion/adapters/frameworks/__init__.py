"""Guards for Python agent frameworks: every tool call through one Gatekeeper.

One module per framework, each an optional extra imported only when used:
``openai_agents`` (``bastion[openai-agents]``), ``langgraph`` (``bastion[langgraph]``) and
``pydantic_ai`` (``bastion[pydantic-ai]``); ``guard`` is what they share. They translate
only: the decision, the approval and the ledger are the Gatekeeper's.
"""
