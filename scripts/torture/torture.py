#!/usr/bin/env python3
"""Reliability harness for `uaaudit run`: a real nginx on 127.0.0.1 under a bounded request
loop, Debian's real logrotate in six configurations, rotations between and during runs,
random SIGKILL and SIGTERM of `uaaudit run`, then a final run; every line on disk must be
counted exactly once, hour by hour. See README.md beside this file.

Loopback only: nginx listens on 127.0.0.1 and the request loop connects there and nowhere else.
"""

import argparse
import gzip
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from datetime import datetime

SCENARIOS = {
    # name: logrotate directives (besides rotate/postrotate), whether nginx reopens its log,
    # and whether logrotate itself may lose lines before they are on disk: copytruncate
    # between its copy and its truncation, compress without delay when a worker writes to
    # the rotated file after gzip read it. There the truth is the lines on disk.
    "create-delaycompress": (["create", "compress", "delaycompress"], True, False),
    "compress": (["create", "compress", "nodelaycompress"], True, True),
    "dateext": (["create", "dateext", "dateformat -%Y%m%d-%s", "compress", "delaycompress"], True, False),
    # Issue 29: a dateformat with separators inside the date, which run did not recognise.
    "dateformat": (["create", "dateext", "dateformat .%Y-%m-%d_%H%M%S", "compress", "delaycompress"], True, False),
    "numbered": (["create", "nocompress"], True, False),
    "copytruncate": (["copytruncate", "compress", "delaycompress"], False, True),
}

USER_AGENTS = [
    "MyApp/5.12.1 (iPhone; iPhone15,3; Scale/3.00; iOS 17_4)",
    "YourSDK/1.0 com.apple.CFNetwork/1494.0.7",
    "curl/8.5.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
]

LOG_FORMAT = """log_format ua_log '$remote_addr - $remote_user [$time_local] "$request" '
                      '$status $body_bytes_sent "$http_referer" "$http_user_agent" '
                      'rt=$request_time uct="$upstream_connect_time" '
                      'uht="$upstream_header_time" urt="$upstream_response_time"';"""

TIME = re.compile(rb"\[(\d{2}/\w{3}/\d{4}:\d{2}):\d{2}:\d{2} [+-]\d{4}\]")


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Nginx:
    def __init__(self, binary, root):
        self.binary, self.root = binary, root
        self.port = free_port()
        self.logs = os.path.join(root, "logs")
        self.log = os.path.join(self.logs, "access.log")
        # Every line nginx writes, also to a log nothing rotates: the truth for the lines that
        # copytruncate's window or compress without delay destroy after a run may have read them.
        self.all = os.path.join(root, "all.log")
        os.makedirs(self.logs)
        os.makedirs(os.path.join(root, "tmp"))
        self.pid = os.path.join(root, "nginx.pid")
        self.conf = os.path.join(root, "nginx.conf")
        tmp = os.path.join(root, "tmp")
        user = "user root;" if os.getuid() == 0 else ""
        with open(self.conf, "w") as f:
            f.write(f"""{user}
worker_processes 2;
pid {self.pid};
error_log {root}/error.log;
events {{ worker_connections 256; }}
http {{
    client_body_temp_path {tmp}; proxy_temp_path {tmp}; fastcgi_temp_path {tmp};
    uwsgi_temp_path {tmp}; scgi_temp_path {tmp};
    {LOG_FORMAT}
    server {{
        listen 127.0.0.1:{self.port};
        access_log {self.log} ua_log;
        access_log {self.all} ua_log;
        location / {{ return 200 "ok\\n"; }}
    }}
}}
""")
        self.process = subprocess.Popen(
            [binary, "-p", root, "-c", self.conf, "-e", f"{root}/error.log", "-g", "daemon off;"],
            stdin=subprocess.DEVNULL)
        for _ in range(200):
            if os.path.exists(self.pid) and os.path.exists(self.log):
                break
            time.sleep(0.02)
        time.sleep(0.1)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


