// SPDX-License-Identifier: GPL-2.0
/*
 * The fair server's state machine and the statistics derived from it.
 * See model.h for the states.
 */
#include <errno.h>
#include <string.h>

#include "model.h"

#define EDGE(from, to)	(1u << ((from) * FS_ST_NR + (to)))
#define A		FS_ST_INIT
#define B		FS_ST_ZL_WAIT
#define D		FS_ST_RUNNING
#define E		FS_ST_REPL_WAIT

/*
 * The edges each event may take, read off kernel/sched/deadline.c (6.12).
 * An event that fires inside another transition sees the flags of its
 * middle: the defer event of dl_server_start() comes before the start
 * event and already has the active flag, so it takes A->B itself.
 */
static const unsigned int edges[FS_EV_NR] = {
	/* dl_server_start(): deferred, or straight to running. */
	[FS_EV_START]	  = EDGE(A, B) | EDGE(A, D) | EDGE(B, B) | EDGE(D, D),
	/* dl_server_stop(), from any active state. */
	[FS_EV_STOP]	  = EDGE(B, A) | EDGE(D, A) | EDGE(E, A),
	/* Timer armed: on start, after a postponement or a replenishment
	 * that defers again, and when pushed forward while waiting. */
	[FS_EV_DEFER]	  = EDGE(A, B) | EDGE(B, B) | EDGE(E, B),
	/* Runtime used up in the background: a new period, still waiting. */
	[FS_EV_POSTPONE]  = EDGE(B, B) | EDGE(E, B),
	/* Zero-laxity timer fired with runtime left. */
	[FS_EV_BOOST]	  = EDGE(B, B),
	/* Idle time used up the runtime; charged in any state. */
	[FS_EV_IDLE]	  = EDGE(A, A) | EDGE(B, B) | EDGE(D, D) | EDGE(E, E),
	/* Runtime exhausted while serving. */
	[FS_EV_THROTTLE]  = EDGE(D, E),
	/* Replenished: serve now, or wait for the zero-laxity time again. */
	[FS_EV_REPLENISH] = EDGE(B, D) | EDGE(E, D) | EDGE(E, B) | EDGE(B, B) |
			    EDGE(D, D),
	/* Parameters change no state by themselves. */
	[FS_EV_PARAMS]	  = 0,
};

static const char *const state_names[FS_ST_NR] = {
	[FS_ST_UNKNOWN]		= "unknown",
	[FS_ST_INIT]		= "init",
	[FS_ST_ZL_WAIT]		= "zero_laxity-wait",
	[FS_ST_RUNNING]		= "running",
	[FS_ST_REPL_WAIT]	= "replenish-wait",
};

static const char *const state_letters[FS_ST_NR] = {
	[FS_ST_UNKNOWN]		= "?",
	[FS_ST_INIT]		= "A",
	[FS_ST_ZL_WAIT]		= "B",
	[FS_ST_RUNNING]		= "D",
	[FS_ST_REPL_WAIT]	= "E",
};

static const char *const ev_names[FS_EV_NR] = {
	[FS_EV_START]		= "server_start",
	[FS_EV_STOP]		= "server_stop",
	[FS_EV_DEFER]		= "server_defer",
	[FS_EV_POSTPONE]	= "server_postpone",
	[FS_EV_BOOST]		= "server_boost",
	[FS_EV_IDLE]		= "server_idle",
	[FS_EV_THROTTLE]	= "throttle",
	[FS_EV_REPLENISH]	= "replenish",
	[FS_EV_PARAMS]		= "server_params",
};

/* Long name of a state, as in deadline.c. */
const char *fs_state_name(enum fs_state st)
{
	return st < FS_ST_NR ? state_names[st] : "invalid";
}

/* One-letter name of a state, as in deadline.c. */
const char *fs_state_letter(enum fs_state st)
{
	return st < FS_ST_NR ? state_letters[st] : "!";
}

/* Name of an event without its sched_dl_ prefix: the tracefs name. */
const char *fs_ev_name(enum fs_ev ev)
{
	return ev < FS_EV_NR ? ev_names[ev] : "invalid";
}

/* The state a set of event flags describes. */
enum fs_state fs_state_of(unsigned int flags)
{
	if (!(flags & FS_FLAG_ACTIVE))
		return FS_ST_INIT;
	if (!(flags & FS_FLAG_THROTTLED))
		return FS_ST_RUNNING;
	return (flags & FS_FLAG_ARMED) ? FS_ST_ZL_WAIT : FS_ST_REPL_WAIT;
}

