#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Carry out one scenario of the campaign in the guest and check every
# figure of rtla fairsrv against what the tasks lived.
#
#   tests/campaign/scenario.sh SEED OUTDIR
#
# campaign-gen SEED draws the scenario (settings, real-time, deadline and
# fair loads, cgroups, a setting changed mid-run, hotplug, a small
# buffer, a what-if). Every task is a probe (tests/probe) that records
# its own off-CPU gaps and wake-up latencies (-o -l) and its schedstat
# times: those are the oracles. The tool watches CPUs 1-3 from CPU 0.
#
# Each check is one TAP line naming the seed; a "# dev" line per figure
# gives the figure, its oracle and the deviation, for the campaign's
# table (tests/campaign/run). On a failure, or a TODO check that failed
# (a known defect that showed), the scenario, the tool's JSON and trace,
# and the probes' outputs are left in OUTDIR/seed-SEED, from which it can
# be read and replayed (make campaign SEED=SEED). The checks, per CPU:
#
#  invalid    no invalid transition of the server's model
#  stint      no RT preemption stint longer than the runtime and two
#             ticks, unless the real-time task itself was kept off as
#             long (the kernel overran: a late tick under emulation)
#  rt-wait    the top real-time task waits at most twice the runtime +
#             30 ms at a time (one stint of the server, late ticks and a
#             virtual CPU left unscheduled under the emulator), less the
#             time its CPU provably stood still in the wait; on the
#             stock kernel a longer wait is the defect patch 7 fixes,
#             skipped with that reason
#  rt-lived   no RT preemption stint longer than the longest gap or
#             wake-up latency of the real-time tasks there (+2 ms; a gap
#             the kernel charged, whole, as the upper bounds take it):
#             the server kept them off only while one of them wanted the
#             CPU
#  rt-total   RT preempted in all, between the top real-time task's wait
#             and the sum of every real-time task's wait (schedstat),
#             5% + 5 ms either side
#  served     served runtime = the fair tasks' run time (CPU clock) where
#             a real-time busy loop leaves them nothing else, 5% + 5 ms;
#             from above, their run time until their reports were out (a
#             server still in D as the window ends serves those); on the
#             stock kernel from above only (patch 7's defect runs fair
#             tasks outside the server there: a TODO from below)
#  starved    each fair task's longest wait behind a higher class, no
#             longer than its own longest gap or wake-up latency less the
#             other fair probes' turns (+10% + 2 ms), and at least its
#             longest such wait that held no turn it never saw (its
#             context switches: under the emulator a switch-in can outlast
#             a short turn), but where cpu.max throttles its group
#  boosts     boosts between the real-time busy loop's gaps over half
#             the runtime in which a fair probe saw itself run and those
#             in which one may have run (a turn it never saw), 5% + 1,
#             where a spinner starves behind it; on the stock kernel from
#             above only (patch 7's defect: a TODO from below, as served)
#  window     the tool's window holds the probes' window, and ends at
#             the stop sent as the probes' ends (duration_ns within 1%
#             + 0.2 s of the time to the stop)
#  what-if    the replay of the setting applied afterwards against the
#             same load's worst starvation (between the longest stretch
#             no unseen turn can split and the longest of all) and RT
#             preemption per second of the load (between the top
#             real-time task's wait and all of theirs, as rt-total; not
#             beside a deadline task, whose share those waits hold too),
#             within 20%,
#             unless the tool flags the CPU's replays (the recorded
#             demand censored, real-time demand displaced, or the
#             replay of the setting the run had disagreeing with what
#             the run measured): skipped then; RT preemption is skipped
#             too where the tool flags the setting as tick-bound
#
# With lost events (a small buffer), a CPU's figures stand only for what
# was read: there, invalid and stint alone are checked. A CPU taken
# offline is checked for invalid and stint alone. Its tasks lose their
# binding to it for good (the kernel widens a task's affinity when its
# last CPU goes) and run on the other CPUs: there, served, the lower
# bound of starved, boosts and what-if, which count a CPU's fair tasks as
# its own probes, are not checked in that scenario, nor rt-wait and the
# lower bound of rt-total, which take the top real-time task to wait for
# the server alone.
set -u
. "${CAMPAIGN_DIR:-$(dirname "$0")}/../guest/lib.sh"
seed=$1 outdir=$2
dir=/tmp/scn-$seed
out=$outdir/seed-$seed
rm -rf "$dir" && mkdir -p "$dir" || exit 1
CG=/sys/fs/cgroup
TICK_NS=1000000		# CONFIG_HZ=1000

campaign-gen "$seed" > "$dir/scenario" || { echo "not ok 1 - seed $seed: campaign-gen failed"; exit 1; }
sed 's/^/# scenario: /' "$dir/scenario"
taskset -cp 0 $$ > /dev/null

# The scenario, in variables and per-CPU lists.
dur=6 buffer=0 wi_rt= wi_per= hp_cpu= hp_at= hp_down=
declare -A srv_rt srv_per chg chg_rt chg_per max_rt tasks rt_hog group dl pinned spinners fairs defect7
while read -r kind a b c d e f; do
	case $kind in
	duration) dur=$a ;;
	buffer) buffer=$a ;;
	whatif) wi_rt=$a wi_per=$b ;;
	server) srv_rt[$a]=$b srv_per[$a]=$c max_rt[$a]=$b ;;
	change) chg[$a]=$b chg_rt[$a]=$c chg_per[$a]=$d
		[ "$c" -gt "${max_rt[$a]}" ] && max_rt[$a]=$c ;;
	rt|dl|fair) tasks[$a]+="$kind $b $c $d $e $f;"
		[ "$kind" = rt ] && [ "$d" = hog ] && rt_hog[$a]=1
		[ "$kind" = dl ] && dl[$a]=1 pinned[$a]=1
		[ "$kind" = fair ] && fairs[$a]=$(( ${fairs[$a]:-0} + 1 ))
		[ "$kind" = fair ] && [ "$c" = spin ] && spinners[$a]=$(( ${spinners[$a]:-0} + 1 )) ;;
	group) group[$a]="$b $c $d" pinned[$a]=1 ;;
	hotplug) hp_cpu=$a hp_at=$b hp_down=$c ;;
	esac
done < "$dir/scenario"

# Leave the guest as it was: servers at the default, CPUs online, no
# cgroup of ours, no probe.
reset_state() {
	local c
	pkill -f -- '-probe -c ' 2> /dev/null
	sleep 0.2
	for c in 1 2 3; do
		echo 1 > /sys/devices/system/cpu/cpu$c/online 2> /dev/null
		fs_set $c 50000000 1000000000 2> /dev/null
	done
	for c in 1 2 3; do
		rmdir $CG/scn$c/rt $CG/scn$c/fair $CG/scn$c 2> /dev/null
	done
}
trap reset_state EXIT

# A cgroup per CPU that needs one: a cpuset partition of its own where a
# SCHED_DEADLINE task must be pinned there, and a "fair" child with the
# group's cpu.weight or cpu.max. Prints the cgroup a task kind goes to.
setup_cgroups() {
	local c
	echo "+cpuset +cpu" > $CG/cgroup.subtree_control || return 1
	for c in 1 2 3; do
		[ -n "${pinned[$c]:-}" ] || continue
		mkdir -p $CG/scn$c || return 1
		echo "+cpu" > $CG/scn$c/cgroup.subtree_control || return 1
		mkdir -p $CG/scn$c/rt $CG/scn$c/fair || return 1
		if [ -n "${dl[$c]:-}" ]; then
			echo $c > $CG/scn$c/cpuset.cpus &&
			echo root > $CG/scn$c/cpuset.cpus.partition || return 1
		fi
		set -- ${group[$c]:-}
		case ${1:-} in
		weight) echo "$2" > $CG/scn$c/fair/cpu.weight || return 1 ;;
		max) echo "$2 $3" > $CG/scn$c/fair/cpu.max || return 1 ;;
		esac
	done
}

