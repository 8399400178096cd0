"""A contained run prepared once, so that the command an agent runs starts no Python.

``bastion sandbox run`` starts Python (~0.3 s) to build the sandbox, then bwrap (~7 ms).
:func:`prepare` does the building in the process that already runs Python - the hook, or
the hook daemon - and :meth:`PreparedRun.shell_command` turns the agent's command into one
line its shell runs: a ``bash`` launcher (a shell, no more) that execs ``timeout`` and
bwrap with the very argv ``BubblewrapRunner`` builds for ``bastion sandbox run``, so both
give the same sandbox: the same mounts (protected paths read-only, credentials hidden, an
empty private HOME), the same namespaces, capabilities and seccomp filter, the same
``nice``/``prlimit`` prefix, and the same process and memory cgroups.

What the launcher does before it starts bwrap, in the agent's shell process (no fork):

- closes every descriptor above 2 the agent's shell inherited (bwrap passes them all on;
  the Python runner's ``close_fds`` did the same), and reads stdin from ``/dev/null``;
- opens the seccomp program (written once under the state dir, named by its hash) as
  ``9<file`` for ``bwrap --seccomp 9``, the run's status file as ``8>file`` for
  ``bwrap --json-status-fd 8`` (with ``noclobber``: a prepared line runs once), and the
  run's options file as ``7<file`` for ``bwrap --args 7``: bwrap's mounts and ``--chdir``
  (NUL-separated, 0400, written by :func:`prepare` beside the run's record), so that the
  line the agent shows the person and keeps in its transcript is the launcher, bwrap's
  namespaces and the command, not some 40 mounts;
- opens each file of the ``/etc`` allow-list that bwrap copies into the sandbox
  (``--file FD PATH``, listed in the options file) on its descriptor, from 10 up;
- joins the run's cgroups (made here, with ``pids.max`` and the memory limit set);
- clears the environment but for ``[exec] env_allow`` (bwrap ``--clearenv --setenv``).

Once bwrap exits, the launcher (still the same bash) moves every protected path the run
created - a ``.claude/settings.json``, a ``.vscode/tasks.json``, an ``.envrc``: what an
agent or editor would load and run - to the quarantine (named in the run's ``.sweep`` file),
and exits with bwrap's status: such a file is gone when the agent gets the result, not at
the next settle, which may come only with the next call or the next session.

It fails closed: a seccomp file, status file, options file, ``/etc`` file or cgroup it
cannot use stops it with exit 125 before bwrap starts; a bwrap gone since it was prepared
cannot be exec'd (127). No path runs the command outside bwrap. What cannot be prepared -
no working bwrap, no seccomp when ``[exec] seccomp`` is on, a cgroup that cannot be made,
roots too big to scan, a host profile with no egress proxy running - is an
:class:`Unpreparable`, which the caller turns into an ASK with its reason.

Cgroups: where the machine has writable pids/memory controllers (``cgroups.controllers``)
the run gets its own groups, as ``bastion sandbox run`` does; where it has none, the same
fallback applies (``prlimit --nproc`` for a non-root user; for root no process cap, which
``bastion doctor`` reports as not enforced).

The work after a run (quarantine, symlinks, cgroup removal, the exit for the ledger) is
:func:`bastion.exec.settle.settle`'s, called by the next ``prepare`` (``bastion sandbox
prepare``), or, for the hook (``settle_first=False``), by the hook daemon once its reply
is sent and by an in-process hook after its decision: it never holds a call up.

What the caller does: turn an :class:`Unpreparable` into an ASK with its reason; record
``settled`` (each earlier run's exit) in the ledger; for a profile with hosts, pass the
:class:`EgressBinding` of an egress proxy it keeps running: without one the call is
Unpreparable, never a run with no network or with the host's. (The hook's containment
stage does not prepare host profiles: their rewrite stays ``bastion sandbox run``, which
starts a proxy for the run.)

Who can change what a line uses (the agent runs as the same user as Bastion, so a file it
could write decides nothing):

- The line itself, which the hook hands to the agent and the agent's shell runs as
  given, holds the launcher script, bwrap and the command. It names no launcher file;
  ``bash``, ``timeout`` and bwrap are absolute paths under the system directories
  (``bash -p``, no PATH lookup, no function or ``BASH_ENV`` from the agent's environment).
  So there is no prepared launcher the agent could replace to get an uncontained run: a
  line that cannot start bwrap runs nothing.
- The files it reads or writes live under the state dir (``<state>/sandbox/``, 0700): the
  seccomp program (0444, named by its hash, its content checked - and rewritten if it
  differs - by every ``prepare``), each run's options file (0400, made with ``O_EXCL``,
  removed when the run is settled: a line whose file is gone stops), each run's status
  file (created by the line with ``noclobber``: one that exists already stops the line)
  and each run's record (read by :func:`settle`). The state dir is hidden in every sandbox
  (``boundary.sandbox_roots``) and a write to it by any gated tool, shell included, is a
  hardline denial (``policy.hardline``): neither a contained call nor the agent's own file
  tools can write there. Only a process Bastion does not gate could (an "approve
  uncontained" run, or anything outside the agent), and such a process can run what it
  likes anyway.
- What a forged file could still do: a seccomp program swapped between ``prepare`` and the
  run (milliseconds) is loaded by bwrap instead, or refused - the namespaces, mounts and
  dropped capabilities hold either way; a forged options file is the sandbox bwrap builds
  (the writer, a process Bastion does not gate, could run that command itself); a planted
  status file stops the line (exit 125); a forged status misreports the exit in the
  ledger; a forged run record makes the settler (the same user) quarantine or restore the
  paths it lists. A removed cgroup stops the line.

Where it differs from ``bastion sandbox run`` (the sandbox does not): output goes straight
to the agent, which caps it itself (no ``max_output_bytes``); ``timeout`` is one more
process in the run's pids group; a host profile's forwarder inside the sandbox is still
a Python (``egress/forward.py``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import secrets
import shlex
import shutil
import time
from collections.abc import Mapping
from dataclasses import dataclass

from bastion.exec import cgroups, seccomp
from bastion.exec.boundary import CREDENTIALS_ENV, build_spec, child_environment
from bastion.exec.bubblewrap import BubblewrapRunner, command, namespace_args, network_of
from bastion.exec.egress.binding import EgressBinding
from bastion.exec.limits import SYSTEM_PATH
from bastion.exec.profile import Profile
from bastion.exec.runner import ExecError
from bastion.exec.select import bwrap_problem
from bastion.exec.settings import ExecConfig
from bastion.exec.settle import ARGS, SWEEP_LIST, CallOrigin, RunRecord, Settled, settle, write_record
from bastion.policy.compiled import Policy

#: Descriptors the launcher opens for bwrap.
SECCOMP_FD = 9
STATUS_FD = 8
ARGS_FD = 7
#: The launcher's exit when it cannot set up the run (bwrap never started).
EXIT_NOT_RUN = 125
#: Seconds between ``timeout``'s TERM and its KILL.
KILL_AFTER = 2
#: Folder of the state dir holding the seccomp program and the runs' records.
SANDBOX_DIR = "sandbox"
RUNS_DIR = "runs"
#: ``$0`` of the launcher: what the line shows in ``ps`` and in the transcript.
LAUNCHER_NAME = "bastion-sandbox"
_NO_STATUS = "its status file cannot be made (it ran already, or the state dir is read-only here)"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True, slots=True)
class Unpreparable:
    """This call cannot be contained here; ``reason`` says why (the caller asks)."""

    reason: str
    #: Runs finished since the last call (for the ledger), as with a PreparedRun.
    settled: tuple[Settled, ...] = ()


@dataclass(frozen=True, slots=True)
class PreparedRun:
    """One contained run, ready for the agent's shell. ``argv`` is bwrap's whole command
    line up to and including ``bash -c`` (the command follows); ``env_names`` are the
    variables passed through with their values in the agent's shell at run time, ``env``
    the fixed ones (the egress proxy's)."""

    run_id: str
    profile: str
    argv: tuple[str, ...]
    env_names: tuple[str, ...]
    env: tuple[tuple[str, str], ...]
    timeout: float
    launcher: str
    timeout_program: str
    status_path: str
    seccomp_path: str | None = None
    cgroup_files: tuple[str, ...] = ()
    settled: tuple[Settled, ...] = ()
    #: The file holding ``argv[args_at:command_at - 1]`` (the mounts, up to ``--chdir DIR``)
    #: for ``bwrap --args``; None: the whole argv is in the line.
    args_path: str | None = None
    #: Where the options in that file start in ``argv`` (after the namespaces).
    args_at: int = 0
    #: Where the command bwrap runs starts in ``argv`` (after its ``--``).
    command_at: int = 0
    #: The file naming (NUL-separated) the protected paths that did not exist when the run
    #: was prepared, which the launcher moves to ``quarantine`` as soon as bwrap exits (see
    #: :meth:`script`); None: nothing to sweep.
    swept_path: str | None = None
    quarantine: str = ""
    #: ``mkdir``, ``mv`` and ``rm`` by absolute path (no PATH lookup in the launcher).
    movers: tuple[str, str, str] = ("", "", "")

    @property
    def ref(self) -> str:
        """The run's id (``bastion.policy.containment.Prepared``)."""
        return self.run_id

    def script(self, timeout: float | None = None) -> str:
        """The launcher: ``$1`` is bwrap, the rest its arguments and the command. Its first
        line says what it is, for a person reading the call (no byte of it can end the
        comment: the label's control characters are replaced)."""
        q = shlex.quote
        lines = [
            f"# bastion: contained run ({_printable(self.profile)})",
            "for f in /proc/$$/fd/*; do n=${f##*/}; ((n > 2)) && exec {n}>&-; done",
            f'no() {{ echo "bastion: $1; the contained run is not started" >&2; exit {EXIT_NOT_RUN}; }}',
            f"set -o noclobber; exec 0</dev/null {STATUS_FD}>{q(self.status_path)} || no {q(_NO_STATUS)}",
        ]
        if self.seccomp_path is not None:
            lines.append(f"exec {SECCOMP_FD}<{q(self.seccomp_path)} || no 'no seccomp program'")
        if self.args_path is not None:
            lines.append(f"exec {ARGS_FD}<{q(self.args_path)} || no 'its sandbox arguments are gone'")
        lines += self._open_files()
        for path in self.cgroup_files:
            lines.append(f"echo 0 >|{q(path)} || no 'its cgroup is gone'")
        names = " ".join(q(n) for n in self.env_names)
        # Only exported variables: bash gives itself a PATH and TERM when the agent has none.
        exported = '[[ -v $v && ${!v@a} == *x* ]] && e+=(--setenv "$v" "${!v}")'
        lines.append(f"e=(); for v in {names}; do {exported}; done")
        fixed = " ".join(f"--setenv {q(k)} {q(v)}" for k, v in self.env)
        options = f" --args {ARGS_FD}" if self.args_path is not None else ""
        # --foreground: timeout stays in the agent's process group, so an agent that kills
        # the group kills bwrap too (bwrap's death kills the sandbox: --die-with-parent).
        seconds = self.timeout if timeout is None else timeout
        head = f'{q(self.timeout_program)} --foreground -k {KILL_AFTER} {seconds:g} "$1"{options}'
        run = f'{head} --clearenv "${{e[@]}}" {fixed} --json-status-fd {STATUS_FD} "${{@:2}}"'
        if self.swept_path is None or not self.quarantine:
            lines.append(f"exec {run}")
            return "\n".join(lines)
        # A protected path the run created (a `.claude/settings.json`, a `.vscode/tasks.json`)
        # goes the moment bwrap exits, before the agent or an editor can load it: not at the
        # next settle, which may come only with the next call, or the next session.
        mkdir, mv, rm = (q(tool) for tool in self.movers)
        into = q(os.path.join(self.quarantine, self.run_id))
        lines += [
            f"{run}; r=$?",
            f"mapfile -d '' -t s <{q(self.swept_path)}; for p in \"${{s[@]}}\"; do "
            f"[[ -e $p || -L $p ]] || continue; d={into}/${{p#/}}; "
            f'{mkdir} -p -- "${{d%/*}}" && {mv} -f -T -- "$p" "$d" || {rm} -rf -- "$p"; done',
            "exit $r",
        ]
        return "\n".join(lines)

    def _open_files(self) -> list[str]:
        """Open each file bwrap copies in (``--file FD PATH``: the host's PATH) on its FD:
        bash gives ``{f}`` the lowest free descriptor from 10, which is FD (every other one
        above 9 is closed); a file that cannot be opened stops the line."""
        inline = self.args_path is None
        options = self.argv[1:] if inline else self.argv[self.args_at : self.command_at - 1]
        at = [str(i) for i, word in enumerate(options) if word == "--file"]
        if not at:
            return []
        # The options file read anew (its own offset: bwrap reads fd 7 from the start).
        source = 'o=("${@:2}")' if inline else f'mapfile -d "" -t o </proc/$$/fd/{ARGS_FD}'
        check = '[[ $f == "${o[i+1]}" ]] || no "${o[i+2]} cannot be read"'
        return [f'{source}; for i in {" ".join(at)}; do exec {{f}}<"${{o[i+2]}}" && {check}; done']

    def shell_command(self, original: str, timeout: float | None = None) -> str:
        """The line the agent's shell runs: the launcher, bwrap's argv, ``bash -c ORIGINAL``
        (``original`` arrives in the sandbox byte for byte). The launcher runs ``bash -p``:
        it reads no ``BASH_ENV`` and imports no functions or shell options from the agent's
        environment, so nothing there can change what it does before bwrap. ``timeout``
        (seconds) replaces the prepared one: the agent's own limit for its shell tool. With
        an options file, the line names bwrap, its namespaces and its command; bwrap reads
        the mounts and ``--chdir`` from that file (``--args``)."""
        script = self.script(timeout)
        argv = self.argv
        if self.args_path is not None:
            argv = (*argv[: self.args_at], *argv[self.command_at - 1 :])
        return shlex.join([self.launcher, "-p", "-c", script, LAUNCHER_NAME, *argv, original])

    def options_file(self) -> bytes:
        """What the options file holds: bwrap's options, each ended by a NUL."""
        return b"".join(os.fsencode(word) + b"\0" for word in self.argv[self.args_at : self.command_at - 1])


def runs_dir(state_dir: str) -> str:
    return os.path.join(state_dir, SANDBOX_DIR, RUNS_DIR)


def prepare(
    policy: Policy,
    config: ExecConfig,
    profile: Profile,
    *,
    cwd: str,
    environ: Mapping[str, str],
    timeout: float | None = None,
    state_dir: str | None = None,
    egress: EgressBinding | None = None,
    bwrap: str | None = None,
    call: CallOrigin | None = None,
    settle_first: bool = True,
) -> PreparedRun | Unpreparable:
    """Everything ``bastion sandbox run --profile P --cwd CWD --timeout T`` would build,
    built now. ``environ`` is the agent's environment (the hook's); ``egress`` the binding
    of an egress proxy the caller serves (required for a profile with hosts); ``call`` the
    agent's call it carries out (kept for the ledger's record of its exit).
    ``settle_first=False``: the caller settles earlier runs itself (:func:`settle`, after
    it has answered), so this call does not wait for that work."""
    state = state_dir or policy.state_dir
    folder = runs_dir(state)
    done = settle(folder) if settle_first else ()
    try:
        return _prepare(policy, config, profile, cwd, environ, timeout, state, egress, bwrap, done, call)
    except (ExecError, OSError) as exc:
        return Unpreparable(f"this call cannot run contained here: {exc}", done)


def _prepare(
    policy: Policy,
    config: ExecConfig,
    profile: Profile,
    cwd: str,
    environ: Mapping[str, str],
    timeout: float | None,
    state: str,
    egress: EgressBinding | None,
    bwrap: str | None,
    done: tuple[Settled, ...],
    call: CallOrigin | None,
) -> PreparedRun | Unpreparable:
    problem = bwrap_problem(bwrap)
    if problem is not None:
        return Unpreparable(f"this call cannot run contained here ({problem})", done)
    if profile.hosts and egress is None:
        return Unpreparable(
            f"this call needs the network ({', '.join(profile.hosts)}) and no egress proxy is "
            "running to decide its connections (start the hook daemon: bastion serve)",
            done,
        )
    launcher, timer = _system("bash"), _system("timeout")
    if timeout is not None:  # the agent's own timeout for its shell tool, as sandbox run does
        config = dataclasses.replace(config, timeout=timeout)
    spec = build_spec(
        policy, config, ("bash", "-c"), cwd=os.path.abspath(cwd), environ=environ, profile=profile
    )
    if egress is not None and profile.hosts:
        spec = dataclasses.replace(spec, network=False, egress=egress)
    program = seccomp.program_file(os.path.join(state, SANDBOX_DIR)) if spec.limits.seccomp else None
    run_id = f"{time.time_ns():x}-{secrets.token_hex(6)}"
    runner = BubblewrapRunner(bwrap)
    network = network_of(spec)
    namespaces = namespace_args(spec, network, SECCOMP_FD if program else None)
    view = runner.view(spec)
    argv = [runner.bwrap, *namespaces, *view, "--", *command(spec, network)]
    groups = cgroups.make_groups(
        f"bastion-run-{run_id}", spec.limits.max_processes, spec.limits.max_resident_mb
    )
    folder = runs_dir(state)
    record = RunRecord(run_id, time.time(), profile.label, spec.cwd, tuple(groups), spec.swept, spec.links,
                       spec.quarantine, call)  # fmt: skip
    # Passed by name, their values taken in the agent's shell when the line runs (whoever
    # prepares it: the hook, or a daemon whose own environment differs); a name no shell
    # variable can have is not passed (the launcher would have to quote it into code).
    allowed = [n for n in child_environment(config, dict.fromkeys(config.env_allow, ""))
               if _IDENTIFIER.fullmatch(n)]  # fmt: skip
    fixed = tuple(sorted((spec.egress.env if spec.egress is not None else {}).items()))
    run = PreparedRun(
        run_id=run_id,
        profile=profile.label,
        argv=tuple(argv),
        env_names=tuple(name for name in allowed if name not in dict(fixed)),
        env=(*fixed, (CREDENTIALS_ENV, policy.credentials_dir)),  # always: boundary.CREDENTIALS_ENV
        timeout=spec.timeout,
        launcher=launcher,
        timeout_program=timer,
        status_path=os.path.join(folder, run_id + ".status"),
        seccomp_path=program,
        cgroup_files=tuple(_join_file(g) for g in groups),
        settled=done,
        args_path=os.path.join(folder, run_id + ARGS),
        args_at=1 + len(namespaces),
        command_at=2 + len(namespaces) + len(view),
        swept_path=os.path.join(folder, run_id + SWEEP_LIST) if spec.swept and spec.quarantine else None,
        quarantine=spec.quarantine,
        movers=(_system("mkdir"), _system("mv"), _system("rm")),
    )
    try:
        _write_options(run)
        if run.swept_path is not None:
            _write_once(run.swept_path, b"".join(os.fsencode(p) + b"\0" for p in spec.swept))
        write_record(folder, record)
    except OSError:
        cgroups.remove_groups(groups)
        for made in (run.args_path, run.swept_path):
            with contextlib.suppress(OSError):
                os.unlink(made or "")
        raise
    return run


def _write_options(run: PreparedRun) -> None:
    """The options file, read-only, made once (an existing file is never reused)."""
    assert run.args_path is not None
    _write_once(run.args_path, run.options_file())


def _write_once(path: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o400)
    with open(fd, "wb") as handle:
        handle.write(data)


def _printable(text: str) -> str:
    return "".join(c if " " <= c < "\x7f" or c > "\x9f" else "?" for c in text)


def _join_file(group: str) -> str:
    """Where the launcher writes ``0`` (itself) to join ``group``: cgroup v1's ``tasks``
    moves the writing thread alone, which the kernel does without the global lock that a
    ``cgroup.procs`` write takes (an RCU grace period, ~3 ms per group on a busy machine);
    the launcher is one bash, single-threaded, so that is the whole process. v2 has no
    ``tasks``: ``cgroup.procs``."""
    tasks = os.path.join(group, "tasks")
    return tasks if os.path.exists(tasks) else os.path.join(group, "cgroup.procs")


def _system(name: str) -> str:
    found = shutil.which(name, path=SYSTEM_PATH)
    if found is None:
        raise ExecError(f"{name!r} is not installed in the system directories")
    return found
