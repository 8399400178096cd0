"""Static file servers read the folder they hand out, recursively (shell/servers.py): by its
option, its first operand, or the working directory."""

from __future__ import annotations

import pytest
from helpers import only

from bastion.shell.programs.network import FILE_SERVERS
from bastion.shell.servers import SERVERS


def test_the_program_table_and_the_servers_agree() -> None:
    assert sorted(FILE_SERVERS) == sorted(SERVERS)


@pytest.mark.parametrize(
    ("command", "served"),
    [
        ("http-server ~/x -p 8000", "~/x"),
        ("http-server -p 8000", "."),
        ("serve -l 3000 dist", "dist"),
        ("darkhttpd /srv/www --port 8080", "/srv/www"),
        ("static-web-server --port 8787 --root ./public", "./public"),
        ("static-web-server -d=out", "out"),
        ("caddy file-server --listen :80 -r site", "site"),
        ("twistd -n web --port tcp:8080 --path /tmp/w", "/tmp/w"),
        ("php -S 0.0.0.0:8000 -t docs", "docs"),
        ("php -S 0.0.0.0:8000", "."),
        ("ruby -run -e httpd pub -p 8000", "pub"),
        ("python3 -m http.server -b 127.0.0.1 --directory site 8000", "site"),
        ("python2 -m SimpleHTTPServer 8000", "."),
    ],
)
def test_a_server_reads_everything_below_the_folder_it_serves(command: str, served: str) -> None:
    uses = [(u.path, u.recursive) for u in only(command).paths if "serves every file" in u.why]
    assert uses == [(served, True)]
