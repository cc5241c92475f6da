#!/usr/bin/env python3
"""Real User-Agents nobody on this project wrote, for testing rules against reality.

Fetches the `device-detector` source package from PyPI (pinned version and SHA-256; nothing
from it is committed), extracts its fixtures' User-Agents with their labels, and writes them as
TSV: group, client type, client name, OS name, UA (one distinct UA a line). From the same package's
upstream `oss.yml` (Matomo's OS regexes) it also writes the Darwin to iOS versions its iOS rule states
for `CFNetwork/… Darwin/x.y.0` UAs, as TSV: Darwin major.minor, iOS version (darwin-ios.tsv).

    scripts/real-ua-corpus.py                      # fetch and extract into .build/corpus/
    scripts/real-ua-corpus.py --table [--uaaudit .build/debug/uaaudit]
                                                   # also regenerate docs/real-ua-confusion.md

The Swift test Tests/UAAuditCoreTests/Classify/RealCorpusTests.swift reads the TSV (or the file
named by UAAUDIT_CORPUS); Tests/UAAuditCoreTests/Insight/DarwinTableTests.swift reads darwin-ios.tsv.
Needs python3, python3-yaml and pip (scripts/install-deps.sh).
"""
import argparse
import collections
import hashlib
import os
import re
import subprocess
import sys
import tarfile
import tempfile

PACKAGE = "device-detector"
VERSION = "6.5.1"
SDIST = f"device_detector-{VERSION}.tar.gz"
SHA256 = "610ed34b173b96ee91aa38165084695bbf76f6a5bd76bbb4fd777f7af1ff4170"
FIXTURES = re.compile(r"^device_detector-[\d.]+/device_detector/tests/fixtures/upstream/[^/]+\.yml$")

OSS = re.compile(r"^device_detector-[\d.]+/device_detector/regexes/upstream/oss\.yml$")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TSV_NAME = f"device-detector-{VERSION}.tsv"
DARWIN_TSV_NAME = "darwin-ios.tsv"

# The apps of the fixtures that the test and the table write `rules init` rules for:
# (app, --webview-token or None). Each has its own UAs in the fixtures, and together they hold every
# shape the rules know: custom UAs with the iOS version in each place apps put it, in-app browsers
# and bare CFNetwork defaults.
APPS = [
    ("iHeartRadio", None),
    ("Liulo", None),
    ("NAVER", None),
    ("KakaoTalk", "KAKAOTALK"),
    ("Instagram", None),
    ("Downcast", None),
    ("Snipd", None),
    ("LBC", None),
    ("Microsoft Office Word", None),
    ("ReutersNews", None),
    ("Anghami", None),
]

IOS_CLAIM = re.compile(r"^Mozilla/5\.0 \((?:iPhone|iPad|iPod)")
BLINK_GECKO = re.compile(r"AppleWebKit/537\.36|Chrome/\d|Firefox/\d|Gecko/\d")
SAFARI_TAIL = re.compile(r"Version/[\d.]+ (?:Mobile/\w+ )?Safari/[\d.]+$")


def group(entry, ua):
    """The label group of a fixture: device-detector's labels, split by shape where they are coarse."""
    def label(key, field):
        value = entry.get(key)
        return (value.get(field) or "") if isinstance(value, dict) else ""

    os_name, client_type, client_name = label("os", "name"), label("client", "type"), label("client", "name")
    if "bot" in entry:
        return "bot"
    if IOS_CLAIM.match(ua) and BLINK_GECKO.search(ua):
        return "spoofed-ios"
    if "CFNetwork/" in ua:
        if re.search(r"\((?:x86_64|i386|Power)", ua):
            return "cfnetwork-macos"
        return "cfnetwork-ios"
    if os_name in ("iOS", "iPadOS"):
        if client_name == "Mobile Safari":
            return "ios-mobile-safari" if SAFARI_TAIL.search(ua) else "ios-mobile-safari-label-other-shape"
        if re.search(r"(?:CriOS|FxiOS|EdgiOS)/", ua):
            return "ios-chrome-firefox-edge"
        if ua.startswith("Mozilla/") and "AppleWebKit/" in ua:
            return "ios-other-browser" if client_type == "browser" else "ios-in-app-browser"
        if ua.startswith("Mozilla/"):
            return "ios-other-mozilla"
        return "ios-app-own-ua"
    if os_name == "Mac":
        return "macos-safari" if client_name == "Safari" else "macos-other"
    if os_name == "Android":
        return "android"
    if os_name == "Windows":
        return "windows"
    return "other"


