#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Starvation share: with a SCHED_FIFO hog, the fair task gets about
# runtime/period, measured by the fair-probe's own CPU time. Three settings
# run side by side on CPUs 1-3.
. "$(dirname "$0")/lib.sh"
secs=10

check "cpu2: set 10 ms / 100 ms" fs_set 2 10000000 100000000
check "cpu3: set 200 ms / 1 s" fs_set 3 200000000 1000000000
for cpu in 1 2 3; do
	starve "$cpu" "$secs" "/tmp/share$cpu"
done
wait

# expect CPU LOW HIGH WHAT
expect() {
	local share
	share=$(val share_pct "/tmp/share$1.fair")
	echo "# cpu$1: fair share ${share}% (want $2..$3), rt share $(val share_pct "/tmp/share$1.rt")%"
	timing "cpu$1: fair share $share% within [$2, $3] at $4" in_range "$share" "$2" "$3"
}
expect 1 4 6 "50 ms / 1 s (default)"
expect 2 8 12 "10 ms / 100 ms (10% +-20%)"
expect 3 16 24 "200 ms / 1 s (20% +-20%)"
done_tap
