#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of B1 and B2: scheduler microbenchmarks, one line per result:
#   result KIND pipe_us|hackbench_s VALUE
#
#   micro.sh plain ROUNDS   ROUNDS runs of each, KIND "plain"
#   micro.sh tool ROUNDS    ROUNDS pairs: KIND "plain", then "tool" with
#                           rtla fairsrv top -q collecting on all CPUs
. /host/tests/guest/lib.sh
mode=$1 rounds=$2

# bench KIND: one run of each microbenchmark.
bench() {
	local v
	v=$(perf bench sched pipe -l 20000 2>&1 | awk '/usecs\/op/ { print $1 }')
	[ -n "$v" ] || { echo "perf bench sched pipe failed" >&2; exit 1; }
	echo "result $1 pipe_us $v"
	v=$(hackbench -g 2 -l 50 2>&1 | awk '/^Time:/ { print $2 }')
	[ -n "$v" ] || { echo "hackbench failed" >&2; exit 1; }
	echo "result $1 hackbench_s $v"
}

for ((i = 0; i < rounds; i++)); do
	bench plain
	[ "$mode" = tool ] || continue
	rtla fairsrv top -q > /dev/null &
	tool=$!
	collecting $tool || { echo "rtla fairsrv did not start" >&2; exit 1; }
	bench tool
	kill -INT $tool
	wait $tool || { echo "rtla fairsrv failed" >&2; exit 1; }
done
