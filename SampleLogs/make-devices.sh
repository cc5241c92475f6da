#!/usr/bin/env bash
# make-devices.sh OUTDIR
#
# Writes OUTDIR/devices.log with a REAL nginx: the log format ua_devices (ua_log plus the
# X-Device-Id header, see nginx.conf here), in front of an API whose UA whitelist answers 403
# to anything but the app's own UA prefix, as the operator's nginx.conf here has it.
#
# Fourteen clients on their own loopback addresses (127.0.1.1 ... 127.0.1.14, any 127.x is a
# local address on Linux), each with an X-Device-Id, over two hours (nginx's clock is set by
# libfaketime: 2026-11-28 09:10 UTC, then 10:10 UTC):
#   - every phone opens the app's web page in WKWebView and calls the API through URLSession;
#   - d03 and d07 also call the API through an old SDK (CFNetwork UA): refused with 403, and
#     the same device sent the app's UAs: split clients;
#   - d12 and d13 share one address (a carrier NAT); d13 only runs an old SDK (CFNetwork UA):
#     by address 127.0.1.12 is split, by device neither d12 nor d13 is;
#   - d14 is a browser without the app's UA (Safari engine): inconsistent, refused on /api/;
#   - in the second hour d01 to d06 run an app update whose URLSession UA changed shape
#     (`iOS 18.1` instead of `iOS 18_1`): the whitelist still lets it through, the audit's
#     rules no longer call it urlsession (UA drift: a new family, and urlsession's share falls).
#
# Needs: bash, curl, nginx (/usr/sbin/nginx or $NGINX), libfaketime (apt-get install faketime).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
mkdir -p "$1"
OUTDIR=$(cd "$1" && pwd)
NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
FT_LIB=$(ls /usr/lib/*/faketime/libfaketime.so.1 2>/dev/null | head -1 || true)
[ -x "$NGINX" ] || { echo "make-devices: nginx not found (set NGINX=...)" >&2; exit 1; }
[ -n "$FT_LIB" ] || { echo "make-devices: libfaketime not found (apt-get install faketime)" >&2; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/uaaudit-devices.XXXXXX")
PID=
stop() { if [ -n "$PID" ]; then kill -QUIT "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; PID=; fi; }
trap 'stop; rm -rf "$WORK"' EXIT
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$WORK/logs" "$WORK/tmp"
cat >"$WORK/nginx.conf" <<EOF
$([ "$(id -u)" = 0 ] && echo "user root;")
worker_processes 1;
pid $WORK/nginx.pid;
events { worker_connections 64; }
http {
    client_body_temp_path $WORK/tmp; proxy_temp_path $WORK/tmp; fastcgi_temp_path $WORK/tmp;
    uwsgi_temp_path $WORK/tmp; scgi_temp_path $WORK/tmp;
    log_format ua_devices '\$remote_addr - \$remote_user [\$time_local] "\$request" '
                          '\$status \$body_bytes_sent "\$http_referer" "\$http_user_agent" '
                          'rt=\$request_time dev="\$http_x_device_id"';
    server {
        listen 127.0.0.1:$PORT;
        access_log $WORK/logs/devices.log ua_devices;
        location /api/ {
            if (\$http_user_agent !~ '^MyApp/[0-9]+\\.[0-9]+\\.[0-9]+ \\(iPhone;') { return 403; }
            return 200 "api\\n";
        }
        location / { return 200 "page\\n"; }
    }
}
EOF

WEBVIEW='MyApp/5.12.1 (iPhone; iPhone15,3; iOS 18_1) Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari/604.1'
SESSION_OLD='MyApp/5.12.1 (iPhone; iPhone15,3; Scale/3.00; iOS 18_1)'
SESSION_NEW='MyApp/5.13.0 (iPhone; iPhone15,3; Scale/3.00; iOS 18.1)'
SDK='YourSDK/1.0 com.apple.CFNetwork/1494.0.7'
SAFARI='Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1'

get() { # ADDRESS DEVICE UA PATH
  curl -s -o /dev/null --interface "$1" -H "X-Device-Id: $2" -A "$3" "http://127.0.0.1:$PORT$4"
}

for phase in 1 2; do
  env LD_PRELOAD="$FT_LIB" FAKETIME="@2026-11-28 $(printf %02d $((phase + 8))):10:00" FAKETIME_DONT_FAKE_MONOTONIC=1 TZ=UTC0 \
    "$NGINX" -p "$WORK" -c "$WORK/nginx.conf" -e "$WORK/error.log" -g 'daemon off;' &
  PID=$!
  for _ in $(seq 100); do [ -f "$WORK/nginx.pid" ] && break; sleep 0.05; done
  sleep 0.2
  for n in $(seq 1 13); do
    d=$(printf 'd%02d' "$n")
    addr=127.0.1.$n
    [ "$n" = 13 ] && addr=127.0.1.12  # d12 and d13 behind one address
    session=$SESSION_OLD
    [ "$phase" = 2 ] && [ "$n" -le 6 ] && session=$SESSION_NEW
    if [ "$d" != d13 ]; then
      get "$addr" "$d" "$WEBVIEW" /app/home
      for i in 1 2 3; do get "$addr" "$d" "$session" "/api/v2/me?i=$i"; done
    fi
    case $d in
      d03 | d07) for i in 1 2; do get "$addr" "$d" "$SDK" "/api/v2/feed?page=$i"; done ;;
      d13) get "$addr" "$d" "$SDK" /api/v2/me ;;
    esac
  done
  get 127.0.1.14 d14 "$SAFARI" /app/home
  get 127.0.1.14 d14 "$SAFARI" /api/login
  stop
  rm -f "$WORK/nginx.pid"
done
cp "$WORK/logs/devices.log" "$OUTDIR/devices.log"
echo "make-devices: wrote $(wc -l <"$OUTDIR/devices.log") lines to $OUTDIR/devices.log"
