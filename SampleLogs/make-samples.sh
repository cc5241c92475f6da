#!/usr/bin/env bash
# make-samples.sh OUTDIR
#
# Regenerates the sample nginx access logs of uaaudit with a REAL nginx:
#   OUTDIR/ua_log.log        format ua_log (default escaping),  TZ +0800 (CST-8, as Asia/Shanghai)
#   OUTDIR/ua_log_json.log   format ua_log with escape=json,    TZ +0530 (IST-5:30, as Asia/Kolkata)
#   OUTDIR/combined.log      nginx's predefined "combined",     TZ +0000 (UTC0)
#   OUTDIR/ua_log.log.gz     ua_log.log as TWO concatenated gzip members (first half, second half)
#   OUTDIR/malformed.log     real ua_log lines interleaved with malformed ones
#   OUTDIR/manifest.json     line counts and the expected class counts, computed from what was SENT
#
# It starts three throw-away nginx instances (one per log, because the time zone is per
# process) on free 127.0.0.1 ports, each with its own prefix under a temp dir, sends every
# request to each of them, stops them (always, through a trap) and copies the logs to OUTDIR.
# Nothing is written outside the temp dir and OUTDIR. Only the files listed above are
# (over)written in OUTDIR; other files there (README.md, *.expected.json) are left alone.
#
# Needs: bash, coreutils, curl, python3 (stdlib only), nginx (/usr/sbin/nginx or $NGINX).
# Optional: Debian's libfaketime. When it is found, the first half of the requests is sent
# while nginx's clock says 2024-03-31T15:45:00Z and the second half at 2024-03-31T16:45:00Z,
# so every log spans two hours (and ua_log.log, at +0800, crosses midnight and a month:
# 31/Mar/2024:23:45 -> 01/Apr/2024:00:45). Without it the real clock is used.
#
# Environment (all optional):
#   NGINX=/path/to/nginx          nginx binary (default: nginx on PATH, else /usr/sbin/nginx)
#   SAMPLES_FAKETIME=auto|0|1     auto (default): use libfaketime if found; 0: never; 1: required
#   FAKETIME_LIB=/path/lib.so.1   libfaketime to LD_PRELOAD (default: searched under /usr/lib)
#   SAMPLES_KEEP_WORKDIR=1        keep the temp dir (nginx prefixes, error logs) for debugging
#
# Exit status: 0 on success; non-zero (with a message on stderr) if nginx does not start,
# a request fails, or the logs nginx wrote do not match what was sent.
set -euo pipefail

usage() { echo "usage: $0 OUTDIR" >&2; exit 2; }
[ $# -eq 1 ] || usage
OUTDIR=$1
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)

if [ -n "${NGINX:-}" ]; then :
elif command -v nginx >/dev/null 2>&1; then NGINX=$(command -v nginx)
else NGINX=/usr/sbin/nginx
fi
[ -x "$NGINX" ] || { echo "make-samples: nginx not found (set NGINX=...)" >&2; exit 1; }
for tool in curl python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "make-samples: $tool not found" >&2; exit 1; }
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/uaaudit-samples.XXXXXX")
NGINX_PIDS=()

stop_nginx() {
  local pid
  for pid in "${NGINX_PIDS[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      kill -QUIT "$pid" 2>/dev/null || true
    fi
  done
  for pid in "${NGINX_PIDS[@]}"; do
    local n=0
    while kill -0 "$pid" 2>/dev/null && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
    if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
    wait "$pid" 2>/dev/null || true
  done
  NGINX_PIDS=()
}

