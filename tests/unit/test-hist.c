// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/hist.c.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "hist.h"
#include "tap.h"

/* Sum of every bucket of @h plus over. */
static uint64_t hist_total(const struct fs_hist *h)
{
	uint64_t n = h->over;
	unsigned int i;

	for (i = 0; i < h->entries; i++)
		n += h->buckets[i];
	return n;
}

/* Check fs_stat on its own. */
static void test_stat(void)
{
	struct fs_stat a = { 0 }, b = { 0 }, empty = { 0 };

	ok(fs_stat_avg(&a) == 0, "avg of empty stat is 0");
	fs_stat_add(&a, 10);
	ok(a.count == 1 && a.min == 10 && a.max == 10 && a.sum == 10,
	   "first sample sets min and max");
	fs_stat_add(&a, 3);
	fs_stat_add(&a, 20);
	ok(a.count == 3 && a.min == 3 && a.max == 20 && a.sum == 33,
	   "min/max/sum after three samples");
	ok(fs_stat_avg(&a) == 11, "avg is 11");
	fs_stat_add(&a, 0);
	ok(a.min == 0 && fs_stat_avg(&a) == 8, "avg rounds down (33/4 = 8)");

	fs_stat_merge(&a, &empty);
	ok(a.count == 4 && a.min == 0 && a.max == 20 && a.sum == 33,
	   "merging an empty stat changes nothing");
	fs_stat_merge(&b, &a);
	ok(b.count == 4 && b.min == 0 && b.max == 20 && b.sum == 33,
	   "merging into an empty stat copies it");

	memset(&b, 0, sizeof(b));
	fs_stat_add(&b, 100);
	fs_stat_add(&b, 50);
	fs_stat_merge(&a, &b);
	ok(a.count == 6 && a.min == 0 && a.max == 100 && a.sum == 183,
	   "merge of two stats");
	fs_stat_merge(&b, &a);
	ok(b.count == 8 && b.min == 0 && b.max == 100 && b.sum == 333,
	   "merge keeps the lower min");
}

/* Check init argument checks and free. */
static void test_init(void)
{
	struct fs_hist h, zero;

	memset(&h, 0xff, sizeof(h));
	errno = 0;
	ok(fs_hist_init(&h, 0, 10) == -1 && errno == EINVAL,
	   "bucket_size 0 fails with EINVAL");
	fs_hist_free(&h);
	memset(&h, 0xff, sizeof(h));
	errno = 0;
	ok(fs_hist_init(&h, 10, 0) == -1 && errno == EINVAL,
	   "entries 0 fails with EINVAL");
	fs_hist_free(&h);
	errno = 0;
	ok(fs_hist_init(&h, 0, 0) == -1 && errno == EINVAL,
	   "both 0 fails with EINVAL");

	ok(fs_hist_init(&h, 10, 5) == 0 && h.buckets && h.bucket_size == 10 &&
	   h.entries == 5 && h.over == 0 && h.stat.count == 0,
	   "init sets up an empty histogram");
	ok(hist_total(&h) == 0, "buckets start at zero");
	fs_hist_free(&h);
	ok(h.buckets == NULL, "free clears the bucket pointer");
	/* A double free would be reported by ASan and valgrind. */
	fs_hist_free(&h);
	ok(h.buckets == NULL && h.entries == 0 && h.stat.count == 0,
	   "freeing twice leaves it empty");

	memset(&zero, 0, sizeof(zero));
	fs_hist_free(&zero);
	ok(zero.buckets == NULL && zero.bucket_size == 0,
	   "freeing a zeroed histogram leaves it zeroed");
}

/* Check which bucket samples land in. */
static void test_add(void)
{
	struct fs_hist h;

	if (fs_hist_init(&h, 10, 4)) {
		ok(0, "init 10 x 4");
		return;
	}
	fs_hist_add(&h, 0);
	ok(h.buckets[0] == 1, "v = 0 goes to bucket 0");
	fs_hist_add(&h, 9);
	ok(h.buckets[0] == 2 && h.buckets[1] == 0,
	   "v = bucket_size - 1 goes to bucket 0");
	fs_hist_add(&h, 10);
	ok(h.buckets[1] == 1, "v = bucket_size goes to bucket 1");
	fs_hist_add(&h, 39);
	ok(h.buckets[3] == 1 && h.over == 0,
	   "v = entries * bucket_size - 1 goes to the last bucket");
	fs_hist_add(&h, 40);
	ok(h.over == 1 && h.buckets[3] == 1,
	   "v = entries * bucket_size goes to over");
	fs_hist_add(&h, 1000);
	fs_hist_add(&h, UINT64_MAX);
	ok(h.over == 3, "over counts every sample past the last bucket");
	ok(hist_total(&h) == 7 && h.stat.count == 7,
	   "every sample is counted once");
	ok(h.stat.min == 0 && h.stat.max == UINT64_MAX,
	   "stat includes over samples");
	fs_hist_free(&h);

	if (fs_hist_init(&h, 1000, 3)) {
		ok(0, "init 1000 x 3");
		return;
	}
	fs_hist_add(&h, 1500);
	fs_hist_add(&h, 2500);
	fs_hist_add(&h, 5000);
	ok(h.buckets[0] == 0 && h.buckets[1] == 1 && h.buckets[2] == 1 &&
	   h.over == 1, "buckets of 1000 x 3");
	ok(h.stat.min == 1500 && h.stat.max == 5000 && h.stat.sum == 9000 &&
	   fs_stat_avg(&h.stat) == 3000, "min/max/avg of the histogram");
	fs_hist_free(&h);

	if (fs_hist_init(&h, 1, 1)) {
		ok(0, "init 1 x 1");
		return;
	}
	fs_hist_add(&h, 0);
	fs_hist_add(&h, 1);
	ok(h.buckets[0] == 1 && h.over == 1, "1 x 1 histogram edges");
	fs_hist_free(&h);
}

