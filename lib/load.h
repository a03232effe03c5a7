/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Each CPU's load as the scheduler's events show it, kept for the
 * what-if replay (whatif.h): when a task of a higher class (stop,
 * deadline, real-time) wanted the CPU, and what CPU time each fair task
 * needed from the moment it became runnable until it slept ("a job").
 * Pure code: it consumes sched_switch, sched_wakeup(_new) and
 * sched_migrate_task as decoded events, in timestamp order.
 *
 * A higher class wants the CPU while one of its tasks runs there, or is
 * runnable there but not running: woken there, or preempted (by the fair
 * server's service, for one) and not yet run again or moved away. A
 * deadline task (prio -1) switched out runnable while no deadline task
 * takes the CPU was throttled by its own budget (or yielded): it does not
 * want the CPU until it is switched in again, at its replenishment. (The
 * fair server, a deadline entity too, could preempt it with an earlier
 * deadline; that wait is then missed: rare, as a server's deadline is a
 * period away from its boost.) Before the window, while the events go on
 * one by one, a higher-class task seen to wake, switched out runnable or
 * moved in is not kept as wanting the CPU: what it did next may not have
 * been seen.
 */
#ifndef FAIRSRV_LOAD_H
#define FAIRSRV_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"

/* The work of a job still runnable when the recording ended. */
#define FS_WORK_OPEN	UINT64_MAX

/* An interval [start, end) in which a higher class wanted the CPU. */
struct fs_span {
	uint64_t start, end;
};

/* Fair work: runnable from @ts, needing @work ns of CPU. */
struct fs_job {
	uint64_t ts;
	uint64_t work;		/* FS_WORK_OPEN: until the end */
};

/*
 * Spans or jobs kept per CPU (16 bytes each). A CPU whose load fills them
 * stops recording there: its window ends early (full, full_at).
 */
#define FS_LOAD_MAX	(1 << 20)

/* Higher-class tasks kept as runnable on one CPU; more are counted. */
#define FS_LOAD_PENDING	32

/* A higher-class task the server kept waiting: see rt_displaced_ns. */
struct fs_load_rt {
	int32_t pid;		/* 0: free */
	bool slept;		/* seen to sleep after it was displaced */
	uint64_t displaced;	/* fair tasks ran while it waited */
};

/*
 * The kernel line whose fair server a replay follows (whatif.h): 6.12's,
 * or 7.x's, which charges idle time to a running server only and stops a
 * server whose runtime idle time used up.
 */
enum fs_rules {
	FS_RULES_6_12,
	FS_RULES_7,
};

/* What the replay of one CPU takes as given. */
struct fs_load {
	uint64_t t0, t1;	/* the window recorded */
	/*
	 * The kernel's tick, 0 if not known: a fair task that runs on sees
	 * its runtime run out only at a tick (no HRTICK_DL by default).
	 */
	uint64_t tick_ns;
	struct fs_span *hi;	/* sorted, disjoint */
	size_t nr_hi, cap_hi;
	struct fs_job *jobs;	/* by ts, once finished */
	size_t nr_jobs, cap_jobs;
	/*
	 * What the recording starved: the time fair work was queued while a
	 * higher class ran (the CPU's starvation, starved_ns), and a bound of
	 * the fair demand that starvation hid (censor_ns). A fair task that
	 * sleeps and waited behind a higher class would have used more of
	 * the CPU had it waited less: one that sleeps a while after each job
	 * would have come back sooner, by its duty (mean job over mean job
	 * and sleep, a sleep cut by the window's edge counted as seen) of
	 * the time it waited; one that runs until a time would have run in
	 * the periods it waited through, that much again, and in the one it
	 * waited in, up to its longest job. Per such task the sum, never more
	 * than its waits (the job open at the end included), on the CPU of
	 * its last wait. A task never seen to sleep takes what it is given:
	 * none.
	 * (whatif.h: censored.) base_starved_ns, if base_known, is set by
	 * the caller: the starvation of the recorded setting's replay, which
	 * the others are compared with instead of starved_ns.
	 */
	uint64_t starved_ns;
	uint64_t censor_ns;
	bool base_known;
	uint64_t base_starved_ns;
	/*
	 * The higher classes' demand that the server's service displaced
	 * (rt_displaced_ns): the time fair tasks ran after one took the CPU
	 * from a runnable higher-class task, until a higher class ran again,
	 * counted for the tasks then waiting that were seen to sleep after
	 * (a busy loop that slept only before it began is not). Their
	 * recorded want is not what they would want at other settings: one
	 * that works until a time would have run and slept where it waited
	 * (its want grew by the wait), one with work to do would have done it
	 * sooner. A task never seen to sleep wants the CPU whatever is
	 * served: not counted. (whatif.h: rt_displaced.) base_preempt_ns,
	 * set with base_starved_ns, is the RT preemption of the recorded
	 * setting's replay.
	 */
	uint64_t rt_displaced_ns;
	uint64_t base_preempt_ns;
	/* The server's rules to replay it by (whatif.h), set by the caller. */
	enum fs_rules rules;
	/* While recording. */
	uint64_t hi_clock;	/* time a higher class ran, up to acct_ts */
	uint64_t acct_ts;
	unsigned int nr_open;	/* fair jobs open on the CPU */
	bool curr_known;
	bool hi_running;	/* curr is a higher-class task */
	int32_t curr_pid;
	int32_t pending[FS_LOAD_PENDING];	/* runnable, not running */
	unsigned int nr_pending;
	int32_t throttled[FS_LOAD_PENDING];	/* deadline tasks throttled */
	unsigned int nr_throttled;
	bool hi_on;
	uint64_t hi_since;
	bool displacing;	/* fair tasks run in a higher class's stead */
	uint64_t displaced_all;	/* how long, in all */
	struct fs_load_rt rt[FS_LOAD_PENDING];	/* the tasks it made wait */
	bool full;		/* FS_LOAD_MAX reached: the window ends at */
	uint64_t full_at;
};

/* A fair task seen: its job, if one is open, and where; its past jobs. */
struct fs_load_task {
	int32_t pid;		/* 0: free slot */
	bool open;		/* runnable: a job is open */
	int cpu;
	uint64_t arrive;
	uint64_t work;
	bool running;
	uint64_t run_since;
	uint64_t mark;		/* its CPU's hi_clock when it began to wait */
	uint64_t waited;	/* the job's wait while a higher class ran */
	/* Its jobs' waits, the longest job, its sleeps, for censor_ns. */
	uint64_t wait_sum, wait_jobs;
	int wait_cpu;
	uint64_t work_max;
	uint64_t sleep_sum, sleeps, slept_at;
	bool open_at_end;
	uint64_t jobs, jobs_work;	/* the jobs it finished */
};

/* The recorder: every CPU's load, and the fair tasks seen. */
struct fs_loads {
	int nr_cpus;
	struct fs_load *cpu;
	struct fs_load_task *task;	/* open addressing by pid */
	size_t nr_task, cap_task;	/* cap: a power of two */
	uint64_t lost;			/* times events were lost */
	uint64_t untracked;		/* higher-class tasks not kept */
	uint64_t now;			/* the event being fed */
	bool early;			/* it came before the window */
	size_t max_entries;		/* FS_LOAD_MAX; less in tests */
	bool failed;			/* out of memory: the load is partial */
};

/* Set up for @nr_cpus CPUs, the window beginning at @t0. */
int fs_loads_init(struct fs_loads *l, int nr_cpus, uint64_t t0);
void fs_loads_free(struct fs_loads *l);

/* Feed one event, in timestamp order; others than the scheduler's and
 * FS_EV_LOST are ignored. */
void fs_loads_event(struct fs_loads *l, const struct fs_event *ev);

/*
 * Close the window at @t1 (once): open spans end there. A job still open
 * needs what the task's finished jobs needed on average (what it used, if
 * more); one that used more than twice that already, or of a task never
 * seen to sleep, needs the CPU to the end: its wait is not in censor_ns.
 */
void fs_loads_finish(struct fs_loads *l, uint64_t t1);

#endif
