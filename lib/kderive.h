/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fair starvation and real-time tasks' wait, derived one CPU at a time
 * from the scheduler's events: the part of derive.h that needs no probe of
 * the server (see there for what each derived event means). One code for
 * two places: lib/derive.c runs it in user space, and the BPF source's
 * programs run it in the kernel, each CPU's state under a lock of its own,
 * so that only the derived events leave the kernel. Hence its form: fixed
 * arrays, bounded loops, inline functions only, and the derived events
 * appended to a bounded list (struct fs_kd_outs) rather than handed to a
 * callback.
 *
 * A step takes one event of one CPU: a switch, a wake-up, a task found
 * queued at start, a hotplug step, or one half of a migration (the task
 * leaves its CPU, then arrives on the other: two steps, as the two CPUs'
 * states are locked one at a time). Each step ends by bringing the CPU's
 * real-time wait up to date.
 */
#ifndef FAIRSRV_KDERIVE_H
#define FAIRSRV_KDERIVE_H

#include <linux/types.h>
#include <stdbool.h>

#include "series.h"

/* Queued fair tasks kept by name on one CPU; more are counted. */
#ifndef FS_KD_QUEUED
#define FS_KD_QUEUED	256
#endif
/* Queued real-time tasks kept on one CPU; more are counted. */
#ifndef FS_KD_RT
#define FS_KD_RT	64
#endif
/* The most events one step derives: a wait for each task queued, and more. */
#define FS_KD_OUTS	(FS_KD_QUEUED + 4)

#ifdef __bpf__
#define FS_KD_FN	static __always_inline
#else
#define FS_KD_FN	static inline
#endif

/* A task as the scheduler's events name it. */
struct fs_kd_task {
	__s32 pid;
	__s32 prio;		/* kernel prio */
	char comm[FS_COMM_LEN];
};

/* A fair task queued on a CPU, and the starvation its wait met. */
struct fs_kd_wait {
	struct fs_kd_task task;
	__u64 mark;		/* its CPU's starvation clock as it queued */
	__u64 acc;		/* met on CPUs it left before it ran */
};

/* What one CPU's events told. */
struct fs_kd_cpu {
	struct fs_kd_task curr;
	bool curr_known;
	bool curr_found;	/* curr is a guess from the tasks found */
	bool open;		/* a starvation episode */
	bool down;		/* going offline */
	bool srv_running;	/* the fair server in D, as last shown */
	bool rt_open;		/* a real-time task waits behind the server */
	__u32 nr_queued;
	__u32 nr_rt;
	__u64 last;		/* the latest step's time */
	__u64 since;		/* the open episode's start */
	__u64 clock;		/* the episodes' length, the open one left out */
	__u64 rt_since;		/* the open real-time wait's start */
	__u64 rt_wait;		/* the real-time waits before, since tracing began */
	__u64 rt_told;		/* the figure last handed on */
	__u64 untracked;	/* fair tasks not kept: the table full */
	__u64 rt_untracked;	/* real-time tasks not kept, likewise */
	__s32 rt[FS_KD_RT];	/* real-time tasks queued, not running */
	struct fs_kd_wait queued[FS_KD_QUEUED];
};

/* What a step derived: the series' fair starvation events. */
enum fs_kd_type {
	FS_KD_WAIT,
	FS_KD_HOLD,
	FS_KD_END,
	FS_KD_RAN,
	FS_KD_LEAVE,
};

struct fs_kd_out {
	__u64 ts;
	__u64 starved;		/* end: the episode's length; ran: what it met */
	__u32 type;		/* enum fs_kd_type */
	__s32 cpu;
	__u32 why;		/* fs_wait_why or fs_end_why */
	__u32 first;		/* wait: it opens the episode */
	struct fs_kd_task task;
	struct fs_kd_task holder;
};

struct fs_kd_outs {
	__u32 nr;
	__u32 dropped;		/* derived with the list full: not kept */
	struct fs_kd_out ev[FS_KD_OUTS];
};

/* Whether a kernel prio is a fair task's (and pid 0 is the idle task). */
FS_KD_FN bool fs_kd_fair(const struct fs_kd_task *t)
{
	return t->pid != 0 && t->prio >= 100;
}

