#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The fair servers' bandwidth across root domain rebuilds (patch 1). With
# no SCHED_DEADLINE task, a root domain's dl_bw->total_bw (in
# /sys/kernel/debug/sched/debug) is the sum of the servers of its active
# CPUs, 52428 each (50 ms / 1 s in BW_SHIFT units). It must stay so across
# rebuilds that keep the root domains, which any access to
# /proc/sys/kernel/sched_rt_runtime_us makes (sched_rt_handler() calls
# rebuild_sched_domains(), even for a read), with a CPU offline, with a
# CPU in an isolated cpuset partition (attached to the default root
# domain, where offline CPUs are parked too), and across writes of the
# servers' runtime. On an unfixed 6.12.118 the first rebuild leaves 0 and
# the writes fail with EBUSY. Adding back the servers of every CPU of the
# span, active or not, as the first version of the fix did, counts the
# offline CPU's server in the default root domain.
# unfixed: fails
. "$(dirname "$0")/lib.sh"

bw=$(( (50000000 << 20) / 1000000000 ))
cg=/sys/fs/cgroup
part=$cg/fairsrv-rd

# total CPU: dl_bw->total_bw of CPU's root domain.
total() {
	awk -v rq="dl_rq[$1]:" '$1 == rq { f = 1 }
		f && $1 == ".dl_bw->total_bw" { print $3; exit }' /sys/kernel/debug/sched/debug
}

# expect WHAT CPU N: CPU's root domain holds N servers' bandwidth.
expect() {
	local got
	got=$(total "$2")
	check "$1: CPU $2's root domain holds $3 servers ($got, want $(($3 * bw)))" \
		test "$got" = $(($3 * bw))
}

# online CPU 0|1
online() {
	echo "$2" > /sys/devices/system/cpu/cpu$1/online
}

# rebuild: rebuild the sched domains, keeping the root domains.
rebuild() {
	cat /proc/sys/kernel/sched_rt_runtime_us > /dev/null
}

taskset -cp 0 $$ > /dev/null
expect "at boot" 0 4
rebuild
expect "rebuilt" 0 4
check "CPU 3 goes offline" online 3 0
expect "CPU 3 offline" 0 3
rebuild
expect "CPU 3 offline, rebuilt" 0 3

# CPU 2 isolated: out of the load-balanced domains, in the default root
# domain with the offline CPU 3.
echo +cpuset > $cg/cgroup.subtree_control
mkdir -p $part
echo 2 > $part/cpuset.cpus
check "CPU 2 becomes an isolated partition" \
	bash -c "echo isolated > $part/cpuset.cpus.partition &&
		 grep -q '^isolated$' $part/cpuset.cpus.partition"
expect "CPU 2 isolated" 0 2
expect "CPU 2 isolated" 2 1
rebuild
expect "CPU 2 isolated, rebuilt" 0 2
expect "CPU 2 isolated, rebuilt" 2 1
check "CPU 2 joins the others again" \
	bash -c "echo member > $part/cpuset.cpus.partition"
expect "partition undone" 0 3
rmdir $part

check "CPU 3 comes back" online 3 1
expect "CPU 3 back" 0 4
rebuild
expect "CPU 3 back, rebuilt" 0 4
check "cpu3: writing runtime 0 succeeds" fs_write 3 runtime 0
expect "cpu3 disabled" 0 3
check "cpu3: restoring runtime 50 ms succeeds" fs_write 3 runtime 50000000
expect "cpu3 restored" 0 4
check "cpu1: writing runtime 0 succeeds" fs_write 1 runtime 0
check "cpu1: restoring runtime 50 ms succeeds" fs_write 1 runtime 50000000
expect "after the writes" 0 4
check "no WARNING or BUG in the kernel log" \
	bash -c '! dmesg | grep -E "WARNING|BUG:|Oops"'
done_tap
