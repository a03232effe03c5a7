#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# --what-if and --target-starvation against what the load then lives.
# Three loads:
#   CPU 1: a FIFO rt-probe that never sleeps and a fair-probe that never
#          sleeps, the server at its default (50 ms / 1 s);
#   CPU 2: a FIFO rt-probe busy 90 ms of every 100 ms and a fair-probe
#          that never sleeps, the server at its default;
#   CPU 3: a FIFO rt-probe busy 95 ms of every 100 ms and a fair-probe
#          that wakes every 100-150 ms for 2 ms of work (-w), the server disabled
#          (the FIFO task leaves the CPU 5 ms in 100); its wake-ups fall
#          anywhere in the FIFO task's cycle, and the 30 or so of a
#          recording sample its worst case well.
# rtla fairsrv hist records them once and predicts two other settings and
# the advice for fair starvation of at most 100 ms. Each setting is then
# applied through debugfs (the advice with the very lines the tool
# printed) and the same load is run again, alone, with the probes as the
# oracle: the fair-probe's longest time off the CPU (a gap while it ran,
# or a late wake-up) is the worst starvation; the rt-probe's schedstat
# wait time per second is the RT preemption per second (on CPU 3 less
# what it waits with the server disabled), and on CPU 1,
# where it never sleeps, its gaps are the stints: the 90th percentile of
# them is compared with the predicted worst. (Under TCG about one stint
# in twenty runs 3-5 ms long, when the vCPU is not run across the tick
# that ends it; and a late wake-up of an RT task is no measure at all:
# its timer interrupt comes up to a few ms late, before the scheduler
# sees it.) The settings are away from the loads' edges: a runtime that
# the gaps of CPUs 2 and 3 (10 and 5 ms in 100) use up in exactly one
# period would make the boosts a matter of jitter.
# The probes count only time off the CPU (-o): under TCG a vCPU that is
# not run is no scheduler's doing. Predictions and measurements must
# agree within 20% (and 1 ms, a tick; 4 ms per second for rates, the
# wake-ups' own latency under TCG, up to 3.6 ms/s seen where no boost
# comes); the advised setting must meet the target.
# 7.3: yes
. "$(dirname "$0")/lib.sh"
secs=8
dir=/tmp/wi
rm -rf $dir && mkdir -p $dir || exit 1

# load SECONDS PREFIX: the loads, with the probes' lists in PREFIX.* (and
# their pids in PREFIX.pids), measuring one window that opens 300 ms from
# now.
load() {
	local pids= at

	at=$(( $(fair-probe --now) + 300000000 ))
	rt-probe -c 1 -d "$1" -s $at -o -l > "$2.rt1" & pids+=" $!"
	fair-probe -c 1 -d "$1" -s $at -o -l > "$2.fair1" & pids+=" $!"
	rt-probe -c 2 -d "$1" -s $at -o -l -C 90/100 > "$2.rt2" & pids+=" $!"
	fair-probe -c 2 -d "$1" -s $at -o -l > "$2.fair2" & pids+=" $!"
	rt-probe -c 3 -d "$1" -s $at -o -l -C 95/100 > "$2.rt3" & pids+=" $!"
	fair-probe -c 3 -d "$1" -s $at -o -l -C 2/100/50 -w > "$2.fair3" &
	pids+=" $!"
	echo $pids > "$2.pids"
	wait $pids
}

