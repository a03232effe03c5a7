#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The whole tool, tracefs side included, under ASan, LeakSanitizer and
# UBSan (build/asan/rtla, make check builds it): every mode and stop path
# on a live event stream, the lost-event path and the error paths. A
# sanitizer report fails the run (its own exit code) and is shown.
. "$(dirname "$0")/lib.sh"
rtla=/host/build/asan/rtla
export ASAN_OPTIONS=detect_leaks=1:exitcode=97
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=98

taskset -cp 0 $$ > /dev/null
[ -x $rtla ] || { echo "Bail out! no $rtla: run make check"; exit 1; }
# A busy stream: boosts every 100 ms on CPUs 1 and 2, for longer than
# the test (killed at its end).
for cpu in 1 2; do
	fs_set $cpu 10000000 100000000 || exit 1
	hog $cpu 3600
done

# sanitized NAME RC WANT: the run just made exited RC, which is WANT, with
# no sanitizer report in /tmp/san.err, and left nothing behind.
sanitized() {
	local name=$1 rc=$2 reports
	reports=$(grep -cE 'Sanitizer|runtime error:' /tmp/san.err)
	check "$name: exit $rc, $reports sanitizer reports" \
		test "$rc" = "$3" -a "$reports" = 0
	[ "$reports" = 0 ] || sed 's/^/# /' /tmp/san.err | head -n 40
	check "$name: nothing left behind" clean
}

# run NAME EXPECTED-RC ARGS...: one run of the sanitized tool.
run() {
	local name=$1 want=$2
	shift 2
	$rtla fairsrv "$@" > /tmp/san.out 2> /tmp/san.err
	sanitized "$name" $? "$want"
}

run "top -q, -d expiry" 0 top -q -c 0-3 -d 3s
run "top, live table" 0 top -c 1-2 -d 3s
run "top --json" 0 top -q -d 2s --json
run "hist -E 100 -b 1 --json" 0 hist -c 1-3 -d 3s -E 100 -b 1 --json
run "hist, trace saved with an extra event" 0 hist -d 2s \
	-e sched:sched_switch --filter 'prev_prio < 100' --trace=/tmp/san.trace
run "hist --source kprobe (probes, BTF, derived events)" 0 hist -c 1-3 -d 3s \
	--source kprobe --json
run "hist --what-if --target-starvation (load, replays, advice)" 0 hist \
	-c 1-2 -d 3s --what-if 20ms/100ms,0/1s --target-starvation 100ms
run "hist --what-if --json, kprobe source" 0 hist -c 1-2 -d 3s --json \
	--source kprobe --what-if 20ms/100ms
# On PREEMPT_RT, irq_work/N runs at RT priority 1: the busy loops starve
# it whenever it has work on CPUs 1-2, and the BPF programs' detach then
# waits for as long as they run (22-stock checks that wait and its line).
if [ -e build/bpf/fairsrv.skel.h ] && rt_kernel; then
	skip "hist --source bpf, sanitized" \
		"PREEMPT_RT: the detach waits for the irq_work threads the load starves"
elif [ -e build/bpf/fairsrv.skel.h ]; then
	run "hist --source bpf (programs, ring, derived events)" 0 hist \
		-c 1-3 -d 3s --source bpf --json
	run "hist --what-if, -t, bpf source" 0 hist -c 1-2 -d 3s \
		--source bpf --what-if 20ms/100ms -t /tmp/san.trace
fi
# shellcheck disable=SC2086
check "the load on CPUs 1 and 2 still runs" kill -0 $probes
run "-T hit" 2 top -q -c 1 -T 50ms -d 30s
run "-a, its analysis and trace" 2 hist -c 1 -a 50ms -d 30s -t /tmp/san.trace
run "threshold actions, continue, --on-end" 0 hist -q -c 1-2 -T 50ms -d 3s \
	--on-threshold trace,file=/tmp/san.trace --on-threshold shell,command=true \
	--on-threshold continue --on-end shell,command=true

for sig in INT TERM; do
	$rtla fairsrv hist -c 1-2 > /tmp/san.out 2> /tmp/san.err &
	pid=$!
	collecting $pid
	kill -$sig $pid
	wait $pid
	sanitized "hist stopped by SIG$sig" $? 0
done

# Lost events: servers at 50 us every 100 us, a 4 kB buffer, and the tool
# stopped until both loaded CPUs' buffers overran. The period is shorter than a timer's lateness under
# TCG, so the kernel may say once that a replenishment came a period late.
known_report "sched: DL replenish lagged too much" \
	"a 100 us period, shorter than the guest's timer latency"
for cpu in 1 2; do
	fs_set $cpu 50000 100000 || exit 1
done
$rtla fairsrv top -q --json --trace-buffer-size 4 > /tmp/san.out \
	2> /tmp/san.err &
pid=$!
collecting $pid
kill -STOP $pid
check "the buffers of CPUs 1 and 2 overran within 60 s" \
	wait_no_room $pid events 1 2
kill -CONT $pid
kill -INT $pid
wait $pid
sanitized "lost events" $? 0
lost=$(grep -o '"lost":[0-9]*' /tmp/san.out | head -n 1 | cut -d: -f2)
check "lost events reported ($lost)" test "${lost:-0}" -gt 0

run "bad CPU list" 1 top -c 3-1
run "bad duration" 1 hist -d 10q
run "unknown option" 1 top --no-such-option
setpriv --reuid=65534 --regid=65534 --clear-groups \
	$rtla fairsrv top -d 1 > /dev/null 2> /tmp/san.err
sanitized "not root" $? 1

kill $probes 2> /dev/null
wait
done_tap
