"""Infrastructure tools: mutating verbs are hardline (Effect.INFRASTRUCTURE)."""

from __future__ import annotations

from bastion.call.effects import Effect
from bastion.shell.model import Access
from bastion.shell.programs.spec import CODE, INFRA, NET, READ, WRITE, FlagRule, Spec, fs, opts

E = Effect
_R = Spec(READ, reader=True)
_NET_READ = Spec(NET)
_INFRA = Spec(frozenset({E.INFRASTRUCTURE, E.NETWORK}))
_OPAQUE = Spec(frozenset({E.CODE, E.UNKNOWN, E.NETWORK}), note="opaque runner")
_CREDS = Spec(frozenset({E.CREDENTIALS, E.NETWORK}), note="prints or stores credentials")

#: terraform writes ~/.terraform.d (its checkpoint) even when it only reads.
_TF_READ = Spec(READ, caches=("~/.terraform.d",))
_TF = Spec(
    frozenset({E.UNKNOWN}),
    subcommands={
        **{n: Spec(frozenset({E.NETWORK, E.CODE})) for n in ("plan", "refresh", "console")},
        **{
            n: _TF_READ
            for n in (
                "validate",
                "show",
                "output",
                "version",
                "providers",
                "graph",
                "-version",
                "--version",
                "help",
                "-help",
            )
        },
        "fmt": Spec(WRITE),
        "init": Spec(frozenset({E.NETWORK, E.WRITE, E.INSTALL})),
        "get": Spec(frozenset({E.NETWORK, E.WRITE})),
        "workspace": Spec(WRITE, subcommands={"list": _R, "show": _R}, other_sub=Spec(WRITE)),
        "state": Spec(
            INFRA, subcommands={"list": _NET_READ, "show": _NET_READ, "pull": _NET_READ}, other_sub=_INFRA
        ),
        **{n: _INFRA for n in ("apply", "destroy", "import", "taint", "untaint", "force-unlock")},
    },
)
_KUBE_READ = (
    "get",
    "describe",
    "logs",
    "top",
    "explain",
    "version",
    "api-resources",
    "api-versions",
    "cluster-info",
    "diff",
    "auth",
    "events",
    "wait",
    "completion",
)
#: kubectl 1.30 `kubectl options`: the cluster it reaches and the credentials it uses. A
#: kubeconfig named on the command line runs its users' ``exec`` credential plugins (=P);
#: ``-v`` from 6 up logs requests and responses, bearer tokens and Secret bodies among them;
#: ``--raw`` prints any API path (Secrets too): not modelled, so an allow entry never rides.
_KUBE_GLOBAL = (
    "--kubeconfig=P -s|--server=N --context= --cluster= --user= -n|--namespace= "
    "--request-timeout= --insecure-skip-tls-verify --certificate-authority=R "
    "--client-certificate=R --client-key=R --token=U --as=U --as-group=U --as-uid=U "
    "--tls-server-name= --cache-dir=W --profile=W -v|--v=U --match-server-version "
    "--warnings-as-errors --disable-compression"
)
_KUBE_GET = opts(
    _NET_READ,
    (
        f"{_KUBE_GLOBAL} -A|--all-namespaces -o|--output= -l|--selector= -w|--watch "
        "--watch-only --field-selector= --show-labels --sort-by= --no-headers "
        "-L|--label-columns= --chunk-size= --ignore-not-found -f|--filename=R -R|--recursive "
        "-k|--kustomize=R --raw=U --show-kind --show-managed-fields --server-print "
        "--template= --output-watch-events --subresource= --allow-missing-template-keys"
    ),
)
_KUBECTL = opts(
    Spec(
        NET,
        subcommands={
            **{n: _NET_READ for n in _KUBE_READ},
            "get": _KUBE_GET,
            "config": Spec(
                WRITE,
                # Reading the kubeconfig still resolves names (the differential oracle's
                # external corpus saw DNS queries): network, so not a pure read.
                subcommands={
                    "view": _R,
                    **{n: _NET_READ for n in ("get-contexts", "current-context", "get-clusters")},
                },
                other_sub=Spec(WRITE),
            ),
            **{
                n: _INFRA
                for n in (
                    "apply",
                    "delete",
                    "create",
                    "replace",
                    "patch",
                    "scale",
                    "drain",
                    "cordon",
                    "uncordon",
                    "taint",
                    "label",
                    "annotate",
                    "edit",
                    "set",
                    "rollout",
                    "expose",
                    "autoscale",
                    "certificate",
                )
            },
            **{
                n: _OPAQUE
                for n in ("exec", "attach", "run", "debug", "port-forward", "proxy", "cp", "plugin")
            },
        },
        other_sub=_OPAQUE,
        handler="kubectl",
    ),
    _KUBE_GLOBAL,
)
_HELM = Spec(
    NET,
    subcommands={
        **{
            n: _NET_READ
            for n in (
                "list",
                "ls",
                "status",
                "get",
                "template",
                "show",
                "search",
                "history",
                "lint",
                "version",
                "env",
                "dependency",
            )
        },
        **{n: _INFRA for n in ("install", "upgrade", "uninstall", "delete", "rollback", "del")},
        "repo": Spec(frozenset({E.NETWORK, E.WRITE}), subcommands={"list": _R}),
        "plugin": _OPAQUE,
    },
)
_DOCKER_READ = (
    "logs",
    "inspect",
    "version",
    "info",
    "stats",
    "top",
    "history",
    "port",
    "diff",
    "search",
    "events",
)
#: docker 24 `docker --help` global options: -H/--host is the daemon it talks to.
_DOCKER_GLOBAL = (
    "--config=P -c|--context= -D|--debug -H|--host=N -l|--log-level= --tls "
    "--tlscacert=R --tlscert=R --tlskey=R --tlsverify"
)
#: Every docker command talks to the daemon's socket (a root service): never a pure reader.
_DAEMON = Spec(frozenset({E.NETWORK}), note="docker talks to the Docker daemon's socket")
_DOCKER_PS = opts(
    _DAEMON,
    f"{_DOCKER_GLOBAL} -a|--all -f|--filter= --format= -n|--last= "
    "-l|--latest --no-trunc -q|--quiet -s|--size",
)
_DOCKER_IMAGES = opts(
    _DAEMON, f"{_DOCKER_GLOBAL} -a|--all --digests -f|--filter= --format= --no-trunc -q|--quiet --tree"
)
_DOCKER = opts(
    Spec(
        frozenset({E.UNKNOWN}),
        info=fs("--version", "-v"),
        handler="container",  # run / create given the host: denied (handlers_escape)
        subcommands={
            **{n: _DAEMON for n in _DOCKER_READ},
            "ps": _DOCKER_PS,
            "images": _DOCKER_IMAGES,
            **{n: Spec(frozenset({E.INFRASTRUCTURE, E.DELETE})) for n in ("rm", "rmi")},
            "system": Spec(
                READ,
                reader=True,
                subcommands={"df": _DAEMON, "info": _DAEMON, "events": _DAEMON},
                other_sub=Spec(frozenset({E.INFRASTRUCTURE, E.DELETE})),
            ),
            **{
                n: Spec(
                    READ,
                    reader=True,
                    subcommands={"ls": _DAEMON, "list": _DAEMON, "inspect": _DAEMON},
                    other_sub=Spec(frozenset({E.INFRASTRUCTURE, E.DELETE})),
                )
                for n in (
                    "volume",
                    "image",
                    "container",
                    "network",
                    "builder",
                    "buildx",
                    "context",
                    "plugin",
                    "secret",
                    "config",
                    "node",
                    "service",
                    "stack",
                    "swarm",
                )
            },
            **{n: _OPAQUE for n in ("run", "exec", "attach", "cp", "commit", "create", "start", "restart")},
            "build": Spec(frozenset({E.CODE, E.NETWORK}), note="runs the Dockerfile's steps"),
            **{n: Spec(NET) for n in ("pull", "push", "tag", "save", "load", "import", "export")},
            **{n: Spec(frozenset({E.CODE})) for n in ("stop", "kill", "pause", "unpause", "wait")},
            "compose": Spec(
                frozenset({E.CODE}),
                subcommands={
                    **{n: _R for n in ("ps", "logs", "config", "ls", "images", "top", "version")},
                    "down": Spec(
                        frozenset({E.CODE}),
                        flags={"-v": FlagRule(frozenset({E.DELETE}), note="removes volumes")},
                        aliases={"--volumes": "-v"},
                    ),
                    "rm": Spec(frozenset({E.DELETE})),
                    **{n: _OPAQUE for n in ("exec", "run")},
                },
                other_sub=Spec(frozenset({E.CODE})),
            ),
            "login": _CREDS,
            "logout": Spec(WRITE),
        },
    ),
    _DOCKER_GLOBAL,
)

