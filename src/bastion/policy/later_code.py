"""Files that make code run later without anyone choosing to run it (#31 root cause 7).

One table, read by the gate (``Hardline.later_code``: a write asks and can never
become a standing grant) and by the sandbox (``exec/protected.py``: one that exists is bound
read-only, one created at the top of a writable root is swept). A file belongs here when an
ordinary action that is *not* running the project's own code runs code it names: opening
the folder in an editor or agent, a read the gate allows (a tool loading an rc file from
the working directory, a package manager's listing), committing, or pushing (CI, with the
repository's secrets). A file whose code runs only when someone runs the project's tests,
lint or build is project code, like any source file, and is not here (README: limits).

Files that *existing* config names as programs (a repository's ``core.fsmonitor``, the
toolchain ``rust-toolchain.toml`` names) are found through that config:
``policy/named_programs.py``. A ``package.json`` lifecycle script: ``policy/lifecycle.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Runs(Enum):
    """What runs the code a file names, without anyone choosing to run it."""

    OPEN = "an editor or agent runs what it names when it opens the folder"
    PUSH = "CI runs it with the repository's secrets on the next push"
    COMMIT = "git runs what it names on commit"
    TOOL = "a tool started in the folder loads it and runs what it names, listings and reads included"
    GIT = "git runs what it names on checkout, diff and merge"
    BIN = "a tool or an agent runs it as a program of the project's environment"


@dataclass(frozen=True, slots=True)
class LaterCode:
    #: A name guarded wherever it appears (``Jenkinsfile``), a folder's entry
    #: (``.github/actions``: below any ``.github``), or a file name ending (``*.code-workspace``).
    path: str
    runs: Runs
    #: Whether every sandbox keeps it read-only (or sweeps it): False only where ordinary
    #: contained work must write it (an install fills ``node_modules/.bin``); the gate still
    #: asks about a direct write.
    contained: bool = True

    @property
    def glob(self) -> str:
        return f"**/{self.path}"

    @property
    def suffix(self) -> str | None:
        """The name ending of a ``*.end`` entry; None for a name or a folder's entry."""
        return self.path[1:] if self.path.startswith("*.") else None


def _all(runs: Runs, *paths: str, contained: bool = True) -> tuple[LaterCode, ...]:
    return tuple(LaterCode(p, runs, contained) for p in paths)


