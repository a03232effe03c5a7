#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Smoke test: the fair server's defaults, and our trace events in tracefs.
. "$(dirname "$0")/lib.sh"

for cpu in 0 1 2 3; do
	check "cpu$cpu fair server runtime is 50000000" \
		test "$(cat $FS/cpu$cpu/runtime)" = 50000000
	check "cpu$cpu fair server period is 1000000000" \
		test "$(cat $FS/cpu$cpu/period)" = 1000000000
done
for ev in sched_dl_server_start sched_dl_server_stop sched_dl_server_defer \
	  sched_dl_server_postpone sched_dl_server_boost sched_dl_server_idle \
	  sched_dl_throttle sched_dl_replenish sched_dl_server_params \
	  sched_fair_starve_wait sched_fair_starve_hold sched_fair_starve_leave \
	  sched_fair_starve_end; do
	check "event sched:$ev exists in tracefs" test -f "$T/events/sched/$ev/format"
done
check "event cpuhp:cpuhp_enter exists in tracefs" test -f "$T/events/cpuhp/cpuhp_enter/format"
echo "# kernel $(uname -r)"
done_tap
