"""Network clients. Hosts come from URL and host:path arguments (``hosts=True``)."""

from __future__ import annotations

from bastion.call.effects import Effect
from bastion.shell.model import Access
from bastion.shell.programs.spec import NET, WRITE, FlagRule, Spec, fs, opts

E = Effect
#: The static file servers ``shell/servers.py`` knows (a test ties the two).
FILE_SERVERS = (
    "http-server",
    "serve",
    "live-server",
    "darkhttpd",
    "miniserve",
    "static-web-server",
    "caddy",
    "twistd",
)
_UPLOAD = FlagRule(value=Access.READ, note="uploads a local file")
#: curl 7.88 `curl --help all`: outputs are writes, CA/cert/key/upload files are reads,
#: proxies and DoH servers are hosts; --connect-to/--resolve/--unix-socket re-route it.
_CURL = (
    "--abstract-unix-socket=U --alt-svc=W --anyauth -a|--append --aws-sigv4= --basic "
    "--cacert=R --capath=R -E|--cert=R --cert-status --cert-type= --ciphers= --compressed "
    "--compressed-ssh -K|--config=L --connect-timeout= --connect-to=U -C|--continue-at= "
    "-b|--cookie= -c|--cookie-jar=W --create-dirs --create-file-mode= --crlf --crlfile=R "
    "--curves= -d|--data= --data-ascii= --data-binary= --data-raw= --data-urlencode= "
    "--delegation= --digest -q|--disable --disable-eprt --disable-epsv "
    "--disallow-username-in-url --dns-interface=U --dns-ipv4-addr= --dns-ipv6-addr= "
    "--dns-servers=U --doh-cert-status --doh-insecure --doh-url=N -D|--dump-header=W "
    "--egd-file=R --engine= --etag-compare=R --etag-save=W --expect100-timeout= -f|--fail "
    "--fail-early --fail-with-body --false-start -F|--form= --form-escape --form-string= "
    "--ftp-account= --ftp-alternative-to-user= --ftp-create-dirs --ftp-method= --ftp-pasv "
    "-P|--ftp-port= --ftp-pret --ftp-skip-pasv-ip --ftp-ssl-ccc --ftp-ssl-ccc-mode= "
    "--ftp-ssl-control -G|--get -g|--globoff --happy-eyeballs-timeout-ms= "
    "--haproxy-protocol -I|--head -H|--header= -h|--help? --hostpubmd5= --hostpubsha256= "
    "--hsts=W --http0.9 -0|--http1.0 --http1.1 --http2 --http2-prior-knowledge --http3 "
    "--http3-only --ignore-content-length -i|--include -k|--insecure --interface= "
    "-4|--ipv4 -6|--ipv6 --json= -j|--junk-session-cookies --keepalive-time= --key=R "
    "--key-type= --krb= --libcurl=W --limit-rate= -l|--list-only --local-port= "
    "-L|--location --location-trusted --login-options= --mail-auth= --mail-from= "
    "--mail-rcpt= --mail-rcpt-allowfails -M|--manual --max-filesize= --max-redirs= "
    "-m|--max-time= --metalink --negotiate -n|--netrc --netrc-file=R --netrc-optional "
    "--next --no-alpn -N|--no-buffer --no-clobber --no-keepalive --no-npn "
    "--no-progress-meter --no-sessionid --noproxy= --ntlm --ntlm-wb --oauth2-bearer= "
    "-o|--output=W --output-dir=W -Z|--parallel --parallel-immediate --parallel-max= "
    "--pass= --path-as-is --pinnedpubkey= --post301 --post302 --post303 --preproxy=N "
    "-#|--progress-bar --proto= --proto-default= --proto-redir= -x|--proxy=N "
    "--proxy-anyauth --proxy-basic --proxy-cacert=R --proxy-capath=R --proxy-cert=R "
    "--proxy-cert-type= --proxy-ciphers= --proxy-crlfile=R --proxy-digest --proxy-header= "
    "--proxy-insecure --proxy-key=R --proxy-key-type= --proxy-negotiate --proxy-ntlm "
    "--proxy-pass= --proxy-pinnedpubkey= --proxy-service-name= --proxy-ssl-allow-beast "
    "--proxy-ssl-auto-client-cert --proxy-tls13-ciphers= --proxy-tlsauthtype= "
    "--proxy-tlspassword= --proxy-tlsuser= --proxy-tlsv1 -U|--proxy-user= --proxy1.0 "
    "-p|--proxytunnel --pubkey=R -Q|--quote= --random-file=R -r|--range= --rate= --raw "
    "-e|--referer= -J|--remote-header-name!W -O|--remote-name!W --remote-name-all!W "
    "-R|--remote-time --remove-on-error -X|--request= --request-target= --resolve=U "
    "--retry= --retry-all-errors --retry-connrefused --retry-delay= --retry-max-time= "
    "--sasl-authzid= --sasl-ir --service-name= -S|--show-error -s|--silent --socks4=N "
    "--socks4a=N --socks5=N --socks5-basic --socks5-gssapi --socks5-gssapi-nec "
    "--socks5-gssapi-service= --socks5-hostname=N -Y|--speed-limit= -y|--speed-time= --ssl "
    "--ssl-allow-beast --ssl-auto-client-cert --ssl-no-revoke --ssl-reqd "
    "--ssl-revoke-best-effort -2|--sslv2 -3|--sslv3 --stderr=W --styled-output "
    "--suppress-connect-headers --tcp-fastopen --tcp-nodelay -t|--telnet-option= "
    "--tftp-blksize= --tftp-no-options -z|--time-cond= --tls-max= --tls13-ciphers= "
    "--tlsauthtype= --tlspassword= --tlsuser= -1|--tlsv1 --tlsv1 --tlsv1 --tlsv1 --tlsv1 "
    "--tr-encoding --trace=W --trace-ascii=W --trace-time --unix-socket=K "
    "-T|--upload-file=R --url=N --url-query= -B|--use-ascii -u|--user= -A|--user-agent= "
    "-v|--verbose -V|--version -w|--write-out= --xattr"
)

