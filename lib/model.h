/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-CPU model: the fair server's state machine (server.c) and the
 * fair starvation episodes (starve.c), rebuilt from decoded events. Pure
 * code: it consumes events and keeps statistics; it never reads tracefs.
 *
 * The server's states are those of the comment above dl_server_start() in
 * kernel/sched/deadline.c, as 6.12 implements them. Each event carries the
 * server's flags after the transition, and the state is a function of
 * them:
 *
 *   A:init               !active
 *   B:zero_laxity-wait    active &&  throttled &&  armed
 *   D:running             active && !throttled
 *   E:replenish-wait      active &&  throttled && !armed
 *
 * 6.12 has no dl_defer_idle, hence no C:idle-wait: idle time is charged to
 * the runtime while in B (sched_dl_server_idle when it runs out).
 *
 *          start                 boost+replenish            throttle
 *   A ----------------> B --------------------------> D ---------------> E
 *   ^  start (running)  | ^ defer, postpone, boost    | ^                |
 *   +-------------------|-|---------------------------+ | replenish      |
 *   |      stop         | +-----------------------------|----------------+
 *   +-------------------+  postpone, replenish (re-arm) +----------------+
 *
 * Two states are the tool's own: off (runtime 0: the server never starts)
 * and offline (the CPU is going down or down; nothing is counted there).
 *
 * A fair starvation episode is an interval in which at least one fair task
 * is runnable on the CPU, none runs there, and a task of a higher class
 * (stop, deadline, real-time) holds it; the fair server's service counts as
 * fair running. It is the kernel's sched_fair_starve_* events that say when
 * one begins and ends. The server's wait (from its start or deferral to
 * its boost) is a different figure: the server stays started while no fair
 * task is runnable, so its wait can include time in which nothing starved.
 */
#ifndef FAIRSRV_MODEL_H
#define FAIRSRV_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"
#include "hist.h"

enum fs_state {
	FS_ST_UNKNOWN,		/* nothing known yet, or events were lost */
	FS_ST_OFF,		/* runtime 0: disabled */
	FS_ST_OFFLINE,		/* the CPU is offline */
	FS_ST_INIT,		/* A */
	FS_ST_ZL_WAIT,		/* B */
	FS_ST_RUNNING,		/* D */
	FS_ST_REPL_WAIT,	/* E */
	FS_ST_NR
};

/* The edge from state @from to @to, a bit of fs_ev_desc's edges. */
#define FS_EDGE(from, to)	(1ULL << ((from) * FS_ST_NR + (to)))

/* The fair server's part of a CPU's model. */
struct fs_server {
	enum fs_state state;
	uint64_t dl_runtime, dl_period;	/* 0: not known */
	/*
	 * The window's start (fs_cpu_window()): an event before it moves
	 * the state, but is not counted, nor is an episode it began.
	 */
	uint64_t from;

	/* Counters. */
	uint64_t count[FS_EV_SERVER_NR];	/* events, by type */
	uint64_t boosts;	/* serving began: the zero-laxity time came */
	uint64_t idle_boosts;	/* boosts that found nothing to serve */
	uint64_t refused;	/* parameter writes the kernel refused */

	/* The server's wait, since its start or deferral, for server_wait. */
	bool waiting;
	uint64_t wait_start;
	int64_t wait_runtime;	/* runtime when the wait began */
	uint64_t wait_deadline;	/* and its deadline: same period or not */
	uint64_t consumed;	/* runtime used in the background since */
	bool wait_idle;		/* idle time used the runtime up meanwhile */

	/*
	 * The serving episode in progress (state D). A stop and a start
	 * straight back to D split it into segments; only the time inside
	 * them counts, and only the runtime used inside them (idle time is
	 * charged to the runtime while the server is stopped). serving is
	 * false in D when its start was not seen (the first event, or an
	 * invalid transition): such an episode is never counted.
	 */
	bool serving;
	uint64_t seg_start;	/* ts the current segment began */
	int64_t seg_runtime;	/* runtime then */
	uint64_t seg_rt_wait;	/* and the events' rt_wait */
	uint64_t serve_active;	/* ns in D over the closed segments */
	uint64_t serve_used;	/* runtime used over the closed segments */
	uint64_t serve_rt;	/* real-time tasks' wait over them */
	/*
	 * Whether the events' rt_wait is kept (the series with the
	 * starvation events on): RT preemption is then what real-time
	 * tasks waited, else the time in D, an upper bound.
	 */
	bool rt_wait_known;
	bool serve_boosted;	/* it began with a boost */
	uint64_t serve_waited;	/* the server wait that boost ended */
	bool serve_wait_known;	/* the wait's start was seen */
	bool serve_idle_wait;	/* idle time used the runtime up, before or
				 * during the episode: an idle boost */
	/*
	 * A stop in D is often followed at once by a start straight back to
	 * D (the fair class briefly had nothing to pick): the same episode.
	 * The episode stays open after a stop until the next event tells
	 * which it was.
	 */
	bool stop_held;
	/*
	 * A throttle ends the runtime, not the serving: the fair task runs
	 * on until the switch that hands the CPU back (the tail), and the
	 * real-time task waits through it. The episode stays open after a
	 * throttle until the next server event; the first fair task made
	 * to wait before it, at that switch, marks where the tail ended.
	 * A replenishment to D at once, before any such switch (the runtime
	 * ran out past the deadline), resumes the episode instead (server.c).
	 */
	bool tail_held;
	uint64_t tail_start;	/* ts of the throttle */
	uint64_t tail_end;	/* ts of the switch, 0 until seen */
	uint64_t tail_rt_wait;	/* the events' rt_wait at the throttle */

