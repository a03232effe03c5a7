// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the fair starvation part of the per-CPU model: synthetic
 * streams of sched_fair_starve_* events, as the kernel emits them, and of
 * the marks the tool adds (hotplug, lost events, the end of a run).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "model.h"
#include "tap.h"

#define US		1000ULL
#define MS		(1000 * US)
#define T0		7000000000000ULL
#define BUCKET		(10 * MS)
#define ENTRIES		256

static const struct fs_task fair_a = { 101, 120, "fair-a" };
static const struct fs_task fair_b = { 102, 120, "fair-b" };
static const struct fs_task rt_x = { 201, 49, "rt-x" };
static const struct fs_task rt_y = { 202, 9, "rt-y" };
static const struct fs_task dl_z = { 203, -1, "dl-z" };
static const struct fs_task none;

static struct fs_outcome out;
static struct fs_hold h;

/* Feed a starvation event to @c; the outcome is left in out. */
static void ev(struct fs_cpu *c, enum fs_ev type, uint64_t ts,
	       const struct fs_task *task, const struct fs_task *holder,
	       unsigned int why, bool first)
{
	struct fs_event e = {
		.type = type, .cpu = 1, .ts = ts, .why = why, .first = first,
	};

	if (task)
		e.task = *task;
	if (holder)
		e.holder = *holder;
	fs_cpu_event(c, &e, &out);
}

/* A fair task begins to wait behind @holder. */
static void wait(struct fs_cpu *c, uint64_t ts, const struct fs_task *task,
		 const struct fs_task *holder, unsigned int why, bool first)
{
	ev(c, FS_EV_WAIT, ts, task, holder, why, first);
}

/* The episode ends: @ran runs (NULL: none is left). */
static void end(struct fs_cpu *c, uint64_t ts, const struct fs_task *ran,
		unsigned int why)
{
	ev(c, FS_EV_END, ts, ran, NULL, why, false);
}

/* A mark of the tool's own at @ts. */
static void mark(struct fs_cpu *c, enum fs_ev type, uint64_t ts, bool down)
{
	struct fs_event e = { .type = type, .cpu = 1, .ts = ts };

	if (type == FS_EV_HOTPLUG)
		e.down = down;
	else
		e.lost = 5;
	fs_cpu_event(c, &e, &out);
}

static bool init(struct fs_cpu *c)
{
	if (fs_cpu_init(c, 1, BUCKET, ENTRIES)) {
		ok(0, "fs_cpu_init");
		return false;
	}
	return true;
}

/* The wait of @pid in the outcome's waits, or NULL. */
static const struct fs_wait *waited(int pid)
{
	unsigned int i;

	for (i = 0; i < out.nr_waits; i++)
		if (out.waits[i].task.pid == pid)
			return &out.waits[i];
	return NULL;
}

/* How long @pid held the CPU in @ep; 0 if it is not among its holders. */
static uint64_t held(const struct fs_episode *ep, int pid)
{
	unsigned int i;

	for (i = 0; i < ep->nr_holds; i++)
		if (ep->holds[i].task.pid == pid)
			return ep->holds[i].ns;
	return 0;
}

