// SPDX-License-Identifier: GPL-2.0
/*
 * The reordering of events across ring buffers; see order.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "order.h"

/* Set up an empty queue. */
void fs_order_init(struct fs_order *o)
{
	memset(o, 0, sizeof(*o));
}

/* Release the queue's memory. */
void fs_order_free(struct fs_order *o)
{
	free(o->q);
	free(o->tmp);
	o->q = o->tmp = NULL;
	o->nr = o->cap = 0;
}

/* Make room for one more event; the merge buffer grows along. */
static int grow(struct fs_order *o)
{
	size_t cap = o->cap ? o->cap * 2 : 1024;
	struct fs_event *q, *tmp;

	if (cap > SIZE_MAX / sizeof(*q)) {
		errno = ENOMEM;
		return -1;
	}
	q = realloc(o->q, cap * sizeof(*q));
	if (!q)
		return -1;
	o->q = q;
	tmp = realloc(o->tmp, cap * sizeof(*tmp));
	if (!tmp)
		return -1;
	o->tmp = tmp;
	o->cap = cap;
	return 0;
}

/* Queue one event at the end; it is sorted when released. */
int fs_order_push(struct fs_order *o, const struct fs_event *ev)
{
	if (o->nr == o->cap && grow(o))
		return -1;
	o->q[o->nr++] = *ev;
	if (ev->ts > o->round_max)
		o->round_max = ev->ts;
	return 0;
}

/* End of the sorted run of @q that starts at @i. */
static size_t run_end(const struct fs_event *q, size_t i, size_t nr)
{
	for (i++; i < nr && q[i - 1].ts <= q[i].ts; i++)
		;
	return i;
}

/* Stable merge of q[a, b) and q[b, c) into out[a, c). */
static void merge(const struct fs_event *q, struct fs_event *out, size_t a,
		  size_t b, size_t c)
{
	size_t i = a, j = b, k = a;

	while (i < b && j < c)
		out[k++] = q[j].ts < q[i].ts ? q[j++] : q[i++];
	while (i < b)
		out[k++] = q[i++];
	while (j < c)
		out[k++] = q[j++];
}

/* Sort the queue: merge neighbouring runs, pass after pass, until one. */
static void sort(struct fs_order *o)
{
	while (o->nr && run_end(o->q, 0, o->nr) < o->nr) {
		struct fs_event *swap;
		size_t a, b, c;

		for (a = 0; a < o->nr; a = c) {
			b = run_end(o->q, a, o->nr);
			c = b < o->nr ? run_end(o->q, b, o->nr) : b;
			merge(o->q, o->tmp, a, b, c);
		}
		swap = o->q;
		o->q = o->tmp;
		o->tmp = swap;
	}
}

/* Sort, hand the events up to @limit to @fn, keep the rest. */
static void release(struct fs_order *o, uint64_t limit, fs_order_fn fn,
		    void *ctx)
{
	size_t i;

	sort(o);
	for (i = 0; i < o->nr && o->q[i].ts <= limit; i++) {
		if (o->q[i].ts < o->released_max)
			o->late++;
		else
			o->released_max = o->q[i].ts;
		fn(ctx, &o->q[i]);
	}
	memmove(o->q, o->q + i, (o->nr - i) * sizeof(*o->q));
	o->nr -= i;
}

/* The reads of a round begin at @ts: the horizon can move there. */
void fs_order_mark(struct fs_order *o, uint64_t ts)
{
	if (ts > o->round_max)
		o->round_max = ts;
}

/* Release what the previous round made safe, then move the horizon. */
void fs_order_round(struct fs_order *o, fs_order_fn fn, void *ctx)
{
	if (o->nr)
		release(o, o->horizon, fn, ctx);
	o->safe = o->horizon;
	if (o->round_max > o->horizon)
		o->horizon = o->round_max;
}

/* Release everything that is queued. */
void fs_order_flush(struct fs_order *o, fs_order_fn fn, void *ctx)
{
	if (o->nr)
		release(o, UINT64_MAX, fn, ctx);
	if (o->round_max > o->horizon)
		o->horizon = o->round_max;
	o->safe = o->horizon;
}
