// SPDX-License-Identifier: GPL-2.0
/*
 * The events of the kernel series from a stock kernel's probes and
 * scheduler events; see derive.h.
 */
#include <stdlib.h>
#include <string.h>

#include "derive.h"

/* Set up the state of @nr_cpus CPUs: nothing known yet. */
int fs_derive_init(struct fs_derive *d, int nr_cpus)
{
	memset(d, 0, sizeof(*d));
	d->cpu = calloc(nr_cpus, sizeof(*d->cpu));
	if (!d->cpu)
		return -1;
	d->nr_cpus = nr_cpus;
	return 0;
}

/* Release the state. */
void fs_derive_free(struct fs_derive *d)
{
	free(d->cpu);
	d->cpu = NULL;
}

/* Real-time tasks' wait on @c at @ts, as the series' events give it. */
static uint64_t rt_wait_at(const struct fs_derive_cpu *c, uint64_t ts)
{
	if (!c->rt_open || ts < c->rt_since)
		return c->rt_wait;
	return c->rt_wait + (ts - c->rt_since);
}

/*
 * Whether real-time tasks wait on @c behind the fair server: one is queued
 * while a fair task runs with the server in D, which picked it then.
 */
static bool rt_waits(const struct fs_derive_cpu *c)
{
	return c->nr_rt && c->known && c->state == FS_ST_RUNNING &&
	       c->curr_known && fs_prio_fair(c->curr.pid, c->curr.prio);
}

/* Start or end @c's real-time wait at @ts, as things are now. */
static void rt_update(struct fs_derive_cpu *c, uint64_t ts)
{
	bool waits = rt_waits(c);

	if (waits == c->rt_open)
		return;
	if (waits)
		c->rt_since = ts;
	else
		c->rt_wait = rt_wait_at(c, ts);
	c->rt_open = waits;
}

/* Hand @ev on as a server event of @type, with @c's rt_wait. */
static void put(struct fs_derive_cpu *c, const struct fs_event *ev,
		enum fs_ev type, fs_derive_fn emit, void *ctx)
{
	struct fs_event out = *ev;

	out.type = type;
	out.rt_wait = rt_wait_at(c, ev->ts);
	c->rt_told = out.rt_wait;
	emit(ctx, &out);
}

/* The server's probes: see the table in derive.h. */
static void server(struct fs_derive_cpu *c, const struct fs_event *ev,
		   fs_derive_fn emit, void *ctx)
{
	enum fs_state from = c->known ? c->state : FS_ST_UNKNOWN;
	enum fs_state to = fs_state_of(ev->flags);
	struct fs_event mid;

	switch (ev->type) {
	case FS_EV_P_START:
		/*
		 * Every fair enqueue calls it, and it returns at once while
		 * the server is active: only the first after a stop starts.
		 * Where that is not known (the run's beginning, a loss), a
		 * server seen waiting for its replenishment (E) was active
		 * already: a start leads to B or D, never to E. A disabled
		 * server (runtime 0) returns at once too, and stays inactive.
		 */
		if (c->known && c->state == FS_ST_REPL_WAIT)
			c->started = true;
		if (c->started || !(ev->flags & FS_FLAG_ACTIVE))
			return;
		c->started = true;
		put(c, ev, FS_EV_START, emit, ctx);
		break;
	case FS_EV_P_NONCONT:
	case FS_EV_P_STOP:
		/*
		 * Seen on entry: what it leaves behind is A. A stop may be
		 * seen twice (dl_server_stop(), then the dequeue in it):
		 * once is enough.
		 */
		if (!(ev->flags & FS_FLAG_ACTIVE) || !ev->dl_runtime ||
		    (c->known && c->state == FS_ST_INIT))
			return;
		c->started = false;
		mid = *ev;
		mid.flags &= ~(FS_FLAG_ACTIVE | FS_FLAG_THROTTLED |
			       FS_FLAG_ARMED);
		put(c, &mid, FS_EV_STOP, emit, ctx);
		to = FS_ST_INIT;
		break;
	case FS_EV_P_TIMER:
		if (!ev->ret)
			return;
		if (ev->flags & FS_FLAG_ARMED) {
			/*
			 * Armed from D: the server ran out of runtime, its
			 * replenishment timer could not start (the period
			 * had ended already), and the replenishment made at
			 * once armed the defer, as an idle charge had taken
			 * it out of the running state. Its throttle was not
			 * seen (that timer's start failed): it comes first,
			 * with the period it ended and the runtime it ran
			 * out of (the overrun is not known), not the new ones.
			 */
			if (from == FS_ST_RUNNING) {
				mid = *ev;
				mid.flags &= ~FS_FLAG_ARMED;
				mid.runtime = 0;
				mid.deadline = c->deadline;
				put(c, &mid, FS_EV_THROTTLE, emit, ctx);
			}
			if (from == FS_ST_ZL_WAIT && ev->deadline != c->deadline)
				put(c, ev, FS_EV_POSTPONE, emit, ctx);
			put(c, ev, FS_EV_DEFER, emit, ctx);
		} else if (from == FS_ST_RUNNING && to == FS_ST_REPL_WAIT) {
			put(c, ev, FS_EV_THROTTLE, emit, ctx);
		} else {
			return;
		}
		break;
	case FS_EV_P_REPLENISH:
		put(c, ev, from == FS_ST_ZL_WAIT && to == FS_ST_RUNNING ?
		    FS_EV_BOOST : FS_EV_REPLENISH, emit, ctx);
		break;
	case FS_EV_P_FIRED:
		/* A boost or replenishment inside was seen by its probe. */
		if (from != FS_ST_ZL_WAIT || to != FS_ST_ZL_WAIT)
			return;
		put(c, ev, FS_EV_DEFER, emit, ctx);
		break;
	case FS_EV_P_IDLE_IN:
	case FS_EV_P_PUT_IN:
		c->idle_in = (ev->flags & FS_FLAG_ACTIVE) && ev->runtime > 0;
		return;
	case FS_EV_P_IDLE_OUT:
	case FS_EV_P_PUT_OUT:
		if (!c->idle_in || ev->runtime > 0 ||
		    !(ev->flags & FS_FLAG_ACTIVE)) {
			c->idle_in = false;
			return;
		}
		c->idle_in = false;
		put(c, ev, FS_EV_IDLE, emit, ctx);
		break;
	default:
		return;
	}
	c->known = true;
	c->state = to;
	c->deadline = ev->deadline;
}

