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
# Only what lies wholly inside the probes' window is compared: a gap or
# an episode that the window's start or end cuts (the RT probe exits at
# its end and lets the fair one run) is one side's and not the other's.
#
# While the server serves, the RT task waits: the rt-probe's schedstat
# wait time is the oracle of both the RT-preempted total and the runtime
# served. The fair-probe is not the only fair task the server serves
# (kworkers are too), so its own run time only bounds served from below:
# its run time while the rt-probe was there, running or waiting. The
# rt-probe sleeps until the window opens, and its wake-up can come tens
# of ms late under TCG (a vCPU not run): the fair-probe, on the CPU then,
# is charged that time without the server, which was not needed.
# stock: yes
. "$(dirname "$0")/lib.sh"
secs=10

rtla fairsrv hist -c 0-3 -H 0 --json --worst 100000 > /tmp/acc.json 2> /tmp/acc.err &
tool=$!
if ! collecting $tool; then
	check "rtla fairsrv starts collecting" false
	sed 's/^/# stderr: /' /tmp/acc.err
	done_tap
	exit
fi
at=$(( $(fair-probe --now) + 300000000 ))
for cpu in 1 2 3; do
	starve "$cpu" "$secs" "/tmp/acc$cpu"
done
wait $probes
kill -INT $tool
wait $tool
rc=$?
check "rtla fairsrv hist --json exits 0 on SIGINT (got $rc)" test $rc = 0
[ -s /tmp/acc.err ] && sed 's/^/# stderr: /' /tmp/acc.err

jnum() { jcpu /tmp/acc.json "$@"; }
# inner_gaps FILE MIN_NS: the gaps of a probe over MIN_NS that end 1 ms or
# more before its window does.
inner_gaps() {
	awk -v min="$2" -v end=$((secs * 1000000000 - 1000000)) '/^gap start_ns=/ {
		split($2, a, "="); split($3, b, "=")
		if (b[2] > min && a[2] + b[2] <= end) print b[2] }' "$1"
}
# inner_episodes CPU MIN_NS: the tool's episodes of CPU over MIN_NS that
# began in the probes' window and ended 1 ms or more before its end.
inner_episodes() {
	sed 's/.*"worst":\[//' /tmp/acc.json |
		grep -o "{\"cpu\":$1,\"start_ns\":[0-9]*,\"ns\":[0-9]*" |
		sed 's/.*"start_ns":\([0-9]*\),"ns":\([0-9]*\)/\1 \2/' |
		awk -v at=$at -v end=$((at + secs * 1000000000 - 1000000)) -v min="$2" \
			'$1 >= at && $1 + $2 <= end && $2 > min { print $2 }'
}
check "lost events: $(grep -o '"lost":[0-9]*' /tmp/acc.json)" grep -q '"lost":0,' /tmp/acc.json

for cpu in 1 2 3; do
	f=/tmp/acc$cpu.fair r=/tmp/acc$cpu.rt
	# Starvation: the fair-probe's gaps over 100 ms (the server waits
	# 950 ms) inside the window; RT preemption: the rt-probe's longest gap.
	read -r fn favg fmax <<< "$(inner_gaps $f 100000000 | over_stat 0)"
	read -r _ _ rmax <<< "$(gapstat $r 0)"
	boosts=$(jnum $cpu boosts)
	served=$(jnum $cpu served_ns)
	frun=$(val schedstat_run_ns $f)
	sn=$(jnum $cpu server_wait count)
	savg=$(jnum $cpu server_wait avg_ns)
	smax=$(jnum $cpu server_wait max_ns)
	# Fair starvation: the episodes over 100 ms are the probe's long gaps
	# (the shorter ones are kernel threads', like the watchdog's).
	read -r tn tavg tmax <<< "$(inner_episodes $cpu 100000000 | over_stat 0)"
	ptot=$(jnum $cpu rt_preempted total_ns)
	pmax=$(jnum $cpu rt_preempted max_ns)
	rwait=$(val schedstat_wait_ns $r)
	# The window's time the rt-probe was neither running nor waiting.
	rgone=$(val wall_ns $r) rrun=$(val schedstat_run_ns $r)
	rgone=$(( ${rgone:-0} - ${rrun:-0} - ${rwait:-0} ))
	[ $rgone -lt 0 ] && rgone=0
	echo "# cpu$cpu tool:  boosts $boosts served $served server_wait n=$sn avg=$savg max=$smax starvation n=$tn avg=$tavg max=$tmax rt_preempted total=$ptot max=$pmax"
	echo "# cpu$cpu probe: fair gaps>100ms n=$fn avg=$favg max=$fmax, fair run $frun; rt wait $rwait, rt max gap $rmax, rt away $rgone"
	check "cpu$cpu: the probes measured: the window, fair gaps ($fn), run ($frun) and RT wait ($rwait)" \
		bash -c "[ '$(val wall_ns $f)' = ${secs}000000000 ] && [ '$fn' -ge $((secs - 2)) ] &&
			 [ '${frun:-0}' -gt 0 ] && [ '${rwait:-0}' -gt 0 ]"
	# Each long gap inside the window ended with a boost; the RT probe is
	# asleep before the window and gone after it: no boost outside it.
	timing "cpu$cpu: boosts ($boosts) = the fair-probe's long gaps ($fn) +-1" \
		near "$boosts" "$fn" 0 1
	timing "cpu$cpu: server waits ($sn) = the fair-probe's long gaps ($fn) +-1" \
		near "$sn" "$fn" 0 1
	timing "cpu$cpu: mean server wait ($savg ns) within 5% of the fair-probe's mean long gap ($favg ns)" \
		near "$savg" "$favg" 5 0
	timing "cpu$cpu: max server wait ($smax ns) <= the fair-probe's max gap ($fmax ns) + 2 ms" \
		le "$smax" "$fmax" 2000000
	timing "cpu$cpu: starvation episodes over 100 ms ($tn) = the fair-probe's long gaps ($fn) +-1" \
		near "$tn" "$fn" 0 1
	timing "cpu$cpu: mean starvation ($tavg ns) within 5% of the fair-probe's mean long gap ($favg ns)" \
		near "$tavg" "$favg" 5 0
	timing "cpu$cpu: max starvation ($tmax ns) <= the fair-probe's max gap ($fmax ns) + 2 ms" \
		le "$tmax" "$fmax" 2000000
	timing "cpu$cpu: RT preempted ($ptot ns) within 10% of the rt-probe's wait ($rwait ns)" \
		near "$ptot" "$rwait" 10 0
	timing "cpu$cpu: max RT preemption ($pmax ns) <= the rt-probe's max gap ($rmax ns) + 2 ms" \
		le "$pmax" "$rmax" 2000000
	timing "cpu$cpu: served ($served ns) within 10% of the rt-probe's wait ($rwait ns)" \
		near "$served" "$rwait" 10 0
	timing "cpu$cpu: served ($served ns) >= 90% of the fair-probe's run time ($frun ns) less the rt-probe's time away ($rgone ns)" \
		le "$((frun - rgone))" "$((served * 100 / 90))" 0
done
check "cpu0 (no RT load): 0 boosts ($(jnum 0 boosts))" test "$(jnum 0 boosts)" = 0
done_tap
