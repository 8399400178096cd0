"""Extract real command examples, written by people outside the project.

The differential oracle's own corpus is the team's (test literals, templates): it finds what
the team thought of. This one is what others wrote as examples:

* ``man``: man pages, written by the tools' authors -- the ones installed here and those of
  ``DEBIAN_PACKAGES`` (downloaded with ``apt-get download``, never installed): every example
  block (``.nf``/``.EX``) and ``$ ``-prompted line, and the lines of an EXAMPLES section that
  start with the page's own program;
* ``cheat``: the community cheatsheets bundled in PyPI's ``cheat`` 2.5.1;
* ``eg``: the example pages bundled in PyPI's ``eg`` 1.2.3 (indented command lines).

A line is kept when it does not read as prose, a synopsis or a placeholder and, from a man
page, when its first word is a program that has a man page of its own (sections 1 and 8); at
most ``--per-program`` per program (gcloud alone ships thousands), so no single tool
outweighs the rest. The output, one
JSON object a line (``command``, ``source``), is checked in as
``tests/differential/corpus/external.jsonl``: the oracle reads that file, so CI does not
depend on which man pages or packages its machine has.

Run by hand:  .venv/bin/python bench/external_corpus.py [--out FILE] [--per-program N]
(the two PyPI packages are downloaded, pinned, into a temporary folder)
"""

from __future__ import annotations

import argparse
import glob
import gzip
import itertools
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from collections.abc import Iterator

MAN_GLOB = "/usr/share/man/man[1-8]/*.gz"
OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "differential",
                   "corpus", "external.jsonl")  # fmt: skip
#: Debian packages whose man pages join the installed ones (tools agents meet: media, network,
#: storage, build, languages, archives, data). A missing one is skipped.
DEBIAN_PACKAGES = (
    "ffmpeg",
    "sox",
    "rsync",
    "openssh-client",
    "wget",
    "nmap",
    "tcpdump",
    "socat",
    "netcat-openbsd",
    "zsh",
    "tmux",
    "mutt",
    "gnupg",
    "sqlite3",
    "mariadb-client",
    "redis-tools",
    "podman",
    "mercurial",
    "subversion",
    "ghostscript",
    "poppler-utils",
    "pandoc",
    "parallel",
    "moreutils",
    "util-linux",
    "iproute2",
    "iptables",
    "nftables",
    "systemd",
    "lvm2",
    "mdadm",
    "btrfs-progs",
    "e2fsprogs",
    "bind9-dnsutils",
    "whois",
    "traceroute",
    "mtr-tiny",
    "iperf3",
    "aria2",
    "lftp",
    "openssl",
    "cryptsetup",
    "fdisk",
    "parted",
    "smartmontools",
    "hdparm",
    "lsof",
    "strace",
    "ltrace",
    "gdb",
    "valgrind",
    "binutils",
    "make",
    "cmake",
    "ninja-build",
    "meson",
    "autoconf",
    "automake",
    "libtool-bin",
    "pkgconf",
    "rustc",
    "cargo",
    "golang-go",
    "python3-pip",
    "pipx",
    "ruby",
    "perl",
    "php-cli",
    "lua5.4",
    "gawk",
    "mawk",
    "sed",
    "grep",
    "diffutils",
    "patch",
    "less",
    "bat",
    "ripgrep",
    "fd-find",
    "fzf",
    "jq",
    "yq",
    "xmlstarlet",
    "csvkit",
    "miller",
    "htop",
    "atop",
    "iotop",
    "sysstat",
    "procps",
    "psmisc",
    "cron",
    "at",
    "logrotate",
    "rsyslog",
    "sudo",
    "passwd",
    "adduser",
    "acl",
    "attr",
    "quota",
    "zip",
    "unzip",
    "p7zip-full",
    "xz-utils",
    "zstd",
    "bzip2",
    "lz4",
    "pigz",
    "brotli",
    "tar",
    "cpio",
    "squashfs-tools",
    "genisoimage",
    "curl",
    "httpie",
    "w3m",
    "lynx",
    "elinks",
    "tree",
    "file",
    "git",
    "git-man",
    "imagemagick",
    "graphviz",
    "inkscape",
    "gimp",
    "libimage-exiftool-perl",
    "qpdf",
    "pdftk-java",
    "tesseract-ocr",
    "yt-dlp",
    "ansible",
    "docker.io",
    "kubernetes-client",
    "awscli",
)
#: Pinned sdists whose files are example commands: (name, version, folder inside, kind).
BUNDLES = (("cheat", "2.5.1", "cheat/cheatsheets", "cheat"), ("eg", "1.2.3", "eg/examples", "eg"))
#: roff escapes and their text (the ones example lines use).
ESCAPES = (
    (r"\(aq", "'"), (r"\(dq", '"'), (r"\(ga", "`"), (r"\(ti", "~"), (r"\(ha", "^"), (r"\(rs", "\\"),
    (r"\*(lq", '"'), (r"\*(rq", '"'), (r"\(lq", '"'), (r"\(rq", '"'), (r"\(oq", "'"), (r"\(cq", "'"),
    (r"\(em", "--"), (r"\(en", "-"), (r"\-", "-"), (r"\&", ""), (r"\ ", " "), (r"\~", " "), (r"\|", ""),
    (r"\^", ""), (r"\e", "\\"), (r"\.", "."), (r"\'", "'"),
)  # fmt: skip
FONT = re.compile(r"\\f(\[[A-Za-z]*\]|\(..|.)")
STRING = re.compile(r"\\\*\[[^]]*\]")
SECTION = re.compile(r'^\.S[Hh]\s+"?(EXAMPLES?|Examples?|USAGE EXAMPLES)"?\s*$', re.M)
#: Lines that are prose or output, not a command someone would type.
PROSE = re.compile(
    r"\(\d+\)\s*$|\(\)|\s{3,}|\t|[:,;{]\s*$|\w\.\s*$|^#|^\[|\.\.\.|<[a-z-]+>|\|\s*$|\[--|\| -"
    r"|^\w+ (a|an|the|is|are|of|to|for|from|with|and|or|that|this|you|it|as|in|on|by) "
)


