"""Shell classifier: parse a command with tree-sitter-bash and classify every simple command.

``analysis.analyze`` returns a ``ShellAnalysis`` (see ``model``) for the policy engine;
patterns for ``[commands]`` lists are compiled with ``patterns.compile_pattern``. This
``__init__`` imports nothing, so no module of the package is in a cycle through it.
"""
