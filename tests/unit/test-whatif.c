// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/load.c and lib/whatif.c: loads recorded from hand-made
 * scheduler events, and replays of hand-made loads whose figures were
 * worked out on paper from deadline.c's rules.
 */
#include <string.h>

#include "load.h"
#include "tap.h"
#include "whatif.h"

#define US	1000ULL
#define MS	1000000ULL
#define SEC	(1000 * MS)

static struct fs_span spans[64];
static struct fs_job jobs[16];

/* A load over [0, @t1) of @nr_hi spans and @nr_jobs jobs set up above. */
static struct fs_load load(uint64_t t1, size_t nr_hi, size_t nr_jobs)
{
	struct fs_load l;

	memset(&l, 0, sizeof(l));
	l.t1 = t1;
	l.hi = spans;
	l.nr_hi = nr_hi;
	l.jobs = jobs;
	l.nr_jobs = nr_jobs;
	return l;
}

/* A FIFO hog and a fair task that never sleeps, for 10 s. */
static struct fs_load hog(void)
{
	spans[0] = (struct fs_span){ 0, 10 * SEC };
	jobs[0] = (struct fs_job){ 0, FS_WORK_OPEN };
	return load(10 * SEC, 1, 1);
}

/* The hog at three settings. */
static void hog_and_spinner(void)
{
	struct fs_load l = hog();
	struct fs_whatif w;

	/*
	 * 50/1000: armed at 0 for 950; the boost takes a new period and
	 * serves 950-1000; the throttle is followed by a charge in the
	 * background, a new deferred period from 1000: boosts at 1950, ...,
	 * 9950, each serving 50 ms. The last episode is still in D at the
	 * end: as the live tool, neither a boost nor a sample.
	 */
	fs_whatif_replay(&l, 50 * MS, SEC, &w);
	ok(w.starve.count == 10 && w.starve.min == 950 * MS &&
	   w.starve.max == 950 * MS && !w.starve_open,
	   "hog, 50/1000: ten episodes of 950 ms (%llu, max %llu)",
	   (unsigned long long)w.starve.count,
	   (unsigned long long)w.starve.max);
	ok(w.preempt.count == 9 && w.preempt.max == 50 * MS &&
	   w.preempt.min == 50 * MS,
	   "hog, 50/1000: nine episodes of 50 ms preempt the hog, the tenth open");
	ok(w.fair_ns == 500 * MS && w.boosts == 9,
	   "hog, 50/1000: 500 ms of fair time, nine boosts closed (%llu)",
	   (unsigned long long)w.boosts);
	ok(fs_whatif_preempt_rate(&w) == 45 * MS,
	   "hog, 50/1000: 45 ms of RT preemption per second, closed episodes");

	/* 20/100: 80 ms starved, 20 ms served, every 100 ms. */
	fs_whatif_replay(&l, 20 * MS, 100 * MS, &w);
	ok(w.starve.count == 100 && w.starve.max == 80 * MS &&
	   w.starve.min == 80 * MS && w.preempt.max == 20 * MS &&
	   w.preempt.count == 99 && w.fair_ns == 2 * SEC,
	   "hog, 20/100: 100 episodes of 80 ms, 99 of 20 ms served, 2 s fair");

	/* Disabled: one episode as long as the window, still open. */
	fs_whatif_replay(&l, 0, SEC, &w);
	ok(!w.starve.count && w.starve_open == 10 * SEC && !w.fair_ns &&
	   !w.preempt.count && fs_whatif_worst(&w) == 10 * SEC,
	   "hog, disabled: starved for the whole window");
}

/*
 * A hog with a 20 ms gap at 500 ms: the fair task uses 20 ms of the
 * runtime in the background, so the zero-laxity timer set for 950 ms is
 * forwarded to 1000 - 30 = 970 ms.
 */
static void background_forwards_timer(void)
{
	struct fs_load l;
	struct fs_whatif w;

	spans[0] = (struct fs_span){ 0, 500 * MS };
	spans[1] = (struct fs_span){ 520 * MS, 2 * SEC };
	jobs[0] = (struct fs_job){ 0, FS_WORK_OPEN };
	l = load(2 * SEC, 2, 1);
	fs_whatif_replay(&l, 50 * MS, SEC, &w);
	/* Starved 0-500, 520-970, 1020-1970; served 970-1020, 1970-2000. */
	ok(w.starve.count == 3 && w.starve.min == 450 * MS &&
	   w.starve.max == 950 * MS &&
	   w.starve.sum == (500 + 450 + 950) * MS,
	   "gap: episodes of 500, 450, 950 ms (sum %llu)",
	   (unsigned long long)w.starve.sum);
	ok(w.starve_end == 1970 * MS,
	   "gap: the longest episode ended at 1970 ms (%llu)",
	   (unsigned long long)w.starve_end);
	ok(w.preempt.count == 1 && w.preempt.max == 50 * MS,
	   "gap: the boost at 970 ms serves 50 ms, the one at 1970 is open");
	ok(w.fair_ns == 100 * MS && w.boosts == 1,
	   "gap: 100 ms of fair time, one boost closed");
}

/*
 * A FIFO task busy 90 ms of every 100 ms and a spinner, 20/100: boosted
 * at 80 ms into each burst, the server serves to 100, through the gap; the
 * FIFO task it preempted at 80 waits to the end of the episode, 20 ms,
 * though its burst ended at 90: preempted, it cannot go to sleep. Then a
 * deferred period from 100. The tenth episode ends with the window.
 */
static void periodic(void)
{
	struct fs_load l;
	struct fs_whatif w;
	int i;

	for (i = 0; i < 10; i++)
		spans[i] = (struct fs_span){ i * 100 * MS, (i * 100 + 90) * MS };
	jobs[0] = (struct fs_job){ 0, FS_WORK_OPEN };
	l = load(SEC, 10, 1);
	fs_whatif_replay(&l, 20 * MS, 100 * MS, &w);
	ok(w.starve.count == 10 && w.starve.min == 80 * MS &&
	   w.starve.max == 80 * MS,
	   "periodic, 20/100: starved 80 ms of each burst (%llu, max %llu)",
	   (unsigned long long)w.starve.count,
	   (unsigned long long)w.starve.max);
	ok(w.preempt.count == 9 && w.preempt.min == 20 * MS &&
	   w.preempt.max == 20 * MS && w.fair_ns == 200 * MS,
	   "periodic, 20/100: the preempted FIFO task waits 20 ms an episode");
	/* 50/1000: 10 ms of background use per 100 ms never lets it boost. */
	fs_whatif_replay(&l, 50 * MS, SEC, &w);
	ok(!w.boosts && w.starve.max == 90 * MS && w.fair_ns == 100 * MS,
	   "periodic, 50/1000: no boost, the fair task runs in the gaps");
}

/*
 * After a boost the server keeps dl_defer_running: a fair task that
 * wakes before the deadline is served at once, with the bandwidth left.
 */