# launch CPU CGROUP-KIND ARGS...: start a probe in CPU's cgroup (if any);
# its pid and output file go to $probe_list.
probe_list=
launch() {
	local c=$1 kind=$2 name=$3; shift 3
	local o=$dir/$name
	if [ -n "${pinned[$c]:-}" ]; then
		bash -c "echo \$\$ > $CG/scn$c/$kind/cgroup.procs && exec $*" > "$o" 2> "$o.err" &
	else
		"$@" > "$o" 2> "$o.err" &
	fi
	probe_list+="$! $c $name;"
}

# Whether every probe of $probe_list is set up (pinned, under its
# policy: its -R file) within 60 s. The window opens after: a probe still
# starting when the load begins would live its start-up in its window,
# and on a starved CPU it can spend it all there.
probes_ready() {
	local e x pid c name end=$((SECONDS + 60))
	IFS=';' read -r -a e <<< "$probe_list"
	for x in "${e[@]}"; do
		read -r pid c name <<< "$x"
		[ -n "$name" ] || continue
		while [ ! -e "$dir/$name.ready" ]; do
			[ $SECONDS -lt $end ] || return 1
			sleep 0.02
		done
	done
}

# Whether the kernel refused a deadline probe its reservation (EBUSY),
# waiting up to 60 s for each to set up or die.
dl_refused() {
	local e x pid c name end=$((SECONDS + 60))
	IFS=';' read -r -a e <<< "$probe_list"
	for x in "${e[@]}"; do
		read -r pid c name <<< "$x"
		[[ $name == dl* ]] || continue
		while [ ! -e "$dir/$name.ready" ] && kill -0 "$pid" 2> /dev/null &&
		      [ $SECONDS -lt $end ]; do
			sleep 0.02
		done
		grep -qs 'SCHED_DEADLINE.*Device or resource busy' "$dir/$name.err" && return 0
	done
	return 1
}

# start: open the probes' window 1.5 s from now; its start in $at. A
# builtin writes it: a fork on the emulator's busy CPU 0 can take longer
# than the margin (the probes wait for the line's newline). The margin
# covers three stand-stills of a virtual CPU (the emulator runs the four
# in turn, up to 100 ms each, so one can stand still for 300 ms): this
# shell's after it read the clock, a probe's before it sees the file,
# and a real-time probe's as it sets up in the second half of the
# margin. With 0.5 s one probe of seed 2 was late in a make check.
start() {
	at=$(( $(fair-probe --now) + 1500000000 ))
	printf '%s\n' "$at" > "$dir/start"
}

# pf PROBE KEY: a key of a probe's output.
pf() { val "$2" "$dir/$1"; }

# The probes of $probe_list not set up before the start, with how late
# each was (ns), in one line: a late one was still setting up in its
# window, and its gaps, taken from the start, would hold its own running.
probes_late() {
	local e x pid c name late bad=
	IFS=';' read -r -a e <<< "$probe_list"
	for x in "${e[@]}"; do
		read -r pid c name <<< "$x"
		[ -n "$name" ] || continue
		late=$(pf "$name" late_ns)
		[ "${late:-x}" = 0 ] || bad+=" $name ${late:-(no late_ns)}"
	done
	echo "${bad# }"
}

# on_time [WHOSE]: check that every probe of $probe_list set up before the
# start; the late ones are named in the check's line. On the stock kernel
# a refused write can leave a setting nobody asked for (seed 82: the
# runtime written, the period refused, 13.65 ms every 14 ms), and a
# server of nearly the whole CPU serves the fair probe that spins until
# its start, ahead of the real-time probes' set-up: where every late
# probe is on such a CPU, a TODO that names that defect.
on_time() {
	local late x c why=
	late=$(probes_late)
	if [ -n "$late" ] && [ -n "$stock" ]; then
		why=$STOCK_LATE_WHY
		for x in $late; do
			[[ $x == [a-z]* ]] || continue
			c=${x//[a-z]/} c=${c%%-*}
			[ -n "${refused_set[$c]:-}" ] || why=
		done
	fi
	todo_if "$why" ready - "every probe ${1:+$1 }set up before its window${late:+ (late: $late)}" test -z "$late"
}

# pinned_fair_run: "cpu pid run_ns" of each SCHED_OTHER thread bound to
# one CPU alone (kworkers, ksoftirqd; the probes too), sorted: the fair
# tasks a CPU's server serves besides the probes. One pass over /proc:
# a fork per thread costs seconds under the emulator.
pinned_fair_run() {
	awk 'FNR == 1 { split(FILENAME, f, "/"); pid = f[3]; kind = f[4] }
	     kind == "status" && $1 == "Cpus_allowed_list:" { cpus[pid] = $2 }
	     kind == "stat" { pol[pid] = $41 }
	     kind == "schedstat" { run[pid] = $1 }
	     END { for (p in run)
		     if (cpus[p] ~ /^[0-9]+$/ && pol[p] == 0)
			     printf "%s %s %s\n", cpus[p], p, run[p] }' \
		/proc/[0-9]*/status /proc/[0-9]*/stat /proc/[0-9]*/schedstat 2>/dev/null |
		sort -k2,2
}

# Wait for every probe of $probe_list.
wait_probes() {
	local e x
	IFS=';' read -r -a e <<< "$probe_list"
	for x in "${e[@]}"; do
		wait "${x%% *}" 2> /dev/null
	done
}

# list_probes CPU PREFIX: the names of CPU's probes of one kind (rt, dl,
# fair), in the order they were started (real-time: highest first).
list_probes() {
	local cpu=$1 kind=$2 e x pid c name
	IFS=';' read -r -a e <<< "$probe_list"
	for x in "${e[@]}"; do
		read -r pid c name <<< "$x"
		[ "$c" = "$cpu" ] && [[ $name == "$kind"* ]] && echo "$name"
	done
}

# Launch the load of the scenario, for $1 seconds from the start time
# that start() writes. Each probe lists its gaps, counts off-CPU time
# only, creates its -R file once set up (probes_ready) and then waits for
# the start file.
start_load() {
	local secs=$1 c spec i=0 kind a b m cyc name common
	for c in 1 2 3; do
		IFS=';' read -r -a spec <<< "${tasks[$c]:-}"
		for s in "${spec[@]}"; do
			read -r kind a b m cyc <<< "$s"
			[ -n "$kind" ] || continue
			i=$((i + 1))
			name=$kind$c-$i
			common="-S $dir/start -d $secs -l -o -R $dir/$name.ready"
			case $kind in
			rt)	launch $c rt "$name" rt-probe -c $c -p "$b" \
					$([ "$a" = rr ] && echo -r) \
					$([ "$m" = cycle ] && echo "-C $cyc") $common ;;
			dl)	launch $c rt "$name" rt-probe -c $c \
					-D "$a" $([ "$b" = cycle ] && echo "-C $m") $common ;;
			fair)	launch $c fair "$name" fair-probe -c $c -n "$a" \
					$([ "$b" = wake ] && echo "-C $m -w") $common ;;
			esac
		done
	done
}