# worst FILE [KINDS]: the longest of a probe's own waits of KINDS (gap,
# wake, or both: the default), in ms, past the first 500 ms (the server's
# state when the window opens is the fair task's alone). A wait that held
# a turn the probe never saw (runs=N, N > 0) is left out: under TCG the
# kernel can switch the probe in and, the virtual CPU having been left
# unrun for longer than a 5 ms runtime, take the CPU back at the pending
# timer before the probe runs an instruction, so one gap spans several of
# the kernel's waits (seen: 92-402 ms at 5/50 ms). So is a wait that
# meets a cycle of the CPU's real-time probe (FILE's .rt sibling) that
# the emulator made run on into the next (emulator=1: its virtual CPU
# stood still, the thread current, through the cycle's whole sleep; 100
# ms seen): from its cycle's start (its period, 100 ms, before the due
# time it overran) to its end, the load is not the recorded one. How
# many were left out, and the longest, goes to stderr.
worst() {
	local rt=${1/.fair/.rt}
	[ -f "$rt" ] || rt=/dev/null
	awk -v kinds="${2:-gap|wake}" '
	FNR == NR {
		if ($1 == "overrun" && $5 == "emulator=1") {
			split($2, d, "="); split($3, l, "=")
			x++; xs[x] = d[2] - 100000000; xe[x] = d[2] + l[2]
		}
		next
	}
	$1 ~ "^(" kinds ")$" {
		split($2, a, "="); split($3, b, "=")
		if (a[2] < 500000000)
			next
		for (i = 1; i <= x; i++)
			if (a[2] < xe[i] && a[2] + b[2] > xs[i]) {
				e++
				if (b[2] > eu) eu = b[2]
				next
			}
		if ($4 ~ /^runs=[1-9]/) {
			n++
			if (b[2] > u) u = b[2]
		} else if (b[2] > m)
			m = b[2]
	} END {
		if (n) printf "# %s: %d waits with unseen turns left out, the longest %.2f ms\n",
			FILENAME, n, u / 1e6 > "/dev/stderr"
		if (e) printf "# %s: %d waits in cycles the emulator overran left out, the longest %.2f ms\n",
			FILENAME, e, eu / 1e6 > "/dev/stderr"
		printf "%.2f\n", m / 1e6 }' "$rt" "$1"
}

# p90 FILE: the 90th percentile of a probe's gaps over 2 ms, in ms, past
# the first 500 ms, those with unseen turns left out (as worst).
p90() {
	awk '/^gap / && $4 !~ /^runs=[1-9]/ { split($2, a, "="); split($3, b, "=")
		if (a[2] >= 500000000 && b[2] > 2000000) print b[2] }' "$1" |
		sort -n | awk '{ v[NR] = $1 }
			END { i = int(NR * 0.9 + 0.5); if (i < 1) i = 1
			      printf "%.2f\n", NR ? v[i] / 1e6 : 0 }'
}

# rate FILE [BASE]: a probe's schedstat wait, ms per second of its
# window. On CPU 3, less BASE's: there the FIFO task wakes from idle 10
# times a second, which under TCG costs it ~0.5 ms of waiting each time,
# no server involved; the recording, with that server disabled, measures
# it.
rate() {
	awk -F= -v base="$([ "${1##*.rt}" = 3 ] && [ -n "${2:-}" ] && rate "$2")" '
		/^schedstat_wait_ns=/ { w = $2 } /^wall_ns=/ { t = $2 }
		END { printf "%.2f\n", t ? w * 1000 / t - base : -1 }' "$1"
}

# predicted FILE KIND CPU [RUNTIME PERIOD]: "StarvMax RTPreMax RTPre/s" in
# ms of a row of the what-if table.
predicted() {
	awk -v k="$2" -v c="$3" -v r="${4:-}" -v p="${5:-}" '
		$1 == k && $2 == c && (r == "" || ($3 == r && $4 == p)) {
			print $5, $8, $10; exit }' "$1"
}

# On CPU 3 the checks are known failures (TODO), reported but not
# counted as passed or failed: there a task that wakes for 2 ms behind an
# RT task busy 95% of the time meets a server that boosts on idle time
# and then serves each wake-up at once. Predictions of its RT preemption
# ranged from 9 to 32 ms/s for 13-21 measured, and two runs in twelve
# measured 188 and 248 ms waits where 45 and 96 were predicted (wake-ups
# of an idle vCPU under TCG are also late by up to ~100 ms); since, two
# runs in seven predicted 31-35 ms/s for 15-16 measured. The replay of
# that CPU with its own setting matches the kernel's boosts exactly
# (27/26/28 of 27/26/28), so the spread is in the recorded samples and
# in what the oracle sees: the recorder takes a job's work as the time
# it held the CPU, and under TCG that holds the time the vCPU was not
# run (one recording gave the waker's 21 jobs of 2 ms of CPU 224 ms, one
# of them 95). The tool marks those rows censored: the waker starved
# while recording (its server disabled), and the replay cannot know what
# it would have done served sooner.
# verdict CPU NAME COMMAND...: a prediction against what the load lived,
# a timing check (skipped on the debug kernel), or on CPU 3 a TODO.
verdict() {
	local cpu=$1
	shift
	if [ "$cpu" = 3 ]; then
		todo "CPU 3: a brief waker behind an idle-boosting server, censored" "$@"
	else
		timing "$@"
	fi
}

# disagrees CPU: the tool found that its replay of CPU's recorded setting
# disagrees with what the run measured there (Note "disagrees").
disagrees() {
	grep -qE "^recorded +$1 .* disagrees" $dir/out
}

# agree NAME PREDICTED MEASURED [ABS]: within 20% of the measurement and
# ABS (1 ms by default).
agree() {
	verdict "$cpu" "$1: predicted $2, measured $3" near "$2" "$3" 20 "${4:-1}"
}

# agree_rate NAME PREDICTED MEASURED: RT preemption per second; below 5
# ms/s, where the wake-ups' own latency under TCG is as large (0-3.6 ms
# a second on CPU 2 at 30/400 ms, where no boost comes), both must be
# small (under 8 ms/s).
agree_rate() {
	verdict "$cpu" "$1: predicted $2, measured $3" \
		eval "(le $2 5 0 && le $3 8 0) || near $2 $3 20 4"
}

# overrun_spread FILE: how late a probe's overruns ran and the most a stall
# across a due time charged, in ms, or nothing if it had none.
overrun_spread() {
	awk '/^overrun / { split($3, l, "="); split($4, c, "=")
		n++; if (l[2] > ml) ml = l[2]; if (c[2] > mc) mc = c[2] }
		END { if (n) printf " (late by up to %.2f ms; a stall across a due time charged up to %.2f ms)", ml / 1e6, mc / 1e6 }' "$1"
}

