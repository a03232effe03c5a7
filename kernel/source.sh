#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Choose the version of Debian's linux-source-6.12 (or -7.3) to build,
# install it if it is missing, and print it.
#
#   kernel/source.sh [--check] [6.12|7.3]
#                                   --check: choose and print, install nothing
#
# 7.3 is the stock 7.3 flavor's source. Debian packages it in the
# trixie-backports suite, which bookworm's apt does not list: the first
# install adds that suite to apt's sources (debian-archive-keyring has its
# key). A backports suite is never picked by default, so nothing else on
# the machine comes from it; kernel/source-version-7.3 is its pin.
#
# The series is made and tested for the version in kernel/source-version.
# Debian's security suite replaces a 6.12 build with the next one; when the
# pinned version is no longer in apt's lists (and not installed), the
# newest 6.12 that apt offers is taken instead, with a warning: the series'
# own checks (make check: checkpatch, every patch applied by kernel/build.sh,
# the tests of the fixes failing on the pristine kernel) then say whether it
# still holds there, and kernel/source-version is what to update once they
# pass. FAIRSRV_KSRC_VERSION=V forces version V.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
check=
[ "${1:-}" = --check ] && { check=1; shift; }
line=${1:-6.12}
case $line in
6.12)	pinfile=kernel/source-version; suite=bookworm-security ;;
7.3)	pinfile=kernel/source-version-7.3; suite=trixie-backports ;;
*)	echo "kernel: no source line '$line' (6.12 or 7.3)" >&2; exit 1 ;;
esac
pin=$(cat "$top/$pinfile")
pkg=linux-source-$line
backports=/etc/apt/sources.list.d/rtla-fairsrv-trixie-backports.sources

say() { echo "kernel: $*" >&2; }

installed() {
	{ dpkg-query -W -f='${Status} ${Version}\n' $pkg 2>/dev/null || true; } |
		sed -n 's/^install ok installed //p'
}

# The versions of the package that apt's lists have, newest first.
offered() {
	apt-cache madison $pkg 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }' |
		sort -V -r -u
}

# Add trixie-backports to apt's sources, once, for linux-source-7.3.
add_backports() {
	[ -f "$backports" ] && return 0
	say "adding Debian's trixie-backports suite to apt's sources ($backports)"
	cat > "$backports" <<-EOF
	# Added by rtla fairsrv's kernel/source.sh, for linux-source-7.3 only.
	Types: deb
	URIs: http://deb.debian.org/debian
	Suites: trixie-backports
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOF
	apt-get update -q >&2 || { rm -f "$backports"; say "apt-get update failed with trixie-backports"; exit 1; }
}

want=
[ "$line" = 6.12 ] && want=${FAIRSRV_KSRC_VERSION:-}
if [ -z "$want" ] && [ "$line" = 7.3 ] && [ -z "$check" ] && [ -z "$(installed)" ] &&
   ! offered | grep -q .; then
	[ "$(id -u)" = 0 ] || { say "$pkg is not installed; run 'make check-7.3' (or kernel/source.sh 7.3) as root"; exit 1; }
	add_backports
fi
if [ -z "$want" ]; then
	have=$(installed)
	if [ "$have" = "$pin" ] || offered | grep -xF "$pin" > /dev/null; then
		want=$pin
	else
		want=$(offered | head -n 1)
		[ -n "$want" ] || { say "apt offers no $pkg: is $suite in the apt sources (apt-get update)?"; exit 1; }
		say "WARNING: $pkg $pin, the pinned version, is gone from apt's lists; using $want, the newest offered. make check tells whether the series still applies and holds there; update $pinfile when it does."
	fi
fi
if [ -z "$check" ] && [ "$(installed)" != "$want" ]; then
	[ "$(id -u)" = 0 ] || { say "$pkg $want is not installed; run 'make deps' as root"; exit 1; }
	say "installing $pkg $want"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		--allow-downgrades "$pkg=$want" >&2 ||
		{ say "apt-get install $pkg=$want failed (it is in Debian's $suite suite)"; exit 1; }
fi
echo "$want"
