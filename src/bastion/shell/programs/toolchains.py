"""Files in the working directory (or a parent) that choose which program runs when a
toolchain command is typed: rustup's ``rust-toolchain.toml`` (a ``path`` runs that
toolchain), Yarn's ``yarnPath``, Maven's ``.mvn/jvm.config`` (JVM options, ``-javaagent``),
Bazelisk's ``.bazeliskrc`` (the download URL), version managers' pins (pyenv, nodenv, fnm,
rbenv, jenv, goenv, tfenv, SDKMAN!'s ``.sdkmanrc``), directives in project files (go.mod's
``toolchain``, package.json's ``packageManager``, .NET's global.json) and the shims of asdf
and mise (``.tool-versions`` may name a ``path:``, ``mise.toml`` runs ``[env]`` sources and
hooks), and tox's inline plugin ``toxfile.py``. With one of them present a "read" of the
program (``cargo --version``) runs what the file names: code.

From the tools' documentation: rustup "Overrides", Yarn ``yarnPath``, Maven "Configuring
Maven" (.mvn), Bazelisk README, pyenv/nodenv/rbenv "Choosing the version", asdf
``.tool-versions``, mise "Configuration".
"""

from __future__ import annotations

import re

from bastion.shell.programs.interpreters import is_python
from bastion.shell.programs.spec import fs

_RUST = fs("cargo", "rustc", "rustdoc", "rustup", "rustfmt", "cargo-clippy", "clippy-driver", "rust-analyzer")
_NODE = fs("node", "nodejs", "npm", "npx", "corepack", "pnpm", "pnpx", "yarn", "yarnpkg")
_YARN = fs("yarn", "yarnpkg")
_MAVEN = fs("mvn", "mvnw", "mvnDebug")
_BAZEL = fs("bazel", "bazelisk")
_GRADLE = fs("gradle")
_PYTHON = fs("python", "pip", "pip3", "pydoc", "pydoc3", "python-config", "idle", "2to3")  # and python3.x
_RUBY = fs("ruby", "gem", "bundle", "bundler", "irb", "rake", "erb")
_JAVA = fs("java", "javac", "jar", "jshell", *_MAVEN, *_GRADLE)
_GO = fs("go", "gofmt")
_TERRAFORM = fs("terraform")
_DOTNET = fs("dotnet")
#: What shims of asdf / mise may stand for: every program above, and the managers themselves
#: (mise evaluates its config's templates and env directives on every command).
_SHIMMED = (
    _RUST
    | _NODE
    | _MAVEN
    | _BAZEL
    | _GRADLE
    | _PYTHON
    | _RUBY
    | _JAVA
    | _GO
    | _TERRAFORM
    | _DOTNET
    | fs("mise", "asdf", "rtx")
)

#: A workspace file (relative to a directory the command runs in or below) -> the programs
#: it selects.
TOOLCHAIN_FILES: dict[str, frozenset[str]] = {
    "rust-toolchain": _RUST,
    "rust-toolchain.toml": _RUST,
    ".cargo/config.toml": fs("cargo"),
    ".cargo/config": fs("cargo"),
    ".yarnrc.yml": _YARN,
    ".yarnrc": _YARN,
    ".mvn/jvm.config": _MAVEN,
    ".mvn/maven.config": _MAVEN,
    ".mvn/extensions.xml": _MAVEN,
    ".mvn/wrapper/maven-wrapper.properties": _MAVEN,
    ".bazeliskrc": _BAZEL,
    ".bazelversion": _BAZEL,
    ".bazelrc": _BAZEL,
    "gradle.properties": _GRADLE,
    "gradle/wrapper/gradle-wrapper.properties": _GRADLE,
    ".nvmrc": _NODE,
    ".node-version": _NODE,
    ".python-version": _PYTHON,
    ".ruby-version": _RUBY,
    ".java-version": _JAVA,
    ".go-version": _GO,
    ".terraform-version": _TERRAFORM,
    ".sdkmanrc": _JAVA,
    ".tool-versions": _SHIMMED,
    "mise.toml": _SHIMMED,
    ".mise.toml": _SHIMMED,
    "mise.local.toml": _SHIMMED,
    ".mise.local.toml": _SHIMMED,
    ".config/mise.toml": _SHIMMED,
    ".config/mise/config.toml": _SHIMMED,
    ".mise/config.toml": _SHIMMED,
    ".rtx.toml": _SHIMMED,
    # tox 4 imports its inline plugin before anything else, `tox --version` too (it then lists
    # it: "inline plugin: …/toxfile.py"; checked against tox 4.67).
    "toxfile.py": fs("tox", "tox4"),
}


#: Files every project of a kind has, which choose the toolchain only by a directive in them:
#: go.mod / go.work's ``toolchain`` line (with the default GOTOOLCHAIN=auto, ``go version``
#: downloads and runs that release), package.json's ``packageManager`` (Corepack's shims run
#: the yarn or pnpm it names), and .NET's global.json (``sdk.paths`` runs an SDK from a
#: folder). File -> (programs, the directive's pattern on the file's bytes).
DIRECTIVE_FILES: dict[str, tuple[frozenset[str], re.Pattern[bytes]]] = {
    "go.mod": (fs("go"), re.compile(rb"(?m)^\s*toolchain\s")),
    "go.work": (fs("go"), re.compile(rb"(?m)^\s*toolchain\s")),
    "package.json": (fs("yarn", "yarnpkg", "pnpm", "pnpx", "corepack"), re.compile(rb'"packageManager"\s*:')),
    "global.json": (fs("dotnet"), re.compile(rb'"(?:sdk|msbuild-sdks)"\s*:')),
}


def selecting_files(program: str | None) -> tuple[str, ...]:
    """The workspace files that may choose what ``program`` runs (none for most programs)."""
    if program is None:
        return ()
    name = "python" if is_python(program) else program
    return tuple(path for path, programs in TOOLCHAIN_FILES.items() if name in programs)


def directive_files(program: str | None) -> tuple[tuple[str, re.Pattern[bytes]], ...]:
    """The project files whose directive (when present) chooses what ``program`` runs."""
    if program is None:
        return ()
    return tuple(
        (path, pattern) for path, (programs, pattern) in DIRECTIVE_FILES.items() if program in programs
    )