	uint64_t served_total;	/* ns of runtime the server consumed */
	struct fs_stat served_boost;	/* per boosted episode, ns */
	struct fs_hist wait;		/* server wait per boost, ns */
	struct fs_hist preempt;		/* per hold-off (server.c), ns */
};

/* One fair task's wait within an episode. */
struct fs_wait {
	struct fs_task task;
	unsigned int why;	/* fs_wait_why */
	uint64_t since;		/* ts it began */
	uint64_t ns;		/* its length, once ended (or so far) */
	unsigned int end;	/* fs_end_why; FS_END_OPEN while waiting */
};

/* A task that held the CPU during an episode, and for how long. */
struct fs_hold {
	struct fs_task task;
	uint64_t ns;
	uint64_t early_ns;	/* in an episode: of ns, before the window */
};

#define FS_EP_WAITS	8	/* named waits kept per episode */
#define FS_EP_HOLDS	4	/* holders kept per episode */
#define FS_EP_SERVER	8	/* server states kept per episode */

/* The fair server's state from @ts on, within an episode. */
struct fs_ep_server {
	uint64_t ts;
	enum fs_state state;
};

/* One fair starvation episode of a CPU. */
struct fs_episode {
	int cpu;
	uint64_t start;		/* ts of the first wait seen */
	uint64_t from;		/* the window's start, when it opened */
	uint64_t ns;		/* length (so far, while open) */
	bool start_known;	/* false: it began before it was seen */
	unsigned int end;	/* fs_end_why; FS_END_OPEN while open */
	struct fs_task ran;	/* the fair task that ran at its end */
	enum fs_state server_at_start;	/* the server's state then */
	bool boosted;		/* the server boosted during it */
	/* The server's states through it: at its start, then each change. */
	struct fs_ep_server server[FS_EP_SERVER];
	unsigned int nr_server;
	uint64_t more_server;	/* changes beyond FS_EP_SERVER */
	struct fs_wait waits[FS_EP_WAITS];
	unsigned int nr_waits;
	uint64_t more_waits;	/* named waits beyond FS_EP_WAITS */
	uint64_t unnamed_waits;	/* waits of tasks not named by the kernel */
	/* Holders, the longest first once it ended. */
	struct fs_hold holds[FS_EP_HOLDS];
	unsigned int nr_holds;
	uint64_t other_hold_ns;	/* by holders beyond FS_EP_HOLDS */
	uint64_t other_early_ns;	/* of it, before the window */
	int cur_hold;		/* index of the current holder, -1: other */
	uint64_t hold_since;	/* ts the current holder took over */
};

#define FS_HOLDERS	16	/* holders whose totals each CPU keeps */

/* The fair starvation part of a CPU's model. */
struct fs_starve {
	bool open;
	/*
	 * The window's start (fs_cpu_window()). An episode that ended
	 * before it is not counted; one that ended after it adds to
	 * total_ns and to the holders' totals from there, and its whole
	 * length to hist.
	 */
	uint64_t from;
	struct fs_episode ep;	/* the open episode, or the last one */
	struct fs_hist hist;	/* lengths of the episodes seen whole, ns */
	uint64_t total_ns;	/* their sum, and of partial ones */
	uint64_t ends[FS_END_NR];	/* episodes by how they ended */
	uint64_t partial;	/* ended, but began before they were seen */
	uint64_t dropped;	/* open when events were lost */
	uint64_t orphans;	/* hold, leave or end with no episode open */
	uint64_t unstarved_boosts;	/* boosts while no fair task starved */
	/* The starvation each holder caused, over every episode. */
	struct fs_hold holders[FS_HOLDERS];
	unsigned int nr_holders;
	uint64_t other_holders_ns;
};

/* The model and statistics of one CPU. */
struct fs_cpu {
	int cpu;
	uint64_t last_ts;	/* of the last event applied */
	uint64_t invalid;	/* events the models could not apply */
	uint64_t lost_marks;	/* times events were lost */
	uint64_t offline_ns;	/* time spent offline */
	uint64_t offline_since;
	struct fs_server srv;
	struct fs_starve st;
};

