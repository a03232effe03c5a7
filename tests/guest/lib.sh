# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest tests: TAP output, checked debugfs writes, probes.
# Sourced by tests/guest/*.sh, which run as root in the guest (image/run).

FS=/sys/kernel/debug/sched/fair_server
T=/sys/kernel/tracing
tap_n=0
tap_fail=0

# ok COND-STATUS DESCRIPTION: one TAP line from a command's status.
check() {
	local desc=$1; shift
	tap_n=$((tap_n + 1))
	if "$@"; then
		echo "ok $tap_n - $desc"
	else
		echo "not ok $tap_n - $desc"
		tap_fail=$((tap_fail + 1))
	fi
}

# debug_kernel: the guest runs the debug flavor (lockdep: /proc/lockdep).
debug_kernel() {
	[ -e /proc/lockdep ]
}

# rt_kernel: the guest runs a PREEMPT_RT kernel (uname's version).
rt_kernel() {
	uname -v | grep -q PREEMPT_RT
}

# timing DESCRIPTION COMMAND...: a check of a time or a rate, which a
# lockdep/KASAN kernel under the emulator is too slow to meet: skipped
# there with a reason ("# SKIP debug kernel: timing"), a check elsewhere.
timing() {
	local desc=$1; shift
	if debug_kernel; then
		tap_n=$((tap_n + 1))
		echo "ok $tap_n - $desc # SKIP debug kernel: timing"
		return 0
	fi
	check "$desc" "$@"
}

# skip DESCRIPTION REASON: a check not made here, and why.
skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

# todo REASON DESCRIPTION COMMAND...: a check of a known defect, reported
# as "ok ... # TODO REASON" when it holds and "not ok ... # TODO REASON"
# when it does not. tests/run-all counts TODOs apart from passes, failures
# and skips, and names each: a TODO is never a pass.
todo() {
	local why=$1 desc=$2; shift 2
	tap_n=$((tap_n + 1))
	if "$@"; then
		echo "ok $tap_n - $desc # TODO $why"
	else
		echo "not ok $tap_n - $desc # TODO $why"
	fi
}

# done_tap: the plan, and the exit code.
done_tap() {
	echo "1..$tap_n"
	[ $tap_fail = 0 ]
}

# num VALUE...: every VALUE is a number. A figure the tool or an oracle
# did not produce is empty (or "null"), never 0: a check that needs it
# fails, and says so on stderr.
num() {
	local v
	for v in "$@"; do
		[[ $v =~ ^-?[0-9]+(\.[0-9]+)?$ ]] && continue
		echo "# not a number: '$v' (a missing figure)" >&2
		return 1
	done
}

# in_range VALUE LOW HIGH: LOW <= VALUE <= HIGH, decimals allowed.
in_range() {
	num "$1" "$2" "$3" &&
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'
}

# known_report REGEX WHY: a kernel message that this test's setting makes
# the kernel's honest answer, not a defect; image/run shows it and leaves it
# out of its scan of the kernel's reports. Declare only what the test's own
# setting explains, and say why.
known_report() {
	echo "$1" >> /xfer/known-reports
	echo "# known kernel report: '$1': $2"
}

# stock_kernel: the guest kernel lacks the series (the kprobe source).
stock_kernel() {
	[ ! -e $T/events/sched/sched_dl_throttle ]
}

# The stock kernels' reports of two defects the series fixes, for
# known_report: the late-deadline report (patch 6) and running_bw's
# underflow at a second dl_server_stop() (patch 2; deadline.c's line
# differs from kernel to kernel). kernel/UPSTREAM.md says which kernels
# have them.
STOCK_LAG_REPORT="sched: DL replenish lagged too much"
STOCK_LAG_WHY="the late-deadline defect patch 6 fixes"
STOCK_BW_REPORT="WARNING: .* at kernel/sched/deadline.c:[0-9]+ task_non_contending"
STOCK_BW_WHY="running_bw underflow from a second dl_server_stop(), the defect patch 2 fixes"

