// SPDX-License-Identifier: GPL-2.0
/*
 * Each CPU's load, recorded from the scheduler's events for the what-if
 * replay. See load.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "load.h"

/* Grow @*arr of @size-byte elements to hold one more than @nr. */
static int grow(void **arr, size_t *cap, size_t nr, size_t size)
{
	size_t n = *cap ? 2 * *cap : 64;
	void *p;

	if (nr < *cap)
		return 0;
	p = realloc(*arr, n * size);
	if (!p)
		return -1;
	*arr = p;
	*cap = n;
	return 0;
}

int fs_loads_init(struct fs_loads *l, int nr_cpus, uint64_t t0)
{
	int cpu;

	memset(l, 0, sizeof(*l));
	l->cpu = calloc(nr_cpus, sizeof(*l->cpu));
	l->cap_task = 256;
	l->task = calloc(l->cap_task, sizeof(*l->task));
	if (!l->cpu || !l->task) {
		free(l->cpu);
		free(l->task);
		l->cpu = NULL;
		l->task = NULL;
		errno = ENOMEM;
		return -1;
	}
	l->nr_cpus = nr_cpus;
	l->max_entries = FS_LOAD_MAX;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		l->cpu[cpu].t0 = t0;
		l->cpu[cpu].t1 = t0;
		l->cpu[cpu].acct_ts = t0;
	}
	return 0;
}

void fs_loads_free(struct fs_loads *l)
{
	int cpu;

	for (cpu = 0; l->cpu && cpu < l->nr_cpus; cpu++) {
		free(l->cpu[cpu].hi);
		free(l->cpu[cpu].jobs);
	}
	free(l->cpu);
	free(l->task);
	memset(l, 0, sizeof(*l));
}

/* The slot of @pid, or the free slot where it would go. */
static struct fs_load_task *slot(struct fs_load_task *tab, size_t cap,
				 int32_t pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) & (cap - 1);

	while (tab[i].pid && tab[i].pid != pid)
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

/* Double the task table; -1 if out of memory. */
static int rehash(struct fs_loads *l)
{
	size_t cap = 2 * l->cap_task, i;
	struct fs_load_task *tab = calloc(cap, sizeof(*tab));

	if (!tab)
		return -1;
	for (i = 0; i < l->cap_task; i++)
		if (l->task[i].pid)
			*slot(tab, cap, l->task[i].pid) = l->task[i];
	free(l->task);
	l->task = tab;
	l->cap_task = cap;
	return 0;
}

/* Fair task @pid with a job open, or NULL. */
static struct fs_load_task *find(struct fs_loads *l, int32_t pid)
{
	struct fs_load_task *t = slot(l->task, l->cap_task, pid);

	return t->pid && t->open ? t : NULL;
}

/* Whether fair task @pid was seen in the window. */
static bool known(struct fs_loads *l, int32_t pid)
{
	return slot(l->task, l->cap_task, pid)->pid != 0;
}

/* CPU @cpu's load, or NULL if there is no such CPU. */
static struct fs_load *cpu_load(struct fs_loads *l, int cpu)
{
	return cpu >= 0 && cpu < l->nr_cpus ? &l->cpu[cpu] : NULL;
}

/*
 * @c's entry for higher-class task @pid; with @add, added if need be.
 * NULL if it has none, or the table is full.
 */
static struct fs_load_rt *rt_task(struct fs_load *c, int32_t pid, bool add)
{
	unsigned int i;

	for (i = 0; i < FS_LOAD_PENDING; i++) {
		if (c->rt[i].pid == pid)
			return &c->rt[i];
		if (!c->rt[i].pid) {
			if (!add)
				return NULL;
			c->rt[i].pid = pid;
			return &c->rt[i];
		}
	}
	return NULL;
}

/*
 * Bring @c's clocks to @ts: the time a higher class ran, the part of it
 * in which fair work was queued, and the time fair tasks ran in the stead
 * of higher-class tasks the server's service made wait. Not before the
 * first switch (what ran is not known yet) nor once @c is full.
 */
static void account(struct fs_load *c, uint64_t ts)
{
	uint64_t dt;
	unsigned int i;

	if (!c->curr_known || c->full || ts <= c->acct_ts)
		return;
	dt = ts - c->acct_ts;
	c->acct_ts = ts;
	/* The tasks it displaced ran, or went elsewhere: it ended. */
	if (!c->nr_pending)
		c->displacing = false;
	if (c->displacing && !c->hi_running) {
		c->displaced_all += dt;
		for (i = 0; i < c->nr_pending; i++) {
			struct fs_load_rt *r = rt_task(c, c->pending[i],
						       true);

			if (r)
				r->displaced += dt;
		}
	}
	if (!c->hi_running)
		return;
	c->hi_clock += dt;
	if (c->nr_open)
		c->starved_ns += dt;
}