static void boost_persists(void)
{
	struct fs_load l;
	struct fs_whatif w;

	spans[0] = (struct fs_span){ 0, 3 * SEC };
	jobs[0] = (struct fs_job){ 0, 20 * MS };
	jobs[1] = (struct fs_job){ 1450 * MS, 5 * MS };
	l = load(3 * SEC, 1, 2);
	fs_whatif_replay(&l, 50 * MS, SEC, &w);
	/*
	 * Boost at 950 (deadline 1950), 20 ms served, stop. At 1450 the rest
	 * (30 ms in 500 ms) overflows the bandwidth: revised to 25 ms and
	 * served at once, preempting the hog for 5 ms. The start straight
	 * back to D resumes the episode, as the live tool holds it, but the
	 * hog ran between: two hold-offs, of 20 and 5 ms, and one boost.
	 */
	ok(w.starve.count == 1 && w.starve.max == 950 * MS,
	   "persist: one episode of 950 ms, none at 1450 ms");
	ok(w.preempt.count == 2 && w.preempt.max == 20 * MS &&
	   w.preempt.min == 5 * MS && w.fair_ns == 25 * MS && w.boosts == 1,
	   "persist: one serving episode, hold-offs of 20 and 5 ms");
}

/*
 * RT preemption is what the higher class waited while the server served:
 * a FIFO task asleep when a served fair job begins loses only the rest.
 * The hog sleeps 1450-1460; 20 ms of fair work at 0, 30 ms at 1450.
 */
static void wakes_during_service(void)
{
	struct fs_load l;
	struct fs_whatif w;

	spans[0] = (struct fs_span){ 0, 1450 * MS };
	spans[1] = (struct fs_span){ 1460 * MS, 3 * SEC };
	jobs[0] = (struct fs_job){ 0, 20 * MS };
	jobs[1] = (struct fs_job){ 1450 * MS, 30 * MS };
	l = load(3 * SEC, 2, 2);
	fs_whatif_replay(&l, 50 * MS, SEC, &w);
	/*
	 * Boost at 950 (deadline 1950), 20 ms served, stop. At 1450 the
	 * rest of the runtime (30 in 500 ms) overflows: revised to 25 ms,
	 * served at once: the FIFO task, awake from 1460, waits 15 ms. The
	 * runtime runs out at 1475: a deferred period to 2475, the boost at
	 * 2425 serves the last 5 ms. Episodes: 950-970 + 1450-1475 (the start
	 * resumes it; the FIFO task ran between, so two hold-offs, of 20 and
	 * 15 ms), then 2425-2430 with 5.
	 */
	ok(w.preempt.count == 3 && w.preempt.max == 20 * MS &&
	   w.preempt.min == 5 * MS && w.preempt.sum == 40 * MS &&
	   w.boosts == 2,
	   "wakes: RT waits 20, 15, then 5 ms (count %llu, max %llu)",
	   (unsigned long long)w.preempt.count,
	   (unsigned long long)w.preempt.max);
	ok(w.starve.count == 2 && w.starve.max == 950 * MS &&
	   w.fair_ns == 50 * MS,
	   "wakes: starved 0-950 and 1475-2425, 50 ms served");
}

/*
 * No higher class: fair jobs run in the background; the idle time between
 * them uses the runtime up, the next job restarts the deferred period.
 */
static void idle_charged(void)
{
	struct fs_load l;
	struct fs_whatif w;

	jobs[0] = (struct fs_job){ 100 * MS, 10 * MS };
	jobs[1] = (struct fs_job){ 500 * MS, 10 * MS };
	l = load(SEC, 0, 2);
	fs_whatif_replay(&l, 50 * MS, SEC, &w);
	ok(!w.starve.count && !w.starve_open && w.fair_ns == 20 * MS &&
	   !w.boosts && !w.preempt.count,
	   "idle: no starvation, no boost, 20 ms of fair time");
}

/*
 * An idle boost: idle time uses the runtime up while the server waits, so
 * its timer boosts a server with nothing to serve, which stops; a fair
 * job that comes later is served at once (the boost persists), and the
 * FIFO task waits behind it: RT preemption, but no boost, as the live
 * tool counts them. 10 ms of fair work at 0 and 20 at 1500; the FIFO task
 * busy 0-100, 200-2000.
 */
static struct fs_load idle_boost_load(void)
{
	spans[0] = (struct fs_span){ 0, 100 * MS };
	spans[1] = (struct fs_span){ 200 * MS, 2 * SEC };
	jobs[0] = (struct fs_job){ 0, 10 * MS };
	jobs[1] = (struct fs_job){ 1500 * MS, 20 * MS };
	return load(2 * SEC, 2, 2);
}

static void idle_boost(void)
{
	struct fs_load l = idle_boost_load();
	struct fs_whatif w;

	fs_whatif_replay(&l, 50 * MS, SEC, &w);
	/*
	 * Armed at 0 (deadline 1000); the job runs 100-110 in the background
	 * (40 ms left); idle 110-200 uses the rest: runtime 0. The timer,
	 * forwarded to 1000, boosts (deadline 2000, 50 ms), nothing to serve:
	 * stop. At 1500 the 50 ms left overflow 500 ms: revised to 25, served
	 * at once, 20 ms, the FIFO task waiting: the same episode, closed by
	 * the stop held at the end.
	 */
	ok(w.preempt.count == 1 && w.preempt.sum == 20 * MS && !w.boosts,
	   "idle boost: the FIFO task waits 20 ms, counted, no boost (%llu samples)",
	   (unsigned long long)w.preempt.count);
	ok(w.starve.count == 1 && w.starve.max == 100 * MS,
	   "idle boost: starved 0-100 only");
}

/*
 * A boost that serves while no higher class wants the CPU preempts no
 * one: a boost, but no sample of RT preemption, as the live tool counts
 * them. The hog sleeps 800-1050; at 200/1000 its boost at 800 serves to
 * 1000 in the gap; the next, at 1850, is open at the end.
 */
static void boost_in_gap(void)
{
	struct fs_load l;
	struct fs_whatif w;

	spans[0] = (struct fs_span){ 0, 800 * MS };
	spans[1] = (struct fs_span){ 1050 * MS, 2 * SEC };
	jobs[0] = (struct fs_job){ 0, FS_WORK_OPEN };
	l = load(2 * SEC, 2, 1);
	fs_whatif_replay(&l, 200 * MS, SEC, &w);
	ok(w.boosts == 1 && !w.preempt.count,
	   "gap boost: one boost, no RT preemption sample (%llu)",
	   (unsigned long long)w.preempt.count);
}

/*
 * A tick of 4 ms, the load from 2 ms: boosted at 952, the spinner's runtime
 * runs out at 1002 but is seen at the tick at 1004; the next deferred
 * period begins at the switch, 50 us later: boosts at 1954.05 (served to
 * the tick at 2008) and 2958.05 (served to the end, 3000: not counted).
 */
static void tick_delays(void)
{
	struct fs_load l;
	struct fs_whatif w;

	spans[0] = (struct fs_span){ 2 * MS, 3 * SEC };
	jobs[0] = (struct fs_job){ 2 * MS, FS_WORK_OPEN };
	l = load(3 * SEC, 1, 1);
	l.tick_ns = 4 * MS;
	fs_whatif_replay(&l, 50 * MS, SEC, &w);
	ok(w.preempt.count == 2 && w.preempt.max == 53950 * US &&
	   w.preempt.min == 52 * MS,
	   "tick: a stint ends at the tick after its runtime (max %llu, min %llu)",
	   (unsigned long long)w.preempt.max,
	   (unsigned long long)w.preempt.min);
	ok(w.starve.count == 3 && w.starve.min == 950 * MS &&
	   w.starve.max == 950050 * US,
	   "tick: starved 2-952, 1004-1954.05, 2008-2958.05 (min %llu, max %llu)",
	   (unsigned long long)w.starve.min,
	   (unsigned long long)w.starve.max);
	ok(!w.tick_bound, "tick: 50 ms is over 5 ticks of 4 ms, not tick-bound");
	fs_whatif_replay(&l, 19 * MS, SEC, &w);
	ok(w.tick_bound, "tick: 19 ms is under 5 ticks, tick-bound");
	l.tick_ns = 0;
	fs_whatif_replay(&l, 1 * MS, SEC, &w);
	ok(!w.tick_bound, "tick: no tick known, none is tick-bound");
}

