#!/usr/bin/env bash
# Proves that a change left every output of uaaudit as it was, byte for byte (issue 34: the
# module split must change nothing a user sees). Runs two binaries over the same inputs and
# compares, per case, stdout, stderr, the exit status and every file the command wrote.
#
#   bench/same-bytes.sh OLD_UAAUDIT NEW_UAAUDIT [WORKDIR]
#
# Prints one line per case, `same` or `DIFFERS` (then the first lines of `diff`), and exits
# 1 when any case differs (2 on bad usage). WORKDIR (default: a new temp dir) holds:
#   in/        the inputs, made once and shared: SampleLogs/, a 200,000-line log of
#              bench/make-log.py (seed 7) with its gzip and two halves, a hostile log
#   run/       where each binary runs, one after the other (cleaned between): every path
#              an output can print or hash (report_id hashes resolved paths) is the same
#   res/old/NAME/, res/new/NAME/   per case: out, err, rc and f.FILE for each file written
# Time is pinned, never filtered: SOURCE_DATE_EPOCH (generated_at of scan, explain, merge;
# the man page's date) and --now for run; TZ=UTC and a fixed environment for both. The one
# filter: `--version` prints the commit the binary was built from (written into the binary
# at build time, no way to pin it), so only `(commit HASH)` on that line is masked.
# Not covered: log rotation in `run` (a rotated file gets a new inode, which the state
# records); the inode and mtime of run's live log are kept the same for both binaries.
set -uo pipefail
[ $# -ge 2 ] && [ $# -le 3 ] || { sed -n '2,12p' "$0"; exit 2; }
old=$(realpath "$1") new=$(realpath "$2")
for b in "$old" "$new"; do [ -x "$b" ] || { echo "same-bytes: no executable at $b" >&2; exit 2; }; done
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(realpath -m "${3:-$(mktemp -d /tmp/same-bytes.XXXXXX)}")
in=$work/in run=$work/run res=$work/res
rm -rf "$run" "$res"; mkdir -p "$in" "$run" "$res/old" "$res/new"
started=$(date +%s)

# --- Inputs (shared by both binaries) -------------------------------------------------------
cp "$repo"/SampleLogs/*.log "$repo"/SampleLogs/*.gz "$repo"/SampleLogs/*.json "$repo"/SampleLogs/nginx.conf "$in/"
# nginx.conf for doctor: its access_log lines name ua_log.log and devices.log here; no /etc include.
sed -e '/include \/etc/d' -e "s#/var/log/nginx/access.log#$in/ua_log.log#" -e "s#/var/log/nginx/#$in/#" "$repo/SampleLogs/nginx.conf" > "$in/doctor-nginx.conf"
{ echo "# configuration file $in/doctor-nginx.conf:"; cat "$in/doctor-nginx.conf"; } > "$in/nginx-T.txt"
if [ ! -f "$in/gen.log" ]; then
  python3 "$repo/bench/make-log.py" --lines 200000 --seed 7 --out "$in/gen.log"
  gzip -1 -c "$in/gen.log" > "$in/gen.log.gz"
  head -n 100000 "$in/gen.log" > "$in/gen-a.log"; tail -n +100001 "$in/gen.log" > "$in/gen-b.log"
fi
# Hostile log: bench/adversarial.py's crafted 7.5 KB UAs against the built-in rules, and
# lines nginx or an attacker can write: bad escapes, raw control and invalid UTF-8 bytes,
# NUL, CR, impossible dates and offsets, a 1.2 MB line, a 40 KB UA, 5,000 distinct
# alert-class UAs in one hour, empty lines, no newline at the end.
python3 - "$repo" "$in/hostile.log" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1] + "/bench"); import adversarial
rules = json.load(open(sys.argv[1] + "/rules/builtin.json"))["rules"]
uas = list(adversarial.crafted([p for r in rules for p in r["patterns"]]).values())
def line(ua, i, ts="01/Nov/2026:10:%02d:%02d +0800", req="GET /api/x?i=%d HTTP/1.1"):
    t = ts % (i // 60 % 60, i % 60) if "%" in ts else ts
    r = req % i if "%d" in req else req
    return ('10.0.%d.%d - - [%s] "%s" 200 12 "-" "%s" rt=0.001 uct="-" uht="-" urt="-"\n'
            % (i // 250 % 256, i % 250 + 1, t, r, ua)).encode("latin-1")
out = [line(ua, i) for i, ua in enumerate(uas)]
odd = ["MyApp/5.1.0 (iPhone; iOS 17_4) \\x22q\\x22", "bad \\xZZ escape", "ends in \\x", "trailing \\",
       "raw\x01ctl\x7fdel", "raw \xff\xfe bytes", "MyApp/5.1.0 (iPhone; \xe4\xb8\xad; iOS 17_4)",
       "Mozilla/5.0 " + "A" * 40000, "-", "", "SDK/1 com.apple.CFNetwork/1494.0.7\r"]
out += [line(ua, 3000 + i) for i, ua in enumerate(odd)]
for ts in ["29/Feb/2025:10:00:00 +0800", "31/Apr/2026:10:00:00 +0800", "01/Nov/0001:00:00:00 +0000",
           "31/Dec/9999:23:59:59 -1200", "01/Nov/2026:10:00:00 +1400", "01/Nov/2026:10:00:00 +9999",
           "01/Foo/2026:10:00:00 +0800", "01/Nov/2026:25:00:00 +0800", "01/Nov/2026:10:00:00"]:
    out.append(line("MyApp/5.1.0 (iPhone; iOS 17_4)", 7, ts))
out += [line("curl/8", 9, req=r) for r in ["", "\\x16\\x03\\x01", "GET /nul\x00 HTTP/1.1", "\\x22 \\x22"]]
out += [b"\n", b"   \n", b"\x00\x01\x02 GARBAGE \xff\xfe\x1f\x8b\n", b"x" * 1_200_000 + b"\n",
        b'10.0.0.1 - - [01/Nov/2026:10:00:00 +0800] "GET / HTTP/1.1" 200\n', b"line with\rCR inside\n"]
out += [line("SDK%d/1.0 com.apple.CFNetwork/1494.0.7 (%s)" % (i, "x" * (i % 300)), 4000 + i) for i in range(5000)]
out.append(line("MyApp/5.1.0 (iPhone; iOS 17_4)", 1).rstrip(b"\n"))
open(sys.argv[2], "wb").write(b"".join(out))
PY

# --- Running one case -------------------------------------------------------------------------
# Both binaries get the same environment, nothing from the caller's; a hang is cut after
# 120 s (exit 124, which then differs).
envv=(timeout 120 env -i PATH=/usr/bin:/bin HOME="$run" TZ=UTC LC_ALL=C SOURCE_DATE_EPOCH=1796000000
      UAAUDIT_PACKAGED_WRAPPER=/nonexistent/uaaudit-cron.sh)
# c NAME ARGS...: runs "$bin ARGS" in $run (stdin from $stdin, default /dev/null) and keeps
# its stdout, stderr, exit status and every file it wrote into o/ in $res/$side/NAME/.
c() {
  local name=$1 d=$res/$side/$1; shift
  [ "$side" = old ] && echo "$name" >> "$res/cases"
  mkdir -p "$d"
  (cd "$run" && "${envv[@]}" "$bin" "$@" < "${stdin:-/dev/null}" > "$d/out" 2> "$d/err"; echo $? > "$d/rc")
  local f; for f in "$run"/o/*; do [ -e "$f" ] && mv "$f" "$d/f.${f##*/}"; done
}
# keep NAME FILE: a report a case wrote, kept at run/keep/NAME.json for later cases.
keep() { cp "$res/$side/$1/f.$2" "$run/keep/$1.json"; }
# snap NAME: run's state dir (state, report, page, metrics, lock) as files of case NAME.
snap() { local f; for f in "$run"/st/*; do cp "$f" "$res/$side/$1/f.${f##*/}"; done; }

