#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The worst case made visible: the fair server disabled (runtime 0) on
# CPU 1, then a fair task that spins in user space and a FIFO hog there
# (spin_then_hog: in that order, or a disabled server can stall RCU). The
# fair task starves for the whole run and no server event ever comes.
# rtla fairsrv top shows the server off from its first screen and an open episode that grows
# from one refresh to the next; hist --json reports one open episode of at
# least 90% of the time it watched it; a -T threshold stops top on it.
#
# The tools start while the fair task already starves: the kernel reports
# the episode at its next tick, its start unknown. Everything else stays
# off CPU 1, where a fair task would starve too: this script, and the
# tools (-H 0).
#
# While the hog holds CPU 1 unserved, no kworker runs there, and a tool's
# teardown (removing its tracefs instance waits for an SRCU grace period
# that needs one) blocks until something does: 286 s on the debug kernel,
# where the hung-task detector reported it. So each tool ends its run
# with an --on-end action that gives the server its runtime back, as a
# user would (21-auto-actions does the same), and the next run takes it
# away again first.
. "$(dirname "$0")/lib.sh"

taskset -cp 0 $$ > /dev/null
check "cpu1: writing runtime 0 succeeds" fs_write 1 runtime 0
restore="shell,command=echo 50000000 > $FS/cpu1/runtime"

spin_then_hog 1
sleep 0.5
rtla fairsrv top -c 1 -H 0 -d 5 --on-end "$restore" > /tmp/ow.top 2> /tmp/ow.err
rc=$?
check "cpu1: writing runtime 0 again succeeds" fs_write 1 runtime 0
check "rtla fairsrv top exits 0 after -d (got $rc)" test $rc = 0
[ -s /tmp/ow.err ] && sed 's/^/# stderr: /' /tmp/ow.err
# The CPU 1 rows of the refreshes: state and the open column (ms).
awk '$1 == "1" && $3 == "|" { print $2, $7 }' /tmp/ow.top > /tmp/ow.rows
sed 's/^/# refresh: /' /tmp/ow.rows
n=$(wc -l < /tmp/ow.rows)
timing "top printed at least 4 tables ($n), plain: not a terminal" \
	bash -c "[ $n -ge 4 ] && ! grep -q \$'\\033' /tmp/ow.top"
check "the server shows as off from the first table" \
	bash -c "! grep -qv '^off ' /tmp/ow.rows"
grows=$(awk 'NR > 1 && $2 != "-" && p != "-" && $2 > p + 500 { g++ } { p = $2 }
	END { print g + 0 }' /tmp/ow.rows)
timing "the open episode grows by more than 0.5 s per refresh ($grows times)" \
	test "$grows" -ge 2

# The oracle: the fair task itself around the run, to the end of the
# run read by the --on-end action before it gives the runtime back.
# Runnable at both ends (state R) and 0 ns run between (schedstat) is a
# task that waited all the time (it cannot sleep without running;
# schedstat adds a wait only when the task runs): whatever window the
# tool watched inside that time, its CPU starved all through it.
read -r spinner _ <<< "$probes"	# spin_then_hog's fair task, first
cat > /tmp/ow.end <<EOF
fair-probe --now > /tmp/ow.t1
cat /proc/$spinner/schedstat > /tmp/ow.ss1
awk '{ print \$3 }' /proc/$spinner/stat > /tmp/ow.st1
echo 50000000 > $FS/cpu1/runtime
EOF
state0=$(awk '{ print $3 }' /proc/$spinner/stat)
read -r run0 _ < /proc/$spinner/schedstat
t0=$(fair-probe --now)
rtla fairsrv hist -c 1 -H 0 -d 4 --json --on-end "shell,command=sh /tmp/ow.end" \
	> /tmp/ow.json 2> /tmp/ow.err2
rc=$?
t1=$(cat /tmp/ow.t1 2> /dev/null)
read -r run1 _ < /tmp/ow.ss1
state1=$(cat /tmp/ow.st1 2> /dev/null)
check "cpu1: writing runtime 0 again succeeds" fs_write 1 runtime 0
check "rtla fairsrv hist --json exits 0 after -d (got $rc)" test $rc = 0
[ -s /tmp/ow.err2 ] && sed 's/^/# stderr: /' /tmp/ow.err2
echo "# the fair task ($spinner) over [$t0, $t1]: state $state0 then $state1, ran $((run1 - run0)) ns"
check "the fair task waited all the time: runnable at both ends ($state0, $state1), 0 ns run" \
	test "$state0$state1" = RR -a "$run1" = "$run0"
start=$(jget /tmp/ow.json '"start_ns":')
dur=$(jget /tmp/ow.json '"duration_ns":')
open=$(sed 's/.*"open":{"cpu":1,"start_ns":[0-9]*,"ns":\([0-9]*\).*/\1/;t;d' /tmp/ow.json)
echo "# window [$start, +$dur] ns, open episode ${open:-none} ns"
check "the tool's window lies in that time, and lasts -d (4 s)" \
	bash -c "[ '${start:-0}' -ge $t0 ] && [ \$(( ${start:-0} + ${dur:-0} )) -le $t1 ] &&
		 [ '${dur:-0}' -ge 4000000000 ]"
# The window opens once every event is on; the kernel reports the
# episode at its next tick: two ticks at most.
timing "one open episode as long as the window, less 2 ms (${open:-none} of $dur ns)" \
	bash -c "[ -n '$open' ] && [ \$(( $open + 2000000 )) -ge $dur ]"
check "it is open in the JSON, its start not seen (before the run)" \
	grep -q '"open":{"cpu":1,"start_ns":[0-9]*,"ns":[0-9]*,"open":true,"start_known":false' /tmp/ow.json
check "the FIFO hog is named as the holder" \
	grep -q '"top_holder":{"task":{"pid":[0-9]*,"comm":"rt-probe"' /tmp/ow.json
# No event ends this episode: -T must still see it pass the threshold.
rtla fairsrv top -q -c 1 -H 0 -d 30 -T 1s --on-end "$restore" > /dev/null 2> /tmp/ow.err3
rc=$?
sed 's/^/# stderr: /' /tmp/ow.err3
us=$(sed -n 's/.*fair starvation (still open) of \([0-9]*\) us on CPU 1 exceeded.*/\1/p' /tmp/ow.err3)
check "-T 1s stops on the open episode: exit 2 ($rc), ${us:-no} us reported" \
	bash -c "[ $rc = 2 ] && [ -n '$us' ] && [ '$us' -gt 1000000 ]"
kill $probes 2> /dev/null
wait $probes 2> /dev/null
check "cpu1: restoring runtime 50 ms succeeds" fs_write 1 runtime 50000000
check "nothing left behind" clean
done_tap
