"""Option allow-lists of the system-inspection tools and the file tools, in the DSL of
``spec.opts`` (the readers' and printers' tables are in ``options``, which joins these in).

Grown from each tool's own ``--help`` like the rest; tests/shell/test_help_flags.py checks
them against the installed tools.
"""

from __future__ import annotations

#: uname, id, ps, df and the like: they report on the machine, they change nothing.
SYSTEM_OPTIONS: dict[str, str] = {
    "uname": "-a|--all -s|--kernel-name -n|--nodename -r|--kernel-release "
    "-v|--kernel-version -m|--machine -p|--processor -i|--hardware-platform "
    "-o|--operating-system",
    "id": "-a -Z|--context -g|--group -G|--groups -n|--name -r|--real -u|--user -z|--zero",
    "whoami": "",
    "groups": "",
    "logname": "",
    "users": "",
    "arch": "",
    "nproc": "--all --ignore=",
    "seq": "-f|--format= -s|--separator= -w|--equal-width",
    "date": "-d|--date= --debug -f|--file=R -I|--iso-8601? --resolution -R|--rfc-email "
    "--rfc-3339= -r|--reference=R -s|--set= -u|--utc|--universal",
    "tr": "-c|-C|--complement -d|--delete -s|--squeeze-repeats -t|--truncate-set1",
    "printenv": "-0|--null",
    "printf": "-v=U",
    "which": "-a",
    "whereis": "-b -m -s -u -B= -M= -S= -f -l",
    "yes": "",
    "true": "",
    "false": "",
    "free": "-b|--bytes --kilo --mega --giga --tera --peta -k|--kibi -m|--mebi -g|--gibi "
    "--tebi --pebi -h|--human --si -l|--lohi -t|--total -v|--committed "
    "-s|--seconds= -c|--count= -w|--wide -V",
    "uptime": "-p|--pretty -h -s|--since -V",
    "w": "-h|--no-header -u|--no-current -s|--short -f|--from -o|--old-style -i|--ip-addr -V",
    "who": "-a|--all -b|--boot -d|--dead -H|--heading --ips -l|--login --lookup -m "
    "-p|--process -q|--count -r|--runlevel -s|--short -t|--time -T|-w|--mesg "
    "-u|--users --message --writable",
    "ps": "-A -e -a -d -N|--deselect -T -C= -G|--Group= -g|--group= -p|--pid= "
    "--ppid= -q|--quick-pid= -s|--sid= -t|--tty= -u|--user= -U|--User= -F -f -j -l "
    "-M -O= -o|--format= -y --context -c -H|--forest --headers --no-headers "
    "--cols|--columns|--width= --rows|--lines= -w -L -m --sort= -V",
    "pgrep": "-d|--delimiter= -l|--list-name -a|--list-full -v|--inverse -w|--lightweight "
    "-c|--count -f|--full -g|--pgroup= -G|--group= -i|--ignore-case -n|--newest "
    "-o|--oldest -O|--older= -P|--parent= -s|--session= -t|--terminal= "
    "-u|--euid= -U|--uid= -x|--exact -F|--pidfile=R -L|--logpidfile "
    "-r|--runstates= -A|--ignore-ancestors --cgroup= --ns= --nslist= -h -V",
    "pidof": "-s -c -q -x -o=",
    "pstree": "-a|--arguments -A|--ascii -c|--compact-not -C|--color= -g|--show-pgids "
    "-G|--vt100 -h|--highlight-all -H|--highlight-pid= -l|--long "
    "-n|--numeric-sort -N|--ns-sort= -p|--show-pids -s|--show-parents "
    "-S|--ns-changes -t|--thread-names -T|--hide-threads -u|--uid-changes "
    "-U|--unicode -V -Z|--security-context",
    "lsblk": "-A|--noempty -D|--discard -E|--dedup= -I|--include= -J|--json -M|--merge "
    "-O|--output-all -P|--pairs -S|--scsi -T|--tree? -a|--all -b|--bytes "
    "-d|--nodeps -e|--exclude= -f|--fs -i|--ascii -l|--list -m|--perms "
    "-n|--noheadings -o|--output= -p|--paths -r|--raw -s|--inverse -t|--topology "
    "-w|--width= -x|--sort= -y|--shell -z|--zoned -h -V",
    "lscpu": "-a|--all -b|--online -B|--bytes -C|--caches? -c|--offline -J|--json "
    "-e|--extended? -p|--parse? -x|--hex -y|--physical --output-all -h -V",
    "getent": "-A|--no-addrconfig -i|--no-idn -s|--service= -?|--usage -V",
    "locale": "-a|--all-locales -m|--charmaps -c|--category-name -k|--keyword-name -v|--verbose -V",
    "getconf": "-a -v=",
    "look": "-a|--alternative -d|--alphanum -f|--ignore-case -t|--terminate= -h -V",
}