/* @c's starvation clock at @ts: how long its episodes lasted. */
static uint64_t clock_at(const struct fs_derive_cpu *c, uint64_t ts)
{
	if (!c->open || ts < c->since)
		return c->clock;
	return c->clock + (ts - c->since);
}

/* The starvation @w met in its wait so far, on @c at @ts. */
static uint64_t starved_of(const struct fs_derive_cpu *c,
			   const struct fs_derive_wait *w, uint64_t ts)
{
	uint64_t now = clock_at(c, ts);

	return w->acc + (now > w->mark ? now - w->mark : 0);
}

/* The index of @pid among @c's queued tasks, or -1. */
static int find(const struct fs_derive_cpu *c, int pid)
{
	unsigned int i;

	for (i = 0; i < c->nr_queued; i++)
		if (c->queued[i].task.pid == pid)
			return (int)i;
	return -1;
}

/*
 * Queue @t on @c at @ts, having met @acc before; true if it was not queued
 * there yet (one that was keeps its mark).
 */
static bool enqueue(struct fs_derive *d, struct fs_derive_cpu *c,
		    const struct fs_task *t, uint64_t ts, uint64_t acc)
{
	struct fs_derive_wait *w;

	if (find(c, t->pid) >= 0)
		return false;
	if (c->nr_queued == FS_DERIVE_QUEUED) {
		d->untracked++;
		return false;
	}
	w = &c->queued[c->nr_queued++];
	w->task = *t;
	w->mark = clock_at(c, ts);
	w->acc = acc;
	return true;
}

/* Take @pid off @c's queue, into @w if not NULL; true if it was there. */
static bool dequeue(struct fs_derive_cpu *c, int pid, struct fs_derive_wait *w)
{
	int i = find(c, pid);

	if (i < 0)
		return false;
	if (w)
		*w = c->queued[i];
	c->queued[i] = c->queued[--c->nr_queued];
	return true;
}

/* The index of @pid among @c's queued real-time tasks, or -1. */
static int rt_find(const struct fs_derive_cpu *c, int pid)
{
	unsigned int i;

	for (i = 0; i < c->nr_rt; i++)
		if (c->rt[i] == pid)
			return (int)i;
	return -1;
}

/* Real-time task @pid is queued on @c, not running. */
static void rt_enqueue(struct fs_derive *d, struct fs_derive_cpu *c, int pid)
{
	if (rt_find(c, pid) >= 0)
		return;
	if (c->nr_rt == FS_DERIVE_RT) {
		d->rt_untracked++;
		return;
	}
	c->rt[c->nr_rt++] = pid;
}

