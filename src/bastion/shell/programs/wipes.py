"""Commands that destroy what nothing gives back, known by the words that make them so.

Each entry is a program and the words its command line must all hold (each requirement one of
its spellings), with why: ``docker system prune --volumes`` deletes every unused volume's
data; ``kubectl delete ns --all`` every namespace of the cluster and all in it. Infrastructure
commands otherwise ask (a person may run a deploy); these are denied as catastrophic, like
``rm -rf /`` (suite G). From each tool's documentation: Docker 27 ``docker system prune
--help``, ``docker volume prune --help``; kubectl 1.31 ``kubectl delete --help``; Terraform
1.9 ``terraform destroy``/``apply -destroy`` with ``-auto-approve``.
"""

from __future__ import annotations

from collections.abc import Sequence

_DOCKER = (
    (
        (("system",), ("prune",), ("--volumes",)),
        "docker system prune --volumes deletes every unused volume's data",
    ),
    ((("volume",), ("prune",)), "docker volume prune deletes the data of every unused volume"),
    ((("volume",), ("rm", "remove"), ("-f", "--force")), "docker volume rm -f deletes a volume's data"),
)
WIPES: dict[str, tuple[tuple[tuple[tuple[str, ...], ...], str], ...]] = {
    "docker": _DOCKER,
    "podman": _DOCKER,
    "nerdctl": _DOCKER,
    "kubectl": (
        ((("delete",), ("ns", "namespace", "namespaces"), ("--all",)),
         "kubectl delete ns --all deletes every namespace"),
        ((("delete",), ("--all",), ("-A", "--all-namespaces")), "kubectl delete --all in every namespace"),
    ),
    "terraform": (
        ((("destroy",), ("-auto-approve", "--auto-approve")),
         "terraform destroy -auto-approve tears the infrastructure down"),
        ((("apply",), ("-destroy",), ("-auto-approve", "--auto-approve")),
         "terraform apply -destroy -auto-approve tears the infrastructure down"),
    ),
}  # fmt: skip
WIPES["oc"] = WIPES["k"] = WIPES["kubectl"]
WIPES["tofu"] = WIPES["terraform"]


def wipe(program: str | None, words: Sequence[str | None]) -> str | None:
    """Why ``program WORDS`` destroys what nothing gives back, or None. Short option clusters
    are looked into (``-af`` holds ``-a`` and ``-f``)."""
    entries = WIPES.get(program or "")
    if not entries:
        return None
    held = {w for w in words if w}
    held |= {f"-{c}" for w in words if w and w.startswith("-") and not w.startswith("--") for c in w[1:]}
    for required, why in entries:
        if all(any(spelling in held for spelling in choice) for choice in required):
            return why
    return None
