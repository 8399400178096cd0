"""Option allow-lists of git's reading subcommands (DSL of ``spec.opts``), from git 2.39's
manual pages (``man git-log`` …). Options that run programs or write files are marked:
``--output`` writes, ``--ext-diff``/``--textconv`` run configured programs, ``-O`` reads an
order file, ``--no-index`` compares arbitrary paths outside the repository."""

from __future__ import annotations

DIFF = (
    "-p|-u|--patch -s|--no-patch -U|--unified= --output=W --output-indicator-new= "
    "--output-indicator-old= --output-indicator-context= --raw --patch-with-raw "
    "--indent-heuristic --no-indent-heuristic --minimal --patience --histogram --anchored= "
    "--diff-algorithm= --stat? --stat-width= --stat-name-width= --stat-graph-width= "
    "--stat-count= --compact-summary --numstat --shortstat -X|--dirstat? --cumulative "
    "--dirstat-by-file? --summary --patch-with-stat -z --name-only --name-status "
    "--submodule? --color? --no-color --color-moved? --no-color-moved --color-moved-ws= "
    "--no-color-moved-ws --word-diff? --word-diff-regex= --color-words? --no-renames "
    "--rename-empty --no-rename-empty --check --ws-error-highlight= --full-index --binary "
    "--abbrev? -B|--break-rewrites? -M|--find-renames? -C|--find-copies? "
    "--find-copies-harder -D|--irreversible-delete -l= --diff-filter= -S= -G= --find-object= "
    "--pickaxe-all --pickaxe-regex -O=R --skip-to= --rotate-to= -R --relative? --no-relative "
    "-a|--text --ignore-cr-at-eol --ignore-space-at-eol -b|--ignore-space-change "
    "-w|--ignore-all-space --ignore-blank-lines -I|--ignore-matching-lines= "
    "--inter-hunk-context= -W|--function-context --exit-code  --ext-diff!X "
    "--no-ext-diff --textconv!X --no-textconv --ignore-submodules? --src-prefix= "
    "--dst-prefix= --no-prefix  --line-prefix= --ita-invisible-in-index "
    "        "
    "     -t --function-context "
)
FORMAT = (
    "--pretty? --format= --abbrev-commit --no-abbrev-commit --oneline --encoding= "
    "--expand-tabs? --no-expand-tabs --show-signature --date="
)
NOTES = "--notes? --no-notes --show-notes?"
WALK_OUT = "--relative-date --parents --children --left-right --graph --show-linear-break?"
DECORATE = (
    "--decorate? --no-decorate --decorate-refs= --decorate-refs-exclude= --clear-decorations "
    "--source --use-mailmap --no-use-mailmap --mailmap --no-mailmap --log-size"
)
PRETTY = f"{FORMAT} {NOTES} {WALK_OUT} {DECORATE}"
MERGES = "--diff-merges= --no-diff-merges --remerge-diff -m -c --cc --combined-all-paths"
REVS = (
    "-n|--max-count= --skip= --since|--after= --since-as-filter= --until|--before= "
    "--author= --committer= --grep-reflog= --grep= --all-match "
    "--invert-grep -i|--regexp-ignore-case --basic-regexp -E|--extended-regexp "
    "-F|--fixed-strings -P|--perl-regexp --remove-empty --merges --no-merges --min-parents= "
    "--max-parents= --no-min-parents --no-max-parents --first-parent "
    "--exclude-first-parent-only --not --all --branches? --tags? --remotes? --glob= "
    "--exclude= --exclude-hidden= --reflog --alternate-refs --single-worktree "
    "--ignore-missing --bisect --stdin --cherry-mark --cherry-pick --left-only --right-only "
    "--cherry -g|--walk-reflogs --merge --boundary --simplify-by-decoration --show-pulls "
    "--full-history --dense --sparse --simplify-merges --ancestry-path? --reverse"
)
ORDER = "--date-order --author-date-order --topo-order --no-walk? --do-walk"
LOG = f"--follow --full-diff -L= {REVS} {ORDER} {PRETTY} {DIFF} {MERGES} -#"
STATUS = (
    "-s|--short -b|--branch --show-stash --porcelain? --long -v|--verbose "
    "-u|--untracked-files? --ignore-submodules? --ignored? -z --column? --no-column "
    "--ahead-behind --no-ahead-behind --renames --no-renames --find-renames?"
)
BRANCH = (
    "-d|--delete -D --create-reflog -f|--force -m|--move -M -c|--copy -C --color? "
    "--no-color -i|--ignore-case --column? --no-column -r|--remotes -a|--all -l|--list "
    "--show-current -v|-vv|--verbose -q|--quiet --abbrev= --no-abbrev -t|--track? "
    "--no-track --recurse-submodules --set-upstream -u|--set-upstream-to= --unset-upstream "
    "--edit-description --contains? --no-contains? --merged? --no-merged? --sort= "
    "--points-at= --format="
)
TAG = (
    "-a|--annotate -s|--sign --no-sign -u|--local-user= -f|--force -d|--delete -v|--verify "
    "-n? -l|--list --sort= --color? -i|--ignore-case --column? --no-column --contains? "
    "--no-contains? --merged? --no-merged? --points-at= -m|--message= -F|--file=R "
    "-e|--edit --cleanup= --create-reflog --format= -#"
)
BLAME = (
    "-b --root --show-stats --progress --no-progress -L= -l -t -S=R --reverse= "
    "--first-parent -p|--porcelain --line-porcelain --incremental --encoding= --contents=R "
    "--date= -M -C --ignore-rev= --ignore-revs-file=R --color-lines --color-by-age -c "
    "--score-debug -f|--show-name -n|--show-number -s -e|--show-email -w --abbrev="
)
ANNOTATE = (
    "-b --root --show-stats --progress --no-progress -L= -l -t -S=R --reverse= "
    "--first-parent -p|--porcelain --line-porcelain --incremental --encoding= --contents=R "
    "--date= -M -C --ignore-rev= --ignore-revs-file=R --color-lines --color-by-age -c"
)
REV_PARSE = (
    "--parseopt --sq-quote --keep-dashdash --stop-at-non-option --stuck-long --revs-only "
    "--no-revs --flags --no-flags --default= --prefix= --verify -q|--quiet --sq --short? "
    "--not --abbrev-ref? --symbolic --symbolic-full-name --all --branches? --tags? "
    "--remotes? --glob= --exclude= --exclude-hidden= --disambiguate= --local-env-vars "
    "--path-format= --git-dir --git-common-dir --resolve-git-dir= --git-path= "
    "--show-toplevel --show-superproject-working-tree --shared-index-path "
    "--absolute-git-dir --is-inside-git-dir --is-inside-work-tree --is-bare-repository "
    "--is-shallow-repository --show-cdup --show-prefix --show-object-format? "
    "--since|--after= --until|--before="
)
LS_FILES = (
    "-c|--cached -d|--deleted -m|--modified -o|--others -i|--ignored -s|--stage --directory "
    "--no-empty-directory -u|--unmerged -k|--killed -z --deduplicate -x|--exclude= "
    "-X|--exclude-from=R --exclude-per-directory= --exclude-standard --error-unmatch "
    "--with-tree= -t -v -f --full-name --recurse-submodules --abbrev? --debug --eol "
    "--sparse --format= --resolve-undo"
)
GREP = (
    "--cached --no-index!U --untracked --no-exclude-standard --exclude-standard "
    "--recurse-submodules -a|--text --textconv!X --no-textconv -i|--ignore-case -I "
    "--max-depth= -r|--recursive --no-recursive -w|--word-regexp -v|--invert-match -h -H "
    "--full-name -E|--extended-regexp -G|--basic-regexp -P|--perl-regexp "
    "-F|--fixed-strings -n|--line-number --column -l|--files-with-matches|--name-only "
    "-L|--files-without-match -O|--open-files-in-pager?!X -z|--null -o|--only-matching "
    "-c|--count --color? --no-color --break --heading -p|--show-function -C|--context= "
    "-A|--after-context= -B|--before-context= -W|--function-context -m|--max-count= "
    "--threads= -f=R -e= --and --or --not --all-match -q|--quiet -#"
)
DESCRIBE = (
    "--dirty? --broken? --all --tags --contains --abbrev= --candidates= --exact-match "
    "--debug --long --match= --exclude= --always --first-parent"
)
SHORTLOG = f"-n|--numbered -s|--summary -e|--email --group= -c|--committer -w? {REVS} --format? --date="
LS_TREE = (
    "-d -r -t -l|--long -z --name-only --name-status --object-only --abbrev? "
    "--full-name --full-tree --format="
)
REV_LIST = (
    f"{REVS} {ORDER} {FORMAT} {WALK_OUT} --max-age= --min-age= --quiet --disk-usage? "
    "--use-bitmap-index --progress= --bisect-vars "
    "--bisect-all --objects --in-commit-order --objects-edge --objects-edge-aggressive "
    "--indexed-objects --unpacked --object-names --no-object-names --filter= --no-filter "
    "--filter-provided-objects --filter-print-omitted --missing= "
    "--exclude-promisor-objects --header --no-commit-header --commit-header --timestamp "
    "--count -#"
)
CAT_FILE = (
    "--textconv!X --filters!X -t -s -e -p --path= --batch? --batch-check? --batch-command? "
    "--batch-all-objects --buffer --unordered --allow-unknown-type --follow-symlinks -z"
)
FOR_EACH_REF = (
    "--count= --sort= --format= --color? --shell --perl --python --tcl --points-at= "
    "--merged? --no-merged? --contains? --no-contains? --ignore-case"
)
SHOW_REF = (
    "--head --heads --tags -d|--dereference -s|--hash? --verify --abbrev? -q|--quiet --exclude-existing?"
)
CONFIG = (
    "--type= --replace-all --add --get --get-all --get-regexp --get-urlmatch --global "
    "--system --local --worktree -f|--file=R --blob= --remove-section --rename-section "
    "--unset --unset-all -l|--list --fixed-value --bool --int --bool-or-int --path "
    "--expiry-date --no-type -z|--null --name-only --show-origin --show-scope "
    "--get-colorbool --get-color -e|--edit --default= --includes --no-includes"
)
GLOBAL = (
    "-C= -c= --git-dir= --work-tree= --namespace= --config-env= --exec-path? --super-prefix= "
    "--list-cmds= -p|--paginate -P|--no-pager --bare --no-replace-objects "
    "--literal-pathspecs --glob-pathspecs --noglob-pathspecs --icase-pathspecs "
    "--no-optional-locks --no-advice --attr-source= --html-path --man-path --info-path "
    "--version --help"
)

