#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of B1 and B2: scheduler microbenchmarks in an instruction-
# counted guest, one line per result:
#   result KIND pipe_us|mix_us|pipe_tool_ns|mix_tool_ns VALUE
# pipe_us: perf bench sched pipe, microseconds per round trip; mix_us: a
# FIFO and a fair thread on CPUs 1 and 2 passing a byte back and forth
# (pingpong -r), so that CPU 2's fair server starts and stops at every
# round trip, microseconds per round trip. The first round of a boot is a
# warm-up and is not printed.
#
#   micro.sh plain ROUNDS   ROUNDS runs of each, KIND "plain"
#   micro.sh events ROUNDS [no-record-cmd]
#                           ROUNDS rounds, each one run of every kind in
#                           turn: "plain", "server" with rtla fairsrv top -q
#                           --server-only collecting, "task" with rtla
#                           fairsrv top -q (fair starvation too), and
#                           "whatif": hist --what-if (the load recorded
#                           from the scheduler's events too)
#   micro.sh stock ROUNDS [no-record-cmd]
#                           likewise with the sources of a kernel without
#                           the series: "plain", then "kserver" and
#                           "kprobe": --server-only and the full tool with
#                           --source kprobe, and where the BPF source is
#                           built, "bserver", "bpf" and "bwhatif": the
#                           first three kinds with --source bpf,
#                           "brecords": "bpf" with the programs sending
#                           every scheduler event for derive.h in user
#                           space (RTLA_FAIRSRV_BPF_RECORDS=1), "bother":
#                           the full BPF source with -c 3, a CPU the
#                           ping-pong does not use (the programs make no
#                           record about the others), and "bempty-server"
#                           and "bempty": the first two with the programs
#                           attached but returning at once
#                           (RTLA_FAIRSRV_BPF_EMPTY=1), the floor of any
#                           BPF at those attachment points
#   micro.sh tool ROUNDS [no-record-cmd]
#                           for our kernel: the kinds of "events", then
#                           "bserver" and "bpf", so that the BPF source
#                           compares with the series' events
#
# With no-record-cmd, the top-level option record-cmd is off first (an
# enabled event in any instance otherwise records comms at every switch).
# Each run with the tool also gives the tool's own CPU time per round
# trip (KIND mix_tool_ns, pipe_tool_ns: its threads' schedstat, in this
# guest its instructions), so that a cost splits into the tool's work and
# the kernel's.
. /host/tests/guest/lib.sh
mode=$1 rounds=$2
case $mode in
plain|events|stock|tool) ;;
*) echo "usage: micro.sh plain|events|stock|tool ROUNDS [no-record-cmd]" >&2; exit 1 ;;
esac
taskset -cp 0 $$ > /dev/null
if [ "${3:-}" = no-record-cmd ]; then
	echo 0 > $T/options/record-cmd || exit 1
fi

# cpu_ns PID: the CPU time of PID's threads so far, ns.
cpu_ns() {
	local t a s=0

	for t in /proc/$1/task/*/schedstat; do
		read -r a _ < "$t" || continue
		s=$((s + a))
	done
	echo $s
}

# bench KIND [TOOL]: one run of each microbenchmark; with TOOL, a pid,
# also its CPU time per round trip.
bench() {
	local v c=0 n=20000

	[ -n "${2:-}" ] && c=$(cpu_ns "$2")
	v=$(perf bench sched pipe -l $n 2>&1 | awk '/usecs\/op/ { print $1 }')
	[ -n "$v" ] || { echo "perf bench sched pipe failed" >&2; exit 1; }
	[ "$1" = warm-up ] || echo "result $1 pipe_us $v"
	if [ -n "${2:-}" ]; then
		echo "result $1 pipe_tool_ns $(( ($(cpu_ns "$2") - c) / n ))"
		c=$(cpu_ns "$2")
	fi
	v=$(pingpong -a 1 -b 2 -r -n $n | sed -n 's/^round_trip_ns=//p')
	[ -n "$v" ] || { echo "pingpong failed" >&2; exit 1; }
	[ "$1" = warm-up ] || echo "result $1 mix_us $(awk -v v="$v" 'BEGIN { print v / 1000 }')"
	[ -z "${2:-}" ] || echo "result $1 mix_tool_ns $(( ($(cpu_ns "$2") - c) / n ))"
}

# with KIND [hist] ARGS...: one run of each with rtla fairsrv top -q (or
# hist) ARGS collecting.
with() {
	local kind=$1 mode=top tool
	shift
	[ "$1" = hist ] && { mode=hist; shift; }
	rtla fairsrv $mode -q -H 0 "$@" > /dev/null &
	tool=$!
	collecting $tool || { echo "rtla fairsrv did not start" >&2; exit 1; }
	bench "$kind" $tool
	kill -INT $tool
	wait $tool || { echo "rtla fairsrv failed" >&2; exit 1; }
}

bench warm-up
for ((i = 0; i < rounds; i++)); do
	bench plain
	[ "$mode" = plain ] && continue
	if [ "$mode" != stock ]; then
		with server --server-only
		with task
		with whatif hist --what-if 20ms/100ms
	fi
	[ "$mode" = events ] && continue
	if [ "$mode" = stock ]; then
		with kserver --source kprobe --server-only
		with kprobe --source kprobe
	fi
	[ -e /host/build/bpf/fairsrv.skel.h ] || continue
	with bserver --source bpf --server-only
	with bpf --source bpf
	[ "$mode" = stock ] || continue
	with bwhatif hist --source bpf --what-if 20ms/100ms
	export RTLA_FAIRSRV_BPF_RECORDS=1
	with brecords --source bpf
	unset RTLA_FAIRSRV_BPF_RECORDS
	with bother --source bpf -c 3
	export RTLA_FAIRSRV_BPF_EMPTY=1
	with bempty-server --source bpf --server-only
	with bempty --source bpf
	unset RTLA_FAIRSRV_BPF_EMPTY
done
