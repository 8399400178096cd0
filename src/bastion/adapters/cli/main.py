"""``bastion`` entry point. ``bastion hook …`` is dispatched before any CLI framework is
imported (a hook runs once per tool call: start-up is its cost)."""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["hook"]:
        try:
            from bastion.adapters.hooks.client import hook_main
        except ImportError as exc:  # a broken install must still block, never allow
            sys.stderr.write(f"bastion hook: cannot start: {exc}\n")
            return 2
        return hook_main(args[1:])
    if args[:2] == ["sandbox", "run"]:  # once per contained call: no CLI framework
        from bastion.adapters.cli.sandbox_cmd import run_sandbox

        return run_sandbox(args[1:])
    if args[:2] == ["sandbox", "prepare"]:  # its "--" must reach the parser, as for run
        from bastion.adapters.cli.sandbox_cmd import prepare_sandbox

        return prepare_sandbox(args[1:])
    from bastion.adapters.cli.app import build_app

    app = build_app(args)
    try:
        app(args=args, prog_name="bastion", standalone_mode=True)
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 2)
    except Exception as exc:  # never a traceback and a stray exit 1: a usage/load error (2)
        if os.environ.get("BASTION_DEBUG") == "1":
            import traceback

            traceback.print_exc()
        sys.stderr.write(f"error: {type(exc).__name__}: {exc}\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