# Stock 7.3 prints the lag report seconds after boot, before any test's
# load: set aside there for every test. 6.12 keeps it strict (a test
# there declares it where its own load explains it).
if stock_kernel; then
	case $(uname -r) in
	6.12.*) ;;
	*) known_report "$STOCK_LAG_REPORT" \
		"stock $(uname -r | cut -d- -f1): $STOCK_LAG_WHY" ;;
	esac
fi

# fs_write CPU FILE VALUE: write a fair_server file; 0 or the error text.
fs_write() {
	local err
	err=$( { printf '%s' "$3" > "$FS/cpu$1/$2"; } 2>&1 ) && return 0
	echo "write $3 to cpu$1/$2: ${err##*: }" >&2
	return 1
}

# fs_set CPU RUNTIME PERIOD: set both, in an order that is always valid.
fs_set() {
	if [ "$2" -le "$(cat "$FS/cpu$1/period")" ]; then
		fs_write "$1" runtime "$2" && fs_write "$1" period "$3"
	else
		fs_write "$1" period "$3" && fs_write "$1" runtime "$2"
	fi
}

# val KEY FILE: the value of a key=value line of a probe's output.
val() {
	sed -n "s/^$1=//p" "$2" | head -n 1
}

# starve CPU SECONDS OUTPREFIX: an rt-probe and a fair-probe on CPU, both
# measuring the same window, which starts 300 ms from now, with their gap
# lists. Writes OUTPREFIX.rt and OUTPREFIX.fair; adds the pids to $probes.
probes=
starve() {
	local at
	at=$(( $(fair-probe --now) + 300000000 ))
	rt-probe -c "$1" -d "$2" -s "$at" -l > "$3.rt" &
	probes+=" $!"
	fair-probe -c "$1" -d "$2" -s "$at" -l > "$3.fair" &
	probes+=" $!"
}

# wait_files WHAT FILE...: wait until every FILE exists, 60 s at most; on
# a timeout say that WHAT did not start.
wait_files() {
	local what=$1 f i missing
	shift
	for ((i = 0; i < 600; i++)); do
		missing=
		for f in "$@"; do
			[ -e "$f" ] || missing=1
		done
		[ -z "$missing" ] && return 0
		sleep 0.1
	done
	echo "# $what did not start within 60 s" >&2
	return 1
}

# hog CPU SECONDS: an rt-probe and a fair-probe on CPU for SECONDS, their
# output discarded: the fair server's usual load. Adds the pids to $probes.
# It returns once both are set up (ready files, 60 s at most): on the debug
# kernel starting them takes seconds, and what a test does next must meet
# the load.
hog() {
	local r=/tmp/hog-rt$1.ready f=/tmp/hog-fair$1.ready
	rm -f $r $f
	rt-probe -c "$1" -d "$2" -R $r > /dev/null &
	probes+=" $!"
	fair-probe -c "$1" -d "$2" -R $f > /dev/null &
	probes+=" $!"
	wait_files "the load on CPU $1" $r $f
}

# just_starved PID: return once task PID has run and then stopped running
# while runnable: its run time (schedstat's first field) grew between two
# looks, then stood still while its wait time (the second) grew. On a
# hogged CPU that is the start of a wait the server ends only a period
# later. Fails after 10 s without one.
just_starved() {
	local i run wait prun pwait ran=
	read -r prun pwait _ < /proc/$1/schedstat || return 1
	for ((i = 0; i < 1000; i++)); do
		sleep 0.01
		read -r run wait _ < /proc/$1/schedstat || return 1
		if [ "$run" -gt "$prun" ]; then
			ran=1
		elif [ -n "$ran" ] && [ "$wait" -gt "$pwait" ]; then
			return 0
		fi
		prun=$run
		pwait=$wait
	done
	echo "# task $1 was not served then starved within 10 s" >&2
	return 1
}

