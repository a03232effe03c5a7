// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/tasks.c: the waits of each fair task across CPUs,
 * and the longest episodes kept in a bounded list.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tasks.h"
#include "tap.h"

/* A wait of @pid, @ns long. */
static struct fs_wait mkwait(int pid, const char *comm, uint64_t ns)
{
	struct fs_wait w;

	memset(&w, 0, sizeof(w));
	w.task.pid = pid;
	snprintf(w.task.comm, sizeof(w.task.comm), "%s", comm);
	w.ns = ns;
	w.end = FS_END_RAN;
	return w;
}

/* The table: per pid, across CPUs; a bound; sorted by longest wait. */
static void test_tasks(void)
{
	struct fs_task_waits *v;
	struct fs_tasks t;
	struct fs_wait w;
	size_t nr, i;
	int bad = 0;

	fs_tasks_init(&t, 1000);
	w = mkwait(10, "a", 5);
	ok(!fs_tasks_add(&t, &w.task, w.ns, 1, 100), "add a wait");
	w = mkwait(10, "a", 50);
	fs_tasks_add(&t, &w.task, w.ns, 2, 200);
	w = mkwait(10, "a", 50);
	fs_tasks_add(&t, &w.task, w.ns, 2, 250);
	w = mkwait(10, "a", 20);
	fs_tasks_add(&t, &w.task, w.ns, 2, 300);
	w = mkwait(20, "b", 30);
	fs_tasks_add(&t, &w.task, w.ns, 1, 400);
	w = mkwait(0, "", 99);
	fs_tasks_add(&t, &w.task, w.ns, 1, 500);
	ok(t.nr == 2, "two tasks; a wait with no pid is not kept");
	ok(!fs_tasks_sorted(&t, &v, &nr) && nr == 2, "sorted copy of 2");
	ok(v[0].task.pid == 10 && v[0].wait.count == 4 &&
	   v[0].wait.max == 50 && v[0].wait.sum == 125 && v[0].cpu == 2,
	   "pid 10: 4 waits, max 50, last on cpu 2");
	ok(v[0].max_at == 200,
	   "the first of its two longest waits dates its max (%llu)",
	   (unsigned long long)v[0].max_at);
	ok(v[1].task.pid == 20 && v[1].wait.max == 30 && v[1].max_at == 400,
	   "then pid 20, max at 400");
	free(v);

	/* Many tasks: the table grows; each keeps its own count. */
	for (i = 0; i < 900; i++) {
		w = mkwait(100 + (int)i, "x", i);
		if (fs_tasks_add(&t, &w.task, w.ns, 0, i))
			bad++;
		w.ns = 2 * i;
		if (fs_tasks_add(&t, &w.task, w.ns, 0, i))
			bad++;
	}
	ok(!bad && t.nr == 902, "902 tasks after growing (%zu)", t.nr);
	ok(!fs_tasks_sorted(&t, &v, &nr) && nr == 902 &&
	   v[0].task.pid == 999 && v[0].wait.max == 1798 &&
	   v[0].wait.count == 2, "the longest first: pid 999, 1798");
	for (i = 1; i < nr; i++)
		if (v[i].wait.max > v[i - 1].wait.max)
			bad++;
	ok(!bad, "in descending order of the longest wait");
	free(v);

	/* Beyond the bound, waits are counted, not kept. */
	for (i = 0; i < 200; i++) {
		w = mkwait(5000 + (int)i, "y", 1);
		fs_tasks_add(&t, &w.task, w.ns, 0, i);
	}
	ok(t.nr == 1000 && t.other == 102,
	   "at most 1000 tasks, 102 waits of others counted");
	w = mkwait(10, "a", 7);
	fs_tasks_add(&t, &w.task, w.ns, 0, i);
	ok(t.other == 102, "a known task is still accounted when full");
	fs_tasks_free(&t);
	ok(!t.v && !t.nr, "freed");
}

/* The longest episodes: a bounded list, longest first, stable. */
static void test_worst(void)
{
	struct fs_episode ep, *v;
	struct fs_worst w;
	uint64_t lens[500];
	size_t i, j;
	int bad = 0;

	memset(&ep, 0, sizeof(ep));
	ok(!fs_worst_init(&w, 0), "a list of 0");
	ep.ns = 5;
	fs_worst_add(&w, &ep);
	ok(w.nr == 0 && !fs_worst_sorted(&w, &v) && !v, "keeps nothing");
	fs_worst_free(&w);

	ok(!fs_worst_init(&w, 10), "a list of 10");
	srand(3);
	for (i = 0; i < 500; i++) {
		lens[i] = (uint64_t)(rand() % 100);
		ep.ns = lens[i];
		ep.cpu = (int)i;	/* the order of arrival */
		fs_worst_add(&w, &ep);
	}
	ok(w.nr == 10 && !fs_worst_sorted(&w, &v) && v, "10 kept of 500");
	/* The expected list: sort the indices, longest first, stable. */
	for (i = 0; i < 10; i++) {
		size_t best = 500;

		for (j = 0; j < 500; j++) {
			bool taken = false;
			size_t k;

			for (k = 0; k < i; k++)
				if ((size_t)v[k].cpu == j)
					taken = true;
			if (taken)
				continue;
			if (best == 500 || lens[j] > lens[best])
				best = j;
		}
		if (v[i].ns != lens[best] || (size_t)v[i].cpu != best)
			bad++;
	}
	ok(!bad, "the 10 longest, longest first, ties by arrival");
	free(v);
	fs_worst_free(&w);
	ok(!w.v && !w.nr, "freed");
}

int main(void)
{
	test_tasks();
	test_worst();
	return tap_done();
}