# Setting changes and hotplug, at their times into the window from $1.
start_events() {
	local at=$1 c
	for c in "${!chg[@]}"; do
		( sleep_until $(( at + chg[$c] * 1000000 ))
		  fs_set $c "${chg_rt[$c]}" "${chg_per[$c]}" ||
			echo "# cpu$c: the change to ${chg_rt[$c]}/${chg_per[$c]} was refused" ) &
	done
	if [ -n "$hp_cpu" ]; then
		# The times it took place, to say so: a CPU whose cpuhp/N
		# thread is starved goes offline only when its load ends.
		( sleep_until $(( at + hp_at * 1000000 ))
		  echo 0 > /sys/devices/system/cpu/cpu$hp_cpu/online &&
			echo "offline $(fair-probe --now)" > "$dir/hotplug"
		  sleep "$(awk -v d="$hp_down" 'BEGIN { print d / 1000 }')"
		  echo 1 > /sys/devices/system/cpu/cpu$hp_cpu/online &&
			echo "online $(fair-probe --now)" >> "$dir/hotplug" ) &
	fi
}

# sleep_until NS: sleep until CLOCK_MONOTONIC NS.
sleep_until() {
	local left=$(( $1 - $(fair-probe --now) ))
	[ $left -gt 0 ] && sleep "$(awk -v l=$left 'BEGIN { print l / 1e9 }')"
}

# ---- Reporting -----------------------------------------------------------
J=$dir/tool.json
n=0 failed=0 todo_failed=0
# result OK CHECK CPU TEXT: one TAP line.
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - seed $seed cpu$3 $2: $4"
	else
		echo "not ok $n - seed $seed cpu$3 $2: $4"
		failed=$((failed + 1))
	fi
}
# dev CHECK CPU FIGURE ORACLE: the deviation line for the table.
dev() {
	awk -v s="$seed" -v k="$1" -v c="$2" -v f="$3" -v o="$4" 'BEGIN {
		d = o ? (f - o) / o * 100 : 0
		printf "# dev seed=%s check=%s cpu=%s figure=%s oracle=%s pct=%.2f\n", s, k, c, f, o, d }'
}
# t CHECK CPU TEXT COMMAND...: a check from a command's status.
t() { local k=$1 c=$2 txt=$3; shift 3; "$@"; result $? "$k" "$c" "$txt"; }
# in_band LOW X HIGH PCT ABS: X within PCT% + ABS of [LOW, HIGH].
in_band() { upto "$1" "$2" "$4" "$5" && upto "$2" "$3" "$4" "$5"; }
# within_band LOW X HIGH: X within 20% (+2 ms) of [LOW, HIGH].
within_band() { in_band "$1" "$2" "$3" 20 2000000; }
# between CHECK CPU NAME FIGURE LOWNAME LOW HIGHNAME HIGH PCT ABS: FIGURE
# (called NAME) at least LOW and at most HIGH (HIGHNAME empty: the same
# as LOW), PCT% + ABS either side. On the stock kernel from above only,
# and from below a TODO: patch 7's defect runs fair tasks outside the
# server there (a throttle in its own pick, likely at a runtime under a
# tick), in stints too short to show in the top task's waits, so served
# falls short of their run time and the busy loop has gaps no boost made.
between() {
	local k=$1 c=$2 name=$3 v=${4:-x} lname=$5 lo=$6 hname=${7:-$5} hi=$8
	local pct=$9 abs=${10} tol
	tol="$pct% + $abs"
	if [ -n "$stock" ]; then
		t "$k" "$c" "$name ${4:-none} <= $hname $hi (+$tol)" upto "$v" "$hi" "$pct" "$abs"
		todo "$k" "$c" "$name ${4:-none} >= $lname $lo (-$tol)" "$STOCK_SERVED_WHY" \
			upto "$lo" "$v" "$pct" "$abs"
	elif [ "$lo" = "$hi" ]; then
		t "$k" "$c" "$name ${4:-none} = $lname $lo ($tol)" near "$v" "$lo" "$pct" "$abs"
	else
		t "$k" "$c" "$name ${4:-none} between $lname $lo and $hname $hi ($tol)" \
			in_band "$lo" "$v" "$hi" "$pct" "$abs"
	fi
}
# todo CHECK CPU TEXT REASON COMMAND...: a check of a known defect: made
# and reported with its reason, counted neither passed nor failed.
todo() {
	local k=$1 c=$2 txt=$3 why=$4
	shift 4
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - seed $seed cpu$c $k: $txt # TODO $why"
	else
		echo "not ok $n - seed $seed cpu$c $k: $txt # TODO $why"
		todo_failed=$((todo_failed + 1))
	fi
}
# On the stock kernel the kprobe source's longest RT preemption once
# exceeded what the RT task lived by 2.2 ms (seed 1, CPU 1: 68.1 ms for
# a 65.9 ms gap, the server 25.7 ms over its runtime, a defect of that
# kernel): the trace of that stint lacks the switch back, so the cause is
# not found yet. The BPF source did the same (seed 34, CPU 1: 36.4 ms
# for a 33.2 ms gap, at a setting left by a refused write). Known, not
# fixed: a TODO there.
# (Seeds 56 and 59 once exceeded it by 53 and 38 ms on the stock kernel
# at a setting a refused write left, a cause of the tool's definition on
# either kernel: RT preemption summed a serving episode's segments, which
# a fair task's sleeps split while the real-time tasks ran between. It
# is one sample per hold-off now, which a stop ends.)
STOCK_WHY="on the stock kernel the longest stint can exceed the RT task's gap by 2-3 ms (seed 1 with kprobes, seed 34 with BPF)"
STOCK_SERVED_WHY="stock kernel: patch 7's defect runs fair tasks outside the server (seed 1, CPU 2 at 0.5 / 13 ms: served 1233 ms, the fair tasks ran 1307)"
# todo_if WHY CHECK CPU TEXT COMMAND...: a TODO with WHY if WHY is not
# empty, a check otherwise.
todo_if() {
	local why=$1
	shift
	if [ -n "$why" ]; then
		todo "$1" "$2" "$3" "$why" "${@:4}"
	else
		t "$@"
	fi
}
STOCK_LATE_WHY="stock kernel: a refused write left its CPU at a setting nobody asked for (the defect patch 1 fixes), whose server held off the real-time probes' set-up"
OUTSIDE_WHY="the task's longest wait ended after its probe stopped measuring: the tool's per-task figures cover its whole window"
# skip CHECK CPU TEXT REASON: a check not made, and why.
skip() {
	n=$((n + 1))
	echo "ok $n - seed $seed cpu$2 $1: $3 # SKIP $4"
}
# The stock kernel: no server events (the tool reads BPF or kprobes).
stock=
stock_kernel && stock=1

# ---- Run ---------------------------------------------------------------
# The kernel's log so far: what the scenario adds is checked at the end.
klog=$(dmesg | wc -l)
reset_state
# A refused write (the stock kernel refuses every one after a root
# domain's rebuild, the defect patch 1 fixes; a runtime written before a
# period refused leaves a mix) leaves the kernel's setting: the checks
# take that one.
declare -A refused_set
for c in 1 2 3; do
	fs_set $c "${srv_rt[$c]}" "${srv_per[$c]}" && continue
	refused_set[$c]=1
	echo -n "# cpu$c: the setting ${srv_rt[$c]}/${srv_per[$c]} was refused;"
	srv_rt[$c]=$(cat "$FS/cpu$c/runtime") srv_per[$c]=$(cat "$FS/cpu$c/period")
	[ "${srv_rt[$c]}" -gt "${max_rt[$c]}" ] && max_rt[$c]=${srv_rt[$c]}
	echo " checked at the kernel's ${srv_rt[$c]}/${srv_per[$c]}"
done
if ! setup_cgroups; then
	echo "not ok 1 - seed $seed: cannot set up the cgroups"
	exit 1