# compare PREFIX CPU WHAT: the predictions against the probes' PREFIX.*.
# The prediction is for the recorded load. A duty cycle that the emulator
# made run on into its next cycle (see worst) lost a sleep nobody
# recorded: its fair task starves for two runs and may get a boost. One
# CI run measured that on CPU 2 at 30/400 ms, 190 ms of starvation where
# 92 were predicted (a rerun: 92 for 93), with nothing left to tell why;
# a 100 ms stand-still across a due time was seen since. Each rerun's
# overruns are printed; worst starvation leaves such cycles out.
compare() {
	local ps pr prate cpu=$2
	read -r ps pr prate <<< "$4"
	[ "$2" != 1 ] &&
		echo "# CPU $2 $3: the duty cycle ran on into its next cycle $(val overruns "$1.rt$2") times, $(val overruns_stalled "$1.rt$2") of them made by the emulator$(overrun_spread "$1.rt$2")"
	agree "CPU $2 $3: worst starvation (ms)" "$ps" "$(worst "$1.fair$2")"
	agree_rate "CPU $2 $3: RT preemption (ms per s)" "$prate" \
		"$(rate "$1.rt$2" "$dir/rec.rt$2")"
	[ "$2" = 1 ] && agree "CPU $2 $3: worst RT preemption (ms, p90 of the stints)" \
		"$pr" "$(p90 "$1.rt$2")"
}

# set_all RUNTIME PERIOD: the setting of CPUs 1-3's servers, in ns.
set_all() {
	local cpu
	for cpu in 1 2 3; do
		fs_set $cpu "$1" "$2" || check "apply $1/$2 ns to CPU $cpu" false
	done
}

taskset -cp 0 $$ > /dev/null
set_all 50000000 1000000000
fs_write 3 runtime 0 || check "disable CPU 3's server" false

# The recording: the load starts first and runs until the tool is done
# (setting up can take seconds while every CPU is busy, and a load that
# ended inside the window would be recorded as ending); the tool records
# 6 s of it, twice side by side (text and --json). Each window holds
# several of CPU 1's 1 s periods: the replay starts its server afresh at
# the window's start, so its boosts can differ from the run's by one at
# each edge, and over two periods that is most of them.
load 120 $dir/rec &
loader=$!
sleep 1
rtla fairsrv hist -c 1-3 -H 0 -d $((secs - 2)) --json --what-if 20ms/100ms,2ms/100ms \
	> $dir/json 2> $dir/jerr &
json=$!
rtla fairsrv hist -c 1-3 -H 0 -d $((secs - 2)) -D \
	--what-if 20ms/100ms,30ms/400ms --target-starvation 100ms \
	> $dir/out 2> $dir/err
rc=$?
wait $json
jrc=$?
kill $(cat $dir/rec.pids)
wait $loader
check "hist --what-if --target-starvation exits 0 (got $rc)" test $rc = 0
grep 'load:' $dir/err | sed 's/^/# /'
grep -v '^debug:' $dir/err | sed 's/^/# stderr: /'
check "hist --what-if --json exits 0 (got $jrc)" test $jrc = 0
[ -s $dir/jerr ] && sed 's/^/# stderr: /' $dir/jerr
jw=$(grep -o '"cpu":1,"setting":"what-if","runtime_ns":20000000,"period_ns":100000000,[^]]*' $dir/json |
	grep -o '"worst_ns":[0-9]*' | head -n 1 | cut -d: -f2)
