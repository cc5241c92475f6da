#!/usr/bin/env bash
# uaaudit's benchmark: lines/s, MB/s, peak RSS and the ratio to rg -c for uaaudit with the
# default flags at 1 and 2 threads, with --client-key none --baseline-hours 0, on the gzip of
# the file, and on several copies of that gzip at once (rotated logs, read side by side),
# beside wc -l, rg -c (one regex), zcat | wc -l and GoAccess on the same log, in the same run;
# then the issue-17 and issue-36 targets checked against those numbers.
#
#   bench/run.sh [--lines N] [--runs R] [--file LOG] [--gz-inputs K] [--full-goaccess] [--ref 'CMD']
#
#   --lines N        lines of the generated log (default 10000000, about 2.3 GB)
#   --runs R         runs per tool; the best (lowest wall time) is reported (default 3)
#   --file LOG       use an existing ua_log file instead of generating one
#   --gz-inputs K    how many copies of the gzip the rotated-logs rows scan together, at 1
#                    and at 2 threads (default 2; at least 2)
#   --full-goaccess  run GoAccess on the whole file (slow: ~70 s per million lines, and
#                    its memory grows with the file); by default it gets the first
#                    1,000,000 lines, and its row says so
#   --ref 'CMD'      also time CMD FILE (e.g. --ref 'python3 ref_audit.py') and say how many
#                    times faster uaaudit is on one thread (issue 17 asks for 12x)
#
# Columns: wall time of the best run, lines/s, MB/s (of the file as read: compressed bytes
# for .gz rows), peak RSS, wall time over rg -c's, and for uaaudit the share of its wall time
# spent after the last chunk was read (the last merge, the report, the JSON: the serial tail,
# printed by uaaudit when UAAUDIT_TIMING is set). The idle RSS (an empty input) is measured
# too, for the memory bound of ../shared/CONTRACTS.md.
#
# Issue 36: K .gz inputs at 2 threads should take at most 0.65x the time of 1 thread (each
# input is read by one worker; zlib's inflate is the cost).
#
# Needs: a release build (swift build -c release), python3, gzip, GNU time (/usr/bin/time,
# Debian package 'time'); rg (ripgrep) and goaccess rows appear where they are installed.
# The log, its gzip and the copies go to $BENCH_DIR (default bench/out/, git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
lines=10000000
runs=3
file=""
full_goaccess=0
ref=""
gz_inputs=2
while [ $# -gt 0 ]; do
  case "$1" in
    --lines) lines=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --file) file=$2; shift 2 ;;
    --gz-inputs) gz_inputs=$2; shift 2 ;;
    --full-goaccess) full_goaccess=1; shift ;;
    --ref) ref=$2; shift 2 ;;
    -h|--help) sed -n '2,32p' "$0"; exit 0 ;;
    *) echo "bench: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$gz_inputs" in
  ''|*[!0-9]*) echo "bench: --gz-inputs takes a whole number, at least 2" >&2; exit 2 ;;
