"""Option allow-lists of readers, printers and file tools, in the DSL of ``spec.opts``.

Grown from each tool's own ``--help`` (GNU coreutils 9, grep 3, sed 4, tree 2, ripgrep 13,
fd 8, bat 0.22, jq 1.6, the Debian ``yq``…); tests/shell/test_help_flags.py checks every
option here against the installed tool's help text. An option missing from a table makes
the command unknown. ``--help`` and ``--version`` are added to every table.
"""

from __future__ import annotations

from bastion.shell.programs import operand_printers
from bastion.shell.programs.tool_options import FILE_OPTIONS, SYSTEM_OPTIONS

_LS = (
    "-a|--all -A|--almost-all --author -b|--escape --block-size= -B|--ignore-backups -c -C "
    "--color? -d|--directory -D|--dired -f -F|--classify? --file-type --format= --full-time "
    "-g --group-directories-first -G|--no-group -h|--human-readable --si "
    "-H|--dereference-command-line --dereference-command-line-symlink-to-dir --hide= "
    "--hyperlink? --indicator-style= -i|--inode -I|--ignore= -k|--kibibytes -l "
    "-L|--dereference -m -n|--numeric-uid-gid -N|--literal -o -p -q|--hide-control-chars "
    "--show-control-chars -Q|--quote-name --quoting-style= -r|--reverse -R|--recursive "
    "-s|--size -S --sort= --time= --time-style= -t -T|--tabsize= -u -U -v -w|--width= -x -X "
    "-Z|--context --zero -1"
)
_SUM = (
    "-b|--binary -c|--check!U --tag -t|--text -z|--zero --ignore-missing --quiet --status --strict -w|--warn"
)
_GREP = (
    "-E|--extended-regexp -F|--fixed-strings -G|--basic-regexp -P|--perl-regexp -e|--regexp= "
    "-f|--file=R -i|--ignore-case --no-ignore-case -w|--word-regexp -x|--line-regexp "
    "-z|--null-data -s|--no-messages -v|--invert-match -V -m|--max-count= -b|--byte-offset "
    "-n|--line-number --line-buffered -H|--with-filename -h|--no-filename --label= "
    "-o|--only-matching -q|--quiet|--silent --binary-files= -a|--text -I -d|--directories=U "
    "-D|--devices= -r|--recursive^ -R|--dereference-recursive^ --include= --exclude= "
    "--exclude-from=R --exclude-dir= -L|--files-without-match -l|--files-with-matches "
    "-c|--count -T|--initial-tab -Z|--null -A|--after-context= -B|--before-context= "
    "-C|--context= -# --group-separator= --no-group-separator --color|--colour? -U|--binary"
)
_DIFF = (
    "--normal -q|--brief -s|--report-identical-files -c -C= --context? -u -U= --unified? "
    "-e|--ed -n|--rcs -y|--side-by-side -W|--width= --left-column --suppress-common-lines "
    "-p|--show-c-function -F|--show-function-line= --label= -t|--expand-tabs -T|--initial-tab "
    "--tabsize= --suppress-blank-empty -l|--paginate!X -r|--recursive^ --no-dereference "
    "-N|--new-file --unidirectional-new-file --ignore-file-name-case "
    "--no-ignore-file-name-case -x|--exclude= -X|--exclude-from=R -S|--starting-file= "
    "--from-file=R --to-file=R -i|--ignore-case -E|--ignore-tab-expansion "
    "-Z|--ignore-trailing-space -b|--ignore-space-change -w|--ignore-all-space "
    "-B|--ignore-blank-lines -I|--ignore-matching-lines= -a|--text --strip-trailing-cr "
    "-D|--ifdef= --line-format= -d|--minimal --horizon-lines= "
    "--speed-large-files --color? --palette= -v"
)
_RG = (
    "-A|--after-context= --auto-hybrid-regex -B|--before-context= --binary --block-buffered "
    "-b|--byte-offset -s|--case-sensitive --color= --colors= --column -C|--context= "
    "--context-separator= -c|--count --count-matches --crlf --debug --dfa-size-limit= "
    "-E|--encoding= --engine= --field-context-separator= --field-match-separator= "
    "-f|--file=R --files -l|--files-with-matches --files-without-match -F|--fixed-strings "
    "-L|--follow -g|--glob= --glob-case-insensitive -h --heading --hidden --iglob= "
    "-i|--ignore-case --ignore-file=R --ignore-file-case-insensitive --include-zero "
    "-v|--invert-match --json --line-buffered -n|--line-number -x|--line-regexp "
    "-M|--max-columns= --max-columns-preview -m|--max-count= --max-depth= "
    "--max-filesize= --mmap -U|--multiline --multiline-dotall --no-config -I|--no-filename "
    "--no-heading --no-ignore --no-ignore-dot --no-ignore-exclude --no-ignore-files "
    "--no-ignore-global --no-ignore-messages --no-ignore-parent --no-ignore-vcs "
    "-N|--no-line-number --no-messages --no-mmap --no-pcre2-unicode --no-require-git "
    "--no-unicode -0|--null --null-data --one-file-system -o|--only-matching --passthru "
    "--path-separator= -P|--pcre2 --pcre2-version --pre=X --pre-glob= -p|--pretty "
    "-q|--quiet --regex-size-limit= -e|--regexp= -r|--replace= -z|--search-zip!X "
    "-S|--smart-case --sort= --sortr= --stats -a|--text -j|--threads= --trim -t|--type= "
    "--type-add= --type-clear= --type-list -T|--type-not= -u|--unrestricted -V|--version "
    "--vimgrep -H|--with-filename -w|--word-regexp "
    "--no-context-separator --no-auto-hybrid-regex --no-binary --no-block-buffered "
    "--no-column --no-crlf --no-encoding --no-fixed-strings --no-follow "
    "--no-glob-case-insensitive --no-hidden --no-ignore-file-case-insensitive "
    "--no-line-buffered --no-max-columns-preview "
    "--no-multiline --no-multiline-dotall --no-one-file-system --no-pcre2 --no-pre "
    "--no-search-zip --no-text --no-trim --no-unicode -#"
)
_FD = (
    "-H|--hidden -I|--no-ignore --no-ignore-vcs --no-ignore-parent -u|--unrestricted "
    "-s|--case-sensitive -i|--ignore-case -g|--glob --regex -F|--fixed-strings --and= "
    "-a|--absolute-path -l|--list-details -L|--follow -p|--full-path -0|--print0 "
    "-d|--max-depth= --min-depth= --exact-depth= -E|--exclude= --prune -t|--type= "
    "-e|--extension= -S|--size= --changed-within= --changed-before= -o|--owner= "
    "-x|--exec=X -X|--exec-batch=X --batch-size= --ignore-file=R -c|--color= -j|--threads= "
    "--max-results= -1 -q|--quiet --show-errors --base-directory=R --path-separator= "
    "--search-path=R --strip-cwd-prefix -V|--version -h"
)
_TREE = (
    "-a -d -l -f -x -L= -R!W -P= -I= --gitignore --gitfile=R --ignore-case --matchdirs "
    "--metafirst --prune --info --infofile=R --noreport --charset= --filelimit= -o=W -q -N "
    "-Q -p -u -g -s -h --si --du -D --timefmt= -F --inodes --device -v -t -c -U -r "
    "--dirsfirst --filesfirst --sort= -i -A -S -n -C -X -J -H= -T= --nolinks --hintro=R "
    "--houtro=R --fromfile --fflinks"
)
_JQ = (
    "-c|--compact-output -n|--null-input -e|--exit-status -s|--slurp -r|--raw-output "
    "-j|--join-output -a|--ascii-output -R|--raw-input -C|--color-output "
    "-M|--monochrome-output -S|--sort-keys --tab --indent= --unbuffered --stream --seq "
    "-f|--from-file=R -L= --arg=2 --argjson=2 --slurpfile=2R --rawfile=2R --args --jsonargs"
)
_BAT = (
    "-A|--show-all -p|--plain -l|--language= -H|--highlight-line= --file-name= -d|--diff "
    "--diff-context= --tabs= --wrap= --terminal-width= -n|--number --color= --italic-text= "
    "--decorations= -f|--force-colorization --paging= --pager=X -m|--map-syntax= "
    "--ignored-suffix= --theme= --list-themes --style= -r|--line-range= "
    "-L|--list-languages -u|--unbuffered --diagnostic --acknowledgements -V|--version -h"
)
_AWK = (
    "-F|--field-separator= -v|--assign= -f|--file=R -e|--source= -b|--characters-as-bytes "
    "-c|--traditional -C|--copyright -d|--dump-variables?!W -D|--debug?!X -E|--exec=X "
    "-g|--gen-pot -i|--include=X -I|--trace -l|--load=X -L|--lint? -M|--bignum "
    "-N|--use-lc-numeric -n|--non-decimal-data -o|--pretty-print?!W -O|--optimize "
    "-p|--profile?!W -P|--posix -r|--re-interval -s|--no-optimize -S|--sandbox "
    "-t|--lint-old -V|--version -h"
)
_SED = (
    "-n|--quiet|--silent --debug -e|--expression= -f|--file=R --follow-symlinks "
    "-i|--in-place? -l|--line-length= --posix -E|-r|--regexp-extended -s|--separate "
    "--sandbox -u|--unbuffered -z|--null-data"
)
_SORT = (
    "-b|--ignore-leading-blanks -d|--dictionary-order -f|--ignore-case "
    "-g|--general-numeric-sort -i|--ignore-nonprinting -M|--month-sort "
    "-h|--human-numeric-sort -n|--numeric-sort -R|--random-sort --random-source=R "
    "-r|--reverse --sort= -V|--version-sort --batch-size= -c|--check? -C "
    "--compress-program=X --debug --files0-from=L -k|--key= -m|--merge -o|--output=W "
    "-s|--stable -S|--buffer-size= -t|--field-separator= -T|--temporary-directory=W "
    "--parallel= -u|--unique -z|--zero-terminated"
)
_CP = (
    "-a|--archive --attributes-only --backup? -b --copy-contents -d -f|--force "
    "-i|--interactive -H -l|--link -L|--dereference -n|--no-clobber -P|--no-dereference -p "
    "--preserve? --no-preserve= --parents -r|-R|--recursive --reflink? --remove-destination "
    "--sparse= --strip-trailing-slashes -s|--symbolic-link -S|--suffix= -t|--target-directory= "
    "-T|--no-target-directory -u|--update? -v|--verbose -x|--one-file-system -Z --context?"
)

