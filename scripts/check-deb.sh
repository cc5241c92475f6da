#!/usr/bin/env bash
# CI's check of the Debian package (.ci/run, after the tests; about 4 minutes with the
# release build): builds it (scripts/package-deb.sh), lints it (lintian: an error or a warning
# fails; packaging/debian/lintian-overrides says why each overridden tag is accepted),
# installs it with dpkg -i, runs it as a server without Swift would (the toolchain's directory
# hidden under a tmpfs in a mount namespace), then removes and purges it and checks that only
# the documented state is left at each step (packaging/debian/README.Debian).
#
#   scripts/check-deb.sh
#
# It installs and purges the package on this machine, so it runs as root (or with sudo), and
# refuses to start when /etc/uaaudit, /var/lib/uaaudit or /var/log/uaaudit exist without the
# package (a hand-made install, cron/README.md, that the purge would delete). A system user
# uaaudit without them (the end-to-end tests' CronInstallTests make one) is deleted first, so
# that postinst's creation of it is what gets checked, and made again as it was at the end
# (also when a check fails); the user the package made is deleted at the end, since the purge
# keeps it (README.Debian).
set -euo pipefail
self=$(readlink -f "$0")
cd "$(dirname "$0")/.."
root=$(pwd -P)

say() { echo "check-deb: $*"; }
fail() {
  echo "check-deb: FAILED: $*" >&2
  exit 1
}

doc=/usr/share/doc/uaaudit
unitdir=/lib/systemd/system
sample=ua_log.log

# The checks run inside the mount namespace where the toolchain is hidden (see below).
if [ "${1:-}" = --inside ]; then
  tc=$2 version=$3 commit=$4
  [ ! -e "$tc/bin/swift" ] || fail "$tc/bin/swift is still visible: the toolchain is not hidden"
  say "toolchain $tc hidden (a tmpfs over it); swift: $(command -v swift || echo 'not found')"

  say "ldd /usr/bin/uaaudit: every library found, each from a package in Depends:"
  depends=$(dpkg-query -W -f='${Depends}' uaaudit)
  depends_names=$(sed 's/([^)]*)//g; s/|/,/g' <<<"$depends" | tr ',' '\n' | tr -d ' ')
  libs=$(ldd /usr/bin/uaaudit) || fail "ldd /usr/bin/uaaudit failed"
  if grep -q 'not found' <<<"$libs"; then fail "libraries missing without the toolchain:
$libs"; fi
  while read -r lib; do
    real=$(readlink -f "$lib")
    owner=$(dpkg -S "$lib" 2>/dev/null || dpkg -S "$real" 2>/dev/null || dpkg -S "${real#/usr}" 2>/dev/null) ||
      fail "$lib ($real) belongs to no package"
    owner=${owner%%:*}
    grep -qxF "$owner" <<<"$depends_names" || fail "$lib is $owner's, which Depends: ($depends) lacks"
    say "  $lib: $owner"
  done < <(awk '$3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' <<<"$libs")

  say "a webhook to a loopback receiver: libcurl (dlopen'ed, so not in ldd) loads from libcurl4"
  # 7.85.0: CURLOPT_PROTOCOLS_STR (scripts/package-deb.sh, Sources/CCurl/shim.h).
  grep -qE '(^|, )libcurl4 \(>= 7\.85\.0\)(,|$)' <<<"$depends" || fail "Depends: ($depends) lacks libcurl4 (>= 7.85.0)"
  scratch=$(mktemp -d)
  # Answers 200 to each POST and notes its path; prints its port once it listens.
  python3 -c '
import http.server, sys
class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        open(sys.argv[1], "a").write(self.path + "\n")
        self.send_response(200); self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(b"ok")
    def log_message(self, *args): pass
server = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
print(server.server_port, flush=True)
server.serve_forever()' "$scratch/posts" >"$scratch/port" &
  receiver=$!
  for _ in $(seq 50); do [ -s "$scratch/port" ] && break; sleep 0.1; done
  port=$(cat "$scratch/port")
  [ -n "$port" ] || fail "the loopback receiver did not start"
  got=$(LD_DEBUG=libs LD_DEBUG_OUTPUT="$scratch/ld" uaaudit alert test --webhook "http://127.0.0.1:$port/check-deb" \
    --webhook-kind generic 2>&1) || fail "uaaudit alert test exited $?: $got"
  kill "$receiver"
  grep -q "^delivered to generic http://127.0.0.1:$port/" <<<"$got" || fail "the test webhook was not delivered: $got"
  grep -qx /check-deb "$scratch/posts" || fail "the receiver got no POST /check-deb"
  curl_lib=$(cat "$scratch"/ld.* | sed -n 's/.*calling init: \(.*libcurl\.so\.4\)$/\1/p' | head -1)
  [ -n "$curl_lib" ] || fail "no libcurl.so.4 was loaded for the webhook (LD_DEBUG=libs)"
  owner=$(dpkg -S "$curl_lib" 2>/dev/null || dpkg -S "$(readlink -f "$curl_lib")" 2>/dev/null) ||
    fail "$curl_lib belongs to no package"
  [ "${owner%%:*}" = libcurl4 ] || fail "$curl_lib is ${owner%%:*}'s, not libcurl4's"
  say "  $got; libcurl from $curl_lib (libcurl4)"
  rm -rf "$scratch"

  say "uaaudit --version is 'uaaudit $version (commit $commit)'"
  got=$(uaaudit --version) || fail "uaaudit --version exited $?"
  [ "$got" = "uaaudit $version (commit $commit)" ] || fail "uaaudit --version says '$got'"

  lines=$(wc -l <"$root/SampleLogs/$sample")
  say "uaaudit scan $doc/examples/$sample reads its $lines lines"
  cmp -s "$root/SampleLogs/$sample" "$doc/examples/$sample" || fail "$doc/examples/$sample is not SampleLogs/$sample"
  summary=$(uaaudit scan "$doc/examples/$sample") || fail "uaaudit scan exited $?"
  grep -qx "lines $lines: requests $lines, malformed 0" <<<"$summary" ||
    fail "uaaudit scan's summary lacks 'lines $lines: requests $lines, malformed 0':
$summary"
  say "uaaudit scan --json, merge, and rules lint and classify with each example rules file"
  scratch=$(mktemp -d)
  uaaudit scan --json "$doc/examples/$sample" >"$scratch/a.json" || fail "scan --json exited $?"
  merged=$(uaaudit merge "$scratch/a.json") || fail "merge exited $?"
  grep -qx "lines $lines: requests $lines, malformed 0" <<<"$merged" || fail "merge's summary is not scan's:
$merged"
  for rules in "$doc"/examples/rules/*.json; do
    got=$(uaaudit rules lint "$rules" 2>&1) || fail "uaaudit rules lint $rules exited $?: $got"
    grep -q "^$rules: no findings" <<<"$got" || fail "a shipped example fails uaaudit rules lint: $got"
    got=$(uaaudit classify --rules "$rules" 'curl/8.5.0') || fail "uaaudit classify --rules $rules exited $?"
    grep -q 'curl/8.5.0' <<<"$got" || fail "uaaudit classify --rules $rules does not name the UA: $got"
  done

  say "every command's --help (the commands of 'uaaudit help')"
  # "  rules init|test|lint  write rules…": the command, and its subcommands when it has some.
  commands=$(uaaudit help | sed -n '/^Commands:/,/^$/p' | grep '^  [a-z]' | sed -E 's/^  ([^ ]+( [^ ]+)?) {2,}.*/\1/' |
    awk '{ print $1 ($2 ~ /^[a-z|]+$/ ? " " $2 : "") }')
  [ -n "$commands" ] || fail "'uaaudit help' lists no commands"
  while read -r command subs; do
    case $command in help | version) continue ;; esac
    for sub in "" ${subs//|/ }; do
      # shellcheck disable=SC2086 # $sub is one word or none
      out=$(uaaudit $command $sub --help) || fail "uaaudit $command $sub --help exited $?"
      grep -q "^Usage: .*uaaudit $command" <<<"$out" || fail "uaaudit $command $sub --help has no 'Usage: … uaaudit $command'"
      say "  uaaudit $command${sub:+ $sub} --help"
    done
  done <<<"$commands"

  say "man -l /usr/share/man/man1/uaaudit.1.gz and man uaaudit render"
  page=$(MANWIDTH=80 man -P cat -l /usr/share/man/man1/uaaudit.1.gz 2>"$scratch/man.err") || fail "man -l exited $?"
  [ ! -s "$scratch/man.err" ] || fail "man -l warned: $(cat "$scratch/man.err")"
  grep -q '^NAME' <<<"$page" || fail "the man page has no NAME section"
  [ "$(MANWIDTH=80 man -P cat uaaudit 2>/dev/null)" = "$page" ] || fail "'man uaaudit' is not the installed page"

  say "bash completion: 'uaaudit sc<Tab>' offers scan, 'uaaudit scan --thr<Tab>' offers --threshold"
  [ -f /usr/share/bash-completion/bash_completion ] ||
    fail "bash-completion is not installed (scripts/install-deps.sh installs it)"
  complete_words() {
    bash -c '
      source /usr/share/bash-completion/bash_completion || exit 1
      source /usr/share/bash-completion/completions/uaaudit
      spec=$(complete -p uaaudit) || exit 1
      fn=$(sed -n "s/.* -F \([^ ]*\) .*/\1/p" <<<"$spec")
      COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
      "$fn" uaaudit "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
      printf "%s\n" "${COMPREPLY[@]}"' _ "$@"
  }
  complete_words uaaudit sc | grep -qx scan || fail "bash completion of 'uaaudit sc' lacks scan"
  complete_words uaaudit scan --thr | grep -qx -- --threshold ||
    fail "bash completion of 'uaaudit scan --thr' lacks --threshold"
  head -1 /usr/share/zsh/vendor-completions/_uaaudit | grep -q '^#compdef uaaudit' ||
    fail "_uaaudit does not start with '#compdef uaaudit'"
  if command -v zsh >/dev/null; then
    zsh -n /usr/share/zsh/vendor-completions/_uaaudit || fail "_uaaudit is not valid zsh"
    say "zsh completion: #compdef uaaudit, valid zsh (zsh -n)"
  else
    say "zsh completion: #compdef uaaudit (ZSH IS NOT INSTALLED: its syntax is not checked)"
  fi

  say "systemd-analyze verify $unitdir/uaaudit.service $unitdir/uaaudit.timer"
  command -v systemd-analyze >/dev/null ||
    fail "systemd-analyze is missing (package systemd; scripts/install-deps.sh installs it)"
  SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --man=no "$unitdir/uaaudit.service" "$unitdir/uaaudit.timer" \
    2>&1 | tee "$scratch/verify" || fail "systemd-analyze verify failed"
  [ ! -s "$scratch/verify" ] || fail "systemd-analyze verify complained (above)"
  exposure=$(systemd-analyze security --offline=yes "$unitdir/uaaudit.service" 2>/dev/null |
    sed -n 's/.*Overall exposure level for uaaudit.service: \([0-9.]*\).*/\1/p')
  [ -n "$exposure" ] || fail "systemd-analyze security --offline=yes gave no exposure level"
  awk -v e="$exposure" 'BEGIN { exit !(e <= 2.0) }' ||
    fail "systemd-analyze security rates uaaudit.service $exposure, over 2.0: is the sandboxing gone?"
  grep -qx 'ReadWritePaths=/var/lib/uaaudit /var/log/uaaudit -/var/lib/prometheus/node-exporter' \
    "$unitdir/uaaudit.service" || fail "uaaudit.service does not let the run write its state, log and metrics"
  say "  systemd-analyze security --offline=yes: exposure $exposure"

  say "a configured run as the account, through the cron wrapper: one heartbeat line"
  cat >/etc/uaaudit/check-deb.json <<EOF
{"version": 1, "logs": ["$doc/examples/$sample"], "format": {"name": "ua_log"},
 "state": "/var/lib/uaaudit/state.json", "report": "/var/lib/uaaudit/report.json", "alerts": []}
EOF
  runuser -u uaaudit -- env UAAUDIT_CONFIG=/etc/uaaudit/check-deb.json /usr/lib/uaaudit/uaaudit-cron.sh ||
    fail "the cron wrapper exited $? as uaaudit"
  tail -1 /var/log/uaaudit/uaaudit.log | grep -q "uaaudit: run: lines $lines, .* exit 0$" ||
    fail "no heartbeat 'lines $lines … exit 0' in /var/log/uaaudit/uaaudit.log: $(tail -3 /var/log/uaaudit/uaaudit.log)"
  [ -s /var/lib/uaaudit/state.json ] || fail "the run wrote no /var/lib/uaaudit/state.json"

  say "logrotate -d /etc/logrotate.d/uaaudit, then a forced rotation of the heartbeat log"
  logrotate -d /etc/logrotate.d/uaaudit >"$scratch/logrotate" 2>&1 || fail "logrotate -d exited $?: $(cat "$scratch/logrotate")"
  if grep -qi 'error' "$scratch/logrotate"; then fail "logrotate -d complained: $(cat "$scratch/logrotate")"; fi
  logrotate -f -s "$scratch/logrotate.state" /etc/logrotate.d/uaaudit || fail "logrotate -f exited $?"
  [ -s /var/log/uaaudit/uaaudit.log.1 ] || fail "logrotate left no /var/log/uaaudit/uaaudit.log.1"
  [ "$(stat -c %U:%G:%a /var/log/uaaudit/uaaudit.log)" = uaaudit:adm:640 ] ||
    fail "the new log is $(stat -c %U:%G:%a /var/log/uaaudit/uaaudit.log), not uaaudit:adm:640"
  rm -rf "$scratch"
  exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || fail "run as root or with sudo: the check installs the package"
  as_root=(sudo)
fi
start=$SECONDS

version=$(tr -d ' \n' <VERSION)
commit=unknown
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$root" ]; then commit=$(git rev-parse --short HEAD); fi
deb=dist/uaaudit_${version}_amd64.deb

say "building $deb (scripts/package-deb.sh)"
rm -f "$deb"
scripts/package-deb.sh
say "package built in $((SECONDS - start)) s: $(du -h --apparent-size "$deb" | cut -f1)," \
  "installed $(dpkg-deb -f "$deb" Installed-Size) KiB"
say "Depends: $(dpkg-deb -f "$deb" Depends)"

say "lintian $deb (an error or a warning fails)"
lintian --display-info --fail-on error,warning "$deb" || fail "lintian found errors or warnings (above)"
say "lintian: no errors or warnings"

# A clean slate: a package left by an interrupted check is purged; a hand-made install is not
# touched.
if dpkg-query -W -f='${Status}' uaaudit 2>/dev/null | grep -q 'installed\|config-files'; then
  say "purging the uaaudit package a previous check left"
  "${as_root[@]}" dpkg -P uaaudit
fi
for dir in /etc/uaaudit /var/lib/uaaudit /var/log/uaaudit; do
  [ ! -e "$dir" ] || fail "$dir exists without the package (a hand-made install?): the purge would delete it"
done
# The account as it was before the check ("" when there was none), made again at the end.
saved_user=$(getent passwd uaaudit || true)
saved_groups=$(id -nG uaaudit 2>/dev/null || true)
restore_user() {
  if [ "$(getent passwd uaaudit || true)" = "$saved_user" ]; then return 0; fi
  if dpkg-query -W -f='${Status}' uaaudit 2>/dev/null | grep -q 'installed\|config-files'; then
    "${as_root[@]}" dpkg -P uaaudit >/dev/null || true
  fi
  if getent passwd uaaudit >/dev/null; then "${as_root[@]}" userdel uaaudit; fi
  if [ -n "$saved_user" ]; then
    local uid gid gecos home shell extra
    IFS=: read -r _ _ uid gid gecos home shell <<<"$saved_user"
    "${as_root[@]}" useradd --system --no-create-home -u "$uid" -g "$gid" -c "$gecos" -d "$home" -s "$shell" uaaudit
    extra=$(tr ' ' '\n' <<<"$saved_groups" | grep -vx "$(getent group "$gid" | cut -d: -f1)" | paste -sd, - || true)
    if [ -n "$extra" ]; then "${as_root[@]}" usermod -a -G "$extra" uaaudit; fi
    say "the system user uaaudit is back as it was: $(getent passwd uaaudit)"
  fi
}
override_added=
cleanup() {
  if [ -n "$override_added" ]; then "${as_root[@]}" dpkg-statoverride --remove /var/lib/uaaudit || true; fi
  restore_user
}
trap cleanup EXIT
if [ -n "$saved_user" ]; then
  say "deleting the system user uaaudit made outside the package (made again at the end), so that postinst's is checked"
  "${as_root[@]}" userdel uaaudit
fi

say "dpkg -i $deb"
# Slim container images tell dpkg to skip /usr/share/doc and /usr/share/man (path-exclude in
# /etc/dpkg/dpkg.cfg.d/); the checks read the installed page and examples, so they are kept.
"${as_root[@]}" dpkg --path-include='/usr/share/doc/uaaudit/*' --path-include='/usr/share/man/man1/uaaudit.1.gz' \
  -i "$deb"
say "postinst made the system user uaaudit in group adm, home /var/lib/uaaudit"
id uaaudit
id -nG uaaudit | tr ' ' '\n' | grep -qx adm || fail "uaaudit is not in group adm: $(id uaaudit)"
[ "$(getent passwd uaaudit | cut -d: -f6,7)" = /var/lib/uaaudit:/usr/sbin/nologin ] ||
  fail "uaaudit's home and shell are $(getent passwd uaaudit | cut -d: -f6,7)"
for dir in /var/lib/uaaudit /var/log/uaaudit; do
  [ "$(stat -c %U:%G:%a "$dir")" = uaaudit:adm:750 ] || fail "$dir is $(stat -c %U:%G:%a "$dir"), not uaaudit:adm:750"
done
say "nothing enabled: the timer is disabled, the cron line commented out"
state=$(systemctl is-enabled uaaudit.timer 2>/dev/null || true)
[ "$state" = disabled ] || fail "systemctl is-enabled uaaudit.timer says '$state', not disabled"
if grep -q '^[^#]*uaaudit-cron' /etc/cron.d/uaaudit; then fail "/etc/cron.d/uaaudit has an active line"; fi
dpkg-query -L uaaudit >"$root/dist/files.txt"

say "postinst repairs the owner and mode of existing state and log directories, unless dpkg-statoverride sets them"
"${as_root[@]}" chown root:root /var/lib/uaaudit
"${as_root[@]}" chmod 777 /var/log/uaaudit
! dpkg-statoverride --list /var/lib/uaaudit >/dev/null || fail "/var/lib/uaaudit already has a dpkg-statoverride"
"${as_root[@]}" dpkg-statoverride --add root root 0755 /var/lib/uaaudit
override_added=1
"${as_root[@]}" chmod 755 /var/lib/uaaudit
"${as_root[@]}" /var/lib/dpkg/info/uaaudit.postinst configure "$version"
[ "$(stat -c %U:%G:%a /var/log/uaaudit)" = uaaudit:adm:750 ] ||
  fail "postinst left /var/log/uaaudit $(stat -c %U:%G:%a /var/log/uaaudit), not uaaudit:adm:750"
[ "$(stat -c %U:%G:%a /var/lib/uaaudit)" = root:root:755 ] ||
  fail "postinst changed /var/lib/uaaudit ($(stat -c %U:%G:%a /var/lib/uaaudit)) despite dpkg-statoverride"
"${as_root[@]}" dpkg-statoverride --remove /var/lib/uaaudit
override_added=
"${as_root[@]}" /var/lib/dpkg/info/uaaudit.postinst configure "$version"
[ "$(stat -c %U:%G:%a /var/lib/uaaudit)" = uaaudit:adm:750 ] ||
  fail "postinst left /var/lib/uaaudit $(stat -c %U:%G:%a /var/lib/uaaudit), not uaaudit:adm:750"

tc=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
say "in a mount namespace with $tc hidden:"
# shellcheck disable=SC2016 # the inner shell expands its own arguments
"${as_root[@]}" unshare -m bash -c 'mount -t tmpfs none "$1" && exec bash "$2" --inside "$1" "$3" "$4"' \
  _ "$tc" "$self" "$version" "$commit" ||
  fail "a check with the toolchain hidden failed (above)"

say "an operator enables the timer (systemctl enable), then dpkg -r uaaudit"
"${as_root[@]}" systemctl enable uaaudit.timer 2>&1
"${as_root[@]}" dpkg -r uaaudit
status=$(dpkg-query -W -f='${Status}' uaaudit)
[ "$status" = "deinstall ok config-files" ] || fail "after dpkg -r the status is '$status'"
[ ! -e /usr/bin/uaaudit ] || fail "/usr/bin/uaaudit is still there after dpkg -r"
for kept in /etc/uaaudit/uaaudit.json /etc/cron.d/uaaudit /var/lib/uaaudit/state.json /var/log/uaaudit/uaaudit.log; do
  [ -e "$kept" ] || fail "$kept is gone after dpkg -r (README.Debian: removal keeps it)"
done
getent passwd uaaudit >/dev/null || fail "dpkg -r deleted the user uaaudit (README.Debian: removal keeps it)"
say "after dpkg -r: the conffiles, the state, the log and the user are kept"
say "the cron line, once enabled, does nothing after dpkg -r (its conffile stays)"
cron_command=$(sed -n 's/^#\{0,1\}[0-9*][^ ]* [^ ]* [^ ]* [^ ]* [^ ]*  *uaaudit  *//p' /etc/cron.d/uaaudit)
[ -n "$cron_command" ] || fail "no cron line for uaaudit in /etc/cron.d/uaaudit"
log_lines=$(wc -l </var/log/uaaudit/uaaudit.log)
cron_out=$(cd / && runuser -u uaaudit -- sh -c "$cron_command" 2>&1) || true
[ -z "$cron_out" ] || fail "the cron line ($cron_command) prints after dpkg -r, so cron mails it: $cron_out"
[ "$(wc -l </var/log/uaaudit/uaaudit.log)" = "$log_lines" ] || fail "the cron line ran the wrapper after dpkg -r"

say "dpkg -P uaaudit"
"${as_root[@]}" dpkg -P uaaudit
if dpkg-query -W uaaudit >/dev/null 2>&1; then fail "dpkg still knows uaaudit after dpkg -P"; fi
left=()
while read -r path; do
  [ -e "$path" ] || [ -L "$path" ] || continue
  # A directory that other packages' files keep (/usr/bin, /etc/cron.d, /lib…) stays, as it
  # should; any file of ours left in one is listed on its own line.
  if [ -d "$path" ] && [ -n "$(ls -A "$path")" ]; then continue; fi
  left+=("$path")
done <"$root/dist/files.txt"
[ ${#left[@]} -eq 0 ] || fail "after dpkg -P these package paths remain: ${left[*]}"
for gone in /etc/uaaudit /var/lib/uaaudit /var/log/uaaudit /etc/systemd/system/timers.target.wants/uaaudit.timer; do
  if [ -e "$gone" ] || [ -L "$gone" ]; then fail "$gone remains after dpkg -P"; fi
done
getent passwd uaaudit >/dev/null || fail "dpkg -P deleted the user uaaudit (README.Debian: purge keeps it)"
say "after dpkg -P: none of the package's $(wc -l <"$root/dist/files.txt") paths, no config, state, log or" \
  "timer link left; the user uaaudit is kept"
if [ -z "$saved_user" ]; then
  say "deleting the user uaaudit the package made, to leave the machine as the check found it"
  "${as_root[@]}" userdel uaaudit
fi
restore_user
rm -f "$root/dist/files.txt"
say "all checks passed in $((SECONDS - start)) s"