class Traffic(threading.Thread):
    """Sends GETs to nginx on 127.0.0.1 at up to `rate` a second until stopped or `limit` is reached."""

    def __init__(self, port, rate, limit, seed):
        super().__init__(daemon=True)
        self.port, self.rate, self.limit = port, rate, limit
        self.random = random.Random(seed)
        self.sent = 0
        self.failed = 0
        self.stopping = threading.Event()
        self.running = threading.Event()
        self.running.set()
        self.idle = threading.Event()

    def pause(self):
        """Stops sending and waits until the request in flight is answered (a quiet server)."""
        self.idle.clear()
        self.running.clear()
        self.idle.wait(timeout=10)

    def resume(self):
        self.running.set()

    def run(self):
        connection = None
        start = time.monotonic()
        while not self.stopping.is_set() and self.sent < self.limit:
            if not self.running.is_set():
                self.idle.set()
                paused = time.monotonic()
                self.running.wait()
                start += time.monotonic() - paused
            if connection is None:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
            try:
                connection.request("GET", f"/r?n={self.sent}", headers={"User-Agent": self.random.choice(USER_AGENTS)})
                response = connection.getresponse()
                response.read()
                if response.status == 200:
                    self.sent += 1
                else:
                    self.failed += 1
            except (OSError, http.client.HTTPException):
                self.failed += 1
                connection.close()
                connection = None
                time.sleep(0.01)
            ahead = self.sent / self.rate - (time.monotonic() - start)
            if ahead > 0:
                time.sleep(ahead)
        if connection is not None:
            connection.close()


def write_logrotate(root, log, pid, directives, reopen):
    conf = os.path.join(root, "logrotate.conf")
    lines = [f"{log} {{", "    rotate 10000", "    missingok"] + [f"    {d}" for d in directives]
    if reopen:
        lines += ["    sharedscripts", "    postrotate", f"        kill -USR1 $(cat {pid})", "    endscript"]
    lines.append("}")
    with open(conf, "w") as f:
        f.write("\n".join(lines) + "\n")
    return conf


def lines_on_disk(directory, prefix="access.log", torn=None):
    """Lines per hour ("29/Nov/2026:10") over the log and every rotated file.

    Only whole lines: a file that ends without a newline once nginx has stopped holds a piece
    of a line that copytruncate (or gzip without delay) copied while nginx was writing it, the
    rest lost with the truncation. uaaudit counts such a piece as malformed, not as a request;
    the pieces are counted in `torn`.
    """
    hours = Counter()
    for name in sorted(os.listdir(directory)):
        if not name.startswith(prefix):
            continue
        path = os.path.join(directory, name)
        opener = gzip.open if name.endswith(".gz") else open
        with opener(path, "rb") as f:
            for line in f:
                if not line.endswith(b"\n"):
                    if torn is not None:
                        torn.append(name)
                    continue
                m = TIME.search(line)
                hours[m.group(1).decode() if m else "?"] += 1
    return hours


def counted_per_hour(report):
    hours = Counter()
    for hour in report.get("hours", []):
        when = datetime.strptime(hour["hour"][:13], "%Y-%m-%dT%H")
        hours[when.strftime("%d/%b/%Y:%H")] += hour["requests"] + hour.get("out_of_scope", 0)
    return hours


class Totals:
    def __init__(self):
        self.scenarios = self.rotations = self.rotations_during_runs = self.runs = 0
        self.sigkill = self.sigterm = self.sent = self.on_disk = self.counted = 0
        self.doubled = self.lost = self.gaps = self.unexpected = 0


