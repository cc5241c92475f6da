#!/usr/bin/env bash
# Proves that a change left every report as it was: runs an older uaaudit binary and this
# tree's release binary on the same inputs, at --threads 1, 2 and 3, and compares the JSON
# reports byte for byte (SOURCE_DATE_EPOCH pins generated_at).
#
#   bench/compare.sh OLD_BINARY [--big LOG]... [--lines N] [--new BINARY]
#
#   OLD_BINARY   uaaudit built from the commit to compare with, e.g. from a worktree of main:
#                git worktree add /tmp/base main && (cd /tmp/base && swift build -c release)
#   --big LOG    also compare on LOG (any ua_log file; more than 16 MiB gives several chunks)
#   --lines N    lines of the generated logs (default 300000: 4 chunks of 16 MiB)
#   --new BIN    the binary to check (default .build/release/uaaudit)
#
# Inputs: every SampleLogs/ file with the options its test uses, and logs made by
# bench/make-log.py and (when /work/shared/bench/genlog.py or $GENLOG is there) by genlog.py
# with its truth file checked too. Each input is read with the default flags and with
# --client-key none --baseline-hours 0. COMPARE_EXACT_FALSE=1 allows differences in the
# sampled client figures (exact: false) only, for a change of the client hash.
# Exit 0 when every report is identical, 1 otherwise (the first lines of each diff shown).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '2,20p' "$0"; exit 2; }
old=$1; shift
new=.build/release/uaaudit
lines=300000
big=()
while [ $# -gt 0 ]; do
  case "$1" in
    --big) big+=("$2"); shift 2 ;;
    --lines) lines=$2; shift 2 ;;
    --new) new=$2; shift 2 ;;
    *) echo "compare: unknown option $1" >&2; exit 2 ;;
  esac
done
dir=${COMPARE_DIR:-bench/out/compare}
mkdir -p "$dir"
export SOURCE_DATE_EPOCH=1796000000
gen=${GENLOG:-/work/shared/bench/genlog.py}
[ -f "$dir/make-log.log" ] || python3 bench/make-log.py --lines "$lines" --out "$dir/make-log.log"
if [ -f "$gen" ] && [ ! -f "$dir/genlog.log" ]; then
  python3 "$gen" --lines "$lines" --hours 24 --seed 7 --out "$dir/genlog.log" --truth "$dir/genlog.truth.json" > /dev/null
fi
[ -f "$dir/make-log.log.gz" ] || gzip -kf "$dir/make-log.log"

cases=(
  "SampleLogs/ua_log.log|"
  "SampleLogs/ua_log.log.gz|"
  "SampleLogs/malformed.log|"
  "SampleLogs/combined.log|--format combined"
  "SampleLogs/ua_log_json.log|--nginx-conf SampleLogs/nginx.conf --format ua_log_json"
  "SampleLogs/devices.log|--nginx-conf SampleLogs/nginx.conf --format ua_devices --client-key http_x_device_id"
  "$dir/make-log.log|"
  "$dir/make-log.log.gz|"
)
[ -f "$dir/genlog.log" ] && cases+=("$dir/genlog.log|")
for f in "${big[@]}"; do cases+=("$f|"); done

failed=0 compared=0
for c in "${cases[@]}"; do
  file=${c%%|*} opts=${c#*|}
  for extra in "" "--client-key none --baseline-hours 0"; do
    # An option given twice is refused (exit 2): the extra --client-key replaces the case's.
    [ -n "$extra" ] && opts=$(printf '%s' "${c#*|}" | sed -E 's/--client-key [^ ]+//')
    # shellcheck disable=SC2086
    "$old" scan --json --threads 1 $opts $extra "$file" > "$dir/old.json" 2> /dev/null || true
    for t in 1 2 3; do
      # shellcheck disable=SC2086
      "$new" scan --json --threads $t $opts $extra "$file" > "$dir/new.json" 2> /dev/null || true
      compared=$((compared + 1))
      if ! cmp -s "$dir/old.json" "$dir/new.json"; then
        if [ "${COMPARE_EXACT_FALSE:-0}" = 1 ] && python3 - "$dir/old.json" "$dir/new.json" <<'PY'
import json, sys
def strip(x):
    if isinstance(x, dict):
        if x.get("exact") is False: return "sampled"
        return {k: strip(v) for k, v in x.items()}
    if isinstance(x, list): return [strip(v) for v in x]
    return x
a, b = (json.load(open(p)) for p in sys.argv[1:])
sys.exit(0 if strip(a) == strip(b) else 1)
PY
        then
          echo "same but sampled client figures: $file $opts $extra --threads $t"
          continue
        fi
        failed=$((failed + 1))
        echo "DIFFERENT: $file $opts $extra --threads $t"
        diff "$dir/old.json" "$dir/new.json" | head -10
      fi
    done
  done
done
if [ -f "$dir/genlog.truth.json" ] && [ -f "$gen" ]; then
  python3 "$(dirname "$gen")/ref_audit.py" "$dir/genlog.log" --check "$dir/genlog.truth.json" > /dev/null 2>&1 \
    && echo "genlog truth: ref_audit agrees with the generator"
fi
echo "compare: $compared reports, $failed different"
[ $failed = 0 ]