PROGRAMS: dict[str, Spec] = {
    "terraform": _TF,
    "tofu": _TF,
    "terragrunt": _TF,
    "pulumi": Spec(
        frozenset({E.UNKNOWN}),
        subcommands={
            **{n: _INFRA for n in ("up", "update", "destroy", "import", "cancel", "refresh")},
            **{n: Spec(frozenset({E.NETWORK, E.CODE})) for n in ("preview", "pre")},
            **{n: _NET_READ for n in ("stack", "config", "whoami", "version", "about", "logs")},
        },
    ),
    "kubectl": _KUBECTL,
    "oc": _KUBECTL,
    "k": _KUBECTL,
    "helm": _HELM,
    "docker": _DOCKER,
    "podman": _DOCKER,
    "nerdctl": _DOCKER,
    "docker-compose": _DOCKER.subcommands["compose"] if _DOCKER.subcommands else _DOCKER,
    "aws": Spec(NET, handler="cloud"),
    "gcloud": Spec(NET, handler="cloud"),
    "az": Spec(NET, handler="cloud"),
    "gsutil": Spec(NET, handler="cloud"),
    "doctl": Spec(NET, handler="cloud"),
    "flyctl": Spec(NET, handler="cloud"),
    "fly": Spec(NET, handler="cloud"),
    "heroku": Spec(NET, handler="cloud"),
    "vercel": Spec(NET, handler="cloud"),
    "netlify": Spec(NET, handler="cloud"),
    "wrangler": Spec(NET, handler="cloud"),
    "eksctl": Spec(NET, handler="cloud"),
    "ansible": Spec(frozenset({E.INFRASTRUCTURE, E.NETWORK, E.CODE})),
    "ansible-playbook": Spec(frozenset({E.INFRASTRUCTURE, E.NETWORK, E.CODE})),
    "vault": Spec(NET, handler="cloud"),
    "op": Spec(NET, handler="cloud"),
    "devbox": Spec(
        CODE,
        subcommands={
            "run": Spec(frozenset({E.CODE, E.UNKNOWN}), handler="env_runner", note="opaque runner"),
            "shell": _OPAQUE,
            "add": Spec(frozenset({E.INSTALL})),
            "version": _R,
            "list": _R,
            "info": _R,
        },
    ),
    "nix": Spec(
        CODE,
        subcommands={
            "run": _OPAQUE,
            "shell": Spec(frozenset({E.CODE, E.UNKNOWN}), handler="env_runner", note="opaque runner"),
            "develop": Spec(frozenset({E.CODE, E.UNKNOWN}), handler="env_runner", note="opaque runner"),
            "build": Spec(frozenset({E.CODE, E.NETWORK})),
            "eval": _R,
            "search": _NET_READ,
            "profile": Spec(frozenset({E.INSTALL})),
            "flake": Spec(frozenset({E.NETWORK, E.WRITE})),
        },
    ),
    "nix-shell": Spec(frozenset({E.CODE, E.UNKNOWN}), handler="env_runner", note="opaque runner"),
    "nix-env": Spec(frozenset({E.INSTALL})),
    "mise": Spec(
        CODE,
        subcommands={
            "exec": Spec(CODE, handler="env_runner"),
            "x": Spec(CODE, handler="env_runner"),
            "run": Spec(CODE),
            "install": Spec(frozenset({E.INSTALL})),
            "ls": _R,
            "list": _R,
        },
    ),
    "direnv": Spec(
        CODE,
        subcommands={
            "exec": Spec(CODE, handler="env_runner"),
            "allow": Spec(frozenset({E.CODE, E.WRITE})),
            "status": _R,
        },
    ),
    "security": Spec(
        READ,
        subcommands={
            n: _CREDS for n in ("find-generic-password", "find-internet-password", "dump-keychain", "export")
        },
        other_sub=Spec(frozenset({E.UNKNOWN})),
    ),
    "pass": _CREDS,
    "secret-tool": _CREDS,
    "keyring": _CREDS,
    "gpg": Spec(
        frozenset({E.READ}),
        args=Access.READ,  # the files it decrypts, verifies, imports or lists packets of
        flags={
            "--export-secret-keys": FlagRule(frozenset({E.CREDENTIALS})),
            "--export-secret-subkeys": FlagRule(frozenset({E.CREDENTIALS})),
            "--delete-secret-keys": FlagRule(frozenset({E.CREDENTIALS, E.DELETE})),
        },
    ),
}