/* What one event completed, for thresholds, tables and lists. */
struct fs_outcome {
	bool invalid;		/* not applied: out of order, or no such edge */
	/* The server. */
	bool server_wait;	/* a boost ended a server wait of this long */
	uint64_t server_wait_ns;
	bool preemption;	/* a hold-off ended: preempt_ns */
	uint64_t preempt_ns;
	uint64_t served_ns;	/* a serving episode ended: what it served */
	/* Starvation: an episode ended (or, at the end of a run, is open). */
	const struct fs_episode *episode;
	/* Waits that ended with this event: the episode's, or one that left. */
	const struct fs_wait *waits;
	unsigned int nr_waits;
	/*
	 * A fair task that waited runs (sched_fair_starve_ran): the time a
	 * higher class held its CPU over its whole wait, NULL if none; and
	 * when it ran.
	 */
	const struct fs_task *ran;
	uint64_t ran_ns;
	uint64_t ran_at;
};

/* Short and long names, for output. */
const char *fs_state_name(enum fs_state st);
const char *fs_state_letter(enum fs_state st);

/* The state that event flags describe. */
enum fs_state fs_state_of(unsigned int flags);

/* Whether the state machine has an edge from @from to @to for @ev. */
bool fs_transition_valid(enum fs_ev ev, enum fs_state from, enum fs_state to);

/* Set up a CPU's model; histograms in ns. Returns 0 or -1 (errno). */
int fs_cpu_init(struct fs_cpu *c, int cpu, uint64_t bucket_ns,
		unsigned int entries);
void fs_cpu_free(struct fs_cpu *c);

/*
 * The run's window opens at trace time @from: the figures count what
 * happens from there. Earlier events (the server's, turned on first so
 * that its state is known when the window opens) only set the state, and
 * a serving episode under way at @from is not counted, as one still
 * open at the end is not. A starvation episode that ended before @from
 * is not counted either; one under way then ends inside the window and
 * is known whole: its length is a sample, and the starved time counts
 * from @from.
 */
void fs_cpu_window(struct fs_cpu *c, uint64_t from);

/* Feed one event of this CPU, in timestamp order. */
void fs_cpu_event(struct fs_cpu *c, const struct fs_event *ev,
		  struct fs_outcome *out);

/*
 * The end of a run at trace time @now: close what a held stop left open,
 * and hand back the open starvation episode, if any, as open.
 */
void fs_cpu_finish(struct fs_cpu *c, uint64_t now, struct fs_outcome *out);

/* The open episode's length at trace time @now; 0 if none is open. */
uint64_t fs_cpu_open_ns(const struct fs_cpu *c, uint64_t now);

/* What went over a -T threshold. */
enum fs_over {
	FS_OVER_NONE,
	FS_OVER_STARVATION,	/* an episode, ended or handed back open */
	FS_OVER_PREEMPTION,	/* a hold-off of real-time tasks */
	FS_OVER_OPEN,		/* an episode still open, seen while it lasts */
};

/* Whether what @out completed is longer than @limit; its length in @ns. */
enum fs_over fs_over_outcome(const struct fs_outcome *out, uint64_t limit,
			     uint64_t *ns);

/*
 * Whether the episode of @c still open at @safe, the time up to which
 * every event was applied, is longer than @limit; its length in @ns.
 */
enum fs_over fs_over_open(const struct fs_cpu *c, uint64_t safe,
			  uint64_t limit, uint64_t *ns);

/* Add @src's statistics into @dst (the ALL row). */
int fs_cpu_merge(struct fs_cpu *dst, const struct fs_cpu *src);

/* server.c: the server's part, called by the CPU model. */
int fs_server_init(struct fs_server *s, uint64_t bucket_ns,
		   unsigned int entries);
void fs_server_free(struct fs_server *s);
void fs_server_event(struct fs_server *s, const struct fs_event *ev,
		     struct fs_outcome *out);
void fs_server_reset(struct fs_server *s, enum fs_state st, uint64_t ts,
		     struct fs_outcome *out);
void fs_server_finish(struct fs_server *s, struct fs_outcome *out);
void fs_server_wait(struct fs_server *s, const struct fs_event *ev);
int fs_server_merge(struct fs_server *dst, const struct fs_server *src);

/* starve.c: the starvation part, called by the CPU model. */
int fs_starve_init(struct fs_starve *s, int cpu, uint64_t bucket_ns,
		   unsigned int entries);
void fs_starve_free(struct fs_starve *s);
void fs_starve_event(struct fs_starve *s, const struct fs_event *ev,
		     enum fs_state server, struct fs_outcome *out);
void fs_starve_drop(struct fs_starve *s);
void fs_starve_boost(struct fs_starve *s, bool counted);
void fs_starve_server(struct fs_starve *s, uint64_t ts, enum fs_state st);
/* A copy @ep of an open episode, as it stands at @now, holders sorted. */
void fs_episode_at(struct fs_episode *ep, uint64_t now);
void fs_starve_finish(struct fs_starve *s, uint64_t now,
		      struct fs_outcome *out);
int fs_starve_merge(struct fs_starve *dst, const struct fs_starve *src);
/* The holder that caused the most starvation up to @now; false if none. */
bool fs_starve_top_holder(const struct fs_starve *s, uint64_t now,
			  struct fs_hold *out);

#endif