/* Open job @t begins to wait on its CPU. */
static void wait_begin(struct fs_loads *l, struct fs_load_task *t)
{
	struct fs_load *c = cpu_load(l, t->cpu);

	t->mark = c ? c->hi_clock : 0;
}

/* Open job @t stops waiting on its CPU: what a higher class took is its. */
static void wait_end(struct fs_loads *l, struct fs_load_task *t)
{
	struct fs_load *c = cpu_load(l, t->cpu);

	if (c && c->hi_clock > t->mark)
		t->waited += c->hi_clock - t->mark;
	t->mark = c ? c->hi_clock : 0;
}

/* Open job @t is on @cpu now: the CPUs' counts of open jobs follow. */
static void move_job(struct fs_loads *l, struct fs_load_task *t, int cpu)
{
	struct fs_load *c = cpu_load(l, t->cpu);

	if (c && c->nr_open)
		c->nr_open--;
	t->cpu = cpu;
	c = cpu_load(l, cpu);
	if (c)
		c->nr_open++;
}

/* Open a job for @pid on @cpu, runnable since @ts; NULL if out of memory. */
static struct fs_load_task *open_job(struct fs_loads *l, int32_t pid, int cpu,
				     uint64_t ts)
{
	struct fs_load_task *t = slot(l->task, l->cap_task, pid);

	if (!t->pid) {
		if (2 * (l->nr_task + 1) > l->cap_task) {
			if (rehash(l)) {
				l->failed = true;
				return NULL;
			}
			t = slot(l->task, l->cap_task, pid);
		}
		memset(t, 0, sizeof(*t));
		t->pid = pid;
		l->nr_task++;
	}
	/*
	 * Woken after a sleep seen: how long it slept; the first job of a
	 * task woken in the window: it slept since the window began at least.
	 */
	if (t->jobs && ts > t->slept_at) {
		t->sleep_sum += ts - t->slept_at;
		t->sleeps++;
	} else if (!t->jobs && !t->slept_at && cpu_load(l, cpu) &&
		   ts > l->cpu[cpu].t0) {
		t->sleep_sum += ts - l->cpu[cpu].t0;
		t->sleeps++;
		t->slept_at = ts;
	}
	t->open = true;
	t->cpu = -1;
	move_job(l, t, cpu);
	t->arrive = ts;
	t->work = 0;
	t->running = false;
	t->waited = 0;
	wait_begin(l, t);
	return t;
}

/* End @c's open span at @ts. */
static void span_end(struct fs_loads *l, struct fs_load *c, uint64_t ts)
{
	if (ts <= c->hi_since)
		return;
	if (grow((void **)&c->hi, &c->cap_hi, c->nr_hi, sizeof(*c->hi))) {
		l->failed = true;
		return;
	}
	c->hi[c->nr_hi].start = c->hi_since;
	c->hi[c->nr_hi].end = ts;
	c->nr_hi++;
}

/*
 * Whether @c's list of @nr entries is full: if so, its window ends now,
 * and the span open with it.
 */
static bool full(struct fs_loads *l, struct fs_load *c, size_t nr)
{
	if (!c->full && nr >= l->max_entries) {
		c->full = true;
		c->full_at = l->now;
		if (c->hi_on)
			span_end(l, c, l->now);
		c->hi_on = false;
	}
	return c->full;
}

/*
 * Append a job to its CPU's list; at the end (@last), the jobs still open
 * of a full CPU that arrived in its window too.
 */
static void add_job(struct fs_loads *l, int cpu, uint64_t ts, uint64_t work,
		    bool last)
{
	struct fs_load *c;

	if (cpu < 0 || cpu >= l->nr_cpus)
		return;
	c = &l->cpu[cpu];
	if (last ? c->full && ts >= c->full_at : full(l, c, c->nr_jobs))
		return;
	if (grow((void **)&c->jobs, &c->cap_jobs, c->nr_jobs,
		 sizeof(*c->jobs))) {
		l->failed = true;
		return;
	}
	c->jobs[c->nr_jobs].ts = ts;
	c->jobs[c->nr_jobs].work = work;
	c->nr_jobs++;
}