def clean(line: str) -> str:
    line = STRING.sub("", FONT.sub("", line))
    for escape, text in ESCAPES:
        line = line.replace(escape, text)
    return line.strip()


def _prompted(line: str) -> tuple[str, bool]:
    for prompt in ("$ ", "% "):
        if line.startswith(prompt):
            return line[len(prompt) :].strip(), True
    return line, False


def examples(text: str, program: str) -> Iterator[str]:
    """Candidate command lines of one page: in its example blocks and after a prompt, any
    line; in its EXAMPLES section, the lines that start with the page's own program."""
    found = SECTION.search(text)
    section = (found.end(), len(text)) if found else (0, 0)
    if found:
        end = re.search(r"^\.S[Hh]\s", text[found.end() :], re.M)
        section = (found.end(), found.end() + end.start() if end else len(text))
    offset, in_block = 0, False
    for raw in text.splitlines(keepends=True):
        start, offset = offset, offset + len(raw)
        line = raw.rstrip("\n")
        if re.match(r"^\.(nf|EX)\b", line):
            in_block = True
            continue
        if re.match(r"^\.(fi|EE)\b", line):
            in_block = False
            continue
        bold = re.match(r"^\.(B|I)\s+(.*)$", line)
        if bold:
            line = bold.group(2).replace('"', "")
        elif line.startswith((".", "'")):
            continue
        command, prompted = _prompted(clean(line))
        own = section[0] <= start < section[1] and command.split(" ", 1)[0] == program
        if in_block or prompted or own:
            yield command


PROGRAM = re.compile(r"^[a-z][\w.+-]*$")


