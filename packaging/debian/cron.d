# /etc/cron.d/uaaudit: the hourly `uaaudit run`, disabled until you configure it.
# Configure first (/usr/share/doc/uaaudit/README.Debian): the logs in
# /etc/uaaudit/uaaudit.json and a rules file at /etc/uaaudit/rules.json. Then either remove
# the '#' in front of the line below, or use systemd instead: systemctl enable --now uaaudit.timer
# (not both). Five minutes past the hour leaves the grace period (grace_seconds, default
# 300) for late lines of the hour that just ended. It runs as the service account uaaudit
# (group adm reads /var/log/nginx); each run logs one heartbeat line to
# /var/log/uaaudit/uaaudit.log.
SHELL=/bin/sh
PATH=/usr/bin:/bin
# The test keeps the line quiet once the package is removed (apt remove keeps this conffile).
#5 * * * *  uaaudit  [ -x /usr/lib/uaaudit/uaaudit-cron.sh ] && /usr/lib/uaaudit/uaaudit-cron.sh
