#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A server throttled inside its own pick runs nothing (patch 7). The
# server's pick accounts the running fair task's time first; when that
# uses the runtime up, 6.12.118 ran the fair task all the same, ahead of
# every queued real-time task, until some unrelated wakeup: here the top
# FIFO task below waited 0.28-0.87 s at a time, within 8 s, on the
# pristine kernel as on the series without the patch (campaign seed 2).
#
# The load of that seed's CPU 2: the server at 2.9 ms / 29 ms, FIFO 70
# and 66 duty cycles (the second falls behind: together they want more
# than the CPU), a FIFO 62 busy loop and a fair busy loop. The top FIFO
# task waits for nothing but the server, one stint at a time: its
# runtime, and what the emulator adds. The oracle is the
# task's own clock (its gaps and wake-up latencies).
. "$(dirname "$0")/lib.sh"
secs=10

taskset -cp 0 $$ > /dev/null
trap 'fs_set 2 50000000 1000000000' EXIT
check "the server of CPU 2 takes 2.9 ms / 29 ms" fs_set 2 2900000 29000000
at=$(( $(fair-probe --now) + 500000000 ))
common=(-c 2 -d $secs -s $at -l -o)
rt-probe "${common[@]}" -p 70 -C 10/26/3 > /tmp/pt.top &
probes+=" $!"
rt-probe "${common[@]}" -p 66 -C 13/20/1 > /dev/null &
probes+=" $!"
rt-probe "${common[@]}" -p 62 > /dev/null &
probes+=" $!"
fair-probe "${common[@]}" > /tmp/pt.fair &
probes+=" $!"
wait $probes

check "the probes ran the whole window ($(val wall_ns /tmp/pt.top) ns)" \
	test "$(val wall_ns /tmp/pt.top)" = "${secs}000000000"
gap=$(val gap_max_ns /tmp/pt.top) lat=$(val wake_max_ns /tmp/pt.top)
echo "# the top FIFO task: $(val wakes /tmp/pt.top) wake-ups; longest gap $gap ns, longest wake-up latency $lat ns"
echo "# the fair task ran $(val share_pct /tmp/pt.fair)% of the CPU"
check "the top FIFO task measured its gaps and wake-ups" num "$gap" "$lat"
# 2 x 2.9 ms + 30 ms: one stint, overrun by late ticks, and a virtual
# CPU the emulator left unscheduled (the campaign's rt-wait bound).
timing "its longest gap $gap ns <= 35.8 ms" le "$gap" 35800000 0
timing "its longest wake-up latency $lat ns <= 35.8 ms" le "$lat" 35800000 0
done_tap
