#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Hardening: while rtla fairsrv top collects on all CPUs, stress-ng puts
# FIFO and fair load on CPUs 1-3, CPUs 1-3 go offline and online in a loop,
# and the fair servers' parameters change under that load. The tool must
# keep running and end with sane figures; the runner fails the test on
# any kernel warning, BUG, lockdep or KASAN report (image/run, exit 126).
# Run it on the debug kernel with: make check-debug.
. "$(dirname "$0")/lib.sh"
cycles=6
sysfs=/sys/devices/system/cpu

# This script and the tool stay on CPU 0, which never goes offline.
taskset -cp 0 $$ > /dev/null

rtla fairsrv top -q -H 0 --json > /tmp/st.json 2> /tmp/st.err &
tool=$!
check "rtla fairsrv top starts collecting" collecting $tool
# The load lasts until the loop below is done, however slow the kernel
# (the debug kernel takes minutes): it is stopped, not timed out.
taskset -c 1-3 stress-ng --cpu 3 --sched fifo --sched-prio 10 \
	--temp-path /tmp -t 1h -q > /tmp/st.rt 2>&1 &
rt=$!
taskset -c 1-3 stress-ng --cpu 3 --temp-path /tmp -t 1h -q \
	> /tmp/st.fair 2>&1 &
fair=$!
# stress-ng forks its workers: wait (up to 120 s) for three FIFO ones.
fifo_workers() {
	local pid n=0
	for pid in $(pgrep stress-ng); do
		chrt -p "$pid" 2>/dev/null | grep -q SCHED_FIFO && n=$((n + 1))
	done
	echo $n
}
for ((end = SECONDS + 120; SECONDS < end; )); do
	n=$(fifo_workers)
	[ "$n" -ge 3 ] && break
	sleep 0.2
done
check "at least three SCHED_FIFO stress-ng tasks run ($n)" test "$n" -ge 3

# online CPU 0|1: write a CPU's online file; 0 or a message.
online() {
	local err
	err=$( { echo "$2" > "$sysfs/cpu$1/online"; } 2>&1 ) && return 0
	echo "# cpu$1 online=$2: ${err##*: }"
	return 1
}

plug_fail=0 param_fail=0
for ((i = 0; i < cycles; i++)); do
	for cpu in 1 2 3; do
		online $cpu 0 || plug_fail=$((plug_fail + 1))
		# The servers of the CPUs still online, under load.
		for other in 1 2 3; do
			[ "$(cat $sysfs/cpu$other/online)" = 1 ] || continue
			if [ $((i % 2)) = 0 ]; then
				fs_set $other 10000000 100000000
			else
				fs_set $other 50000000 1000000000
			fi || param_fail=$((param_fail + 1))
		done
		online $cpu 1 || plug_fail=$((plug_fail + 1))
	done
done
check "CPU hotplug: $((cycles * 6)) writes, $plug_fail failed" test $plug_fail = 0
check "fair_server writes under load: $param_fail failed" test $param_fail = 0
for cpu in 1 2 3; do
	check "cpu$cpu is online again" test "$(cat $sysfs/cpu$cpu/online)" = 1
done
check "the FIFO and fair load ran through the loop" kill -0 $rt $fair
# SIGINT left stress-ng running at times: kill it and its workers.
pkill -KILL stress-ng
wait $rt $fair
check "the tool is still running" kill -0 $tool
kill -INT $tool
wait $tool
rc=$?
check "rtla fairsrv top exits 0 on SIGINT (got $rc)" test $rc = 0
sed 's/^/# stderr: /' /tmp/st.err

# all KEY: a figure of the ALL row.
all() { sed 's/.*"all":{//' /tmp/st.json | grep -o "\"$1\":[0-9]*" | head -n 1 | cut -d: -f2; }
boosts=$(all boosts) invalid=$(all invalid) served=$(all served_ns)
lost=$(jget /tmp/st.json '"lost":') dur=$(jget /tmp/st.json '"duration_ns":')
echo "# ALL: boosts $boosts, served $served ns in $dur ns, lost $lost, invalid $invalid"
check "lost events: $lost" test "$lost" = 0
check "invalid transitions: $invalid" test "$invalid" = 0
check "boosts under FIFO load on 3 CPUs: $boosts > 0" test "$boosts" -gt 0
# Three servers can serve at most their largest share (10%) each.
check "served ($served ns) <= 3 x 10% of the run ($dur ns)" \
	test "$served" -le $((dur * 3 / 10))
check "time offline, from the hotplug events: $(all offline_ns) ns > 0" \
	test "$(all offline_ns)" -gt 0
done_tap