/* Whether @t is a task of a class above fair (stop, deadline, RT). */
FS_KD_FN bool fs_kd_higher(const struct fs_kd_task *t)
{
	return t->pid != 0 && t->prio < 100;
}

/* Whether @t is a real-time task (stop's too: its prio is RT 99's). */
FS_KD_FN bool fs_kd_rt(const struct fs_kd_task *t)
{
	return t->pid != 0 && t->prio >= 0 && t->prio < 100;
}

/* A new derived event of @type about @cpu at @ts, or NULL: the list full. */
FS_KD_FN struct fs_kd_out *kd_out(struct fs_kd_outs *o, __u32 type, int cpu,
				  __u64 ts)
{
	__u32 n = o->nr;
	struct fs_kd_out *e;

	if (n >= FS_KD_OUTS) {
		o->dropped++;
		return 0;
	}
	e = &o->ev[n];
	o->nr = n + 1;
	e->ts = ts;
	e->starved = 0;
	e->type = type;
	e->cpu = cpu;
	e->why = 0;
	e->first = 0;
	e->task.pid = 0;
	e->task.prio = 0;
	e->task.comm[0] = 0;
	e->holder = e->task;
	return e;
}

/*
 * The time of a step on @c at @ts, never before the step before: in the
 * kernel, a step reads the clock before it takes the CPU's lock, and the
 * other CPU's half of a migration may take it in between.
 */
FS_KD_FN __u64 fs_kd_now(struct fs_kd_cpu *c, __u64 ts)
{
	if (ts < c->last)
		return c->last;
	c->last = ts;
	return ts;
}

/* Real-time tasks' wait on @c at @ts: the figure a server event carries. */
FS_KD_FN __u64 fs_kd_rt_wait_at(const struct fs_kd_cpu *c, __u64 ts)
{
	if (!c->rt_open || ts < c->rt_since)
		return c->rt_wait;
	return c->rt_wait + (ts - c->rt_since);
}

/*
 * Start or end @c's real-time wait at @ts, as things are now: one waits
 * while queued behind a fair task that runs with the server in D, which
 * picked it then.
 */
FS_KD_FN void fs_kd_rt_update(struct fs_kd_cpu *c, __u64 ts)
{
	bool waits = c->nr_rt && c->srv_running && c->curr_known &&
		     fs_kd_fair(&c->curr);

	if (waits == c->rt_open)
		return;
	if (waits)
		c->rt_since = ts;
	else
		c->rt_wait = fs_kd_rt_wait_at(c, ts);
	c->rt_open = waits;
}

/* @c's starvation clock at @ts: how long its episodes lasted. */
FS_KD_FN __u64 kd_clock_at(const struct fs_kd_cpu *c, __u64 ts)
{
	if (!c->open || ts < c->since)
		return c->clock;
	return c->clock + (ts - c->since);
}

/* The starvation @w met in its wait so far, on @c at @ts. */
FS_KD_FN __u64 kd_starved_of(const struct fs_kd_cpu *c,
			     const struct fs_kd_wait *w, __u64 ts)
{
	__u64 now = kd_clock_at(c, ts);

	return w->acc + (now > w->mark ? now - w->mark : 0);
}

/* The index of @pid among @c's queued tasks, or -1. */
FS_KD_FN int kd_find(const struct fs_kd_cpu *c, int pid)
{
	__u32 i;

	for (i = 0; i < FS_KD_QUEUED && i < c->nr_queued; i++)
		if (c->queued[i].task.pid == pid)
			return (int)i;
	return -1;
}

/*
 * Queue @t on @c at @ts, having met @acc before; true if it was not queued
 * there yet (one that was keeps its mark).
 */
FS_KD_FN bool kd_enqueue(struct fs_kd_cpu *c, const struct fs_kd_task *t,
			 __u64 ts, __u64 acc)
{
	__u32 n = c->nr_queued;
	struct fs_kd_wait *w;

	if (kd_find(c, t->pid) >= 0)
		return false;
	if (n >= FS_KD_QUEUED) {
		c->untracked++;
		return false;
	}
	w = &c->queued[n];
	w->task = *t;
	w->mark = kd_clock_at(c, ts);
	w->acc = acc;
	c->nr_queued = n + 1;
	return true;
}

