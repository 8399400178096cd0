"""Tool calls: the model, the families and the agent aliases."""

from bastion.call.model import Family, ToolCall

__all__ = ["Family", "ToolCall"]
