#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest kernel: Debian's linux-source-6.12 with kernel/patches/series
# applied, configured from defconfig + kvm_guest.config + our fragments.
#
# Usage: kernel/build.sh [FLAVOR]     FLAVOR: guest (default), debug, rt,
#                                             pristine, 7.3, 7.3-proposed
#
# rt is the guest flavor with PREEMPT_RT (kernel/rt.config).
# pristine (also called stock) is 6.12.118 without the series: the kernel
# users run, configured as a distribution's is for probes (BTF, kprobes).
# 7.3 (also stock-7.3) is Debian's linux-source-7.3 (trixie-backports), as
# it comes: the newest kernel Debian packages, with upstream's own
# deadline tracepoints, configured from the same fragments.
# 7.3-proposed is 7.3 with what we propose for mainline: each series of
# kernel/upstream/, in the order of its directory's name.
#
# The result is cached under $FAIRSRV_CACHE (default /var/tmp/fairsrv) in
# kernel-<key>/, where <key> hashes everything that goes into the kernel: the
# package version, this script, the fragments and the patches in series order.
# One git work tree and one object directory per flavor are reused, so a change
# to a patch only rebuilds what it touches.
# The path of the bzImage is printed on the last line of stdout.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${FAIRSRV_CACHE:-/var/tmp/fairsrv}
flavor=${1:-guest}
jobs=${JOBS:-$(nproc)}

die() { echo "kernel: $*" >&2; exit 1; }
say() { echo "kernel: $*" >&2; }

series=6.12
case $flavor in
guest)		fragments=(kernel/guest.config); use_patches=1 ;;
debug)		fragments=(kernel/guest.config kernel/debug.config); use_patches=1 ;;
rt)		fragments=(kernel/guest.config kernel/rt.config); use_patches=1 ;;
pristine|stock)	flavor=pristine; fragments=(kernel/guest.config); use_patches=0 ;;
7.3|stock-7.3)	flavor=7.3; series=7.3; fragments=(kernel/guest.config kernel/7.3.config); use_patches=0 ;;
7.3-proposed)	series=7.3; fragments=(kernel/guest.config kernel/7.3.config); use_patches=1 ;;
*)		die "unknown flavor '$flavor' (guest, debug, rt, pristine, stock, 7.3 or 7.3-proposed)" ;;
esac
pkg=linux-source-$series
tarball=/usr/src/$pkg.tar.xz

# The series is made for one version of the source package: that one, or
# the newest of its line when it is gone from the archive (kernel/source.sh).
pkgver=$("$top/kernel/source.sh" "$series") || exit 1
[ -f "$tarball" ] || die "$tarball is missing"

