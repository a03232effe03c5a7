#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The tool against independent probes: rtla fairsrv hist --json over CPUs
# 0-3 while a fair-probe and an rt-probe starve each other on CPUs 1-3.
# The tool's window encloses the probes' window.
. "$(dirname "$0")/lib.sh"
secs=10

rtla fairsrv hist -c 0-3 -d $((secs + 2))s --json > /tmp/acc.json 2> /tmp/acc.err &
tool=$!
sleep 0.5
for cpu in 1 2 3; do
	starve "$cpu" "$secs" "/tmp/acc$cpu"
done
wait $tool
rc=$?
wait
check "rtla fairsrv hist --json exits 0 (got $rc)" test $rc = 0
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
check "lost events: $(grep -o '"lost":[0-9]*' /tmp/acc.json)" grep -q '"lost":0,' /tmp/acc.json

for cpu in 1 2 3; do
	f=/tmp/acc$cpu.fair r=/tmp/acc$cpu.rt
	boosts=$(jnum $cpu boosts)
	long=$(val gaps_over_100ms $f)
	served=$(jnum $cpu served_ns)
	fcpu=$(val cpu_ns $f)
	smax=$(jnum $cpu starvation max_ns)
	fmax=$(val gap_max_ns $f)
	pmax=$(jnum $cpu rt_preempted max_ns)
	rmax=$(val gap_max_ns $r)
	echo "# cpu$cpu: boosts $boosts vs probe gaps>100ms $long; served $served vs fair cpu $fcpu ns;"
	echo "#       max starvation $smax vs fair gap $fmax; max RT preempted $pmax vs rt gap $rmax"
	todo "the model loses some boosts after stop/start and idle events (issue 4)" "cpu$cpu: boosts ($boosts) within +-1 of the fair-probe's long gaps ($long)" \
		near "$boosts" "$long" 0 1
	todo "the model loses some boosts after stop/start and idle events (issue 4)" "cpu$cpu: served ($served ns) within 10% of the fair-probe's CPU time ($fcpu ns)" \
		near "$served" "$fcpu" 10 0
	check "cpu$cpu: max starvation ($smax ns) within 10%/2 ms of the fair-probe's max gap ($fmax ns)" \
		near "$smax" "$fmax" 10 2000000
	todo "the model loses some boosts after stop/start and idle events (issue 4)" "cpu$cpu: max RT preemption ($pmax ns) within 10%/2 ms of the rt-probe's max gap ($rmax ns)" \
		near "$pmax" "$rmax" 10 2000000
done
check "cpu0 (no RT load): 0 boosts ($(jnum 0 boosts))" test "$(jnum 0 boosts)" = 0
done_tap
