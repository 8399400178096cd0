"""Tool calls: the model (``model``), the families, the effects and the agent aliases."""
