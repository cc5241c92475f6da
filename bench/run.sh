#!/usr/bin/env bash
# uaaudit's benchmark: lines/s, MB/s and peak RSS for --threads 1 and 2, beside wc -l,
# rg -c (one regex) and GoAccess on the same log, in the same run.
#
#   bench/run.sh [--lines N] [--runs R] [--file LOG] [--full-goaccess] [--ref 'CMD']
#
#   --lines N        lines of the generated log (default 10000000, about 2.3 GB)
#   --runs R         runs per tool; the best (lowest wall time) is reported (default 3)
#   --file LOG       use an existing ua_log file instead of generating one
#   --full-goaccess  run GoAccess on the whole file (slow: ~70 s per million lines, and
#                    its memory grows with the file); by default it gets the first
#                    1,000,000 lines, and its row says so
#   --ref 'CMD'      also time CMD FILE (e.g. --ref 'python3 ref_audit.py')
#
# Needs: a release build (swift build -c release), python3, GNU time (/usr/bin/time,
# Debian package 'time'); rg (ripgrep) and goaccess rows appear where they are installed.
# The log goes to $BENCH_DIR (default bench/out/, git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
lines=10000000
runs=3
file=""
full_goaccess=0
ref=""
while [ $# -gt 0 ]; do
  case "$1" in
    --lines) lines=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --file) file=$2; shift 2 ;;
    --full-goaccess) full_goaccess=1; shift ;;
    --ref) ref=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "bench: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
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

# best_of LABEL LINES BYTES CMD...: runs CMD $runs times, prints a row for the fastest run.
best_of() {
  local label=$1 n=$2 b=$3; shift 3
  local best="" rss=""
  for _ in $(seq "$runs"); do
    local out
    /usr/bin/time -o "$dir/.time" -f '%e %M' "$@" > /dev/null 2>/dev/null || true
    out=$(tail -1 "$dir/.time")
    local t=${out% *} m=${out#* }
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; rss=$m; fi
  done
  awk -v l="$label" -v t="$best" -v n="$n" -v b="$b" -v m="$rss" 'BEGIN{
    if (t <= 0) t = 0.005;
    printf "%-34s %8.2f s %9.2f M/s %8.0f MB/s %7.1f MiB\n", l, t, n/t/1e6, b/t/1e6, m/1024 }'
}

echo "file: $file ($nlines lines, $((bytes / 1000000)) MB), best of $runs runs, $(nproc) cores"
printf '%-34s %10s %13s %13s %11s\n' tool "wall" "lines/s" "MB/s" "peak RSS"
best_of "wc -l" "$nlines" "$bytes" wc -l "$file"
if command -v rg >/dev/null; then
  best_of "rg -c (inconsistent regex)" "$nlines" "$bytes" rg -c "$pattern" "$file"
fi
best_of "uaaudit scan --threads 1" "$nlines" "$bytes" "$bin" scan --json --threads 1 "$file"
best_of "uaaudit scan --threads 2" "$nlines" "$bytes" "$bin" scan --json --threads 2 "$file"
if [ -n "$ref" ]; then
  # shellcheck disable=SC2086
  best_of "ref: $ref" "$nlines" "$bytes" $ref "$file"
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