fi
tool_opts=(-c 1-3 -H 0 --json --worst 100000 -D -t "$dir/trace.txt")
[ "$buffer" -gt 0 ] && tool_opts+=(--trace-buffer-size "$buffer")
[ -n "$wi_rt" ] && tool_opts+=(--what-if "$((wi_rt / 1000))us/$((wi_per / 1000))us")
# The load first, set up and waiting for its start; then the tool, so
# that its window holds little more than the probes' (what a probe's
# set-up does to the CPU has no oracle); then the start.
start_load "$dur"
# The stock kernel refuses every deadline reservation after a root
# domain's rebuild (a cpuset partition of an earlier scenario of the
# boot), the defect patch 1 fixes: the scenario cannot run there.
if [ -n "$stock" ] && dl_refused; then
	skip ready - "every probe set up before the window opens" \
		"stock kernel: a deadline probe refused (EBUSY) after a root domain's rebuild, the defect patch 1 fixes"
	rm -rf "$dir"
	exit 0
fi
t ready - "every probe set up before the window opens" probes_ready
pinned_fair_run > "$dir/pinned.0"
t_launch=$(fair-probe --now)
rtla fairsrv hist "${tool_opts[@]}" > "$dir/tool.json" 2> "$dir/tool.err" &
tool=$!
collecting $tool || { echo "not ok 1 - seed $seed: the tool did not start"; sed 's/^/# /' "$dir/tool.err"; exit 1; }
start
start_events "$at"
# The tool stops as the probes' window ends: what the kernel does while
# the probes exit (a starved one sees its end late) has no oracle. The
# stopper runs as FIFO 95: this shell shares CPU 0 with the tool, which
# on the kprobe source keeps it busy, and a fair stopper was seen to
# signal 1.2 s late. The tool's window ends at the signal.
( chrt -f -p 95 $BASHPID > /dev/null || echo "# the stopper is not FIFO: it may be late"
  sleep_until $(( at + dur * 1000000000 ))
  fair-probe --now > "$dir/t_int"
  kill -INT $tool ) &
stopper=$!
wait $tool
tool_rc=$?
t_exit=$(fair-probe --now)
wait $stopper
t_int=$(cat "$dir/t_int")
wait_probes
on_time
pinned_fair_run > "$dir/pinned.1"
wait 2> /dev/null

# ---- Oracles and checks --------------------------------------------------

result $([ $tool_rc = 0 ]; echo $?) tool - "rtla fairsrv hist exits 0 on SIGINT ($tool_rc)"
# Its messages; of -D's, those of events not applied.
grep -vE '^debug: ' "$dir/tool.err" | sed 's/^/# stderr: /'
grep -E '^debug: .*not applied' "$dir/tool.err" | head -n 20 | sed 's/^/# stderr: /'
lost=$(jget "$J" '"lost":')
start_ns=$(jget "$J" '"start_ns":') dur_ns=$(jget "$J" '"duration_ns":')

# The window.
if num "$start_ns" "$dur_ns"; then
	end_ns=$((start_ns + dur_ns)) expect=$((t_int - start_ns))
	t window - "the window [$start_ns, $end_ns] holds the probes' [$at, $((at + dur * 1000000000))]" \
		test "$start_ns" -ge "$t_launch" -a "$start_ns" -le "$at" -a "$end_ns" -ge $((at + dur * 1000000000)) -a "$end_ns" -le "$t_exit"
	dev window - "$dur_ns" "$expect"
	t window - "duration_ns $dur_ns within 1% (+0.2 s) of the time to the stop, $expect" \
		in_range "$dur_ns" "$expect" $((expect + expect / 100 + 200000000))
else
	result 1 window - "no start_ns or duration_ns in the JSON"
fi
if [ -n "$hp_cpu" ]; then
	awk -v at="$at" -v c="$hp_cpu" -v asked="$hp_at" '
		{ ms[$1] = ($2 - at) / 1e6 }
		END { printf "# cpu%d: offline at %s ms into the probes'"'"' window (asked at %d ms), online at %s ms\n",
			c, "offline" in ms ? sprintf("%.0f", ms["offline"]) : "?", asked,
			"online" in ms ? sprintf("%.0f", ms["online"]) : "?" }' "$dir/hotplug" 2> /dev/null ||
		echo "# cpu$hp_cpu: the hotplug did not take place"
fi

# cpu_starved PROBE...: "ALL ONE": the longest time in which some of the
# fair probes waited (an off-CPU gap, a wake-up's latency) and none of
# them ran (each waited or slept): the CPU-level starvation they lived, a
# fair kernel thread's turn aside. All share the window's start. ALL over
# every such time; ONE over those that no wait with a turn its probe never
# saw (runs=) overlaps: such a wait may hide a fair task's run, so ALL
# bounds the truth from above and ONE from below.
# A gap in which the kernel charged the probe more CPU time than this held
# a turn the probe never saw, at the gap's start or its end (charged_ns):
# the upper bounds take its whole jump, the lower bounds leave it out.
CHARGED_NS=1000000
# spans_of PROBE MARK SLEEPS: "start len MARK runs charged" per gap and
# wake-up of PROBE, and with SLEEPS 1 its sleeps ("start len 0 0 0").
spans_of() {
	sed -n "s/^gap start_ns=\([0-9]*\) len_ns=\([0-9]*\) runs=\([0-9]*\) charged_ns=\(-\{0,1\}[0-9]*\).*/\1 \2 $2 \3 \4/p;
		s/^wake due_ns=\([0-9]*\) lat_ns=\([0-9]*\) runs=\([0-9]*\).*/\1 \2 $2 \3 0/p" "$dir/$1"
	[ "$3" = 1 ] && sed -n 's/^sleep start_ns=\([0-9]*\) len_ns=\([0-9]*\).*/\1 \2 0 0 0/p' "$dir/$1"
	return 0
}

# charged_past_end PROBE: the CPU time charged in PROBE's gap that ends
# after its window (a gap's end is its start, its time off the CPU and
# the time charged in it), 0 if none does.
charged_past_end() {
	spans_of "$1" 1 0 | awk -v end=$((dur * 1000000000)) '
		$1 + $2 + $5 > end { s += $5 }
		END { printf "%.0f\n", s }'
}

# wake_cost PROBE: its wake-ups' run delays, each up to WAKE_COST_NS: the
# kernel's own cost of waking it, whatever else it waited for.
WAKE_COST_NS=100000
wake_cost() {
	sed -n 's/^wake .* queued_ns=\([0-9]*\)$/\1/p' "$dir/$1" |
		awk -v c=$WAKE_COST_NS '{ s += $1 < c ? $1 : c } END { printf "%.0f\n", s }'
}

# gap_upper PROBE: the longest time PROBE went without running its code,
# an upper bound: its gaps and wake-up latencies, a charged gap's whole
# jump (the kernel charged it for a turn it never saw, or for the time
# its CPU stood still while it was current: off the CPU, it may have
# waited all of it), and a wake-up's run delay where that is longer than
# its latency: preempted after it read its clock to go to sleep, it was
# queued before it was due (seed 97, CPU 3: a 22 ms latency, 31.2 ms
# queued, behind a boost that came as it was about to sleep).
gap_upper() {
	{
		spans_of "$1" 1 0 | awk -v CHARGED=$CHARGED_NS '
			{ printf "%.0f\n", $2 + ($5 > CHARGED ? $5 : 0) }'
		sed -n 's/^wake .* queued_ns=\([0-9]*\)$/\1/p' "$dir/$1"
	} | awk '$1 > m { m = $1 } END { printf "%.0f\n", m }'
}