# spin_then_hog CPU: for a CPU whose server is disabled, a fair task that
# spins in user space, then a FIFO rt-probe that takes the CPU from it
# (for 300 s: the debug kernel is slow; kill both when done). The fair
# task must be in user space when the hog comes: one
# preempted inside an RCU read-side section there would never run again,
# and RCU grace periods, the tool's own setup among their waiters, would
# stall (seen once in 16-open-wait, with fair-probe preempted in
# clock_gettime). It returns once the hog is FIFO (its ready file): on the
# debug kernel starting it takes seconds, and a tool started before would
# see the fair task run. Adds the pids to $probes; kill them when done.
spin_then_hog() {
	local pid i ready=/tmp/hog$1.ready
	taskset -c "$1" sh -c 'while :; do :; done' &
	pid=$!
	probes+=" $pid"
	# Until it has spun in user space: utime, field 14 of its stat.
	for ((i = 0; i < 500; i++)); do
		[ "$(awk '{ print $14 }' /proc/$pid/stat)" -gt 0 ] && break
		sleep 0.01
	done
	rm -f $ready
	rt-probe -c "$1" -d 300 -R $ready > /dev/null &
	probes+=" $!"
	wait_files "the hog on CPU $1" $ready
}

# gapstat FILE MIN_NS: "count avg max" of the listed gaps longer than MIN_NS.
gapstat() {
	awk -v min="$2" '/^gap start_ns=/ {
		sub(/.*len_ns=/, ""); v = $0 + 0
		if (v > min) { n++; s += v; if (v > m) m = v }
	} END { printf "%d %.0f %.0f\n", n, n ? s / n : 0, m }' "$1"
}

# enabled INSTANCE-DIR SYSTEM/EVENT: the event is enabled there.
enabled() {
	[ "$(cat "$1/events/$2/enable" 2>/dev/null)" = 1 ]
}

# bpf_maps PID: what bpftool dumps of each .bss map process PID holds open
# (its programs' counters and flags), one after the other. Its other maps
# are left out: the programs' derivation state is large.
bpf_maps() {
	local f id

	for f in /proc/$1/fdinfo/*; do
		id=$(sed -n 's/^map_id:[[:space:]]*//p' "$f" 2>/dev/null)
		[ -n "$id" ] && bpftool map show id "$id" 2>/dev/null |
			grep -q '\.bss' &&
			bpftool map dump id "$id" 2>/dev/null
	done
}

# bpf_recording PID: whether rtla PID's BPF source records: one of the
# maps it holds open is its programs' .bss, with "recording" set.
bpf_recording() {
	bpf_maps "$1" | grep -q '"recording": 1'
}

# bpf_dropped PID CPU: how many records rtla PID's BPF programs on CPU had
# no room for in their ring (the "dropped" array of their .bss); empty if
# it has no such map.
bpf_dropped() {
	bpf_maps "$1" | tr -d ' \n' | grep -o '"dropped":\[[0-9,]*\]' |
		awk -F'[][,]' -v i=$(($2 + 2)) '{ print $i; exit }'
}

# after_probes PID ERR: wait for the probes to end, then stop rtla PID
# with SIGINT; its exit status in rc, its stderr (file ERR) shown.
after_probes() {
	wait $probes
	probes=
	kill -INT "$1"
	wait "$1"
	rc=$?
	sed 's/^/# stderr: /' "$2"
}

# no_room PID SOURCE CPU: the kernel had a record of CPU with no room for
# it in rtla PID's buffers: the tracefs instance's per-CPU overrun for the
# events and kprobe sources, the programs' own drop count for BPF.
no_room() {
	local n

	if [ "$2" = bpf ]; then
		n=$(bpf_dropped "$1" "$3")
	else
		n=$(sed -n 's/^overrun: //p' \
			"$T/instances/rtla_fairsrv_$1/per_cpu/cpu$3/stats")
	fi
	[ "${n:-0}" -gt 0 ]
}