/*
 * A runtime that runs out after the deadline has passed: start_dl_timer()
 * fails and the throttle replenishes at once (update_curr_dl_se()'s
 * enqueue_dl_entity(ENQUEUE_REPLENISH)); a server still serving its boost
 * goes on in D, no new deferred period. Tick 3 ms, the hog from 2 ms; 20
 * ms of fair work at 2 ms, a spinner from 1951 ms.
 */
static struct fs_load late_exhaustion_load(void)
{
	struct fs_load l;

	spans[0] = (struct fs_span){ 2 * MS, 3 * SEC };
	jobs[0] = (struct fs_job){ 2 * MS, 20 * MS };
	jobs[1] = (struct fs_job){ 1951 * MS, FS_WORK_OPEN };
	l = load(3 * SEC, 1, 2);
	l.tick_ns = 3 * MS;
	return l;
}

static void late_exhaustion(void)
{
	struct fs_load l = late_exhaustion_load();
	struct fs_whatif w;

	fs_whatif_replay(&l, 50 * MS, SEC, &w);
	/*
	 * Boost at 952 (deadline 1952), 20 ms served, stop. At 1951 the 30 ms
	 * left overflow 1 ms: revised to 50 us, served at once; it runs out
	 * at 1951.05, seen at the tick at 1953, past the deadline: replenished
	 * to 48.05 ms, deadline 2952, still D with no switch between: the
	 * same episode. That runs out at 2001.05, seen at 2004: throttled to
	 * the deadline, then the switch's charge starts a deferred period from
	 * 2004.05; the boost at 2954.05 serves to the end. Episodes: 952-972 +
	 * 1951-2004 (hold-offs of 20 and 53 ms: the hog ran between them, not
	 * at 1953), the last one open.
	 */
	ok(w.preempt.count == 2 && w.preempt.min == 20 * MS &&
	   w.preempt.max == 53 * MS && w.preempt.sum == 73 * MS &&
	   w.boosts == 1,
	   "late: RT waits 20 and 53 ms, one boost (count %llu, min %llu, max %llu)",
	   (unsigned long long)w.preempt.count,
	   (unsigned long long)w.preempt.min,
	   (unsigned long long)w.preempt.max);
	ok(w.starve.count == 2 && w.starve.min == 950 * MS &&
	   w.starve.max == 950050 * US && !w.starve_open,
	   "late: starved 2-952 and 2004-2954.05, none open (open %llu)",
	   (unsigned long long)w.starve_open);
	ok(w.fair_ns == 118950 * US, "late: 118.95 ms served (%llu)",
	   (unsigned long long)w.fair_ns);
}

/*
 * 7.x's rules on idle_boost()'s load: the idle time 110-200 is charged
 * as the FIFO task wakes, no longer idle, as a fair task's time: it uses
 * the 40 ms left, and a new deferred period begins (deadline 1200, timer
 * at 1150). That boost finds no fair work and stops; at 1500 the 50 ms
 * left overflow 650 ms: revised to 32.5, served at once, 20 ms, the FIFO
 * task waiting: the same episode, a boost that served.
 */
static void idle_boost_7(void)
{
	struct fs_load l = idle_boost_load();
	struct fs_whatif w;

	l.rules = FS_RULES_7;
	fs_whatif_replay(&l, 50 * MS, SEC, &w);
	ok(w.preempt.count == 1 && w.preempt.sum == 20 * MS && w.boosts == 1,
	   "7.x, idle charged on wake-up: the FIFO task waits 20 ms, one boost (%llu samples, %llu boosts)",
	   (unsigned long long)w.preempt.count,
	   (unsigned long long)w.boosts);
	ok(w.starve.count == 1 && w.starve.max == 100 * MS,
	   "7.x, idle charged on wake-up: starved 0-100 only");
}

/*
 * 7.x's rules: a server whose timer fires on an idle CPU is charged the
 * idle time first and, its runtime used up, stopped. A fair job of 1 ms
 * at 0 (deadline 1000, 49 ms left), idle to 960, then a FIFO hog; a fair
 * spinner at 970. 6.12 boosts at 950 on the idle CPU; the hog's wake-up
 * charges that period's runtime to 0 and stops it; at 970 the spinner
 * waits for the zero-laxity time of that period, 1950. 7.x stops the
 * server at 950 (its idle time used the 49 ms), so the spinner's start
 * at 970 finds the old period overflowing and begins a new one: served
 * at 1920.
 */
static void idle_stop(void)
{
	struct fs_load l;
	struct fs_whatif w12, w7;

	spans[0] = (struct fs_span){ 960 * MS, 3 * SEC };
	jobs[0] = (struct fs_job){ 0, 1 * MS };
	jobs[1] = (struct fs_job){ 970 * MS, FS_WORK_OPEN };
	l = load(3 * SEC, 1, 2);
	fs_whatif_replay(&l, 50 * MS, SEC, &w12);
	l.rules = FS_RULES_7;
	fs_whatif_replay(&l, 50 * MS, SEC, &w7);
	ok(w12.starve.count >= 1 && w12.starve.max == 980 * MS,
	   "6.12, idle at the timer: the spinner starves 970-1950 first (%llu)",
	   (unsigned long long)w12.starve.max);
	ok(w7.starve.count >= 1 && w7.starve.min == 950 * MS &&
	   w7.starve.max == 950 * MS,
	   "7.x, idle at the timer: stopped, the spinner starves 970-1920, then 950 ms a period (%llu-%llu)",
	   (unsigned long long)w7.starve.min,
	   (unsigned long long)w7.starve.max);
}

/*
 * 7.x's rules on late_exhaustion()'s load: the revised 50 us run out at
 * 1951.05, seen at the tick at 1953, past the deadline: a new period,
 * waited for to its deadline 2953 (E), where 6.12 serves on at once.
 * Episodes: 952-972 + 1951-1953 (hold-offs of 20 and 2 ms), the one from
 * 2953 open.
 */
static void late_exhaustion_7(void)
{
	struct fs_load l = late_exhaustion_load();
	struct fs_whatif w;

	l.rules = FS_RULES_7;
	fs_whatif_replay(&l, 50 * MS, SEC, &w);
	ok(w.preempt.count == 2 && w.preempt.sum == 22 * MS &&
	   w.preempt.max == 20 * MS && w.boosts == 1,
	   "7.x, late: RT waits 20 and 2 ms, one boost closed (count %llu, sum %llu)",
	   (unsigned long long)w.preempt.count,
	   (unsigned long long)w.preempt.sum);
	ok(w.starve.count == 2 && w.starve.min == 950 * MS &&
	   w.starve.max == 1000 * MS && !w.starve_open,
	   "7.x, late: starved 2-952 and 1953-2953 (min %llu, max %llu)",
	   (unsigned long long)w.starve.min,
	   (unsigned long long)w.starve.max);
	ok(w.fair_ns == 69 * MS, "7.x, late: 69 ms served (%llu)",
	   (unsigned long long)w.fair_ns);
}