/* 1. A fair task wakes while an RT task runs; the server serves it. */
static void test_wakeup(void)
{
	const struct fs_episode *ep;
	struct fs_cpu c;

	if (!init(&c))
		return;
	wait(&c, T0, &fair_a, &rt_x, FS_WAIT_WAKEUP, true);
	ok(c.st.open && !out.episode && out.nr_waits == 0,
	   "a first wait opens an episode, nothing completed");
	ok(fs_cpu_open_ns(&c, T0 + 30 * MS) == 30 * MS,
	   "it is 30 ms open 30 ms later");
	end(&c, T0 + 40 * MS, &fair_a, FS_END_SERVED);
	ep = out.episode;
	ok(ep && ep->ns == 40 * MS && ep->end == FS_END_SERVED &&
	   ep->start == T0 && ep->start_known && ep->ran.pid == fair_a.pid,
	   "the end closes a 40 ms episode, served, fair-a ran");
	ok(ep && ep->nr_waits == 1 && ep->waits[0].ns == 40 * MS &&
	   ep->waits[0].why == FS_WAIT_WAKEUP &&
	   ep->waits[0].end == FS_END_SERVED,
	   "with the one wait of fair-a: 40 ms, woken, served");
	ok(out.nr_waits == 1 && waited(fair_a.pid),
	   "the outcome hands the wait over");
	ok(ep && ep->nr_holds == 1 && ep->holds[0].task.pid == rt_x.pid &&
	   ep->holds[0].ns == 40 * MS, "rt-x held the CPU for 40 ms");
	ok(c.st.hist.stat.count == 1 && c.st.hist.stat.max == 40 * MS &&
	   c.st.hist.buckets[4] == 1 && c.st.ends[FS_END_SERVED] == 1 &&
	   c.st.total_ns == 40 * MS, "one 40 ms sample, ended by service");
	ok(!c.st.open && fs_cpu_open_ns(&c, T0 + 50 * MS) == 0,
	   "nothing is open after it");
	ok(fs_starve_top_holder(&c.st, T0 + 50 * MS, &h) &&
	   h.task.pid == rt_x.pid && h.ns == 40 * MS,
	   "rt-x caused the most starvation: 40 ms");
	fs_cpu_free(&c);
}

/* 2. Preempted while running; others join; the holders change. */
static void test_preempted(void)
{
	const struct fs_episode *ep;
	struct fs_cpu c;

	if (!init(&c))
		return;
	wait(&c, T0, &fair_a, &rt_x, FS_WAIT_PREEMPTED, true);
	wait(&c, T0 + 10 * MS, &fair_b, &rt_x, FS_WAIT_WAKEUP, false);
	ok(c.st.ep.nr_waits == 2 && c.st.ep.start == T0,
	   "a second wait joins the open episode");
	ev(&c, FS_EV_HOLD, T0 + 20 * MS, NULL, &dl_z, 0, false);
	ev(&c, FS_EV_HOLD, T0 + 25 * MS, NULL, &rt_y, 0, false);
	ev(&c, FS_EV_HOLD, T0 + 27 * MS, NULL, &rt_x, 0, false);
	end(&c, T0 + 60 * MS, &fair_b, FS_END_RAN);
	ep = out.episode;
	ok(ep && ep->ns == 60 * MS && ep->end == FS_END_RAN,
	   "a 60 ms episode that ended when the RT tasks were done");
	ok(waited(fair_a.pid) && waited(fair_a.pid)->ns == 60 * MS &&
	   waited(fair_b.pid) && waited(fair_b.pid)->ns == 50 * MS,
	   "fair-a waited 60 ms, fair-b 50 ms");
	ok(ep && ep->nr_holds == 3 && ep->holds[0].task.pid == rt_x.pid &&
	   ep->holds[0].ns == 53 * MS && ep->holds[1].task.pid == dl_z.pid &&
	   ep->holds[1].ns == 5 * MS && ep->holds[2].task.pid == rt_y.pid &&
	   ep->holds[2].ns == 2 * MS,
	   "holders, the longest first: rt-x 53, dl-z 5, rt-y 2 ms");
	fs_cpu_free(&c);
}