#: Subcommand → its option table.
TABLES: dict[str, str] = {
    "status": STATUS,
    "log": LOG,
    # git-whatchanged(1): "git log" with --raw --no-merges by default, taking log's options
    "whatchanged": LOG,
    "show": f"{FORMAT} {NOTES} {DIFF} {MERGES}",
    "diff": f"{DIFF} --no-index!U --cached --staged --merge-base -0 -1 -2 -3 --quiet",
    "diff-tree": f"{DIFF} {FORMAT} {NOTES} -r --root --stdin --no-commit-id -v --always -m -c "
    "--cc --combined-all-paths --merge-base",
    "diff-files": f"{DIFF} -q --base --ours --theirs -c --cc -0 -1 -2 -3",
    "diff-index": f"{DIFF} --cached --merge-base -m -c --cc",
    "range-diff": "--creation-factor= --no-dual-color --left-only --right-only",
    "branch": BRANCH,
    "tag": TAG,
    "blame": BLAME,
    "annotate": ANNOTATE,
    "rev-parse": REV_PARSE,
    "ls-files": LS_FILES,
    "grep": GREP,
    "describe": DESCRIBE,
    "shortlog": SHORTLOG,
    "ls-tree": LS_TREE,
    "rev-list": REV_LIST,
    "cat-file": CAT_FILE,
    "for-each-ref": FOR_EACH_REF,
    "show-ref": SHOW_REF,
    "config": CONFIG,
    "merge-base": "--octopus --independent --is-ancestor --fork-point -a|--all",
    "name-rev": "--tags --refs= --exclude= --all --annotate-stdin --stdin --name-only "
    "--no-undefined --always",
    "count-objects": "-v|--verbose -H|--human-readable",
    "check-ignore": "-q|--quiet -v|--verbose --stdin -z -n|--non-matching --no-index",
    "check-attr": "-a|--all --cached --stdin -z",
    "cherry": "-v",
    "version": "--build-options",
    "show-branch": "-r|--remotes -a|--all --current --topo-order --date-order --sparse "
    "--more= --list --merge-base --independent --no-name --sha1-name "
    "--reflog? --color? --no-color",
    "verify-commit": "-v|--verbose --raw",
    "verify-tag": "-v|--verbose --raw --format=",
    "fsck": "--unreachable --dangling --no-dangling --root --tags --cache --no-reflogs "
    "--full --no-full --connectivity-only --strict --verbose --lost-found!W "
    "--name-objects --progress --no-progress",
    "check-ref-format": "--normalize --allow-onelevel --no-allow-onelevel --refspec-pattern --branch",
    "var": "-l",
    "help": "-a|--all -g|--guides -i|--info!X -m|--man -w|--web!X --config "
    "--user-interfaces --developer-interfaces",
    "clean": "-d -f|--force -i|--interactive -n|--dry-run -q|--quiet -e|--exclude= -x -X",
    "get-tar-commit-id": "",
}
#: Options of `git reflog`, `git stash list|show` and `git worktree list`.
REFLOG = "--all --single-worktree -#"
STASH_SHOW = f"{DIFF} -u|--include-untracked --only-untracked"
#: `git stash push` (git-stash(1)): `git stash` alone takes the same options.
STASH_PUSH = (
    "-p|--patch -S|--staged -k|--keep-index --no-keep-index -u|--include-untracked -a|--all "
    "-q|--quiet -m|--message= --pathspec-from-file=R --pathspec-file-nul"
)
WORKTREE_LIST = "--porcelain -v|--verbose -z --expire="
REMOTE = "-v|--verbose"