/* Which rules a kernel release gets. */
static void rules_of(void)
{
	bool checked;

	ok(fs_whatif_rules("6.12.118+fairsrv", &checked) == FS_RULES_6_12 &&
	   checked, "rules: 6.12.118 is 6.12's, checked");
	ok(fs_whatif_rules("7.3.4-amd64", &checked) == FS_RULES_7 && checked,
	   "rules: 7.3.4 is 7.x's, checked");
	ok(fs_whatif_rules("7.2.13", &checked) == FS_RULES_7 && !checked,
	   "rules: 7.2.13 is 7.x's, not checked");
	ok(fs_whatif_rules("6.6.60", &checked) == FS_RULES_6_12 && !checked,
	   "rules: 6.6.60 is 6.12's, not checked");
	ok(fs_whatif_rules("", &checked) == FS_RULES_6_12 && !checked,
	   "rules: an unknown release is 6.12's, not checked");
	ok(!strcmp(fs_whatif_rules_name(FS_RULES_7), "7.3") &&
	   !strcmp(fs_whatif_rules_name(FS_RULES_6_12), "6.12"),
	   "rules: named 6.12 and 7.3");
}

/* Advice on the hog: 100 ms at most, less a margin of 10%. */
static void advice(void)
{
	struct fs_load l = hog();
	struct fs_whatif w;

	l.tick_ns = MS;
	ok(fs_whatif_advise(&l, 100 * MS, 10, UINT64_MAX, &w),
	   "advice: a setting meets 100 ms");
	ok(fs_whatif_worst(&w) <= 90 * MS && w.runtime >= 5 * MS,
	   "advice: %llu/%llu ms, worst %llu ms, no runtime below five ticks",
	   (unsigned long long)(w.runtime / MS),
	   (unsigned long long)(w.period / MS),
	   (unsigned long long)(fs_whatif_worst(&w) / MS));
	/* The least preemption: 10% at 50 ms (5 ms) beats 10% at 100 ms. */
	ok(w.period == 50 * MS && w.runtime == 5 * MS,
	   "advice: 5 ms every 50 ms, the least RT preemption");
	ok(!fs_whatif_advise(&l, 5 * MS, 10, UINT64_MAX, &w),
	   "advice: nothing meets 5 ms with runtimes of five ticks");
	/* Within 10% of a CPU's bandwidth, 5/50 still; below, none. */
	ok(fs_whatif_advise(&l, 100 * MS, 10, fs_bw(5 * MS, 50 * MS), &w) &&
	   w.period == 50 * MS && w.runtime == 5 * MS,
	   "advice: 5/50 fits 10%% of bandwidth");
	ok(!fs_whatif_advise(&l, 100 * MS, 10, fs_bw(9 * MS, 100 * MS), &w),
	   "advice: nothing meets 100 ms within 9%% of bandwidth");
}

/*
 * More runtime can preempt less. A hog with a gap at 800-950 ms and a
 * spinner, 1 s periods, a tick of 1 ms. 150 ms: timer at 850, forwarded
 * to 900 and 950 by the background use in the gap, which uses the runtime
 * up at 950: a deferred period to 1950, the boost at 1800 serves 150 ms;
 * the next (from 1950.05) 150.95 to the tick; 100.32 ms/s. 200 ms: the
 * boost at 800 falls in the gap, and the hog, awake at 950, waits 50 ms
 * of it; then a period from 1000.05, the boost at 1800.05 serves 200.95:
 * 83.65 ms/s.
 */
static void more_runtime_less_preemption(void)
{
	struct fs_load l;
	struct fs_whatif w150, w200;

	spans[0] = (struct fs_span){ 0, 800 * MS };
	spans[1] = (struct fs_span){ 950 * MS, 3 * SEC };
	jobs[0] = (struct fs_job){ 0, FS_WORK_OPEN };
	l = load(3 * SEC, 2, 1);
	l.tick_ns = MS;
	fs_whatif_replay(&l, 150 * MS, SEC, &w150);
	fs_whatif_replay(&l, 200 * MS, SEC, &w200);
	ok(w150.preempt.count == 2 && w150.preempt.min == 150 * MS &&
	   w150.preempt.max == 150950 * US,
	   "non-monotone: 150/1000 preempts 150 and 150.95 ms");
	ok(w200.preempt.count == 2 && w200.preempt.min == 50 * MS &&
	   w200.preempt.max == 200950 * US &&
	   fs_whatif_preempt_rate(&w200) < fs_whatif_preempt_rate(&w150),
	   "non-monotone: 200/1000 preempts 50 and 200.95 ms, less a second");
}

/*
 * The advice searches the whole grid: a FIFO task busy 90 ms of every 100
 * and 10 ms of fair work every 150 ms, for 60 ms at most. At 50 ms, the
 * least runtime that meets it (5 ms) preempts more than 7.5 ms does; the
 * advice is the least preemption of every setting tried.
 */
static void advice_whole_grid(void)
{
	static const unsigned int period_ms[] = {
		1000, 500, 200, 100, 50, 20, 10,
	};
	static const unsigned int permille[] = {
		10, 20, 30, 50, 75, 100, 150, 200, 250, 300, 400, 500,
	};
	struct fs_whatif w, best, w5, w75;
	struct fs_load l;
	bool found = false;
	size_t i, j;

	for (i = 0; i < 20; i++)
		spans[i] = (struct fs_span){ i * 100 * MS, (i * 100 + 90) * MS };
	for (i = 0; i < 14; i++)
		jobs[i] = (struct fs_job){ i * 150 * MS, 10 * MS };
	l = load(2 * SEC, 20, 14);
	l.tick_ns = MS;
	for (i = 0; i < 7; i++)
		for (j = 0; j < 12; j++) {
			uint64_t p = period_ms[i] * MS, r = p / 1000 * permille[j];

			if (r < 5 * MS)
				continue;
			fs_whatif_replay(&l, r, p, &w);
			if (fs_whatif_worst(&w) > 54 * MS)
				continue;
			if (!found || fs_whatif_preempt_rate(&w) <
				      fs_whatif_preempt_rate(&best))
				best = w;
			found = true;
		}
	fs_whatif_replay(&l, 5 * MS, 50 * MS, &w5);
	fs_whatif_replay(&l, 7500 * US, 50 * MS, &w75);
	ok(fs_whatif_worst(&w5) <= 54 * MS && fs_whatif_worst(&w75) <= 54 * MS &&
	   fs_whatif_preempt_rate(&w75) < fs_whatif_preempt_rate(&w5),
	   "whole grid: at 50 ms, 7.5 ms preempts %llu us/s, 5 ms %llu",
	   (unsigned long long)(fs_whatif_preempt_rate(&w75) / US),
	   (unsigned long long)(fs_whatif_preempt_rate(&w5) / US));
	ok(found && fs_whatif_advise(&l, 60 * MS, 10, UINT64_MAX, &w) &&
	   fs_whatif_preempt_rate(&w) == fs_whatif_preempt_rate(&best),
	   "whole grid: the advice (%llu/%llu us) preempts the least of all",
	   (unsigned long long)(w.runtime / US),
	   (unsigned long long)(w.period / US));
}

/*
 * The recorded row's check: the hog at 50/1000 for 10 s replays nine
 * closed episodes of 50 ms (45 ms/s), nine boosts, 950 ms at worst.
 */
