#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Deferral (seed patch 5's motivating case): on an idle CPU, a SCHED_FIFO
# and a SCHED_OTHER thread wake at the same moment. The FIFO thread runs
# first and spins for 20 ms; the deferred fair server must not run the
# fair thread inside that time. 30 rounds. Then the converse, to show the
# probe can see a fair thread getting in: a 1.2 s spin outlasts the
# server's deferral (950 ms), so the fair thread must run inside it.
. "$(dirname "$0")/lib.sh"

wake-pair -c 2 -n 30 -b 20 > /tmp/wp.short || exit 1
sed 's/^/# /' /tmp/wp.short
check "30 rounds of a 20 ms FIFO spin: the FIFO thread ran first in all ($(val rt_first /tmp/wp.short))" \
	test "$(val rt_first /tmp/wp.short)" = 30
check "and the fair thread never ran inside the spin ($(val fair_inside /tmp/wp.short))" \
	test "$(val fair_inside /tmp/wp.short)" = 0

wake-pair -c 2 -n 2 -b 1200 > /tmp/wp.long || exit 1
sed 's/^/# /' /tmp/wp.long
check "a 1.2 s FIFO spin: the fair thread got in, in both rounds ($(val fair_inside /tmp/wp.long))" \
	test "$(val fair_inside /tmp/wp.long)" = 2
done_tap
