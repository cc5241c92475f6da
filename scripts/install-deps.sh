#!/usr/bin/env bash
# Installs the Debian packages uaaudit builds and tests with. Run as root, or with sudo available.
#   libpcre2-dev zlib1g-dev pkg-config  build (PCRE2 and zlib system-library targets)
#   libcurl4-openssl-dev                build (libcurl's headers: the webhook transport, loaded at run
#                                       time, TLS with OpenSSL; SHA-256 and HMAC are uaaudit's own C)
#   nginx                               the end-to-end tests run a real nginx on 127.0.0.1
#   prometheus-alertmanager             the alert tests push to a real Alertmanager on 127.0.0.1
#   gzip curl python3                   SampleLogs/make-samples.sh (gzip and raw-socket requests),
#                                       the alert tests' webhook receiver (python3) and curl
#   openssl                             the signing tests check uaaudit's HMAC-SHA256 with openssl dgst
#   prometheus                          promtool checks --prom output, the example rules and the
#                                       dashboard's queries; a Prometheus server scrapes the metrics
#   prometheus-node-exporter            serves uaaudit's textfile on 127.0.0.1 (--collector.textfile)
#   chromium                            renders --html headless: console, DOM, screenshot
#   bsdutils                            script(1): the progress and colour tests run on a pty
#   python3-pip python3-yaml           scripts/real-ua-corpus.py: pip downloads device-detector's
#                                       source package (the real-UA corpus), PyYAML reads its fixtures
#   logrotate                           scripts/torture/ rotates nginx's log with Debian's logrotate
#   faketime                            .ci/run runs the clock-sensitive suites with the clock a year
#                                       ahead (faketime -f '+365d'), so that a date trap fails CI;
#                                       RunDateformatTests runs logrotate on fixed dates (dateext names)
#   man-db groff-base zsh               the generated man page is rendered (man -l, groff -ww) and the
#                                       zsh completion is checked (zsh -n)
#   dpkg-dev binutils lintian           scripts/package-deb.sh and check-deb.sh: dpkg-shlibdeps works out
#                                       Depends:, strip, lintian checks the package
#   bash-completion systemd             check-deb.sh: bash loads the completion, systemd-analyze
#                                       verifies the units
set -euo pipefail
packages=(libpcre2-dev zlib1g-dev libcurl4-openssl-dev pkg-config nginx prometheus-alertmanager gzip
  curl openssl python3 prometheus prometheus-node-exporter chromium bsdutils python3-pip python3-yaml logrotate faketime man-db
  groff-base zsh dpkg-dev binutils lintian bash-completion systemd)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present (${packages[*]})"
  exit 0
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root or install sudo; missing: ${missing[*]}" >&2; exit 1; }
  as_root=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