static void recorded_check(void)
{
	struct fs_whatif_measured m = {
		.window_ns = 10 * SEC, .starve = true, .worst_ns = 952 * MS,
		.rt = true, .rt_ns = 450 * MS, .rt_max_ns = 50 * MS,
		.boosts = 9,
	};
	struct fs_load l = hog();
	struct fs_whatif_check c;
	struct fs_whatif w;

	fs_whatif_replay(&l, 50 * MS, SEC, &w);
	ok(fs_whatif_agrees(&w, &m, MS, &c), "check: the live figures agree");
	m.boosts = 20;
	ok(!fs_whatif_agrees(&w, &m, MS, &c) && !c.boosts && c.rt && c.starve,
	   "check: 20 boosts measured, 9 replayed: disagrees");
	m.boosts = 10;
	ok(fs_whatif_agrees(&w, &m, MS, &c), "check: 10 boosts, 9: agrees");
	/* 950 + 20% + 2 ms + two ticks is 1192. */
	m.worst_ns = 1200 * MS;
	ok(!fs_whatif_agrees(&w, &m, MS, &c) && !c.starve,
	   "check: 1200 ms measured at worst, 950 replayed: disagrees");
	m.lead_ns = 300 * MS;
	ok(fs_whatif_agrees(&w, &m, MS, &c),
	   "check: unless it may lie in the 300 ms the load did not see");
	m.lead_ns = 0;
	m.worst_ns = 700 * MS;
	ok(!fs_whatif_agrees(&w, &m, MS, &c) && !c.starve,
	   "check: 700 ms measured, 950 replayed: disagrees");
	m.worst_ns = 952 * MS;
	/* 45 ms/s against 150: 20%, 2 ms/s and 5 ms/s per edge: 42 ms/s. */
	m.rt_ns = 1500 * MS;
	ok(!fs_whatif_agrees(&w, &m, MS, &c) && !c.rt,
	   "check: 150 ms/s of RT preemption measured, 45 replayed: disagrees");
	m.rt_bound = true;
	ok(fs_whatif_agrees(&w, &m, MS, &c),
	   "check: unless the measure is the time in D, an upper bound");
	m.rt = false;
	m.starve = false;
	m.boosts = 9;
	m.rt_ns = 0;
	ok(fs_whatif_agrees(&w, &m, MS, &c), "check: what was not measured agrees");
}

/* Deadline bandwidth and a root domain's room, as the kernel counts them. */
static void admission(void)
{
	struct fs_rd_bw rd = {
		.bw = 996147, .total_bw = 4 * 52428, .cpus = 4,
		.servers_bw = 4 * 52428,
	};

	ok(fs_bw(50 * MS, SEC) == 52428 && fs_bw(5 * MS, 50 * MS) == 104857,
	   "bw: 50/1000 is 52428, 5/50 104857 (to_ratio())");
	/* 95% of four CPUs, less the other three servers. */
	ok(fs_rd_room(&rd, 52428) == 996147ULL * 4 - 3 * 52428,
	   "room: 95%% of 4 CPUs less three servers of 5%%");
	rd.total_bw += 3000000;		/* a deadline task of 2.86 CPUs */
	ok(fs_rd_room(&rd, 52428) == 996147ULL * 4 - 3 * 52428 - 3000000,
	   "room: less a deadline task's");
	rd.total_bw = 4 * 996147 - 10;
	ok(fs_rd_room(&rd, 52428) == 52438, "room: its own and 10 more");
	rd.total_bw = 4 * 996147 + 52428 + 1;
	ok(!fs_rd_room(&rd, 52428), "room: none when over");
	rd.total_bw = 0;
	ok(!fs_rd_room(&rd, 52428),
	   "room: none when the root domain lost its servers (stock 6.12)");
	rd.total_bw = 4 * 52428;
	rd.bw = -1;
	ok(fs_rd_room(&rd, 52428) == UINT64_MAX, "room: no limit");
}

/* The order of the two debugfs writes: a refusal leaves the old setting. */
static void apply_order(void)
{
	struct fs_apply a;

	/* 50/1000 to 5/50: the period first (50/50), the runtime lowers. */
	fs_whatif_apply(50 * MS, SEC, 5 * MS, 50 * MS, UINT64_MAX, &a);
	ok(a.nr == 2 && !a.runtime_first && a.safe && a.fits,
	   "apply 5/50: period first, through 50/50");
	/* Without room for 50/50: the runtime first, the period may fail. */
	fs_whatif_apply(50 * MS, SEC, 5 * MS, 50 * MS, fs_bw(1, 2), &a);
	ok(a.nr == 2 && a.runtime_first && !a.safe && a.fits,
	   "apply 5/50, half a CPU of room: runtime first, not safe");
	/* 5/50 back to 50/1000: the runtime first (50/50), the period lowers. */
	fs_whatif_apply(5 * MS, 50 * MS, 50 * MS, SEC, UINT64_MAX, &a);
	ok(a.nr == 2 && a.runtime_first && a.safe,
	   "apply 50/1000 from 5/50: runtime first");
	/* 50/1000 to 100/2000: the runtime first (10%), the period halves it. */
	fs_whatif_apply(50 * MS, SEC, 100 * MS, 2 * SEC, UINT64_MAX, &a);
	ok(a.nr == 2 && a.runtime_first && a.safe,
	   "apply 100/2000: runtime first");
	/* To 1500/2000: the runtime above the old period, no safe order. */
	fs_whatif_apply(50 * MS, SEC, 1500 * MS, 2 * SEC, UINT64_MAX, &a);
	ok(a.nr == 2 && !a.runtime_first && !a.safe,
	   "apply 1500/2000: period first, not safe");
	fs_whatif_apply(50 * MS, SEC, 20 * MS, SEC, UINT64_MAX, &a);
	ok(a.nr == 1 && a.runtime_first && a.safe, "apply 20/1000: one write");
	fs_whatif_apply(50 * MS, SEC, 50 * MS, SEC, UINT64_MAX, &a);
	ok(!a.nr, "apply the same: none");
	fs_whatif_apply(50 * MS, SEC, 100 * MS, SEC, fs_bw(75 * MS, SEC), &a);
	ok(a.nr == 1 && !a.fits, "apply 100/1000 in 7.5%% of room: does not fit");
}

/* A scheduler event on @cpu at @ms. */
static struct fs_event sev(enum fs_ev type, int cpu, uint64_t ms)
{
	struct fs_event e;

	memset(&e, 0, sizeof(e));
	e.type = type;
	e.cpu = cpu;
	e.ts = ms * MS;
	return e;
}

/* An event of @type about task @pid (kernel prio @prio) on @cpu at @ms. */
static struct fs_event tev(enum fs_ev type, int cpu, uint64_t ms, int pid,
			   int prio)
{
	struct fs_event e = sev(type, cpu, ms);

	e.from.pid = pid;
	e.from.prio = prio;
	return e;
}

/* A switch on CPU 1 from @prev (in @state) to @next. */
static struct fs_event sw(uint64_t ms, int prev, int prev_prio, int64_t state,
			  int next, int next_prio)
{
	struct fs_event e = sev(FS_EV_SWITCH, 1, ms);

	e.from.pid = prev;
	e.from.prio = prev_prio;
	e.from_state = state;
	e.to.pid = next;
	e.to.prio = next_prio;
	return e;
}

/* Feed @l a switch on @cpu at @ms, as sw() makes it. */
static void feed_sw(struct fs_loads *l, int cpu, uint64_t ms, int prev,
		    int prev_prio, int64_t state, int next, int next_prio)
{
	struct fs_event e = sw(ms, prev, prev_prio, state, next, next_prio);

	e.cpu = cpu;
	fs_loads_event(l, &e);
}

