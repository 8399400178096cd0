"""Build, test and lint tools: they run project code (Effect.CODE), they are not readers."""

from __future__ import annotations

from bastion.policy.decision import Effect
from bastion.shell.programs.spec import CODE, READ, WRITE, FlagRule, Spec, fs

E = Effect
_R = Spec(READ, reader=True)
#: `--version` prints and exits before any project file is read (`--help` is not safe:
#: pytest --help imports conftest.py).
_INFO = fs("--version")
_RUN = Spec(CODE, note="runs project code", info=_INFO)
_CHECK = {"--check": FlagRule(), "--diff": FlagRule()}

PROGRAMS: dict[str, Spec] = {
    **{n: _RUN for n in (
        "make", "gmake", "cmake", "ninja", "meson", "pytest", "py.test", "tox", "nox",
        "tsc", "jest", "vitest", "mocha", "ava", "karma", "playwright", "cypress", "eslint",
        "mypy", "pyright", "pylint", "flake8", "bandit", "coverage", "gradle", "gradlew",
        "mvn", "mvnw", "sbt", "ant", "bazel", "bazelisk", "buck", "just", "task", "rake",
        "dotnet", "swift", "xcodebuild", "ctest", "webpack", "vite", "rollup", "esbuild",
        "parcel", "turbo", "nx", "lerna", "next", "nuxt", "tox4", "behave", "phpunit",
        "rspec", "cucumber", "go-task", "pre-commit", "sphinx-build", "mkdocs", "hugo",
        "jekyll", "gcc", "g++", "cc", "c++", "clang", "clang++", "rustc", "javac", "java",
        "kotlinc", "scalac", "ghc", "stack", "cabal", "mix", "elixir", "erl", "zig", "nim",
        "crystal", "dart", "flutter", "ruff-server", "stylelint", "tsserver", "biome",
        "golangci-lint", "staticcheck", "shellcheck", "hadolint", "actionlint", "yamllint",
        "markdownlint", "cargo-nextest", "maturin", "bats", "act",
    )},
    "ruff": Spec(CODE, subcommands={
        "check": Spec(READ, reader=True, flags={
            "--fix": FlagRule(WRITE, note="ruff --fix edits files"),
            "--unsafe-fixes": FlagRule(WRITE), "--watch": FlagRule()}),
        "format": Spec(WRITE, flags=_CHECK), "version": _R, "--version": _R, "rule": _R,
        "help": _R}, other_sub=Spec(READ, reader=True)),
    "black": Spec(WRITE, flags=_CHECK, note="black rewrites files unless --check/--diff"),
    "isort": Spec(WRITE), "prettier": Spec(CODE, flags={"--write": FlagRule(WRITE)},
                                           aliases={"-w": "--write"}),
    "gofmt": Spec(READ, reader=True, flags={"-w": FlagRule(WRITE)}),
    "rustfmt": Spec(WRITE), "clang-format": Spec(READ, reader=True,
                                                 flags={"-i": FlagRule(WRITE)}),
}
