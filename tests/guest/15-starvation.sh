#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fair starvation as the fair task lives it. On CPU 1 a FIFO task runs in
# a duty cycle and a fair task wakes now and then, runs briefly and
# sleeps; both are probes that record what they experience: the
# fair-probe records how late each wake-up ran and every gap while it
# ran, and of each, the part the kernel counted it runnable (its run
# delay in /proc/self/schedstat). Starvation is a runnable wait: a
# wake-up can also come late before the task is runnable (a timer or an
# interrupt late; under TCG, a vCPU left waiting; on PREEMPT_RT, a sleep's
# timer that expires in ksoftirqd, itself starved), which is not the
# task's starvation. rtla fairsrv hist --json lists every episode with
# its waiters; the waits of the fair-probe in the probes' window must
# match the probe's runnable ones: the count over 1 ms within 10%, the
# mean over 1 ms within 15%, and the longest wait no longer than the
# probe's by its clock + 2 ms (as in 07: a vCPU left waiting by TCG adds
# to the probe's longest gap, not to the kernel's; it once added 6.8 ms
# to a 40 ms wait). The late wake-ups are printed; on PREEMPT_RT each
# must lie in episodes of the CPU, but for 2 ms (ksoftirqd's wait, which
# the tool counts). On PREEMPT_RT those late wake-ups are nearly all its waits
# (6.12's sleeps of a fair task end in ksoftirqd, a fair thread starved
# first), too few runnable ones to compare: there each setting runs a
# second time with the fair-probe woken by a FIFO thread of its own on
# CPU 2 (-W: a hard timer, then a pipe write), runnable as it is due, and
# the runnable waits are compared in that pass. Three settings, one after
# the other:
#   FIFO 95 ms of every 100 ms, fair 2 ms every 300-500 ms
#   FIFO 40 ms of every 50 ms,  fair 1 ms every 150-210 ms
#   FIFO 300 ms of every 400 ms, fair 3 ms every 500-800 ms
# Under TCG the vCPUs take turns on one host thread, and a vCPU left
# waiting is a gap that no scheduler decision made, which the probe would
# see and the kernel cannot: one setting at a time keeps such turns rare,
# and the probe counts only the time it was off the CPU (-o: the clock's
# jump less its own CPU time, which goes on while its vCPU waits).
# 7.3: yes
. "$(dirname "$0")/lib.sh"
secs=15
rt=(95/100 40/50 300/400)
fair=(2/300/200 1/150/60 3/500/300)
passes=(own)
rt_kernel && passes+=(woken)

# setting PASS I: setting I, with the fair-probe woken by its own timer
# (PASS own) or by a FIFO thread (woken).
setting() {
	local pass=$1 i=$2 tool at probes fpid rc what end why outside bare
	local pn pavg pmax qn qavg qmax tn tavg tmax unknown ln lmax
	rtla fairsrv hist -c 1 -H 0 --json --worst 100000 > /tmp/st.json 2> /tmp/st.err &
	tool=$!
	if ! collecting $tool; then
		check "rtla fairsrv starts collecting" false
		sed 's/^/# stderr: /' /tmp/st.err
		return
	fi
	at=$(( $(fair-probe --now) + 300000000 ))
	rt-probe -c 1 -d $secs -s $at -C "${rt[$i]}" > /tmp/st.rt &
	probes=$!
	fair-probe -c 1 -d $secs -s $at -C "${fair[$i]}" -o -l \
		$([ "$pass" = woken ] && echo -W 2) > /tmp/st.fair &
	fpid=$!
	wait $probes $fpid
	kill -INT $tool
	wait $tool
	rc=$?
	what="FIFO ${rt[$i]}, fair ${fair[$i]}$([ "$pass" = woken ] && echo ", woken by a FIFO thread")"
	check "$what: rtla fairsrv hist --json exits 0 on SIGINT (got $rc)" test $rc = 0
	[ -s /tmp/st.err ] && sed 's/^/# stderr: /' /tmp/st.err
	check "$what: no event lost ($(grep -o '"lost":[0-9]*' /tmp/st.json | head -n 1))" \
		grep -q '"lost":0,' /tmp/st.json

	end=$((at + secs * 1000000000))
	read -r pn pavg pmax <<< "$(probe_waits /tmp/st.fair | over_stat 1000000)"
	read -r qn qavg qmax <<< "$(probe_queued /tmp/st.fair | over_stat 1000000)"
	read -r tn tavg tmax <<< "$(tool_waits /tmp/st.json $fpid $((at - 1000000)) $end | over_stat 1000000)"
	unknown=$(probe_queued /tmp/st.fair | grep -c -- '^-')
	echo "# $what: probe waits > 1 ms by its clock: n=$pn avg=$pavg max=$pmax; runnable: n=$qn avg=$qavg max=$qmax; tool: n=$tn avg=$tavg max=$tmax"
	check "$what: the probe read its run delay at every wait ($unknown not)" \
		test "$unknown" = 0
	if rt_kernel && [ "$pass" = own ]; then
		why="PREEMPT_RT: its waits are ksoftirqd's, the woken pass compares them"
		skip "$what: the probe waited runnable more than 1 ms at least 10 times ($qn)" "$why"
		skip "$what: waits over 1 ms: tool $tn, probe $qn (10%)" "$why"
		skip "$what: mean wait over 1 ms: tool $tavg ns, probe $qavg ns (15%)" "$why"
	else
		timing "$what: the probe waited runnable more than 1 ms at least 10 times ($qn)" \
			test "$qn" -ge 10
		timing "$what: waits over 1 ms: tool $tn, probe $qn (10%)" \
			near "$tn" "$qn" 10 0
		timing "$what: mean wait over 1 ms: tool $tavg ns, probe $qavg ns (15%)" \
			near "$tavg" "$qavg" 15 0
	fi
	timing "$what: longest wait: tool $tmax ns <= probe $pmax ns + 2 ms" \
		le "$tmax" "$pmax" 2000000

	# Wake-ups late before the probe was runnable, and the episodes
	# that hold them: of each, the time no episode of the CPU covers
	# (one may end where ksoftirqd gets a turn and another begin).
	probe_late /tmp/st.fair | awk '$2 > 1000000' > /tmp/st.late
	tool_spans /tmp/st.json 1 > /tmp/st.spans
	read -r ln lmax <<< "$(awk '{ n++; if ($2 > m) m = $2 } END { print n + 0, m + 0 }' /tmp/st.late)"
	read -r outside bare <<< "$(awk -v at="$at" -v slack=2000000 '
		NR == FNR { s[NR] = $1; e[NR] = $2; n = NR; next }
		{ from = at + $1; to = from + $2; left = $2
		  for (i = 1; i <= n; i++) {
			a = s[i] > from ? s[i] : from; b = e[i] < to ? e[i] : to
			if (b > a) left -= b - a
		  }
		  if (left > slack) out++
		  if (left > most) most = left }
		END { printf "%d %.0f\n", out, most }' /tmp/st.spans /tmp/st.late)"
	echo "# $what: $ln wake-ups late by over 1 ms before the probe was runnable (the latest by $lmax ns), $outside of them outside every episode for over 2 ms (at most $bare ns)"
	if rt_kernel && [ "$pass" = own ]; then
		timing "$what: each late wake-up lies in episodes of CPU 1 but for 2 ms ($outside of $ln not)" \
			test "$outside" = 0
	fi
}

for pass in "${passes[@]}"; do
	for i in 0 1 2; do
		setting $pass $i
	done
done
done_tap