/* The recorder, from a stream: FIFO 10 (prio 89), fair 20 and 21. */
static void recorder(void)
{
	struct fs_loads l;
	struct fs_event e;
	struct fs_load *c;

	ok(!fs_loads_init(&l, 4, 0), "recorder: set up");
	/* 20 ran since before the window; the FIFO task wakes at 10. */
	e = tev(FS_EV_WAKEUP, 1, 10, 10, 89);
	fs_loads_event(&l, &e);
	e = sw(10, 20, 120, 0, 10, 89);		/* 20 preempted */
	fs_loads_event(&l, &e);
	e = tev(FS_EV_WAKEUP, 1, 30, 21, 120);	/* 21 wakes, waits */
	fs_loads_event(&l, &e);
	e = sw(60, 10, 89, 0, 21, 120);		/* served: 10 preempted */
	fs_loads_event(&l, &e);
	e = sw(65, 21, 120, 1, 10, 89);		/* 21 sleeps after 5 ms */
	fs_loads_event(&l, &e);
	e = sw(100, 10, 89, 1, 20, 120);	/* 10 sleeps */
	fs_loads_event(&l, &e);
	/* 20 moves to CPU 2 while preempted by an RT task of CPU 1. */
	e = tev(FS_EV_WAKEUP, 1, 110, 10, 89);
	fs_loads_event(&l, &e);
	e = sw(110, 20, 120, 0, 10, 89);
	fs_loads_event(&l, &e);
	e = tev(FS_EV_MIGRATE, 2, 120, 20, 120);
	e.src_cpu = 1;
	fs_loads_event(&l, &e);
	/* 21 wakes again at 150 and is still waiting at the end. */
	e = tev(FS_EV_WAKEUP, 1, 150, 21, 120);
	fs_loads_event(&l, &e);
	/* 22 sleeps once after 1 ms, then runs on CPU 3 from 50 ms. */
	e = tev(FS_EV_SWITCH, 3, 1, 22, 120);
	e.from_state = 2;
	fs_loads_event(&l, &e);
	e = tev(FS_EV_WAKEUP, 3, 50, 22, 120);
	fs_loads_event(&l, &e);
	e = sev(FS_EV_SWITCH, 3, 50);
	e.to.pid = 22;
	e.to.prio = 120;
	fs_loads_event(&l, &e);
	fs_loads_finish(&l, 200 * MS);
	ok(l.cpu[3].nr_jobs == 2 && l.cpu[3].jobs[0].work == 1 * MS &&
	   l.cpu[3].jobs[1].ts == 50 * MS &&
	   l.cpu[3].jobs[1].work == FS_WORK_OPEN,
	   "recorder: a task running past its usual 1 ms needs the CPU to the end");

	c = &l.cpu[1];
	ok(c->nr_hi == 2 && c->hi[0].start == 10 * MS &&
	   c->hi[0].end == 100 * MS && c->hi[1].start == 110 * MS &&
	   c->hi[1].end == 200 * MS,
	   "recorder: the FIFO task wanted CPU 1 10-100 (served or not) and 110-200");
	ok(c->nr_jobs == 3 && c->jobs[0].ts == 0 &&
	   c->jobs[0].work == 20 * MS && c->jobs[1].ts == 30 * MS &&
	   c->jobs[1].work == 5 * MS && c->jobs[2].ts == 150 * MS &&
	   c->jobs[2].work == 5 * MS,
	   "recorder: CPU 1's jobs: 20's 20 ms before it moved, 21's 5 ms, and 21's open one, 5 ms as its last");
	ok(l.cpu[2].nr_jobs == 1 && l.cpu[2].jobs[0].ts == 120 * MS &&
	   l.cpu[2].jobs[0].work == FS_WORK_OPEN,
	   "recorder: 20's rest is an open job of CPU 2 from 120 ms");
	fs_loads_free(&l);
}

/*
 * A SCHED_DEADLINE task (30, prio -1) that its own budget throttles is
 * switched out runnable, with no deadline task to take the CPU: it does
 * not want the CPU until its replenishment switches it in again. One
 * preempted by another deadline task (31) still wants it.
 */
static void recorder_dl(void)
{
	struct fs_loads l;
	struct fs_event e;
	struct fs_load *c;
	struct fs_whatif w;

	ok(!fs_loads_init(&l, 4, 0), "dl: set up");
	e = sw(0, 20, 120, 0, 30, -1);		/* 30 preempts fair 20 */
	fs_loads_event(&l, &e);
	e = sw(10, 30, -1, 0, 20, 120);		/* 30 throttled */
	fs_loads_event(&l, &e);
	e = sw(100, 20, 120, 0, 30, -1);	/* replenished */
	fs_loads_event(&l, &e);
	e = sw(110, 30, -1, 0, 31, -1);		/* 31 preempts 30 */
	fs_loads_event(&l, &e);
	e = sw(115, 31, -1, 1, 30, -1);		/* 31 sleeps */
	fs_loads_event(&l, &e);
	e = sw(120, 30, -1, 0, 20, 120);	/* 30 throttled */
	fs_loads_event(&l, &e);
	/* Moved while throttled: it does not want CPU 2 either. */
	e = tev(FS_EV_MIGRATE, 2, 150, 30, -1);
	e.src_cpu = 1;
	fs_loads_event(&l, &e);
	fs_loads_finish(&l, 200 * MS);
	c = &l.cpu[1];
	ok(c->nr_hi == 2 && c->hi[0].start == 0 && c->hi[0].end == 10 * MS &&
	   c->hi[1].start == 100 * MS && c->hi[1].end == 120 * MS,
	   "dl: CPU 1 wanted 0-10 and 100-120 (%zu spans, the first to %llu)",
	   c->nr_hi, (unsigned long long)(c->nr_hi ? c->hi[0].end : 0));
	ok(!l.cpu[2].nr_hi, "dl: a throttled task moved wants no CPU");
	/* The fair task runs in the gaps: it starves 20 ms at worst. */
	fs_whatif_replay(c, 50 * MS, SEC, &w);
	ok(fs_whatif_worst(&w) == 20 * MS,
	   "dl: the fair task starves 20 ms at worst, not to the end (%llu)",
	   (unsigned long long)fs_whatif_worst(&w));
	fs_loads_free(&l);
}

/*
 * What the recording starved, CPU 1: a FIFO task (10), a fair task that
 * sleeps (21) and a fair spinner (24). starved_ns is the time fair work
 * was queued while a higher class ran; censor_ns bounds the demand the
 * waits of tasks that sleep hid: 21's jobs (5 ms each) waited 30, 18 and,
 * open at the end, 50 ms; it slept 15 and 67 ms, and 10 ms at least
 * before its first wake-up. As a task whose wake-up follows its last job,
 * its duty 5 / (5 + 92 / 3) of its 98 ms of waits, 13.74 ms; as one that
 * runs until a time, 5 ms more for each of its three jobs that waited:
 * 28.74 ms. 24 never sleeps, it takes what it gets.
 */
