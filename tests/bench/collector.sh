#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of B3 and B4: the fair servers of CPUs 1-3 at half of a
# short period, each starved by an RT hog with a fair task beside it. On that
# stream, at the same time and both on CPU 0: rtla fairsrv hist -E 1000
# and trace-cmd record of the same events (the fair server's, the fair
# starvation ones and cpuhp_enter); then trace-cmd report. Prints key=value
# lines; CPU times from rusage (the command and its children).
#
# Enabling an event patches kernel text on every CPU: its static key for
# the first user, its static call for the second. Under TCG with busy CPUs
# that costs about a CPU second, charged to whichever tool comes first or
# second. Two instances of our own hold the events enabled, with tracing
# off, for the whole measurement: neither tool pays for that patching and
# both pay for their own set-up.
. /host/tests/guest/lib.sh
#
#   collector.sh [SECONDS [PERIOD_US]]      default: 10 s, 1000 us
secs=${1:-10}
period=$(( ${2:-1000} * 1000 ))

# A period of a millisecond or less is within a timer's lateness under
# TCG: the kernel may say once that a replenishment came a period late.
known_report "sched: DL replenish lagged too much" \
	"a $((period / 1000)) us period, within the guest's timer latency"
for cpu in 1 2 3; do
	fs_set $cpu $((period / 2)) $period || exit 1
done
for cpu in 1 2 3; do
	hog $cpu $((secs + 20))
done

holders="$T/instances/bench_hold1 $T/instances/bench_hold2"
events="sched/sched_dl_* sched/sched_fair_starve_* cpuhp/cpuhp_enter"
for h in $holders; do
	mkdir $h || exit 1
	echo 0 > $h/tracing_on
	for e in $events; do
		for f in $h/events/$e/enable; do echo 1 > $f; done
	done
done

rusage -o /tmp/fs.ru -- rtla fairsrv hist -c 0-3 -H 0 -E 1000 --json \
	> /tmp/fs.json 2> /tmp/fs.err &
fs=$!
# rusage runs the tool as its child.
for ((end = SECONDS + 10; SECONDS < end; )); do
	tool=$(pgrep -P $fs) && break
	sleep 0.05
done
collecting "$tool" || { echo "rtla fairsrv did not start" >&2; exit 1; }
rusage -o /tmp/rec.ru -- taskset -c 0 trace-cmd record -q \
	-e 'sched:sched_dl_*' -e 'sched:sched_fair_starve_*' \
	-e cpuhp:cpuhp_enter -o /tmp/t.dat > /dev/null 2> /tmp/rec.err &
rec=$!
# trace-cmd records in the top instance: wait until it enabled the events.
for ((end = SECONDS + 60; SECONDS < end; )); do
	[ "$(cat $T/events/sched/sched_dl_server_boost/enable)" = 1 ] && break
	sleep 0.05
done
sleep "$secs"
kill -INT $rec
wait $rec
kill -INT $fs
wait $fs || { cat /tmp/fs.err >&2; exit 1; }
rusage -o /tmp/rep.ru -- trace-cmd report -i /tmp/t.dat > /tmp/t.txt 2>&1
for h in $holders; do
	for e in $events; do
		for f in $h/events/$e/enable; do echo 0 > $f; done
	done
	rmdir $h
done
wait

# fsget KEY: the first number KEY of the tool's JSON report.
fsget() { grep -o "\"$1\":[0-9]*" /tmp/fs.json | head -n 1 | cut -d: -f2; }
echo "fs_events=$(fsget events)"
echo "fs_lost=$(fsget lost)"
echo "fs_duration_ns=$(fsget duration_ns)"
echo "fs_cpu_ns=$(( $(val user_ns /tmp/fs.ru) + $(val sys_ns /tmp/fs.ru) ))"
echo "fs_maxrss_kb=$(val maxrss_kb /tmp/fs.ru)"
echo "tc_events=$(grep -cE ': (sched_dl_|sched_fair_starve_|cpuhp_enter)' /tmp/t.txt)"
echo "tc_lost=$(grep -o '\[[0-9]* EVENTS DROPPED\]' /tmp/t.txt | grep -o '[0-9]*' | awk '{ s += $1 } END { print s + 0 }')"
echo "tc_record_cpu_ns=$(( $(val user_ns /tmp/rec.ru) + $(val sys_ns /tmp/rec.ru) ))"
echo "tc_report_cpu_ns=$(( $(val user_ns /tmp/rep.ru) + $(val sys_ns /tmp/rep.ru) ))"