/* 3. Waiting tasks leave the CPU: migrated, offline, the last one. */
static void test_leave(void)
{
	const struct fs_episode *ep;
	struct fs_cpu c;

	if (!init(&c))
		return;
	wait(&c, T0, &fair_a, &rt_x, FS_WAIT_WAKEUP, true);
	wait(&c, T0 + 5 * MS, &fair_b, &rt_x, FS_WAIT_WAKEUP, false);
	ev(&c, FS_EV_LEAVE, T0 + 8 * MS, &fair_a, NULL, FS_END_LEFT, false);
	ok(out.nr_waits == 1 && out.waits[0].task.pid == fair_a.pid &&
	   out.waits[0].ns == 8 * MS && out.waits[0].end == FS_END_LEFT &&
	   !out.episode && c.st.open,
	   "fair-a moved away after 8 ms; the episode goes on");
	ev(&c, FS_EV_LEAVE, T0 + 9 * MS, &none, NULL, FS_END_LEFT, false);
	ok(out.nr_waits == 0 && c.st.open,
	   "a task that was not waiting leaves: nothing");
	ev(&c, FS_EV_LEAVE, T0 + 12 * MS, &fair_b, NULL, FS_END_LEFT, false);
	end(&c, T0 + 12 * MS, NULL, FS_END_LEFT);
	ep = out.episode;
	ok(ep && ep->ns == 12 * MS && ep->end == FS_END_LEFT && !ep->ran.pid,
	   "the last one left: the episode ends without service, 12 ms");
	ok(out.nr_waits == 2 && ep->waits[0].end == FS_END_LEFT &&
	   ep->waits[1].ns == 7 * MS, "both waits are in it, ended");
	ok(c.st.ends[FS_END_LEFT] == 1 && c.st.hist.stat.count == 1,
	   "counted as left, and a sample");

	/* The CPU goes offline: the kernel says why they left. */
	wait(&c, T0 + 100 * MS, &fair_a, &rt_x, FS_WAIT_WAKEUP, true);
	ev(&c, FS_EV_LEAVE, T0 + 103 * MS, &fair_a, NULL, FS_END_OFFLINE,
	   false);
	ok(out.nr_waits == 1 && out.waits[0].end == FS_END_OFFLINE,
	   "a wait ended by the CPU going offline");
	end(&c, T0 + 103 * MS, NULL, FS_END_OFFLINE);
	ok(out.episode && out.episode->end == FS_END_OFFLINE &&
	   c.st.ends[FS_END_OFFLINE] == 1, "and its episode");
	fs_cpu_free(&c);

	/* The CPU died with an episode open: it ends when it went down. */
	if (!init(&c))
		return;
	wait(&c, T0, &fair_a, &rt_x, FS_WAIT_WAKEUP, true);
	mark(&c, FS_EV_HOTPLUG, T0 + 30 * MS, true);
	ok(c.st.open && !out.episode, "going down: still open");
	mark(&c, FS_EV_HOTPLUG, T0 + 5000 * MS, false);
	ok(out.episode && out.episode->ns == 30 * MS &&
	   out.episode->end == FS_END_OFFLINE && !c.st.open,
	   "back up: it ended when the CPU went down (30 ms, not 5 s)");
	ok(c.offline_ns == 4970 * MS, "4.97 s offline");
	fs_cpu_free(&c);
}

