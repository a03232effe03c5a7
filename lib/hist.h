/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Histograms and running statistics of time values (nanoseconds).
 * Pure code: no I/O.
 */
#ifndef FAIRSRV_HIST_H
#define FAIRSRV_HIST_H

#include <stdint.h>

/* count/min/max/sum of a series of samples. */
struct fs_stat {
	uint64_t count;
	uint64_t min;		/* valid when count > 0 */
	uint64_t max;
	uint64_t sum;
};

void fs_stat_add(struct fs_stat *st, uint64_t v);
/* Merge @src into @dst. */
void fs_stat_merge(struct fs_stat *dst, const struct fs_stat *src);
/* Average, rounded down; 0 when empty. */
uint64_t fs_stat_avg(const struct fs_stat *st);

/*
 * A histogram of @entries buckets of @bucket_size each, plus an overflow
 * counter. Sample v goes to bucket v / bucket_size when that is below
 * entries, else to over. It keeps an fs_stat of every sample, over
 * included.
 */
/*
 * Bounds every histogram also counts against, whatever its own geometry:
 * the same on every host, so that a fleet can add the metrics' buckets
 * up. From 100 us to 10 s in steps of 1, 2 and 5; in ns.
 */
#define FS_HIST_FIXED_NR	16
extern const uint64_t fs_hist_fixed_ns[FS_HIST_FIXED_NR];

struct fs_hist {
	uint64_t bucket_size;	/* in the unit samples are given in, > 0 */
	unsigned int entries;	/* > 0 */
	uint64_t *buckets;	/* entries counters */
	uint64_t over;
	struct fs_stat stat;
	/*
	 * fixed[i]: samples above bound i - 1 and at most bound i (not
	 * cumulative); those above the last bound are stat.count less all.
	 */
	uint64_t fixed[FS_HIST_FIXED_NR];
};

/* Returns 0, or -1 with errno set (ENOMEM, EINVAL for 0 sizes). */
int fs_hist_init(struct fs_hist *h, uint64_t bucket_size, unsigned int entries);
void fs_hist_free(struct fs_hist *h);
void fs_hist_add(struct fs_hist *h, uint64_t v);
/* Merge @src into @dst; both must have the same geometry, else -1. */
int fs_hist_merge(struct fs_hist *dst, const struct fs_hist *src);

#endif