static void recorder_starved(void)
{
	struct fs_loads l;
	struct fs_event e;
	struct fs_load *c;

	ok(!fs_loads_init(&l, 4, 0), "starved: set up");
	e = sw(5, 24, 120, 0, 10, 89);		/* 10 preempts 24 */
	fs_loads_event(&l, &e);
	e = tev(FS_EV_WAKEUP, 1, 10, 21, 120);	/* 21 waits 30 ms */
	fs_loads_event(&l, &e);
	e = sw(40, 10, 89, 1, 21, 120);
	fs_loads_event(&l, &e);
	e = sw(45, 21, 120, 1, 24, 120);	/* 21 sleeps */
	fs_loads_event(&l, &e);
	e = sw(55, 24, 120, 0, 10, 89);
	fs_loads_event(&l, &e);
	e = tev(FS_EV_WAKEUP, 1, 60, 21, 120);	/* waits 10 ms */
	fs_loads_event(&l, &e);
	e = sw(70, 10, 89, 0, 21, 120);		/* served */
	fs_loads_event(&l, &e);
	e = sw(72, 21, 120, 0, 10, 89);		/* waits 8 ms more */
	fs_loads_event(&l, &e);
	e = sw(80, 10, 89, 1, 21, 120);
	fs_loads_event(&l, &e);
	e = sw(83, 21, 120, 1, 24, 120);	/* sleeps */
	fs_loads_event(&l, &e);
	e = sw(140, 24, 120, 0, 10, 89);
	fs_loads_event(&l, &e);
	e = tev(FS_EV_WAKEUP, 1, 150, 21, 120);	/* waits to the end, 50 */
	fs_loads_event(&l, &e);
	fs_loads_finish(&l, 200 * MS);
	c = &l.cpu[1];
	ok(c->starved_ns == 118 * MS,
	   "starved: fair work queued behind the FIFO task 35 + 15 + 8 + 60 ms (%llu)",
	   (unsigned long long)c->starved_ns);
	ok(c->censor_ns >= 28735 * US && c->censor_ns <= 28745 * US,
	   "starved: the sleeper's waits hid 28.74 ms of demand at most (%llu)",
	   (unsigned long long)c->censor_ns);
	fs_loads_free(&l);
}

/*
 * Censored demand: the hog and a spinner, as if recorded at 50/1000
 * (9.5 s starved in 10 s), with 2 s of demand hidden by the waits of
 * tasks that sleep. A setting that starves the fair work less (20/100: 8
 * s) would bring them back sooner: censored, by up to 1.5 s of demand.
 * Not at the recorded setting, nor disabled (it starves more); nor below
 * 5 ms of demand a second.
 */
static void censored(void)
{
	struct fs_load l = hog();
	struct fs_whatif w;

	l.starved_ns = 9500 * MS;
	l.censor_ns = 2 * SEC;
	fs_whatif_replay(&l, 20 * MS, 100 * MS, &w);
	ok(w.censored && w.missing_ns == 1500 * MS,
	   "censored: 20/100 starves 1.5 s less: up to 1.5 s missed (%llu)",
	   (unsigned long long)w.missing_ns);
	fs_whatif_replay(&l, 50 * MS, SEC, &w);
	ok(!w.censored && !w.missing_ns,
	   "censored: not at the recorded setting (%llu)",
	   (unsigned long long)w.missing_ns);
	fs_whatif_replay(&l, 0, SEC, &w);
	ok(!w.censored, "censored: not disabled, which starves more");
	l.censor_ns = 45 * MS;
	fs_whatif_replay(&l, 20 * MS, 100 * MS, &w);
	ok(!w.censored && w.missing_ns == 45 * MS,
	   "censored: not for 4.5 ms of demand a second");
	l.censor_ns = 50 * MS;
	fs_whatif_replay(&l, 20 * MS, 100 * MS, &w);
	ok(w.censored, "censored: from 5 ms of demand a second");
	/*
	 * The recording starved 9.7 s where its own setting's replay starves
	 * 9.5: against the replay, the recorded setting gains nothing.
	 */
	l.censor_ns = 2 * SEC;
	l.starved_ns = 9700 * MS;
	fs_whatif_replay(&l, 50 * MS, SEC, &w);
	ok(w.censored && w.missing_ns == 200 * MS,
	   "censored: against the recording, the model's own error (%llu)",
	   (unsigned long long)w.missing_ns);
	l.base_known = true;
	l.base_starved_ns = w.starve.sum + w.starve_open;
	fs_whatif_censor(&l, &w);
	ok(!w.censored && !w.missing_ns,
	   "censored: against the recorded setting's replay, none");
	fs_whatif_replay(&l, 20 * MS, 100 * MS, &w);
	ok(w.censored && w.missing_ns == 1500 * MS,
	   "censored: 20/100 against that replay: 1.5 s");
}

/*
 * Real-time demand the server displaced. CPU 1: a FIFO duty cycle (10)
 * that the server's service (fair 20) keeps off the CPU 50 ms, then runs
 * and sleeps; later it wakes while 20 runs and takes the CPU 1 ms after,
 * no service. CPU 2: a FIFO hog (11) kept off 40 ms, seen to sleep only
 * before it began.
 * CPU 3: a FIFO task (12) kept off, then moved away; one (13) that wakes
 * after, while the fair task runs on, waits 1 ms for its wake-up alone.
 */
static void recorder_displaced(void)
{
	struct fs_loads l;
	struct fs_event e;

	ok(!fs_loads_init(&l, 4, 0), "displaced: set up");
	feed_sw(&l, 1, 0, 20, 120, 0, 10, 89);		/* 10 runs */
	feed_sw(&l, 1, 10, 10, 89, 0, 20, 120);		/* served: 10 waits */
	feed_sw(&l, 1, 60, 20, 120, 0, 10, 89);		/* throttled: 10 runs */
	feed_sw(&l, 1, 70, 10, 89, 1, 20, 120);		/* 10 sleeps */
	e = tev(FS_EV_WAKEUP, 1, 100, 10, 89);		/* 10 wakes, 20 runs */
	fs_loads_event(&l, &e);
	feed_sw(&l, 1, 101, 20, 120, 0, 10, 89);
	feed_sw(&l, 1, 110, 10, 89, 1, 20, 120);
	feed_sw(&l, 2, 0, 21, 120, 0, 11, 89);
	feed_sw(&l, 2, 1, 11, 89, 1, 21, 120);		/* 11 sleeps until its start */
	feed_sw(&l, 2, 2, 21, 120, 0, 11, 89);
	feed_sw(&l, 2, 100, 11, 89, 0, 21, 120);	/* served: 11 waits */
	feed_sw(&l, 2, 140, 21, 120, 0, 11, 89);
	feed_sw(&l, 3, 0, 12, 89, 0, 22, 120);		/* served: 12 waits */
	e = tev(FS_EV_MIGRATE, 0, 10, 12, 89);
	e.src_cpu = 3;
	fs_loads_event(&l, &e);
	e = tev(FS_EV_WAKEUP, 3, 50, 13, 89);
	fs_loads_event(&l, &e);
	feed_sw(&l, 3, 51, 22, 120, 0, 13, 89);
	feed_sw(&l, 3, 60, 13, 89, 1, 22, 120);
	fs_loads_finish(&l, 200 * MS);
	ok(l.cpu[1].rt_displaced_ns == 50 * MS,
	   "displaced: the duty cycle's 50 ms behind the service, not its wake-up's 1 ms (%llu)",
	   (unsigned long long)l.cpu[1].rt_displaced_ns);
	ok(l.cpu[2].rt_displaced_ns == 0,
	   "displaced: none for a busy loop that slept only before it began (%llu)",
	   (unsigned long long)l.cpu[2].rt_displaced_ns);
	ok(l.cpu[3].rt_displaced_ns == 0,
	   "displaced: the service ends when the task it displaced leaves (%llu)",
	   (unsigned long long)l.cpu[3].rt_displaced_ns);
	fs_loads_free(&l);
}

