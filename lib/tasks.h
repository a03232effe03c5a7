/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the run keeps across CPUs: each fair task's waits, and the longest
 * starvation episodes with their waiters and holders. Pure code.
 */
#ifndef FAIRSRV_TASKS_H
#define FAIRSRV_TASKS_H

#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "model.h"

/*
 * The starvation of one fair task: per wait (from becoming runnable to
 * running), the time a higher class held its CPU.
 */
struct fs_task_waits {
	struct fs_task task;
	int cpu;		/* where it last ran after starving */
	struct fs_stat wait;	/* ns, every wait that ended with starvation */
	uint64_t max_at;	/* when the longest wait ended (it ran) */
};

/* Fair tasks by pid, in an open-addressing table. */
struct fs_tasks {
	struct fs_task_waits *v;	/* cap entries; pid 0: free */
	size_t nr, cap;
	size_t max;		/* at most this many tasks are kept */
	uint64_t other;		/* waits of tasks beyond max */
};

/* Set up an empty table that keeps at most @max tasks. */
void fs_tasks_init(struct fs_tasks *t, size_t max);
void fs_tasks_free(struct fs_tasks *t);

/*
 * Account @ns of starvation in one wait of @task that ended at @ts, when
 * it ran on @cpu. Returns 0, or -1 when out of memory.
 */
int fs_tasks_add(struct fs_tasks *t, const struct fs_task *task, uint64_t ns,
		 int cpu, uint64_t ts);

/*
 * The tasks, sorted by their longest wait, the longest first, into @out
 * (nr entries, allocated; the caller frees it). Returns -1 if out of memory.
 */
int fs_tasks_sorted(const struct fs_tasks *t, struct fs_task_waits **out,
		    size_t *nr);

/* One kept episode, and its place in the order of arrival. */
struct fs_worst_ep {
	struct fs_episode ep;
	uint64_t seq;
};

/* The @max longest episodes: a min-heap, sorted when read. */
struct fs_worst {
	struct fs_worst_ep *v;
	size_t nr, max;
	uint64_t seq;
};

/* Set up an empty list of at most @max episodes; -1 if out of memory. */
int fs_worst_init(struct fs_worst *w, size_t max);
void fs_worst_free(struct fs_worst *w);

/* Keep @ep if it is among the longest. */
void fs_worst_add(struct fs_worst *w, const struct fs_episode *ep);

/*
 * The kept episodes, the longest first (equal lengths in order of
 * arrival), in a new array of w->nr (the caller frees it); -1 if out of
 * memory.
 */
int fs_worst_sorted(const struct fs_worst *w, struct fs_episode **out);

#endif
