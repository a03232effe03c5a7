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
	o->q = NULL;
	o->nr = o->cap = 0;
}

/* Queue one event at the end; it is sorted when released. */
int fs_order_push(struct fs_order *o, const struct fs_event *ev)
{
	if (o->nr == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 1024;
		struct fs_order_entry *q;

		if (cap > SIZE_MAX / sizeof(*q)) {
			errno = ENOMEM;
			return -1;
		}
		q = realloc(o->q, cap * sizeof(*q));
		if (!q)
			return -1;
		o->q = q;
		o->cap = cap;
	}
	o->q[o->nr].ev = *ev;
	o->q[o->nr].seq = o->seq++;
	o->nr++;
	if (ev->ts > o->round_max)
		o->round_max = ev->ts;
	return 0;
}

/* Timestamp order, arrival order among equal timestamps. */
static int cmp_entry(const void *a, const void *b)
{
	const struct fs_order_entry *x = a, *y = b;

	if (x->ev.ts != y->ev.ts)
		return x->ev.ts < y->ev.ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sort, hand the events up to @limit to @fn, keep the rest. */
static void release(struct fs_order *o, uint64_t limit, fs_order_fn fn,
		    void *ctx)
{
	size_t i;

	qsort(o->q, o->nr, sizeof(*o->q), cmp_entry);
	for (i = 0; i < o->nr && o->q[i].ev.ts <= limit; i++) {
		if (o->q[i].ev.ts < o->released_max)
			o->late++;
		else
			o->released_max = o->q[i].ev.ts;
		fn(ctx, &o->q[i].ev);
	}
	memmove(o->q, o->q + i, (o->nr - i) * sizeof(*o->q));
	o->nr -= i;
}

/* Release what the previous round made safe, then move the horizon. */
void fs_order_round(struct fs_order *o, fs_order_fn fn, void *ctx)
{
	if (o->nr)
		release(o, o->horizon, fn, ctx);
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
}
