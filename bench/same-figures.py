#!/usr/bin/env python3
"""Checks that two uaaudit JSON reports hold the same figures, apart from the fields that
issue 36 added for merge (client_salt, drift_settings, client_keys_shown, hours[].clients.sample,
hours[].drift.families, families_approximate, families_dropped), those issue 37 added
(hours[].causes, hours[].releases) and what differs by machine (report_id, generated_at).

    bench/same-figures.py OLD.json NEW.json    exit 0 when equal; else prints the first difference

Use it to compare reports before and after a change that must not move a figure:
    git stash; swift build; uaaudit scan --json LOG > old.json; git stash pop; swift build
    uaaudit scan --json LOG > new.json; bench/same-figures.py old.json new.json
"""
import json
import sys

ADDED_TOP = ("client_salt", "drift_settings", "client_keys_shown", "report_id", "generated_at")
ADDED_DRIFT = ("families", "families_approximate", "families_dropped")


def strip(report):
    for key in ADDED_TOP:
        report.pop(key, None)
    for hour in report.get("hours", []):
        hour.pop("causes", None)
        hour.pop("releases", None)
        if isinstance(hour.get("clients"), dict):
            hour["clients"].pop("sample", None)
        if isinstance(hour.get("drift"), dict):
            for key in ADDED_DRIFT:
                hour["drift"].pop(key, None)
    return report


def first_difference(a, b, at="$"):
    if type(a) is not type(b):
        return f"{at}: {a!r} vs {b!r}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{at}.{key}: only in {'new' if key not in a else 'old'}"
            found = first_difference(a[key], b[key], f"{at}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{at}: {len(a)} items vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{at}[{i}]")
            if found:
                return found
        return None
    return None if a == b else f"{at}: {a!r} vs {b!r}"


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    old, new = (strip(json.load(open(p, encoding="utf-8"))) for p in sys.argv[1:])
    found = first_difference(old, new)
    if found:
        print(f"different: {found}")
        return 1
    print("same figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
