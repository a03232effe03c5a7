// SPDX-License-Identifier: GPL-2.0
/*
 * Fair tasks' waits across CPUs and the longest episodes; see tasks.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tasks.h"

/* Set up an empty table that keeps at most @max tasks. */
void fs_tasks_init(struct fs_tasks *t, size_t max)
{
	memset(t, 0, sizeof(*t));
	t->max = max;
}

/* Release the table. */
void fs_tasks_free(struct fs_tasks *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* The slot of @pid in @v (cap a power of two): its entry or a free one. */
static struct fs_task_waits *slot(struct fs_task_waits *v, size_t cap,
				  int32_t pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) & (cap - 1);

	while (v[i].task.pid && v[i].task.pid != pid)
		i = (i + 1) & (cap - 1);
	return &v[i];
}

/* Double the table; -1 if out of memory. */
static int grow(struct fs_tasks *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64, i;
	struct fs_task_waits *v;

	if (cap > SIZE_MAX / sizeof(*v)) {
		errno = ENOMEM;
		return -1;
	}
	v = calloc(cap, sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < t->cap; i++)
		if (t->v[i].task.pid)
			*slot(v, cap, t->v[i].task.pid) = t->v[i];
	free(t->v);
	t->v = v;
	t->cap = cap;
	return 0;
}

/* Account one ended wait of a named task. */
int fs_tasks_add(struct fs_tasks *t, const struct fs_task *task, uint64_t ns,
		 int cpu, uint64_t ts)
{
	struct fs_task_waits *e;

	if (!task->pid)
		return 0;
	if (t->cap) {
		e = slot(t->v, t->cap, task->pid);
		if (e->task.pid)
			goto found;
	}
	if (t->nr >= t->max) {
		t->other++;
		return 0;
	}
	/* Keep the table at most half full. */
	if ((t->nr + 1) * 2 > t->cap && grow(t))
		return -1;
	e = slot(t->v, t->cap, task->pid);
	t->nr++;
found:
	/* A pid is reused, or renamed by exec: the latest name is shown. */
	e->task = *task;
	e->cpu = cpu;
	/* The first of equal longest waits keeps its time. */
	if (!e->wait.count || ns > e->wait.max)
		e->max_at = ts;
	fs_stat_add(&e->wait, ns);
	return 0;
}

/* Order of fs_tasks_sorted(): the longest wait first, then the pid. */
static int by_max(const void *a, const void *b)
{
	const struct fs_task_waits *x = a, *y = b;

	if (x->wait.max != y->wait.max)
		return x->wait.max < y->wait.max ? 1 : -1;
	return x->task.pid < y->task.pid ? -1 : x->task.pid > y->task.pid;
}

/* The tasks, the longest wait first, in a new array. */
int fs_tasks_sorted(const struct fs_tasks *t, struct fs_task_waits **out,
		    size_t *nr)
{
	size_t i, n = 0;

	*out = NULL;
	*nr = 0;
	if (!t->nr)
		return 0;
	*out = malloc(t->nr * sizeof(**out));
	if (!*out)
		return -1;
	for (i = 0; i < t->cap; i++)
		if (t->v[i].task.pid)
			(*out)[n++] = t->v[i];
	qsort(*out, n, sizeof(**out), by_max);
	*nr = n;
	return 0;
}

/* Set up an empty list of at most @max episodes. */
int fs_worst_init(struct fs_worst *w, size_t max)
{
	memset(w, 0, sizeof(*w));
	w->max = max;
	if (!max)
		return 0;
	if (max > SIZE_MAX / sizeof(*w->v)) {
		errno = ENOMEM;
		return -1;
	}
	w->v = malloc(max * sizeof(*w->v));
	return w->v ? 0 : -1;
}

/* Release the list. */
void fs_worst_free(struct fs_worst *w)
{
	free(w->v);
	memset(w, 0, sizeof(*w));
}

/* Whether @a ranks below @b: shorter, or as long and later. */
static bool below(const struct fs_worst_ep *a, const struct fs_worst_ep *b)
{
	if (a->ep.ns != b->ep.ns)
		return a->ep.ns < b->ep.ns;
	return a->seq > b->seq;
}

/* Swap two heap entries. */
static void swap(struct fs_worst_ep *a, struct fs_worst_ep *b)
{
	struct fs_worst_ep t = *a;

	*a = *b;
	*b = t;
}

/* Keep @ep if it ranks above the lowest kept one. */
void fs_worst_add(struct fs_worst *w, const struct fs_episode *ep)
{
	struct fs_worst_ep e = { .ep = *ep, .seq = w->seq++ };
	size_t i, c;

	if (!w->max)
		return;
	if (w->nr < w->max) {
		/* Sift up from the end. */
		i = w->nr++;
		w->v[i] = e;
		for (; i > 0 && below(&w->v[i], &w->v[(i - 1) / 2]);
		     i = (i - 1) / 2)
			swap(&w->v[i], &w->v[(i - 1) / 2]);
		return;
	}
	if (!below(&w->v[0], &e))
		return;
	/* Replace the lowest, at the root, and sift down. */
	w->v[0] = e;
	for (i = 0; (c = 2 * i + 1) < w->nr; i = c) {
		if (c + 1 < w->nr && below(&w->v[c + 1], &w->v[c]))
			c++;
		if (!below(&w->v[c], &w->v[i]))
			break;
		swap(&w->v[i], &w->v[c]);
	}
}

/* Order of fs_worst_sorted(): the highest rank first. */
static int by_rank(const void *a, const void *b)
{
	const struct fs_worst_ep *x = a, *y = b;

	return below(x, y) ? 1 : below(y, x) ? -1 : 0;
}

/* The kept episodes, the longest first, in a new array. */
int fs_worst_sorted(const struct fs_worst *w, struct fs_episode **out)
{
	struct fs_worst_ep *tmp;
	size_t i;

	*out = NULL;
	if (!w->nr)
		return 0;
	tmp = malloc(w->nr * sizeof(*tmp));
	*out = malloc(w->nr * sizeof(**out));
	if (!tmp || !*out) {
		free(tmp);
		free(*out);
		*out = NULL;
		return -1;
	}
	memcpy(tmp, w->v, w->nr * sizeof(*tmp));
	qsort(tmp, w->nr, sizeof(*tmp), by_rank);
	for (i = 0; i < w->nr; i++)
		(*out)[i] = tmp[i].ep;
	free(tmp);
	return 0;
}
