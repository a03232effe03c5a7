#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job, in the guest: a SCHED_FIFO hog and a fair task pinned to
# each of CPUs 1-3 (CPU 0 left for house-keeping) while rtla fairsrv hist
# watches CPUs 0-3. Run it with: image/run -- tests/guest/demo.sh [SECONDS]
set -u
secs=${1:-10}
cd /host || exit 1

pids=()
for cpu in 1 2 3; do
	fair-probe -c "$cpu" -d $((secs + 2)) > /dev/null &
	pids+=($!)
	rt-probe -c "$cpu" -d $((secs + 2)) > /dev/null &
	pids+=($!)
done
echo "# starvation scenario: SCHED_FIFO hog + fair task on CPUs 1-3, fair server $(cat /sys/kernel/debug/sched/fair_server/cpu1/runtime)/$(cat /sys/kernel/debug/sched/fair_server/cpu1/period) ns"
rtla fairsrv hist -c 0-3 -d "${secs}s"
rc=$?
kill "${pids[@]}" 2>/dev/null
wait 2>/dev/null
exit $rc
