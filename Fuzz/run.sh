#!/usr/bin/env bash
# Builds uaaudit's libFuzzer targets and runs each for a share of SECONDS (default 60).
#
#   Fuzz/run.sh [SECONDS] [TARGET...]
#
# Targets: tokenizer unescape format time rules nginx-conf config state gzip (all by
# default). Each checks properties, not only "no crash" (see Sources/uaaudit-fuzz/). Seed
# corpora come from SampleLogs/, rules/, cron/ and Fuzz/seeds/; what libFuzzer adds is kept
# in Fuzz/corpus/TARGET (git-ignored; made and seeded when missing or empty, as in a fresh
# clone), so later runs go on from there. A crash or a broken property writes the input to
# Fuzz/findings/ and this script exits 1: turn each one into a test in
# Tests/UAAuditCoreTests/Fuzz/.
#
# FUZZ_SEED=N passes libFuzzer -seed=N, so that a run from the same corpus tries the same
# inputs in the same order (CI uses FUZZ_SEED=1 on a fresh clone); how many it gets through
# in the time still depends on the machine.
#
# Needs the Swift toolchain's libFuzzer (-sanitize=fuzzer,address) and lld (both ship with
# Swift 6 on Linux); the build goes to Fuzz/.build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
seconds=${1:-60}
fuzz_seed=${FUZZ_SEED:-}
if [ -n "$fuzz_seed" ] && ! [[ $fuzz_seed =~ ^[0-9]+$ ]]; then
  echo "fuzz: FUZZ_SEED must be a whole number, not '$fuzz_seed'" >&2
  exit 2
fi
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(tokenizer unescape format time rules nginx-conf config state gzip)
per=$(( seconds / ${#targets[@]} ))
[ "$per" -ge 1 ] || per=1

echo "fuzz: building (release, -sanitize=fuzzer,address)" >&2
# -enable-testing: the targets reach the core's internal byte-level types (@testable import),
# which are not package API (no package declaration takes a raw pointer).
(cd "$here" && swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
  -Xswiftc -use-ld=lld -Xswiftc -enable-testing >&2)
bin="$here/.build/release/uaaudit-fuzz"

seed() {  # seed TARGET DIR: writes the seed inputs of TARGET into DIR
  local target=$1 dir=$2 n=0
  mkdir -p "$dir"
  case "$target" in
    tokenizer|unescape)
      for f in "$root"/SampleLogs/*.log; do
        while IFS= read -r line && [ $n -lt 400 ]; do printf '%s' "$line" > "$dir/seed-$n"; n=$((n + 1)); done < "$f"
      done
      # Long inputs too: a valid line whose UA is 250 KB of escapes and text (the shape that
      # once overran the decoders' buffers).
      { printf '%s' '127.0.0.1 - - [29/Nov/2026:17:18:40 +0800] "GET / HTTP/1.1" 200 2 "-" "MyApp/5.12.1 (iPhone; iOS 17_4)'
        head -c 200000 /dev/zero | tr '\0' 'A' | sed 's/AAAAAAAA/\\x22\\u00e9/g'
        printf '%s' '" rt=0.000 uct="-" uht="-" urt="-"'; } > "$dir/seed-long" ;;
    format)
      grep -h "log_format" "$root/SampleLogs/nginx.conf" | sed "s/.*log_format [a-z_]* //" > "$dir/seed-conf"
      printf '%s' '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"' > "$dir/seed-combined"
      printf '%s' '$msec|${status}|$http_user_agent' > "$dir/seed-msec" ;;
    time)
      printf '%s' '29/Nov/2026:17:18:40 +0800' > "$dir/seed-local"
      printf '%s' '2026-11-29T17:18:40+05:30' > "$dir/seed-iso"
      printf '%s' '1795943920.123' > "$dir/seed-msec" ;;
    rules) cp "$root"/rules/*.json "$dir/" ;;
    nginx-conf) cp "$root/SampleLogs/nginx.conf" "$dir/seed-conf" ;;
    config) cp "$root/cron/uaaudit.json" "$dir/seed-config" ;;
    state) cp "$here/seeds/state.json" "$dir/seed-state" ;;
    gzip) cp "$root/SampleLogs/ua_log.log.gz" "$dir/seed-gz" ;;
  esac
}

status=0
mkdir -p "$here/findings"
for target in "${targets[@]}"; do
  corpus="$here/corpus/$target"
  [ -n "$(ls -A "$corpus" 2>/dev/null)" ] || seed "$target" "$corpus"
  echo "fuzz: $target for ${per}s" >&2
  found=0
  # The byte-level targets also get inputs of up to 2 MiB: lines longer than any buffer.
  max_len=()
  case "$target" in tokenizer|unescape) max_len=(-max_len=2097152) ;; esac
  out=$(UAAUDIT_FUZZ_TARGET=$target "$bin" "$corpus" "${max_len[@]}" -max_total_time="$per" -timeout=10 -rss_limit_mb=2048 \
    ${fuzz_seed:+-seed="$fuzz_seed"} -artifact_prefix="$here/findings/$target-" -print_final_stats=1 2>&1) || found=1
  runs=$(printf '%s\n' "$out" | sed -n 's/^stat::number_of_executed_units: *//p')
  printf 'fuzz: %-10s %12s executions%s\n' "$target" "${runs:-?}" "$([ $found = 0 ] || echo ', FINDING (see Fuzz/findings)')"
  if [ $found = 1 ]; then
    status=1
    printf '%s\n' "$out" | grep -E "Fatal|ERROR|SUMMARY" | head -5 >&2
  fi
done
exit $status
