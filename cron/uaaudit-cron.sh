#!/bin/sh
# Wrapper for cron: one run with the config; one heartbeat line per run (lines read, hours
# closed, alerts sent, gaps, exit status) and every message, each time-stamped, appended to
# the log, so a silent cron is visible. The exit status is kept for cron's mail. uaaudit takes
# the lock itself, so two overlapping invocations cannot both touch the state (the second
# exits 5). uaaudit is looked for next to this script (install both in the same directory).
set -u
bin=${UAAUDIT_BIN:-$(dirname "$0")/uaaudit}
config=${UAAUDIT_CONFIG:-/etc/uaaudit/uaaudit.json}
log=${UAAUDIT_LOG:-/var/log/uaaudit/uaaudit.log}
messages=$(mktemp "${TMPDIR:-/tmp}/uaaudit-cron.XXXXXX") || exit 6
status=0
"$bin" run --quiet --heartbeat --config "$config" 2>"$messages" || status=$?
stamp=$(date -u +%Y-%m-%dT%H:%M:%SZ)
# A run that stopped before its heartbeat (a config error, a missing binary) still leaves a
# line with its exit status, so the log never goes quiet.
grep -q '^uaaudit: run: lines ' "$messages" ||
  echo "uaaudit: run: no heartbeat: exit $status (see the lines above; uaaudit --help lists the exit statuses)" >>"$messages"
sed "s/^/$stamp /" "$messages" >>"$log"
# Errors go to cron's mail as well; the heartbeat alone does not.
grep -v '^uaaudit: run: lines ' "$messages" >&2
rm -f "$messages"
exit "$status"
