// SPDX-License-Identifier: GPL-2.0
/*
 * The fair server's state machine and the statistics derived from it:
 * boosts, the server's wait, RT preemption and served runtime. See
 * model.h for the states, fs_events[] (event.c) for each event's edges.
 */
#include <errno.h>
#include <string.h>

#include "model.h"

/*
 * A throttle and the replenishment that the same call makes come this
 * close at most (tens of us under the emulator): see late_replenish().
 */
#define LATE_SLACK_NS	100000ULL

static const char *const state_names[FS_ST_NR] = {
	[FS_ST_UNKNOWN]		= "unknown",
	[FS_ST_OFF]		= "off",
	[FS_ST_OFFLINE]		= "offline",
	[FS_ST_INIT]		= "init",
	[FS_ST_ZL_WAIT]		= "zero_laxity-wait",
	[FS_ST_RUNNING]		= "running",
	[FS_ST_REPL_WAIT]	= "replenish-wait",
};

static const char *const state_letters[FS_ST_NR] = {
	[FS_ST_UNKNOWN]		= "?",
	[FS_ST_OFF]		= "off",
	[FS_ST_OFFLINE]		= "down",
	[FS_ST_INIT]		= "A",
	[FS_ST_ZL_WAIT]		= "B",
	[FS_ST_RUNNING]		= "D",
	[FS_ST_REPL_WAIT]	= "E",
};

/* Long name of a state, as in deadline.c. */
const char *fs_state_name(enum fs_state st)
{
	return st < FS_ST_NR ? state_names[st] : "invalid";
}

