#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The tool's decoding of real records against libtraceevent's (tests/
# probe/decode-check): every field of every record of the tool's events,
# on this kernel's formats, and the names libtraceevent prints for flags
# and reasons from the kernel's print formats. The load makes each kind
# of event happen: a FIFO hog and a fair task on CPU 1 (start, defer,
# boost, throttle, replenish, postpone; wait and end), a fair task moved
# off CPU 1 while it waits (leave), a SCHED_DEADLINE task (throttle and
# replenish of a task), parameter writes on CPU 2, one refused (params),
# and CPU 3 going offline and back (cpuhp_enter, stop).
. "$(dirname "$0")/lib.sh"

taskset -cp 0 $$ > /dev/null
rm -f /tmp/dc.ready
# It records until the load is done (SIGINT; 300 s at most: the debug
# kernel is several times slower).
decode-check -d 300 -r /tmp/dc.ready > /tmp/dc.out 2> /tmp/dc.err &
dc=$!
for ((end = SECONDS + 60; SECONDS < end; )); do
	[ -e /tmp/dc.ready ] && break
	kill -0 $dc 2> /dev/null || break
	sleep 0.05
done
check "decode-check records" test -e /tmp/dc.ready

hog 1 5
taskset -c 1 bash -c 'while :; do :; done' &
mover=$!
# Moved while it waits behind the hog: it may be running, served, at one
# of the moves, not at all four.
for i in 1 2 3 4; do
	sleep 0.3
	taskset -cp 2 $mover > /dev/null
	sleep 0.1
	taskset -cp 1 $mover > /dev/null
done
kill $mover
# A SCHED_DEADLINE task: the throttle and replenish events of a task,
# which the tool filters out, decoded all the same. It must not fork,
# and may run on every CPU (this shell keeps to CPU 0). Its period is
# long: a replenishment timer that fires more than a period late makes
# the kernel print "DL replenish lagged too much", rightly, and the host
# can leave the guest's CPUs unscheduled for tens of milliseconds (CI
# once saw that message with a 10 ms period).
taskset -c 0-3 chrt -d --sched-runtime 20000000 --sched-deadline 500000000 \
	--sched-period 500000000 0 \
	bash -c 'end=$((SECONDS + 2)); while [ $SECONDS -lt $end ]; do :; done'
fs_write 2 runtime 40000000
! fs_write 2 runtime 2000000000 2> /dev/null
fs_write 2 runtime 50000000
echo 0 > /sys/devices/system/cpu/cpu3/online
echo 1 > /sys/devices/system/cpu/cpu3/online
wait $probes $mover 2> /dev/null
kill -INT $dc
wait $dc
rc=$?
sed 's/^/# /' /tmp/dc.out
[ -s /tmp/dc.err ] && sed 's/^/# stderr: /' /tmp/dc.err
check "every field of every record agrees with libtraceevent (exit $rc)" \
	test $rc = 0
for ev in sched_dl_server_start sched_dl_server_stop sched_dl_server_defer \
	  sched_dl_server_postpone sched_dl_server_boost sched_dl_throttle \
	  sched_dl_replenish sched_dl_server_params sched_fair_starve_wait \
	  sched_fair_starve_leave sched_fair_starve_end cpuhp_enter; do
	n=$(sed -n "s/^$ev: \([0-9]*\) records.*/\1/p" /tmp/dc.out)
	check "$ev: records checked (${n:-none})" test "${n:-0}" -gt 0
done
check "nothing left behind" \
	bash -c "! ls $T/instances | grep -q decode_check"
done_tap