/* Take @pid off @c's queue, into @w if not NULL; true if it was there. */
FS_KD_FN bool kd_dequeue(struct fs_kd_cpu *c, int pid, struct fs_kd_wait *w)
{
	int i = kd_find(c, pid);
	__u32 last = c->nr_queued - 1;

	if (i < 0 || i >= FS_KD_QUEUED || last >= FS_KD_QUEUED)
		return false;
	if (w)
		*w = c->queued[i];
	c->queued[i] = c->queued[last];
	c->nr_queued = last;
	return true;
}

/* The index of @pid among @c's queued real-time tasks, or -1. */
FS_KD_FN int kd_rt_find(const struct fs_kd_cpu *c, int pid)
{
	__u32 i;

	for (i = 0; i < FS_KD_RT && i < c->nr_rt; i++)
		if (c->rt[i] == pid)
			return (int)i;
	return -1;
}

/* Real-time task @pid is queued on @c, not running. */
FS_KD_FN void kd_rt_enqueue(struct fs_kd_cpu *c, int pid)
{
	__u32 n = c->nr_rt;

	if (kd_rt_find(c, pid) >= 0)
		return;
	if (n >= FS_KD_RT) {
		c->rt_untracked++;
		return;
	}
	c->rt[n] = pid;
	c->nr_rt = n + 1;
}

/* Take @pid off @c's real-time tasks; true if it was there. */
FS_KD_FN bool kd_rt_dequeue(struct fs_kd_cpu *c, int pid)
{
	int i = kd_rt_find(c, pid);
	__u32 last = c->nr_rt - 1;

	if (i < 0 || i >= FS_KD_RT || last >= FS_KD_RT)
		return false;
	c->rt[i] = c->rt[last];
	c->nr_rt = last;
	return true;
}

/* @t begins to wait on @c (CPU @cpu) behind its current task. */
FS_KD_FN void kd_wait(struct fs_kd_cpu *c, int cpu, __u64 ts,
		      const struct fs_kd_task *t, __u32 why,
		      struct fs_kd_outs *o)
{
	struct fs_kd_out *e = kd_out(o, FS_KD_WAIT, cpu, ts);

	if (e) {
		e->task = *t;
		e->holder = c->curr;
		e->why = why;
		e->first = !c->open;
	}
	if (!c->open) {
		c->open = true;
		c->since = ts;
	}
}

/* The episode open on @c ends at @ts, for @why; @ran runs, if named. */
FS_KD_FN void kd_end(struct fs_kd_cpu *c, int cpu, __u64 ts, __u32 why,
		     const struct fs_kd_task *ran, struct fs_kd_outs *o)
{
	struct fs_kd_out *e = kd_out(o, FS_KD_END, cpu, ts);

	if (e) {
		if (ran)
			e->task = *ran;
		e->why = why;
		e->starved = ts - c->since;
	}
	c->clock = kd_clock_at(c, ts);
	c->open = false;
}

/* The real-time tasks queued on @c, as a switch from @prev to @next left them. */
FS_KD_FN void kd_rt_switch(struct fs_kd_cpu *c, const struct fs_kd_task *prev,
			   const struct fs_kd_task *next, bool runnable)
{
	/* A real-time task taken as running from the tasks found was queued. */
	if (c->curr_found && c->curr.pid != prev->pid && fs_kd_rt(&c->curr))
		kd_rt_enqueue(c, c->curr.pid);
	if (fs_kd_rt(prev) && runnable)
		kd_rt_enqueue(c, prev->pid);
	else
		kd_rt_dequeue(c, prev->pid);
	kd_rt_dequeue(c, next->pid);
}

/*
 * The episode on @c as a switch from @prev to @next left it, with
 * @preempted and @runnable as sched_switch() found them.
 */
