#!/usr/bin/env python3
"""Crafted User-Agents against every shipped pattern set: the per-byte cost of the worst
against an ordinary UA's.

    python3 bench/adversarial.py [--bin .build/release/uaaudit] [--count 400] [--target 10]

For the built-in rules, each rules/*.json and `uaaudit rules init --app MyApp`'s output, it
takes the literal pieces each pattern looks for ('MyApp/', ' (iPhone;', 'iOS ', 'Safari/',
'CPU iPhone OS ', 'CFNetwork/'…) and writes UAs of 7.5 KB (within nginx's 8 KiB header
buffer) that repeat them: each piece alone, a pattern's first pieces once and a later piece
many times (a near-miss: the pattern's end never comes), digits in every separator a
version may have, the whole opening of the pattern over and over, and the shapes issue 31
found ('MyApp/1.1.1 (iPhone;N ' + 'iOS 1_1)' x 930; 'CPU iPhone OS 17_0_0_...'). It times
`uaaudit classify --rules FILE` (CPU time of the child, its start-up subtracted) on
`--count` UAs of each kind (100) and on ordinary UAs of the same total size, and prints
cost per byte of the kind / cost per byte of the ordinary UAs. A kind whose UAs classify
as `errors` (a match limit hit) is marked: it is not matched at all, which hides its cost.

Not a test (timings vary with the machine); exit status 1 when a ratio is over --target.
Needs a release build: a debug build's per-line overhead makes every ratio look small.
"""
import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile

UA_BYTES = 7500

ORDINARY = [
    "MyApp/5.12.1 (iPhone; iPhone15,3; Scale/3.00; iOS 17_4)",
    "MyApp/5.11.0 (iPhone; iPhone14,5; iOS 16_6) Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) "
    "AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari/604.1",
    "MyApp/51200 CFNetwork/1494.0.7 Darwin/23.4.0",
    "YourSDK/1.0 com.apple.CFNetwork/1494.0.7",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.2 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 "
    "Safari/537.36",
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Mobile/15E148 Instagram 283.0.0.16.103 (iPhone15,3; iOS 16_5; ru_UZ; ru-UZ; scale=3.00; 1290x2796; 474411477)",
    "WhatsApp/2.23.20.76 CFNetwork/1474 Darwin/23.0.0",
    "curl/7.88.1",
    "okhttp/4.12.0",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)",
]


def literal_pieces(pattern):
    """The literal runs of a PCRE2 pattern (escapes undone), 3 bytes or more, in order."""
    pieces, current, i = [], "", 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            n = pattern[i + 1]
            if n in "dDwWsSbBAzZ" or n.isdigit():
                pieces.append(current)
                current = ""
            else:
                current += n
            i += 2
            continue
        if c == "[":
            # A class: skip to its end; its first byte stands for it.
            j = i + 1
            if j < len(pattern) and pattern[j] == "^":
                j += 1
            if j < len(pattern) and pattern[j] == "]":
                j += 1
            while j < len(pattern) and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            pieces.append(current)
            current = ""
            i = j + 1
            continue
        if c in "()|?*+{}^$.":
            pieces.append(current)
            current = ""
            if c == "(" and pattern[i + 1 : i + 2] == "?":
                # Skip a group's options: (?: (?i: (?! (?= (?<! (?>
                m = re.match(r"\(\?(?:<?[=!]|[:>]|[a-zA-Z]*:|[a-zA-Z]*\))", pattern[i:])
                i += len(m.group(0)) if m else 1
                continue
            i += 1
            continue
        current += c
        i += 1
    pieces.append(current)
    return [p for p in pieces if len(p) >= 3]


