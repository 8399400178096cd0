"""Sandbox checks for ``bastion doctor``: a real program through the sandbox per runtime."""

from __future__ import annotations

import os
import shutil
import tempfile

from bastion.call.model import CODE_LANGUAGES
from bastion.exec.boundary import build_spec
from bastion.exec.bubblewrap import BubblewrapRunner
from bastion.exec.config import ExecConfig
from bastion.exec.runner import ExecError, SandboxUnavailable
from bastion.exec.secrets import check_credentials_placement
from bastion.exec.select import bwrap_problem
from bastion.policy.compiled import Policy
from bastion.tools.runtimes import INSTALL_HINTS, detect_runtimes

Check = tuple[str, bool, str]
MARK = "bastion-sandbox-ok"
PROGRAMS = {
    "python": f"print('{MARK}')",
    "bash": f"echo {MARK}",
    "node": f"console.log('{MARK}')",
    "rust": f'fn main() {{ println!("{MARK}"); }}',
}


def sandbox_checks(policy: Policy, config: ExecConfig | None = None) -> list[Check]:
    """(name, ok, detail or how to fix) for the sandbox and each advertised runtime."""
    config = config or policy.exec
    checks: list[Check] = []
    placement = check_credentials_placement(policy)
    checks.append(("credentials dir", placement is None, placement or policy.credentials_dir))
    problem = bwrap_problem()
    if problem is not None:
        checks.append(("sandbox", False, f"{problem}; fix: {SandboxUnavailable.hint}"))
        return checks
    runner = BubblewrapRunner()
    checks.append(("sandbox", True, f"bubblewrap at {runner.bwrap}"))
    runtimes = detect_runtimes()
    for language in sorted(CODE_LANGUAGES):
        name = f"runtime {language}"
        runtime = runtimes.get(language)
        if runtime is None:
            checks.append(
                (
                    name,
                    True,
                    f"not installed, so not offered by the code tool "
                    f"(to offer it: {INSTALL_HINTS[language]})",
                )
            )
            continue
        directory = tempfile.mkdtemp(prefix="bastion-doctor-")
        try:
            with open(os.path.join(directory, runtime.filename), "w", encoding="utf-8") as fh:
                fh.write(PROGRAMS[language])
            spec = build_spec(
                policy,
                config,
                runtime.argv(directory),
                cwd=directory,
                timeout=min(config.timeout, 120.0),
                extra_writable=(directory,),
                extra_readonly=runtime.readonly,
            )
            result = runner.run(spec)
        except ExecError as exc:
            checks.append((name, False, f"could not start: {exc}"))
            continue
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        if result.exit_code == 0 and MARK in result.stdout:
            checks.append((name, True, f"ran in the sandbox ({result.duration * 1000:.0f} ms)"))
        else:
            tail = (result.stderr or result.stdout).strip().splitlines()[-3:]
            why = "timed out" if result.timed_out else f"exit {result.exit_code}"
            checks.append(
                (
                    name,
                    False,
                    f"{why}: {' | '.join(tail)[:300]}; the runtime may live "
                    f"under a hidden directory - {INSTALL_HINTS[language]}",
                )
            )
    return checks
