#!/usr/bin/env python3
"""Writes a realistic nginx `ua_log` access log for benchmarking uaaudit.

    python3 bench/make-log.py --lines 10000000 --out /tmp/bench.log

Lines look like what nginx writes with the default escaping: app, WKWebView, CFNetwork,
browser and bot UAs with varying versions, absent and empty UAs, a few 8 KB UAs and odd
bytes (escaped as \\xHH), upstream lists, 0.05% malformed lines, over 24 hours. To keep
generation fast, a block of distinct lines is generated once and repeated with the
timestamps advancing, so the file's size is exact and its content realistic.
"""
import argparse
import random

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def uas(rng):
    ios = lambda: "%d_%d" % (rng.choice([15, 16, 17, 18]), rng.randint(0, 6))
    ver = lambda: "5.%d.%d" % (rng.randint(8, 12), rng.randint(0, 3))
    dev = lambda: rng.choice(["iPhone14,5", "iPhone15,3", "iPhone16,2", "iPhone12,1"])
    pool = []
    for _ in range(600):
        v = ios()
        pool.append((58, "MyApp/%s (iPhone; %s; Scale/3.00; iOS %s)" % (ver(), dev(), v)))
        pool.append((27, "MyApp/%s (iPhone; %s; iOS %s) Mozilla/5.0 (iPhone; CPU iPhone OS %s like Mac OS X) "
                         "AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari/604.1" % (ver(), dev(), v, v)))
        pool.append((4, "MyApp/%s CFNetwork/1494.0.7 Darwin/23.4.0" % rng.randint(50000, 51299)))
        pool.append((4, "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
                        "Chrome/%d.0.%d.%d Safari/537.36" % (rng.randint(110, 131), rng.randint(1000, 6999), rng.randint(10, 200))))
        pool.append((2, "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"))
        pool.append((1, "curl/7.%d.%d" % (rng.randint(60, 88), rng.randint(0, 9))))
        pool.append((1, "okhttp/4.%d.%d" % (rng.randint(0, 12), rng.randint(0, 9))))
        pool.append((1, "MyApp/%s (iPhone; %s; iOS %s) \\xE4\\xB8\\xAD\\xE6\\x96\\x87 \\x22quoted\\x22" % (ver(), dev(), v)))
    pool.append((2, "-"))
    pool.append((1, ""))
    pool.append((1, "SDK/2.0 com.apple.CFNetwork/1494.0.7"))
    pool.append((1, "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                    "Version/17.2 Mobile/15E148 Safari/604.1"))
    return pool


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lines", type=int, default=10_000_000)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    pool = uas(rng)
    cum = []
    total = 0
    for w, _ in pool:
        total += w
        cum.append(total)
    block = 200_000
    paths = ["/api/v2/me", "/api/v2/feed?cursor=%d", "/api/v2/cart", "/api/v1/config?v=%d", "/static/app.%d.js", "/"]
    lines = []
    for i in range(block):
        r = rng.random()
        if r < 0.0005:
            lines.append("{ts} [error] 1234#0: *%d upstream timed out" % i)
            continue
        ua = rng.choices(pool, cum_weights=cum)[0][1]
        if rng.random() < 0.0002:
            ua = "Mozilla/5.0 " + "A" * 8000
        path = rng.choice(paths)
        if "%d" in path:
            path = path % rng.randint(1, 10**6)
        up = rng.choice(['uct="0.000" uht="0.010" urt="0.012"', 'uct="-" uht="-" urt="-"',
                         'uct="-, 0.001" uht="-, 0.020" urt="0.000, 0.021"'])
        lines.append('%d.%d.%d.%d - - [{ts}] "GET %s HTTP/1.1" %d %d "-" "%s" rt=0.0%02d %s' % (
            rng.randint(1, 223), rng.randint(0, 255), rng.randint(0, 255), rng.randint(1, 254), path,
            rng.choice([200, 200, 200, 204, 304, 403, 404, 500]), rng.randint(0, 50000), ua, rng.randint(0, 99), up))
    parts = [line.split("{ts}") for line in lines]
    stamps = ["%02d/Nov/2026:%02d:%02d:%02d +0800" % (1 + t // 86400, t // 3600 % 24, t // 60 % 60, t % 60)
              for t in range(86400)]
    seconds_per_line = 86400 / max(a.lines, 1)
    with open(a.out, "w", buffering=1 << 22) as f:
        written = 0
        while written < a.lines:
            n = min(block, a.lines - written)
            out = []
            for k in range(n):
                pre, post = parts[k]
                out.append(pre + stamps[int((written + k) * seconds_per_line)] + post)
            out.append("")
            f.write("\n".join(out))
            written += n


if __name__ == "__main__":
    main()
