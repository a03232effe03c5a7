// SPDX-License-Identifier: GPL-2.0
/*
 * The events of the kernel series from a stock kernel's probes and
 * scheduler events; see derive.h.
 */
#include <stdlib.h>
#include <string.h>

#include "derive.h"

/* Release the state. */
void fs_derive_free(struct fs_derive *d)
{
	free(d->cpu);
	free(d->outs);
	d->cpu = NULL;
	d->outs = NULL;
}

/* Set up the state of @nr_cpus CPUs: nothing known yet. */
int fs_derive_init(struct fs_derive *d, int nr_cpus)
{
	memset(d, 0, sizeof(*d));
	d->cpu = calloc(nr_cpus, sizeof(*d->cpu));
	d->outs = malloc(sizeof(*d->outs));
	if (!d->cpu || !d->outs) {
		fs_derive_free(d);
		return -1;
	}
	d->nr_cpus = nr_cpus;
	return 0;
}

/*
 * Hand @ev on as a server event of @type, with @c's rt_wait, or the one
 * @ev carries where the source derived it.
 */
static void put(struct fs_derive_cpu *c, const struct fs_event *ev,
		enum fs_ev type, fs_derive_fn emit, void *ctx)
{
	struct fs_event out = *ev;

	out.type = type;
	if (!c->rt_given)
		out.rt_wait = fs_kd_rt_wait_at(&c->kd, ev->ts);
	c->kd.rt_told = out.rt_wait;
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
	/* In D the server picks the fair tasks that run: see kderive.h. */
	c->kd.srv_running = to == FS_ST_RUNNING;
	fs_kd_rt_update(&c->kd, ev->ts);
}

/* @t as kderive.h names a task. */
static struct fs_kd_task kd_task(const struct fs_task *t)
{
	struct fs_kd_task k;

	_Static_assert(sizeof(k.comm) == sizeof(t->comm), "comm sizes");
	k.pid = t->pid;
	k.prio = t->prio;
	memcpy(k.comm, t->comm, sizeof(k.comm));
	return k;
}

/* A task kderive.h named, as the events name it. */
static struct fs_task fs_task_of(const struct fs_kd_task *k)
{
	struct fs_task t;

	t.pid = k->pid;
	t.prio = k->prio;
	memcpy(t.comm, k->comm, sizeof(t.comm));
	t.comm[sizeof(t.comm) - 1] = '\0';
	return t;
}

/* Hand on what a step of kderive.h derived, in its order. */
void fs_derive_hand_on(const struct fs_kd_out *o, unsigned int nr,
		       fs_derive_fn emit, void *ctx)
{
	static const enum fs_ev type[] = {
		[FS_KD_WAIT]	= FS_EV_WAIT,
		[FS_KD_HOLD]	= FS_EV_HOLD,
		[FS_KD_END]	= FS_EV_END,
		[FS_KD_RAN]	= FS_EV_RAN,
		[FS_KD_LEAVE]	= FS_EV_LEAVE,
	};
	unsigned int i;

	for (i = 0; i < nr; i++, o++) {
		struct fs_event e;

		if (o->type >= sizeof(type) / sizeof(type[0]))
			continue;
		memset(&e, 0, sizeof(e));
		e.type = type[o->type];
		e.cpu = o->cpu;
		e.ts = o->ts;
		e.task = fs_task_of(&o->task);
		e.holder = fs_task_of(&o->holder);
		e.why = o->why;
		e.first = o->first;
		e.starved = o->starved;
		emit(ctx, &e);
	}
}

/*
 * One scheduler event through kderive.h: a migration is its two halves,
 * the CPU left first. The real-time wait of each CPU touched is brought up
 * to date by the steps themselves.
 */
static void sched_event(struct fs_derive *d, const struct fs_event *ev,
			fs_derive_fn emit, void *ctx)
{
	struct fs_kd_outs *o = d->outs;
	struct fs_kd_cpu *c = &d->cpu[ev->cpu].kd;
	struct fs_kd_task from = kd_task(&ev->from), to;
	struct fs_kd_move m;

	o->nr = 0;
	switch (ev->type) {
	case FS_EV_SWITCH:
		to = kd_task(&ev->to);
		fs_kd_switch(c, ev->cpu, ev->ts, &from, &to,
			     fs_switch_runnable(ev), o);
		break;
	case FS_EV_WAKEUP:
	case FS_EV_WAKEUP_NEW:
		fs_kd_wakeup(c, ev->cpu, ev->ts, &from, o);
		break;
	case FS_EV_FOUND_TASK:
		fs_kd_found(c, ev->cpu, ev->ts, &from, o);
		break;
	case FS_EV_MIGRATE:
		if (ev->src_cpu < 0 || ev->src_cpu >= d->nr_cpus)
			return;
		fs_kd_leave(&d->cpu[ev->src_cpu].kd, ev->src_cpu, ev->ts,
			    &from, &m, o);
		if (m.rt || m.fair)
			fs_kd_arrive(c, ev->cpu, ev->ts, &from, &m, o);
		break;
	default:
		return;
	}
	fs_derive_hand_on(o->ev, o->nr, emit, ctx);
}

/* Forget what @c's events told: the server's state and kderive.h's. */
static void forget(struct fs_derive_cpu *c)
{
	fs_kd_forget(&c->kd);
	c->known = false;
	c->started = false;
	c->idle_in = false;
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

/* Feed one event; see derive.h. */
void fs_derive_event(struct fs_derive *d, const struct fs_event *ev,
		     fs_derive_fn emit, void *ctx)
{
	struct fs_derive_cpu *c;

	if (ev->cpu < 0 || ev->cpu >= d->nr_cpus)
		return;
	c = &d->cpu[ev->cpu];
	switch (ev->type) {
	case FS_EV_SWITCH:
	case FS_EV_WAKEUP:
	case FS_EV_WAKEUP_NEW:
	case FS_EV_MIGRATE:
	case FS_EV_FOUND_TASK:
		sched_event(d, ev, emit, ctx);
		break;
	case FS_EV_LOST:
		lost(d, ev, emit, ctx);
		break;
	case FS_EV_HOTPLUG:
		/* One mark per step of a change, as the model takes them. */
		if (!ev->down && c->kd.down)
			forget(c);
		fs_kd_hotplug(&c->kd, ev->down);
		emit(ctx, ev);
		break;
	default:
		if (fs_ev_is(ev->type, FS_KIND_PROBE))
			server(c, ev, emit, ctx);
		else
			emit(ctx, ev);
		break;
	}
}

/* The source derives the real-time wait: see derive.h. */
void fs_derive_rt_given(struct fs_derive *d)
{
	int cpu;

	for (cpu = 0; cpu < d->nr_cpus; cpu++)
		d->cpu[cpu].rt_given = true;
}

/* Fair tasks not followed, summed over the CPUs: their tables were full. */
uint64_t fs_derive_untracked(const struct fs_derive *d)
{
	uint64_t n = 0;
	int cpu;

	for (cpu = 0; cpu < d->nr_cpus; cpu++)
		n += d->cpu[cpu].kd.untracked;
	return n;
}