def fill(head, unit, tail=""):
    """`head`, then `unit` repeated whole, then `tail`: UA_BYTES long, the bytes a whole unit
    leaves over written as '1's after `head` (more digits of its version)."""
    room = UA_BYTES - len(head) - len(tail)
    if not unit or room < 0:
        return (head + tail)[:UA_BYTES]
    return head + "1" * (room % len(unit)) + unit * (room // len(unit)) + tail


def crafted(patterns):
    """Kinds of crafted UAs for a pattern set: name -> UA (one each; repeated when timed)."""
    kinds = {}
    versions = ["1.1 ", "1_1)", "1.1.1", "1_", "1.", "1;", "1/", "11"]
    for p, pattern in enumerate(patterns):
        pieces = literal_pieces(pattern)
        for i, piece in enumerate(pieces):
            kinds["p%d: '%s' repeated" % (p, piece.strip())] = fill("", piece + "1 ")
            for v in versions:
                kinds["p%d: '%s' then '%s' repeated" % (p, piece.strip(), v.strip())] = fill(piece, v)
            opening = "".join(x + "1.1.1" for x in pieces[:i])
            if i > 0:
                kinds["p%d: opening, then '%s' repeated" % (p, piece.strip())] = fill(opening, piece + "1_1) ")
                kinds["p%d: opening up to '%s', repeated" % (p, piece.strip())] = fill("", opening + piece)
        if pieces:
            whole = "".join(x + "1.1 " for x in pieces[:-1])
            kinds["p%d: all but the last piece, repeated" % p] = fill("", whole)
    # The shapes issue 31 found.
    kinds["issue 31: MyApp/1.1.1 (iPhone;N + iOS 1_1) x 930"] = fill("MyApp/1.1.1 (iPhone;N ", "iOS 1_1)")
    kinds["issue 31: CPU iPhone OS 17_0_0_... parts"] = fill(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17", "_0", " like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)")
    kinds["issue 31: MyApp/1.1.1 (iPhone; repeated"] = fill("", "MyApp/1.1.1 (iPhone;")
    # The same UA under two names is timed once.
    seen, unique = set(), {}
    for kind, ua in kinds.items():
        if len(ua) == UA_BYTES and ua not in seen:
            seen.add(ua)
            unique[kind] = ua
    return unique


def rule_sets(binary, root, work):
    """(name, rules file or None for the built-in rules, pattern sources). The built-in
    rules are rules/builtin.json's (a test keeps the two equal)."""
    sets = []
    builtin = json.load(open(os.path.join(root, "rules", "builtin.json")))
    sets.append(("built-in", None, [p for r in builtin["rules"] for p in r["patterns"]]))
    for name in sorted(os.listdir(os.path.join(root, "rules"))):
        if name.endswith(".json"):
            path = os.path.join(root, "rules", name)
            data = json.load(open(path))
            sets.append(("rules/" + name, path, [p for r in data["rules"] for p in r["patterns"]]))
    init = os.path.join(work, "init.json")
    subprocess.run([binary, "rules", "init", "--app", "MyApp", "--out", init], check=True, stderr=subprocess.DEVNULL)
    data = json.load(open(init))
    sets.append(("rules init --app MyApp", init, [p for r in data["rules"] for p in r["patterns"]]))
    return sets


def cpu_seconds(binary, rules, path):
    """CPU time (user + system) of `uaaudit classify` on the UAs in `path`, and its classes."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    args = [binary, "classify", "--json"] + (["--rules", rules] if rules else [])
    with open(path, "rb") as stdin:
        out = subprocess.run(args, stdin=stdin, stdout=subprocess.PIPE, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    classes = {}
    for line in out.splitlines():
        cls = json.loads(line)["class"]
        classes[cls] = classes.get(cls, 0) + 1
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), classes


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.path.join(root, ".build", "release", "uaaudit"))
    parser.add_argument("--count", type=int, default=100, help="crafted UAs of each kind")
    parser.add_argument("--target", type=float, default=10.0, help="the highest ratio that passes")
    parser.add_argument("--all", action="store_true", help="print every kind, not only the worst ten of a set")
    args = parser.parse_args()
    if not os.access(args.bin, os.X_OK):
        sys.exit("adversarial: no binary at %s (swift build -c release, or --bin)" % args.bin)

    worst_overall = 0.0
    with tempfile.TemporaryDirectory() as work:
        empty = os.path.join(work, "empty.txt")
        open(empty, "w").close()
        ordinary = os.path.join(work, "ordinary.txt")
        lines = []
        size = 0
        while size < UA_BYTES * args.count:
            ua = ORDINARY[len(lines) % len(ORDINARY)]
            lines.append(ua)
            size += len(ua) + 1
        open(ordinary, "w").write("\n".join(lines) + "\n")

        for name, rules, patterns in rule_sets(args.bin, root, work):
            start = min(cpu_seconds(args.bin, rules, empty)[0] for _ in range(3))
            base = min(cpu_seconds(args.bin, rules, ordinary)[0] for _ in range(3)) - start
            per_byte = max(base, 1e-6) / size
            results = []
            for kind, ua in crafted(patterns).items():
                path = os.path.join(work, "kind.txt")
                open(path, "w").write((ua + "\n") * args.count)
                seconds, classes = cpu_seconds(args.bin, rules, path)
                ratio = max(seconds - start, 0) / ((len(ua) + 1) * args.count) / per_byte
                results.append((ratio, kind, classes))
            results.sort(reverse=True)
            worst = results[0][0]
            worst_overall = max(worst_overall, worst)
            print("%s: ordinary %.1f ns/byte; worst crafted %.1fx (%d kinds)" % (name, per_byte * 1e9, worst, len(results)))
            for ratio, kind, classes in results if args.all else results[:10]:
                shown = ", ".join("%s %d" % kv for kv in sorted(classes.items()))
                flag = "  ERRORS (not matched)" if "errors" in classes else ""
                print("  %7.1fx  %s  [%s]%s" % (ratio, kind, shown, flag))
    print("worst ratio %.1fx (target %.0fx)" % (worst_overall, args.target))
    return 1 if worst_overall > args.target else 0


if __name__ == "__main__":
    sys.exit(main())
