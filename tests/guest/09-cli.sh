#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The command line and the stop paths: bad input exits 1 with one line;
# not root exits 1 with one line; SIGINT, SIGTERM, -d expiry, -T hit and
# kill -9 followed by a new run leave no instance and no event enabled.
. "$(dirname "$0")/lib.sh"

# bad MESSAGE ARGS...: exit code 1, exactly one line on stderr that holds
# MESSAGE (it names the real culprit), none on stdout.
bad() {
	local msg=$1 out err rc
	shift
	out=$(rtla "$@" 2> /tmp/bad.err)
	rc=$?
	err=$(wc -l < /tmp/bad.err)
	[ $rc = 1 ] && [ "$err" = 1 ] && [ -z "$out" ] &&
		grep -qF -- "$msg" /tmp/bad.err && return 0
	echo "# rtla $*: exit $rc, $err stderr lines: $(head -c 200 /tmp/bad.err)"
	return 1
}
while IFS='|' read -r args msg; do
	# shellcheck disable=SC2086
	check "rtla$args: exit 1, one line: $msg" bad "${msg# }" $args
done <<'LIST'
 fairsrv top --bogus | unknown option '--bogus'
 fairsrv hist -x | unknown option '-x'
 fairsrv hist -Zq | unknown option '-Z'
 fairsrv top -qZ | unknown option '-Z'
 fairsrv nosuchmode | unknown mode 'nosuchmode'
 fairsrv top -c | option '-c' needs a value
 fairsrv hist -c | option '-c' needs a value
 fairsrv hist --cpus | option '--cpus' needs a value
 fairsrv hist --filter | option '--filter' needs a value
 fairsrv top -c 4 | cpu 4 is out of range (0-3)
 fairsrv top -c 0-9 | cpu 9 is out of range (0-3)
 fairsrv top -c 3-1 | range 3-1 is descending
 fairsrv top -c 1,,2 | empty element
 fairsrv top -c a | expected a number, found 'a'
 fairsrv top -c -1 | expected a number, found '-'
 fairsrv top -c , | empty element
 fairsrv hist --source bogus | invalid --source 'bogus': one of auto, events,
 fairsrv top -e sched --source | option '--source' needs a value
 fairsrv top -d 0 | invalid duration '0': must be greater than 0
 fairsrv top -d -5 | invalid duration '-5': must be positive
 fairsrv top -d 1x | unknown unit 'x' (use s, m, h or d)
 fairsrv top -d 1.5s | fractions are not allowed
 fairsrv top -d 99999999999999999999d | invalid duration '99999999999999999999d': number too large
 fairsrv top -d 18446744074 | invalid duration '18446744074': too large (max 18446744073s)
 fairsrv top -T 0 | invalid time '0': must be greater than 0
 fairsrv top -T 10q | unknown unit 'q' (use ns, us, ms or s)
 fairsrv top -T -1 | invalid time '-1': must be positive
 fairsrv hist -b 0 | invalid time '0': must be greater than 0
 fairsrv hist -b 1.5ms | fractions are not allowed
 fairsrv hist -E 0 | invalid number '0': must be between 1 and 100000
 fairsrv hist -E 100001 | invalid number '100001': must be between 1 and 100000
 fairsrv hist -E x | invalid number 'x': expected a number, found 'x'
 fairsrv hist --worst 0 | invalid number '0': must be between 1 and 1000000
 fairsrv hist -b 1000s -E 100000000 | invalid number '100000000'
 fairsrv top -b 10ms | option '-b' is only valid for hist
 fairsrv top --no-header | option '--no-header' is only valid for hist
 fairsrv top --what-if 20ms/100ms | option '--what-if' is only valid for hist
 fairsrv hist --what-if 20ms | invalid setting '20ms': use RUNTIME/PERIOD
 fairsrv hist --what-if 200ms/100ms | the runtime must not exceed the period
 fairsrv hist --what-if 1ms/5s | the period must be between 100us and 4194304us
 fairsrv hist --what-if 1ms/10ms, | invalid setting '': empty
 fairsrv hist --what-if x/1s | runtime: invalid time 'x'
 fairsrv hist --target-starvation 0 | invalid time '0': must be greater than 0
 fairsrv hist --what-if 1ms/10ms --server-only | not with --server-only
 fairsrv top --with-zeros | option '--with-zeros' is only valid for hist
 fairsrv top -H 9 | cpu 9 is out of range (0-3)
 fairsrv top --trace-buffer-size 0 | invalid size '0': must be greater than 0
 fairsrv top --trace-buffer-size 1z | unknown unit 'z' (use k, m or g)
 fairsrv top --filter pid>1 | --filter needs an -e event before it
 fairsrv top -e :x | invalid event ':x': use system or system:event
 fairsrv top -e sched: | invalid event 'sched:'
 fairsrv top extra-arg | unexpected argument 'extra-arg'
 fairsrv hist --trigger x | --trigger needs an -e event before it
 fairsrv top -t= | empty trace file name
 fairsrv top -a 0 | invalid time '0': must be greater than 0
 fairsrv hist --on-threshold trace | --on-threshold needs a threshold: -T or -a
 fairsrv hist -T 1ms --on-threshold bogus | invalid action 'bogus': expected trace, signal, shell or continue
 fairsrv hist -T 1ms --on-threshold signal,num=2 | signal needs num= and pid=
 fairsrv hist -T 1ms --on-threshold signal,num=99,pid=1 | signal num=: invalid number '99': must be between 1 and 64
 fairsrv top -T 1ms --on-threshold shell | shell needs command=
 fairsrv top --on-end continue | --on-end cannot continue: the run has ended
