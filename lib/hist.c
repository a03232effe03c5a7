// SPDX-License-Identifier: GPL-2.0
/*
 * Histograms and running statistics of time values. See hist.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

/* Account sample @v in @st. */
void fs_stat_add(struct fs_stat *st, uint64_t v)
{
	if (st->count == 0 || v < st->min)
		st->min = v;
	if (st->count == 0 || v > st->max)
		st->max = v;
	st->count++;
	st->sum += v;
}

/* Add the samples summarised in @src to @dst. */
void fs_stat_merge(struct fs_stat *dst, const struct fs_stat *src)
{
	if (src->count == 0)
		return;
	if (dst->count == 0) {
		*dst = *src;
		return;
	}
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
}

/* Return the average of the samples in @st, rounded down, or 0. */
uint64_t fs_stat_avg(const struct fs_stat *st)
{
	if (st->count == 0)
		return 0;
	return st->sum / st->count;
}

const uint64_t fs_hist_fixed_ns[FS_HIST_FIXED_NR] = {
	100000, 200000, 500000,
	1000000, 2000000, 5000000,
	10000000, 20000000, 50000000,
	100000000, 200000000, 500000000,
	1000000000, 2000000000, 5000000000, 10000000000,
};

/* Set up @h with @entries empty buckets of @bucket_size each. */
int fs_hist_init(struct fs_hist *h, uint64_t bucket_size, unsigned int entries)
{
	memset(h, 0, sizeof(*h));
	if (bucket_size == 0 || entries == 0) {
		errno = EINVAL;
		return -1;
	}
	h->buckets = calloc(entries, sizeof(*h->buckets));
	if (!h->buckets) {
		errno = ENOMEM;
		return -1;
	}
	h->bucket_size = bucket_size;
	h->entries = entries;
	return 0;
}

/* Release the buckets of @h and leave it zeroed, so freeing twice is safe. */
void fs_hist_free(struct fs_hist *h)
{
	free(h->buckets);
	memset(h, 0, sizeof(*h));
}

/* Count sample @v in its bucket, or in over, and in the statistics. */
void fs_hist_add(struct fs_hist *h, uint64_t v)
{
	uint64_t idx = v / h->bucket_size;

	unsigned int i;

	if (idx < h->entries)
		h->buckets[idx]++;
	else
		h->over++;
	fs_stat_add(&h->stat, v);
	for (i = 0; i < FS_HIST_FIXED_NR; i++) {
		if (v <= fs_hist_fixed_ns[i]) {
			h->fixed[i]++;
			break;
		}
	}
}

/* Add the counts of @src to @dst when both have the same geometry. */
int fs_hist_merge(struct fs_hist *dst, const struct fs_hist *src)
{
	unsigned int i;

	if (dst->bucket_size != src->bucket_size ||
	    dst->entries != src->entries) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < dst->entries; i++)
		dst->buckets[i] += src->buckets[i];
	dst->over += src->over;
	for (i = 0; i < FS_HIST_FIXED_NR; i++)
		dst->fixed[i] += src->fixed[i];
	fs_stat_merge(&dst->stat, &src->stat);
	return 0;
}
