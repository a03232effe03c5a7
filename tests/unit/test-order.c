// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/order.c: events read from several ring buffers in
 * rounds come out in timestamp order.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "tap.h"

#define MAX_OUT	200000

/* What the consumer saw. */
struct sink {
	uint64_t ts[MAX_OUT];
	int cpu[MAX_OUT];
	size_t n;
};

static struct sink out;

/* The consumer: record each released event. */
static void take(void *ctx, const struct fs_event *ev)
{
	struct sink *s = ctx;

	if (s->n < MAX_OUT) {
		s->ts[s->n] = ev->ts;
		s->cpu[s->n] = ev->cpu;
	}
	s->n++;
}

/* Queue an event with timestamp @ts, tagged @cpu. */
static int push(struct fs_order *o, uint64_t ts, int cpu)
{
	struct fs_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.ts = ts;
	ev.cpu = cpu;
	return fs_order_push(o, &ev);
}

/* Whether the sink holds exactly @n timestamps @want, in order. */
static int saw(const uint64_t *want, size_t n)
{
	size_t i;

	if (out.n != n)
		return 0;
	for (i = 0; i < n; i++)
		if (out.ts[i] != want[i])
			return 0;
	return 1;
}

/* Rounds: only what the round before made safe is released. */
static void test_rounds(void)
{
	static const uint64_t first[] = { 2, 3, 4, 5 };
	static const uint64_t second[] = { 2, 3, 4, 5, 6, 7 };
	struct fs_order o;

	fs_order_init(&o);
	out.n = 0;
	push(&o, 5, 1);
	push(&o, 3, 0);
	push(&o, 4, 0);
	fs_order_round(&o, take, &out);
	ok(out.n == 0 && o.nr == 3,
	   "first round: nothing released, all may still be preceded");
	push(&o, 6, 1);
	push(&o, 2, 2);	/* written before 5, read a round later */
	fs_order_round(&o, take, &out);
	ok(saw(first, 4) && o.nr == 1,
	   "second round: up to the first round's highest (5), sorted");
	push(&o, 7, 0);
	fs_order_round(&o, take, &out);
	ok(saw(second, 5) && o.nr == 1, "third round: 6 released, 7 kept");
	fs_order_flush(&o, take, &out);
	ok(saw(second, 6) && o.nr == 0 && o.late == 0,
	   "flush releases the rest, none late");
	fs_order_round(&o, take, &out);
	fs_order_flush(&o, take, &out);
	ok(out.n == 6, "rounds and flushes of an empty queue release nothing");
	fs_order_free(&o);
}

/* Equal timestamps keep their arrival order. */
static void test_stable(void)
{
	struct fs_order o;
	int i, in_order = 1;

	fs_order_init(&o);
	out.n = 0;
	for (i = 0; i < 50; i++)
		push(&o, 100 - (i % 2) * 50, i);
	fs_order_flush(&o, take, &out);
	for (i = 0; i < 50; i++) {
		int want = i < 25 ? 2 * i + 1 : 2 * (i - 25);

		if (out.cpu[i] != want)
			in_order = 0;
	}
	ok(out.n == 50 && in_order,
	   "equal timestamps come out in arrival order");
	fs_order_free(&o);
}

/*
 * An event older than one already released is still released, and
 * counted as late: only its CPU's model can tell whether it is out of
 * order there (test-server and test-starve: the model rejects it then).
 * Here cpu 1's event at 5 is late for the stream, not for cpu 1.
 */
static void test_late(void)
{
	static const uint64_t want[] = { 10, 20, 5, 30 };
	static const int cpus[] = { 0, 0, 1, 0 };
	struct fs_order o;
	size_t i;
	int same = 1;

	fs_order_init(&o);
	out.n = 0;
	push(&o, 10, 0);
	push(&o, 20, 0);
	fs_order_round(&o, take, &out);
	push(&o, 30, 0);
	fs_order_round(&o, take, &out);
	push(&o, 5, 1);
	fs_order_round(&o, take, &out);
	for (i = 0; i < 4 && i < out.n; i++)
		same &= out.cpu[i] == cpus[i];
	ok(saw(want, 4) && same && o.late == 1,
	   "an event two rounds late is released, counted (late %llu)",
	   (unsigned long long)o.late);
	ok(o.released_max == 30, "the late one does not move the release mark");
	fs_order_free(&o);
}

/*
 * With no event at all, the time a round began still moves what is safe:
 * a CPU that records nothing is known to be quiet up to there.
 */
static void test_quiet(void)
{
	static const uint64_t want[] = { 40 };
	struct fs_order o;

	fs_order_init(&o);
	out.n = 0;
	fs_order_mark(&o, 100);
	fs_order_round(&o, take, &out);
	ok(o.safe == 0, "first round: nothing is safe yet");
	fs_order_mark(&o, 200);
	push(&o, 150, 0);
	fs_order_round(&o, take, &out);
	ok(o.safe == 100 && out.n == 0 && o.nr == 1,
	   "second round: safe up to the first round's start, 150 kept");
	fs_order_mark(&o, 300);
	fs_order_round(&o, take, &out);
	ok(o.safe == 200 && out.n == 1, "third round: 150 released, safe 200");
	push(&o, 40, 1);
	fs_order_flush(&o, take, &out);
	ok(out.n == 2 && out.ts[1] == want[0] && o.late == 1 &&
	   o.safe == 300, "flush: everything released, safe to the last mark");
	fs_order_free(&o);
}

/* Many buffers read in rounds: the merged stream is sorted, none lost. */
static void test_volume(void)
{
	enum { CPUS = 4, ROUNDS = 10 };
	uint64_t clock[CPUS] = { 0 };
	struct fs_order o;
	size_t i, total = 0;
	int r, c, sorted = 1, failed = 0;

	fs_order_init(&o);
	out.n = 0;
	srand(7);
	for (r = 0; r < ROUNDS; r++) {
		/*
		 * Each buffer is read up to its own point in time; a
		 * buffer may lag behind the others by up to 1000 ns.
		 */
		for (c = 0; c < CPUS; c++) {
			uint64_t until = (uint64_t)(r + 1) * 100000 -
					 (uint64_t)(rand() % 1000);

			while (clock[c] < until) {
				clock[c] += 1 + (uint64_t)(rand() % 80);
				failed |= push(&o, clock[c], c);
				total++;
			}
		}
		fs_order_round(&o, take, &out);
	}
	fs_order_flush(&o, take, &out);
	for (i = 1; i < out.n && i < MAX_OUT; i++)
		if (out.ts[i] < out.ts[i - 1])
			sorted = 0;
	ok(!failed && out.n == total && total < MAX_OUT,
	   "%zu events in, %zu out", total, out.n);
	ok(sorted && o.late == 0, "merged in timestamp order, none late");
	fs_order_free(&o);
}

int main(void)
{
	test_rounds();
	test_stable();
	test_late();
	test_quiet();
	test_volume();
	return tap_done();
}
