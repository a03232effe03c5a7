#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest root disk: a minimal Debian bookworm made by debootstrap,
# with the run-time packages the tool and the tests use, and image/guest-init
# as /sbin/fairsrv-init. The disk is made with 'mkfs.ext4 -d', so no loop mount.
#
# The disk is cached under $FAIRSRV_CACHE (default /var/tmp/fairsrv) in
# image-<key>/, keyed by this script and guest-init. The project's binaries and
# tests are not in the disk: the runner shares the checkout with the guest.
# The path of the disk is printed on the last line of stdout.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${FAIRSRV_CACHE:-/var/tmp/fairsrv}
suite=bookworm
packages=procps,util-linux,rt-tests,stress-ng,trace-cmd,libtracefs1,libtraceevent1,libbpf1,bpftool,linux-perf,rtla,iproute2,curl,prometheus,prometheus-node-exporter

die() { echo "image: $*" >&2; exit 1; }
say() { echo "image: $*" >&2; }

key=$(cat "$top/image/build.sh" "$top/image/guest-init" | sha256sum | cut -c1-16)
out=$cache/image-$key
if [ -f "$out/root.img" ]; then
	say "reusing $out/root.img"
	echo "$out/root.img"
	exit 0
fi

[ "$(id -u)" = 0 ] || die "debootstrap needs root"
command -v debootstrap >/dev/null && command -v mkfs.ext4 >/dev/null ||
	die "debootstrap or mkfs.ext4 missing: run 'make deps' as root"

# The mirror the host itself uses, from deb822 or one-line sources; there
# is no other.
mirror=$( { sed -n 's/^URIs: *\([^ ]*debian\/*\)$/\1/p; s/^deb \(http[^ ]*\/debian\/*\) .*/\1/p' \
	/etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list \
	2>/dev/null || true; } | head -n 1)
[ -n "$mirror" ] ||
	die "no Debian mirror in /etc/apt/sources.list or /etc/apt/sources.list.d: debootstrap needs the one apt uses"

mkdir -p "$cache"
exec 9>"$cache/image.lock"
flock 9

root=$out.tmp/root
rm -rf "$out.tmp"
mkdir -p "$root"
say "debootstrap $suite from $mirror"
start=$(date +%s)
debootstrap --variant=minbase --include="$packages" "$suite" "$root" "$mirror" \
	> "$out.tmp/debootstrap.log" 2>&1 ||
	{ tail -n 20 "$out.tmp/debootstrap.log" >&2; die "debootstrap failed"; }

install -m 0755 "$top/image/guest-init" "$root/sbin/fairsrv-init"
mkdir -p "$root/host" "$root/xfer"
echo fairsrv-guest > "$root/etc/hostname"
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*

mkfs.ext4 -q -F -d "$root" -L root "$out.tmp/root.img" 1G
rm -rf "$root"
mv "$out.tmp" "$out"
say "built $out/root.img in $(( $(date +%s) - start )) s"
echo "$out/root.img"