FS_KD_FN void kd_switch_episode(struct fs_kd_cpu *c, int cpu, __u64 ts,
				const struct fs_kd_task *prev,
				const struct fs_kd_task *next, bool preempted,
				bool runnable, struct fs_kd_outs *o)
{
	struct fs_kd_out *e;
	__u32 i, why;

	if (c->open && !c->nr_queued && fs_kd_higher(next)) {
		/* The last one waiting became a higher class's task. */
		kd_end(c, cpu, ts, FS_END_LEFT, 0, o);
		return;
	}
	if (!fs_kd_higher(next)) {
		if (!c->open)
			return;
		if (!next->pid)
			why = c->nr_queued ? FS_END_IDLE : FS_END_LEFT;
		else if (fs_kd_higher(prev) && runnable)
			why = FS_END_SERVED;
		else
			why = FS_END_RAN;
		kd_end(c, cpu, ts, why, next->pid ? next : 0, o);
		return;
	}
	if (c->open) {
		if (preempted)
			kd_wait(c, cpu, ts, prev, FS_WAIT_PREEMPTED, o);
		e = kd_out(o, FS_KD_HOLD, cpu, ts);
		if (e)
			e->holder = *next;
		return;
	}
	/* A higher class takes the CPU from the fair tasks queued there. */
	if (preempted)
		kd_wait(c, cpu, ts, prev, FS_WAIT_PREEMPTED, o);
	for (i = 0; i < FS_KD_QUEUED && i < c->nr_queued; i++)
		if (!preempted || c->queued[i].task.pid != prev->pid)
			kd_wait(c, cpu, ts, &c->queued[i].task,
				FS_WAIT_QUEUED, o);
}

/*
 * sched_switch on @c (CPU @cpu) from @prev to @next, @runnable if @prev
 * stays runnable: the queues, then the episode, then the next task's own
 * starvation if it is a fair task that waited.
 */
FS_KD_FN void fs_kd_switch(struct fs_kd_cpu *c, int cpu, __u64 ts,
			   const struct fs_kd_task *prev,
			   const struct fs_kd_task *next, bool runnable,
			   struct fs_kd_outs *o)
{
	bool preempted = fs_kd_fair(prev) && runnable;
	struct fs_kd_out *e;
	struct fs_kd_wait w;
	__u64 starved = 0;
	int i;

	ts = fs_kd_now(c, ts);
	kd_rt_switch(c, prev, next, runnable);
	if (preempted) {
		/* It waits from now (if found queued, it was the one running). */
		i = kd_find(c, prev->pid);
		if (i >= 0 && i < FS_KD_QUEUED) {
			c->queued[i].mark = kd_clock_at(c, ts);
			c->queued[i].acc = 0;
		} else {
			kd_enqueue(c, prev, ts, 0);
		}
	} else {
		kd_dequeue(c, prev->pid, 0);	/* found queued, but it ran */
	}
	if (kd_dequeue(c, next->pid, &w) && fs_kd_fair(next))
		starved = kd_starved_of(c, &w, ts);
	c->curr = *next;
	c->curr_known = true;
	c->curr_found = false;
	kd_switch_episode(c, cpu, ts, prev, next, preempted, runnable, o);
	if (starved) {
		e = kd_out(o, FS_KD_RAN, cpu, ts);
		if (e) {
			e->task = *next;
			e->starved = starved;
		}
	}
	fs_kd_rt_update(c, ts);
}

/* sched_wakeup(_new) of @p onto @c (CPU @cpu). */
FS_KD_FN void fs_kd_wakeup(struct fs_kd_cpu *c, int cpu, __u64 ts,
			   const struct fs_kd_task *p, struct fs_kd_outs *o)
{
	ts = fs_kd_now(c, ts);
	/* A task woken before it switched out is running, not queued. */
	if (c->curr_known && c->curr.pid == p->pid)
		return;
	if (fs_kd_rt(p))
		kd_rt_enqueue(c, p->pid);
	if (fs_kd_fair(p) && kd_enqueue(c, p, ts, 0) && c->curr_known &&
	    fs_kd_higher(&c->curr))
		kd_wait(c, cpu, ts, p, FS_WAIT_WAKEUP, o);
	fs_kd_rt_update(c, ts);
}

