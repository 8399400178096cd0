"""Wrappers: programs that run another program given in their arguments.

Each is data: the options that take a value, how many positionals come before the command,
and what the wrapper itself adds. ``env``, ``xargs``, shells, ``eval``, ``find`` and ``ssh``
need code and are handled in ``bastion.shell.unwrap`` / ``handlers``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bastion.call.effects import Effect
from bastion.shell.model import Access
from bastion.shell.programs.spec import fs

E = Effect


@dataclass(frozen=True, slots=True)
class Wrapper:
    takes_value: frozenset[str] = frozenset()
    skip: int = 0  # positionals before the command (timeout's duration, flock's lock file)
    skip_unless: frozenset[str] = frozenset()  # flags that replace those positionals
    effects: frozenset[Effect] = frozenset()
    no_command: frozenset[str] = frozenset()  # with these flags nothing is run (command -v)
    shell_string: frozenset[str] = frozenset()  # flag whose value is a shell string (su -c)
    shell_flags: frozenset[str] = frozenset()  # runs a login/interactive shell (sudo -s)
    join_as_shell: bool = False  # the rest is joined and run by `sh -c` (watch)
    log_file: str | None = None  # writes its first positional, or this file (script)
    value_paths: Mapping[str, Access] = field(default_factory=dict)
    aliases: Mapping[str, str] = field(default_factory=dict)
    note: str = ""
    # Switches known harmless (from the wrapper's --help). A wrapper is looked through only
    # for options it declares (here, in takes_value, value_paths or the fields above); any
    # other option of its own makes the command unknown (`valgrind --log-file=…` writes).
    known: frozenset[str] = frozenset()
    # Options that attach to a process already running (strace -p PID): what it reads and
    # writes, its memory, is every secret it holds: a credential read.
    attaches: frozenset[str] = frozenset()
    # Options that take two values (bwrap --bind SRC DEST).
    pairs: frozenset[str] = frozenset()
    # Options after which what the command names is only known at run time: it runs in
    # another folder, or reads more arguments from a descriptor (bwrap --chdir, --args).
    elsewhere: frozenset[str] = frozenset()

    def declares(self, name: str) -> bool:
        return (
            name in self.known
            or name in self.pairs
            or name in self.takes_value
            or name in self.value_paths
            or name in self.no_command
            or name in self.shell_string
            or name in self.shell_flags
            or name in self.skip_unless
            or name in self.attaches
        )


_PRIV = frozenset({E.PRIVILEGE})
_DETACH = frozenset({E.UNKNOWN})


def _o(spellings: str) -> frozenset[str]:
    """Option spellings, space-separated (as a tool's --help lists them)."""
    return frozenset(spellings.split())


WRAPPERS: dict[str, Wrapper] = {
    "sudo": Wrapper(
        takes_value=_o(
            "-u -g -C -D -h -p -r -t -T -U --user --group --host --prompt --role --type --chdir "
            "--close-from --other-user --command-timeout"
        ),
        effects=_PRIV,
        no_command=fs("-l", "-v", "-k", "-K", "-V", "--list", "--validate", "--version", "-e", "--edit"),
        shell_flags=fs("-s", "-i", "--shell", "--login"),
        note="runs as another user",
        known=_o(
            "-A --askpass -b --background -B --bell -E --preserve-env -H --set-home -n "
            "--non-interactive -P --preserve-groups -S --stdin -N --no-update --help"
        ),
    ),
    "doas": Wrapper(
        takes_value=fs("-u", "-C"),
        effects=_PRIV,
        no_command=fs("-L"),
        shell_flags=fs("-s"),
        note="runs as another user",
        known=fs("-n"),
    ),
    "pkexec": Wrapper(
        takes_value=fs("--user"),
        effects=_PRIV,
        note="runs as another user",
        known=fs("--disable-internal-agent", "--keep-cwd"),
    ),
    # runuser -s/--shell SHELL names the program that runs: not declared (unknown).
    "runuser": Wrapper(
        takes_value=fs("-u", "-g", "-G", "--user", "--group", "-w", "--whitelist-environment"),
        effects=_PRIV,
        shell_string=fs("-c", "--command"),
        known=fs("-l", "--login", "-m", "-p", "--preserve-environment", "-P", "--pty"),
    ),
    "sg": Wrapper(skip=1, shell_string=fs("-c"), effects=_PRIV),
    "nice": Wrapper(takes_value=fs("-n", "--adjustment"), known=fs("--help", "--version")),
    "ionice": Wrapper(
        takes_value=fs("-c", "-n", "-p", "-P", "-u", "--class", "--classdata", "--pid", "--pgid", "--uid"),
        known=fs("-t", "--ignore"),
    ),
    "renice": Wrapper(takes_value=fs("-n", "-p", "-g", "-u")),
    # Detaching from the call's session and signals: the command outlives the call unless a
    # sandbox (its own pid namespace) ends it with the call: never a plain reader.
    "nohup": Wrapper(known=fs("--help", "--version"), effects=_DETACH, note="nohup: outlives the call"),
    # bubblewrap 0.8 `bwrap --help`: the command runs with what the binds show it, which may be
    # all of / (suite H: `bwrap --bind / / sh -c 'cat ~/.netrc'`): decided as if run directly.
    "bwrap": Wrapper(
        takes_value=_o(
            "--args --userns --userns2 --pidns --uid --gid --hostname --chdir --unsetenv --lock-file "
            "--sync-fd --remount-ro --exec-label --file-label --proc --dev --tmpfs --mqueue --dir "
            "--seccomp --add-seccomp-fd --block-fd --userns-block-fd --info-fd --json-status-fd "
            "--cap-add --cap-drop --perms --size"
        ),
        pairs=_o(
            "--setenv --bind --bind-try --dev-bind --dev-bind-try --ro-bind --ro-bind-try --bind-fd "
            "--ro-bind-fd --file --bind-data --ro-bind-data --symlink --chmod"
        ),
        known=_o(
            "--help --version --unshare-all --share-net --unshare-user --unshare-user-try --unshare-ipc "
            "--unshare-pid --unshare-net --unshare-uts --unshare-cgroup --unshare-cgroup-try "
            "--disable-userns --assert-userns-disabled --clearenv --new-session --die-with-parent --as-pid-1"
        ),
        no_command=fs("--help", "--version"),
        elsewhere=fs("--chdir", "--args"),
        # it writes its own namespaces' maps (/proc/PID/uid_map: the differential oracle saw
        # it), so what runs under it is never a pure read
        effects=_DETACH,
        note="runs a command in a bubblewrap sandbox it sets up (namespaces, mounts)",
    ),
    "timeout": Wrapper(
        takes_value=fs("-s", "-k", "--signal", "--kill-after"),
        skip=1,
        known=fs("--preserve-status", "--foreground", "-v", "--verbose"),
    ),
    "time": Wrapper(
        takes_value=fs("-f", "-o", "--format", "--output"),
        value_paths={"-o": Access.WRITE, "--output": Access.WRITE},
        known=fs("-p", "--portability", "-v", "--verbose", "-q", "--quiet", "-a", "--append"),
    ),
    "stdbuf": Wrapper(takes_value=fs("-i", "-o", "-e", "--input", "--output", "--error")),
    "command": Wrapper(no_command=fs("-v", "-V"), known=fs("-p")),
    "builtin": Wrapper(),
    "exec": Wrapper(takes_value=fs("-a"), known=fs("-c", "-l")),
    "setsid": Wrapper(
        known=fs("-c", "--ctty", "-f", "--fork", "-w", "--wait"),
        effects=_DETACH,
        note="setsid: a session of its own, outliving the call",
    ),
    "coproc": Wrapper(),
    "watch": Wrapper(
        takes_value=fs("-n", "--interval", "-q", "--equexit", "--chgexit"),
        known=_o(
            "-t --no-title -d --differences -b --beep -e --errexit -c --color -p --precise -w "
            "--no-wrap -x --exec"
        ),
        join_as_shell=True,
        note="watch runs its arguments with sh -c",
    ),
    "flock": Wrapper(
        takes_value=fs("-w", "-E", "--timeout", "--conflict-exit-code"),
        skip=1,
        shell_string=fs("-c", "--command"),
        known=_o("-s --shared -x --exclusive -u --unlock -n --nonblock -o --close -F --no-fork --verbose"),
    ),
    # Multi-call binaries: `busybox rm -rf x` is rm. Their own options list or install
    # applets (--install writes links): only the listing ones are declared.
    "busybox": Wrapper(no_command=fs("--list", "--list-full", "--help")),
    "toybox": Wrapper(no_command=fs("--long", "--help", "--version")),
    "chronic": Wrapper(known=fs("-e", "-v")),
    "unbuffer": Wrapper(known=fs("-p")),
    "catchsegv": Wrapper(),
    "nocache": Wrapper(),
    "caffeinate": Wrapper(takes_value=fs("-t", "-w"), known=fs("-d", "-i", "-m", "-s", "-u")),
    # xvfb-run -e FILE writes the server's errors there, -f FILE writes the X auth file.
    "xvfb-run": Wrapper(
        takes_value=fs("-n", "-s", "-p", "--server-num", "--server-args", "--xauth-protocol"),
        value_paths={
            "-e": Access.WRITE,
            "--error-file": Access.WRITE,
            "-f": Access.WRITE,
            "--auth-file": Access.WRITE,
        },
        known=fs("-a", "--auto-servernum", "-d", "--auto-display", "-w", "--wait"),
    ),
    "dbus-run-session": Wrapper(),
    "systemd-inhibit": Wrapper(takes_value=fs("--what", "--who", "--why", "--mode")),
    "taskset": Wrapper(
        takes_value=fs("-c", "--cpu-list"),
        skip=1,
        skip_unless=fs("-c", "--cpu-list", "-p"),
        known=fs("-a", "--all-tasks", "-p", "--pid"),
    ),
    "chrt": Wrapper(
        skip=1,
        takes_value=fs("-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"),
        known=_o(
            "-b --batch -d --deadline -f --fifo -i --idle -o --other -r --rr -R --reset-on-fork -v --verbose"
        ),
    ),
    "numactl": Wrapper(
        takes_value=_o("-C -N -m -i -p --physcpubind --cpunodebind --membind --interleave --preferred"),
        known=fs("-l", "--localalloc"),
    ),
    "faketime": Wrapper(skip=1),
    # strace -o / --output FILE writes the trace; -E VAR=VAL and -u USER change what runs.
    "strace": Wrapper(
        takes_value=_o("-o --output -e -p --attach -s -a -P -I -X -S -U -O"),
        value_paths={"-o": Access.WRITE, "--output": Access.WRITE},
        attaches=fs("-p", "--attach"),
        known=_o(
            "-f --follow-forks -ff -c --summary-only -C --summary -q --quiet -r --relative-timestamps "
            "-t --absolute-timestamps -tt -ttt -T --syscall-times -v --no-abbrev -x -xx "
            "--strings-in-hex -y -yy --decode-fds -Y --decode-pids -z --successful-only -Z "
            "--failed-only -i --instruction-pointer -k --stack-traces -n --syscall-number -w "
            "--summary-wall-clock -A --output-append-mode --seccomp-bpf"
        ),
    ),
    "ltrace": Wrapper(
        takes_value=fs("-o", "--output", "-e", "-p", "-s", "-n", "-a", "-l", "--library", "-x", "-L"),
        value_paths={"-o": Access.WRITE, "--output": Access.WRITE},
        attaches=fs("-p"),
        known=fs(
            "-f", "-c", "-C", "--demangle", "-i", "-r", "-S", "-t", "-tt", "-ttt", "-T", "-b", "--no-signals"
        ),
    ),
    # valgrind's own options are --opt=value only; its log and XML files are writes, its
    # sockets reach the network, --vgdb-prefix names FIFOs: not declared (unknown).
    "valgrind": Wrapper(
        takes_value=_o(
            "--tool --leak-check --show-leak-kinds --track-origins --error-exitcode --num-callers "
            "--trace-children --track-fds --show-reachable --errors-for-leak-kinds --leak-resolution "
            "--max-stackframe --main-stacksize --exit-on-first-error --child-silent-after-fork "
            "--gen-suppressions --vgdb --keep-debuginfo --read-var-info --read-inline-info "
            "--fair-sched --smc-check --undef-value-errors"
        ),
        value_paths={
            "--log-file": Access.WRITE,
            "--xml-file": Access.WRITE,
            "--suppressions": Access.READ,
            "--massif-out-file": Access.WRITE,
            "--callgrind-out-file": Access.WRITE,
            "--cachegrind-out-file": Access.WRITE,
        },
        known=fs("-q", "--quiet", "-v", "--verbose", "-s"),
    ),
    "proxychains": Wrapper(value_paths={"-f": Access.READ}, known=fs("-q")),
    "proxychains4": Wrapper(value_paths={"-f": Access.READ}, known=fs("-q")),
    "torsocks": Wrapper(),
    "entr": Wrapper(),
    "rlwrap": Wrapper(),
    "script": Wrapper(
        takes_value=_o(
            "-c --command -E --echo -I --log-in -O --log-out -B --log-io -T --log-timing -m "
            "--logging-format -o --output-limit"
        ),
        shell_string=fs("-c", "--command"),
        log_file="typescript",
        value_paths={
            f: Access.WRITE
            for f in ("-I", "--log-in", "-O", "--log-out", "-B", "--log-io", "-T", "--log-timing")
        },
        note="script records the session to a file",
    ),
}

#: `env` options (handled in unwrap because of NAME=VALUE words and -S).
ENV_VALUES = _o(
    "-u --unset -C --chdir -S --split-string -P --default-signal --ignore-signal --block-signal -a --argv0"
)
ENV_ALIASES = {"--unset": "-u", "--chdir": "-C", "--split-string": "-S", "--ignore-environment": "-i"}
#: `xargs` options that take a value.
XARGS_VALUES = _o(
    "-n -I -L -P -d -E -s -a -e --max-args --replace --max-lines --max-procs --delimiter "
    "--eof --arg-file --max-chars --process-slot-var"
)
XARGS_ALIASES = {"--replace": "-I", "--arg-file": "-a", "--max-args": "-n"}

#: Environment variables that make a program run another program (program injection).
INJECTION_VARS = _o(
    "PAGER GIT_PAGER MANPAGER SYSTEMD_PAGER LESSOPEN LESSCLOSE LD_PRELOAD LD_LIBRARY_PATH "
    "LD_AUDIT DYLD_INSERT_LIBRARIES DYLD_LIBRARY_PATH BASH_ENV ENV PROMPT_COMMAND "
    "PYTHONSTARTUP PYTHONPATH PYTHONHOME NODE_OPTIONS NODE_PATH PERL5OPT PERL5LIB PERLLIB "
    "RUBYOPT RUBYLIB GOTOOLCHAIN GOFLAGS JDK_JAVA_OPTIONS "
    "EDITOR VISUAL GIT_SSH GIT_SSH_COMMAND GIT_EDITOR GIT_EXTERNAL_DIFF "
    "GIT_ASKPASS SSH_ASKPASS SUDO_ASKPASS GIT_PROXY_COMMAND GIT_EXEC_PATH GIT_TEMPLATE_DIR "
    "GIT_CONFIG GIT_CONFIG_GLOBAL GIT_CONFIG_SYSTEM GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT "
    "PATH IFS SHELLOPTS BASHOPTS PS4 JAVA_TOOL_OPTIONS _JAVA_OPTIONS CLASSPATH RUSTC_WRAPPER "
    "CARGO_BUILD_RUSTC_WRAPPER CC CXX MAKEFLAGS NPM_CONFIG_SCRIPT_SHELL "
    "npm_config_script_shell BROWSER HISTFILE TERMINFO GCONV_PATH HOSTALIASES OPENSSL_CONF "
    "GIT_DIR GIT_WORK_TREE ZDOTDIR INPUTRC MALLOC_CONF GLIBC_TUNABLES"
)
#: Injection variables whose value is harmless when it is one of these literal values.
SAFE_VALUES: Mapping[str, frozenset[str]] = {
    "PAGER": fs("", "cat", "less", "more", "less -R", "less -FRX"),
    "GIT_PAGER": fs("", "cat", "less", "more", "less -R", "less -FRX"),
    "MANPAGER": fs("", "cat", "less", "more"),
    "SYSTEMD_PAGER": fs("", "cat"),
    "EDITOR": fs("true", ":", "cat"),
    "GIT_EDITOR": fs("true", ":", "cat"),
    "VISUAL": fs("true", ":", "cat"),
    "GIT_TERMINAL_PROMPT": fs("0"),
    "GIT_OPTIONAL_LOCKS": fs("0"),
    "GIT_MERGE_AUTOEDIT": fs("no"),
    "DEBIAN_FRONTEND": fs("noninteractive"),
}
#: Environment variables that are plain data to every program (locale, colour, terminal
#: size, CI markers, commit identity). Any other NAME=… in front of a command, or through
#: ``env``, makes it not a pure reader: HOME, XDG_*, TAR_OPTIONS, GOFLAGS… change what it
#: reads, writes or runs.
HARMLESS_VARS = _o(
    "LANG LANGUAGE TZ TERM COLORTERM NO_COLOR FORCE_COLOR CLICOLOR CLICOLOR_FORCE COLUMNS "
    "LINES CI PYTHONUNBUFFERED PYTHONDONTWRITEBYTECODE PYTHONIOENCODING RUST_BACKTRACE "
    "GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL "
    "GIT_COMMITTER_DATE"
)
HARMLESS_PREFIXES = ("LC_",)
#: Harmless in front of a command only (`IFS= read -r l`); a standalone IFS=… changes how
#: every later expansion splits.
PREFIX_ONLY_VARS = fs("IFS")
#: Variables whose value is a URL or host the program connects to.
HOST_VARS = _o(
    "DOCKER_HOST CONTAINER_HOST PIP_INDEX_URL PIP_EXTRA_INDEX_URL PIP_TRUSTED_HOST PIP_PROXY "
    "UV_INDEX_URL UV_EXTRA_INDEX_URL UV_INDEX UV_DEFAULT_INDEX npm_config_registry "
    "NPM_CONFIG_REGISTRY YARN_REGISTRY GOPROXY GONOSUMDB HTTP_PROXY HTTPS_PROXY ALL_PROXY "
    "http_proxy https_proxy all_proxy CARGO_HTTP_PROXY OLLAMA_HOST KUBERNETES_SERVICE_HOST "
    "VAULT_ADDR"
)
#: Shell variables that change the shell itself when assigned on their own (`PATH=…; ls`).
SHELL_SPECIAL_VARS = _o(
    "PATH HOME CDPATH ENV BASH_ENV IFS PS0 PS1 PS2 PS3 PS4 PROMPT_COMMAND SHELLOPTS BASHOPTS "
    "HISTFILE GLOBIGNORE EXECIGNORE FUNCNEST OLDPWD PWD POSIXLY_CORRECT TMOUT REPLY OPTIND "
    "OPTARG TMPDIR MAILPATH MAIL FIGNORE HOSTFILE COMP_WORDBREAKS"
)
#: Variables whose value is a shell string the shell runs (classified like `sh -c`).
SHELL_STRING_VARS = fs("PROMPT_COMMAND", "PS0", "PS1", "PS2", "PS3", "PS4")
#: Variables naming a file of shell code a (non-interactive) shell runs first.
STARTUP_FILE_VARS = fs("BASH_ENV", "ENV")
#: Environment variables naming a file the program writes in place of what it holds: git's
#: index (``git status`` refreshes it), the history files of shells and REPLs (suite J:
#: ``GIT_INDEX_FILE=$HOME/.bashrc git status`` rewrites the start-up file as an index).
WRITTEN_FILE_VARS = fs(
    "GIT_INDEX_FILE", "HISTFILE", "LESSHISTFILE", "NODE_REPL_HISTORY", "PYTHON_HISTORY",
    "SQLITE_HISTORY", "MYSQL_HISTFILE", "PSQL_HISTORY", "REDISCLI_HISTFILE",
)  # fmt: skip
#: Startup files a shell runs before its command: (family, "always" | "l" login | "i"
#: interactive) -> files.
STARTUP_FILES: dict[tuple[str, str], tuple[str, ...]] = {
    ("bash", "l"): ("/etc/profile", "~/.bash_profile", "~/.bash_login", "~/.profile"),
    ("bash", "i"): ("/etc/bash.bashrc", "~/.bashrc"),
    ("sh", "l"): ("/etc/profile", "~/.profile"),
    ("zsh", "always"): ("/etc/zsh/zshenv", "~/.zshenv"),
    ("zsh", "l"): ("/etc/zsh/zprofile", "~/.zprofile", "/etc/zsh/zlogin", "~/.zlogin"),
    ("zsh", "i"): ("/etc/zsh/zshrc", "~/.zshrc"),
}
