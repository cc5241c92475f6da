#!/usr/bin/env bash
# Builds the Debian package dist/uaaudit_VERSION_amd64.deb from this checkout.
#
#   scripts/package-deb.sh
#
# VERSION (the repository's VERSION file) is the package's version; `uaaudit --version` says
# the same and the commit (Plugins/BuildInfoPlugin). The binary is a release build with the
# Swift runtime linked in (--static-swift-stdlib), so a server needs no Swift toolchain;
# Depends: is what dpkg-shlibdeps finds the binary needs, plus libcurl4 (loaded with dlopen,
# so no tool can see it) and adduser for postinst. The man
# page and the completions are what the built binary's `uaaudit generate man|bash|zsh`
# prints. Layout, maintainer scripts and the copyright are in packaging/debian/;
# packaging/debian/README.Debian (installed) says what goes where and what removal and purge
# leave. scripts/check-deb.sh builds, lints, installs and checks the package.
#
# Needs: swift, dpkg-deb and dpkg-shlibdeps (dpkg-dev), strip (binutils), gzip, git
# (scripts/install-deps.sh installs them). Set SOURCE_DATE_EPOCH to fix the files' times;
# by default it is the commit's time, so the same commit gives the same package.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd -P)

die() {
  echo "package-deb: $*" >&2
  exit 1
}

for tool in swift dpkg-deb dpkg-shlibdeps strip gzip; do
  command -v "$tool" >/dev/null || die "$tool is missing (scripts/install-deps.sh installs it)"
done

version=$(tr -d ' \n' <VERSION)
[[ $version =~ ^[0-9][0-9A-Za-z.+~]*$ ]] ||
  die "VERSION must be a Debian native version such as 0.2.0 (digits, letters, . + ~), not '$version'"
commit=unknown
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$root" ]; then
  commit=$(git rev-parse --short HEAD)
fi
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || stat -c %Y VERSION)
fi
export SOURCE_DATE_EPOCH

# Linked with -z now (and relro, the default) as Debian's hardening flags ask.
build=(swift build -c release --static-swift-stdlib -Xlinker -z -Xlinker now)
echo "package-deb: building uaaudit $version (commit $commit): ${build[*]}"
nice -n 5 "${build[@]}" --product uaaudit
bin="$("${build[@]}" --show-bin-path)/uaaudit"
[ -x "$bin" ] || die "the build left no binary at $bin"
built=$("$bin" --version)
[ "$built" = "uaaudit $version (commit $commit)" ] ||
  die "the binary says '$built', not 'uaaudit $version (commit $commit)': a stale build?"

