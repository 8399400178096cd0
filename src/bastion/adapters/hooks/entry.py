"""``bastion hook AGENT [--event EVENT] [--policy FILE] [--timeout S] [--deadline S]``.

Reads the agent's hook JSON on stdin (at most 8 MiB), decides, and answers in the agent's
own format on stdout / stderr / exit code. Fails closed everywhere it can:

* any exception, unreadable or oversized input, an unknown tool, a broken policy or an
  unwritable state dir → a *deny* answer with the reason, and exit 2 (a block for every
  supported agent);
* a watchdog thread answers deny and ends the process (``os._exit(2)``) when no decision
  is made within ``--deadline`` seconds (default 5); a parked ASK extends it to the hook
  timeout minus 2 s, and the wait itself ends 5 s before the timeout ``install`` wrote.

This module is the whole hook path: it imports nothing heavy until a call needs it (the
policy comes from a pickle cache, the shell classifier only for shell calls).
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bastion.adapters.hooks.decide import Decider, LocalDecider, Options
from bastion.adapters.hooks.protocol import PRE_TOOL_USE, AgentProtocol, Answer, Verdict
from bastion.agents.registry import hook_names
from bastion.call import strict_json
from bastion.errors import CallError

#: Every agent with a hook in the registry, and ``generic`` (a plugin of your own).
AGENTS = (*hook_names(), "generic")
MAX_INPUT = 8 * 1024 * 1024
DEFAULT_DEADLINE = 5.0
#: A parked wait ends this long before the agent's hook timeout.
PARK_MARGIN = 5.0
USAGE = (
    "usage: bastion hook AGENT [--event EVENT] [--policy FILE] [--timeout S] [--deadline S] [--shadow]"
    " [--autostart]\n"
    f"AGENT is one of: {', '.join(AGENTS)}\n"
)


class UsageError(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class HookArgs:
    agent: str
    event: str | None = None
    policy: str | None = None
    timeout: float = 0.0  # the hook timeout the agent was configured with (0: unknown)
    deadline: float = DEFAULT_DEADLINE
    shadow: bool = False  # --shadow: decide and record, allow (bastion.policy.shadow)


def parse_args(args: list[str]) -> HookArgs:
    if not args or args[0].startswith("-"):
        raise UsageError("missing AGENT")
    agent, rest = args[0], list(args[1:])
    if agent not in AGENTS:
        raise UsageError(f"unknown agent {agent!r}")
    values: dict[str, str] = {}
    while rest:
        flag = rest.pop(0)
        if flag == "--autostart":
            continue  # read by the client before this: start a daemon when none answers
        if flag == "--shadow":
            values["shadow"] = "1"
            continue
        name, eq, inline = flag.partition("=")
        if name not in ("--event", "--policy", "--timeout", "--deadline"):
            raise UsageError(f"unknown option {flag!r}")
        if not eq:
            if not rest:
                raise UsageError(f"{name} needs a value")
            inline = rest.pop(0)
        values[name[2:]] = inline
    try:
        timeout = float(values.get("timeout", 0))
        deadline = float(values.get("deadline", DEFAULT_DEADLINE))
    except ValueError as exc:
        raise UsageError(f"--timeout/--deadline must be seconds: {exc}") from None
    if not (timeout >= 0 and 0 < deadline <= 600):
        raise UsageError("--timeout must be >= 0 and --deadline in (0, 600]")
    return HookArgs(
        agent, values.get("event"), values.get("policy"), timeout, deadline, shadow="shadow" in values
    )


def hook_env(parsed: HookArgs, env: Mapping[str, str]) -> dict[str, str]:
    """The environment the decision sees: ``--shadow`` adds ``BASTION_SHADOW=1``."""
    return {**env, "BASTION_SHADOW": "1"} if parsed.shadow else dict(env)


def protocol_for(agent: str) -> AgentProtocol:
    module = importlib.import_module(f"bastion.adapters.hooks.{agent}")
    protocol: AgentProtocol = module.PROTOCOL
    return protocol


def pick_decider(env: dict[str, str] | os._Environ[str]) -> Decider:
    """The in-process decider. Once ``bastion serve`` listens on a local socket (#8), a
    client that asks it and falls back to ``LocalDecider`` when it is absent plugs in here."""
    return LocalDecider()


class Responder:
    """Writes exactly one answer: the decision's, or the watchdog's deny, whichever is first."""

    def __init__(self, protocol: AgentProtocol, event: str) -> None:
        self.protocol = protocol
        self.event = event
        self._lock = threading.Lock()
        self._answered = False

    def answer(self, answer: Answer) -> bool:
        with self._lock:
            if self._answered:
                return False
            self._answered = True
            _write(1, answer.stdout)
            _write(2, answer.stderr)
            return True

    def deny(self, reason: str) -> Answer:
        return self.protocol.render(Verdict("deny", reason, self.event))


class Watchdog:
    def __init__(self, seconds: float, fire: Callable[[], None]) -> None:
        self._until = time.monotonic() + seconds
        self._fire = fire
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="bastion-hook-watchdog", daemon=True)
        self._thread.start()

    def extend_until(self, when: float) -> None:
        self._until = max(self._until, when)

    def cancel(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(max(self._until - time.monotonic(), 0.0)):
            if time.monotonic() >= self._until:
                self._fire()
                return


def _write(fd: int, text: str) -> None:
    data = text.encode("utf-8", "replace")
    try:
        while data:
            data = data[os.write(fd, data) :]
    except OSError:
        pass  # the agent stopped listening: the exit code still blocks


def read_input(limit: int = MAX_INPUT) -> bytes:
    data = sys.stdin.buffer.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"hook input larger than {limit} bytes")
    return data


def run_hook(args: list[str]) -> int:
    started = time.monotonic()
    try:
        parsed = parse_args(args)
        protocol = protocol_for(parsed.agent)
    except Exception as exc:  # no agent to answer in its own format: exit 2 blocks them all
        _write(2, f"bastion hook: {exc}\n{USAGE}")
        return 2
    responder = Responder(protocol, parsed.event or PRE_TOOL_USE)

    def expire() -> None:
        responder.answer(
            responder.deny(f"Bastion made no decision within {parsed.deadline:g} s; the call is refused")
        )
        os._exit(2)

    watchdog = Watchdog(parsed.deadline, expire)
    hard_end = started + parsed.timeout - 2.0

    def on_park(seconds: object) -> None:
        watchdog.extend_until(hard_end)

    try:
        answer = _decide(parsed, protocol, responder, started, on_park)
    except BaseException as exc:  # fail closed: nothing here may let the call through
        answer = responder.deny(f"cannot decide safely: {type(exc).__name__}: {exc}")
    watchdog.cancel()
    if not responder.answer(answer):
        time.sleep(60)  # the watchdog answered first and is ending the process
    return answer.exit_code


def _decide(
    parsed: HookArgs,
    protocol: AgentProtocol,
    responder: Responder,
    started: float,
    on_park: Callable[[object], None],
) -> Answer:
    env = hook_env(parsed, os.environ)
    raw = read_input()
    try:
        payload = strict_json.loads(raw)  # duplicate keys, NaN, deep nesting: deny
    except CallError as exc:
        return responder.deny(f"the hook input is not JSON that can be read safely ({exc})")
    request = protocol.parse(payload, env, event=parsed.event)
    responder.event = request.event
    budget = parsed.timeout - PARK_MARGIN - (time.monotonic() - started) if parsed.timeout else 0.0
    options = Options(
        env=env,
        policy_path=parsed.policy,
        park_budget=max(budget, 0.0),
        on_park=on_park if budget > 0 else None,
    )
    verdict = pick_decider(env).decide(request, protocol, options)
    return protocol.render(verdict)