esac
[ "$gz_inputs" -ge 2 ] || { echo "bench: --gz-inputs takes a whole number, at least 2" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (apt-get install time)" >&2; exit 2; }
bin=.build/release/uaaudit
if [ ! -x "$bin" ]; then
  echo "bench: building release binary" >&2
  swift build -c release >&2
fi
dir=${BENCH_DIR:-bench/out}
mkdir -p "$dir"
if [ -z "$file" ]; then
  file="$dir/bench-$lines.log"
  if [ ! -f "$file" ]; then
    echo "bench: generating $lines lines into $file" >&2
    python3 bench/make-log.py --lines "$lines" --out "$file"
  fi
fi
bytes=$(stat -c %s "$file")
nlines=$(wc -l < "$file")
cat "$file" > /dev/null  # into the page cache: every tool reads from memory
pattern='com\.apple\.CFNetwork|Mozilla/5\.0 \(iPhone; CPU iPhone OS \d+_\d+ like Mac OS X\)'

gzfile="$file.gz"
if [ ! -f "$gzfile" ] || [ "$gzfile" -ot "$file" ]; then
  echo "bench: compressing $file (gzip -1)" >&2
  gzip -1 -c "$file" > "$gzfile"
fi
gzbytes=$(stat -c %s "$gzfile")
cat "$gzfile" > /dev/null
# Rotated logs: copies of the gzip (not links: scan refuses the same file twice).
rotated=()
for i in $(seq "$gz_inputs"); do
  copy="$dir/rotated.log.$i.gz"
  if [ ! -f "$copy" ] || [ "$copy" -ot "$gzfile" ]; then cp "$gzfile" "$copy"; fi
  cat "$copy" > /dev/null
  rotated+=("$copy")
done
: > "$dir/empty.log"

rg_wall=""
# best_of LABEL LINES BYTES CMD...: runs CMD $runs times, prints a row for the fastest run.
best_of() {
  local label=$1 n=$2 b=$3; shift 3
  local best="" rss="" tail=""
  for _ in $(seq "$runs"); do
    local out
    # Wall time from the clock in nanoseconds (GNU time's %e has 10 ms steps: too coarse for a
    # 1M-line file); peak RSS from GNU time.
    local started ended
    started=$(date +%s%N)
    UAAUDIT_TIMING=1 /usr/bin/time -o "$dir/.time" -f '%M' "$@" > /dev/null 2> "$dir/.stderr" || true
    ended=$(date +%s%N)
    local t m
    t=$(awk -v a="$started" -v b="$ended" 'BEGIN{printf "%.4f", (b - a) / 1e9}')
    m=$(tail -1 "$dir/.time")
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then
      best=$t; rss=$m
      tail=$(sed -n 's/^.*uaaudit-timing: total \([0-9.e+-]*\) s, after the last chunk \([0-9.e+-]*\) s$/\1 \2/p' "$dir/.stderr")
    fi
  done
  last_wall=$best last_rss=$rss
  awk -v l="$label" -v t="$best" -v n="$n" -v b="$b" -v m="$rss" -v rg="$rg_wall" -v tail="$tail" 'BEGIN{
    if (t <= 0) t = 0.005;
    ratio = rg == "" ? "" : sprintf("%.2fx", t / rg);
    share = "";
    if (tail != "") { split(tail, x, " "); share = sprintf("%.1f%%", 100 * x[2] / t) }
    printf "%-44s %7.3f s %7.2f M/s %6.0f MB/s %7.1f MiB %7s %7s\n", l, t, n/t/1e6, b/t/1e6, m/1024, ratio, share }'
}

echo "file: $file ($nlines lines, $((bytes / 1000000)) MB; gzip $((gzbytes / 1000000)) MB), best of $runs runs, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-44s %9s %11s %11s %11s %7s %7s\n' tool "wall" "lines/s" "MB/s" "peak RSS" "vs rg" "tail"
best_of "wc -l" "$nlines" "$bytes" wc -l "$file"
if command -v rg >/dev/null; then
  best_of "rg -c (inconsistent regex)" "$nlines" "$bytes" rg -c "$pattern" "$file"
  rg_wall=$last_wall
fi
best_of "uaaudit scan (empty input: idle RSS)" 0 0 "$bin" scan --json --threads 1 "$dir/empty.log"
idle=$last_rss
best_of "uaaudit scan --threads 1" "$nlines" "$bytes" "$bin" scan --json --threads 1 "$file"
t1=$last_wall rss1=$last_rss
best_of "uaaudit scan --threads 2" "$nlines" "$bytes" "$bin" scan --json --threads 2 "$file"
t2=$last_wall rss2=$last_rss
best_of "  --client-key none --baseline-hours 0 -j1" "$nlines" "$bytes" \
  "$bin" scan --json --threads 1 --client-key none --baseline-hours 0 "$file"
