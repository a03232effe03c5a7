#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job, in the guest: two loads under real-time tasks, side by
# side, while rtla fairsrv hist watches CPUs 1 and 2 (CPU 0 left for
# house-keeping):
#   CPU 1: a SCHED_FIFO hog (rt-hog) and a fair task that never sleeps
#          (busy): it starves until the fair server steps in.
#   CPU 2: a SCHED_FIFO task busy 95 ms of every 100 ms (rt-duty) and a
#          fair task that wakes every 300-500 ms and runs 2 ms (waker):
#          it waits for the FIFO task's 5 ms gaps, not for the server.
# Run it with: image/run -- tests/guest/demo.sh [SECONDS]
set -u
secs=${1:-10}
cd /host || exit 1

# The probes under the names the output shows (comm is the file name).
dir=$(mktemp -d)
ln -s "$(command -v rt-probe)" "$dir/rt-hog"
ln -s "$(command -v rt-probe)" "$dir/rt-duty"
ln -s "$(command -v fair-probe)" "$dir/busy"
ln -s "$(command -v fair-probe)" "$dir/waker"
pids=()
"$dir/rt-hog" -c 1 -d $((secs + 2)) > /dev/null & pids+=($!)
"$dir/busy" -c 1 -d $((secs + 2)) > /dev/null & pids+=($!)
"$dir/rt-duty" -c 2 -d $((secs + 2)) -C 95/100 > /dev/null & pids+=($!)
"$dir/waker" -c 2 -d $((secs + 2)) -C 2/300/200 > /dev/null & pids+=($!)
echo "# CPU 1: FIFO hog + fair task that never sleeps; CPU 2: FIFO 95 ms of every 100 ms + fair task that wakes every 300-500 ms; fair server $(cat /sys/kernel/debug/sched/fair_server/cpu1/runtime)/$(cat /sys/kernel/debug/sched/fair_server/cpu1/period) ns"
rtla fairsrv hist -c 1-2 -d "${secs}s" -b 50ms --worst 3 ${DEMO_ARGS:-}
rc=$?
kill "${pids[@]}" 2>/dev/null
wait 2>/dev/null
rm -rf "$dir"
exit $rc