LATER_CODE: tuple[LaterCode, ...] = (
    # Agents and editors: MCP servers, commands, tasks, language servers, elisp, Lua, ex
    # commands, run configurations, development environments started on open.
    *_all(Runs.OPEN, ".vscode/mcp.json", ".vscode/launch.json", ".vscode/extensions.json",
          ".claude/commands", ".claude/agents", ".claude/skills", ".devcontainer",
          ".devcontainer.json", "*.code-workspace", ".roo/mcp.json", ".kiro/settings",
          ".kiro/hooks", ".amazonq/mcp.json", ".amazonq/agents", ".aider.conf.yml",
          ".helix/languages.toml", ".helix/config.toml", ".dir-locals.el", ".dir-locals-2.el",
          ".exrc", ".nvimrc", ".nvim.lua", ".lazy.lua", ".zed/settings.json", ".zed/tasks.json",
          ".continue/config.json", ".continue/config.yaml", ".continue/config.ts",
          ".idea/workspace.xml", ".idea/runConfigurations", ".theia/tasks.json",
          ".theia/launch.json", ".fleet/run.json", "devbox.json", ".gitpod.yml",
          ".gitpod.Dockerfile", ".replit", "replit.nix", ".idx/dev.nix",
          # more agents' project MCP servers (a command each): opencode's and Crush's project
          # config, Kilo Code's, Junie's and Continue's MCP folders
          "opencode.jsonc", "crush.json", ".crush.json", ".kilocode/mcp.json",
          ".junie/mcp", ".continue/mcpServers",
          # vim's localvimrc plugin sources it; coc.nvim starts the language servers it names
          ".lvimrc", ".vim/coc-settings.json",
          # MSBuild imports these into every project below them, and an IDE's design-time build
          # (Visual Studio, Rider, C# Dev Kit) runs their targets when the folder opens
          "Directory.Build.props", "Directory.Build.targets"),
    # Linters an editor runs on each file it opens, whose config is code they load: the
    # ESLint extension requires a JavaScript config (``.eslintrc.js``, ``eslint.config.*``);
    # the Pylint extension execs ``init-hook`` and imports ``load-plugins``; the Mypy extension
    # imports ``plugins``. (The tools themselves only read the code they check; a YAML or JSON
    # ESLint config, ``.clangd``, ``.coveragerc``, ``pytest.ini`` and ``CMakePresets.json`` run
    # nothing that the project's own code, tests or CMakeLists.txt do not: README, limits.)
    # Formatters' and CSS tools' JavaScript configs, which their editor extensions load on
    # format-on-save or when the folder opens (prettier, tailwindcss, stylelint).
    *_all(Runs.OPEN, *(f"{stem}.{ext}" for stem in ("prettier.config", ".prettierrc", "tailwind.config",
          "stylelint.config", ".stylelintrc") for ext in ("js", "cjs", "mjs", "ts", "cts", "mts"))),
    *_all(Runs.OPEN, ".eslintrc.js", ".eslintrc.cjs", ".eslintrc.mjs", "eslint.config.js",
          "eslint.config.cjs", "eslint.config.mjs", "eslint.config.ts", "eslint.config.mts",
          "eslint.config.cts", ".pylintrc", "pylintrc", "mypy.ini", ".mypy.ini"),
    # CI: runs with the repository's secrets on the next push.
    *_all(Runs.PUSH, ".github/workflows", ".github/actions", ".gitea/workflows",
          ".forgejo/workflows", ".gitlab-ci.yml", ".gitlab-ci.yaml", ".gitlab/ci", ".circleci",
          "Jenkinsfile", "bitbucket-pipelines.yml", "azure-pipelines.yml", "azure-pipelines.yaml",
          ".azure-pipelines", ".travis.yml", ".buildkite", ".drone.yml", ".drone.jsonnet",
          ".drone.star", ".woodpecker.yml", ".woodpecker", "appveyor.yml", ".appveyor.yml",
          ".cirrus.yml", ".cirrus.star", "cloudbuild.yaml", "cloudbuild.yml", "buildspec.yml",
          ".semaphore", "codemagic.yaml", "bitrise.yml", ".tekton", ".teamcity", "netlify.toml"),
    # git hook managers: what they name runs on commit.
    *_all(Runs.COMMIT, ".pre-commit-config.yaml", "lefthook.yml", ".lefthook.yml",
          "lefthook-local.yml", ".lefthook-local.yml", ".lefthook", ".overcommit.yml",
          ".huskyrc", ".huskyrc.json", ".simple-git-hooks.json",
          # lint-staged: the commands a project's pre-commit hook (husky's) runs on staged files
          ".lintstagedrc", ".lintstagedrc.json", ".lintstagedrc.yaml", ".lintstagedrc.yml",
          ".lintstagedrc.js", ".lintstagedrc.cjs", ".lintstagedrc.mjs", "lint-staged.config.js",
          "lint-staged.config.cjs", "lint-staged.config.mjs"),
    # git-lfs reads .lfsconfig (transfer agents); .gitattributes picks the diff / filter /
    # merge drivers config defines. (.editorconfig is data only.)
    *_all(Runs.GIT, ".lfsconfig", ".gitattributes"),
    # Loaded from the working directory by a tool's every start (a debugger, a REPL, a
    # package manager's listing, a toolchain's version query).
    *_all(Runs.TOOL, ".yarnrc", ".yarnrc.yml", ".yarn/releases", ".yarn/plugins",
          ".pnpmfile.cjs", ".pnpmfile.mjs", ".pnp.cjs", ".pnp.js", ".pnp.loader.mjs",
          "bunfig.toml", ".bunfig.toml", "rust-toolchain", "rust-toolchain.toml",
          ".cargo/config", ".cargo/config.toml", ".bazeliskrc", ".mvn/jvm.config",
          ".mvn/maven.config", ".mvn/extensions.xml", ".mvn/wrapper", ".sbtopts", ".jvmopts",
          ".mise.toml", "mise.toml", ".valgrindrc", ".gdbinit", ".lldbinit", ".pdbrc",
          ".perldb", ".irbrc", ".pryrc", ".Rprofile", ".ghci", ".ocamlinit", "toxfile.py",
          # Jujutsu's repository config (its pager, diff and merge tools, aliases, `jj fix`
          # tools), like .git/config; a venv's pip.conf picks the index pip installs code from
          ".jj/repo/config.toml", ".venv/pip.conf", "venv/pip.conf",
          # Python imports these from sys.path at every start, before any script: with the
          # project on PYTHONPATH (an editor's .env, a Makefile's export) every interpreter runs them
          "sitecustomize.py", "usercustomize.py"),
    # The programs of the project's environment that tools and agents run by name (npx, npm
    # run, an activated venv): an install writes them, so the sandbox leaves them writable.
    *_all(Runs.BIN, "node_modules/.bin", ".venv/bin", "venv/bin", contained=False),
)  # fmt: skip

LATER_CODE_GLOBS: tuple[str, ...] = tuple(entry.glob for entry in LATER_CODE)


def contained_names() -> frozenset[str]:
    """Names the sandbox protects wherever they appear."""
    return frozenset(e.path for e in LATER_CODE if e.contained and "/" not in e.path and not e.suffix)


def contained_suffixes() -> tuple[str, ...]:
    return tuple(s for e in LATER_CODE if e.contained and (s := e.suffix) is not None)


def contained_children() -> dict[str, tuple[str, ...]]:
    """Entries below a folder of a name (``.github`` → ``workflows``, ``actions``…)."""
    out: dict[str, tuple[str, ...]] = {}
    for entry in LATER_CODE:
        if entry.contained and "/" in entry.path:
            parent, _, child = entry.path.partition("/")
            out[parent] = (*out.get(parent, ()), child)
    return out


def root_swept() -> tuple[str, ...]:
    """Created at the top of a writable root by a contained run, each is swept."""
    return tuple(e.path for e in LATER_CODE if e.contained and not e.suffix)