#: Writing subcommands: their base class is already a write; the options that run a program
#: (--exec, --upload-pack, --receive-pack, --template of clone) are marked.
_PATHSPEC = "--pathspec-from-file=R --pathspec-file-nul"
_MERGING = (
    "--commit --no-commit --edit|-e --no-edit --cleanup= --ff --no-ff --ff-only "
    "-S|--gpg-sign? --no-gpg-sign --log? --no-log --signoff --no-signoff --stat|-n "
    "--no-stat --squash --no-squash -s|--strategy= -X|--strategy-option= "
    "--verify-signatures --no-verify-signatures --summary --no-summary -q|--quiet "
    "-v|--verbose --progress --autostash --no-autostash --allow-unrelated-histories"
)
_FETCHING = (
    "--all -a|--append --atomic --depth= --deepen= --shallow-since= --shallow-exclude= "
    "--unshallow --update-shallow --negotiation-tip= --negotiate-only --dry-run -f|--force "
    "-k|--keep --prefetch -p|--prune --no-tags --refmap= -t|--tags -j|--jobs= "
    "--set-upstream --upload-pack=X --progress -o|--server-option= --show-forced-updates "
    "--no-show-forced-updates -4|--ipv4 -6|--ipv6 --recurse-submodules? "
    "--no-recurse-submodules"
)
WRITES: dict[str, str] = {
    "stash": STASH_PUSH,
    "commit": (
        "-a|--all -p|--patch -C|--reuse-message= -c|--reedit-message= --fixup= --squash= "
        "--reset-author --short --branch --porcelain --long -z|--null -F|--file=R --author= "
        "--date= -m|--message= -t|--template=R -s|--signoff --no-signoff --trailer= "
        "-n|--no-verify --verify --allow-empty --allow-empty-message --cleanup= -e|--edit "
        f"--no-edit --amend --no-post-rewrite -i|--include -o|--only {_PATHSPEC} "
        "-u|--untracked-files? -v|--verbose -q|--quiet --dry-run --status --no-status "
        "-S|--gpg-sign? --no-gpg-sign"
    ),
    "add": (
        "-n|--dry-run -v|--verbose -f|--force --sparse -i|--interactive -p|--patch -e|--edit "
        "-u|--update -A|--all|--no-ignore-removal --no-all|--ignore-removal "
        "-N|--intent-to-add --refresh --ignore-errors --ignore-missing "
        f"--no-warn-embedded-repo --renormalize --chmod= {_PATHSPEC}"
    ),
    "checkout": (
        "-q|--quiet --progress --no-progress -f|--force --ours --theirs -b= -B= -t|--track? "
        "--no-track --guess --no-guess -l -d|--detach --orphan= --ignore-skip-worktree-bits "
        "-m|--merge --conflict= -p|--patch --ignore-other-worktrees --overwrite-ignore "
        "--no-overwrite-ignore --recurse-submodules --no-recurse-submodules --overlay "
        f"--no-overlay {_PATHSPEC}"
    ),
    "switch": (
        "-c|--create= -C|--force-create= -d|--detach --guess --no-guess -f|--force "
        "--discard-changes -m|--merge --conflict= -q|--quiet --progress --no-progress "
        "-t|--track? --no-track --orphan= --ignore-other-worktrees --recurse-submodules "
        "--no-recurse-submodules"
    ),
    "restore": (
        "-s|--source= -p|--patch -W|--worktree -S|--staged -q|--quiet --progress "
        "--no-progress --ours --theirs -m|--merge --conflict= --ignore-unmerged "
        "--ignore-skip-worktree-bits --recurse-submodules --no-recurse-submodules --overlay "
        f"--no-overlay {_PATHSPEC}"
    ),
    "push": (
        "--all --prune --mirror -n|--dry-run --porcelain -d|--delete --tags "
        "--follow-tags --signed? --no-signed -o|--push-option= --receive-pack|--exec=X "
        "--force-with-lease? --force-if-includes -f|--force --repo= -u|--set-upstream "
        "-q|--quiet -v|--verbose --progress --recurse-submodules= "
        "--no-recurse-submodules -4|--ipv4 -6|--ipv6 --no-verify --verify --atomic"
    ),
    "pull": f"{_MERGING} -r|--rebase? --no-rebase {_FETCHING}",
    "fetch": f"{_FETCHING} --multiple -P|--prune-tags --refetch -u|--update-head-ok --stdin",
    "merge": f"{_MERGING} --no-progress --rerere-autoupdate --no-rerere-autoupdate "
    "-m= --into-name= -F|--file=R --overwrite-ignore "
    "--no-overwrite-ignore --abort --quit --continue",
    "rebase": (
        "--fork-point --no-fork-point --onto= --keep-base --continue --abort --quit --apply "
        "--empty= --keep-empty --no-keep-empty --reapply-cherry-picks "
        "--no-reapply-cherry-picks --allow-empty-message --skip --edit-todo "
        "--show-current-patch -m|--merge -s|--strategy= -X|--strategy-option= "
        "--rerere-autoupdate --no-rerere-autoupdate -S|--gpg-sign? --no-gpg-sign -q|--quiet "
        "-v|--verbose --stat -n|--no-stat --no-verify --verify -C= -f|--force-rebase "
        "--no-ff --ignore-whitespace --whitespace= --committer-date-is-author-date "
        "--ignore-date|--reset-author-date --signoff -i|--interactive -r|--rebase-merges? "
        "-x|--exec=X --root --autosquash --no-autosquash --autostash "
        "--no-autostash --reschedule-failed-exec --no-reschedule-failed-exec --update-refs "
        "--no-update-refs"
    ),
    "reset": f"-q|--quiet --refresh --no-refresh {_PATHSPEC} --soft --mixed --hard --merge "
    "--keep -p|--patch -N --recurse-submodules "
    "--no-recurse-submodules",
    "rm": f"-f|--force -n|--dry-run -r --cached --ignore-unmatch --sparse -q|--quiet {_PATHSPEC}",
    "mv": "-f|--force -k -n|--dry-run -v|--verbose",
    "clone": (
        "-l|--local --no-hardlinks -s|--shared --reference= --reference-if-able= "
        "--dissociate -q|--quiet -v|--verbose --progress --server-option= -n|--no-checkout "
        "--bare --sparse --filter= --also-filter-submodules --mirror -o|--origin= "
        "-b|--branch= -u|--upload-pack=X --template=X -c|--config= --depth= "
        "--shallow-since= --shallow-exclude= --single-branch --no-single-branch --no-tags "
        "--recurse-submodules? --shallow-submodules --no-shallow-submodules "
        "--remote-submodules --no-remote-submodules --separate-git-dir= -j|--jobs= "
        "--bundle-uri="
    ),
}