/* @t's job waited @t->waited on its CPU, @c (NULL: none): note it. */
static void note_wait(struct fs_load_task *t, const struct fs_load *c)
{
	if (!t->waited || !c)
		return;
	t->wait_sum += t->waited;
	t->wait_jobs++;
	t->wait_cpu = t->cpu;
}

/*
 * Close @t's job, the task going to sleep: its CPU gets what it needed;
 * the task remembers it, and what it waited.
 */
static void close_job(struct fs_loads *l, struct fs_load_task *t,
		      uint64_t work)
{
	struct fs_load *c = cpu_load(l, t->cpu);

	if (work)
		add_job(l, t->cpu, t->arrive, work, false);
	note_wait(t, c && !c->full ? c : NULL);
	if (work > t->work_max)
		t->work_max = work;
	t->slept_at = l->now;
	move_job(l, t, -1);
	t->open = false;
	t->running = false;
	t->jobs++;
	t->jobs_work += work;
}

/*
 * The fair demand that sleeping task @t's waits may have hidden: its duty
 * (mean job over mean job and sleep, the sleeps cut by the window's edges
 * counted as what was seen of them) of its waits, for a task whose next
 * wake-up follows its last job; plus, for one that runs until a time, its
 * longest job for each job that waited; never more than its waits.
 */
static uint64_t hidden(const struct fs_load_task *t)
{
	uint64_t work = t->jobs_work / t->jobs, by_duty = 0, by_job;
	uint64_t sleep = t->sleeps ? t->sleep_sum / t->sleeps : 0;

	if (work + sleep)
		by_duty = (uint64_t)((__int128)t->wait_sum * work /
				     (work + sleep));
	by_job = t->wait_jobs * t->work_max;
	if (by_job > t->wait_sum)
		by_job = t->wait_sum;
	return by_duty + by_job < t->wait_sum ? by_duty + by_job : t->wait_sum;
}

/* Note the higher classes' want of @c changing (or not) at @ts. */
static void hi_update(struct fs_loads *l, struct fs_load *c, uint64_t ts)
{
	bool on = c->hi_running || c->nr_pending;

	if (on == c->hi_on || c->full || (!on && full(l, c, c->nr_hi)))
		return;
	c->hi_on = on;
	if (on)
		c->hi_since = ts;
	else
		span_end(l, c, ts);
}

/* Add @pid to the set @set of @nr; counted apart if it is full. */
static void set_add(struct fs_loads *l, int32_t *set, unsigned int *nr,
		    int32_t pid)
{
	unsigned int i;

	for (i = 0; i < *nr; i++)
		if (set[i] == pid)
			return;
	if (*nr == FS_LOAD_PENDING) {
		l->untracked++;
		return;
	}
	set[(*nr)++] = pid;
}

/* Remove @pid from the set @set of @nr; whether it was there. */
static bool set_del(int32_t *set, unsigned int *nr, int32_t pid)
{
	unsigned int i;

	for (i = 0; i < *nr; i++)
		if (set[i] == pid) {
			set[i] = set[--*nr];
			return true;
		}
	return false;
}

/* Keep @pid as a runnable higher-class task of @c. */
static void pend(struct fs_loads *l, struct fs_load *c, int32_t pid)
{
	set_add(l, c->pending, &c->nr_pending, pid);
}

/* @pid is no longer a runnable higher-class task waiting on @c. */
static void unpend(struct fs_load *c, int32_t pid)
{
	set_del(c->pending, &c->nr_pending, pid);
}

/* Whether deadline task @prev, left runnable for @next, was throttled. */
static bool dl_throttled(const struct fs_task *prev, const struct fs_task *next)
{
	return prev->prio < 0 && (next->pid == 0 || next->prio >= 0);
}

/*
 * @pid, seen as a higher class at @ts, changed its policy: the fair job it
 * had open, running or waiting, ends there with the work it did.
 */
static void left_fair(struct fs_loads *l, int32_t pid, uint64_t ts)
{
	struct fs_load_task *t = find(l, pid);

	if (!t)
		return;
	if (t->running)
		t->work += ts - t->run_since;
	else
		wait_end(l, t);
	close_job(l, t, t->work);
}