def fetch(cache):
    path = os.path.join(cache, SDIST)
    if not os.path.exists(path) or sha256(path) != SHA256:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
             f"{PACKAGE}=={VERSION}", "-d", cache],
            check=True)
    digest = sha256(path)
    if digest != SHA256:
        sys.exit(f"real-ua-corpus: {path} has SHA-256 {digest}, expected {SHA256}")
    return path


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def extract(sdist):
    import yaml
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    rows, seen = [], set()
    with tarfile.open(sdist) as tar:
        members = sorted((m for m in tar.getmembers() if FIXTURES.match(m.name)), key=lambda m: m.name)
        for member in members:
            for entry in yaml.load(tar.extractfile(member), Loader=loader) or []:
                if not isinstance(entry, dict) or "user_agent" not in entry:
                    continue
                ua = str(entry["user_agent"])
                if ua in seen or any(c in ua for c in "\t\r\n"):
                    continue
                seen.add(ua)

                def label(key, field):
                    value = entry.get(key)
                    return str(value.get(field) or "") if isinstance(value, dict) else ""

                rows.append((group(entry, ua), label("client", "type"), label("client", "name"),
                             label("os", "name"), ua))
    return rows


def darwin_ios(sdist):
    """(Darwin major.minor, iOS version) as oss.yml's iOS rule states them for `Darwin/x.y.0`.

    The rule lists its versions as regexes tried in order, first match wins ('Darwin/24\\.([0-6])\\.0'
    gives '18.\\g<1>'); each Darwin version a UA can carry is tried against them the same way, so the
    ranges come out as the single versions they stand for, and nothing is read into the patterns.
    """
    import yaml
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with tarfile.open(sdist) as tar:
        members = [m for m in tar.getmembers() if OSS.match(m.name)]
        if len(members) != 1:
            sys.exit(f"real-ua-corpus: {len(members)} upstream oss.yml in {sdist}, expected 1")
        entries = yaml.load(tar.extractfile(members[0]), Loader=loader) or []
    rules = [e for e in entries if isinstance(e, dict) and e.get("name") == "iOS"
             and any("Darwin/" in str(v.get("regex", "")) for v in e.get("versions") or [])]
    if len(rules) != 1:
        sys.exit(f"real-ua-corpus: {len(rules)} iOS rules with Darwin versions in oss.yml, expected 1")
    versions = [(re.compile(str(v["regex"])), str(v["version"])) for v in rules[0]["versions"]]
    pairs = []
    for major in range(1, 100):
        for minor in range(0, 100):
            darwin = f"Darwin/{major}.{minor}.0"
            for pattern, version in versions:
                match = pattern.search(darwin)
                if match:
                    if "Darwin/" in pattern.pattern:
                        pairs.append((f"{major}.{minor}", match.expand(version)))
                    break
    return pairs


def write_tsv(rows, path):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        for row in rows:
            f.write("\t".join(row) + "\n")
    os.replace(tmp, path)


def classify(uaaudit, rules, uas):
    """The class of each UA, from `uaaudit classify` (two lines per UA, the class first)."""
    out = subprocess.run([uaaudit, "classify", "--rules", rules], input="\n".join(uas).encode() + b"\n",
                         stdout=subprocess.PIPE, check=True).stdout.decode("utf-8", "replace")
    lines = out.split("\n")
    classes = [line.split(" ", 1)[0] for line in lines if line and not line.startswith(" ")]
    if len(classes) != len(uas):
        sys.exit(f"real-ua-corpus: classify answered {len(classes)} lines for {len(uas)} UAs")
    return classes