/* Take @pid off @c's real-time tasks; true if it was there. */
static bool rt_dequeue(struct fs_derive_cpu *c, int pid)
{
	int i = rt_find(c, pid);

	if (i < 0)
		return false;
	c->rt[i] = c->rt[--c->nr_rt];
	return true;
}

/* A fresh event of @type for CPU @cpu at @ts. */
static struct fs_event mark(enum fs_ev type, int cpu, uint64_t ts)
{
	struct fs_event e;

	memset(&e, 0, sizeof(e));
	e.type = type;
	e.cpu = cpu;
	e.ts = ts;
	return e;
}

/* @t begins to wait on @c behind its current task. */
static void wait(struct fs_derive_cpu *c, int cpu, uint64_t ts,
		 const struct fs_task *t, unsigned int why, fs_derive_fn emit,
		 void *ctx)
{
	struct fs_event e = mark(FS_EV_WAIT, cpu, ts);

	e.task = *t;
	e.holder = c->curr;
	e.why = why;
	e.first = !c->open;
	if (!c->open) {
		c->open = true;
		c->since = ts;
	}
	emit(ctx, &e);
}

/* The episode open on @c ends at @ts, for @why; @ran runs, if named. */
static void end(struct fs_derive_cpu *c, int cpu, uint64_t ts,
		unsigned int why, const struct fs_task *ran,
		fs_derive_fn emit, void *ctx)
{
	struct fs_event e = mark(FS_EV_END, cpu, ts);

	if (ran)
		e.task = *ran;
	e.why = why;
	e.starved = ts - c->since;
	c->clock = clock_at(c, ts);
	c->open = false;
	emit(ctx, &e);
}

/* @t, a fair task that waited, runs on @c at @ts having met @starved. */
static void ran(int cpu, uint64_t ts, const struct fs_task *t,
		uint64_t starved, fs_derive_fn emit, void *ctx)
{
	struct fs_event e = mark(FS_EV_RAN, cpu, ts);

	e.task = *t;
	e.starved = starved;
	emit(ctx, &e);
}

/* The real-time tasks queued on @c, as the switch @ev leaves them. */
static void rt_switch(struct fs_derive *d, struct fs_derive_cpu *c,
		      const struct fs_event *ev)
{
	const struct fs_task *prev = &ev->from, *next = &ev->to;

	/* A real-time task taken as running from the tasks found was queued. */
	if (c->curr_found && c->curr.pid != prev->pid && fs_task_rt(&c->curr))
		rt_enqueue(d, c, c->curr.pid);
	if (fs_task_rt(prev) && fs_switch_runnable(ev))
		rt_enqueue(d, c, prev->pid);
	else
		rt_dequeue(c, prev->pid);
	rt_dequeue(c, next->pid);
}

/*
 * The episode on @c as a switch (@ev) left it, with @preempted and
 * @runnable as sched_switch() found them.
 */
static void switch_episode(struct fs_derive_cpu *c, const struct fs_event *ev,
			   bool preempted, bool runnable, fs_derive_fn emit,
			   void *ctx)
{
	const struct fs_task *prev = &ev->from, *next = &ev->to;
	unsigned int i;

	if (c->open && !c->nr_queued && fs_task_higher(next)) {
		/* The last one waiting became a higher class's task. */
		end(c, ev->cpu, ev->ts, FS_END_LEFT, NULL, emit, ctx);
		return;
	}

	if (!fs_task_higher(next)) {
		unsigned int why;

		if (!c->open)
			return;
		if (!next->pid)
			why = c->nr_queued ? FS_END_IDLE : FS_END_LEFT;
		else if (fs_task_higher(prev) && runnable)
			why = FS_END_SERVED;
		else
			why = FS_END_RAN;
		end(c, ev->cpu, ev->ts, why, next->pid ? next : NULL, emit,
		    ctx);
		return;
	}
	if (c->open) {
		struct fs_event e = mark(FS_EV_HOLD, ev->cpu, ev->ts);

		if (preempted)
			wait(c, ev->cpu, ev->ts, prev, FS_WAIT_PREEMPTED,
			     emit, ctx);
		e.holder = *next;
		emit(ctx, &e);
		return;
	}
	/* A higher class takes the CPU from the fair tasks queued there. */
	if (preempted)
		wait(c, ev->cpu, ev->ts, prev, FS_WAIT_PREEMPTED, emit, ctx);
	for (i = 0; i < c->nr_queued; i++)
		if (!preempted || c->queued[i].task.pid != prev->pid)
			wait(c, ev->cpu, ev->ts, &c->queued[i].task,
			     FS_WAIT_QUEUED, emit, ctx);
}