PROGRAMS: dict[str, Spec] = {
    "curl": opts(
        Spec(
            NET,
            hosts=True,
            handler="curl",
            takes_value=fs(
                "-o",
                "-d",
                "-T",
                "-F",
                "-H",
                "-X",
                "-u",
                "-A",
                "-e",
                "-b",
                "-c",
                "-K",
                "-x",
                "-w",
                "-m",
                "-r",
                "-E",
                "-U",
                "-y",
                "-Y",
                "-z",
                "-C",
                "-D",
                "-P",
                "-Q",
                "--output",
                "--data",
                "--data-binary",
                "--data-raw",
                "--data-urlencode",
                "--upload-file",
                "--form",
                "--header",
                "--request",
                "--user",
                "--user-agent",
                "--referer",
                "--cookie",
                "--cookie-jar",
                "--config",
                "--proxy",
                "--write-out",
                "--max-time",
                "--connect-timeout",
                "--retry",
                "--cert",
                "--key",
                "--cacert",
                "--url",
                "--resolve",
                "--json",
                "--dump-header",
                "--output-dir",
                "--netrc-file",
                "--trace",
                "--trace-ascii",
                "--stderr",
                "--data-ascii",
                "--form-string",
                "--proxy-user",
                "--oauth2-bearer",
                "--range",
                "--limit-rate",
            ),
            aliases={
                "--output": "-o",
                "--upload-file": "-T",
                "--config": "-K",
                "--cookie-jar": "-c",
                "--dump-header": "-D",
                "--remote-name": "-O",
                "--remote-name-all": "-O",
                "--url": "--url",
            },
            flags={
                "-o": FlagRule(WRITE, value=Access.WRITE, note="curl -o writes the download"),
                "-O": FlagRule(WRITE, note="curl -O writes the download in the cwd"),
                "-T": FlagRule(value=Access.READ, note="curl -T uploads a local file"),
                "-K": FlagRule(
                    frozenset({E.UNKNOWN}),
                    value=Access.READ,
                    note="curl -K takes further options from a file",
                    runs="urls",
                ),
                "-c": FlagRule(WRITE, value=Access.WRITE),
                "-D": FlagRule(WRITE, value=Access.WRITE),
                "--output-dir": FlagRule(WRITE, value=Access.WRITE),
                "--trace": FlagRule(WRITE, value=Access.WRITE),
                "--netrc-file": FlagRule(value=Access.READ),
                "--cert": FlagRule(value=Access.READ),
                "--key": FlagRule(value=Access.READ),
            },
        ),
        _CURL,
    ),
    "wget": Spec(
        frozenset({E.NETWORK, E.WRITE}),
        hosts=True,
        handler="wget",
        takes_value=fs(
            "-O",
            "-o",
            "-P",
            "-a",
            "-i",
            "-U",
            "--output-document",
            "--output-file",
            "--directory-prefix",
            "--input-file",
            "--post-file",
            "--body-file",
            "--header",
            "--user",
            "--password",
            "--post-data",
            "--user-agent",
            "-e",
            "--execute",
        ),
        aliases={
            "--output-document": "-O",
            "--directory-prefix": "-P",
            "--input-file": "-i",
            "--output-file": "-o",
            "--execute": "-e",
            "--post-file": "--body-file",
        },
        flags={
            "-O": FlagRule(value=Access.WRITE),
            "-P": FlagRule(value=Access.WRITE),
            "-o": FlagRule(value=Access.WRITE),
            "-i": FlagRule(value=Access.READ, runs="urls"),
            "--body-file": _UPLOAD,
            "-e": FlagRule(frozenset({E.CODE}), note="wget -e runs a wgetrc command"),
        },
    ),
    "http": Spec(
        NET,
        hosts=True,
        takes_value=fs("-o", "--output", "-a", "--auth"),
        flags={
            "-o": FlagRule(WRITE, value=Access.WRITE),
            "-d": FlagRule(WRITE, note="httpie --download writes a file"),
        },
        aliases={"--output": "-o", "--download": "-d"},
    ),
    "ssh": Spec(frozenset({E.NETWORK}), handler="ssh"),
    # Static file servers (shell/servers.py): the folder they hand out is read below.
    **{
        n: Spec(frozenset({E.NETWORK, E.UNKNOWN}), handler="file_server", open_args=True)
        for n in FILE_SERVERS
    },
    # The key it works on (-f) is read: -y prints what a private key holds, -e exports it.
    "ssh-keygen": opts(
        Spec(frozenset({E.WRITE})),
        "-f=R -y -l -e -i -p -q -v -B -H -K -L -c -k -Q -A -U -u -g -h -E= -t= -b= -C= -N= -P= -m= -Z= "
        "-a= -O= -F=N -R=N -s=R -I= -n= -V= -z= -D=X -r=N -w=X -Y= -M=",
    ),
    "scp": Spec(
        frozenset({E.NETWORK}),
        handler="remote_copy",
        takes_value=fs("-P", "-i", "-o", "-F", "-c", "-l", "-S", "-J"),
    ),
    "sftp": Spec(frozenset({E.NETWORK, E.WRITE}), hosts=True, takes_value=fs("-P", "-i", "-o", "-F", "-b")),
    "rsync": Spec(
        frozenset({E.WRITE}),
        handler="remote_copy",
        takes_value=fs(
            "-e",
            "--rsh",
            "--exclude",
            "--include",
            "--filter",
            "--rsync-path",
            "--exclude-from",
            "--include-from",
            "--files-from",
            "-f",
            "--chmod",
            "--chown",
            "--port",
            "--password-file",
            "--log-file",
            "-T",
            "--temp-dir",
        ),
        aliases={
            "--rsh": "-e",
            "--delete-after": "--delete",
            "--delete-before": "--delete",
            "--delete-during": "--delete",
            "--delete-excluded": "--delete",
            "--remove-source-files": "--delete",
        },
        flags={
            "-e": FlagRule(frozenset({E.CODE}), note="rsync -e runs a program"),
            "--rsync-path": FlagRule(frozenset({E.CODE}), note="--rsync-path runs a remote program"),
            "--delete": FlagRule(frozenset({E.DELETE}), note="rsync --delete removes files"),
        },
    ),
    **{
        n: Spec(NET, handler="hosts_positional")
        for n in (
            "ping",
            "ping6",
            "traceroute",
            "tracepath",
            "mtr",
            "dig",
            "nslookup",
            "host",
            "whois",
            "telnet",
            "nc",
            "ncat",
            "netcat",
            "ftp",
            "socat",
            "nmap",
            "openssl",
            "ab",
            "wrk",
            "hey",
            "grpcurl",
            "websocat",
        )
    },
    "aria2c": Spec(frozenset({E.NETWORK, E.WRITE}), hosts=True),
    "ss": Spec(frozenset({E.READ}), reader=True),
    "netstat": Spec(frozenset({E.READ}), reader=True),
}
