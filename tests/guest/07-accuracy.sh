#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The tool against independent probes: rtla fairsrv hist --json over CPUs
# 0-3 while a fair-probe and an rt-probe starve each other on CPUs 1-3.
# The tool runs on CPU 0 (-H 0), as an rtla user would have it, so that
# the fair tasks the servers of CPUs 1-3 serve are the probes.
# The tool records before the probes' window opens (it is seen collecting
# in tracefs) and is stopped with SIGINT after the window closes.
#
# Under TCG a vCPU is sometimes not run for a few ms up to ~100 ms while
# the guest clock goes on; the probes see that as gaps that no scheduler
# decision made. Hence the oracles are counts of long gaps, means, the
# kernel's own schedstat totals, and one-sided bounds on the maxima: the
# tool may never report an episode longer than the probe saw.
#
# While the server serves, the RT task waits: the rt-probe's schedstat
# wait time is the oracle of both the RT-preempted total and the runtime
# served. The fair-probe is not the only fair task the server serves
# (kworkers are too), so its own run time only bounds served from below.
. "$(dirname "$0")/lib.sh"
secs=10

rtla fairsrv hist -c 0-3 -H 0 --json > /tmp/acc.json 2> /tmp/acc.err &
tool=$!
if ! collecting $tool; then
	check "rtla fairsrv starts collecting" false
	sed 's/^/# stderr: /' /tmp/acc.err
	done_tap
	exit
fi
for cpu in 1 2 3; do
	starve "$cpu" "$secs" "/tmp/acc$cpu"
done
wait $probes
kill -INT $tool
wait $tool
rc=$?
check "rtla fairsrv hist --json exits 0 on SIGINT (got $rc)" test $rc = 0
[ -s /tmp/acc.err ] && sed 's/^/# stderr: /' /tmp/acc.err

# The guest has no python: a small JSON reader in awk.
jnum() {
	awk -v cpu="$1" -v key="$2" -v sub_="${3:-}" '
	{
		s = $0
		i = index(s, "{\"cpu\":" cpu ",")
		if (!i) exit 1
		s = substr(s, i)
		if (sub_ != "") { s = substr(s, index(s, "\"" key "\":{") ); key = sub_ }
		i = index(s, "\"" key "\":")
		if (!i) exit 1
		s = substr(s, i + length(key) + 3)
		match(s, /^[0-9]+/)
		print substr(s, RSTART, RLENGTH)
	}' /tmp/acc.json
}
# near A B PCT ABS_NS: |A - B| <= max(PCT% of B, ABS_NS)
near() {
	awk -v a="$1" -v b="$2" -v p="$3" -v m="$4" 'BEGIN {
		d = a - b; if (d < 0) d = -d; t = b * p / 100; if (t < m) t = m
		exit !(d <= t) }'
}
# le A B SLACK_NS: A <= B + SLACK_NS
le() {
	awk -v a="$1" -v b="$2" -v m="$3" 'BEGIN { exit !(a <= b + m) }'
}
check "lost events: $(grep -o '"lost":[0-9]*' /tmp/acc.json)" grep -q '"lost":0,' /tmp/acc.json

for cpu in 1 2 3; do
	f=/tmp/acc$cpu.fair r=/tmp/acc$cpu.rt
	# Starvation: the fair-probe's gaps over 100 ms (the server waits
	# 950 ms); RT preemption: the rt-probe's longest gap.
	read -r fn favg fmax <<< "$(gapstat $f 100000000)"
	read -r _ _ rmax <<< "$(gapstat $r 0)"
	boosts=$(jnum $cpu boosts)
	served=$(jnum $cpu served_ns)
	frun=$(val schedstat_run_ns $f)
	sn=$(jnum $cpu starvation count)
	savg=$(jnum $cpu starvation avg_ns)
	smax=$(jnum $cpu starvation max_ns)
	ptot=$(jnum $cpu rt_preempted total_ns)
	pmax=$(jnum $cpu rt_preempted max_ns)
	rwait=$(val schedstat_wait_ns $r)
	echo "# cpu$cpu tool:  boosts $boosts served $served starvation n=$sn avg=$savg max=$smax rt_preempted total=$ptot max=$pmax"
	echo "# cpu$cpu probe: fair gaps>100ms n=$fn avg=$favg max=$fmax, fair run $frun; rt wait $rwait, rt max gap $rmax"
	check "cpu$cpu: boosts ($boosts) = the fair-probe's long gaps ($fn) +-1" \
		near "$boosts" "$fn" 0 1
	check "cpu$cpu: starvation episodes ($sn) = the fair-probe's long gaps ($fn) +-1" \
		near "$sn" "$fn" 0 1
	check "cpu$cpu: mean starvation ($savg ns) within 5% of the fair-probe's mean long gap ($favg ns)" \
		near "$savg" "$favg" 5 0
	check "cpu$cpu: max starvation ($smax ns) <= the fair-probe's max gap ($fmax ns) + 2 ms" \
		le "$smax" "$fmax" 2000000
	check "cpu$cpu: RT preempted ($ptot ns) within 10% of the rt-probe's wait ($rwait ns)" \
		near "$ptot" "$rwait" 10 0
	check "cpu$cpu: max RT preemption ($pmax ns) <= the rt-probe's max gap ($rmax ns) + 2 ms" \
		le "$pmax" "$rmax" 2000000
	check "cpu$cpu: served ($served ns) within 10% of the rt-probe's wait ($rwait ns)" \
		near "$served" "$rwait" 10 0
	check "cpu$cpu: served ($served ns) >= 90% of the fair-probe's run time ($frun ns)" \
		le "$frun" "$((served * 100 / 90))" 0
done
check "cpu0 (no RT load): 0 boosts ($(jnum 0 boosts))" test "$(jnum 0 boosts)" = 0
done_tap
