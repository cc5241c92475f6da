#!/bin/sh
# Wrapper for cron: one run with the config, its messages appended to a log with a time
# stamp, and the exit status kept for cron's mail. uaaudit itself takes the lock, so two
# overlapping invocations cannot both touch the state (the second exits 5).
set -u
config=${UAAUDIT_CONFIG:-/etc/uaaudit/uaaudit.json}
log=${UAAUDIT_LOG:-/var/log/uaaudit.log}
status=0
/usr/local/bin/uaaudit run --quiet --config "$config" 2>>"$log.tmp.$$" || status=$?
if [ -s "$log.tmp.$$" ]; then
  sed "s/^/$(date -u +%Y-%m-%dT%H:%M:%SZ) /" "$log.tmp.$$" >>"$log"
  cat "$log.tmp.$$" >&2
fi
rm -f "$log.tmp.$$"
exit "$status"