# wait_no_room PID SOURCE CPU...: poll, for up to 60 s, until no_room
# holds on every CPU given; fails if it does not. How fast a load fills
# a buffer depends on the emulator; the kernel's own count does not.
wait_no_room() {
	local pid=$1 src=$2 end cpu full
	shift 2
	for ((end = SECONDS + 60; SECONDS < end; )); do
		full=1
		for cpu in "$@"; do
			no_room "$pid" "$src" "$cpu" || { full=; break; }
		done
		[ -n "$full" ] && return 0
		sleep 0.1
	done
	return 1
}

# collecting PID: wait until the rtla fairsrv process PID records, that is
# until its instance has tracing on and the last of its events enabled.
# The tool enables the server's events, turns tracing on, then the
# starvation and load events, sched_fair_starve_wait last after the
# others of its kind (and sched_switch after the wake-ups): one enabled
# before its last is a set-up still under way. The BPF source has no
# instance: it records once bpf_recording says so. Polls for up to 60 s;
# fails if the process exits first.
collecting() {
	local dir=$T/instances/rtla_fairsrv_$1 end

	for ((end = SECONDS + 60; SECONDS < end; )); do
		bpf_recording "$1" && return 0
		# The series' start event, or the kprobe source's.
		if [ "$(cat "$dir/tracing_on" 2>/dev/null)" = 1 ] &&
		   { enabled "$dir" sched/sched_dl_server_start ||
		     enabled "$dir" "rtla_fairsrv_$1/start_$1"; } &&
		   { enabled "$dir" sched/sched_fair_starve_wait ||
		     ! enabled "$dir" sched/sched_fair_starve_end; } &&
		   { enabled "$dir" sched/sched_switch ||
		     ! enabled "$dir" sched/sched_wakeup; }; then
			return 0
		fi
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

# clean: no rtla fairsrv instance, probe or BPF program is left and no
# event the tool enables is on at the top level (the series', the
# scheduler's it reads on a stock kernel or for --what-if, CPU hotplug);
# says what is left otherwise. The BPF source's programs hold its maps:
# with no map of its object left, none of its programs is.
clean() {
	local left en probes maps i
	left=$(ls $T/instances | grep -c rtla_fairsrv)
	en=$(cat $T/events/sched/sched_dl_*/enable \
		$T/events/sched/sched_fair_starve_*/enable \
		$T/events/sched/sched_switch/enable \
		$T/events/sched/sched_wakeup/enable \
		$T/events/sched/sched_wakeup_new/enable \
		$T/events/sched/sched_migrate_task/enable \
		$T/events/cpuhp/cpuhp_enter/enable 2>/dev/null | grep -vc 0)
	probes=$(grep -c rtla_fairsrv $T/dynamic_events)
	# The kernel frees a program, then its maps, after an RCU grace
	# period once the last descriptor is closed: give it 5 s.
	for ((i = 0; i < 50; i++)); do
		maps=$(bpftool map show | grep -c 'name fairsrv_')
		[ "$maps" = 0 ] && break
		sleep 0.1
	done
	[ "$left" = 0 ] && [ "$en" = 0 ] && [ "$probes" = 0 ] &&
		[ "$maps" = 0 ] && return 0
	echo "# left: $left instances, $en events enabled at the top level, $probes probes, $maps BPF maps"
	return 1
}

# tool_waits JSON PID FROM TO: the lengths (ns) of the waits of task PID
# that began in [FROM, TO] (CLOCK_MONOTONIC ns), from the "worst" list of
# rtla fairsrv's --json (run it with a --worst large enough for all).
tool_waits() {
	sed 's/.*"worst":\[//' "$1" |
		grep -o "\"task\":{\"pid\":$2,\"comm\":\"[^\"]*\"},\"why\":\"[a-z]*\",\"since_ns\":[0-9]*,\"ns\":[0-9]*" |
		sed 's/.*"since_ns":\([0-9]*\),"ns":\([0-9]*\)/\1 \2/' |
		awk -v from="$3" -v to="$4" '$1 >= from && $1 <= to { print $2 }'
}

# tool_spans JSON CPU: "start end" (ns) of the starvation episodes of CPU
# in the "worst" list of rtla fairsrv's --json (--worst large enough).
tool_spans() {
	sed 's/.*"worst":\[//' "$1" |
		grep -o "{\"cpu\":$2,\"start_ns\":[0-9]*,\"ns\":[0-9]*" |
		sed 's/.*"start_ns":\([0-9]*\),"ns":\([0-9]*\)/\1 \2/' |
		awk '{ printf "%.0f %.0f\n", $1, $1 + $2 }'
}

# probe_waits FILE: the lengths (ns) of a cycling probe's own waits: its
# wake-up latencies and the gaps while it ran (fair-probe -C -l).
probe_waits() {
	sed -n 's/^wake .*lat_ns=//p; s/^gap .*len_ns=//p' "$1"
}

# probe_queued FILE: of each of those waits, the part the probe was
# runnable: of a wake-up's latency, its schedstat run delay (-1 where it
# could not read it); a gap while it spins is a preemption, runnable all
# through.
probe_queued() {
	sed -n 's/^wake .*queued_ns=//p; s/^gap .*len_ns=//p' "$1"
}

# probe_late FILE: "due late" (ns) of each wake-up of a cycling probe that
# ran late before it was even runnable: due, an offset from the probe's
# start, and the latency less the run delay (a timer or an interrupt late).
probe_late() {
	sed -n 's/^wake due_ns=\([0-9]*\) lat_ns=\([0-9]*\) .*queued_ns=\([0-9]*\)$/\1 \2 \3/p' "$1" |
		awk '{ printf "%.0f %.0f\n", $1, $2 - $3 }'
}

# over_stat MIN_NS: "count avg max" of the numbers on stdin above MIN_NS.
over_stat() {
	awk -v min="$1" '$1 + 0 > min + 0 { n++; s += $1; if ($1 + 0 > m + 0) m = $1 }
		END { printf "%d %.0f %.0f\n", n, n ? s / n : 0, m }'
}

# near A B PCT ABS: |A - B| <= PCT% of B + ABS
near() {
	num "$1" "$2" "$3" "$4" &&
	awk -v a="$1" -v b="$2" -v p="$3" -v m="$4" 'BEGIN {
		d = a - b; if (d < 0) d = -d; exit !(d <= b * p / 100 + m) }'
}