cpu_starved() {
	local p
	for p in "$@"; do
		# start len waiting(1)/asleep(0) unseen-turns charged
		spans_of "$p" 1 1
	done | awk -v CHARGED=$CHARGED_NS '$2 > 0 { t = $4 > 0 || $5 > CHARGED
		# A charged gap may lie anywhere in its jump: take the jump.
		l = $2 + ($5 > CHARGED ? $5 : 0)
		printf "%.0f 0 %d %d\n%.0f 1 %d %d\n", $1, $3, t, $1 + l, $3, t }' |
		sort -k1,1n -k2,2n |
		awk -v n=$# '
		# Sweep the boundaries: off = probes not running, wait =
		# probes waiting, hid = waits with an unseen turn; a starved
		# stretch that one overlaps is tainted. The state is taken
		# once every boundary at an instant is in: a waker whose sleep
		# ends where its wake-up latency begins is off the CPU
		# throughout, and must not split the stretch there.
		function settle(t) {
			now = off == n && wait > 0
			if (now && !was) { since = t; tainted = hid > 0 }
			else if (now && hid) tainted = 1
			if (!now && was) {
				if (t - since > all) all = t - since
				if (!tainted && t - since > one) one = t - since
			}
			was = now
		}
		NR > 1 && $1 != last { settle(last) }
		{
			d = $2 == 0 ? 1 : -1
			off += d; if ($3 == 1) wait += d; if ($4 == 1) hid += d
			last = $1
		}
		END { if (NR) settle(last); printf "%.0f %.0f\n", all, one }'
}

# wait_less_stalls PROBE OTHER...: "WAIT STALL": PROBE's longest wait (an
# off-CPU gap, a wake-up's latency) less the time its CPU stood still in
# it, and that time. The CPU stood still where a task of the CPU (PROBE
# and the OTHERs) stayed current while its clock jumped: the emulator did
# not run the virtual CPU (probe -o's stall lines). A stall's charged time
# lies somewhere in its jump: only the part that must fall inside the wait
# is taken. Such time delays the server's own timer as much as anyone.
wait_less_stalls() {
	local p target=$1
	{
		spans_of "$target" 1 0
		for p in "$@"; do
			sed -n 's/^stall start_ns=\([0-9]*\) len_ns=\([0-9]*\) charged_ns=\([0-9]*\).*/\1 \2 0 0 \3/p' "$dir/$p"
		done
	} | awk '$3 == 1 { ws[++n] = $1; wl[n] = $2; next }
		{ ss[++m] = $1; sl[m] = $2; sc[m] = $5 }
		END {
			for (i = 1; i <= n; i++) {
				in_ = 0
				for (j = 1; j <= m; j++) {
					a = ws[i] > ss[j] ? ws[i] : ss[j]
					b = ws[i] + wl[i] < ss[j] + sl[j] ? ws[i] + wl[i] : ss[j] + sl[j]
					o = b > a ? b - a : 0
					k = sc[j] - (sl[j] - o)
					if (k > 0) in_ += k
				}
				w = wl[i] - in_
				if (w < 0) w = 0
				if (i == 1 || w > best) { best = w; stall = in_ }
			}
			printf "%.0f %.0f\n", best, stall + 0
		}'
}

# served_gaps RT MIN FAIR...: "SEEN MAYBE": of the real-time probe RT's
# gaps longer than MIN, how many the FAIR probes' service filled, as their
# clocks saw it. SEEN: one of them saw itself run there for a quarter of
# MIN at least. MAYBE: one of them ran there at all, or was off the CPU
# with a turn it never saw (runs > 0 in a gap that meets it: under the
# emulator a short turn can go unseen). A gap with neither served none of
# them: something else held the CPU (seed 59, CPU 2: five gaps of 2-3.4
# ms beside 39 boosts).
served_gaps() {
	local p i=0 rt=$1 min=$2
	shift 2
	{
		sed -n 's/^gap start_ns=\([0-9]*\) len_ns=\([0-9]*\).*/0 \1 \2 0/p' "$dir/$rt"
		for p in "$@"; do
			i=$((i + 1))
			sed -n "s/^gap start_ns=\([0-9]*\) len_ns=\([0-9]*\) runs=\([0-9]*\).*/$i \1 \2 \3/p;
				s/^sleep start_ns=\([0-9]*\) len_ns=\([0-9]*\).*/$i \1 \2 0/p" "$dir/$p"
		done
	} | awk -v min="$min" -v n=$# '
		$1 == 0 { if ($3 > min) { gs[++g] = $2; gl[g] = $3 }; next }
		{ k = ++c[$1]; ss[$1, k] = $2; sl[$1, k] = $3; sr[$1, k] = $4 }
		END {
			for (i = 1; i <= g; i++) {
				a = gs[i]; b = a + gl[i]; seen = 0; maybe = 0
				for (p = 1; p <= n; p++) {
					# This probe: its time off the CPU in the gap.
					off = 0
					for (k = 1; k <= c[p]; k++) {
						x = ss[p, k] > a ? ss[p, k] : a
						y = ss[p, k] + sl[p, k]
						if (y > b) y = b
						if (y <= x) continue
						off += y - x
						if (sr[p, k]) maybe = 1
					}
					if (gl[i] - off >= min / 4) seen = 1
					if (gl[i] - off > 0) maybe = 1
				}
				lo += seen; hi += seen || maybe
			}
			printf "%d %d\n", lo, hi
		}'
}