# The sample logs with the options their tests use, and an instant in their first hour.
samples=(
  "ua_log.log||2024-03-31T15:50Z"
  "ua_log.log.gz||2024-03-31T15:50Z"
  "malformed.log||2024-03-31T15:50Z"
  "combined.log|--format combined|2024-03-31T15:50Z"
  "ua_log_json.log|--nginx-conf $in/nginx.conf --format ua_log_json|2024-03-31T15:50Z"
  "devices.log|--nginx-conf $in/nginx.conf --format ua_devices --client-key http_x_device_id|2026-11-28T09:50Z"
  "gen.log||2026-11-01T05:30Z"
  "gen.log.gz||2026-11-01T05:30Z"
  "hostile.log||2026-11-01T02:30Z"
)

suite() {
  find "$run" -mindepth 1 -maxdepth 1 ! -name access.log -exec rm -rf {} +
  mkdir -p "$run/o" "$run/st" "$run/keep"
  # Help, version, generated files, classify, rules: text made from the option declarations.
  c help --help; c help-cmd-scan help scan
  for s in scan explain merge run doctor classify generate; do c "help-$s" "$s" --help; done
  c help-state state show --help; c help-rules rules --help; c help-alert alert test --help
  c version --version; sed -i -E 's/\(commit [0-9a-f]+\)/(commit X)/' "$res/$side/version/out"
  for g in man bash zsh; do c "generate-$g" generate "$g"; done
  c classify classify 'MyApp/5.12.1 (iPhone; iOS 17_4)' 'YourSDK/1.0 com.apple.CFNetwork/1494.0.7' curl/8 ''
  stdin=$in/ua_log.log c classify-json classify --json
  c rules-init rules init --app MyShop --bundle 'MyShop Widget'
  c rules-lint rules lint "$repo/rules/builtin.json"; c rules-test rules test "$repo/rules/builtin.json"
  # scan (summary, --json at 1/2/4/8 threads, the report, page and metrics files) and explain
  # (on the log and on scan's report; text and --json), per input.
  local s file opts hour
  for s in "${samples[@]}"; do
    IFS='|' read -r file opts hour <<< "$s"
    # shellcheck disable=SC2086
    { c "scan-$file" scan $opts "$in/$file"
      for t in 1 2 4 8; do c "scan-json-t$t-$file" scan --json --threads $t $opts "$in/$file"; done
      c "scan-files-$file" scan -q --out o/report.json --html o/report.html --prom o/uaaudit.prom $opts "$in/$file"
      keep "scan-files-$file" report.json
      c "explain-log-$file" explain "$hour" $opts "$in/$file"
      c "explain-log-json-$file" explain "$hour" --json $opts "$in/$file"; }
    c "explain-report-$file" explain "$hour" "keep/scan-files-$file.json"
    c "explain-report-json-$file" explain "$hour" --json "keep/scan-files-$file.json"
    [ -f "$in/$file.expected.json" ] && c "explain-expected-$file" explain "$hour" --json "$in/$file.expected.json"
  done
  stdin=$in/ua_log.log c scan-stdin scan --json -
  c scan-hostile-limits scan --json --max-line-bytes 4096 --top 3 --client-key none "$in/hostile.log"
  c scan-gen-drift scan --json --baseline-hours 3 --alert-new-family 5% --alert-share-drop 50% "$in/gen.log"
  c scan-missing scan "$in/nope.log"; c scan-bad-option scan --threshold 0.5 "$in/ua_log.log"
  c explain-nginx-rules explain 2024-03-31T15:50Z --nginx-rules "$in/doctor-nginx.conf" "$in/ua_log.log"
  # merge: the two halves of the generated log (own reports), and two expected reports.
  c scan-half-a scan -q --out o/a.json "$in/gen-a.log"; keep scan-half-a a.json
  c scan-half-b scan -q --out o/b.json "$in/gen-b.log"; keep scan-half-b b.json
  c merge-halves merge keep/scan-half-a.json keep/scan-half-b.json
  c merge-halves-json merge --json keep/scan-half-a.json keep/scan-half-b.json
  c merge-halves-files merge -q --out o/merged.json --html o/merged.html keep/scan-half-a.json keep/scan-half-b.json
  c merge-expected merge --json "$in/ua_log.log.expected.json" "$in/malformed.log.expected.json"
  c merge-twice merge keep/scan-half-a.json keep/scan-half-a.json
  # doctor: the config file, --json, nginx -T on stdin, --write-config (with its rules.json).
  c doctor doctor --nginx-conf "$in/doctor-nginx.conf"
  c doctor-json doctor --json --nginx-conf "$in/doctor-nginx.conf"
  stdin=$in/nginx-T.txt c doctor-stdin doctor -
  c doctor-write doctor --nginx-conf "$in/doctor-nginx.conf" --app MyApp --write-config o/uaaudit.json
  c doctor-rules doctor --nginx-conf "$in/doctor-nginx.conf" --rules "$repo/rules/builtin.json"
  # run: the first half of ua_log.log, then the rest appended, then a webhook on a closed
  # port (127.0.0.1:1, refused at once; no retries). The live log is rewritten in place: the
  # same inode and the same pinned mtimes for both binaries (the state records both).
  cat > "$run/uaaudit.json" <<'EOF'
{"version": 1, "logs": ["access.log"], "state": "st/state.json", "report": "st/report.json",
 "html": "st/report.html", "prom": "st/uaaudit.prom", "min_requests": 10, "lock_wait_seconds": 1}
EOF
  head -n 52 "$in/ua_log.log" > "$run/access.log"; touch -d "@$mtime" "$run/access.log"
  c run-1 run --config uaaudit.json --now 2024-03-31T16:10:00Z --heartbeat; snap run-1
  c state-1 state show --config uaaudit.json; c state-1-json state show --json --config uaaudit.json
  tail -n +53 "$in/ua_log.log" >> "$run/access.log"; touch -d "@$((mtime + 60))" "$run/access.log"
  c run-2 run --config uaaudit.json --now 2024-03-31T17:10:00Z --heartbeat --fail-on-alert; snap run-2
  c run-3 run --config uaaudit.json --now 2024-03-31T17:20:00Z --json --webhook http://127.0.0.1:1/hook \
    --webhook-kind generic --webhook-retries 0 --webhook-timeout 2; snap run-3
  c state-3-json state show --json --config uaaudit.json
}