/*
 * sched_switch on @ev->cpu: the queues, then the episode, then the next
 * task's own starvation if it is a fair task that waited.
 */
static void sched_switch(struct fs_derive *d, const struct fs_event *ev,
			 fs_derive_fn emit, void *ctx)
{
	struct fs_derive_cpu *c = &d->cpu[ev->cpu];
	const struct fs_task *prev = &ev->from, *next = &ev->to;
	bool runnable = fs_switch_runnable(ev);
	bool preempted = fs_prio_fair(prev->pid, prev->prio) && runnable;
	struct fs_derive_wait w;
	uint64_t starved = 0;

	rt_switch(d, c, ev);
	if (preempted) {
		/* It waits from now (if found queued, it was the one running). */
		int i = find(c, prev->pid);

		if (i >= 0) {
			c->queued[i].mark = clock_at(c, ev->ts);
			c->queued[i].acc = 0;
		} else {
			enqueue(d, c, prev, ev->ts, 0);
		}
	} else {
		dequeue(c, prev->pid, NULL);	/* found queued, but it ran */
	}
	if (dequeue(c, next->pid, &w) && fs_prio_fair(next->pid, next->prio))
		starved = starved_of(c, &w, ev->ts);
	c->curr = *next;
	c->curr_known = true;
	c->curr_found = false;
	switch_episode(c, ev, preempted, runnable, emit, ctx);
	if (starved)
		ran(ev->cpu, ev->ts, next, starved, emit, ctx);
}

/* sched_wakeup(_new) of @ev->from onto @ev->cpu. */
static void sched_wakeup(struct fs_derive *d, const struct fs_event *ev,
			 fs_derive_fn emit, void *ctx)
{
	struct fs_derive_cpu *c = &d->cpu[ev->cpu];

	if (c->curr_known && c->curr.pid == ev->from.pid)
		return;
	if (fs_task_rt(&ev->from))
		rt_enqueue(d, c, ev->from.pid);
	if (!fs_prio_fair(ev->from.pid, ev->from.prio))
		return;
	if (enqueue(d, c, &ev->from, ev->ts, 0) && c->curr_known &&
	    fs_task_higher(&c->curr))
		wait(c, ev->cpu, ev->ts, &ev->from, FS_WAIT_WAKEUP, emit, ctx);
}

/*
 * A task found runnable on @ev->cpu at start (tracing is on by then). A
 * switch seen before tells what runs; else the first task of a higher
 * class found is taken as running (they come highest first). Fair tasks
 * found are queued, unless running: behind a higher class they wait, since
 * before the run. Fair tasks alone: one of them runs, unknown which; all
 * are queued, and the first switch takes the one that ran off the queue.
 * Either way a fair task's wait is from the starvation clock then on. The
 * real-time tasks found, but the one taken as running, are queued.
 */
static void found_task(struct fs_derive *d, const struct fs_event *ev,
		       fs_derive_fn emit, void *ctx)
{
	struct fs_derive_cpu *c = &d->cpu[ev->cpu];

	if (fs_task_higher(&ev->from)) {
		if (!c->curr_known) {
			c->curr = ev->from;
			c->curr_known = true;
			c->curr_found = true;
		} else if (c->curr.pid != ev->from.pid &&
			   fs_task_rt(&ev->from)) {
			rt_enqueue(d, c, ev->from.pid);
		}
		return;
	}
	if (!fs_prio_fair(ev->from.pid, ev->from.prio) ||
	    (c->curr_known && c->curr.pid == ev->from.pid) ||
	    !enqueue(d, c, &ev->from, ev->ts, 0) || !c->curr_known ||
	    !fs_task_higher(&c->curr))
		return;
	wait(c, ev->cpu, ev->ts, &ev->from, FS_WAIT_UNSEEN, emit, ctx);
}