/* 4. Starts and ends not seen: before tracing, lost, unseen by hooks. */
static void test_partial(void)
{
	struct fs_cpu c;

	if (!init(&c))
		return;
	/* The tick finds the CPU starved: an episode begun before tracing. */
	wait(&c, T0, &none, &rt_x, FS_WAIT_UNSEEN, true);
	ok(c.st.open && !c.st.ep.start_known && c.st.ep.unnamed_waits == 1,
	   "an unseen start: open, its start not known");
	end(&c, T0 + 20 * MS, &fair_a, FS_END_SERVED);
	ok(out.episode && out.episode->ns == 20 * MS &&
	   c.st.hist.stat.count == 0 && c.st.partial == 1 &&
	   c.st.total_ns == 20 * MS,
	   "its 20 ms count as starved time, not as a sample");

	/* An end with nothing open: begun before we saw anything. */
	ev(&c, FS_EV_END, T0 + 40 * MS, &fair_a, NULL, FS_END_RAN, false);
	c.st.orphans = 0;
	end(&c, T0 + 50 * MS, &fair_a, FS_END_RAN);
	ok(!out.episode && c.st.partial == 3 && c.st.orphans == 1 &&
	   c.st.hist.stat.count == 0, "an end with nothing open is partial");

	/* A wait that is not first, with nothing open: the start missed. */
	wait(&c, T0 + 60 * MS, &fair_b, &rt_x, FS_WAIT_WAKEUP, false);
	end(&c, T0 + 70 * MS, &fair_b, FS_END_RAN);
	ok(out.episode && !out.episode->start_known && c.st.partial == 4,
	   "joining an episode whose start was missed: partial");

	/* A new first wait while one is open: the end was missed. */
	wait(&c, T0 + 100 * MS, &fair_a, &rt_x, FS_WAIT_WAKEUP, true);
	wait(&c, T0 + 900 * MS, &fair_a, &rt_x, FS_WAIT_WAKEUP, true);
	ok(c.st.dropped == 1 && c.st.open && c.st.ep.start == T0 + 900 * MS,
	   "a second first wait drops the open one, starts anew");
	end(&c, T0 + 910 * MS, &fair_a, FS_END_RAN);
	ok(out.episode && out.episode->ns == 10 * MS &&
	   c.st.hist.stat.max == 10 * MS, "and measures only the new one");
	fs_cpu_free(&c);
}

/*
 * 4b. The window opens at T0 + 100 ms: an episode over before it is not
 * counted; one under way then is a whole sample, its starved time counted
 * from the window.
 */
static void test_window(void)
{
	struct fs_cpu c;

	if (!init(&c))
		return;
	fs_cpu_window(&c, T0 + 100 * MS);
	wait(&c, T0, &fair_a, &rt_x, FS_WAIT_WAKEUP, true);
	ev(&c, FS_EV_RAN, T0 + 30 * MS, &fair_a, NULL, 0, false);
	ok(!out.ran, "a task's own figure before the window: none");
	end(&c, T0 + 30 * MS, &fair_a, FS_END_RAN);
	ok(!out.episode && !c.st.open && c.st.hist.stat.count == 0 &&
	   c.st.total_ns == 0 && c.st.ends[FS_END_RAN] == 0 &&
	   !fs_starve_top_holder(&c.st, T0 + 40 * MS, &h),
	   "an episode over before the window: not counted");
	/* rt-x holds 60-80 and 130-160 ms, rt-y 80-130; the window opens at 100. */
	wait(&c, T0 + 60 * MS, &fair_a, &rt_x, FS_WAIT_PREEMPTED, true);
	ev(&c, FS_EV_HOLD, T0 + 80 * MS, NULL, &rt_y, 0, false);
	ev(&c, FS_EV_HOLD, T0 + 130 * MS, NULL, &rt_x, 0, false);
	ok(fs_starve_top_holder(&c.st, T0 + 140 * MS, &h) &&
	   h.task.pid == rt_y.pid && h.ns == 30 * MS,
	   "while it is open, the holders count from the window: rt-y 30 ms");
	end(&c, T0 + 160 * MS, &fair_a, FS_END_SERVED);
	ok(out.episode && out.episode->ns == 100 * MS &&
	   c.st.hist.stat.count == 1 && c.st.hist.stat.max == 100 * MS &&
	   c.st.total_ns == 60 * MS,
	   "one under way: a 100 ms sample, 60 ms starved in the window");
	ok(out.episode->nr_holds == 2 && out.episode->holds[0].ns == 50 * MS &&
	   out.episode->holds[1].ns == 50 * MS,
	   "its holders keep their whole stretches in the episode");
	ok(c.st.nr_holders == 2 && c.st.holders[0].ns == 30 * MS &&
	   c.st.holders[1].ns == 30 * MS && c.st.other_holders_ns == 0,
	   "the CPU's holder totals count from the window: 30 ms each");
	{
		/* An end with nothing open: the kernel's length, clipped. */
		struct fs_event e = {
			.type = FS_EV_END, .cpu = 1, .ts = T0 + 200 * MS,
			.why = FS_END_RAN, .task = fair_b, .starved = 150 * MS,
		};

		fs_cpu_event(&c, &e, &out);
	}
	ok(c.st.partial == 1 && c.st.total_ns == 160 * MS,
	   "an end with nothing open adds its time within the window");
	/* out.ran points into the event, gone with ev()'s frame. */
	ev(&c, FS_EV_RAN, T0 + 210 * MS, &fair_a, NULL, 0, false);
	ok(out.ran && out.ran_at == T0 + 210 * MS,
	   "a task's own figure in the window, and when it ran");
	fs_cpu_free(&c);
}