def table(rows, uaaudit, out_path):
    uas = [r[4] for r in rows]
    groups = [r[0] for r in rows]
    group_names = sorted(set(groups))
    md = [
        "# Rules against real User-Agents: the confusion table",
        "",
        f"Regenerated by `scripts/real-ua-corpus.py --table` from the fixtures of PyPI's `{PACKAGE}` "
        f"{VERSION} (Matomo Device Detector's test fixtures; {len(uas):,} distinct UAs). Rows are label groups "
        "(device-detector's labels, split by shape where they are coarse: see `group()` in the script), "
        "columns are the classes that `uaaudit rules init --app NAME` rules give. The alert class is "
        "`inconsistent`. `RealCorpusTests` asserts the invariants on the same data.",
        "",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for app, token in APPS:
            rules = os.path.join(tmp, f"{app}.json")
            args = [uaaudit, "rules", "init", "--app", app, "--out", rules]
            if token:
                args += ["--webview-token", token]
            subprocess.run(args, check=True, stderr=subprocess.DEVNULL)
            classes = classify(uaaudit, rules, uas)
            order = ["webview", "urlsession", "inconsistent", "ambiguous", "bot", "spoofed", "browser",
                     "other_app", "other", "missing", "errors"]
            counts = collections.Counter(zip(groups, classes))
            md += [f"## `rules init --app {app}" + (f" --webview-token {token}" if token else "") + "`", ""]
            md.append("| group | " + " | ".join(order) + " |")
            md.append("|---|" + "---:|" * len(order))
            for g in group_names:
                md.append(f"| {g} | " + " | ".join(str(counts[(g, c)] or "") for c in order) + " |")
            totals = collections.Counter(classes)
            md.append("| **all** | " + " | ".join(f"**{totals[c]}**" if totals[c] else "" for c in order) + " |")
            needles = {app.lower()} | ({token.lower()} if token else set())
            own = [(ua, c) for ua, c in zip(uas, classes) if any(n in ua.lower() for n in needles)]
            foreign_alert = [ua for ua, c in zip(uas, classes)
                             if c == "inconsistent" and not any(n in ua.lower() for n in needles)]
            md += ["", f"The UAs that name {app} ({len(own)}), and their class:", ""]
            for ua, c in own:
                md.append(f"- `{c}`: `{ua.replace('`', '')}`")
            md += ["", f"Foreign UAs in the alert class: {len(foreign_alert)}"
                   + ("" if not foreign_alert else " (" + ", ".join(f"`{u}`" for u in foreign_alert[:5]) + ")"), ""]
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(md))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", default=os.path.join(ROOT, ".build", "corpus"))
    parser.add_argument("--table", action="store_true", help="regenerate docs/real-ua-confusion.md")
    parser.add_argument("--uaaudit", default=os.path.join(ROOT, ".build", "debug", "uaaudit"))
    args = parser.parse_args()
    os.makedirs(args.cache, exist_ok=True)
    sdist = fetch(args.cache)
    rows = extract(sdist)
    tsv = os.path.join(args.cache, TSV_NAME)
    write_tsv(rows, tsv)
    pairs = darwin_ios(sdist)
    darwin_tsv = os.path.join(args.cache, DARWIN_TSV_NAME)
    write_tsv(pairs, darwin_tsv)
    print(f"real-ua-corpus: {len(pairs)} Darwin to iOS versions in {darwin_tsv}")
    by_group = collections.Counter(r[0] for r in rows)
    print(f"real-ua-corpus: {len(rows)} distinct UAs in {tsv}")
    for g, n in sorted(by_group.items()):
        print(f"  {g:40} {n:6}")
    if args.table:
        table(rows, args.uaaudit, os.path.join(ROOT, "docs", "real-ua-confusion.md"))
        print("real-ua-corpus: wrote docs/real-ua-confusion.md")


if __name__ == "__main__":
    main()
