#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Who waited, and who held the CPU. On CPU 1 a FIFO task named rt-alpha
# starves a fair task named fair-one; on CPU 2 rt-beta starves fair-two,
# and a second FIFO task, rt-gamma, takes CPU 2 now and then. The tool
# must name, per CPU, the right holder as the one that caused the most
# starvation, and the right waiter in the longest episodes; on CPU 2 the
# episodes list both holders, rt-beta first.
# 7.3: yes
. "$(dirname "$0")/lib.sh"
secs=6

# The probes under the names the test expects (comm is the file name).
for n in rt-alpha rt-beta rt-gamma; do ln -sf "$(command -v rt-probe)" /tmp/$n; done
for n in fair-one fair-two; do ln -sf "$(command -v fair-probe)" /tmp/$n; done

rtla fairsrv hist -c 1-2 -H 0 --json --worst 1000 > /tmp/at.json 2> /tmp/at.err &
tool=$!
rtla fairsrv hist -c 1-2 -H 0 > /tmp/at.txt 2>&1 &
text=$!
check "rtla fairsrv starts collecting (twice)" \
	bash -c "source tests/guest/lib.sh; collecting $tool && collecting $text"
# rt-gamma: 30 ms of every 200 ms, above rt-beta. It runs before the
# others start and until the tools stop, so that every episode on CPU 2
# (about 950 ms each, the longest by a hair) meets it: started with the
# others, under the emulator it once began after the longest episode.
rm -f /tmp/gamma.ready
/tmp/rt-gamma -c 2 -d $((secs * 10)) -p 60 -C 30/200 -R /tmp/gamma.ready > /dev/null &
gamma=$!
wait_files "rt-gamma" /tmp/gamma.ready
/tmp/rt-alpha -c 1 -d $secs > /dev/null &
probes+=" $!"
/tmp/fair-one -c 1 -d $secs > /dev/null &
probes+=" $!"
/tmp/rt-beta -c 2 -d $secs > /dev/null &
probes+=" $!"
/tmp/fair-two -c 2 -d $secs > /dev/null &
probes+=" $!"
wait $probes
kill -INT $tool $text
wait $tool
rc=$?
wait $text
kill $gamma
wait $gamma
check "rtla fairsrv hist --json exits 0 on SIGINT (got $rc)" test $rc = 0
[ -s /tmp/at.err ] && sed 's/^/# stderr: /' /tmp/at.err

# holder CPU: the comm of a CPU's top holder.
holder() {
	awk -v cpu="$1" '{ s = substr($0, index($0, "{\"cpu\":" cpu ",\"state\""))
		s = substr(s, index(s, "\"top_holder\":{\"task\":"))
		sub(/^[^,]*,"comm":"/, "", s); sub(/".*/, "", s); print s }' /tmp/at.json
}
# worst CPU: "waiter1,waiter2,...|ran holder1 holder2" of the longest
# episode of a CPU: the waits the kernel named, the fair task that ran
# at its end, and the holders. The kernel names the task a higher class
# preempted, not the others queued behind it, and one of those that runs
# at the end waited all through (one that woke later would be named).
worst() {
	sed 's/.*"worst":\[//' /tmp/at.json | tr '}' '\n' |
		awk -v cpu="$1" '
		function comm(s) { sub(/.*"comm":"/, "", s); sub(/".*/, "", s); return s }
		/^,?\{"cpu":/ { c = $0; sub(/^,?\{"cpu":/, "", c); sub(/,.*/, "", c); cur = c; w = ""; n = 0; inw = 0
			ran = /"ran":\{/ ? comm($0) : "" }
		cur != cpu { next }
		/"waits":\[\{"task":\{"pid":/ { inw = 1; w = comm($0); next }
		/"holders":\[\{"task":\{"pid":/ { inw = 0 }
		inw && /^,\{"task":\{"pid":/ { w = w "," comm($0); next }
		!inw && /"holders":\[\{"task":\{"pid":|^,\{"task":\{"pid":.*"prio"/ { hs[n++] = comm($0) }
		/"other_holders_ns"/ { printf "%s|%s", w, ran; for (i = 0; i < n; i++) printf " %s", hs[i]; print ""; exit }'
}
# waited TASK WORST: the first holder if TASK waited in WORST.
waited() {
	local who=${2%% *}

	grep -q ",$1," <<< ",${who//|/,}," && cut -d' ' -f2 <<< "$2"
}
h1=$(holder 1) h2=$(holder 2)
w1=$(worst 1) w2=$(worst 2)
echo "# cpu1: top holder $h1; longest episode: $w1"
echo "# cpu2: top holder $h2; longest episode: $w2"
check "cpu1: rt-alpha caused the most starvation ($h1)" test "$h1" = rt-alpha
check "cpu2: rt-beta caused the most starvation ($h2)" test "$h2" = rt-beta
check "cpu1: fair-one waited in the longest episode, behind rt-alpha ($w1)" \
	test "$(waited fair-one "$w1")" = rt-alpha
check "cpu2: fair-two waited in the longest episode, behind rt-beta first ($w2)" \
	test "$(waited fair-two "$w2")" = rt-beta
check "cpu2: rt-gamma held the CPU in it too ($w2)" grep -q ' rt-gamma' <<< "$w2"

grep '^# CPU' /tmp/at.txt | sed 's/^/# text: /'
check "hist names the holder per CPU in its text output too" \
	bash -c "grep -q '^# CPU 1: fair tasks starved most behind rt-alpha:' /tmp/at.txt &&
		 grep -q '^# CPU 2: fair tasks starved most behind rt-beta:' /tmp/at.txt"
done_tap