/* 5. Lost events mid-episode; time running backwards. */
static void test_lost(void)
{
	struct fs_cpu c;

	if (!init(&c))
		return;
	wait(&c, T0, &fair_a, &rt_x, FS_WAIT_WAKEUP, true);
	mark(&c, FS_EV_LOST, T0 + 10 * MS, false);
	ok(!c.st.open && c.st.dropped == 1 && c.lost_marks == 1 &&
	   !out.episode, "a loss drops the open episode, counted");
	end(&c, T0 + 9000 * MS, &fair_a, FS_END_SERVED);
	ok(!out.episode && c.st.hist.stat.count == 0 &&
	   c.st.hist.stat.max == 0,
	   "its end is no 9 s sample: never a figure across a loss");
	ok(c.st.partial == 1, "it counts as partial");

	/* A loss is placed where it was found, maybe behind later events. */
	wait(&c, T0 + 9500 * MS, &fair_b, &rt_x, FS_WAIT_WAKEUP, true);
	mark(&c, FS_EV_LOST, T0 + 9400 * MS, false);
	ok(!c.st.open && c.st.dropped == 2 && c.lost_marks == 2 &&
	   c.invalid == 0, "a late loss mark still drops what is open");

	wait(&c, T0 + 10000 * MS, &fair_a, &rt_x, FS_WAIT_WAKEUP, true);
	end(&c, T0 + 9999 * MS, &fair_a, FS_END_SERVED);
	ok(out.invalid && c.invalid == 1 && c.st.open && !out.episode,
	   "an end older than its wait is rejected: no unsigned wrap");
	end(&c, T0 + 10003 * MS, &fair_a, FS_END_SERVED);
	ok(out.episode && out.episode->ns == 3 * MS &&
	   c.st.hist.stat.max == 3 * MS, "the next end is measured: 3 ms");
	fs_cpu_free(&c);
}

/* 6. The end of a run: the open episode is handed back as open. */
static void test_finish(void)
{
	struct fs_cpu c;

	if (!init(&c))
		return;
	wait(&c, T0, &fair_a, &rt_x, FS_WAIT_WAKEUP, true);
	wait(&c, T0 + 1000 * MS, &fair_b, &rt_x, FS_WAIT_WAKEUP, false);
	fs_cpu_finish(&c, T0 + 5000 * MS, &out);
	ok(out.episode && out.episode->end == FS_END_OPEN &&
	   out.episode->ns == 5000 * MS && c.st.open,
	   "open at the end: handed back, 5 s so far");
	ok(out.episode->waits[0].ns == 5000 * MS &&
	   out.episode->waits[1].ns == 4000 * MS &&
	   out.episode->waits[1].end == FS_END_OPEN,
	   "its waits so far: 5 s and 4 s, still open");
	ok(out.nr_waits == 0 && c.st.hist.stat.count == 0,
	   "no wait ended, no sample");
	ok(fs_starve_top_holder(&c.st, T0 + 5000 * MS, &h) &&
	   h.task.pid == rt_x.pid && h.ns == 5000 * MS,
	   "the open episode's holder counts, up to now: rt-x 5 s");
	fs_cpu_free(&c);

	/* The holder that holds at the end gets its stretch up to the end. */
	if (!init(&c))
		return;
	wait(&c, T0, &fair_a, &rt_x, FS_WAIT_WAKEUP, true);
	ev(&c, FS_EV_HOLD, T0 + 1000 * MS, NULL, &rt_y, 0, false);
	fs_cpu_finish(&c, T0 + 4000 * MS, &out);
	ok(out.episode && out.episode->nr_holds == 2 &&
	   held(out.episode, rt_x.pid) == 1000 * MS &&
	   held(out.episode, rt_y.pid) == 3000 * MS,
	   "holders at the end: rt-x 1 s, rt-y 3 s up to the end");
	fs_cpu_free(&c);
}

