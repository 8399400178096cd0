"""Handlers for cloud, forge and cluster CLIs (aws, gcloud, az…, gh, kubectl): which verbs only
read, which print credentials, which change infrastructure, and the stores they write."""

from __future__ import annotations

import re

from bastion.call.effects import Effect
from bastion.shell.ctx import Ctx
from bastion.shell.flags import Parsed
from bastion.shell.model import Access
from bastion.shell.programs.spec import Spec
from bastion.shell.words import Word, literal_word

E = Effect


_READ_VERB = re.compile(
    r"^(describe|list|get|show|ls|info|whoami|version|search|status|"
    r"help|--version|logs|tail|lookup|head|cat|read-config|inspect)"
)
_CRED_WORDS = (
    "print-access-token",
    "print-identity-token",
    "get-access-token",
    "export-credentials",
    "get-login-password",
    "auth:token",
    "token",
    "configure",
    "get-secret-value",
    "secrets",
    "kv",
    "read",
)


def cloud(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """aws/gcloud/az/…: describe*/list*/get* are network reads, anything else mutates."""
    words = [w.value or "" for w in positionals]
    if not words:
        return
    if any(w in _CRED_WORDS for w in words[:4]):
        ctx.add(E.CREDENTIALS, note=f"{ctx.program} {' '.join(words[:3])} handles credentials")
    verbs = words[:3] if ctx.program != "gsutil" else words[:1]
    if ctx.program == "aws" and words[:2] in (["configure", "set"], ["configure", "import"]):
        # writes the profile into ~/.aws/config, its keys into ~/.aws/credentials (aws 2
        # `aws configure set help`): a credential store written
        for store in ("~/.aws/credentials", "~/.aws/config"):
            ctx.path(literal_word(store), Access.WRITE, "aws configure set")
        ctx.add(E.WRITE, note="aws configure set writes the AWS CLI's configuration and credentials")
        return
    s3 = ctx.program == "aws" and words[0] == "s3" and len(words) > 1
    if s3 and words[1] in ("cp", "mv", "sync"):
        dest = words[-1]
        if dest.startswith("s3://"):
            ctx.add(E.INFRASTRUCTURE, note="uploads to S3")
        else:
            ctx.add(E.WRITE, note="downloads from S3")
            ctx.path(positionals[-1], Access.WRITE, "aws s3 destination")
        for w in positionals[2:-1]:
            if not (w.value or "").startswith("s3://"):
                ctx.path(w, Access.READ, "aws s3 upload source")
        return
    if any(_READ_VERB.match(v) for v in verbs[1:] or verbs):
        ctx.note(f"{ctx.program}: read-only verb")
        return
    ctx.add(E.INFRASTRUCTURE, note=f"{ctx.program}: mutating verb {' '.join(verbs)}")


def gh(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    words = [w.value or "" for w in positionals]
    ctx.host("github.com")
    if words[:2] == ["auth", "token"] or (
        words[:2] == ["auth", "status"] and parsed.has("-t", "--show-token")
    ):
        ctx.disclose("gh prints a token")
    elif words[:1] == ["api"] or (
        len(words) > 1
        and words[1]
        in (
            "create",
            "merge",
            "close",
            "edit",
            "delete",
            "comment",
            "review",
            "reopen",
            "ready",
            "run",
            "set",
            "upload",
            "sync",
            "fork",
            "clone",
            "rerun",
            "cancel",
            "enable",
            "disable",
            "lock",
            "unlock",
            "transfer",
            "archive",
            "rename",
            "add",
        )
    ):
        ctx.add(E.WRITE, note="gh changes state on GitHub")
    elif words[:1] in (["extension"], ["ext"]) or words[:2] == ["codespace", "ssh"]:
        ctx.add(E.CODE, E.UNKNOWN, note="opaque runner")


def kubectl(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    words = [w for w in ctx.words[1:] if not (w.value or "-").startswith("-")]
    verbs = [w.value or "" for w in words[:3]]
    values = [w.value for w in ctx.words[1:]]
    server = next((v for v in values if v is not None and v.partition("=")[0] in _KUBE_SERVER), None)
    if server is not None:
        # The kubeconfig's user (a bearer token, a client key, an exec plugin's token) goes
        # to whatever server the option names: a credential sent away.
        ctx.disclose(f"kubectl {server[:60]}: sends the kubeconfig's credentials to the server it names")
        return
    raw = next((v for i, v in enumerate(values) if i and values[i - 1] == "--raw"), None)
    raw = raw or next((v[6:] for v in values if v is not None and v.startswith("--raw=")), None)
    if "get" in verbs[:1] and raw is not None and "secrets" in raw.lower():
        ctx.disclose(f"kubectl get --raw {raw[:60]}: prints secrets")
        return
    if any(v in _KUBE_READS for v in verbs[:2]):
        for word in words[1:]:
            if _names_secrets(word.value or ""):
                ctx.disclose(f"kubectl prints secrets ({word.value})", ctx.index_of(word))
                return


#: kubectl's options that name the API server its credentials are sent to.
_KUBE_SERVER = frozenset({"--server", "-s"})


#: kubectl verbs that print the objects they name.
_KUBE_READS = frozenset({"get", "describe", "edit", "view-last-applied", "explain"})


def _names_secrets(resource: str) -> bool:
    """``secret``, ``secrets/x``, ``all,secrets``, ``secrets.v1.``, ``Secret``: a resource
    list that names the Secret kind."""
    for item in resource.split(","):
        kind = item.split("/", 1)[0].split(".", 1)[0].lower()
        if kind in ("secret", "secrets"):
            return True
    return False


HANDLERS = {"cloud": cloud, "gh": gh, "kubectl": kubectl}