# le A B SLACK: A <= B + SLACK
le() {
	num "$1" "$2" "$3" &&
	awk -v a="$1" -v b="$2" -v m="$3" 'BEGIN { exit !(a <= b + m) }'
}

# upto A B PCT ABS: A <= B + PCT% of B + ABS
upto() {
	num "$1" "$2" "$3" "$4" &&
	awk -v a="$1" -v b="$2" -v p="$3" -v m="$4" 'BEGIN { exit !(a <= b + b * p / 100 + m) }'
}

# jcpu JSON CPU KEY [SUBKEY]: the number KEY (or KEY's SUBKEY) of CPU in
# rtla fairsrv's --json. The guest has no python: a small reader in awk.
jcpu() {
	awk -v cpu="$2" -v key="$3" -v sub_="${4:-}" '
	{
		s = $0
		i = index(s, "{\"cpu\":" cpu ",")
		if (!i) exit 1
		s = substr(s, i)
		if (sub_ != "") { s = substr(s, index(s, "\"" key "\":{") ); key = sub_ }
		i = index(s, "\"" key "\":")
		if (!i) exit 1
		s = substr(s, i + length(key) + 3)
		match(s, /^[0-9]+/)
		print substr(s, RSTART, RLENGTH)
	}' "$1"
}

# jget JSON PATTERN: the first number after PATTERN (a fixed string).
jget() {
	awk -v pat="$2" '{ i = index($0, pat); if (!i) exit 1
		s = substr($0, i + length(pat)); match(s, /^-?[0-9]+/)
		print substr(s, RSTART, RLENGTH); exit }' "$1"
}
