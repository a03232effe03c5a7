#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Choose the version of Debian's linux-source-6.12 to build, install it if
# it is missing, and print it.
#
#   kernel/source.sh [--check]      --check: choose and print, install nothing
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
pkg=linux-source-6.12
pin=$(cat "$top/kernel/source-version")

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

want=${FAIRSRV_KSRC_VERSION:-}
if [ -z "$want" ]; then
	have=$(installed)
	if [ "$have" = "$pin" ] || offered | grep -xF "$pin" > /dev/null; then
		want=$pin
	else
		want=$(offered | head -n 1)
		[ -n "$want" ] || { say "apt offers no $pkg: is bookworm-security in the apt sources (apt-get update)?"; exit 1; }
		say "WARNING: $pkg $pin, the version the series was tested on, is gone from apt's lists; using $want, the newest offered. make check tells whether the series still applies and holds there; update kernel/source-version when it does."
	fi
fi
if [ "${1:-}" != --check ] && [ "$(installed)" != "$want" ]; then
	[ "$(id -u)" = 0 ] || { say "$pkg $want is not installed; run 'make deps' as root"; exit 1; }
	say "installing $pkg $want"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		--allow-downgrades "$pkg=$want" >&2 ||
		{ say "apt-get install $pkg=$want failed (it is in Debian's bookworm-security suite)"; exit 1; }
fi
echo "$want"