/* Whether @ev may move the server from @from to @to. */
bool fs_transition_valid(enum fs_ev ev, enum fs_state from, enum fs_state to)
{
	if (ev >= FS_EV_NR || from >= FS_ST_NR || to >= FS_ST_NR)
		return false;
	if (ev == FS_EV_PARAMS || from == FS_ST_UNKNOWN)
		return true;
	return edges[ev] & EDGE(from, to);
}

/* Set up one CPU's model with empty statistics. */
int fs_cpu_init(struct fs_cpu *c, int cpu, uint64_t bucket_ns,
		unsigned int entries)
{
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	c->state = FS_ST_UNKNOWN;
	if (fs_hist_init(&c->starvation, bucket_ns, entries))
		return -1;
	if (fs_hist_init(&c->preempt, bucket_ns, entries)) {
		fs_hist_free(&c->starvation);
		return -1;
	}
	return 0;
}

/* Release one CPU's model. */
void fs_cpu_free(struct fs_cpu *c)
{
	fs_hist_free(&c->starvation);
	fs_hist_free(&c->preempt);
}

/* Fair tasks begin to wait for the server at @ev. */
static void wait_begin(struct fs_cpu *c, const struct fs_event *ev)
{
	c->waiting = true;
	c->wait_start = ev->ts;
	c->wait_runtime = ev->runtime;
	c->wait_deadline = ev->deadline;
	c->consumed = 0;
	c->wait_idle = false;
}

/*
 * Runtime the fair tasks (or idle time) used in the background since the
 * wait began, seen through the runtime the events carry. Only meaningful
 * within one period, hence the deadline check.
 */
static void wait_account(struct fs_cpu *c, const struct fs_event *ev)
{
	if (!c->waiting || ev->deadline != c->wait_deadline ||
	    ev->runtime >= c->wait_runtime)
		return;
	c->consumed = (uint64_t)(c->wait_runtime - ev->runtime);
}

/* A segment of D begins at @ev: a D entry, or a start back to D. */
static void segment_begin(struct fs_cpu *c, const struct fs_event *ev)
{
	c->seg_start = ev->ts;
	c->seg_runtime = ev->runtime;
}

/*
 * The server starts serving at @ev. For a boost, the wait ends here; it is
 * counted when the episode ends, once it is known to have served anything.
 */
static void serve_begin(struct fs_cpu *c, const struct fs_event *ev,
			bool boosted)
{
	segment_begin(c, ev);
	c->serve_active = 0;
	c->serve_used = 0;
	c->serve_boosted = boosted;
	/* After the CPU idled its runtime away, nothing starved. */
	c->serve_idle_wait = boosted && c->waiting && c->wait_idle;
	c->serve_wait_known = boosted && c->waiting;
	c->serve_waited = 0;
	if (c->serve_wait_known) {
		uint64_t waited = ev->ts - c->wait_start;

		c->serve_waited = waited > c->consumed ? waited - c->consumed : 0;
	}
	c->waiting = false;
}

/* The server leaves D at @ev: close the current segment. */
static void segment_end(struct fs_cpu *c, const struct fs_event *ev)
{
	int64_t used = c->seg_runtime - ev->runtime;

	c->serve_active += ev->ts - c->seg_start;
	if (used > 0)
		c->serve_used += (uint64_t)used;
}

/*
 * The serving episode ends; its last segment is closed. A boost that
 * served nothing (6.12 boosts an idle CPU's server when its timer fires,
 * and it stops at once) is no starvation and kept no RT task off the CPU.
 */
static void serve_end(struct fs_cpu *c, struct fs_outcome *out)
{
	out->served_ns = c->serve_used;
	c->served_total += out->served_ns;
	if (!c->serve_boosted)
		return;
	if (c->serve_idle_wait || !out->served_ns) {
		c->idle_boosts++;
		return;
	}
	c->boosts++;
	fs_stat_add(&c->served_boost, out->served_ns);
	if (c->serve_wait_known) {
		fs_hist_add(&c->starvation, c->serve_waited);
		out->starvation = true;
		out->starvation_ns = c->serve_waited;
	}
	out->preemption = true;
	out->preempt_ns = c->serve_active;
	fs_hist_add(&c->preempt, out->preempt_ns);
}

