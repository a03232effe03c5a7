#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Disabling the fair server (runtime 0) with the default sched_rt_runtime_us:
# the write succeeds, fair tasks starve, the kernel says so, and restoring
# the runtime restores the share. On an unfixed 6.12.118 the write fails
# with EBUSY (the read of sched_rt_runtime_us rebuilds the sched domains,
# which drops the servers' bandwidth: 19-rootdomain), and a
# second write double-stops the server (WARNING in task_non_contending).
# unfixed: fails
. "$(dirname "$0")/lib.sh"

check "sched_rt_runtime_us is the default 950000" \
	test "$(cat /proc/sys/kernel/sched_rt_runtime_us)" = 950000
check "cpu1: writing runtime 0 succeeds" fs_write 1 runtime 0
check "cpu1: runtime reads back 0" test "$(cat $FS/cpu1/runtime)" = 0
check "cpu1: writing runtime 0 again succeeds" fs_write 1 runtime 0
check "kernel log says the fair server is disabled on CPU 1" \
	grep -q "Fair server disabled in CPU 1" <(dmesg)

starve 1 5 /tmp/off
wait
share=$(val share_pct /tmp/off.fair)
echo "# disabled: fair share $share%"
timing "disabled: fair share $share% below 0.5%" in_range "$share" 0 0.5

check "cpu1: restoring runtime 50 ms succeeds" fs_write 1 runtime 50000000
starve 1 5 /tmp/on
wait
share=$(val share_pct /tmp/on.fair)
echo "# restored: fair share $share%"
timing "restored: fair share $share% within [4, 6]" in_range "$share" 4 6
check "no WARNING or BUG in the kernel log" \
	bash -c '! dmesg | grep -E "WARNING|BUG:|Oops"'
done_tap
