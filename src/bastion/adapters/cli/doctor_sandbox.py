"""Sandbox checks for ``bastion doctor``: a real program through the sandbox per runtime."""

from __future__ import annotations

import os
import shutil
import tempfile

from bastion.agents.registry import hook_names
from bastion.call.families import CODE_LANGUAGES
from bastion.configuration import Configuration
from bastion.exec.boundary import build_spec
from bastion.exec.bubblewrap import BubblewrapRunner
from bastion.exec.capabilities import limit_checks, uncontained_note
from bastion.exec.runner import ExecError, SandboxUnavailable
from bastion.exec.secrets import check_credentials_placement
from bastion.exec.select import bwrap_problem
from bastion.tools.runtimes import INSTALL_HINTS, detect_runtimes

Check = tuple[str, bool, str]
MARK = "bastion-sandbox-ok"
PROGRAMS = {
    "python": f"print('{MARK}')",
    "bash": f"echo {MARK}",
    "node": f"console.log('{MARK}')",
    "rust": f'fn main() {{ println!("{MARK}"); }}',
}


def sandbox_checks(loaded: Configuration) -> list[Check]:
    """(name, ok, detail or how to fix) for the sandbox and each advertised runtime."""
    policy, config = loaded.policy, loaded.exec
    checks: list[Check] = []
    placement = check_credentials_placement(policy)
    checks.append(("credentials dir", placement is None, placement or policy.credentials_dir))
    problem = bwrap_problem()
    if problem is not None:
        checks.append(("sandbox", False, f"{problem}; fix: {SandboxUnavailable.hint}"))
        return checks
    runner = BubblewrapRunner()
    checks.append(("sandbox", True, f"bubblewrap at {runner.bwrap}"))
    checks += limit_checks(config.max_processes, config.max_resident_mb, config.max_memory_mb)
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


#: ``[exec] contain``, said plainly: which calls run contained under each choice.
CONTAIN_CHOICES = {
    "all": "allowed calls and calls a person approves run contained; a person may still "
    '"approve uncontained" one call, recorded with their name',
    "allowed": "only calls allowed without a person run contained: a call a person approves "
    "runs as written, with your full rights",
    "off": "no call runs contained: every allowed or approved call runs as written",
}


def containment_checks(installed: list[str], contain: str) -> list[Check]:
    """The ``[exec] contain`` choice, then per agent with Bastion's hook: are its calls
    contained? (said plainly)"""
    checks: list[Check] = [
        ("contain", contain != "off", f'[exec] contain = "{contain}": {CONTAIN_CHOICES[contain]}')
    ]
    for agent in installed:
        note = uncontained_note(agent)
        if note is not None:
            checks.append((f"containment {agent}", False, note))
        elif contain == "off":
            checks.append((f"containment {agent}", False, '[exec] contain = "off": calls run uncontained'))
        else:
            which = "allowed and approved" if contain == "all" else "allowed"
            checks.append((f"containment {agent}", True, f"{which} shell calls run in Bastion's sandbox "
                           f"([exec] contain = \"{contain}\")"))  # fmt: skip
    return checks


def installed_agents() -> list[str]:
    """Agents whose settings (project or user scope, from the cwd) hold Bastion's hook."""
    import contextlib

    from bastion.adapters.hooks import own_file
    from bastion.adapters.hooks.install import InstallError, _commands, _load
    from bastion.adapters.hooks.targets import target_for

    found = []
    for agent in hook_names():
        for scope in ("project", "user"):
            with contextlib.suppress(ValueError, InstallError, OSError, own_file.OwnFileError):
                if agent in own_file.own_file_agents():
                    if own_file.installed(agent, scope=scope, cwd=os.getcwd(), env=os.environ):
                        found.append(agent)
                        break
                    continue
                target = target_for(agent, scope=scope, cwd=os.getcwd(), env=os.environ)
                if _commands(agent, _load(target.path)[1]):
                    found.append(agent)
                    break
    return found


def hook_containment_checks(loaded: Configuration) -> list[Check]:
    return containment_checks(installed_agents(), loaded.exec.contain)