# The tree to pack is debian/uaaudit under a scratch directory, beside the debian/control that
# dpkg-shlibdeps wants to see.
work=$(mktemp -d "${TMPDIR:-/tmp}/uaaudit-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/debian"
pkg="$work/debian/uaaudit"
umask 022
# Units in /lib/systemd/system, where bookworm's debhelper puts them (moving them to /usr/lib
# waits for trixie: dpkg does not know /lib and /usr/lib are one directory).
unitdir=lib/systemd/system
doc=usr/share/doc/uaaudit
install -d "$pkg/DEBIAN" "$pkg/usr/bin" "$pkg/usr/lib/uaaudit" "$pkg/$unitdir" "$pkg/etc/cron.d" \
  "$pkg/etc/uaaudit" "$pkg/usr/share/man/man1" "$pkg/usr/share/bash-completion/completions" \
  "$pkg/usr/share/zsh/vendor-completions" "$pkg/$doc/examples/rules"

# The binary, stripped as Debian ships binaries (dh_strip's options).
install -m 755 "$bin" "$pkg/usr/bin/uaaudit"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$pkg/usr/bin/uaaudit"

# Man page and completions, from the binary's own option declarations.
generate() {
  local what=$1 out=$2 status=0
  "$pkg/usr/bin/uaaudit" generate "$what" >"$out" 2>"$work/generate.err" || status=$?
  if [ "$status" -ne 0 ] || [ ! -s "$out" ]; then
    cat "$work/generate.err" >&2
    die "'uaaudit generate $what' failed (exit $status, $(wc -c <"$out") bytes): the man page and the" \
      "completions come from 'uaaudit generate man|bash|zsh' (issue 18), which this binary does not have yet"
  fi
}
generate man "$work/uaaudit.1"
gzip -9n <"$work/uaaudit.1" >"$pkg/usr/share/man/man1/uaaudit.1.gz"
chmod 644 "$pkg/usr/share/man/man1/uaaudit.1.gz"
generate bash "$pkg/usr/share/bash-completion/completions/uaaudit"
generate zsh "$pkg/usr/share/zsh/vendor-completions/_uaaudit"

# The hourly run: cron/'s wrapper finds uaaudit next to itself, so a link to /usr/bin/uaaudit
# sits beside it. The units are cron/'s with the packaged path; neither they nor the cron
# line are enabled (README.Debian).
install -m 755 cron/uaaudit-cron.sh "$pkg/usr/lib/uaaudit/uaaudit-cron.sh"
ln -s ../../bin/uaaudit "$pkg/usr/lib/uaaudit/uaaudit"
for unit in uaaudit.service uaaudit.timer; do
  sed -e "1s|^# /etc/systemd/system/|# /$unitdir/|" \
    -e 's|/usr/local/bin/uaaudit-cron.sh|/usr/lib/uaaudit/uaaudit-cron.sh|' \
    -e '/^Description=/a Documentation=man:uaaudit(1) file:/usr/share/doc/uaaudit/README.Debian' \
    "cron/$unit" >"$pkg/$unitdir/$unit"
  chmod 644 "$pkg/$unitdir/$unit"
  if grep -q /usr/local "$pkg/$unitdir/$unit"; then
    die "cron/$unit still names /usr/local after the packaging edit: update package-deb.sh's sed"
  fi
done
install -m 644 packaging/debian/cron.d "$pkg/etc/cron.d/uaaudit"
install -d "$pkg/etc/logrotate.d"
install -m 644 packaging/debian/logrotate "$pkg/etc/logrotate.d/uaaudit"
install -m 644 cron/uaaudit.json "$pkg/etc/uaaudit/uaaudit.json"

# Docs: copyright and README.Debian as they are, other text over 4 KiB gzipped (as dh_compress
# does); examples stay plain, so `uaaudit scan` and `rules lint` take them as they are.
install -m 644 packaging/debian/copyright packaging/debian/README.Debian "$pkg/$doc/"
install -m 644 README.md "$pkg/$doc/README.md"
install -m 644 cron/README.md "$pkg/$doc/README.cron.md"
install -m 644 docs/*.md docs/report.schema.json "$pkg/$doc/"
for file in "$pkg/$doc"/*.md "$pkg/$doc"/*.json; do
  if [ "$(stat -c %s "$file")" -gt 4096 ]; then gzip -9n "$file"; fi
done
install -m 644 cron/uaaudit.json "$pkg/$doc/examples/uaaudit.json"
install -m 644 rules/*.json rules/README.md "$pkg/$doc/examples/rules/"
install -m 644 SampleLogs/ua_log.log SampleLogs/combined.log SampleLogs/nginx.conf "$pkg/$doc/examples/"
date_rfc2822=$(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")
maintainer=$(sed -n 's/^Maintainer: //p' packaging/debian/control.in)
gzip -9n >"$pkg/$doc/changelog.gz" <<EOF
uaaudit ($version) unstable; urgency=medium

  * Built from commit $commit of the uaaudit repository; its git log has
    the changes.

 -- $maintainer  $date_rfc2822
EOF

# Control files. Depends: the shared libraries the binary loads, as dpkg-shlibdeps finds them
# (with the versions their symbols need); libcurl4, which sends the webhooks but is opened with
# dlopen("libcurl.so.4") on the first one (Sources/CCurl/shim.h), so neither ldd nor
# dpkg-shlibdeps sees it; and adduser for postinst.
install -m 755 packaging/debian/postinst packaging/debian/prerm packaging/debian/postrm "$pkg/DEBIAN/"
install -m 644 packaging/debian/conffiles "$pkg/DEBIAN/conffiles"
install -d "$pkg/usr/share/lintian/overrides"
install -m 644 packaging/debian/lintian-overrides "$pkg/usr/share/lintian/overrides/uaaudit"
printf 'Source: uaaudit\n\nPackage: uaaudit\nArchitecture: amd64\n' >"$work/debian/control"
shlibs=$(cd "$work" && dpkg-shlibdeps -O -e"debian/uaaudit/usr/bin/uaaudit" 2>"$work/shlibdeps.err") || {
  cat "$work/shlibdeps.err" >&2
  die "dpkg-shlibdeps could not work out the binary's library packages"
}
shlibs=${shlibs#shlibs:Depends=}
[ -n "$shlibs" ] || die "dpkg-shlibdeps found no libraries: is the binary dynamically linked to libc?"
# libcurl4 (>= 7.85.0): CurlTransport sets CURLOPT_PROTOCOLS_STR, new in curl 7.85.0 (it
# also calls curl_multi_poll, 7.66.0's); bookworm has 7.88.1. The shim checks the loaded
# library's version too (UAAUDIT_CURL_MINIMUM in Sources/CCurl/shim.h: keep the two the same).
depends="$shlibs, libcurl4 (>= 7.85.0), adduser"
installed_size=$(du -sk --exclude=DEBIAN "$pkg" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@DEPENDS@|$depends|" -e "s|@INSTALLED_SIZE@|$installed_size|" \
  packaging/debian/control.in >"$pkg/DEBIAN/control"
(cd "$pkg" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z |
  xargs -0 md5sum) >"$pkg/DEBIAN/md5sums"
chmod 644 "$pkg/DEBIAN/control" "$pkg/DEBIAN/md5sums"

find "$pkg" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
mkdir -p dist
deb="dist/uaaudit_${version}_amd64.deb"
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb" >/dev/null
echo "package-deb: $deb ($(du -h --apparent-size "$deb" | cut -f1), installed $installed_size KiB)"
echo "package-deb: Depends: $depends"