/* Check one transition, then update the state and the statistics. */
static void step(struct fs_cpu *c, const struct fs_event *ev,
		 struct fs_outcome *out)
{
	enum fs_state from = c->state, to;

	to = fs_state_of(ev->flags);
	if (!fs_transition_valid(ev->type, from, to)) {
		c->invalid++;
		out->invalid = true;
	}

	if (c->stop_held) {
		c->stop_held = false;
		if (ev->type == FS_EV_START && to == FS_ST_RUNNING) {
			/* Resumed: the episode goes on from here. */
			segment_begin(c, ev);
			c->state = to;
			return;
		}
		serve_end(c, out);
	}

	if (from == FS_ST_RUNNING && to != FS_ST_RUNNING) {
		segment_end(c, ev);
		if (ev->type == FS_EV_STOP)
			c->stop_held = true;
		else
			serve_end(c, out);
	}

	switch (ev->type) {
	case FS_EV_START:
		/* A fair task became runnable: its wait starts now. */
		wait_begin(c, ev);
		break;
	case FS_EV_POSTPONE:
		/* Fair tasks just ran out the runtime in the background. */
		wait_begin(c, ev);
		break;
	case FS_EV_STOP:
		c->waiting = false;
		break;
	case FS_EV_IDLE:
		c->wait_idle = true;
		break;
	default:
		wait_account(c, ev);
		break;
	}

	if (to == FS_ST_RUNNING && from != FS_ST_RUNNING) {
		/*
		 * Serving because of starvation: the zero-laxity timer fired
		 * (B->D), or a replenishment while still serving one (E->D).
		 */
		serve_begin(c, ev, from == FS_ST_ZL_WAIT ||
				   from == FS_ST_REPL_WAIT);
	} else if (from == FS_ST_RUNNING && to != FS_ST_RUNNING &&
		   to != FS_ST_INIT) {
		/* Throttled: fair tasks wait again from here. */
		wait_begin(c, ev);
	}

	if (to != from)
		c->state_since = ev->ts;
	c->state = to;
}

/* Feed one event of this CPU: count it, then move the model. */
void fs_cpu_event(struct fs_cpu *c, const struct fs_event *ev,
		  struct fs_outcome *out)
{
	memset(out, 0, sizeof(*out));
	if (ev->type >= FS_EV_NR)
		return;
	c->count[ev->type]++;
	c->dl_runtime = ev->dl_runtime;
	c->dl_period = ev->dl_period;
	if (ev->type == FS_EV_PARAMS)
		return;

	/*
	 * Tracepoints do not fire on a CPU that is going offline, so the
	 * stop of its server in sched_cpu_dying() is never seen: the next
	 * event finds the server inactive. Only dl_server_stop() makes it
	 * so; take that event as the stop first, then as itself.
	 */
	if (c->state != FS_ST_UNKNOWN && c->state != FS_ST_INIT &&
	    ev->type != FS_EV_STOP && fs_state_of(ev->flags) == FS_ST_INIT) {
		struct fs_event stop = *ev;

		stop.type = FS_EV_STOP;
		c->untraced_stops++;
		step(c, &stop, out);
	}
	step(c, ev, out);
}

/* Close the episode a held stop ended, at the end of a run. */
void fs_cpu_finish(struct fs_cpu *c, struct fs_outcome *out)
{
	memset(out, 0, sizeof(*out));
	if (!c->stop_held)
		return;
	c->stop_held = false;
	serve_end(c, out);
}

/* Add one CPU's statistics to the ALL model. */
int fs_cpu_merge(struct fs_cpu *dst, const struct fs_cpu *src)
{
	int i;

	/* Both histograms of a CPU share one geometry: check it first. */
	if (dst->preempt.bucket_size != src->preempt.bucket_size ||
	    dst->preempt.entries != src->preempt.entries) {
		errno = EINVAL;
		return -1;
	}
	if (fs_hist_merge(&dst->starvation, &src->starvation) ||
	    fs_hist_merge(&dst->preempt, &src->preempt))
		return -1;
	for (i = 0; i < FS_EV_NR; i++)
		dst->count[i] += src->count[i];
	dst->boosts += src->boosts;
	dst->idle_boosts += src->idle_boosts;
	dst->invalid += src->invalid;
	dst->untraced_stops += src->untraced_stops;
	dst->served_total += src->served_total;
	fs_stat_merge(&dst->served_boost, &src->served_boost);
	return 0;
}