/* Short name of a state: deadline.c's letter, or the tool's word. */
const char *fs_state_letter(enum fs_state st)
{
	return st < FS_ST_NR ? state_letters[st] : "!";
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

/* Whether @ev may move the server from @from to @to: its edges. */
bool fs_transition_valid(enum fs_ev ev, enum fs_state from, enum fs_state to)
{
	if (!fs_ev_server(ev) || from >= FS_ST_NR || to >= FS_ST_NR)
		return false;
	/* Parameters change no state by themselves. */
	if (fs_events[ev].edges == FS_EDGES_ANY)
		return true;
	/* Nothing known to check against: learn the state. */
	if (from == FS_ST_UNKNOWN || from == FS_ST_OFF ||
	    from == FS_ST_OFFLINE)
		return true;
	if (to < FS_ST_INIT)
		return false;
	return fs_events[ev].edges & FS_EDGE(from, to);
}

/* Set up a server model with empty statistics. */
int fs_server_init(struct fs_server *s, uint64_t bucket_ns,
		   unsigned int entries)
{
	memset(s, 0, sizeof(*s));
	s->state = FS_ST_UNKNOWN;
	if (fs_hist_init(&s->wait, bucket_ns, entries))
		return -1;
	if (fs_hist_init(&s->preempt, bucket_ns, entries)) {
		fs_hist_free(&s->wait);
		return -1;
	}
	return 0;
}

/* Release a server model. */
void fs_server_free(struct fs_server *s)
{
	fs_hist_free(&s->wait);
	fs_hist_free(&s->preempt);
}

/* The server begins to wait for its zero-laxity time at @ev. */
static void wait_begin(struct fs_server *s, const struct fs_event *ev)
{
	s->waiting = true;
	s->wait_start = ev->ts;
	s->wait_runtime = ev->runtime;
	s->wait_deadline = ev->deadline;
	s->consumed = 0;
	s->wait_idle = false;
}

/*
 * Runtime the fair tasks (or idle time) used in the background since the
 * wait began, seen through the runtime the events carry. Only meaningful
 * within one period, hence the deadline check.
 */
static void wait_account(struct fs_server *s, const struct fs_event *ev)
{
	if (!s->waiting || ev->deadline != s->wait_deadline ||
	    ev->runtime >= s->wait_runtime)
		return;
	s->consumed = (uint64_t)(s->wait_runtime - ev->runtime);
}

/* A segment of D begins at @ts with @runtime left, real-time @rt_wait. */
static void segment_begin(struct fs_server *s, uint64_t ts, int64_t runtime,
			  uint64_t rt_wait)
{
	s->seg_start = ts;
	s->seg_runtime = runtime;
	s->seg_rt_wait = rt_wait;
}

/*
 * The server starts serving at @ev. For a boost, the wait ends here; it is
 * counted when the episode ends, once it is known to have served anything.
 * An episode begun before the window is followed but never counted.
 */
static void serve_begin(struct fs_server *s, const struct fs_event *ev,
			bool boosted)
{
	s->serving = ev->ts >= s->from;
	segment_begin(s, ev->ts, ev->runtime, ev->rt_wait);
	s->serve_active = 0;
	s->serve_used = 0;
	s->serve_rt = 0;
	s->serve_boosted = boosted;
	/* After the CPU idled its runtime away, nothing starved. */
	s->serve_idle_wait = boosted && s->waiting && s->wait_idle;
	s->serve_wait_known = boosted && s->waiting;
	s->serve_waited = 0;
	if (s->serve_wait_known) {
		uint64_t waited = ev->ts - s->wait_start;

		s->serve_waited = waited > s->consumed ? waited - s->consumed : 0;
	}
	s->waiting = false;
}

/* A serving episode kept real-time tasks off the CPU for @ns. */
static void preempted(struct fs_server *s, struct fs_outcome *out,
		      uint64_t ns)
{
	out->preemption = true;
	out->preempt_ns = ns;
	fs_hist_add(&s->preempt, ns);
}

/* The server leaves D at @ts with @runtime left: close the segment. */
static void segment_end(struct fs_server *s, uint64_t ts, int64_t runtime,
			uint64_t rt_wait)
{
	int64_t used = s->seg_runtime - runtime;

	s->serve_active += ts - s->seg_start;
	if (used > 0)
		s->serve_used += (uint64_t)used;
	if (rt_wait > s->seg_rt_wait)
		s->serve_rt += rt_wait - s->seg_rt_wait;
}

/*
 * A stop ends a segment with real-time tasks waiting: the server found no
 * fair task to serve, so the highest of them runs now. With rt_wait, what
 * they waited in the segment is one hold-off, a sample of its own: an
 * episode that a fair task's sleeps split (6.12 starts a boosted server
 * straight back in D at its next wake-up) keeps them off the CPU in
 * stretches, not all at once.
 */
static void hold_end(struct fs_server *s, struct fs_outcome *out)
{
	if (!s->serving || !s->rt_wait_known || !s->serve_rt)
		return;
	preempted(s, out, s->serve_rt);
	s->serve_rt = 0;
}

/*
 * The serving episode ends; its last segment is closed. RT preemption is
 * what real-time tasks waited in each hold-off (hold_end(), here for the
 * last) when the events' rt_wait says so: any episode, however it began,
 * in which they waited. Without it, the episode's time in D stands for it,
 * for boosts that served: a boost that served nothing (6.12 boosts an idle
 * CPU's server when its timer fires, and it stops at once), or during
 * which the CPU idled, kept no RT task off the CPU.
 */
static void serve_end(struct fs_server *s, struct fs_outcome *out)
{
	bool served;

	if (!s->serving)
		return;
	hold_end(s, out);
	s->serving = false;
	out->served_ns = s->serve_used;
	s->served_total += out->served_ns;
	if (!s->serve_boosted)
		return;
	served = !s->serve_idle_wait && out->served_ns;
	if (!served) {
		s->idle_boosts++;
		return;
	}
	s->boosts++;
	fs_stat_add(&s->served_boost, out->served_ns);
	if (s->serve_wait_known) {
		fs_hist_add(&s->wait, s->serve_waited);
		out->server_wait = true;
		out->server_wait_ns = s->serve_waited;
	}
	if (!s->rt_wait_known)
		preempted(s, out, s->serve_active);
}

/* What real-time tasks waited from the throttle to @ev (NULL: none). */
static uint64_t tail_rt(const struct fs_server *s, const struct fs_event *ev)
{
	if (!ev || ev->rt_wait <= s->tail_rt_wait)
		return 0;
	return ev->rt_wait - s->tail_rt_wait;
}

/* The tail held open since the throttle ends: @tail ns served, @rt waited. */
static void tail_add(struct fs_server *s, uint64_t tail, uint64_t rt)
{
	s->tail_held = false;
	s->serve_active += tail;
	s->serve_used += tail;
	s->serve_rt += rt;
}

/*
 * The episode a throttle left open ends at @ev, the next server event
 * (NULL: none, or one past missed events). The tail, if its switch was
 * seen, was served, and the real-time tasks' wait through it is the
 * events' rt_wait since the throttle; with rt_wait known, a tail through
 * which no real-time task waited is not counted: nothing was kept off.
 */
static void tail_close(struct fs_server *s, const struct fs_event *ev,
		       struct fs_outcome *out)
{
	uint64_t rt = tail_rt(s, ev), tail = 0;

	if (s->tail_end && (!s->rt_wait_known || rt))
		tail = s->tail_end - s->tail_start;
	tail_add(s, tail, rt);
	serve_end(s, out);
}

/*
 * Whether @ev, a replenishment back to D after a throttle, is 6.12's late
 * exhaustion: the runtime ran out past the deadline, start_dl_timer()
 * failed and update_curr_dl_se() replenished at once, in the same call.
 * The fair task kept the CPU and the real-time tasks waited on: one
 * episode, one hold-off. Otherwise the replenishment timer fired at the
 * deadline, and a real-time task ran in between, even where no fair task
 * was seen made to wait (the one served went to sleep). So: no switch
 * ended the tail, and the two events are LATE_SLACK_NS apart at most, or
 * the real-time tasks waited (rt_wait) all the time between them but that
 * (the emulator can stand a virtual CPU still between the two events).
 */
static bool late_replenish(const struct fs_server *s,
			   const struct fs_event *ev, enum fs_state from,
			   enum fs_state to)
{
	uint64_t gap = ev->ts - s->tail_start;

	if (!s->tail_held || s->tail_end || ev->type != FS_EV_REPLENISH ||
	    from != FS_ST_REPL_WAIT || to != FS_ST_RUNNING)
		return false;
	return gap <= LATE_SLACK_NS ||
	       (s->rt_wait_known && tail_rt(s, ev) + LATE_SLACK_NS >= gap);
}

/* The episode a late throttle held open goes on at @ev, its tail served. */
static void tail_resume(struct fs_server *s, const struct fs_event *ev)
{
	tail_add(s, ev->ts - s->tail_start, tail_rt(s, ev));
	s->waiting = false;
	segment_begin(s, ev->ts, ev->runtime, ev->rt_wait);
}

/*
 * Close the episode a stop or a throttle held open, whole as it stood
 * (@ev: the server's next event, for a throttle's tail; NULL when none
 * can say what came after).
 */
static void held_close(struct fs_server *s, const struct fs_event *ev,
		       struct fs_outcome *out)
{
	if (s->tail_held) {
		tail_close(s, ev, out);
	} else if (s->stop_held) {
		s->stop_held = false;
		serve_end(s, out);
	}
}

/* A parameter write, or the parameters found at start. */
static void params(struct fs_server *s, const struct fs_event *ev)
{
	if (ev->type == FS_EV_PARAMS && ev->ret < 0 && ev->ts >= s->from)
		s->refused++;
	s->dl_runtime = ev->dl_runtime;
	s->dl_period = ev->dl_period;
	if (!ev->dl_runtime)
		s->state = FS_ST_OFF;
	else if (s->state == FS_ST_OFF)
		s->state = ev->type == FS_EV_PARAMS ? FS_ST_INIT : FS_ST_UNKNOWN;
}

/* Forget what is open: events were lost or missed; nothing is counted. */
static void forget(struct fs_server *s)
{
	s->waiting = false;
	s->serving = false;
	s->stop_held = false;
	s->tail_held = false;
	s->state = FS_ST_UNKNOWN;
}

/* Check one transition, then update the state and the statistics. */
static void step(struct fs_server *s, const struct fs_event *ev,
		 struct fs_outcome *out)
{
	enum fs_state from = s->state, to;

	to = fs_state_of(ev->flags);
	if (!fs_transition_valid(ev->type, from, to)) {
		/*
		 * Something was missed: never a figure across it. An episode
		 * a stop ended is whole; one still in D is not counted.
		 */
		out->invalid = true;
		held_close(s, NULL, out);
		forget(s);
		s->state = to;
		return;
	}

	if (late_replenish(s, ev, from, to)) {
		tail_resume(s, ev);
		s->state = to;
		return;
	}
	if (s->tail_held)
		tail_close(s, ev, out);
	if (s->stop_held) {
		s->stop_held = false;
		if (ev->type == FS_EV_START && to == FS_ST_RUNNING) {
			/* Resumed: the episode goes on from here. */
			segment_begin(s, ev->ts, ev->runtime, ev->rt_wait);
			s->state = to;
			return;
		}
		serve_end(s, out);
	}

	if (from == FS_ST_RUNNING && to != FS_ST_RUNNING) {
		segment_end(s, ev->ts, ev->runtime, ev->rt_wait);
		if (ev->type == FS_EV_STOP) {
			s->stop_held = true;
			hold_end(s, out);
		} else if (s->serving) {
			s->tail_held = true;
			s->tail_start = ev->ts;
			s->tail_end = 0;
			s->tail_rt_wait = ev->rt_wait;
		}
	}

	switch (ev->type) {
	case FS_EV_START:
	case FS_EV_POSTPONE:
		/* Started, or the runtime ran out in the background. */
		wait_begin(s, ev);
		break;
	case FS_EV_STOP:
		s->waiting = false;
		break;
	case FS_EV_IDLE:
		if (from == FS_ST_RUNNING && s->serve_boosted) {
			/*
			 * Idle time used up the runtime of a boosted server:
			 * the CPU idled while it was "running", so no RT
			 * task was kept off it. It happens when the boost
			 * came while the CPU idled: the scheduler's fair
			 * fast path leaves the enqueued server unpicked
			 * until a fair task wakes and charges the idle time.
			 * What the charge took was not served.
			 */
			segment_end(s, ev->ts, s->seg_runtime, ev->rt_wait);
			segment_begin(s, ev->ts, ev->runtime, ev->rt_wait);
			s->serve_idle_wait = true;
		} else {
			s->wait_idle = true;
		}
		break;
	default:
		wait_account(s, ev);
		break;
	}

	if (to == FS_ST_RUNNING && from != FS_ST_RUNNING) {
		/*
		 * Serving because the zero-laxity time came: the boost (B->D),
		 * or a replenishment while still serving one (E->D).
		 */
		serve_begin(s, ev, ev->type == FS_EV_BOOST ||
				   from == FS_ST_ZL_WAIT ||
				   from == FS_ST_REPL_WAIT);
	} else if (from == FS_ST_RUNNING && to != FS_ST_RUNNING &&
		   to != FS_ST_INIT) {
		/* Throttled: the server waits again from here. */
		wait_begin(s, ev);
	}
	s->state = to;
}

/* Feed one server event (or FOUND): count it, then move the model. */
void fs_server_event(struct fs_server *s, const struct fs_event *ev,
		     struct fs_outcome *out)
{
	bool counted = ev->ts >= s->from;

	if (ev->type == FS_EV_FOUND || ev->type == FS_EV_PARAMS) {
		if (ev->type == FS_EV_PARAMS && counted)
			s->count[FS_EV_PARAMS]++;
		params(s, ev);
		return;
	}
	if (!fs_ev_server(ev->type))
		return;
	if (counted)
		s->count[ev->type]++;
	s->dl_runtime = ev->dl_runtime;
	s->dl_period = ev->dl_period;
	if (s->state == FS_ST_OFFLINE)
		return;

	step(s, ev, out);
}

/*
 * The state is set from outside the events at @ts: the CPU went offline
 * (FS_ST_OFFLINE: what was serving ends there), came back (FS_ST_INIT: it
 * died with its server stopped), or events were lost (FS_ST_UNKNOWN).
 */
void fs_server_reset(struct fs_server *s, enum fs_state st, uint64_t ts,
		     struct fs_outcome *out)
{
	if (st == FS_ST_UNKNOWN) {
		forget(s);
		return;
	}
	if (st == FS_ST_OFFLINE) {
		if (s->state == FS_ST_RUNNING) {
			/* Served until now: no runtime figure, the time is it. */
			segment_end(s, ts, s->seg_runtime -
				    (int64_t)(ts - s->seg_start), s->seg_rt_wait);
			serve_end(s, out);
		} else {
			held_close(s, NULL, out);
		}
		s->waiting = false;
	}
	if (s->state != FS_ST_OFF)
		s->state = st;
}

/*
 * A fair task begins to wait at @ev: if a higher class took the CPU from
 * it (or from the task that left it), the tail of a throttle ends there.
 */
void fs_server_wait(struct fs_server *s, const struct fs_event *ev)
{
	if (!s->tail_held || s->tail_end)
		return;
	if (ev->why == FS_WAIT_PREEMPTED || ev->why == FS_WAIT_QUEUED)
		s->tail_end = ev->ts;
}

/* Close the episode a held stop or throttle ended, at the end of a run. */
void fs_server_finish(struct fs_server *s, struct fs_outcome *out)
{
	held_close(s, NULL, out);
}

/* Add @src's statistics into @dst. */
int fs_server_merge(struct fs_server *dst, const struct fs_server *src)
{
	int i;

	if (fs_hist_merge(&dst->wait, &src->wait) ||
	    fs_hist_merge(&dst->preempt, &src->preempt))
		return -1;
	for (i = 0; i < FS_EV_SERVER_NR; i++)
		dst->count[i] += src->count[i];
	dst->boosts += src->boosts;
	dst->idle_boosts += src->idle_boosts;
	dst->refused += src->refused;
	dst->served_total += src->served_total;
	fs_stat_merge(&dst->served_boost, &src->served_boost);
	return 0;
}