/* sched_migrate_task of @ev->from from @ev->src_cpu to @ev->cpu. */
static void sched_migrate(struct fs_derive *d, const struct fs_event *ev,
			  fs_derive_fn emit, void *ctx)
{
	struct fs_derive_cpu *src, *dst = &d->cpu[ev->cpu];
	struct fs_derive_wait w;

	if (ev->src_cpu < 0 || ev->src_cpu >= d->nr_cpus)
		return;
	src = &d->cpu[ev->src_cpu];
	/* A queued real-time task waits on the CPU it moves to. */
	if (rt_dequeue(src, ev->from.pid))
		rt_enqueue(d, dst, ev->from.pid);
	/* A task that sleeps moves as it wakes: the wakeup queues it. */
	if (!dequeue(src, ev->from.pid, &w))
		return;
	if (src->open) {
		unsigned int why = src->down ? FS_END_OFFLINE : FS_END_LEFT;
		struct fs_event e = mark(FS_EV_LEAVE, ev->src_cpu, ev->ts);

		e.task = ev->from;
		e.why = why;
		emit(ctx, &e);
		if (!src->nr_queued)
			end(src, ev->src_cpu, ev->ts, why, NULL, emit, ctx);
	}
	/* What it met there goes with it. */
	if (enqueue(d, dst, &ev->from, ev->ts, starved_of(src, &w, ev->ts)) &&
	    dst->curr_known && fs_task_higher(&dst->curr))
		wait(dst, ev->cpu, ev->ts, &ev->from, FS_WAIT_MIGRATED, emit,
		     ctx);
}

/*
 * Forget what @c's events told. No task keeps a mark on its starvation
 * clock, so it starts again. The real-time wait open ends at the figure
 * last handed on, so that it never goes back; the rest was not seen.
 */
static void forget(struct fs_derive_cpu *c)
{
	c->curr_known = false;
	c->curr_found = false;
	c->nr_queued = 0;
	c->open = false;
	c->clock = 0;
	c->nr_rt = 0;
	if (c->rt_open && c->rt_told > c->rt_wait)
		c->rt_wait = c->rt_told;
	c->rt_open = false;
	c->known = false;
	c->started = false;
	c->idle_in = false;
}

/*
 * Events were lost on one CPU's buffer. That buffer held events of other
 * CPUs too (wakeups, remote starts), so every CPU's state is forgotten and
 * each CPU's model is told, with a mark that counts no events.
 */
static void lost(struct fs_derive *d, const struct fs_event *ev,
		 fs_derive_fn emit, void *ctx)
{
	int cpu;

	emit(ctx, ev);
	for (cpu = 0; cpu < d->nr_cpus; cpu++) {
		struct fs_event e = mark(FS_EV_LOST, cpu, ev->ts);

		forget(&d->cpu[cpu]);
		if (cpu == ev->cpu)
			continue;
		e.lost = 0;
		emit(ctx, &e);
	}
}

/*
 * Feed one event; see derive.h. What it changed may start or end the
 * real-time wait of its CPU, or of the CPU a task left.
 */
void fs_derive_event(struct fs_derive *d, const struct fs_event *ev,
		     fs_derive_fn emit, void *ctx)
{
	if (ev->cpu < 0 || ev->cpu >= d->nr_cpus)
		return;
	switch (ev->type) {
	case FS_EV_SWITCH:
		sched_switch(d, ev, emit, ctx);
		break;
	case FS_EV_WAKEUP:
	case FS_EV_WAKEUP_NEW:
		sched_wakeup(d, ev, emit, ctx);
		break;
	case FS_EV_MIGRATE:
		sched_migrate(d, ev, emit, ctx);
		break;
	case FS_EV_FOUND_TASK:
		found_task(d, ev, emit, ctx);
		break;
	case FS_EV_LOST:
		lost(d, ev, emit, ctx);
		break;
	case FS_EV_HOTPLUG:
		/*
		 * One mark per step of a change, as the model takes them:
		 * the steps the dying CPU runs itself come before it is
		 * down, and do not bring it up.
		 */
		if (ev->down) {
			d->cpu[ev->cpu].down = true;
		} else if (d->cpu[ev->cpu].down) {
			forget(&d->cpu[ev->cpu]);
			d->cpu[ev->cpu].down = false;
		}
		emit(ctx, ev);
		break;
	default:
		if (fs_ev_is(ev->type, FS_KIND_PROBE))
			server(&d->cpu[ev->cpu], ev, emit, ctx);
		else
			emit(ctx, ev);
		break;
	}
	rt_update(&d->cpu[ev->cpu], ev->ts);
	if (ev->type == FS_EV_MIGRATE && ev->src_cpu >= 0 &&
	    ev->src_cpu < d->nr_cpus)
		rt_update(&d->cpu[ev->src_cpu], ev->ts);
}
