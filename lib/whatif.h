/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What-if: one CPU's recorded load (load.h) replayed with another runtime
 * and period of its fair server, by the rules 6.12.118's deferred server
 * follows (kernel/sched/deadline.c). Pure code.
 *
 * The load does not react to the setting: higher classes want the CPU
 * exactly when they did, and each fair job needs the CPU time it used.
 * At each instant the CPU runs, in this order:
 *
 *   the fair tasks, served    if the server is enqueued (D) and fair work
 *                             is queued: a higher class that wants the CPU
 *                             is preempted
 *   the higher class          if it wants the CPU: queued fair work starves
 *   the fair tasks            in the background
 *   nothing                   idle
 *
 * and the server moves as the kernel moves it (a tick may delay a change,
 * below):
 *
 *   fair work queued, server stopped (A)
 *        start: a new period if the deadline passed or the rest would
 *        overflow (deferred: B, timer at deadline - runtime); else the
 *        rest of this one (B, or D at once if it was serving since a
 *        boost: dl_defer_running, with runtime cut to the bandwidth left)
 *   B, its timer fires
 *        forwarded to deadline - runtime if background work used more than
 *        1 ms of the runtime since; else the boost: a new period, D
 *   B or E, fair tasks run in the background
 *        the runtime is used; once it is gone, a new deferred period (B),
 *        and dl_defer_running is cleared
 *   D, fair tasks run
 *        the runtime is used; once it is gone, throttled: the fair task
 *        still current is charged once more at the switch that follows, in
 *        the background, so a new deferred period begins at once (B); E
 *        until the deadline only if no fair work is left. If the deadline
 *        has passed already, the timer cannot start and the throttle
 *        replenishes at once: D again while serving a boost
 *
 * A runtime that runs out while a fair task runs on is seen at the next
 * tick of the kernel (load.h's tick_ns), or when anything else happens
 * on the CPU first.
 *   E, the timer fires at the deadline
 *        replenished: D if it was serving since a boost, else B
 *   D, no fair work queued, a higher class wants the CPU
 *        stop (A); the state since the boost is kept
 *   the CPU leaves idle
 *        the idle time is charged to a runtime not below 0; if it runs
 *        out, the runtime is 0 and dl_defer_running is cleared
 *
 * Those are 6.12's rules (6.12.118). 7.x's server (read in 7.3.4; load.h's
 * rules pick them) differs in three places:
 *   idle time     is charged to an active server only, as a fair task's
 *                 time is: once it has used up the runtime of a waiting
 *                 server (B or E), a new deferred period begins (B); in D,
 *                 the server is throttled as when serving
 *   the timer     firing on an idle CPU charges the idle time first; a
 *                 server whose runtime that used up is stopped (A), not
 *                 boosted (dl_defer_idle), unless fair work came or ran
 *                 in the background since
 *   a late throttle  (the deadline passed) gives a serving server a new
 *                 period, waited for in E, instead of D again at once
 *
 * Figures: fair starvation episodes (queued fair work, a higher class
 * running, the CPU's length of each); the fair share of the CPU; and RT
 * preemption as the live tool measures it (server.c, rt_wait): per
 * hold-off in which one waited, the time a higher-class task waited while
 * the server served fair tasks, to the segment's end; a stop ends a
 * hold-off, as a waiting higher-class task runs then. A task waits while
 * its recorded span lasts, and one that the service preempted, or that
 * woke during it, also until the segment ends (it cannot go to sleep
 * without the CPU): a task asleep when the service began loses only the
 * rest. Episodes are cut as the live tool cuts them: one begins when the
 * server enters D, goes on across a stop followed by a start straight back
 * to D and across a throttle replenished at once (the deadline past), and
 * ends when the server leaves D otherwise; one still in D when the window
 * ends is not counted. Boosts too: an episode the server's
 * timer began (a boost, or a replenishment while it serves one) that
 * served fair tasks, but for an idle boost, whose runtime idle time used
 * up while it waited (its timer fires while the CPU idles; a stop and a
 * start straight back to D resume it, and the tasks that then wait behind
 * the service count).
 *
 * Censored demand: the fair jobs replayed need what they used, but a
 * task that waited behind a higher class while recording would have used
 * more had it waited less (load.h: censor_ns bounds it). A replay is
 * censored when its setting starves the recorded fair work less than the
 * recording did (its episodes, the open one included, against the
 * replay of the recorded setting, load.h's base_starved_ns, or else the
 * recording's own starved_ns) and the lesser of that gain and censor_ns,
 * the fair demand it may miss (missing_ns), is at least 5 ms per second
 * of the window: there starvation and RT preemption are under-predicted.
 * Where the setting starves the fair work more, the recorded demand may
 * exceed what those tasks would use: the error goes the other way, and
 * the row is not marked. The recorded setting's own row gains nothing.
 *
 * Displaced real-time demand, the same on the other side: the higher
 * classes' spans are replayed as recorded, but where the server kept a
 * real-time task that sleeps off the CPU while recording, its recorded
 * want holds that wait (load.h: rt_displaced_ns). A replay is
 * rt_displaced when that demand is at least 5 ms per second of the window
 * and its RT preemption differs from the recorded setting's replay
 * (base_preempt_ns) by as much: where it preempts less (rt_over), the
 * replay keeps real-time want that the server's service made, and
 * starvation and RT preemption are over-predicted; where it preempts
 * more, the want it would add is missing, and they are under-predicted.
 *
 * Tick-bound settings: a runtime under 5 of the load's ticks runs out,
 * as the kernel sees it, at the tick after, which the replay takes as on
 * time. A tick that comes late (an interrupt-off section, or a virtual
 * CPU not run) lengthens each stint by as much, a large part of such a
 * runtime: RT preemption is under-predicted there (each stint may last
 * its runtime and 2 ticks). Such a replay is tick_bound; the advice never
 * picks such a runtime.
 */
#ifndef FAIRSRV_WHATIF_H
#define FAIRSRV_WHATIF_H

/* Ticks under which a runtime is tick-bound, and never advised. */
#define FS_WHATIF_MIN_TICKS	5

#include <stdbool.h>
#include <stdint.h>

#include "hist.h"
#include "load.h"

/*
 * The rules of the kernel whose release (uname -r) is @release: 7.x's
 * from 7.0 on, else 6.12's. Sets *@checked when @release is of a line
 * whose source the rules were checked against (6.12 or 7.3).
 */
enum fs_rules fs_whatif_rules(const char *release, bool *checked);

/* The kernel line the rules were read in: "6.12" (6.12.118), "7.3" (7.3.4). */
const char *fs_whatif_rules_name(enum fs_rules rules);

/* One setting's predicted figures on one CPU. */
struct fs_whatif {
	uint64_t runtime, period;	/* runtime 0: the server disabled */
	uint64_t window_ns;		/* replayed */
	uint64_t fair_ns;		/* CPU time fair tasks got */
	struct fs_stat starve;		/* episodes that ended */
	uint64_t starve_end;		/* when the longest of them ended */
	uint64_t starve_open;		/* the one open at the end, 0: none */
	struct fs_stat preempt;		/* RT preempted per episode */
	uint64_t boosts;		/* boosted episodes that served */
	bool censored;			/* under-predicted: see above */
	uint64_t missing_ns;		/* fair demand it may miss, at most */
	uint64_t waited_ns;		/* demand hidden: load.h's censor_ns */
	bool rt_displaced;		/* real-time want displaced: above */
	bool rt_over;			/* and over-predicted, else under */
	bool tick_bound;		/* under FS_WHATIF_MIN_TICKS: above */
	uint64_t rt_displaced_ns;	/* load.h's rt_displaced_ns */
};

/* Replay @load with @runtime ns every @period ns into @out. */
void fs_whatif_replay(const struct fs_load *load, uint64_t runtime,
		      uint64_t period, struct fs_whatif *out);

/*
 * Mark @w, a replay of @load, censored and rt_displaced or not (above);
 * the replay does.
 */
void fs_whatif_censor(const struct fs_load *load, struct fs_whatif *w);

/* The worst starvation predicted, the episode still open included. */
uint64_t fs_whatif_worst(const struct fs_whatif *w);

/* The mean predicted starvation, the episode still open included. */
uint64_t fs_whatif_avg(const struct fs_whatif *w);

/* RT preemption predicted, ns per second of the window. */
uint64_t fs_whatif_preempt_rate(const struct fs_whatif *w);

/*
 * Advice: of the settings tried (periods from 10 ms to 1 s, runtimes
 * from 1% to 50% of them, none below 100 us or five ticks, nor above
 * @max_bw of bandwidth), the one whose worst starvation stays within
 * @target_ns less a margin of @margin_pct percent for what the replay
 * cannot see, with the least RT preemption per second, then the shortest
 * worst preemption. Every runtime of every period is replayed: more
 * runtime does not always preempt more. Fills @out; false if none meets
 * it.
 */
bool fs_whatif_advise(const struct fs_load *load, uint64_t target_ns,
		      unsigned int margin_pct, uint64_t max_bw,
		      struct fs_whatif *out);

/*
 * What the live models measured on the CPU over the run, for the check
 * of the replay of the setting the run had. The run's window begins
 * lead_ns before the load's (the trace's set-up): an episode that lay
 * there is the run's alone.
 */
struct fs_whatif_measured {
	uint64_t window_ns, lead_ns;
	bool starve;		/* fair starvation measured */
	uint64_t worst_ns;	/* its longest episode, the open one included */
	bool rt;		/* RT preemption measured */
	bool rt_bound;		/* as the time in D, an upper bound */
	uint64_t rt_ns, rt_max_ns;	/* its samples' sum and longest */
	uint64_t boosts;
};

/* The check's outcome, per figure (true where not measured). */
struct fs_whatif_check {
	bool starve, rt, boosts;
};

/*
 * Whether @w, the replay of the setting the run had, agrees with what
 * the run measured, @m (tick @tick_ns): the worst starvation within 20%
 * and 2 ms and two ticks (a replay shorter by up to the lead too), RT
 * preemption per second within 20% and 2 ms/s and, for each window's
 * edge, its longest sample, the boosts per window within 20% and 2. Fills
 * @c; true if all agree.
 */
bool fs_whatif_agrees(const struct fs_whatif *w,
		      const struct fs_whatif_measured *m, uint64_t tick_ns,
		      struct fs_whatif_check *c);

/* Deadline bandwidth as the kernel counts it (to_ratio()): 1 << 20 is a CPU. */
#define FS_BW_SHIFT	20
uint64_t fs_bw(uint64_t runtime, uint64_t period);

/*
 * A root domain's deadline bandwidth, as /sys/kernel/debug/sched/debug
 * shows it for each of its CPUs (dl_bw->bw, dl_bw->total_bw), with its
 * CPUs (each taken at full capacity) and the bandwidth of their fair
 * servers, as their debugfs files give it.
 */
struct fs_rd_bw {
	int64_t bw;		/* per CPU; -1: no limit */
	int64_t total_bw;	/* the servers' and deadline tasks' */
	unsigned int cpus;
	uint64_t servers_bw;
};

/*
 * The most bandwidth a fair server that has @old_bw can be given in @rd:
 * what __dl_overflow() admits (UINT64_MAX without a limit). 0 when the
 * root domain holds less than its servers' bandwidth: a 6.12 without the
 * fix loses it at a root-domain rebuild, and then refuses every write.
 */
uint64_t fs_rd_room(const struct fs_rd_bw *rd, uint64_t old_bw);

/* How to write a new setting through the server's two debugfs files. */
struct fs_apply {
	unsigned int nr;	/* writes: 0, 1 or 2 */
	bool runtime_first;
	/*
	 * Every refusal leaves the old setting: the first write fits, and
	 * the second cannot raise the bandwidth. Else the second may be
	 * refused, and the first is to be undone.
	 */
	bool safe;
	bool fits;		/* the setting and the step fit the room */
};

/*
 * The order in which to write (@r1, @p1) over (@r0, @p0), the server
 * allowed @room of bandwidth. The kernel refuses a runtime above the
 * period (EINVAL) and a bandwidth over the room (EBUSY), at each write.
 */
void fs_whatif_apply(uint64_t r0, uint64_t p0, uint64_t r1, uint64_t p1,
		     uint64_t room, struct fs_apply *a);

#endif
