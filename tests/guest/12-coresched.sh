#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Core scheduling with the fair server (seed patches 7 and 8), set up as
# the series' cs_dlserver_test: the fair servers at 50 ms / 100 ms, one
# fair task and one FIFO task on a CPU and a FIFO task on its SMT
# sibling, each in a core-scheduling cookie of its own. The fair task's
# run time must be within 30% of the FIFO task's on its CPU.
# run: -S
# unfixed: fails
# proposed: yes
. "$(dirname "$0")/lib.sh"
secs=10

cpu=2
sib=$(tr ',-' '\n\n' < /sys/devices/system/cpu/cpu$cpu/topology/thread_siblings_list |
	grep -vx $cpu | head -n 1)
check "cpu$cpu has an SMT sibling (cpu${sib:-none})" test -n "$sib"
[ -n "$sib" ] || { done_tap; exit; }
for c in $cpu $sib; do
	check "cpu$c: fair server set to 50 ms / 100 ms" fs_set $c 50000000 100000000
done

at=$(( $(fair-probe --now) + 300000000 ))
core-cookie fair-probe -c $cpu -d $secs -s $at > /tmp/cs.fair &
core-cookie rt-probe -c $cpu -d $secs -s $at > /tmp/cs.rt1 &
core-cookie rt-probe -c $sib -d $secs -s $at > /tmp/cs.rt2 &
wait
f=$(val schedstat_run_ns /tmp/cs.fair)
r1=$(val schedstat_run_ns /tmp/cs.rt1)
r2=$(val schedstat_run_ns /tmp/cs.rt2)
echo "# run time: fair $f ns, FIFO on cpu$cpu $r1 ns, FIFO on cpu$sib $r2 ns"
check "the fair task ran ($f ns)" test "${f:-0}" -gt 0
# Its server reserves 50% of cpu2; a quarter of the window is a floor
# that a starved task (unfixed: 2.7 ms) cannot reach.
timing "the fair task ran >= 25% of the $secs s ($f ns)" \
	test "${f:-0}" -ge $((secs * 250000000))
# Unfixed, the fair task starves (2.7 ms in 10 s): core.c ranked a server
# pick as deadline through task_struct::dl_server, which 6.12 no longer
# sets (fixed by kernel/patches/0003). Fixed, it runs about as long as the
# FIFO task on its own CPU. 7.x also charges the forced idle time to the
# waiting server, which then keeps starting new periods (the fair task:
# 2.1 s with patch 3 alone); kernel/upstream/coresched fixes both there.
timing "fair ($f ns) within 30% of the FIFO task on cpu$cpu ($r1 ns)" \
	in_range "$f" "$(awk -v r="$r1" 'BEGIN { printf "%.0f", r * 0.7 }')" \
	"$(awk -v r="$r1" 'BEGIN { printf "%.0f", r * 1.3 }')"
# The series' test also wants the fair task within 30% of the FIFO task on
# the sibling. That is not the fair server's to give: the two FIFO tasks
# have equal priorities and different cookies, so each core-wide pick
# between them is a tie, which pick_next_task() leaves to the CPU making
# the pick (the first one it compares), and CPU 2, with two tasks and its
# server's timers, picks more often. Measured (2026-12-04, 10 s each): the
# sibling's FIFO task ran 0.65 and 1.34 s; with the tie broken the other
# way in a test kernel, 2.82 and 2.59 s, the fair task then 2.9 and 2.5 s.
# What holds either way: the core's time is shared by the three tasks,
# none of it lost (one of them runs at a time).
sum=$(( ${f:-0} + ${r1:-0} + ${r2:-0} ))
timing "fair + both FIFO tasks fill the core: $sum ns of $((secs * 1000000000)) (90-101%)" \
	in_range "$sum" "$((secs * 900000000))" "$((secs * 1010000000))"
done_tap