check "--json: CPU 1 at 20/100 ms starves ${jw:-?} ns at worst (80 ms)" \
	in_range "${jw:-0}" 70000000 90000000
# A runtime under 5 ticks is marked (the guest's tick is 1 or 4 ms).
tb() {
	grep -o "\"cpu\":1,\"setting\":\"what-if\",\"runtime_ns\":$1,[^]]*" $dir/json |
		grep -o '"tick_bound":[a-z]*' | head -n 1 | cut -d: -f2
}
check "--json: 2 ms is tick-bound ($(tb 2000000)), 20 ms is not ($(tb 20000000))" \
	test "$(tb 2000000),$(tb 20000000)" = true,false
sed -n '/^# What-if/,$p' $dir/out | sed 's/^/# /'
# A CPU whose replay disagrees gets no advised row (see below).
rows=12
for cpu in 1 2 3; do disagrees $cpu && rows=$((rows - 1)); done
check "the table has the recorded setting, two asked and the advice per CPU ($rows rows)" \
	test "$(grep -cE '^(recorded|what-if|advised) +[123] ' $dir/out)" = $rows
# The replay of the setting each CPU ran agrees with what the run
# measured there (the tool's own check; both runs). Boosts and rates
# that the replay times by 6.12's rules: the debug kernel under the
# emulator is too slow for them (seen: 15 boosts measured in 6 s on CPU
# 1 where the replay had 5).
timing "each recorded row agrees with the run's own figures (Note)" \
	test "$(grep -E '^recorded +[123] ' $dir/out | grep -c disagrees)" = 0
# Per CPU, the replay's figures, then what the run measured.
grep -o '"cpu":[0-9]*,"setting":"recorded","[^{]*' $dir/json | sed 's/^/# /'
grep -o '"recorded_agrees":[a-z]*\(,"measured":{[^}]*}\)\?' $dir/json | sed 's/^/# /'
timing "--json: each recorded row agrees with the run's own figures" \
	test "$(grep -o '"recorded_agrees":[a-z]*' $dir/json | grep -c true)" = 3
# Spinners hide no demand; CPU 3's waker starved while recording, and
# the settings that serve it sooner are marked censored.
check "CPUs 1 and 2: no row censored (spinners take what they get)" \
	test "$(grep -E '^(recorded|what-if|advised) +[12] ' $dir/out | grep -c censored)" = 0
check "CPU 3: the enabled settings' rows are censored" \
	test "$(grep -E '^(what-if|advised) +3 ' $dir/out | grep -c censored)" = 3

for set in "20.00 100.00" "30.00 400.00"; do
	read -r r p <<< "$set"
	set_all "${r%.*}000000" "${p%.*}000000"
	load $secs $dir/m$r
	for cpu in 1 2 3; do
		compare $dir/m$r $cpu "at $r/$p ms" \
			"$(predicted $dir/out what-if $cpu "$r" "$p")"
	done
done

# The advice, applied with the lines the tool printed.
set_all 50000000 1000000000
grep '^echo ' $dir/out > $dir/apply
# A CPU whose replay disagrees gets none, and the tool says why.
for cpu in 1 2 3; do
	if disagrees $cpu; then
		check "CPU $cpu disagrees: no advice, no write, and the reason said" \
			eval "grep -q '^# Advice for CPU $cpu: none, as the replay' $dir/out &&
			      ! grep -q 'fair_server/cpu$cpu/' $dir/apply"
		continue
	fi
	check "the advice prints one or two debugfs writes for CPU $cpu" \
		in_range "$(grep -c "fair_server/cpu$cpu/" $dir/apply)" 1 2
done
check "the advice checked the root domain's bandwidth" \
	grep -q "^# It fits the deadline bandwidth" $dir/out
check "the kernel takes the advised writes in the order printed" sh -e $dir/apply
load $secs $dir/adv
for cpu in 1 2 3; do
	disagrees $cpu && continue
	m=$(worst $dir/adv.fair$cpu)
	verdict $cpu "CPU $cpu, advised $(cat $FS/cpu$cpu/runtime)/$(cat $FS/cpu$cpu/period) ns: worst starvation $m ms meets 100 ms" \
		le "$m" 100 0
	compare $dir/adv $cpu advised "$(predicted $dir/out advised $cpu)"
done

set_all 50000000 1000000000
done_tap