OPTIONS: dict[str, str] = {
    "ls": _LS,
    "dir": _LS,
    "vdir": _LS,
    "cat": "-A|--show-all -b|--number-nonblank -e -E|--show-ends -n|--number "
    "-s|--squeeze-blank -t -T|--show-tabs -u -v|--show-nonprinting",
    "tac": "-b|--before -r|--regex -s|--separator=",
    "wc": "-c|--bytes -m|--chars -l|--lines --files0-from=L -L|--max-line-length -w|--words",
    "head": "-c|--bytes= -n|--lines= -q|--quiet|--silent -v|--verbose -z|--zero-terminated -#",
    "tail": "-c|--bytes= -f|--follow? -F -n|--lines= --max-unchanged-stats= --pid= "
    "-q|--quiet|--silent --retry -s|--sleep-interval= -v|--verbose "
    "-z|--zero-terminated -#",
    "grep": _GREP,
    "egrep": _GREP,
    "fgrep": _GREP,
    "rg": _RG,
    "fd": _FD,
    "fdfind": _FD,
    "tree": _TREE,
    "jq": _JQ,
    "bat": _BAT,
    "batcat": _BAT,
    "awk": _AWK,
    "gawk": _AWK,
    "mawk": "-F= -v= -f=R -W=U",
    "sed": _SED,
    "sort": _SORT,
    "cp": _CP,
    "diff": _DIFF,
    "cmp": "-b|--print-bytes -i|--ignore-initial= -l|--verbose -n|--bytes= -s|--quiet|--silent -v",
    "comm": "-1 -2 -3 --check-order --nocheck-order --output-delimiter= --total -z|--zero-terminated",
    "cut": "-b|--bytes= -c|--characters= -d|--delimiter= -f|--fields= -n --complement "
    "-s|--only-delimited --output-delimiter= -z|--zero-terminated",
    "uniq": "-c|--count -d|--repeated -D --all-repeated? -f|--skip-fields= --group? "
    "-i|--ignore-case -s|--skip-chars= -u|--unique -z|--zero-terminated "
    "-w|--check-chars=",
    "paste": "-d|--delimiters= -s|--serial -z|--zero-terminated",
    "join": "-a= -e= -i|--ignore-case -j= -o= -t= -v= -1= -2= --check-order --nocheck-order "
    "--header -z|--zero-terminated",
    "nl": "-b|--body-numbering= -d|--section-delimiter= -f|--footer-numbering= "
    "-h|--header-numbering= -i|--line-increment= -l|--join-blank-lines= "
    "-n|--number-format= -p|--no-renumber -s|--number-separator= "
    "-v|--starting-line-number= -w|--number-width=",
    "fold": "-b|--bytes -s|--spaces -w|--width=",
    "fmt": "-c|--crown-margin -p|--prefix= -s|--split-only -t|--tagged-paragraph "
    "-u|--uniform-spacing -w|--width= -g|--goal=",
    "expand": "-i|--initial -t|--tabs=",
    "unexpand": "-a|--all --first-only -t|--tabs=",
    "rev": "-V -h",
    "tsort": "",
    "factor": "",
    "sleep": "",
    "tty": "-s|--silent|--quiet",
    "od": "-A|--address-radix= --endian= -j|--skip-bytes= -N|--read-bytes= -S|--strings? "
    "-t|--format= -v|--output-duplicates -w|--width? --traditional -a -b -c -d -f -i -l "
    "-o -s -x",
    "hexdump": "-b|--one-byte-octal -c|--one-byte-char -C|--canonical "
    "-d|--two-bytes-decimal -o|--two-bytes-octal -x|--two-bytes-hex -L|--color? "
    "-e|--format= -f|--format-file=R -n|--length= -s|--skip= -v|--no-squeezing "
    "-h|--help -V|--version",
    "strings": "-a|--all -d|--data -f|--print-file-name -n|--bytes= -t|--radix= "
    "-w|--include-all-whitespace -o -T|--target= -e|--encoding= --unicode= -U "
    "-s|--output-separator= -h -v|-V",
    "xxd": "-a|-autoskip -b|-bits -C|-capitalize -c|-cols= -E|-EBCDIC -e -g|-groupsize= "
    "-h -i|-include -l|-len= -n|-name= -o= -p|-ps|-postscript|-plain -r|-revert -d "
    "-s|-seek= -u -v|-version",
    "base64": "-d|--decode -i|--ignore-garbage -w|--wrap=",
    "base32": "-d|--decode -i|--ignore-garbage -w|--wrap=",
    "md5sum": _SUM,
    "sha1sum": _SUM,
    "sha224sum": _SUM,
    "sha256sum": _SUM,
    "sha384sum": _SUM,
    "sha512sum": _SUM,
    "b2sum": _SUM + " -l|--length=",
    "cksum": "-a|--algorithm= -c|--check!U -l|--length= --tag --untagged -z|--zero "
    "--ignore-missing --quiet --status --strict -w|--warn --debug",
    "sum": "-r -s|--sysv",
    "shasum": "-a|--algorithm= -b|--binary -c|--check!U --tag -t|--text -U|--UNIVERSAL "
    "-0|--01 --ignore-missing -q|--quiet -s|--status --strict -w|--warn -h -v",
    "stat": "-L|--dereference -f|--file-system --cached= -c|--format= --printf= -t|--terse",
    "du": "-0|--null -a|--all --apparent-size -B|--block-size= -b|--bytes -c|--total "
    "-D|--dereference-args -d|--max-depth= --files0-from=L -H -h|--human-readable "
    "--inodes -k -L|--dereference -l|--count-links -m -P|--no-dereference "
    "-S|--separate-dirs --si -s|--summarize -t|--threshold= --time? --time-style= "
    "-X|--exclude-from=R --exclude= -x|--one-file-system",
    "df": "-a|--all -B|--block-size= -h|--human-readable -H|--si -i|--inodes -k -l|--local "
    "--no-sync --output? -P|--portability --sync --total -t|--type= -T|--print-type "
    "-x|--exclude-type= -v",
    "file": "-v|--version -m|--magic-file=R -z|--uncompress -Z|--uncompress-noreport "
    "-b|--brief -c|--checking-printout -e|--exclude= --exclude-quiet= "
    "-f|--files-from=L -F|--separator= -i|--mime --apple --extension --mime-type "
    "--mime-encoding -k|--keep-going -l|--list -L|--dereference -h|--no-dereference "
    "-n|--no-buffer -N|--no-pad -0|--print0 -p|--preserve-date!W -P|--parameter= "
    "-r|--raw -s|--special-files -S|--no-sandbox -d|--debug",
    "column": "-t|--table -n|--table-name= -O|--table-order= -N|--table-columns= "
    "-l|--table-columns-limit= -E|--table-noextreme= -d|--table-noheadings "
    "-e|--table-header-repeat -H|--table-hide= -R|--table-right= "
    "-T|--table-truncate= -W|--table-wrap= -L|--keep-empty-lines -J|--json "
    "-r|--tree= -i|--tree-id= -p|--tree-parent= -c|--output-width= "
    "-o|--output-separator= -s|--separator= -x|--fillrows -h -V",
    "realpath": "-e|--canonicalize-existing -m|--canonicalize-missing -L|--logical "
    "-P|--physical -q|--quiet --relative-to= --relative-base= "
    "-s|--strip|--no-symlinks -z|--zero",
    "readlink": "-f|--canonicalize -e|--canonicalize-existing -m|--canonicalize-missing "
    "-n|--no-newline -q|--quiet -s|--silent -v|--verbose -z|--zero",
    "basename": "-a|--multiple -s|--suffix= -z|--zero",
    "dirname": "-z|--zero",
    "pwd": "-L|--logical -P|--physical",
    "numfmt": "--debug -d|--delimiter= --field= --format= --from= --from-unit= --grouping "
    "--header? --invalid= --padding= --round= --suffix= --to= --to-unit= "
    "-z|--zero-terminated",
    "namei": "-x|--mountpoints -m|--modes -o|--owners -l|--long -n|--nosymlinks -v|--vertical -h -V",
    "less": "-? -a -A -b= -B -c -C -d -e -E -f -F -g -G -h= -i -I -j= -J -K -L -m -M -n -N "
    "-q -Q -r -R -s -S -u -U -V -w -W -x= -X -y= -z= -~ --mouse "
    "--no-histdups --quit-if-one-screen|-F --RAW-CONTROL-CHARS|-R --chop-long-lines|-S",
    "more": "-d|--silent -f|--logical -l|--no-pause -c|--print-over -p|--clean-print "
    "-e|--exit-on-eof -s|--squeeze -u|--plain -n|--lines= -h -V -#",
    "zcat": "-f|--force -l|--list -q|--quiet -r|--recursive -S|--suffix= --synchronous "
    "-t|--test -v|--verbose",
    "bzcat": "-s|--small -v|--verbose -q|--quiet",
    "xzcat": "-q|--quiet -v|--verbose",
    "nm": "-a|--debug-syms -A|--print-file-name -B -C|--demangle? --no-demangle -D|--dynamic "
    "-f|--format= -g|--extern-only -l|--line-numbers -n|--numeric-sort -o "
    "-p|--no-sort -P|--portability -r|--reverse-sort -S|--print-size -s|--print-armap "
    "--size-sort --special-syms -t|--radix= -u|--undefined-only -U|--defined-only "
    "-W|--no-weak -h -V",
    "readelf": "-a|--all -h|--file-header -l|--program-headers --segments "
    "-S|--section-headers --sections -g|--section-groups -t|--section-details "
    "-e|--headers -s|--syms --symbols --dyn-syms -C|--demangle? -n|--notes "
    "-r|--relocs -u|--unwind -d|--dynamic -V|--version-info -A|--arch-specific "
    "-c|--archive-index -D|--use-dynamic -x|--hex-dump= -p|--string-dump= "
    "-R|--relocated-dump= -z|--decompress -W|--wide -H -v",
    "objdump": "-a|--archive-headers -f|--file-headers -p|--private-headers -h "
    "-x|--all-headers -d|--disassemble? -D|--disassemble-all -S|--source "
    "-s|--full-contents -g|--debugging -t|--syms -T|--dynamic-syms -r|--reloc "
    "-R|--dynamic-reloc -v -i|--info -H -j|--section= -M|--disassembler-options= "
    "-l|--line-numbers -F|--file-offsets -C|--demangle? -w|--wide "
    "--no-show-raw-insn --start-address= --stop-address=",
    "size": "-A -B -G -o -d -x -t -f -h -H -v -V --format= --radix= --totals --common",
    "ldd": "-d|--data-relocs -r|--function-relocs -u|--unused -v|--verbose",
    "sdiff": "-o|--output=W -i|--ignore-case -E|--ignore-tab-expansion "
    "-Z|--ignore-trailing-space -b|--ignore-space-change -W|--ignore-all-space "
    "-B|--ignore-blank-lines -I|--ignore-matching-lines= --strip-trailing-cr "
    "-a|--text -w|--width= -l|--left-column -s|--suppress-common-lines "
    "-t|--expand-tabs --tabsize= -d|--minimal -H|--speed-large-files "
    "--diff-program=X -v",
    "diff3": "-A|--show-all -e|--ed -E|--show-overlap -3|--easy-only -x|--overlap-only -X "
    "-i -m|--merge -a|--text --strip-trailing-cr -T|--initial-tab --diff-program=X "
    "-L|--label= -v",
    "iconv": "-f|--from-code= -t|--to-code= -l|--list -c -o|--output=W -s|--silent --verbose -?|--usage -V",
    "pr": "-a|--across -c|--show-control-chars -d|--double-space -D|--date-format= "
    "-e|--expand-tabs? -F|-f|--form-feed -h|--header= -i|--output-tabs? "
    "-J|--join-lines -l|--length= -m|--merge -n|--number-lines? "
    "-N|--first-line-number= -o|--indent= -r|--no-file-warnings -s|--separator? "
    "-S|--sep-string? -t|--omit-header -T|--omit-pagination -v|--show-nonprinting "
    "-w|--width= -W|--page-width= --columns= -#",
    "lsof": "-c= -d= -i? -n -P -t -a -l -u= -p= -s? -R -T? -V -w -x? -b -U -g?",
    "top": "-b -c -d= -e= -E= -H -i -n= -o= -O -p= -s -S -u= -U= -w? -1 -h",
    "vmstat": "-a|--active -f|--forks -m|--slabs -n|--one-header -s|--stats -d|--disk "
    "-D|--disk-sum -p|--partition= -S|--unit= -w|--wide -t|--timestamp "
    "-y|--no-first -h -V",
    "findmnt": "-s|--fstab -m|--mtab -k|--kernel -A|--all -a|--ascii -b|--bytes "
    "-D|--df -J|--json -l|--list -n|--noheadings -o|--output= -r|--raw "
    "-t|--types= -T|--target= -M|--mountpoint= -S|--source= -h -V",
    "dmesg": "-T|--ctime -H|--human -w|--follow -l|--level= -k|--kernel -x|--decode "
    "-L|--color? --time-format= -t|--notime -r|--raw -f|--facility= -P|--nopager "
    "-u|--userspace -e|--reltime -d|--show-delta -S|--syslog -J|--json "
    "--since= --until= -C|--clear!S -c|--read-clear!S -D|--console-off!S "
    "-E|--console-on!S -n|--console-level=S -h -V",
    "last": "-n|--limit= -a|--hostlast -d|--dns -F|--fulltimes -i|--ip -w|--fullnames "
    "-x|--system -R|--nohostname -s|--since= -t|--until= -p|--present= -f=R -#",
    "tput": "-S -T= -V -x",
    # ag 2.2 / ack 3.6 `--help`. ack also reads the project's .ackrc (--pager there runs
    # only when the output is a terminal, never for an agent).
    "ag": "--ackmate -A|--after= -B|--before= -c|--count --color --nocolor "
    "--color-line-number= --color-match= --color-path= --column -H -C|--context= "
    "-g|--filename-pattern= -l|--files-with-matches -L|--files-without-matches "
    "--print-all-files -o|--only-matching --print-long-lines --passthrough --silent --stats "
    "--stats-only --vimgrep -0|--null|--print0 -a|--all-types -D|--debug --depth= "
    "-f|--follow -F|--fixed-strings -G|--file-search-regex= --hidden -i|--ignore-case "
    "--ignore= --ignore-dir= -m|--max-count= --one-device -p|--path-to-ignore=R -Q|--literal "
    "-s|--case-sensitive -S|--smart-case --search-binary -t|--all-text -u|--unrestricted "
    "-U|--skip-vcs-ignores -v|--invert-match -w|--word-regexp -W|--width= -z|--search-zip "
    "--group --nogroup --heading --noheading --break --nobreak --numbers --nonumbers "
    "--filename --nofilename -n|--norecurse -r|--recurse --pager=X --nopager "
    "--list-file-types --workers= -V",
    "ack": "-f -g= -l|--files-with-matches -L|--files-without-matches -c|--count "
    "-i|--ignore-case -S -I|--no-ignore-case -v|--invert-match -w|--word-regexp -Q|--literal "
    "--range-start= --range-end= --match= --output=X -o --passthru -m|--max-count= -1 "
    "-H|--with-filename -h|--no-filename -A|--after-context= -B|--before-context= "
    "-C|--context? --print0 -s --pager=X --nopager --group --nogroup -p|--proximate? -P "
    "--color --nocolor --color-filename= --color-match= --color-colno= --color-lineno= "
    "--help-colors --help-rgb-colors --flush --sort-files --show-types --files-from=L -x!U "
    "--ignore-file= -r|-R|--recurse -n|--no-recurse -t|--type= -T= -k|--known-types "
    "--help-types --type-set= --type-add= --type-del= --ackrc=U --ignore-ack-defaults "
    "--create-ackrc --dump --man --column --heading --noheading --break --nobreak "
    "--env --noenv --smart-case --no-smart-case",
    "zgrep": _GREP,
    "gsed": _SED,
    "nawk": "-F= -v= -f=R --version",
    "yq": "-y|--yaml-output|--yml-output -Y|--yaml-roundtrip|--yml-roundtrip "
    "--yaml-output-grammar-version|--yml-out-ver= -w|--width= "
    "--indentless-lists|--indentless -i|--in-place -c -n -e -s -r -R -C -M -S --tab "
    "--arg=2 --argjson=2 --slurpfile=2R --rawfile=2R --args --jsonargs -h",
    "cd": "-L -P -e -@",
    "pushd": "-n",
    "command": "-v -V -p",
    "type": "-a -f -p -P -t",
    "umask": "-p -S",
    "jobs": "-l -n -p -r -s",
    "dirs": "-c -l -p -v",
    "popd": "-n",
    "help": "-d -m -s",
    "wait": "-f -n -p=",
    "journalctl": "--system --user -M|--machine= -m|--merge -D|--directory=R --file=R "
    "--root=R --image=R --namespace= -S|--since= -U|--until= -c|--cursor= "
    "--after-cursor= --cursor-file=W -b|--boot? -u|--unit= --user-unit= "
    "-t|--identifier= -p|--priority= --facility= -g|--grep= "
    "--case-sensitive? -k|--dmesg -o|--output= --output-fields= -n|--lines= "
    "-r|--reverse --show-cursor --utc -x|--catalog --no-hostname --no-full "
    "-a|--all -f|--follow --no-tail -q|--quiet --no-pager -e|--pager-end "
    "--interval= --verify-key= --force -h -N|--fields -F|--field= "
    "--list-boots --disk-usage --vacuum-size= --vacuum-files= --vacuum-time= "
    "--verify --sync!S --relinquish-var!S --smart-relinquish-var!S --flush "
    "--rotate --header --list-catalog --dump-catalog --update-catalog!S "
    "--setup-keys!S",
    "sysctl": "-a|--all -A -X --deprecated --dry-run -b|--binary -e|--ignore -N|--names "
    "-n|--values -p|--load? -f --system -r|--pattern= -q|--quiet -w|--write -o -x "
    "-d -h -V",
    "gpg": "-k|--list-keys|--list-public-keys -K|--list-secret-keys --fingerprint "
    "--list-signatures|--list-sigs --check-signatures|--check-sigs --verify "
    "--show-keys --list-packets --with-colons --with-fingerprint --keyid-format= "
    "-a|--armor --batch --yes --no-tty -q|--quiet -v|--verbose "
    "--homedir=R -o|--output=W -d|--decrypt -e|--encrypt -r|--recipient= -s|--sign "
    "-b|--detach-sign --clear-sign|--clearsign -c|--symmetric --import!W --export "
    "--export-secret-keys --export-secret-subkeys --delete-secret-keys "
    "--delete-keys!W --generate-key|--gen-key!W --full-generate-key!W "
    "--edit-key!W --sign-key!W --receive-keys|--recv-keys!N --send-keys!N "
    "--search-keys!N --refresh-keys!N --keyserver=N --dearmor --enarmor "
    "--pinentry-mode= --passphrase-file=R --trust-model= --status-fd= --print-md= "
    "-u|--local-user= --default-key= -h",
    **SYSTEM_OPTIONS,
    **FILE_OPTIONS,
    **operand_printers.OPTIONS,
}
#: Options every table knows, but for the tools that have neither (or only one).
COMMON = "--help --version"
NO_COMMON: dict[str, str] = {
    "getconf": "",
    "lsof": "-h -?",
    "pidof": "",
    "tput": "",
    "which": "",
    "xxd": "",
    "mawk": "",
    "jq": "--version",
    "ag": "--version",
    **operand_printers.NO_COMMON,
}