/* 6b. -T: an ended episode, and one still open, against the threshold. */
static void test_threshold(void)
{
	struct fs_cpu c;
	uint64_t ns = 0;

	if (!init(&c))
		return;
	wait(&c, T0, &fair_a, &rt_x, FS_WAIT_WAKEUP, true);
	ok(fs_over_open(&c, T0 + 100 * MS, 100 * MS, &ns) == FS_OVER_NONE,
	   "open for exactly the threshold: not over");
	ok(fs_over_open(&c, T0 + 100 * MS + 1, 100 * MS, &ns) ==
	   FS_OVER_OPEN && ns == 100 * MS + 1,
	   "open 1 ns longer: over, while it lasts");
	ok(fs_over_open(&c, T0 - 1, 1, &ns) == FS_OVER_NONE,
	   "a time before its start: never an unsigned wrap");
	end(&c, T0 + 150 * MS, &fair_a, FS_END_SERVED);
	ok(fs_over_outcome(&out, 100 * MS, &ns) == FS_OVER_STARVATION &&
	   ns == 150 * MS, "the ended episode: over, 150 ms");
	ok(fs_over_open(&c, T0 + 900 * MS, 100 * MS, &ns) == FS_OVER_NONE,
	   "nothing open after the end");
	fs_cpu_free(&c);
}

/* 7. Boosts, many waiters, merging. */
static void test_boost_merge(void)
{
	struct fs_cpu c, d, all;
	struct fs_event b = { .type = FS_EV_BOOST, .cpu = 1,
			      .flags = FS_FLAG_ACTIVE | FS_FLAG_RUNNING };
	struct fs_task t = fair_a;
	int i;

	if (!init(&c) || !init(&d) || fs_cpu_init(&all, -1, BUCKET, ENTRIES))
		return;
	b.ts = T0;
	fs_cpu_event(&c, &b, &out);
	ok(c.st.unstarved_boosts == 1,
	   "a boost with no starved fair task is counted as such");
	wait(&c, T0 + 1 * MS, &fair_a, &rt_x, FS_WAIT_WAKEUP, true);
	for (i = 0; i < FS_EP_WAITS + 2; i++) {
		t.pid = 1000 + i;
		wait(&c, T0 + 2 * MS + i, &t, &rt_x, FS_WAIT_WAKEUP, false);
	}
	wait(&c, T0 + 3 * MS, &none, &rt_x, FS_WAIT_QUEUED, false);
	ok(c.st.ep.nr_waits == FS_EP_WAITS && c.st.ep.more_waits == 3 &&
	   c.st.ep.unnamed_waits == 1,
	   "%d named waits kept, 3 more counted, 1 unnamed", FS_EP_WAITS);
	/* Throttled, deferred again, then boosted while fair-a starves. */
	b.type = FS_EV_THROTTLE;
	b.flags = FS_FLAG_ACTIVE | FS_FLAG_THROTTLED;
	b.ts = T0 + 3 * MS + 500 * US;
	fs_cpu_event(&c, &b, &out);
	b.type = FS_EV_DEFER;
	b.flags |= FS_FLAG_ARMED;
	fs_cpu_event(&c, &b, &out);
	b.type = FS_EV_BOOST;
	b.flags = FS_FLAG_ACTIVE | FS_FLAG_RUNNING;
	b.ts = T0 + 4 * MS;
	fs_cpu_event(&c, &b, &out);
	ok(c.st.ep.boosted && c.st.unstarved_boosts == 1 && c.invalid == 0,
	   "a boost during the episode marks it");
	end(&c, T0 + 10 * MS, &fair_a, FS_END_SERVED);
	ok(out.episode && out.episode->boosted, "the episode was boosted");

	wait(&d, T0, &fair_b, &rt_y, FS_WAIT_WAKEUP, true);
	end(&d, T0 + 90 * MS, &fair_b, FS_END_RAN);
	ok(!fs_cpu_merge(&all, &c) && !fs_cpu_merge(&all, &d) &&
	   all.st.hist.stat.count == 2 && all.st.hist.stat.max == 90 * MS &&
	   all.st.ends[FS_END_SERVED] == 1 && all.st.ends[FS_END_RAN] == 1 &&
	   all.st.unstarved_boosts == 1 && all.st.total_ns == 99 * MS,
	   "merged: 2 samples, 90 ms max, ends and boosts summed");
	ok(fs_starve_top_holder(&all.st, T0 + 100 * MS, &h) &&
	   h.task.pid == rt_y.pid && h.ns == 90 * MS,
	   "over both CPUs, rt-y caused the most (90 ms)");
	fs_cpu_free(&c);
	fs_cpu_free(&d);
	fs_cpu_free(&all);
}

