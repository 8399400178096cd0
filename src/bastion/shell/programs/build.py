"""Build, test and lint tools: they run project code (Effect.CODE), they are not readers."""

from __future__ import annotations

from dataclasses import replace

from bastion.call.effects import Effect
from bastion.shell.model import Access
from bastion.shell.programs.spec import CODE, READ, WRITE, FlagRule, Spec, fs, opts

E = Effect
_R = Spec(READ, reader=True)
#: `--version` prints and exits before any project file is read (`--help` is not safe:
#: pytest --help imports conftest.py).
_INFO = fs("--version")
_RUN = Spec(CODE, note="runs project code", info=_INFO)
_CHECK = {"--check": FlagRule(), "--diff": FlagRule()}

#: GNU make 4.3 `make --help`. -C and -f choose which Makefile runs: their paths are read.
_MAKE = (
    "-b -m -B|--always-make -C|--directory=P -d --debug? -e|--environment-overrides!U -E|--eval=U "
    "-f|--file|--makefile=P -h|--help -i|--ignore-errors -I|--include-dir=P -j|--jobs= "
    "-k|--keep-going -l|--load-average|--max-load? -L|--check-symlink-times "
    "-n|--just-print|--dry-run|--recon -o|--old-file|--assume-old= -O|--output-sync? "
    "-p|--print-data-base -q|--question -r|--no-builtin-rules -R|--no-builtin-variables "
    "-s|--silent|--quiet --no-silent -S|--no-keep-going|--stop -t|--touch --trace "
    "-v|--version -w|--print-directory --no-print-directory -W|--what-if|--new-file|--assume-new= "
    "--warn-undefined-variables"
)
#: pytest 9 `pytest --help`, without the options of plugins.
_PYTEST = (
    "-k= -m= --markers -x|--exitfirst --maxfail= --strict-config --strict-markers --strict "
    "--fixtures|--funcargs --fixtures-per-test --pdb --pdbcls= --trace --capture= -s "
    "--runxfail --lf|--last-failed --ff|--failed-first --nf|--new-first --cache-show? "
    "--cache-clear --lfnf|--last-failed-no-failures= --sw|--stepwise --sw-skip|--stepwise-skip "
    "--durations= --durations-min= -v|--verbose --no-header --no-summary -q|--quiet "
    "--verbosity= -r= --disable-warnings|--disable-pytest-warnings -l|--showlocals "
    "--no-showlocals --tb= --show-capture= --full-trace --color= --code-highlight= "
    "--pastebin=U --junit-xml=W --junit-prefix= -W|--pythonwarnings= --collect-only|--co "
    "--pyargs --ignore= --ignore-glob= --deselect= --confcutdir= --noconftest "
    "--keep-duplicates --collect-in-virtualenv --continue-on-collection-errors --import-mode= "
    "--doctest-modules --doctest-report= --doctest-glob= --doctest-ignore-import-errors "
    "--doctest-continue-on-failure -c|--config-file=R --rootdir=R --basetemp=W -V|--version "
    "-h|--help -p= --trace-config --debug?!W -o|--override-ini= --assert= --setup-only "
    "--setup-show --setup-plan --log-level= --log-format= --log-date-format= "
    "--log-cli-level= --log-cli-format= --log-cli-date-format= --log-file=W "
    "--log-file-level= --log-file-format= --log-file-date-format= --log-auto-indent= "
    "--log-disable="
)

#: ruff 0.x `ruff check --help`: fixes write the files, the cache and output file are paths.
_RUFF_CHECK = (
    "--fix --no-fix --unsafe-fixes --no-unsafe-fixes --show-fixes --no-show-fixes --diff "
    "-w|--watch --fix-only!W --no-fix-only --ignore-noqa --output-format= -o|--output-file=W "
    "--target-version= --preview --no-preview --extension= --statistics --add-noqa?!W "
    "--show-files --show-settings -h|--help --select= --ignore= --extend-select= "
    "--per-file-ignores= --extend-per-file-ignores= --fixable= --unfixable= "
    "--extend-fixable= --exclude= --extend-exclude= --respect-gitignore "
    "--no-respect-gitignore --force-exclude --no-force-exclude -n|--no-cache --cache-dir=W "
    "--stdin-filename= -e|--exit-zero --exit-non-zero-on-fix -v|--verbose -q|--quiet "
    "-s|--silent --config=R --isolated --color="
)

PROGRAMS: dict[str, Spec] = {
    **{
        n: _RUN
        for n in (
            "make",
            "gmake",
            "cmake",
            "ninja",
            "meson",
            "pytest",
            "py.test",
            "tox",
            "nox",
            "tsc",
            "jest",
            "vitest",
            "mocha",
            "ava",
            "karma",
            "playwright",
            "cypress",
            "eslint",
            "mypy",
            "pyright",
            "pylint",
            "flake8",
            "bandit",
            "coverage",
            "gradle",
            "gradlew",
            "mvn",
            "mvnw",
            "sbt",
            "ant",
            "bazel",
            "bazelisk",
            "buck",
            "just",
            "task",
            "rake",
            "dotnet",
            "swift",
            "xcodebuild",
            "ctest",
            "webpack",
            "vite",
            "rollup",
            "esbuild",
            "parcel",
            "turbo",
            "nx",
            "lerna",
            "next",
            "nuxt",
            "tox4",
            "behave",
            "phpunit",
            "rspec",
            "cucumber",
            "go-task",
            "pre-commit",
            "sphinx-build",
            "mkdocs",
            "hugo",
            "jekyll",
            "gcc",
            "g++",
            "cc",
            "c++",
            "clang",
            "clang++",
            "rustc",
            "javac",
            "java",
            "kotlinc",
            "scalac",
            "ghc",
            "stack",
            "cabal",
            "mix",
            "elixir",
            "erl",
            "zig",
            "nim",
            "crystal",
            "dart",
            "flutter",
            "ruff-server",
            "stylelint",
            "tsserver",
            "biome",
            "golangci-lint",
            "staticcheck",
            "shellcheck",
            "hadolint",
            "actionlint",
            "yamllint",
            "markdownlint",
            "cargo-nextest",
            "maturin",
            "bats",
            "act",
        )
    },
    "make": opts(replace(_RUN, handler="make"), _MAKE),
    "gmake": opts(replace(_RUN, handler="make"), _MAKE),
    "pytest": opts(_RUN, _PYTEST),
    "py.test": opts(_RUN, _PYTEST),
    "ruff": Spec(
        CODE,
        subcommands={
            "check": opts(
                Spec(
                    READ,
                    reader=True,
                    args=Access.READ,
                    recursive=True,
                    flags={
                        "--fix": FlagRule(WRITE, note="ruff --fix edits files"),
                        "--unsafe-fixes": FlagRule(WRITE),
                        "--watch": FlagRule(),
                    },
                ),
                _RUFF_CHECK,
            ),
            "format": Spec(WRITE, flags=_CHECK),
            "version": _R,
            "--version": _R,
            "rule": _R,
            "help": _R,
        },
        other_sub=Spec(READ, reader=True),
    ),
    "black": Spec(WRITE, flags=_CHECK, note="black rewrites files unless --check/--diff"),
    "isort": Spec(WRITE),
    "prettier": Spec(CODE, flags={"--write": FlagRule(WRITE)}, aliases={"-w": "--write"}),
    "gofmt": Spec(READ, reader=True, flags={"-w": FlagRule(WRITE)}),
    "rustfmt": Spec(WRITE),
    "clang-format": Spec(READ, reader=True, flags={"-i": FlagRule(WRITE)}),
}