def keep(command: str, source: str, programs: frozenset[str]) -> bool:
    """A command line, not prose: a sheet's lines are commands by construction; a man page's
    must start with a program that has a man page."""
    if not command or "\\" in command or len(command) > 300 or PROSE.search(command):
        return False
    words = command.split()
    first = words[0]
    if len(words) < 2 or not PROGRAM.match(first):
        return False
    return not source.startswith("man:") or first in programs


def page_paths(scratch: str) -> list[str]:
    """The installed man pages and those of ``DEBIAN_PACKAGES``, extracted under ``scratch``."""
    debs = os.path.join(scratch, "debs")
    os.makedirs(debs)
    for package in DEBIAN_PACKAGES:
        subprocess.run(["apt-get", "download", "-q", package], cwd=debs, capture_output=True, check=False)
    root = os.path.join(scratch, "man")
    os.makedirs(root)
    for deb in sorted(glob.glob(os.path.join(debs, "*.deb"))):
        tree = subprocess.run(["dpkg-deb", "--fsys-tarfile", deb], capture_output=True, check=True).stdout
        subprocess.run(["tar", "x", "-C", root, "--wildcards", "./usr/share/man/man[1-8]/*"],
                       input=tree, capture_output=True, check=False)  # fmt: skip
    pages = {os.path.basename(p): p for p in glob.glob(os.path.join(root, MAN_GLOB.lstrip("/")))}
    pages.update({os.path.basename(p): p for p in glob.glob(MAN_GLOB)})  # the installed one wins
    return [pages[name] for name in sorted(pages)]


def programs_of(pages: list[str]) -> frozenset[str]:
    """Programs with a man page of their own (sections 1 and 8)."""
    return frozenset(
        os.path.basename(p).split(".")[0] for p in pages if re.search(r"/man[18]/[^/]+\.[18]", p)
    )


def man_pages(pages: list[str]) -> Iterator[tuple[str, str]]:
    """(source, command) of each man page's examples."""
    for page in pages:
        try:
            with gzip.open(page, "rt", encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except (OSError, EOFError):
            continue
        name = os.path.basename(page)
        for command in examples(text, name.split(".")[0]):
            yield f"man:{name}", command


def sheets(folder: str, kind: str) -> Iterator[tuple[str, str]]:
    """(source, command) of a folder of cheatsheets (``#`` comments, command lines) or eg
    pages (markdown: commands indented four spaces)."""
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if not os.path.isfile(path) or name.endswith(".json"):
            continue
        with open(path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if kind == "eg" and not line.startswith("    "):
                    continue
                command, _ = _prompted(line.strip())
                yield f"{kind}:{name}", command


def bundled(scratch: str) -> Iterator[tuple[str, str]]:
    for name, version, inside, kind in BUNDLES:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
             "-d", scratch, f"{name}=={version}"],
            check=True, capture_output=True,
        )  # fmt: skip
        with tarfile.open(os.path.join(scratch, f"{name}-{version}.tar.gz")) as archive:
            archive.extractall(scratch, filter="data")
        yield from sheets(os.path.join(scratch, f"{name}-{version}", inside), kind)


def extract(
    found: Iterator[tuple[str, str]], programs: frozenset[str], per_program: int = 120
) -> list[dict[str, str]]:
    seen: set[str] = set()
    per: Counter[str] = Counter()
    out: list[dict[str, str]] = []
    for source, command in found:
        if command in seen or not keep(command, source, programs):
            continue
        program = command.split()[0]
        if per[program] >= per_program:
            continue
        seen.add(command)
        per[program] += 1
        out.append({"command": command, "source": source})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=OUT)
    parser.add_argument("--per-program", type=int, default=120)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        pages = page_paths(scratch)
        found = itertools.chain(man_pages(pages), bundled(scratch))
        corpus = extract(found, programs_of(pages), per_program=args.per_program)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as handle:
        for entry in corpus:
            handle.write(json.dumps(entry, ensure_ascii=False) + "\n")
    programs = len({e["command"].split()[0] for e in corpus})
    print(f"{len(corpus)} commands of {programs} programs -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
