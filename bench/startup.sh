#!/usr/bin/env bash
# What uaaudit costs before it reads a byte: an older build beside this tree's static release
# build, in one run. For each: the binary's size and the libraries it loads, whether it runs
# with the Swift toolchain hidden (as on a server without Swift; needs root for unshare -m),
# the peak RSS of `uaaudit scan EMPTYFILE` (median of 5, /usr/bin/time -v) and the time from
# start to exit of the same command (hyperfine, 10 warm-up runs and 100 measured; without
# hyperfine, the mean of 50 runs timed with date +%s%N). Run it on an idle machine: the
# minimum is the figure least disturbed by other work.
#
#   bench/startup.sh OLD_BINARY [NEW_BINARY]
#
#   OLD_BINARY   uaaudit built from the commit to compare with, e.g. main's dynamic build:
#                git worktree add /tmp/base main && (cd /tmp/base && swift build -c release)
#   NEW_BINARY   default: this tree's `swift build -c release --static-swift-stdlib`, built first
#
# Targets (issue 18): at most 16 MiB peak RSS and 10 ms from start to exit.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '2,15p' "$0"; exit 2; }
old=$(readlink -f "$1")
if [ $# -ge 2 ]; then
  new=$(readlink -f "$2")
else
  swift build -c release --static-swift-stdlib >&2
  new=$(readlink -f .build/release/uaaudit)
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
empty=$scratch/empty.log
: >"$empty"

toolchain=""
if command -v swift >/dev/null; then
  toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
fi

libraries() { ldd "$1" | grep -c '=>\|ld-linux' || true; }

without_toolchain() {
  if [ -z "$toolchain" ]; then echo "no toolchain here"; return; fi
  if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then echo "(needs root)"; return; fi
  if unshare -m sh -c "mount -t tmpfs none '$toolchain' && '$1' --version" >/dev/null 2>&1; then
    echo "runs"
  else
    echo "fails"
  fi
}

peak_rss() {
  local runs=()
  for _ in 1 2 3 4 5; do
    /usr/bin/time -v "$1" scan -q "$empty" 2>&1 >/dev/null |
      awk -F': ' '/Maximum resident set size/ { print $2 }' >"$scratch/rss"
    runs+=("$(cat "$scratch/rss")")
  done
  printf '%s\n' "${runs[@]}" | sort -n | sed -n 3p | awk '{ printf "%.1f MiB", $1 / 1024 }'
}

startup() {
  if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 10 --runs 100 --export-json "$scratch/h.json" "$1 scan -q $empty" >/dev/null 2>&1
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.1f ms (min %.1f, med %.1f)" % (r["mean"]*1e3, r["min"]*1e3, r["median"]*1e3))' "$scratch/h.json"
  else
    for _ in 1 2 3 4 5; do "$1" scan -q "$empty"; done
    local start end
    start=$(date +%s%N)
    for _ in $(seq 50); do "$1" scan -q "$empty"; done
    end=$(date +%s%N)
    awk -v ns=$((end - start)) 'BEGIN { printf "%.1f ms (mean of 50)", ns / 50 / 1e6 }'
  fi
}

row() { printf '%-30s %-26s %s\n' "$1" "$2" "$3"; }
echo "old: $old"
echo "new: $new"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (times on a busy machine are not start-up costs)"
row "" "old" "new"
row "size" "$(du -h "$old" | cut -f1)" "$(du -h "$new" | cut -f1)"
row "libraries loaded (ldd)" "$(libraries "$old")" "$(libraries "$new")"
row "--version, toolchain hidden" "$(without_toolchain "$old")" "$(without_toolchain "$new")"
row "peak RSS, scan empty file" "$(peak_rss "$old")" "$(peak_rss "$new")"
row "start to exit, scan empty" "$(startup "$old")" "$(startup "$new")"
echo
echo "new binary's libraries:"
ldd "$new" | sed 's/ (0x[0-9a-f]*)//'
