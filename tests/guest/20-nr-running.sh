#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rq->nr_running counts tasks, not the fair server that runs them (patch
# 4, upstream 52d15521eb75). With a FIFO hog and a fair task on CPU 1 and
# the server given 200 ms of every second there (so that it is enqueued a
# fifth of the time), CPU 1's .nr_running in /sys/kernel/debug/sched/debug
# must equal its rt_nr_running plus the root cfs_rq's nr_running, whether
# the server is enqueued (dl_nr_running 1: no DEADLINE task runs) or not.
# On an unfixed 6.12.118 it is one more whenever the server is enqueued.
# The snapshot is not atomic: a task waking between two fields can tip
# one sample, so a tenth of the samples of each kind may differ.
# unfixed: fails
. "$(dirname "$0")/lib.sh"

taskset -cp 0 $$ > /dev/null
check "cpu1: server 200 ms / 1 s" fs_write 1 runtime 200000000
hog 1 30
# One line a snapshot: dl_nr_running, and nr_running - rt - cfs.
end=$((SECONDS + 20))
while [ $SECONDS -lt $end ]; do
	awk '/^cpu#1,/ { c = 1; next } /^cpu#/ { c = 0 }
		c && $1 == ".nr_running" && !n++ { nr = $3 }
		/^cfs_rq\[1\]:\/$/ { f = 1 } f && $1 == ".nr_running" { cfs = $3; f = 0 }
		/^rt_rq\[1\]:/ { r = 1 } r && $1 == ".rt_nr_running" { rt = $3; r = 0 }
		/^dl_rq\[1\]:/ { d = 1 } d && $1 == ".dl_nr_running" { dl = $3; d = 0 }
		END { print dl, nr - rt - cfs }' /sys/kernel/debug/sched/debug
done > /tmp/nr.samples
kill $probes 2> /dev/null
wait $probes 2> /dev/null
sort /tmp/nr.samples | uniq -c | sed 's/^ */# samples: /'
# count DL: samples with dl_nr_running DL; off DL: those where nr_running
# is not rt + cfs.
count() { awk -v d="$1" '$1 == d' /tmp/nr.samples | wc -l; }
off() { awk -v d="$1" '$1 == d && $2 != 0' /tmp/nr.samples | wc -l; }
n1=$(count 1) o1=$(off 1) n0=$(count 0) o0=$(off 0)
timing "samples with the server enqueued ($n1) and not ($n0)" \
	test "$n1" -ge 5 -a "$n0" -ge 5
check "server not enqueued: nr_running is rt + cfs ($o0 of $n0 differ)" \
	test $((o0 * 10)) -le "$n0"
check "server enqueued: nr_running is rt + cfs, no more ($o1 of $n1 differ)" \
	test $((o1 * 10)) -le "$n1"
check "cpu1: restoring runtime 50 ms succeeds" fs_write 1 runtime 50000000
done_tap