# run/access.log is made once, here: rewritten in place for each binary, it keeps its
# inode, and its mtimes are the same instants, after its birth (else run takes it for a
# new file on a reused inode).
: > "$run/access.log"; mtime=$(( $(date +%s) + 2 ))
side=old bin=$old; suite
side=new bin=$new; suite

# --- Compare --------------------------------------------------------------------------------
differs=0 n=0
while read -r name; do
  n=$((n + 1)) bad=""
  # Every file either side has for the case: one missing on a side differs too.
  for f in $(ls "$res/old/$name" "$res/new/$name" 2>/dev/null | grep -v ':$' | sort -u); do
    cmp -s "$res/old/$name/$f" "$res/new/$name/$f" 2>/dev/null || bad="$bad $f"
  done
  if [ -z "$bad" ]; then printf 'same     %s\n' "$name"; continue; fi
  differs=$((differs + 1)); printf 'DIFFERS  %s:%s\n' "$name" "$bad"
  for f in $bad; do diff -a "$res/old/$name/$f" "$res/new/$name/$f" 2>&1 | head -n 6 | cut -c1-200 | sed 's/^/    /'; done
done < "$res/cases"
echo "same-bytes: $n cases, $differs differ ($(( $(date +%s) - started )) s; outputs in $res)"
[ "$differs" = 0 ]
