"""An approved call's run rides on its approval: the hosts a person saw are not asked about twice.

A shell call a person approved in Bastion's queue runs, when its profile names hosts, as
``bastion sandbox run --approval ID … -- bash -c 'COMMAND'`` (the hook writes the request's
id into the line: :func:`approval_of`). Its egress proxy would ask the policy about each
connection again, and with no ``allow_hosts`` that is a second question about a host the
person was just shown on the card. The words of that line prove nothing (the agent's shell
runs it, and an agent could write such a line itself), so the run checks the record instead
(:func:`ride_on`), once, before it starts:

* the approvals store holds request ``ID``, answered *by a person* (approved once or always:
  not a grant's answer, not a callback's, not "approve uncontained");
* the run starts within the request's own time to live after the answer;
* the command being run is the one approved: the keyed hash of the shell call (its command
  and working directory) equals the request's ``call_key``;
* the request's profile names hosts, and no earlier run rode on this approval (each approval
  carries one run: a claim file ``<state>/approved-runs/ID``, made exclusively).

Then the proxy admits a connection to a host (and port) of *the request's* profile without
asking (``exec.approved-host``, the request named in the ledger record); the policy's
denials, the address checks and a held secret's question stay as they are. Anything else (an
unknown or malformed id, a denied or unanswered request, another command, an approval used
before, a store that cannot be read) is no approval: every connection is decided as without
one, and the run says why on stderr.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from bastion.approval.model import Resolver
from bastion.approval.state import RequestState
from bastion.call.model import ToolCall
from bastion.exec.egress.only import Approved
from bastion.policy.decision import Evaluation

if TYPE_CHECKING:
    from bastion.approval.store import Store
    from bastion.audit.keyed import ArgumentHasher

#: The rule of the reason a request approved by a person leads with (``bastion.approval.outcome``).
PERSON_RULE = "approval.person"
#: Where the runs that rode on an approval are claimed, under the state directory.
CLAIMS = "approved-runs"
#: What an approval id looks like (``bastion.approval.model.new_id``): never a path.
ID_FORM = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{21}")
_APPROVED = frozenset({RequestState.APPROVED_ONCE, RequestState.APPROVED_ALWAYS})


def approval_of(evaluation: Evaluation) -> str | None:
    """The id of the request a person approved in Bastion's queue, when that is what this
    answer is (its lead reason); None for any other answer (the policy, a grant, a callback,
    the agent's own prompt, "approve uncontained")."""
    if not evaluation.reasons:
        return None
    lead = evaluation.reasons[0]
    if lead.rule != PERSON_RULE or lead.source != f"request {lead.matched}":
        return None
    return lead.matched if ID_FORM.fullmatch(lead.matched) else None


def ride_on(
    store: Store,
    hasher: ArgumentHasher,
    request_id: str,
    argv: tuple[str, ...],
    *,
    cwd: str,
    now: float,
    state_dir: str,
) -> Approved | str:
    """The approval the run of ``argv`` in ``cwd`` rides on, claimed for it; or why there is
    none (in words for stderr). Never raises: a failure to read is no approval."""
    if not ID_FORM.fullmatch(request_id):
        return f"{request_id!r} is not a request id"
    if len(argv) != 3 or argv[:2] != ("bash", "-c"):
        return "the command is not the approved call's 'bash -c COMMAND'"
    call = ToolCall(tool="shell", args={"command": argv[2]}, cwd=cwd)
    try:
        request = store.get_request(request_id)
        key = hasher.digest(call)
    except Exception as exc:  # fail closed: no approval, the run asks as before
        return f"the approvals store cannot be read: {type(exc).__name__}: {exc}"
    if request is None:
        return f"no request {request_id}"
    if request.state not in _APPROVED or request.resolver != Resolver.PERSON.value:
        return f"request {request_id} was not approved by a person ({request.state.value})"
    if request.resolved_at is None or now >= request.resolved_at + (request.expires - request.created):
        return f"the approval of request {request_id} is too old to run on"
    if request.tool != "shell" or request.call_key != key:
        return f"request {request_id} approved another command"
    profile = request.evaluation.profile
    if profile is None or not profile.hosts:
        return f"request {request_id} named no host"
    problem = claim(state_dir, request_id)
    if problem is not None:
        return problem
    return Approved(request_id, tuple(h.lower() for h in profile.hosts))


def claim(state_dir: str, request_id: str, what: str = "the approval of request") -> str | None:
    """Claim the approval for this run (exclusively: one run per approval; a hand-off's
    decision id shares the folder: ids never repeat)."""
    folder = os.path.join(state_dir, CLAIMS)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError as exc:  # a file in its place, a read-only state directory
        return f"{what} {request_id} cannot be claimed: {exc.strerror or exc}"
    try:
        fd = os.open(os.path.join(folder, request_id), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return f"{what} {request_id} was used by an earlier run"
    except OSError as exc:
        return f"{what} {request_id} cannot be claimed: {exc.strerror or exc}"
    os.close(fd)
    return None