FILE_OPTIONS: dict[str, str] = {
    # file tools (not readers: their base effect is a write or a delete)
    "rm": "-f|--force -i -I --interactive? --one-file-system --no-preserve-root!D "
    "--preserve-root? -r|-R|--recursive -d|--dir -v|--verbose",
    "rmdir": "--ignore-fail-on-non-empty -p|--parents -v|--verbose",
    "mv": "--backup? -b -f|--force -i|--interactive -n|--no-clobber --strip-trailing-slashes "
    "-S|--suffix= -t|--target-directory= -T|--no-target-directory -u|--update? "
    "-v|--verbose -Z|--context",
    "ln": "--backup? -b -d|-F|--directory -f|--force -i|--interactive -L|--logical "
    "-n|--no-dereference -P|--physical -r|--relative -s|--symbolic -S|--suffix= "
    "-t|--target-directory= -T|--no-target-directory -v|--verbose",
    "mkdir": "-m|--mode= -p|--parents -v|--verbose -Z --context?",
    "touch": "-a -c|--no-create -d|--date= -f -h|--no-dereference -m -r|--reference=R -t= --time=",
    "chmod": "-c|--changes -f|--silent|--quiet -v|--verbose --no-preserve-root!D "
    "--preserve-root --reference=R -R|--recursive",
    "chown": "-c|--changes -f|--silent|--quiet -v|--verbose --dereference "
    "-h|--no-dereference --from= --no-preserve-root!D --preserve-root "
    "--reference=R -R|--recursive -H -L -P",
    "chgrp": "-c|--changes -f|--silent|--quiet -v|--verbose --dereference "
    "-h|--no-dereference --no-preserve-root!D --preserve-root --reference=R "
    "-R|--recursive -H -L -P",
    "tee": "-a|--append -i|--ignore-interrupts -p --output-error?",
    "truncate": "-c|--no-create -o|--io-blocks -r|--reference=R -s|--size=",
    "install": "--backup? -b -c -C|--compare -d|--directory -D -g|--group= -m|--mode= "
    "-o|--owner= -p|--preserve-timestamps -s|--strip!X --strip-program=X "
    "-S|--suffix= -t|--target-directory= -T|--no-target-directory -v|--verbose "
    "--preserve-context -Z --context?",
    "split": "-a|--suffix-length= --additional-suffix= -b|--bytes= -C|--line-bytes= -d "
    "--numeric-suffixes? -x --hex-suffixes? -e|--elide-empty-files --filter=X "
    "-l|--lines= -n|--number= -t|--separator= -u|--unbuffered --verbose",
    "mktemp": "-d|--directory -u|--dry-run -q|--quiet --suffix= -p|--tmpdir? -t",
    "mkfifo": "-m|--mode= -Z --context?",
    "unlink": "",
    "shred": "-f|--force -n|--iterations= --random-source=R -s|--size= -u --remove? "
    "-v|--verbose -x|--exact -z|--zero",
    "gzip": "-c|--stdout -d|--decompress -f|--force -k|--keep -l|--list -n|--no-name "
    "-N|--name -q|--quiet -r|--recursive --rsyncable -S|--suffix= --synchronous "
    "-t|--test -v|--verbose -V -# --fast --best",
    "gunzip": "-c|--stdout -f|--force -k|--keep -l|--list -n|--no-name -N|--name "
    "-q|--quiet -r|--recursive -S|--suffix= --synchronous -t|--test -v|--verbose",
    "bzip2": "-d|--decompress -z|--compress -k|--keep -f|--force -t|--test -c|--stdout "
    "-q|--quiet -v|--verbose -s|--small -V -# --fast --best",
    "xz": "-z|--compress -d|--decompress -t|--test -l|--list -k|--keep -f|--force "
    "-c|--stdout -e|--extreme -T|--threads= -q|--quiet -v|--verbose -V -#",
}