/* sched_switch on @ev->cpu. */
static void on_switch(struct fs_loads *l, const struct fs_event *ev)
{
	struct fs_load *c = &l->cpu[ev->cpu];
	const struct fs_task *prev = &ev->from, *next = &ev->to;
	bool runnable = fs_switch_runnable(ev);
	struct fs_load_task *t;

	if (!c->curr_known) {
		/* It held the CPU since before the first switch seen. */
		if (fs_task_higher(prev)) {
			c->hi_on = true;
			c->hi_since = c->t0;
		}
		c->hi_running = fs_task_higher(prev);
		c->curr_known = true;
	}
	account(c, ev->ts);
	if (fs_prio_fair(prev->pid, prev->prio)) {
		t = find(l, prev->pid);
		if (!t) {
			/*
			 * Running since before the window, or since a wake-up
			 * not seen: since the window began, or now. One that
			 * this CPU switched to as a higher class left it at
			 * its policy's change: its run was that class's.
			 */
			bool was_hi = c->hi_running && c->curr_pid == prev->pid;
			uint64_t since = known(l, prev->pid) || was_hi ?
					 ev->ts : c->t0;

			t = open_job(l, prev->pid, ev->cpu, since);
			if (t) {
				t->running = true;
				t->run_since = since;
			}
		}
		if (t && t->running) {
			t->work += ev->ts - t->run_since;
			t->running = false;
		}
		if (t && !runnable)
			close_job(l, t, t->work);
		else if (t)
			wait_begin(l, t);	/* preempted */
	} else if (fs_task_higher(prev)) {
		left_fair(l, prev->pid, ev->ts);
	}
	if (fs_task_higher(prev) && runnable && !l->early) {
		if (dl_throttled(prev, next)) {
			set_add(l, c->throttled, &c->nr_throttled, prev->pid);
		} else {
			pend(l, c, prev->pid);
			/* A fair task in its stead: the server's service. */
			if (fs_prio_fair(next->pid, next->prio))
				c->displacing = true;
		}
	} else if (fs_task_higher(prev) && !runnable && !l->early) {
		/* Its want ended after a wait the service made. */
		struct fs_load_rt *r = rt_task(c, prev->pid, false);

		if (r)
			r->slept = true;
	}

	c->curr_known = true;
	c->curr_pid = next->pid;
	c->hi_running = fs_task_higher(next);
	if (c->hi_running) {
		c->displacing = false;
		unpend(c, next->pid);
		set_del(c->throttled, &c->nr_throttled, next->pid);
		left_fair(l, next->pid, ev->ts);
	}
	if (fs_prio_fair(next->pid, next->prio)) {
		t = find(l, next->pid);
		/* Not seen in the window: runnable since it began. */
		if (!t)
			t = open_job(l, next->pid, ev->cpu,
				     known(l, next->pid) ? ev->ts : c->t0);
		if (t) {
			wait_end(l, t);
			if (t->cpu != ev->cpu)
				move_job(l, t, ev->cpu);
			t->running = true;
			t->run_since = ev->ts;
		}
	}
	hi_update(l, c, ev->ts);
}

/* sched_wakeup(_new) of @ev->from onto @ev->cpu. */
static void on_wakeup(struct fs_loads *l, const struct fs_event *ev)
{
	struct fs_load *c = &l->cpu[ev->cpu];

	account(c, ev->ts);
	if (fs_prio_fair(ev->from.pid, ev->from.prio)) {
		/* A task woken while still runnable keeps its job. */
		if (!find(l, ev->from.pid))
			open_job(l, ev->from.pid, ev->cpu, ev->ts);
		return;
	}
	if (!fs_task_higher(&ev->from) || l->early ||
	    (c->curr_known && c->curr_pid == ev->from.pid))
		return;
	/* Woken: it blocked since, unseen; it wants the CPU now. */
	set_del(c->throttled, &c->nr_throttled, ev->from.pid);
	pend(l, c, ev->from.pid);
	hi_update(l, c, ev->ts);
}

/*
 * sched_migrate_task of @ev->from from @ev->src_cpu to @ev->cpu. A fair
 * task's job is split: the source CPU did the work so far, the rest is a
 * new job where it goes.
 */