# The patches, as paths from the top of the checkout, from each series
# file's directory.
patches=()
series_files=("$top/kernel/patches/series")
[ "$series" = 7.3 ] && series_files=("$top"/kernel/upstream/*/series)
if [ $use_patches = 1 ]; then
	for s in "${series_files[@]}"; do
		d=${s%/series}
		while read -r p; do
			p=${p%%#*}
			[ -n "${p// }" ] || continue
			[ -f "$d/$p" ] || die "$s names $p, which does not exist"
			patches+=("${d#"$top"/}/$p")
		done < "$s"
	done
fi

key=$( {
	echo "$pkg $pkgver $flavor"
	cat "$top/kernel/build.sh"
	for f in "${fragments[@]}"; do cat "$top/$f"; done
	for p in "${patches[@]}"; do echo "$p"; cat "$top/$p"; done
} | sha256sum | cut -c1-16)
out=$cache/kernel-$key

if [ -f "$out/bzImage" ]; then
	say "reusing $(cat "$out/release") ($flavor, key $key)"
	echo "$out/bzImage"
	exit 0
fi

mkdir -p "$cache"
exec 9>"$cache/kernel.lock"
flock 9
# Another build may have made it while this one waited for the lock.
if [ -f "$out/bzImage" ]; then
	say "reusing $(cat "$out/release") ($flavor, key $key)"
	echo "$out/bzImage"
	exit 0
fi

# The git repository of the source; its work tree holds the series (the
# guest and debug flavors), a worktree of its own the pristine source.
# Each flavor builds in its own object directory: a flavor's next build
# recompiles only what changed for it.
src=$cache/linux-$pkgver
obj=$cache/obj-$flavor

# A git tree of the pristine source, so that patches apply with 'git am' and a
# later series is applied after a reset rather than a fresh unpack.
if ! git -C "$src" rev-parse -q --verify refs/tags/pristine >/dev/null 2>&1; then
	say "unpacking $tarball"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -C "$src.tmp" --strip-components=1 -xJf "$tarball"
	git -C "$src.tmp" init -q
	git -C "$src.tmp" add -A -f
	git -C "$src.tmp" -c user.name=fairsrv -c user.email=fairsrv@localhost \
		commit -q -m "$pkg $pkgver"
	git -C "$src.tmp" tag pristine
	mv "$src.tmp" "$src"
fi

if [ $use_patches = 0 ]; then
	tree=$src-pristine
	[ -d "$tree" ] || git -C "$src" worktree add -q --detach "$tree" pristine ||
		die "cannot make the pristine tree $tree"
	git -C "$tree" checkout -q --force --detach pristine
	git -C "$tree" clean -q -fdx
	src=$tree
fi

# The series' commit is made in an index of its own, then checked out:
# git rewrites only the files that differ from what the tree holds, so a
# changed patch rebuilds what it touches, and no more (a reset to the
# pristine tree and a new "git am" would give every file the series
# touches a new time, include/linux/sched.h among them: everything).
idx=$(mktemp "$cache/index.XXXXXX")
trap 'rm -f "$idx"' EXIT
GIT_INDEX_FILE=$idx git -C "$src" read-tree pristine
for p in "${patches[@]}"; do
	GIT_INDEX_FILE=$idx git -C "$src" apply --cached "$top/$p" >&2 ||
		die "patch $p does not apply"
done
tree=$(GIT_INDEX_FILE=$idx git -C "$src" write-tree)
rm -f "$idx"
# Fixed dates: the same series is the same commit, and kernel release.
commit=$(GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000000 +0000" git -C "$src" \
	-c user.name=fairsrv -c user.email=fairsrv@localhost \
	commit-tree "$tree" -p pristine -m "$pkg $pkgver with ${#patches[@]} patches")
git -C "$src" am --abort >/dev/null 2>&1 || true
git -C "$src" checkout -q --force --detach "$commit"
git -C "$src" clean -q -fdx
say "applied ${#patches[@]} patches"

mkdir -p "$obj"
make -s -C "$src" O="$obj" defconfig kvm_guest.config >&2
frag_paths=()
for f in "${fragments[@]}"; do frag_paths+=("$top/$f"); done
"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${frag_paths[@]}" >/dev/null
make -s -C "$src" O="$obj" olddefconfig >&2

# Every option the fragments ask for (the last one's word, as
# merge_config.sh has it: rt.config's PREEMPT over guest.config's) must
# have survived olddefconfig. An option the tree's Kconfig no longer
# defines (SCHED_DEBUG, always on since 6.15) is said and passed over.
symbols=$(grep -rhsE --include='Kconfig*' '^[[:space:]]*(menu)?config [A-Z0-9_]+' "$src" |
	awk '{ print "CONFIG_" $2 }' | sort -u)
for f in "${frag_paths[@]}"; do
	sed -nE 's/^# (CONFIG_[A-Z0-9_]+) is not set$/\1=n/p; s/^(CONFIG_[A-Z0-9_]+=.*)$/\1/p' "$f" |
		sed "s|\$| $(basename "$f")|"
done | awk '{ split($1, kv, "="); last[kv[1]] = $0 } END { for (k in last) print last[k] }' |
while read -r optval frag; do
	opt=${optval%%=*} val=${optval#*=}
	if ! grep -qxF "$opt" <<< "$symbols"; then
		say "$frag: $opt is not an option of $pkg $pkgver: passed over"
		continue
	fi
	if [ "$val" = n ]; then
		! grep -q "^$opt=" "$obj/.config"
	else
		grep -qxF "$opt=$val" "$obj/.config"
	fi || die "$frag: $opt=$val did not survive olddefconfig"
done

say "building $flavor kernel with -j$jobs (key $key)"
start=$(date +%s)
make -s -C "$src" O="$obj" -j"$jobs" bzImage >&2
release=$(make -s -C "$src" O="$obj" kernelrelease)
say "built $release in $(( $(date +%s) - start )) s"

rm -rf "$out.tmp"
mkdir -p "$out.tmp"
cp "$obj/arch/x86/boot/bzImage" "$obj/.config" "$out.tmp/"
echo "$release" > "$out.tmp/release"
printf '%s\n' "${patches[@]}" > "$out.tmp/patches"
rm -rf "$out"
mv "$out.tmp" "$out"

say "$release ($flavor), $pkg $pkgver, ${#patches[@]} patches:"
for p in "${patches[@]}"; do say "  $p"; done
echo "$out/bzImage"
