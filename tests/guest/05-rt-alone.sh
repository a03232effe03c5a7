#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# RT throttling is gone: a FIFO hog alone gets (almost) the whole CPU.
# sched_rt_runtime_us still bounds SCHED_DEADLINE admission.
. "$(dirname "$0")/lib.sh"

rt-probe -c 2 -d 5 > /tmp/alone.rt
share=$(val share_pct /tmp/alone.rt)
echo "# FIFO hog alone on cpu2: $share% (gaps $(val gaps /tmp/alone.rt), max $(val gap_max_ns /tmp/alone.rt) ns)"
# The CPU time is read just after the last clock read, so a whole CPU can
# show a hair over 100%: the upper bound only catches nonsense.
timing "FIFO hog alone gets $share% >= 99%" in_range "$share" 99 101

# 4 CPUs x 10% = 0.4 CPU for deadline tasks, of which the 4 fair servers
# hold 4 x 5%: 0.2 CPU is left.
check "sched_rt_runtime_us can be set to 100000" \
	bash -c 'echo 100000 > /proc/sys/kernel/sched_rt_runtime_us'
check "a 0.1 CPU deadline task is admitted" \
	chrt -d --sched-runtime 10000000 --sched-deadline 100000000 \
		--sched-period 100000000 0 true
# Refused by admission control: EBUSY, not any failure of chrt.
err=$(chrt -d --sched-runtime 30000000 --sched-deadline 100000000 \
	--sched-period 100000000 0 true 2>&1)
rc=$?
refused() { [ "$rc" != 0 ] && grep -q 'Device or resource busy' <<< "$err"; }
check "a 0.3 CPU deadline task is refused with EBUSY (exit $rc: $err)" refused
check "sched_rt_runtime_us restored to 950000" \
	bash -c 'echo 950000 > /proc/sys/kernel/sched_rt_runtime_us'
check "a 0.3 CPU deadline task is admitted again" \
	chrt -d --sched-runtime 30000000 --sched-deadline 100000000 \
		--sched-period 100000000 0 true
done_tap