# task_starved PROBE OTHER...: "ALL ONE": PROBE's longest starvation in
# a wait (an off-CPU gap, a wake-up's latency): the part of the wait in
# which none of the OTHER fair probes ran. What sched_fair_starve_ran
# reports, a fair kernel thread's turn aside. ALL over every wait; ONE
# over the waits that held no turn the probe never saw (runs=0) and met no
# other probe's time off the CPU that held one: such a wait is several of
# the kernel's, or another fair task ran in it unseen, so it bounds them
# from above only.
task_starved() {
	local p target=$1
	for p in "$@"; do
		# The target's waits (its sleeps do not matter), with their
		# unseen turns; the others' time off the CPU, waiting or asleep.
		if [ "$p" = "$target" ]; then
			spans_of "$p" 1 0
		else
			spans_of "$p" 0 1
		fi | awk -v CHARGED=$CHARGED_NS '$2 > 0 { t = $4 > 0 || $5 > CHARGED
			# A charged gap may lie anywhere in its jump: take the jump.
			l = $2 + ($5 > CHARGED ? $5 : 0)
			printf "%.0f 1 %d %d\n%.0f 0 %d %d\n", $1, $3, t, $1 + l, $3, t }'
	done | sort -k1,1n -k2,2n |
		awk -v others=$(($# - 1)) '
		# Sweep: w = the target waits, off = other probes not running,
		# of which tainted hold a turn their probe never saw (runs >
		# 0): the kernel ran that task somewhere in it, so a wait that
		# meets one, or has unseen turns itself, bounds the kernel from
		# above only. A wait that ends where the next begins ends first
		# (the probe read its clock there: it ran); a charged gap taken
		# as its whole jump may overlap the next, one stretch then,
		# tainted if either is.
		{
			if (w && off == others) cur += $1 - last
			last = $1
			d = $2 == 1 ? 1 : -1
			if ($3 == 1) {
				w += d
				if (d > 0 && w == 1) bad = 0
				if (d > 0) bad = bad || $4 > 0 || tainted > 0
				if (!w) {
					if (cur > all) all = cur
					if (!bad && cur > one) one = cur
					cur = 0
				}
			} else {
				off += d
				if ($4 > 0) tainted += d
				if (w && tainted > 0) bad = 1
			}
		}
		END { printf "%.0f %.0f\n", all, one }'
}

# replay_row CPU SETTING KEY: a number or word of CPU's replay of SETTING
# ("what-if" or "recorded") in the JSON.
replay_row() {
	sed 's/.*"replays":\[//; s/\]}.*//; s/},{"cpu"/}\n{"cpu"/g' "$J" |
		grep "^{\"cpu\":$1,\"setting\":\"$2\"" | head -n 1 |
		grep -o "\"$3\":\"\\?[0-9a-z]*" | head -n 1 | cut -d: -f2 | tr -d '"'
}

# whatif_row CPU KEY: a number of CPU's "what-if" replay in the JSON.
whatif_row() {
	replay_row "$1" what-if "$2"
}

# episode_max_in CPU FROM TO: the longest part within [FROM, TO] of an
# episode of CPU, from the worst list; "incomplete" when the list holds
# fewer of the CPU's episodes than it counted.
episode_max_in() {
	local count
	count=$(jcpu "$J" "$1" starvation count)
	tool_spans "$J" "$1" | awk -v from="$2" -v to="$3" -v count="${count:-0}" '
		{ n++; s = $1 > from ? $1 : from; e = $2 < to ? $2 : to
		  if (e - s > m) m = e - s }
		END { if (n < count) print "incomplete: " n " of " count; else printf "%.0f\n", m }'
}

# A task's longest wait behind a higher class and when it ended, from the
# tool's tasks list: "MAX AT".
task_max() {
	grep -o "{\"task\":{\"pid\":$1,\"comm\":\"[^\"]*\"},\"cpu\":[0-9]*,\"count\":[0-9]*,\"total_ns\":[0-9]*,\"min_ns\":[0-9]*,\"avg_ns\":[0-9]*,\"max_ns\":[0-9]*,\"max_at_ns\":[0-9]*" "$J" |
		sed 's/.*"max_ns":\([0-9]*\),"max_at_ns":\([0-9]*\)/\1 \2/' | head -n 1
}

# The end of what PROBE measured, in the trace clock: the window's end,
# or later the end of the gap or wake-up its first clock read past the
# end closed (its spans' starts are offsets from the start, at).
probe_end() {
	spans_of "$1" 1 1 | awk -v at="$at" -v end=$((dur * 1000000000)) '
		{ e = $1 + $2; if (e > end) end = e }
		END { printf "%.0f\n", at + end }'
}

for c in 1 2 3; do
	inv=$(jcpu "$J" $c invalid)
	t invalid $c "no invalid transition ($inv)" test "${inv:-x}" = 0
	bound=$(( ${max_rt[$c]} + 2 * TICK_NS ))
	pmax=$(jcpu "$J" $c rt_preempted max_ns)
	# The real-time tasks' longest gap, and their waits.
	rts=$(list_probes $c rt) frs=$(list_probes $c fair)
	rt_gap=0 rt_wait_sum=0 top_wait=
	for p in $rts; do
		g=$(pf "$p" gap_max_ns); w=$(pf "$p" schedstat_wait_ns)
		num "$g" "$w" || { result 1 oracle $c "probe $p produced nothing"; continue; }
		# Its gaps (a charged one whole) and, as a duty cycle may meet
		# the server as it wakes, its wake-up latencies.
		g=$(gap_upper "$p")
		[ "$g" -gt "$rt_gap" ] && rt_gap=$g
		rt_wait_sum=$((rt_wait_sum + w))
		[ -z "$top_wait" ] && top_wait=$w	# the first is the highest priority
	done
	todo_if "${stock:+$STOCK_WHY}" stint $c "longest RT preemption $pmax <= runtime + 2 ticks ($bound), or the RT tasks lived it ($rt_gap)" \
		bash -c "[ '${pmax:-x}' -le $bound ] 2>/dev/null || [ '${pmax:-x}' -le $((rt_gap + 2 * TICK_NS)) ] 2>/dev/null"
	# The top real-time task waits for nothing but the server, one
	# stint at a time: its runtime, with late ticks, and the emulator,
	# which can leave a virtual CPU unscheduled for a while (13 ms seen
	# with a 0.5 ms runtime).
	top=$(head -n 1 <<< "$rts")
	if [ -n "$top" ] && [ -z "${dl[$c]:-}" ] && [ -z "$hp_cpu" ]; then
		tw=$(pf "$top" gap_max_ns) tl=$(pf "$top" wake_max_ns)
		[ "${tl:-0}" -gt "${tw:-0}" ] 2>/dev/null && tw=$tl
		still=
		if num "$tw"; then
			read -r tw st <<< "$(wait_less_stalls "$top" $rts $frs)"
			[ "$st" != 0 ] && still=" (less $st its CPU stood still in it)"
		fi
		wb=$(( 2 * ${max_rt[$c]} + 30 * TICK_NS ))
		txt="$top, the top real-time task, waited at most $tw at a time$still <= twice the runtime + 30 ms ($wb)"
		if le "$tw" "$wb" 0 2>/dev/null || [ -z "$stock" ]; then
			t rt-wait $c "$txt" le "$tw" "$wb" 0
		else
			skip rt-wait $c "$txt" "stock kernel: the defect patch 7 fixes"
			defect7[$c]=1
		fi
	fi
	[ "$c" = "$hp_cpu" ] && { echo "# cpu$c: offline in the run, figures not checked"; continue; }
	if [ "${lost:-0}" != 0 ]; then
		echo "# cpu$c: $lost events lost, figures not checked"
		continue
	fi
	[ -n "$rts" ] || continue
	todo_if "${stock:+$STOCK_WHY}" rt-lived $c "longest RT preemption $pmax <= the RT tasks' longest gap $rt_gap + 2 ms" \
		le "${pmax:-x}" "$rt_gap" 2000000
	ptot=$(jcpu "$J" $c rt_preempted total_ns)
	# A busy loop's wait is what the server (or a deadline task) took from
	# it; a duty cycle's holds its wake-up latencies too. After a hotplug
	# it holds the turns of the offline CPU's real-time tasks that run
	# here (seed 61, CPU 2: a FIFO busy loop waited 3.76 s, mostly behind
	# CPU 3's FIFO 85 and 83 duty cycles, for 175 ms of RT preemption).
	top=$(head -n 1 <<< "$rts")
	if [ -z "${dl[$c]:-}" ] && [ "$(pf "$top" wakes)" = "" ] && [ -z "$hp_cpu" ] &&
	   num "$ptot" "$top_wait"; then
		dev rt-total $c "$ptot" "$top_wait"
		txt="RT preempted $ptot >= the top RT task's wait $top_wait (-5% -5 ms)"
		if [ -n "${defect7[$c]:-}" ]; then
			skip rt-total $c "$txt" "stock kernel: patch 7's defect, a fair task run outside the server, is in the wait"
		else
			# On the stock kernel the same defect in stints too
			# short for the top task's waits to show (as served
			# below): the fair tasks run outside the server are in
			# the RT task's wait and not in RT preempted.
			todo_if "${stock:+$STOCK_SERVED_WHY}" rt-total $c "$txt" \
				upto "$top_wait" "$ptot" 5 5000000
		fi
	fi
	t rt-total $c "RT preempted ${ptot:-none} <= the RT tasks' waits together $rt_wait_sum (+5% +5 ms)" \
		upto "${ptot:-x}" "$rt_wait_sum" 5 5000000
	# Served: where a real-time busy loop leaves fair tasks nothing else,
	# what the fair probes ran and the CPU's own fair threads (kworkers,
	# ksoftirqd: pinned there, not probes) over the window.
	served=$(jcpu "$J" $c served_ns)
	frun=0 fexit=0
	# A probe's CPU clock (the sum_exec_runtime schedstat shows) from the
	# start to its first clock read past the end: its /proc read after
	# the end, milliseconds under the emulator, is not in. The tool's
	# window ends later (the stopper's own start-up), and a server still
	# in D at the end serves what the probes do after theirs as fair
	# tasks (rt-probe leaves its policy first), their reports: 43 ms
	# under the emulator (seed 37, CPU 1). From above, served is bounded
	# by what they ran until their reports were out.
	for p in $frs; do frun=$((frun + $(pf "$p" cpu_ns))); done
	fexit=$frun
	# From below, a gap that reaches past the end does not say where in
	# it the CPU time charged to it went: a turn after the end, which
	# the tool's window may not hold, is left out (seed 133, CPU 3: a
	# spinner's last gap ran 45.7 ms past the end and held 16.8 ms of
	# charged turns; served 75.1 ms, the probes' clocks 88.8).
	for p in $frs; do frun=$((frun - $(charged_past_end "$p"))); done
	for p in $frs $rts; do fexit=$((fexit + $(pf "$p" cpu_after_ns))); done
	probe_pids=" $(for p in $frs; do pf "$p" pid; done | tr '\n' ' ')"
	kthreads=$(join -1 2 -2 2 "$dir/pinned.0" "$dir/pinned.1" 2>/dev/null |
		awk -v c=$c -v skip="$probe_pids" '$2 == c && $4 == c && index(skip, " " $1 " ") == 0 && $5 > $3 { s += $5 - $3 }
			END { printf "%.0f\n", s }')
	frun=$((frun + ${kthreads:-0})) fexit=$((fexit + ${kthreads:-0}))
	if [ -n "${rt_hog[$c]:-}" ] && [ -z "${dl[$c]:-}" ] && [ -z "${chg[$c]:-}" ] &&
	   [ "${srv_rt[$c]}" != 0 ] && [ -z "$hp_cpu" ]; then
		dev served $c "$served" "$frun"
		if [ -n "${defect7[$c]:-}" ]; then
			skip served $c "served ${served:-none} = the fair tasks' run time $frun" \
				"stock kernel: patch 7's defect ran a fair task outside the server"
		else
			between served $c served "$served" "the fair tasks' run time" "$frun" \
				"their run time to their reports' end" "$fexit" 5 5000000
		fi
	fi
	# The CPU's longest episode: no fair task ran while a higher class held
	# it. Fair kernel threads end episodes too (a kworker's turn), so the
	# probes' figure bounds it from above only. Only the probes' window
	# has an oracle: the tool's opens earlier and closes later, and what
	# happens there (a hotplug held back until the load ends, as when a
	# disabled server starves cpuhp/N) no probe saw.
	if [ -n "$frs" ]; then
		smax=$(episode_max_in $c "$at" $((at + dur * 1000000000)))
		read -r cs _ <<< "$(cpu_starved $frs)"
		if num "$smax"; then
			dev starved-cpu $c "$smax" "$cs"
			t starved-cpu $c "longest episode in the probes' window $smax ($(jcpu "$J" $c starvation max_ns) in the tool's) <= the fair probes' longest starvation $cs (+10% +2 ms)" \
				upto "$smax" "$cs" 10 2000000
		else
			result 1 starved-cpu $c "the worst list does not hold every episode of the CPU ($smax)"
		fi
	fi
	# Each fair task's longest starvation in a wait (sched_fair_starve_ran)
	# against the same from the probes: its wait less the other fair
	# probes' turns. Two-sided but where its group's cpu.max throttles it
	# (then it is off the CPU without starving). The tool's figure covers
	# its whole window, which ends later than the probes': from above the
	# check is made where the task's longest wait ended while its probe
	# measured, a TODO where it ended after (seed 3, CPU 2, stock kernel:
	# 33.9 ms in the tool's window, 26.0 ms at most in the probes', the
	# task's own 27.4).
	for p in $frs; do
		pid=$(pf "$p" pid)
		num "$pid" || { result 1 oracle $c "probe $p produced nothing"; continue; }
		read -r own own1 <<< "$(task_starved "$p" $(grep -vx "$p" <<< "$frs"))"
		read -r tm tm_at <<< "$(task_max "$pid")"
		tm=${tm:-0} outside=
		pend=$(probe_end "$p")
		[ -n "$tm_at" ] && [ "$tm_at" -gt "$pend" ] && outside=1
		dev starved $c "$tm" "$own"
		todo_if "${outside:+$OUTSIDE_WHY}" starved $c "$p: longest starvation in a wait $tm${tm_at:+ (ended at $tm_at)} <= its own $own (+10% +2 ms)" \
			upto "$tm" "$own" 10 2000000
		case ${group[$c]:-} in max*) continue ;; esac
		[ -z "$hp_cpu" ] || continue
		txt="$p: longest starvation in a wait $tm >= its own longest single wait $own1 (-10% -2 ms)"
		# From below, the oracle is the probes' clocks of the other fair
		# tasks' turns, and under the emulator those can miss parts of
		# short turns (the virtual CPU left unrun), which the oracle
		# would take as this task's starvation: only waits that met no
		# turn a probe never saw count here. This was a TODO while it
		# failed in about one run of three (seed 1, CPU 2: 112 ms for
		# the tool's 72.8); most of that was the probe's own defect
		# (seed 108: CPU time charged between two of its measurements
		# counted as time off the CPU), fixed on 2026-12-07, and it has
		# not failed in the 91 scenarios on the patched kernel since.
		t starved $c "$txt" upto "$own1" "$tm" 10 2000000
	done
	# Boosts: spinners behind a real-time busy loop, the highest real-time
	# task there (one below a duty cycle is also preempted by it), one
	# setting.
	if [ -n "${rt_hog[$c]:-}" ] && [ -z "$(pf "$top" wakes)" ] &&
	   [ "${spinners[$c]:-0}" -ge 1 ] && [ "${fairs[$c]}" = "${spinners[$c]}" ] &&
	   [ -z "${chg[$c]:-}" ] && [ -z "${dl[$c]:-}" ] && [ -z "${group[$c]:-}" ] &&
	   [ "${srv_rt[$c]}" != 0 ] && [ -z "$hp_cpu" ]; then
		# Each boost takes the CPU from the real-time busy loop for about
		# the runtime (the spinners use it all).
		p=$(head -n 1 <<< "$rts")
		read -r seen maybe <<< "$(served_gaps "$p" $(( srv_rt[$c] / 2 )) $frs)"
		boosts=$(jcpu "$J" $c boosts)
		dev boosts $c "$boosts" "$seen"
		# On the stock kernel patch 7's defect makes gaps that are no
		# boosts (seed 4, CPU 3: 104 boosts, 111 gaps, served 364 ms
		# where the fair tasks ran 384).
		between boosts $c boosts "$boosts" \
			"$p's gaps over half the runtime in which a fair probe saw itself run" "$seen" \
			"those in which one may have run" "$maybe" 5 1
	fi
done

# The what-if: apply the setting and run the same load again (not the
# hotplug: the load the run recorded is not the rerun's then).
if [ -n "$wi_rt" ] && [ "${lost:-0}" = 0 ] && [ -z "$hp_cpu" ]; then
	declare -A wi_refused
	for c in 1 2 3; do
		fs_set $c "$wi_rt" "$wi_per" && continue
		wi_refused[$c]="$(cat "$FS/cpu$c/runtime")/$(cat "$FS/cpu$c/period")"
		echo "# cpu$c: the what-if setting was refused (the kernel's: ${wi_refused[$c]})"
	done
	# The rerun's probes write to the run's files: the run's move to
	# run/, where a failed check of the run can still be read.
	mkdir -p "$dir/run" && cp "$dir/start" "$dir/run/"
	IFS=";" read -r -a entries <<< "$probe_list"
	for x in "${entries[@]}"; do
		read -r _ _ name <<< "$x"
		[ -n "$name" ] && mv "$dir/$name" "$dir/$name.err" "$dir/run/"
	done
	probe_list=
	# The tool records the rerun too: its trace explains a surprise.
	rtla fairsrv hist -c 1-3 -H 0 --json -t "$dir/rerun-trace.txt" \
		> "$dir/rerun.json" 2> "$dir/rerun.err" &
	tool=$!
	collecting $tool || echo "# the tool did not start for the rerun"
	rm -f "$dir/start" "$dir"/*.ready
	start_load "$dur"
	t ready - "every probe of the rerun set up before its window opens" probes_ready
	start
	wait_probes
	on_time "of the rerun"
	kill -INT $tool
	wait $tool
	for c in 1 2 3; do
		[ "$c" = "$hp_cpu" ] && continue
		pw=$(whatif_row $c worst_ns) pr=$(whatif_row $c per_s_ns)
		censored=$(whatif_row $c censored)
		displaced=$(whatif_row $c rt_displaced)
		ticks=$(whatif_row $c tick_bound)
		agrees=$(replay_row $c recorded recorded_agrees)
		num "$pw" "$pr" || { result 1 what-if $c "no what-if row"; continue; }
		if [ -n "${wi_refused[$c]:-}" ]; then
			skip what-if $c "predicted worst starvation $pw and RT preemption $pr ns per s" \
				"the kernel refused the setting, the rerun ran at ${wi_refused[$c]}"
			continue
		fi
		frs=$(list_probes $c fair) rts=$(list_probes $c rt)
		# The replay predicts the CPU's starvation: none of its fair
		# tasks running while a higher class holds it.
		read -r mw mw1 <<< "$(cpu_starved $frs)"
		# RT preemption per second of the load: the replay's rate is
		# over the run's window, which is longer than the load's $dur
		# s, and the rerun's is measured as rt-total does, between the
		# top real-time task's wait and every one's together. A
		# wake-up's run delay holds the kernel's own cost of a wake-up,
		# tens of us under the emulator, which no server causes and the
		# replay does not predict: 600 wake-ups of a 6/10 ms cycle made
		# 20 ms of its 27 ms wait (seed 53, stock kernel, CPU 3, where
		# 11 ms were predicted). From below, the top task's wait is
		# taken less up to WAKE_COST_NS of each of its wake-ups' delays.
		top=$(head -n 1 <<< "$rts")
		mr=0 mra=0
		for q in $rts; do
			qw=$(pf "$q" schedstat_wait_ns)
			num "$qw" || continue
			[ "$q" = "$top" ] && mr=$((qw - $(wake_cost "$q")))
			mra=$((mra + qw))
		done
		read -r pl mr mra <<< "$(awk -v p="$pr" -v win="$(whatif_row $c window_ns)" \
			-v t=$mr -v a=$mra -v d=$dur 'BEGIN {
			printf "%.0f %.0f %.0f\n", p * win / 1e9 / d, t / d, a / d }')"
		# The flags the tool shows on the row (and for a replay that
		# disagrees, on every row of the CPU, with no advice there): a
		# prediction flagged is counted as skipped.
		flag=
		[ "$censored" = true ] && flag="the recorded demand as censored"
		[ "$displaced" = over ] || [ "$displaced" = under ] &&
			flag="the real-time demand as displaced ($displaced-predicted)"
		[ "$agrees" = false ] && flag="its replay of the recorded setting as disagreeing with the run"
		if [ -n "$flag" ]; then
			skip what-if $c "predicted worst starvation $pw and RT preemption $pl ns per s of the load" \
				"the tool flagged $flag"
			continue
		fi
		# Between the measured stretches that may hide a fair task's
		# unseen turn and those that cannot (equal when none hides one).
		# The replay replays the recorded real-time demand, and under
		# the emulator a real-time probe can be charged for time its
		# virtual CPU stood still, demand no rerun repeats: from above,
		# the band takes the longest such stall of the recorded run's
		# real-time probes (seed 126, CPU 2: a 15.3 ms stall at the
		# window's start made a 24.5 ms wait in the replay, where the
		# rerun's longest was 14.3 ms).
		stalled=0
		for q in $rts; do
			[ -f "$dir/run/$q" ] || continue
			v=$(val stall_max_ns "$dir/run/$q")
			num "$v" && [ "$v" -gt "$stalled" ] && stalled=$v
		done
		dev what-if-starved $c "$pw" "$mw"
		t what-if $c "predicted worst starvation $pw within 20% (+2 ms) of the measured $mw1..$mw (+ $stalled the recorded real-time probes stood still)" \
			within_band "$mw1" "$pw" "$((mw + stalled))"
		# A deadline task takes its share from the real-time tasks too,
		# which the replay of the server does not predict.
		if [ -n "${dl[$c]:-}" ]; then
			skip what-if $c "predicted RT preemption $pl ns per s of the load against the measured $mr..$mra" \
				"a deadline task's share is in the real-time task's wait"
			continue
		fi
		# A runtime of a few ticks: each stint is mostly the tick that
		# ends it, which the replay takes as on time and the emulator
		# delays (seed 75, 0.64 ms / 64 ms: 24.2 ms/s predicted, 42.4
		# and 42.0 measured, where a stint of the runtime and 2 ticks
		# makes 41). The tool flags the row's RT preemption.
		if [ "$ticks" = true ]; then
			skip what-if $c "predicted RT preemption $pl ns per s of the load against the measured $mr..$mra" \
				"the tool flagged the setting as tick-bound (RT preemption under-predicted)"
			continue
		fi
		dev what-if-rt $c "$pl" "$mr"
		t what-if $c "predicted RT preemption $pl ns per s of the load within 20% (+2 ms/s) of the measured $mr..$mra" \
			within_band "$mr" "$pl" "$mra"
	done
fi

# The kernel reported nothing during the scenario (image/run's patterns).
# A deadline task's replenishment timer a period late under the emulator
# is a lag the kernel reports rightly: not counted where one runs.
#
# On the stock kernel (no server events), the two reports the series
# fixes are its known defects, named and set aside: the running_bw
# warning of a second dl_server_stop() at a parameter write (patch 2),
# and the lag report of a late deferred server (patch 6). Any other
# report fails there too.
problems=$(cat /host/image/kernel-problems)
[ -n "${dl[*]:-}" ] && problems=${problems//|DL replenish lagged too much/}
klines=$(dmesg | tail -n +$((klog + 1)))
if [ -n "$stock" ]; then
	# The notes go to stdout, the lines kept to a file.
	awk -v kept="$dir/klines" '
		# A warning block: kept unless it is the stock defect.
		/cut here/ { blk = $0 "\n"; inblk = 1; next }
		inblk { blk = blk $0 "\n" }
		inblk && /end trace/ {
			inblk = 0
			if (blk ~ /task_non_contending/ && blk ~ /dl_server_stop/)
				print "# kernel: stock defect the series fixes (patch 2): dl_server_stop() twice at a parameter write"
			else
				printf "%s", blk > kept
			next
		}
		inblk { next }
		/DL replenish lagged too much/ {
			print "# kernel: stock defect the series fixes (patch 6): " $0
			next
		}
		{ print > kept }
		END { if (inblk) printf "%s", blk > kept }' <<< "$klines"
	klines=$(cat "$dir/klines" 2> /dev/null)
fi
report=$(grep -E -A8 "$problems" <<< "$klines")
[ -n "$report" ] && sed 's/^/# kernel: /' <<< "$report"
t kernel - "no kernel report during the scenario" test -z "$report"

echo "1..$n"
# A known defect that showed (a TODO failed) keeps its files too.
if [ $failed -gt 0 ] || [ $todo_failed -gt 0 ]; then
	mkdir -p "$out" && cp -a "$dir/." "$out/" && dmesg > "$out/dmesg"
	echo "# seed $seed: $failed checks failed, $todo_failed TODO checks failed; scenario, trace and probe outputs in $out"
fi
rm -rf "$dir"
[ $failed = 0 ]
