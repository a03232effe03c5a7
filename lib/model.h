/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-CPU model of the fair server (a deferred dl_server), rebuilt from
 * the sched_dl_* trace events. Pure code: it consumes decoded events and
 * keeps statistics; it never reads tracefs.
 *
 * The states are those of the comment above dl_server_start() in
 * kernel/sched/deadline.c, as 6.12 implements them. Each event carries the
 * server's flags after the transition, and the state is a function of them:
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
 */
#ifndef FAIRSRV_MODEL_H
#define FAIRSRV_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "hist.h"

/* The flags field of the events, as include/trace/events/sched.h has it. */
#define FS_FLAG_ACTIVE		0x01
#define FS_FLAG_THROTTLED	0x02
#define FS_FLAG_ARMED		0x04
#define FS_FLAG_RUNNING		0x08

enum fs_state {
	FS_ST_UNKNOWN,		/* no event seen yet on this CPU */
	FS_ST_INIT,		/* A */
	FS_ST_ZL_WAIT,		/* B */
	FS_ST_RUNNING,		/* D */
	FS_ST_REPL_WAIT,	/* E */
	FS_ST_NR
};

/* The events, named after sched_dl_<name> and sched_dl_server_<name>. */
enum fs_ev {
	FS_EV_START,
	FS_EV_STOP,
	FS_EV_DEFER,
	FS_EV_POSTPONE,
	FS_EV_BOOST,
	FS_EV_IDLE,
	FS_EV_THROTTLE,
	FS_EV_REPLENISH,
	FS_EV_PARAMS,
	FS_EV_NR
};

/* One decoded event of the fair server. */
struct fs_event {
	enum fs_ev type;
	uint64_t ts;		/* trace timestamp, ns */
	int cpu;
	unsigned int flags;	/* FS_FLAG_* */
	int64_t runtime;	/* budget left, ns */
	uint64_t deadline;	/* absolute, rq_clock ns */
	uint64_t dl_runtime;	/* parameters */
	uint64_t dl_period;
};

/* What one event completed, for thresholds and live output. */
struct fs_outcome {
	bool invalid;		/* the transition is not in the state machine */
	bool starvation;	/* a boost: starvation_ns is valid */
	bool preemption;	/* a serving episode ended: preempt_ns, served_ns */
	uint64_t starvation_ns;
	uint64_t preempt_ns;
	uint64_t served_ns;
};

/* The model and statistics of one CPU's server. */
struct fs_cpu {
	int cpu;
	enum fs_state state;
	uint64_t state_since;	/* ts of the event that entered state */
	uint64_t dl_runtime, dl_period;

	/* Counters. */
	uint64_t count[FS_EV_NR];
	uint64_t boosts;	/* serving started because fair tasks starved */
	uint64_t idle_boosts;	/* boosts that found nothing to serve */
	uint64_t invalid;	/* transitions the state machine does not have */
	uint64_t untraced_stops;	/* stops inferred: the CPU was offline */

	/* The stretch fair tasks have been waiting since, for starvation. */
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
	 * charged to the runtime while the server is stopped).
	 */
	uint64_t seg_start;	/* ts the current segment began */
	int64_t seg_runtime;	/* runtime then */
	uint64_t serve_active;	/* ns in D over the closed segments */
	uint64_t serve_used;	/* runtime used over the closed segments */
	bool serve_boosted;	/* it began with a boost */
	uint64_t serve_waited;	/* the starvation that boost ended */
	bool serve_wait_known;	/* the wait's start was seen */
	bool serve_idle_wait;	/* idle time used the runtime up meanwhile */
	/*
	 * A stop in D is often followed at once by a start straight back to
	 * D (the fair class briefly had nothing to pick): the same episode.
	 * The episode stays open after a stop until the next event tells
	 * which it was.
	 */
	bool stop_held;

	uint64_t served_total;	/* ns of runtime the server consumed */
	struct fs_stat served_boost;	/* per boosted episode, ns */
	struct fs_hist starvation;	/* per boost, ns */
	struct fs_hist preempt;		/* per boosted serving episode, ns */
};

/* Short and long names, for output. */
const char *fs_state_name(enum fs_state st);
const char *fs_state_letter(enum fs_state st);
const char *fs_ev_name(enum fs_ev ev);

/* The state that event flags describe. */
enum fs_state fs_state_of(unsigned int flags);

/* Whether the state machine has an edge from @from to @to for @ev. */
bool fs_transition_valid(enum fs_ev ev, enum fs_state from, enum fs_state to);

/* Set up a CPU's model; histograms in ns. Returns 0 or -1 (errno). */
int fs_cpu_init(struct fs_cpu *c, int cpu, uint64_t bucket_ns,
		unsigned int entries);
void fs_cpu_free(struct fs_cpu *c);

/* Feed one event of this CPU, in timestamp order. */
void fs_cpu_event(struct fs_cpu *c, const struct fs_event *ev,
		  struct fs_outcome *out);

/* Close what a held stop left open, at the end of a run. */
void fs_cpu_finish(struct fs_cpu *c, struct fs_outcome *out);

/* Add @src's statistics into @dst (the ALL row). */
int fs_cpu_merge(struct fs_cpu *dst, const struct fs_cpu *src);

#endif
