#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of B6: rtla fairsrv top as the service runs it (--quiet,
# --prometheus, the collector on CPU 0) for SECONDS at a high event rate:
# the fair servers of CPUs 1-3 at 500 us every 1 ms, each starved by an RT
# hog with a fair task beside it. The tool's resident memory is sampled
# ten times; prints key=value lines: events, lost, and RSS (kB) at the
# first sample (after a tenth of the run) and the last.
#
#   longrun.sh [SECONDS]      default: 600
. /host/tests/guest/lib.sh
secs=${1:-600}
known_report "sched: DL replenish lagged too much" \
	"a 1 ms period, within the guest's timer latency"
for cpu in 1 2 3; do
	fs_set $cpu 500000 1000000 || exit 1
done
for cpu in 1 2 3; do
	hog $cpu $((secs + 60))
done
rtla fairsrv top -q -c 1-3 -H 0 --prometheus /tmp/long.prom > /dev/null \
	2> /tmp/long.err &
tool=$!
collecting $tool || { echo "rtla fairsrv did not start" >&2; exit 1; }
step=$((secs / 10))
for ((i = 1; i <= 10; i++)); do
	sleep $step
	rss=$(awk '/^VmRSS:/ { print $2 }' /proc/$tool/status)
	[ $i = 1 ] && echo "rss_first_kb=$rss"
	echo "# rss after $((i * step)) s: $rss kB" >&2
done
echo "rss_last_kb=$rss"
kill -INT $tool
wait $tool || { cat /tmp/long.err >&2; exit 1; }
echo "events=$(sed -n 's/^rtla_fairsrv_events_total //p' /tmp/long.prom)"
echo "lost=$(sed -n 's/^rtla_fairsrv_lost_events_total //p' /tmp/long.prom)"
echo "secs=$secs"
# shellcheck disable=SC2086
kill $probes 2> /dev/null
wait
for cpu in 1 2 3; do
	fs_set $cpu 50000000 1000000000
done
