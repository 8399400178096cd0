"""Shell classifier: parse a command with tree-sitter-bash and classify every simple command.

``analyze`` returns a ``ShellAnalysis`` (see ``model``) for the policy engine; patterns for
``[commands]`` lists are compiled with ``compile_pattern``.
"""

from bastion.shell.analysis import analyze
from bastion.shell.model import Access, PathUse, ShellAnalysis, SimpleCommand
from bastion.shell.patterns import CommandPattern, compile_pattern

__all__ = [
    "Access",
    "CommandPattern",
    "PathUse",
    "ShellAnalysis",
    "SimpleCommand",
    "analyze",
    "compile_pattern",
]