tn1=$last_wall
best_of "  --client-key none --baseline-hours 0 -j2" "$nlines" "$bytes" \
  "$bin" scan --json --threads 2 --client-key none --baseline-hours 0 "$file"
best_of "zcat FILE.gz | wc -l" "$nlines" "$gzbytes" sh -c 'zcat "$1" | wc -l' sh "$gzfile"
best_of "uaaudit scan FILE.gz (one stream)" "$nlines" "$gzbytes" "$bin" scan --json "$gzfile"
best_of "uaaudit scan $gz_inputs x FILE.gz --threads 1" $((nlines * gz_inputs)) $((gzbytes * gz_inputs)) \
  "$bin" scan --json --threads 1 "${rotated[@]}"
g1=$last_wall grss1=$last_rss
best_of "uaaudit scan $gz_inputs x FILE.gz --threads 2" $((nlines * gz_inputs)) $((gzbytes * gz_inputs)) \
  "$bin" scan --json --threads 2 "${rotated[@]}"
g2=$last_wall grss2=$last_rss
if [ -n "$ref" ]; then
  # shellcheck disable=SC2086
  best_of "ref: $ref" "$nlines" "$bytes" $ref "$file"
  # Issue 17: at least 12x the reference audit on one thread.
  awk -v r="$last_wall" -v t1="$t1" -v tn="$tn1" 'BEGIN{
    printf "ref: uaaudit --threads 1 is %.1fx faster (>= 12), %.1fx with --client-key none --baseline-hours 0\n", r/t1, r/tn }'
fi
if command -v goaccess >/dev/null; then
  gfile=$file gl=$nlines gb=$bytes label="goaccess"
  if [ "$full_goaccess" = 0 ] && [ "$nlines" -gt 1000000 ]; then
    gfile="$dir/goaccess-1m.log"
    head -n 1000000 "$file" > "$gfile"
    gl=1000000 gb=$(stat -c %s "$gfile") label="goaccess (first 1M lines)"
  fi
  runs_saved=$runs; runs=1
  best_of "$label" "$gl" "$gb" goaccess "$gfile" --no-global-config \
    --log-format='%h %^[%d:%t %^] "%r" %s %b "%R" "%u" rt=%T uct="%^" uht="%^" urt="%^"' \
    --date-format='%d/%b/%Y' --time-format='%H:%M:%S' --no-progress -o "$dir/goaccess.json"
  runs=$runs_saved
fi

# The targets of issue 17 (one thread within 2.5x rg -c and 4 M lines/s; two threads 1.8x
# one thread and within 1.4x rg -c; peak RSS within idle + 16 MiB).
awk -v t1="$t1" -v t2="$t2" -v rg="$rg_wall" -v n="$nlines" -v idle="$idle" -v r1="$rss1" -v r2="$rss2" 'BEGIN{
  printf "targets: 1 thread %.2f M lines/s (>= 4), %.2fx rg (<= 2.5); 2 threads %.2fx one thread (>= 1.8), %.2fx rg (<= 1.4); peak RSS %.1f / %.1f MiB over idle %.1f MiB (<= 16)\n",
    n/t1/1e6, rg == "" ? 0 : t1/rg, t1/t2, rg == "" ? 0 : t2/rg, (r1-idle)/1024, (r2-idle)/1024, idle/1024 }'
# Issue 36: rotated .gz logs read side by side (2 threads at most 0.65x the time of 1).
awk -v k="$gz_inputs" -v g1="$g1" -v g2="$g2" -v idle="$idle" -v r1="$grss1" -v r2="$grss2" 'BEGIN{
  printf "targets: %d gzip inputs, 2 threads take %.2fx the time of 1 thread (<= 0.65); peak RSS %.1f / %.1f MiB over idle (<= 16)\n",
    k, g2/g1, (r1-idle)/1024, (r2-idle)/1024 }'