/*
 * A task found runnable on @c (CPU @cpu) at start; see derive.c's
 * found_task() for how the tasks found are read.
 */
FS_KD_FN void fs_kd_found(struct fs_kd_cpu *c, int cpu, __u64 ts,
			  const struct fs_kd_task *p, struct fs_kd_outs *o)
{
	ts = fs_kd_now(c, ts);
	if (fs_kd_higher(p)) {
		if (!c->curr_known) {
			c->curr = *p;
			c->curr_known = true;
			c->curr_found = true;
		} else if (c->curr.pid != p->pid && fs_kd_rt(p)) {
			kd_rt_enqueue(c, p->pid);
		}
	} else if (fs_kd_fair(p) &&
		   !(c->curr_known && c->curr.pid == p->pid) &&
		   kd_enqueue(c, p, ts, 0) && c->curr_known &&
		   fs_kd_higher(&c->curr)) {
		kd_wait(c, cpu, ts, p, FS_WAIT_UNSEEN, o);
	}
	fs_kd_rt_update(c, ts);
}

/*
 * What a task takes from the CPU it leaves by migration to the one it
 * arrives on.
 */
struct fs_kd_move {
	bool rt;		/* it was queued there as a real-time task */
	bool fair;		/* it was queued there as a fair task */
	__u64 acc;		/* the starvation it met there and before */
};

/*
 * sched_migrate_task, first half: @p leaves @c (CPU @cpu), into @m. A task
 * that sleeps moves as it wakes: the wake-up queues it.
 */
FS_KD_FN void fs_kd_leave(struct fs_kd_cpu *c, int cpu, __u64 ts,
			  const struct fs_kd_task *p, struct fs_kd_move *m,
			  struct fs_kd_outs *o)
{
	struct fs_kd_out *e;
	struct fs_kd_wait w;
	__u32 why;

	ts = fs_kd_now(c, ts);
	m->rt = kd_rt_dequeue(c, p->pid);
	m->fair = kd_dequeue(c, p->pid, &w);
	m->acc = 0;
	if (m->fair && c->open) {
		why = c->down ? FS_END_OFFLINE : FS_END_LEFT;
		e = kd_out(o, FS_KD_LEAVE, cpu, ts);
		if (e) {
			e->task = *p;
			e->why = why;
		}
		if (!c->nr_queued)
			kd_end(c, cpu, ts, why, 0, o);
	}
	/* What it met there goes with it. */
	if (m->fair)
		m->acc = kd_starved_of(c, &w, ts);
	fs_kd_rt_update(c, ts);
}

/* sched_migrate_task, second half: @p, with @m, arrives on @c (CPU @cpu). */
FS_KD_FN void fs_kd_arrive(struct fs_kd_cpu *c, int cpu, __u64 ts,
			   const struct fs_kd_task *p,
			   const struct fs_kd_move *m, struct fs_kd_outs *o)
{
	ts = fs_kd_now(c, ts);
	if (m->rt)
		kd_rt_enqueue(c, p->pid);
	if (m->fair && kd_enqueue(c, p, ts, m->acc) && c->curr_known &&
	    fs_kd_higher(&c->curr))
		kd_wait(c, cpu, ts, p, FS_WAIT_MIGRATED, o);
	fs_kd_rt_update(c, ts);
}

/*
 * Forget what @c's events told. No task keeps a mark on its starvation
 * clock, so it starts again. The real-time wait open ends at the figure
 * last handed on, so that it never goes back; the rest was not seen.
 */
FS_KD_FN void fs_kd_forget(struct fs_kd_cpu *c)
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
	c->srv_running = false;
}

/*
 * A step of a CPU hotplug change: the steps the dying CPU runs itself come
 * before it is down, and do not bring it up; a CPU back up starts afresh.
 */
FS_KD_FN void fs_kd_hotplug(struct fs_kd_cpu *c, bool down)
{
	if (down) {
		c->down = true;
	} else if (c->down) {
		fs_kd_forget(c);
		c->down = false;
	}
}

#endif