LIST
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups rtla fairsrv top -d 1 2>&1)
rc=$?
check "not root: exit 1 with one line ($out)" \
	test $rc = 1 -a "$(wc -l <<< "$out")" = 1

rtla fairsrv top -q -d 1 > /dev/null; rc=$?
check "-d expiry: exit 0 ($rc)" test $rc = 0
check "-d expiry: nothing left behind" clean

for sig in INT TERM HUP QUIT USR1; do
	rtla fairsrv hist -d 60 > /tmp/sig.out &
	pid=$!
	collecting $pid
	kill -$sig $pid
	wait $pid; rc=$?
	check "SIG$sig: exit 0 ($rc) and a histogram printed" \
		bash -c "[ $rc = 0 ] && grep -q '^# RTLA fairsrv histogram' /tmp/sig.out"
	check "SIG$sig: nothing left behind" clean
done

# A closed pipe: top's next write fails (EPIPE), and it still cleans up.
rtla fairsrv top -d 60 2> /tmp/pipe.err | head -n 1 > /dev/null
rc=${PIPESTATUS[0]}
check "a closed pipe ends top with exit 0 ($rc)" test "$rc" = 0
check "a closed pipe: nothing left behind" clean
[ -s /tmp/pipe.err ] && sed 's/^/# stderr: /' /tmp/pipe.err

out=$(rtla fairsrv top --version)
check "--version: $(head -n 1 <<< "$out")" grep -q '^rtla fairsrv [0-9]' <<< "$out"
# The BPF source is built where clang and bpftool were: the skeleton says.
if [ -e build/bpf/fairsrv.skel.h ]; then
	words='auto, events, bpf, kprobe' why=
else
	words='auto, events, kprobe' why=' (built without the BPF source'
fi
check "--version names the sources built: $(tail -n 1 <<< "$out")" \
	grep -qF "sources: $words$why" <<< "$out"
rtla fairsrv hist --source bogus 2> /tmp/bad.err
check "--source's error names the same" grep -qF "one of $words" /tmp/bad.err

# House-keeping: without -H, the tool runs outside the CPUs it measures.
rtla fairsrv top -q -c 1-3 -d 60 -D > /dev/null 2> /tmp/hk.err &
pid=$!
collecting $pid
aff=$(taskset -cp $pid | sed 's/.*: //')
kill -INT $pid
wait $pid
check "without -H, -c 1-3 runs on CPU 0 ($aff)" test "$aff" = 0
check "-D says so" grep -q 'house-keeping: running on the 1 CPUs outside -c' /tmp/hk.err

rtla fairsrv top -q -d 60 > /dev/null &
pid=$!
collecting $pid
kill -9 $pid
wait $pid 2>/dev/null
check "kill -9 leaves an instance behind" bash -c "ls $T/instances | grep -q rtla_fairsrv_$pid"
rtla fairsrv top -q -d 1 > /dev/null
check "the next run removes the stale instance" clean

rtla fairsrv top -q -c 1 -d 10 -T 100ms > /dev/null 2> /tmp/thr.err &
pid=$!
collecting $pid
starve 1 4 /tmp/thr
wait $pid; rc=$?
wait $probes
check "-T hit: exit 2 ($rc): $(cat /tmp/thr.err)" test $rc = 2
check "-T hit: nothing left behind" clean

# The other rtla tools go to the system's rtla (/usr/bin/rtla, Debian's).
out=$(rtla osnoise top --help 2>&1)
handed_over() {
	grep -q 'rtla osnoise top' <<< "$out" && ! grep -q 'only has fairsrv' <<< "$out"
}
check "rtla osnoise is handed over to /usr/bin/rtla" handed_over

# -t in every form rtla takes: -t, -tFILE, -t FILE, --trace, --trace=FILE.
cd /tmp || exit 1
for form in "-t" "-t/tmp/t1.txt" "-t /tmp/t2.txt" "--trace" "--trace=/tmp/t3.txt" "-t=/tmp/t4.txt"; do
	file=$(sed -n 's/^-t=//p; s/^--trace=//p; s/^-t \{0,1\}//p' <<< "$form")
	[ -n "$file" ] || file=fairsrv_trace.txt
	rm -f "$file"
	# shellcheck disable=SC2086
	rtla fairsrv hist -q -d 1 $form > /dev/null; rc=$?
	check "rtla fairsrv hist $form saves to $file (exit $rc)" grep -q "sched_dl_" "$file"
done
cd /host || exit 1
check "-t: nothing left behind" clean

# --trace-buffer-size sizes both instances.
rtla fairsrv hist -q -d 60 -t /tmp/t5.txt --trace-buffer-size 2m > /dev/null &
pid=$!
collecting $pid
sizes=$(cat $T/instances/rtla_fairsrv_$pid/buffer_size_kb $T/instances/rtla_fairsrv_trace_$pid/buffer_size_kb | tr '\n' ' ')
kill -INT $pid
wait $pid
read -r s1 s2 <<< "$sizes"
check "--trace-buffer-size 2m sizes both instances ($sizes kB)" \
	bash -c "[ $s1 = $s2 ] && [ $s1 -ge 2048 ] && [ $s1 -lt 2100 ]"

# A failed save: the statistics first, then one error line, exit 1.
rtla fairsrv hist -d 1 -t /nonexistent/dir/x.txt > /tmp/fail.out 2> /tmp/fail.err; rc=$?
check "a failed -t save still prints the histogram, then fails (exit $rc)" \
	bash -c "[ $rc = 1 ] && grep -q '^# RTLA fairsrv histogram' /tmp/fail.out && grep -q 'cannot open /nonexistent/dir/x.txt' /tmp/fail.err"
check "and leaves nothing behind" clean
done_tap