cleanup() {
  local rc=$?
  stop_nginx
  if [ "${SAMPLES_KEEP_WORKDIR:-0}" = 1 ]; then
    echo "make-samples: work dir kept: $WORK" >&2
  else
    rm -rf "$WORK"
  fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- faketime (optional)
FAKETIME_MODE=${SAMPLES_FAKETIME:-auto}
FT_LIB=""
if [ "$FAKETIME_MODE" != 0 ]; then
  if [ -n "${FAKETIME_LIB:-}" ]; then
    FT_LIB=$FAKETIME_LIB
  else
    for f in /usr/lib/*/faketime/libfaketime.so.1 /usr/lib/faketime/libfaketime.so.1 /usr/local/lib/faketime/libfaketime.so.1; do
      if [ -f "$f" ]; then FT_LIB=$f; break; fi
    done
  fi
  if [ -n "$FT_LIB" ] && [ ! -f "$FT_LIB" ]; then FT_LIB=""; fi
  if [ -z "$FT_LIB" ] && [ "$FAKETIME_MODE" = 1 ]; then
    echo "make-samples: SAMPLES_FAKETIME=1 but libfaketime was not found (apt-get install faketime)" >&2
    exit 1
  fi
fi

# ---------------------------------------------------------------- python helper
HELPER=$WORK/helper.py
cat >"$HELPER" <<'PYTHON'
import base64, gzip, hashlib, json, os, re, socket, subprocess, sys, time
from datetime import datetime, timedelta, timezone

WORK = os.environ["SAMPLES_WORK"]

# The built-in rules (rules/builtin.json), applied by the SENDER to the UA it sends.
RULES = [
    ("webview", re.compile(r"MyApp/\d+\.\d+\.\d+ \(iPhone;.*iOS \d+_\d+\).*Safari/\d+\.\d+", re.ASCII)),
    ("urlsession", re.compile(r"MyApp/\d+\.\d+\.\d+ \(iPhone;.*iOS \d+_\d+\)", re.ASCII)),
    ("inconsistent", re.compile(r"com\.apple\.CFNetwork|Mozilla/5\.0 \(iPhone; CPU iPhone OS \d+_\d+ like Mac OS X\)", re.ASCII)),
]
CLASSES = ["inconsistent", "missing", "other", "urlsession", "webview"]

# instance name -> (log file, nginx log format, POSIX TZ, UTC offset as nginx prints it)
INSTANCES = {
    "a": ("ua_log.log", "ua_log", "CST-8", "+0800"),
    "b": ("ua_log_json.log", "ua_log_json", "IST-5:30", "+0530"),
    "c": ("combined.log", "combined", "UTC0", "+0000"),
}
# UTC instants at which nginx's (faked) clock starts in phase 1 and phase 2.
PHASE_UTC = {1: datetime(2024, 3, 31, 15, 45, 0, tzinfo=timezone.utc),
             2: datetime(2024, 3, 31, 16, 45, 0, tzinfo=timezone.utc)}


def classify(ua):
    """Expected class of a UA header value as sent (bytes), or None if no header was sent."""
    if ua is None:
        return "missing"
    # Every byte is one char; HTTP's optional whitespace around a field value is not part of it.
    v = ua.decode("latin-1").strip(" \t")
    # nginx logs an absent UA as "-", so a UA that is literally "-" can only count as missing.
    if v == "" or v == "-":
        return "missing"
    for cls, rx in RULES:
        if rx.search(v):
            return cls
    return "other"


# ---------------------------------------------------------------- the requests
UA_URLSESSION = b"MyApp/5.12.1 (iPhone; iPhone15,3; Scale/3.00; iOS 17_4)"
UA_URLSESSION_OLD = b"MyApp/5.11.0 (iPhone; iPhone14,2; Scale/3.00; iOS 16_7)"
UA_URLSESSION_SE = b"MyApp/5.12.1 (iPhone; iPhone12,8; Scale/2.00; iOS 17_3)"
UA_WEBVIEW = (b"MyApp/5.12.1 (iPhone; iPhone15,3; iOS 17_4) Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) "
              b"AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari/604.1")
UA_WEBVIEW_OLD = (b"MyApp/5.11.0 (iPhone; iPhone14,2; iOS 16_7) Mozilla/5.0 (iPhone; CPU iPhone OS 16_7 like Mac OS X) "
                  b"AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari/604.1")
UA_CFN_MYAPP = b"MyApp/5.12.1 CFNetwork/1494.0.7 Darwin/23.4.0 com.apple.CFNetwork"
UA_YOURSDK = b"YourSDK/1.0 com.apple.CFNetwork/1494.0.7"
UA_SAFARI = (b"Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
             b"Version/17.2 Mobile/15E148 Safari/604.1")
UA_DEFAULT_URLSESSION = b"MyApp/51200 CFNetwork/1494.0.7 Darwin/23.4.0"
UA_CHROME = (b"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) "
             b"Chrome/123.0.0.0 Safari/537.36")
UA_BOT = b"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
UA_IPAD = b"MyApp/5.12.1 (iPad; iPad13,4; Scale/2.00; iPadOS 17_4)"


def long_ua(total=7900):
    head = UA_URLSESSION + b" Padding/"
    pad = (b"0123456789" * (total // 10 + 1))[: total - len(head)]
    return head + pad


def curl_ua():
    out = subprocess.run(["curl", "--version"], check=True, capture_output=True).stdout.decode()
    return ("curl/" + out.split()[1]).encode()


def tls_client_hello():
    """A plausible TLS 1.2/1.3 ClientHello with SNI, with fixed pseudo-random bytes."""
    rnd = hashlib.sha256(b"uaaudit-client-random").digest()
    sid = hashlib.sha256(b"uaaudit-session-id").digest()
    ciphers = bytes.fromhex("130113021303c02bc02fc02cc030cca9cca8c013c014009c009d002f0035")
    host = b"example.com"
    sni = b"\x00" + len(host).to_bytes(2, "big") + host
    sni = len(sni).to_bytes(2, "big") + sni
    ext = b"\x00\x00" + len(sni).to_bytes(2, "big") + sni
    ext += bytes.fromhex("000a000800060017001d0018")          # supported_groups
    ext += bytes.fromhex("000b00020100")                      # ec_point_formats
    ext += bytes.fromhex("002b0005040304030303")              # supported_versions (wire len 5)
    body = (b"\x03\x03" + rnd + bytes([len(sid)]) + sid + len(ciphers).to_bytes(2, "big") + ciphers
            + b"\x01\x00" + len(ext).to_bytes(2, "big") + ext)
    hs = b"\x01" + len(body).to_bytes(3, "big") + body
    return b"\x16\x03\x01" + len(hs).to_bytes(2, "big") + hs


def build_requests():
    """Every request, in a fixed order. Each dict: label, kind, ua (bytes|None), and what to send."""
    reqs = []

    def add(label, ua, path, kind="http", **kw):
        reqs.append(dict(label=label, ua=ua, path=path, kind=kind, **kw))

    paths_us = ["/api/v1/feed", "/api/v1/profile", "/flaky/v1/config", "/retry/v1/sync",
                "/app/home", "/static/app.css", "/api/v1/messages", "/nope/old-endpoint"]
    for n in range(40):
        ua = UA_URLSESSION if n < 30 else (UA_URLSESSION_OLD if n < 36 else UA_URLSESSION_SE)
        add("urlsession", ua, paths_us[n % len(paths_us)])
    paths_wv = ["/app/webview/index.html", "/static/webview.js", "/api/v1/feed", "/app/webview/article",
                "/flaky/v1/config"]
    for n in range(20):
        add("webview", UA_WEBVIEW if n < 16 else UA_WEBVIEW_OLD, paths_wv[n % len(paths_wv)])
    add("inconsistent-cfnetwork-myapp", UA_CFN_MYAPP, "/api/v1/feed")
    add("inconsistent-cfnetwork-myapp", UA_CFN_MYAPP, "/app/home")
    add("inconsistent-yoursdk", UA_YOURSDK, "/api/v1/feed")
    add("inconsistent-yoursdk-403", UA_YOURSDK, "/app/home")
    add("inconsistent-safari-403", UA_SAFARI, "/app/home")
    add("inconsistent-safari", UA_SAFARI, "/")
    for p in ["/api/v1/feed", "/app/home", "/flaky/v1/config", "/api/v1/profile"]:
        add("other-ios-default-urlsession", UA_DEFAULT_URLSESSION, p)
    add("other-curl", None, "/", kind="curl", curl_args=[])
    add("other-curl-head", None, "/api/v1/feed", kind="curl", curl_args=["-I"])
    add("other-curl-post", None, "/api/v1/feed", kind="curl", curl_args=["-d", "q=1&r=2"])
    add("other-chrome", UA_CHROME, "/")
    add("other-chrome-403", UA_CHROME, "/app/home")
    add("other-bot", UA_BOT, "/robots.txt")
    add("other-ipad", UA_IPAD, "/api/v1/feed")
    add("missing-absent", None, "/api/v1/feed")
    add("missing-absent", None, "/")
    add("missing-absent-403", None, "/app/home")
    add("missing-empty", b"", "/api/v1/feed", empty_style=b"User-Agent:")
    add("missing-empty", b"", "/", empty_style=b"User-Agent: ")
    add("missing-spaces-only", b"   ", "/api/v1/feed")
    add("missing-literal-dash", b"-", "/api/v1/feed")
    # odd UAs
    add("odd-double-quote", UA_WEBVIEW.replace(b" Mobile/", b' "Quoted/1.0" Mobile/'), "/app/webview/article")
    add("odd-backslash", b"YourSDK\\1.0 com.apple.CFNetwork/1494.0.7 (C:\\Path\\)", "/api/v1/feed")
    add("odd-tab", b"MyApp/5.12.1 (iPhone;\tiPhone15,3; Scale/3.00; iOS 17_4)", "/api/v1/feed")
    add("odd-utf8", "MyApp/5.12.1 (iPhone; 中文; iOS 17_4)".encode("utf-8"), "/api/v1/feed")
    add("odd-invalid-utf8", b"MyApp/5.12.1 (iPhone; \xff\xfe; iOS 17_4)", "/api/v1/profile")
    add("odd-esc-sequence", b"\x1b[31mRedAgent/1.0\x1b[0m\x7f", "/")
    add("odd-literal-backslash-x", b"Agent/1.0 (\\x41\\x22)", "/")
    add("odd-long-7900", long_ua(), "/api/v1/feed")
    add("odd-remote-user-spaces-quote", UA_URLSESSION, "/api/v1/profile",
        auth=b'john "jj" doe:s3cret')
    add("odd-remote-user-plain", UA_WEBVIEW, "/app/webview/index.html", auth=b"alice:wonderland")
    add("odd-referer", UA_WEBVIEW, "/app/webview/article",
        referer=b'https://example.com/pfad/\xc3\xbc?q="quoted"&x=\xff\xfe&t=a\tb')
    add("odd-quote-in-path", UA_URLSESSION, '/api/v1/search?q="x"')
    # the str holds one char per byte (sent latin-1 encoded): UTF-8 "é" (C3 A9), then a lone FF
    add("odd-high-bytes-in-path", UA_URLSESSION, "/caf\xc3\xa9/\xff")
    # upstream trouble
    add("upstream-499-client-abort", UA_URLSESSION, "/slow/v1/stream", abort_after=0.3)
    add("upstream-504-timeout", UA_URLSESSION, "/timeout/v1/report")
    add("upstream-502-all-down", UA_WEBVIEW, "/down/v1/status")
    # raw-socket junk: no UA at all
    add("junk-tls-client-hello", None, None, kind="raw", raw=tls_client_hello())
    add("junk-crlf-then-close", None, None, kind="raw", raw=b"\r\n", shut_wr=True)
    add("junk-http09", None, "/", kind="http09")
    add("junk-ssh-banner", None, None, kind="raw", raw=b"SSH-2.0-OpenSSH_9.2\r\n")

    # A fixed, well-mixed order (independent of Python's hash seed and random module).
    for n, r in enumerate(reqs):
        r["key"] = hashlib.sha1(("%s#%d" % (r["label"], n)).encode()).hexdigest()
    reqs.sort(key=lambda r: r["key"])
    cu = curl_ua()
    for seq, r in enumerate(reqs, 1):
        r["seq"] = seq
        if r["kind"] == "curl":
            r["ua"] = cu               # what curl sends by default
        r["class"] = classify(r["ua"])
        if r["path"] is not None:
            r["path"] += ("&" if "?" in r["path"] else "?") + "i=%03d" % seq
    return reqs


# ---------------------------------------------------------------- sending
def recv_all(s, timeout=10.0):
    s.settimeout(timeout)
    out = b""
    while True:
        d = s.recv(65536)
        if not d:
            return out
        out += d


def send_http(port, r):
    path = r["path"].encode("latin-1")
    lines = [b"GET " + path + b" HTTP/1.1", b"Host: 127.0.0.1:%d" % port]
    if r["ua"] is not None:
        lines.append(r.get("empty_style") or (b"User-Agent: " + r["ua"]))
    lines.append(b"Accept: */*")
    if "referer" in r:
        lines.append(b"Referer: " + r["referer"])
    if "auth" in r:
        lines.append(b"Authorization: Basic " + base64.b64encode(r["auth"]))
    lines.append(b"Connection: close")
    data = b"\r\n".join(lines) + b"\r\n\r\n"
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        s.sendall(data)
        if "abort_after" in r:
            time.sleep(r["abort_after"])
            return b""
        resp = recv_all(s)
    finally:
        s.close()
    if not resp.startswith(b"HTTP/1.1 "):
        raise SystemExit("make-samples: bad response to %s: %r" % (r["label"], resp[:80]))
    return resp


def send_raw(port, r):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        if r["kind"] == "http09":
            s.sendall(b"GET " + r["path"].encode("latin-1") + b"\r\n")
        else:
            s.sendall(r["raw"])
        if r.get("shut_wr"):
            s.shutdown(socket.SHUT_WR)
        return recv_all(s)
    finally:
        s.close()


def send_curl(port, r):
    url = "http://127.0.0.1:%d%s" % (port, r["path"])
    subprocess.run(["curl", "-q", "-sS", "--noproxy", "*", "-o", "/dev/null", "--max-time", "10"] + r["curl_args"] + [url],
                   check=True)


def cmd_send(phase):
    ports = json.load(open(os.path.join(WORK, "ports.json")))
    reqs = build_requests()
    half = (len(reqs) + 1) // 2
    part = reqs[:half] if phase == 1 else reqs[half:]
    # The never-answering upstream: the kernel completes the TCP handshake (listen backlog),
    # but nobody ever accept()s or answers, so nginx waits for the response header.
    bh = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    bh.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    bh.bind(("127.0.0.1", ports["blackhole"]))
    bh.listen(64)
    try:
        for r in part:
            for inst in sorted(INSTANCES):
                port = ports[inst]["front"]
                if r["kind"] == "http":
                    send_http(port, r)
                elif r["kind"] == "curl":
                    send_curl(port, r)
                else:
                    send_raw(port, r)
                if "abort_after" in r:
                    time.sleep(0.3)     # let nginx notice the close and log the 499 first
    finally:
        bh.close()


# ---------------------------------------------------------------- ports / configs
def cmd_ports():
    socks, ports = [], []
    for _ in range(len(INSTANCES) * 3 + 2):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    out = {"closed": ports.pop(), "blackhole": ports.pop()}
    for inst in sorted(INSTANCES):
        out[inst] = {"front": ports.pop(), "ok": ports.pop(), "e503": ports.pop()}
    json.dump(out, open(os.path.join(WORK, "ports.json"), "w"), indent=1)


UA_LOG_FORMAT = ("'$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
                 "\"$http_referer\" \"$http_user_agent\" rt=$request_time uct=\"$upstream_connect_time\" "
                 "uht=\"$upstream_header_time\" urt=\"$upstream_response_time\"'")

CONF = """# generated by make-samples.sh; instance {inst}: {logfile}
{user}worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log info;
env FAKETIME;
env FAKETIME_DONT_FAKE_MONOTONIC;
events {{ worker_connections 256; }}
http {{
    client_body_temp_path {prefix}/tmp/body;
    proxy_temp_path {prefix}/tmp/proxy;
    fastcgi_temp_path {prefix}/tmp/fastcgi;
    uwsgi_temp_path {prefix}/tmp/uwsgi;
    scgi_temp_path {prefix}/tmp/scgi;
    default_type text/plain;
    access_log off;

    log_format ua_log {fmt};
    log_format ua_log_json escape=json {fmt};

    upstream backend_ok {{ server 127.0.0.1:{ok}; }}
    # first peer refuses connections (nothing listens), second one works:
    # upstream times become lists like "-, 0.001"
    upstream flaky {{ server 127.0.0.1:{closed} max_fails=0; server 127.0.0.1:{ok} backup; }}
    # first peer answers 503, second one works: lists like "0.000, 0.001"
    upstream retry503 {{ server 127.0.0.1:{e503} max_fails=0; server 127.0.0.1:{ok} backup; }}
    upstream all_down {{ server 127.0.0.1:{closed} max_fails=0; }}
    upstream blackhole {{ server 127.0.0.1:{blackhole} max_fails=0; }}

    server {{
        listen 127.0.0.1:{front};
        server_name _;
        access_log {prefix}/logs/{logfile} {format};

        location = / {{ return 200 "ok\\n"; }}
        location = /robots.txt {{ return 404; }}
        location /api/ {{ proxy_pass http://backend_ok; }}
        location /flaky/ {{ proxy_pass http://flaky; proxy_next_upstream error; }}
        location /retry/ {{ proxy_pass http://retry503; proxy_next_upstream error http_503; }}
        location /down/ {{ proxy_pass http://all_down; }}
        location /slow/ {{ proxy_pass http://blackhole; }}
        location /timeout/ {{ proxy_pass http://blackhole; proxy_read_timeout 300ms; }}
        location /app/ {{
            if ($http_user_agent !~ "MyApp/") {{ return 403; }}
            return 200 "app ok\\n";
        }}
        location /static/ {{ return 200 "static\\n"; }}
        location / {{ return 404; }}
    }}
    server {{
        listen 127.0.0.1:{ok};
        location / {{ return 200 "backend ok\\n"; }}
    }}
    server {{
        listen 127.0.0.1:{e503};
        location / {{ return 503; }}
    }}
}}
"""


def cmd_conf(inst):
    ports = json.load(open(os.path.join(WORK, "ports.json")))
    prefix = os.path.join(WORK, inst)
    for d in ("logs", "tmp"):
        os.makedirs(os.path.join(prefix, d), exist_ok=True)
    logfile, fmt_name, tz, _ = INSTANCES[inst]
    conf = CONF.format(inst=inst, logfile=logfile, prefix=prefix, fmt=UA_LOG_FORMAT, format=fmt_name,
                       user="user root;\n" if os.geteuid() == 0 else "",
                       closed=ports["closed"], blackhole=ports["blackhole"], **ports[inst])
    open(os.path.join(prefix, "nginx.conf"), "w").write(conf)
    # "TZ FAKETIME PORT": read by the shell
    print(tz, ports[inst]["front"])


def cmd_faketime(inst, phase):
    """FAKETIME value: the phase's UTC instant written in the instance's local time."""
    off = INSTANCES[inst][3]
    sign = 1 if off[0] == "+" else -1
    tzinfo = timezone(sign * timedelta(hours=int(off[1:3]), minutes=int(off[3:5])))
    print("@" + PHASE_UTC[phase].astimezone(tzinfo).strftime("%Y-%m-%d %H:%M:%S"))


# ---------------------------------------------------------------- finishing
def read_lines(path):
    data = open(path, "rb").read()
    if data and not data.endswith(b"\n"):
        raise SystemExit("make-samples: %s does not end with a newline" % path)
    return data.split(b"\n")[:-1]


def counts(classes):
    c = {k: 0 for k in CLASSES}
    for x in classes:
        c[x] += 1
    return c


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def cmd_finish(outdir, used_faketime):
    reqs = build_requests()
    nginx_version = subprocess.run([os.environ["NGINX"], "-v"], capture_output=True).stderr.decode().strip()
    files = {}
    logs = {}
    for inst, (logfile, fmt_name, tz, off) in sorted(INSTANCES.items()):
        lines = read_lines(os.path.join(WORK, inst, "logs", logfile))
        # Sanity checks only (the expected classes come from build_requests, not from the log):
        # one line per request, in the order sent.
        if len(lines) != len(reqs):
            raise SystemExit("make-samples: %s has %d lines, %d requests were sent"
                             % (logfile, len(lines), len(reqs)))
        for line, r in zip(lines, reqs):
            m = re.search(rb"[?&]i=(\d{3})\b", line)
            if r["path"] is not None and (m is None or int(m.group(1)) != r["seq"]):
                raise SystemExit("make-samples: %s: line for request %d (%s) out of order: %r"
                                 % (logfile, r["seq"], r["label"], line[:120]))
        logs[inst] = lines
        write(os.path.join(outdir, logfile), b"".join(l + b"\n" for l in lines))
        files[logfile] = {
            "format": fmt_name,
            "utc_offset": off,
            "lines": len(lines),
            "expected_classes": counts(r["class"] for r in reqs),
        }

    # ua_log.log.gz: two gzip members (first half of the lines, then the second half), concatenated.
    a = logs["a"]
    half = len(a) // 2
    gz = (gzip.compress(b"".join(l + b"\n" for l in a[:half]), mtime=0)
          + gzip.compress(b"".join(l + b"\n" for l in a[half:]), mtime=0))
    assert gzip.decompress(gz) == b"".join(l + b"\n" for l in a)
    write(os.path.join(outdir, "ua_log.log.gz"), gz)
    files["ua_log.log.gz"] = dict(files["ua_log.log"], gzip_members=2,
                                  gzip_member_lines=[half, len(a) - half])

    # malformed.log: real ua_log lines (chosen by what was sent) and malformed ones.
    by_label = {}
    for idx, r in enumerate(reqs):
        by_label.setdefault(r["label"], []).append(idx)

    def valid(label, k=0):
        idx = by_label[label][k]
        return ("valid", a[idx], reqs[idx]["class"], "%s, ua_log.log line %d" % (label, idx + 1))

    err_lines = open(os.path.join(WORK, "a", "error.log"), "rb").read().split(b"\n")
    err = next(l for l in err_lines if b"[error]" in l and b"connect() failed" in l)
    comb_idx = by_label["inconsistent-safari"][0]
    trunc_idx = by_label["odd-double-quote"][0]
    trunc_src = a[trunc_idx]
    cut = trunc_src.index(b"Quoted") + 3           # ends inside the quoted UA
    entries = [
        valid("urlsession"),
        valid("webview"),
        ("malformed", trunc_src[:cut], None, "truncated prefix of ua_log.log line %d (ends inside the UA)" % (trunc_idx + 1)),
        valid("junk-tls-client-hello"),
        ("malformed", logs["c"][comb_idx], None, "combined-format line (combined.log line %d)" % (comb_idx + 1)),
        valid("inconsistent-yoursdk"),
        ("malformed", err, None, "nginx error-log line (from the ua_log.log instance's error.log)"),
        valid("odd-esc-sequence"),
        ("malformed", b"", None, "empty line"),
        valid("odd-tab"),
        ("malformed", b"\x00\x01\x02GARBAGE\xff\xfe\x1f\x8b\x08\x00\xde\xad\xbe\xef\x7f\x00end", None,
         "binary garbage with NUL bytes"),
        valid("missing-absent"),
        valid("odd-remote-user-spaces-quote"),
        valid("other-ios-default-urlsession"),
        valid("missing-literal-dash"),
        valid("odd-invalid-utf8"),
        valid("webview", 1),               # last line, written WITHOUT a trailing newline
    ]
    body = b"\n".join(e[1] for e in entries)  # no "\n" after the last line
    write(os.path.join(outdir, "malformed.log"), body)
    files["malformed.log"] = {
        "format": "ua_log",
        "utc_offset": INSTANCES["a"][3],
        "lines": len(entries),
        "valid_lines": sum(1 for e in entries if e[0] == "valid"),
        "malformed_lines": sum(1 for e in entries if e[0] == "malformed"),
        "last_line_has_newline": False,
        "expected_classes": counts(e[2] for e in entries if e[0] == "valid"),
        "line_kinds": [("valid %s (%s)" % (e[2], e[3])) if e[0] == "valid" else "malformed: " + e[3]
                       for e in entries],
    }

    manifest = {
        "generator": "SampleLogs/make-samples.sh",
        "nginx_version": nginx_version.split("/")[-1],
        "requests_sent_per_log": len(reqs),
        "faketime": bool(used_faketime),
        "clock": ({"phase1_utc_start": PHASE_UTC[1].strftime("%Y-%m-%dT%H:%M:%SZ"),
                   "phase2_utc_start": PHASE_UTC[2].strftime("%Y-%m-%dT%H:%M:%SZ"),
                   "phase1_requests": (len(reqs) + 1) // 2,
                   "phase2_requests": len(reqs) - (len(reqs) + 1) // 2}
                  if used_faketime else "real clock (libfaketime not used)"),
        "classes_note": "expected_classes come from the User-Agent values the script SENT, classified "
                        "with the built-in rules (first match wins); missing = no UA header, an empty "
                        "(or spaces-only) one, or a UA that is literally '-'; raw-socket junk has no UA.",
        "files": files,
    }
    write(os.path.join(outdir, "manifest.json"),
          (json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=True) + "\n").encode())


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "ports":
        cmd_ports()
    elif cmd == "conf":
        cmd_conf(sys.argv[2])
    elif cmd == "faketime":
        cmd_faketime(sys.argv[2], int(sys.argv[3]))
    elif cmd == "send":
        cmd_send(int(sys.argv[2]))
    elif cmd == "finish":
        cmd_finish(sys.argv[2], sys.argv[3] == "1")
    else:
        raise SystemExit("unknown helper command " + cmd)
PYTHON

export SAMPLES_WORK=$WORK NGINX
helper() { python3 "$HELPER" "$@"; }

helper ports
INSTANCES=(a b c)
declare -A TZ_OF PORT_OF
for inst in "${INSTANCES[@]}"; do
  read -r tz port < <(helper conf "$inst")
  [ -n "${port:-}" ] || { echo "make-samples: could not write the nginx config for $inst" >&2; exit 1; }
  TZ_OF[$inst]=$tz
  PORT_OF[$inst]=$port
done

wait_port() { # PORT PID
  local n=0
  until python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close()' "$1" 2>/dev/null; do
    kill -0 "$2" 2>/dev/null || return 1
    n=$((n + 1)); [ $n -lt 100 ] || return 1
    sleep 0.05
  done
}

start_nginx() { # INST PHASE
  local inst=$1 phase=$2 prefix=$WORK/$1 pid
  local -a envs=("TZ=${TZ_OF[$inst]}")
  if [ -n "$FT_LIB" ]; then
    envs+=("LD_PRELOAD=$FT_LIB" "FAKETIME=$(helper faketime "$inst" "$phase")" "FAKETIME_DONT_FAKE_MONOTONIC=1")
  fi
  env "${envs[@]}" "$NGINX" -e "$prefix/error.log" -p "$prefix" -c "$prefix/nginx.conf" -g 'daemon off;' \
    </dev/null >>"$prefix/stdout.log" 2>&1 &
  pid=$!
  NGINX_PIDS+=("$pid")
  if ! wait_port "${PORT_OF[$inst]}" "$pid"; then
    echo "make-samples: nginx ($inst) did not start; its error log:" >&2
    cat "$prefix/stdout.log" "$prefix/error.log" >&2 2>/dev/null || true
    exit 1
  fi
}

for phase in 1 2; do
  for inst in "${INSTANCES[@]}"; do start_nginx "$inst" "$phase"; done
  helper send "$phase"
  stop_nginx
done

helper finish "$OUTDIR" "$([ -n "$FT_LIB" ] && echo 1 || echo 0)"
echo "make-samples: wrote ua_log.log ua_log_json.log combined.log ua_log.log.gz malformed.log manifest.json to $OUTDIR" \
  "($([ -n "$FT_LIB" ] && echo "faketime: $FT_LIB" || echo "real clock"))"
