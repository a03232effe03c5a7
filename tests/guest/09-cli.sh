#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The command line and the stop paths: bad input exits 1 with one line;
# not root exits 1 with one line; SIGINT, SIGTERM, -d expiry, -T hit and
# kill -9 followed by a new run leave no instance and no event enabled.
. "$(dirname "$0")/lib.sh"

# bad ARGS...: exit code 1 and exactly one line on stderr, none on stdout.
bad() {
	local out err rc
	out=$(rtla "$@" 2> /tmp/bad.err)
	rc=$?
	err=$(wc -l < /tmp/bad.err)
	[ $rc = 1 ] && [ "$err" = 1 ] && [ -z "$out" ] && return 0
	echo "# rtla $*: exit $rc, $err stderr lines: $(head -c 200 /tmp/bad.err)"
	return 1
}
while read -r args; do
	# shellcheck disable=SC2086
	check "bad input exits 1 with one line: rtla $args" bad $args
done <<'LIST'
fairsrv top --bogus
fairsrv hist -x
fairsrv nosuchmode
fairsrv top -c
fairsrv top -c 4
fairsrv top -c 0-9
fairsrv top -c 3-1
fairsrv top -c 1,,2
fairsrv top -c a
fairsrv top -c -1
fairsrv top -c ,
fairsrv top -d 0
fairsrv top -d -5
fairsrv top -d 1x
fairsrv top -d 1.5s
fairsrv top -d 99999999999999999999d
fairsrv top -T 0
fairsrv top -T 10q
fairsrv top -T -1
fairsrv hist -b 0
fairsrv hist -b 1.5ms
fairsrv hist -E 0
fairsrv hist -E 100001
fairsrv hist -E x
fairsrv top -b 10ms
fairsrv top --no-header
fairsrv top --with-zeros
fairsrv top -H 9
fairsrv top --trace-buffer-size 0
fairsrv top --trace-buffer-size 1z
fairsrv top --filter 'pid > 1'
fairsrv top -e :x
fairsrv top -e sched:
fairsrv top extra-arg
fairsrv hist --trigger x
LIST

out=$(setpriv --reuid=65534 --regid=65534 --clear-groups rtla fairsrv top -d 1 2>&1)
rc=$?
check "not root: exit 1 with one line ($out)" \
	test $rc = 1 -a "$(wc -l <<< "$out")" = 1

rtla fairsrv top -q -d 1 > /dev/null; rc=$?
check "-d expiry: exit 0 ($rc)" test $rc = 0
check "-d expiry: nothing left behind" clean

for sig in INT TERM; do
	rtla fairsrv hist -d 60 > /tmp/sig.out &
	pid=$!
	collecting $pid
	kill -$sig $pid
	wait $pid; rc=$?
	check "SIG$sig: exit 0 ($rc) and a histogram printed" \
		bash -c "[ $rc = 0 ] && grep -q '^# RTLA fairsrv histogram' /tmp/sig.out"
	check "SIG$sig: nothing left behind" clean
done

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

rtla fairsrv hist -q -d 1 --trace=/tmp/saved.txt > /dev/null; rc=$?
check "-t saves the trace (exit $rc)" grep -q "sched_dl_" /tmp/saved.txt
check "-t: nothing left behind" clean
done_tap