/* Check merging of histograms. */
static void test_merge(void)
{
	struct fs_hist a, b, c, d;

	if (fs_hist_init(&a, 10, 4) || fs_hist_init(&b, 10, 4) ||
	    fs_hist_init(&c, 20, 4) || fs_hist_init(&d, 10, 5)) {
		ok(0, "init for merge");
		return;
	}
	fs_hist_add(&a, 5);
	fs_hist_add(&a, 15);
	fs_hist_add(&a, 100);
	fs_hist_add(&b, 7);
	fs_hist_add(&b, 35);
	fs_hist_add(&b, 41);
	fs_hist_add(&b, 2);

	ok(fs_hist_merge(&a, &b) == 0, "merge with the same geometry");
	ok(a.buckets[0] == 3 && a.buckets[1] == 1 && a.buckets[2] == 0 &&
	   a.buckets[3] == 1 && a.over == 2, "merged bucket counts");
	ok(a.stat.count == 7 && a.stat.min == 2 && a.stat.max == 100 &&
	   a.stat.sum == 205, "merged stat");
	ok(b.buckets[0] == 2 && b.over == 1 && b.stat.count == 4,
	   "source is left alone");

	fs_hist_add(&c, 5);
	errno = 0;
	ok(fs_hist_merge(&a, &c) == -1 && errno == EINVAL,
	   "merge with another bucket_size fails");
	errno = 0;
	ok(fs_hist_merge(&a, &d) == -1 && errno == EINVAL,
	   "merge with another entry count fails");
	ok(a.buckets[0] == 3 && a.over == 2 && a.stat.count == 7,
	   "failed merge leaves dst alone");

	fs_hist_free(&a);
	fs_hist_free(&b);
	fs_hist_free(&c);
	fs_hist_free(&d);
}

/* Run every histogram test. */
/* The fixed bounds: a sample counts in the first it does not exceed. */
static void test_fixed(void)
{
	struct fs_hist a, b;
	uint64_t n = 0;
	unsigned int i;

	if (fs_hist_init(&a, 10, 4) || fs_hist_init(&b, 10, 4)) {
		ok(0, "init");
		return;
	}
	for (i = 1; i < FS_HIST_FIXED_NR; i++)
		if (fs_hist_fixed_ns[i] <= fs_hist_fixed_ns[i - 1])
			break;
	ok(i == FS_HIST_FIXED_NR && fs_hist_fixed_ns[0] == 100000 &&
	   fs_hist_fixed_ns[FS_HIST_FIXED_NR - 1] == 10000000000ULL,
	   "fixed bounds rise from 100 us to 10 s");
	fs_hist_add(&a, 0);
	fs_hist_add(&a, 100000);		/* on a bound: that bound */
	fs_hist_add(&a, 100001);		/* just above: the next */
	fs_hist_add(&a, 950000000);		/* 950 ms: le 1 s */
	fs_hist_add(&a, 10000000000ULL);	/* 10 s: the last */
	fs_hist_add(&a, 10000000001ULL);	/* above: +Inf only */
	ok(a.fixed[0] == 2 && a.fixed[1] == 1 && a.fixed[12] == 1 &&
	   a.fixed[15] == 1, "each sample in the first bound it does not exceed");
	for (i = 0; i < FS_HIST_FIXED_NR; i++)
		n += a.fixed[i];
	ok(n == 5 && a.stat.count == 6, "the one above 10 s is in count only");
	fs_hist_add(&b, 3000000);
	ok(fs_hist_merge(&a, &b) == 0 && a.fixed[5] == 1 && a.fixed[0] == 2,
	   "merge adds the fixed counts");
	fs_hist_free(&a);
	fs_hist_free(&b);
}

int main(void)
{
	test_stat();
	test_init();
	test_add();
	test_merge();
	test_fixed();
	return tap_done();
}
