/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Put the events of all ring buffers back in timestamp order. A server's
 * events are not all written to its own CPU's buffer: a wakeup or a
 * balance done from another CPU writes there. Each read round merges the
 * buffers as read, but an event still being written into one buffer while
 * another was read is only seen the next round. So a round releases only
 * the events up to the highest timestamp of the round before, which every
 * buffer had committed by the time it was read again.
 */
#ifndef FAIRSRV_ORDER_H
#define FAIRSRV_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/*
 * Each buffer's events come in timestamp order, so the queue is a few
 * sorted runs, one per buffer read: a stable merge of the runs orders it
 * and keeps equal timestamps in arrival order.
 */
struct fs_order {
	struct fs_event *q;
	struct fs_event *tmp;	/* as large as q: the merge's other side */
	size_t nr, cap;
	uint64_t horizon;	/* release up to here after this round */
	uint64_t round_max;	/* highest timestamp queued this round */
	uint64_t released_max;	/* highest timestamp released so far */
	uint64_t safe;		/* every event up to here was released */
	uint64_t late;		/* released after a later one: out of order */
};

/* The consumer of released events. */
typedef void (*fs_order_fn)(void *ctx, const struct fs_event *ev);

void fs_order_init(struct fs_order *o);
void fs_order_free(struct fs_order *o);

/* Queue one event. Returns 0, or -1 with errno ENOMEM. */
int fs_order_push(struct fs_order *o, const struct fs_event *ev);

/*
 * A read round begins at @ts (the trace clock): an event older than that
 * is in its buffer by the next round, even on a CPU that records nothing.
 */
void fs_order_mark(struct fs_order *o, uint64_t ts);

/* End of a read round: release in order what can no longer be preceded. */
void fs_order_round(struct fs_order *o, fs_order_fn fn, void *ctx);

/* End of the run: release everything, in order. */
void fs_order_flush(struct fs_order *o, fs_order_fn fn, void *ctx);

#endif