static void on_migrate(struct fs_loads *l, const struct fs_event *ev)
{
	int src = ev->src_cpu, dst = ev->cpu;
	struct fs_load_task *t;
	bool throttled = false;

	if (cpu_load(l, src))
		account(&l->cpu[src], ev->ts);
	if (cpu_load(l, dst))
		account(&l->cpu[dst], ev->ts);
	if (fs_prio_fair(ev->from.pid, ev->from.prio)) {
		t = find(l, ev->from.pid);
		if (!t || t->running)
			return;
		if (t->work)
			add_job(l, t->cpu, t->arrive, t->work, false);
		wait_end(l, t);
		move_job(l, t, dst);
		wait_begin(l, t);
		t->arrive = ev->ts;
		t->work = 0;
		return;
	}
	if (!fs_task_higher(&ev->from))
		return;
	/* A throttled deadline task moves throttled. */
	if (src >= 0 && src < l->nr_cpus) {
		struct fs_load *c = &l->cpu[src];

		throttled = set_del(c->throttled, &c->nr_throttled,
				    ev->from.pid);
		unpend(c, ev->from.pid);
		hi_update(l, c, ev->ts);
	}
	if (dst >= 0 && dst < l->nr_cpus) {
		struct fs_load *c = &l->cpu[dst];

		if (!l->early && throttled)
			set_add(l, c->throttled, &c->nr_throttled,
				ev->from.pid);
		else if (!l->early)
			pend(l, c, ev->from.pid);
		hi_update(l, c, ev->ts);
	}
}

void fs_loads_event(struct fs_loads *l, const struct fs_event *ev)
{
	struct fs_event e;

	if (ev->type == FS_EV_LOST) {
		l->lost++;
		return;
	}
	if (ev->cpu < 0 || ev->cpu >= l->nr_cpus ||
	    !fs_ev_is(ev->type, FS_KIND_SCHED))
		return;
	/* Recorded just before the window began: at its start. */
	e = *ev;
	l->early = e.ts < l->cpu[e.cpu].t0;
	if (l->early)
		e.ts = l->cpu[e.cpu].t0;
	l->now = e.ts;
	if (l->cpu[e.cpu].full && e.type != FS_EV_MIGRATE)
		return;
	switch (e.type) {
	case FS_EV_SWITCH:
		on_switch(l, &e);
		break;
	case FS_EV_MIGRATE:
		on_migrate(l, &e);
		break;
	default:
		on_wakeup(l, &e);
		break;
	}
}

/* By arrival. */
static int by_ts(const void *a, const void *b)
{
	const struct fs_job *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

void fs_loads_finish(struct fs_loads *l, uint64_t t1)
{
	size_t i;
	int cpu;

	for (cpu = 0; cpu < l->nr_cpus; cpu++)
		account(&l->cpu[cpu], t1);
	for (i = 0; i < l->cap_task; i++) {
		struct fs_load_task *t = &l->task[i];
		struct fs_load *c = cpu_load(l, t->cpu);
		uint64_t work = FS_WORK_OPEN;

		if (!t->pid || !t->open)
			continue;
		t->open_at_end = true;
		if (t->running && t1 > t->run_since)
			t->work += t1 - t->run_since;
		else if (!t->running)
			wait_end(l, t);
		/*
		 * As much as its jobs took on average, or what it used if
		 * more; past twice that, it behaves as a task that never
		 * sleeps.
		 */
		if (t->jobs && t->work <= 2 * (t->jobs_work / t->jobs))
			work = t->work > t->jobs_work / t->jobs ?
			       t->work : t->jobs_work / t->jobs;
		add_job(l, t->cpu, t->arrive, work, true);
		/* A sleeper's job: its wait so far counts too. */
		if (work != FS_WORK_OPEN &&
		    !(c && c->full && t->arrive >= c->full_at))
			note_wait(t, c);
		t->open = false;
	}
	for (i = 0; i < l->cap_task; i++) {
		struct fs_load_task *t = &l->task[i];
		struct fs_load *c = cpu_load(l, t->wait_cpu);

		if (!t->pid || !t->jobs)
			continue;
		/* Asleep at the end: since its last job, at least. */
		if (!t->open_at_end && t1 > t->slept_at) {
			t->sleep_sum += t1 - t->slept_at;
			t->sleeps++;
		}
		if (t->wait_sum && c)
			c->censor_ns += hidden(t);
	}
	for (cpu = 0; cpu < l->nr_cpus; cpu++) {
		struct fs_load *c = &l->cpu[cpu];
		unsigned int r;

		for (r = 0; r < FS_LOAD_PENDING; r++)
			if (c->rt[r].slept)
				c->rt_displaced_ns += c->rt[r].displaced;
		if (c->rt_displaced_ns > c->displaced_all)
			c->rt_displaced_ns = c->displaced_all;

		if (t1 < c->t0)
			t1 = c->t0;
		c->t1 = c->full ? c->full_at : t1;
		if (c->hi_on && !c->full)
			span_end(l, c, c->t1);
		c->hi_on = false;
		c->hi_running = false;
		c->nr_pending = 0;
		c->nr_throttled = 0;
		if (c->nr_jobs)
			qsort(c->jobs, c->nr_jobs, sizeof(*c->jobs), by_ts);
	}
}
