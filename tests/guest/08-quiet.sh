#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A quiet system: fair load only on CPUs 1-2, CPU 3 idle. The tool must
# report no boost and no RT preemption anywhere, and no long fair
# starvation: only the kernel's own threads of higher classes (the
# migration stopper, the watchdog) preempt fair tasks here, for
# microseconds, or a few milliseconds when TCG stalls a vCPU meanwhile.
. "$(dirname "$0")/lib.sh"

rtla fairsrv hist -c 0-3 --json > /tmp/q.json 2> /tmp/q.err &
tool=$!
check "rtla fairsrv starts collecting" collecting $tool
fair-probe -c 1 -d 5 > /dev/null &
probes+=" $!"
fair-probe -c 1 -d 5 > /dev/null &
probes+=" $!"
fair-probe -c 2 -d 5 > /dev/null &
probes+=" $!"
wait $probes
kill -INT $tool
wait $tool
rc=$?
check "rtla fairsrv hist exits 0 on SIGINT (got $rc)" test $rc = 0
sed 's/^/# /' /tmp/q.err
for cpu in 0 1 2 3; do
	row=$(grep -o "{\"cpu\":$cpu,[^]]*" /tmp/q.json | sed 's/},{"cpu".*//')
	boosts=$(sed -n 's/.*"boosts":\([0-9]*\).*/\1/p' <<< "$row")
	starv=$(sed -n 's/.*"starvation":{"count":[0-9]*,"total_ns":[0-9]*,"min_ns":[0-9]*,"avg_ns":[0-9]*,"max_ns":\([0-9]*\).*/\1/p' <<< "$row")
	pre=$(sed -n 's/.*"rt_preempted":{"count":\([0-9]*\).*/\1/p' <<< "$row")
	who=$(sed -n 's/.*"top_holder":{"task":{"pid":[0-9]*,"comm":"\([^"]*\)".*/\1/p' <<< "$row")
	echo "# cpu$cpu: boosts $boosts, longest fair starvation $starv ns (behind ${who:-nobody}), RT preemptions $pre"
	[ "$boosts" = 0 ] || echo "# $row"
	check "cpu$cpu: 0 boosts" test "$boosts" = 0
	check "cpu$cpu: no fair starvation over 50 ms ($starv ns)" \
		test "${starv:-x}" -lt 50000000
	check "cpu$cpu: 0 RT preemption episodes" test "$pre" = 0
done
done_tap