def scenario(name, args, rng, totals, workdir):
    directives, reopen, lossy_rotation = SCENARIOS[name]
    root = os.path.join(workdir, name)
    os.makedirs(root)
    nginx = Nginx(args.nginx, root)
    conf = write_logrotate(root, nginx.log, nginx.pid, directives, reopen)
    status = os.path.join(root, "logrotate.status")
    state, report = os.path.join(root, "state.json"), os.path.join(root, "report.json")
    command = [args.binary, "run", "-q", "--state", state, "--out", report, "--host", "torture", nginx.log]
    stats = {"rotations": 0, "during": 0, "runs": 0, "sigkill": 0, "sigterm": 0, "quiet": 0, "unexpected": []}
    # How long a whole run took lately: kills and rotations aim inside that window.
    duration = [0.05]
    last_rotation = [0.0]

    # dateext names carry the second: two rotations in one would collide.
    spacing = 1.1 if name.startswith("date") else 0.0

    def rotate(during):
        wait = spacing - (time.monotonic() - last_rotation[0])
        if wait > 0:
            if during:
                return
            time.sleep(wait)
        last_rotation[0] = time.monotonic()
        result = subprocess.run(["logrotate", "-f", "-s", status, conf], capture_output=True, text=True)
        if result.returncode != 0:
            stats["unexpected"].append(f"logrotate exit {result.returncode}: {result.stderr.strip()[:200]}")
        stats["rotations"] += 1
        stats["during"] += during

    def run_once(kill=None, rotate_during=None):
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        started = time.monotonic()
        if rotate_during is not None:
            time.sleep(rotate_during)
            rotate(during=process.poll() is None)
        if kill is not None:
            delay, sig = kill
            time.sleep(max(0.0, delay - (time.monotonic() - started)))
            if process.poll() is None:
                process.send_signal(sig)
                stats["sigkill" if sig == signal.SIGKILL else "sigterm"] += 1
        _, err = process.communicate(timeout=120)
        stats["runs"] += 1
        code = process.returncode
        if kill is None and rotate_during is None:
            duration[0] = time.monotonic() - started
        if args.check_each_run and os.path.exists(report):
            # Debugging: a run may never have counted more lines than were on disk after it.
            with open(report) as f:
                total = sum(counted_per_hour(json.load(f)).values())
            disk = sum(lines_on_disk(nginx.logs).values())
            keep = os.path.join(root, f"run-{stats['runs']:04d}")
            os.makedirs(keep)
            shutil.copy(state, keep)
            with open(os.path.join(keep, "ls"), "w") as f:
                f.write(subprocess.run(["ls", "-li", "--full-time", nginx.logs], capture_output=True, text=True).stdout)
            with open(os.path.join(keep, "stderr"), "wb") as f:
                f.write(err)
            if total > disk:
                print(f"    run {stats['runs']}: counted {total} > {disk} on disk (kept in {keep})", flush=True)
        if code not in (0, -signal.SIGKILL, -signal.SIGTERM, 128 + signal.SIGTERM):
            stats["unexpected"].append(f"uaaudit run exit {code}: {err.decode(errors='replace').strip()[:300]}")

    # The first run sees the log nginx has just created: empty. Then a rotation before the next.
    run_once()
    traffic = Traffic(nginx.port, args.rate, args.rate * args.seconds * 2, rng.random())
    traffic.start()
    time.sleep(1.0)
    rotate(during=False)
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        kill = None
        if rng.random() < 0.45:
            kill = (rng.uniform(0.0, 1.2 * duration[0]), rng.choice([signal.SIGKILL, signal.SIGTERM]))
        during = rng.uniform(0.0, duration[0]) if rng.random() < 0.35 else None
        run_once(kill=kill, rotate_during=during)
        time.sleep(rng.uniform(0.1, 0.8))
        if rng.random() < 0.5:
            rotate(during=False)
        if rng.random() < 0.15:
            # A quiet server at the top of the hour: the log freshly rotated and empty when
            # the run comes, then written to and rotated once or twice before the next one
            # (create reuses the inode numbers logrotate frees meanwhile).
            traffic.pause()
            time.sleep(0.2)
            rotate(during=False)
            run_once()
            stats["quiet"] += 1
            traffic.resume()
            for _ in range(rng.choice([1, 2])):
                time.sleep(0.6)
                rotate(during=False)
    traffic.stopping.set()
    traffic.join()
    time.sleep(0.5)  # the last requests reach the log
    run_once()
    run_once()  # a second final run must change nothing
    nginx.stop()

    with open(report) as f:
        final = json.load(f)
    torn = []
    disk = lines_on_disk(nginx.logs, torn=torn)
    written = lines_on_disk(root, prefix="all.log")
    counted = counted_per_hour(final)
    hours = set(disk) | set(counted) | set(written)
    # Per hour: every line still on disk counted, and nothing beyond what nginx wrote. Where
    # the rotation cannot destroy lines the two are the same number: counted exactly.
    doubled = sum(max(0, counted[h] - written[h]) for h in hours)
    lost = sum(max(0, disk[h] - counted[h]) for h in hours)
    read_then_destroyed = sum(max(0, counted[h] - disk[h]) for h in hours) - doubled
    gaps = final.get("gaps") or []
    on_disk = sum(disk.values())
    if sum(written.values()) != traffic.sent:
        stats["unexpected"].append(f"nginx wrote {sum(written.values())} lines for {traffic.sent} requests")
    if not lossy_rotation and disk != written:
        stats["unexpected"].append(f"{on_disk} lines in the rotated logs, {sum(written.values())} written")
    print(
        f"  {name}: rotations {stats['rotations']} ({stats['during']} during runs), runs {stats['runs']} "
        f"({stats['quiet']} on an empty log), "
        f"kills {stats['sigkill']} SIGKILL + {stats['sigterm']} SIGTERM, requests sent {traffic.sent}, "
        f"lines on disk {on_disk}, counted {sum(counted.values())} ({read_then_destroyed} of them read before "
        f"the rotation destroyed them), lines torn by the rotation {len(torn)}, double counts {doubled}, "
        f"losses {lost}, gaps {len(gaps)}", flush=True)
    if torn and not lossy_rotation:
        stats["unexpected"].append(f"a piece of a line at the end of {', '.join(torn)}")
    for gap in gaps:
        print(f"    gap: {json.dumps(gap, sort_keys=True)}")
    for h in sorted(hours):
        if counted[h] > written[h] or disk[h] > counted[h]:
            print(f"    hour {h}: written {written[h]}, on disk {disk[h]}, counted {counted[h]}; "
                  f"malformed {final.get('totals', {}).get('malformed')}; files {sorted(os.listdir(nginx.logs))}")
    for problem in stats["unexpected"]:
        print(f"    unexpected: {problem}")
    totals.scenarios += 1
    totals.rotations += stats["rotations"]
    totals.rotations_during_runs += stats["during"]
    totals.runs += stats["runs"]
    totals.sigkill += stats["sigkill"]
    totals.sigterm += stats["sigterm"]
    totals.sent += traffic.sent
    totals.on_disk += on_disk
    totals.counted += sum(counted.values())
    totals.doubled += doubled
    # No scenario here destroys bytes (rotate 10000 deletes nothing), so every loss counts,
    # and a gap is itself a failure; its lines are listed above.
    totals.lost += lost
    totals.gaps += len(gaps)
    totals.unexpected += len(stats["unexpected"])


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=25, help="traffic per scenario")
    parser.add_argument("--rate", type=int, default=300, help="requests a second")
    parser.add_argument("--rounds", type=int, default=1, help="times through the scenarios")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--binary", default=os.path.join(repo, ".build/debug/uaaudit"))
    parser.add_argument("--nginx", default=shutil.which("nginx") or "/usr/sbin/nginx")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    parser.add_argument("--check-each-run", action="store_true", help="debugging: compare after every run, keep states")
    args = parser.parse_args()
    for tool, path in (("uaaudit", args.binary), ("nginx", args.nginx), ("logrotate", shutil.which("logrotate"))):
        if not path or not os.access(path, os.X_OK):
            sys.exit(f"torture: {tool} not found ({path}); scripts/install-deps.sh installs nginx and logrotate")
    rng = random.Random(args.seed)
    totals = Totals()
    workdir = tempfile.mkdtemp(prefix="uaaudit-torture-")
    print(f"torture: seed {args.seed}, {args.seconds:g} s of traffic at {args.rate}/s per scenario, in {workdir}")
    try:
        for round_number in range(args.rounds):
            for name in args.scenarios.split(","):
                scenario(name, args, rng, totals, os.path.join(workdir, str(round_number)) if args.rounds > 1 else workdir)
    finally:
        failed = totals.doubled or totals.lost or totals.gaps or totals.unexpected
        if failed:
            print(f"torture: kept {workdir} for a look")
        elif not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    print(
        f"torture: scenarios {totals.scenarios}, rotations {totals.rotations} ({totals.rotations_during_runs} during runs), "
        f"runs {totals.runs}, kills {totals.sigkill + totals.sigterm} ({totals.sigkill} SIGKILL, {totals.sigterm} SIGTERM), "
        f"requests sent {totals.sent}, lines on disk {totals.on_disk}, requests counted {totals.counted}, "
        f"double counts {totals.doubled}, losses outside recorded gaps {totals.lost}, gaps {totals.gaps}, "
        f"unexpected {totals.unexpected}")
    ok = totals.doubled == 0 and totals.lost == 0 and totals.gaps == 0 and totals.unexpected == 0
    print("torture: PASS" if ok else "torture: FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