/* A server event with @flags at @ts. */
static void srv(struct fs_cpu *c, enum fs_ev type, uint64_t ts,
		unsigned int flags)
{
	struct fs_event e = { .type = type, .cpu = 1, .ts = ts, .flags = flags,
			      .dl_runtime = 50 * MS, .dl_period = 1000 * MS };

	fs_cpu_event(c, &e, &out);
}

/* The analysis of @x as a string (to be freed), NULL on failure. */
static char *explained(const struct fs_crossing *x)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (fs_explain(x, f)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

/* Check @cond about the analysis @txt; show @txt as TAP comments if not. */
static void ok_text(bool cond, const char *txt, const char *what)
{
	const char *p = txt ? txt : "(none)\n";

	ok(cond, "%s", what);
	if (cond)
		return;
	while (*p) {
		int n = (int)strcspn(p, "\n");

		printf("#   %.*s\n", n, p);
		p += n + (p[n] == '\n');
	}
}

/* 8. -a: the server's states through an episode, and their analysis. */
static void test_explain(void)
{
	struct fs_event found = { .type = FS_EV_FOUND, .cpu = 1, .ts = T0 - MS,
				  .dl_runtime = 50 * MS, .dl_period = 1000 * MS };
	struct fs_crossing x = { .over = FS_OVER_STARVATION, .cpu = 1,
				 .limit = 200 * MS };
	struct fs_cpu c;
	char *txt;

	if (!init(&c))
		return;
	fs_cpu_event(&c, &found, &out);
	srv(&c, FS_EV_START, T0 - MS / 2, FS_FLAG_ACTIVE | FS_FLAG_THROTTLED |
					  FS_FLAG_ARMED);
	wait(&c, T0, &fair_a, &rt_x, FS_WAIT_WAKEUP, true);
	srv(&c, FS_EV_POSTPONE, T0 + 10 * MS, FS_FLAG_ACTIVE |
			FS_FLAG_THROTTLED | FS_FLAG_ARMED);
	srv(&c, FS_EV_BOOST, T0 + 950 * MS, FS_FLAG_ACTIVE | FS_FLAG_RUNNING);
	end(&c, T0 + 950 * MS + 100 * US, &fair_a, FS_END_SERVED);
	ok(out.episode && out.episode->nr_server == 2 &&
	   out.episode->server[0].state == FS_ST_ZL_WAIT &&
	   out.episode->server[0].ts == T0 &&
	   out.episode->server[1].state == FS_ST_RUNNING &&
	   out.episode->server[1].ts == T0 + 950 * MS,
	   "the episode keeps the server's states: B from its start, D at the boost");
	x.ep = *out.episode;
	x.ns = x.ep.ns;
	x.state = c.srv.state;
	x.dl_runtime = c.srv.dl_runtime;
	x.dl_period = c.srv.dl_period;
	txt = explained(&x);
	ok_text(txt && strstr(txt, "## CPU 1: fair starvation of 950.10 ms, over the threshold of 200.00 ms\n") &&
	   strstr(txt, "Waited: fair-a:101 (wakeup at +0.00 ms, served)") &&
	   strstr(txt, "Held by: rt-x:201 (RT 50) 950.10 ms (100%)") &&
	   strstr(txt, "Fair server: 50.00 ms every 1000.00 ms\n") &&
	   strstr(txt, "+950.00 ms  D:running") &&
	   strstr(txt, "boosted during the episode, and its pick of a fair task ended it"),
	   txt, "analysis of a served episode");
	free(txt);
	fs_cpu_free(&c);

	/* A disabled server: an open episode, brought up to the crossing. */
	if (!init(&c))
		return;
	found.dl_runtime = 0;
	fs_cpu_event(&c, &found, &out);
	wait(&c, T0, &fair_b, &rt_y, FS_WAIT_WAKEUP, true);
	ev(&c, FS_EV_HOLD, T0 + 300 * MS, NULL, &dl_z, 0, false);
	x.over = FS_OVER_OPEN;
	x.ep = c.st.ep;
	fs_episode_at(&x.ep, T0 + 1000 * MS);
	x.ns = x.ep.ns;
	x.state = c.srv.state;
	x.dl_runtime = 0;
	txt = explained(&x);
	ok(x.ep.ns == 1000 * MS && x.ep.holds[0].task.pid == dl_z.pid &&
	   x.ep.holds[0].ns == 700 * MS && c.st.ep.holds[0].ns == 300 * MS,
	   "a copy brought up to the crossing: dl-z held 700 ms, the model untouched");
	ok_text(txt && strstr(txt, "fair starvation of 1000.00 ms (still open)") &&
	   strstr(txt, "still waiting") &&
	   strstr(txt, "Held by: dl-z:203 (DL) 700.00 ms (70%)") &&
	   strstr(txt, "rt-y:202 (RT 90) 300.00 ms (30%)") &&
	   strstr(txt, "+0.00 ms  off:off") &&
	   strstr(txt, "No boost: the server is disabled (runtime 0)"),
	   txt, "analysis of an open episode, server off");
	free(txt);

	/* Deferred: the wait up to zero laxity is named. */
	x.state = FS_ST_ZL_WAIT;
	x.dl_runtime = 50 * MS;
	x.dl_period = 1000 * MS;
	txt = explained(&x);
	ok_text(txt && strstr(txt, "No boost: the server is deferred") &&
		strstr(txt, "(950.00 ms)"), txt,
		"a deferred server: period - runtime named");
	free(txt);
	x.over = FS_OVER_PREEMPTION;
	x.ns = 52 * MS;
	txt = explained(&x);
	ok_text(txt && strstr(txt, "kept RT tasks off the CPU for 52.00 ms") &&
		!strstr(txt, "Waited"), txt, "a preemption crossing");
	free(txt);
	fs_cpu_free(&c);
}

int main(void)
{
	test_wakeup();
	test_preempted();
	test_leave();
	test_partial();
	test_window();
	test_lost();
	test_finish();
	test_threshold();
	test_boost_merge();
	test_explain();
	return tap_done();
}