/*
 * Rows marked rt_displaced: the hog and a spinner as recorded at 50/1000
 * (its replay preempts 500 ms in 10 s), with 1 s of real-time demand
 * displaced. 20/100 preempts more (under-predicted); a 10 ms runtime
 * every second less (over-predicted); neither below 5 ms a second of
 * displaced demand, nor at the recorded setting.
 */
static void rt_displaced(void)
{
	struct fs_load l = hog();
	struct fs_whatif w;

	fs_whatif_replay(&l, 50 * MS, SEC, &w);
	l.base_known = true;
	l.base_starved_ns = w.starve.sum + w.starve_open;
	l.base_preempt_ns = w.preempt.sum;
	l.rt_displaced_ns = SEC;
	fs_whatif_censor(&l, &w);
	ok(!w.rt_displaced && w.rt_displaced_ns == SEC,
	   "rt_displaced: not at the recorded setting");
	fs_whatif_replay(&l, 20 * MS, 100 * MS, &w);
	ok(w.rt_displaced && !w.rt_over,
	   "rt_displaced: 20/100 preempts more: under-predicted");
	fs_whatif_replay(&l, 10 * MS, SEC, &w);
	ok(w.rt_displaced && w.rt_over,
	   "rt_displaced: 10/1000 preempts less: over-predicted");
	l.rt_displaced_ns = 45 * MS;
	fs_whatif_replay(&l, 20 * MS, 100 * MS, &w);
	ok(!w.rt_displaced, "rt_displaced: not for 4.5 ms a second");
	l.base_known = false;
	l.rt_displaced_ns = SEC;
	fs_whatif_replay(&l, 20 * MS, 100 * MS, &w);
	ok(!w.rt_displaced, "rt_displaced: not without the recorded setting's replay");
}

/*
 * Before the window the events go on one by one: a real-time task seen to
 * wake there may have run and slept unseen. It is not kept as wanting
 * the CPU: a stop task woken then would hold the CPU for seconds, until
 * it next runs (the guest once replayed 3.5 s of starvation where 95 ms
 * were measured). The window begins at 10 ms; CPU 1's first switch is at
 * 50 ms, to a fair task.
 */
static void recorder_early(void)
{
	struct fs_loads l;
	struct fs_event e;

	ok(!fs_loads_init(&l, 4, 10 * MS), "early: set up");
	e = tev(FS_EV_WAKEUP, 1, 5, 3, 0);	/* migration/1, unseen since */
	fs_loads_event(&l, &e);
	e = tev(FS_EV_WAKEUP, 1, 20, 10, 89);	/* in the window: kept */
	fs_loads_event(&l, &e);
	e = sw(50, 0, 120, 1, 10, 89);
	fs_loads_event(&l, &e);
	e = sw(60, 10, 89, 1, 0, 120);
	fs_loads_event(&l, &e);
	fs_loads_finish(&l, 200 * MS);
	ok(l.cpu[1].nr_hi == 1 && l.cpu[1].hi[0].start == 20 * MS &&
	   l.cpu[1].hi[0].end == 60 * MS,
	   "early: CPU 1 wanted 20-60 only (%zu spans, the first from %llu to %llu)",
	   l.cpu[1].nr_hi,
	   (unsigned long long)(l.cpu[1].nr_hi ? l.cpu[1].hi[0].start : 0),
	   (unsigned long long)(l.cpu[1].nr_hi ? l.cpu[1].hi[0].end : 0));
	fs_loads_free(&l);
}

/* A CPU whose load fills its lists stops recording: its window ends. */
static void recorder_full(void)
{
	struct fs_loads l;
	struct fs_event e;
	struct fs_load *c;
	int i;

	ok(!fs_loads_init(&l, 2, 0), "full: set up");
	l.max_entries = 4;
	/* A fair spinner (20) and a FIFO task (10) waking every 10 ms. */
	for (i = 0; i < 10; i++) {
		e = sw(i * 10, 20, 120, 0, 10, 89);
		fs_loads_event(&l, &e);
		e = sw(i * 10 + 5, 10, 89, 1, 20, 120);
		fs_loads_event(&l, &e);
	}
	fs_loads_finish(&l, 100 * MS);
	c = &l.cpu[1];
	ok(c->full && c->full_at == 45 * MS && c->t1 == 45 * MS &&
	   c->nr_hi == 5 && c->hi[4].start == 40 * MS &&
	   c->hi[4].end == 45 * MS,
	   "full: four spans kept, the window ends with the fifth (%llu)",
	   (unsigned long long)c->full_at);
	ok(c->nr_jobs == 1 && c->jobs[0].ts == 0 &&
	   c->jobs[0].work == FS_WORK_OPEN,
	   "full: the spinner's job, open, is kept");
	fs_loads_free(&l);
}

/*
 * Policy changes while running: FIFO 10 runs from 10 ms and leaves at 50
 * as a fair task, asleep (it dropped its policy, as a probe does before
 * it exits); fair 20 wakes at 60, runs, and leaves at 70 as a FIFO task.
 * 10's run was the FIFO class's, not a fair job from the window's start;
 * 20's fair job ends with its 10 ms, not open to the end.
 */
static void recorder_policy(void)
{
	struct fs_loads l;
	struct fs_event e;
	struct fs_load *c;

	ok(!fs_loads_init(&l, 4, 0), "policy: set up");
	feed_sw(&l, 1, 10, 0, 120, 0, 10, 89);
	feed_sw(&l, 1, 50, 10, 120, 1, 0, 120);
	e = tev(FS_EV_WAKEUP, 1, 60, 20, 120);
	fs_loads_event(&l, &e);
	feed_sw(&l, 1, 60, 0, 120, 0, 20, 120);
	feed_sw(&l, 1, 70, 20, 89, 1, 0, 120);
	fs_loads_finish(&l, 200 * MS);
	c = &l.cpu[1];
	ok(c->nr_hi >= 1 && c->hi[0].start == 10 * MS &&
	   c->hi[0].end == 50 * MS,
	   "policy: FIFO 10 wanted the CPU 10-50 (%zu spans)", c->nr_hi);
	ok(c->nr_jobs == 1 && c->jobs[0].ts == 60 * MS &&
	   c->jobs[0].work == 10 * MS,
	   "policy: one fair job, 20's 10 ms from 60; none for 10 (%zu jobs, the first %llu ms at %llu)",
	   c->nr_jobs,
	   c->nr_jobs ? (unsigned long long)(c->jobs[0].work / MS) : 0ULL,
	   c->nr_jobs ? (unsigned long long)(c->jobs[0].ts / MS) : 0ULL);
	fs_loads_free(&l);
}

int main(void)
{
	hog_and_spinner();
	background_forwards_timer();
	periodic();
	boost_persists();
	wakes_during_service();
	idle_charged();
	idle_boost();
	boost_in_gap();
	tick_delays();
	late_exhaustion();
	idle_boost_7();
	idle_stop();
	late_exhaustion_7();
	rules_of();
	advice();
	more_runtime_less_preemption();
	advice_whole_grid();
	recorded_check();
	admission();
	apply_order();
	recorder();
	recorder_dl();
	recorder_starved();
	recorder_early();
	censored();
	recorder_displaced();
	rt_displaced();
	recorder_full();
	recorder_policy();
	return tap_done();
}
