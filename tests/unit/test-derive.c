// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/derive.c: the series' events from probe observations
 * and scheduler events, on hand-made streams.
 */
#include <string.h>

#include "derive.h"
#include "tap.h"

#define MS	1000000ULL
#define A_	FS_FLAG_ACTIVE
#define T_	FS_FLAG_THROTTLED
#define R_	FS_FLAG_ARMED
#define U_	FS_FLAG_RUNNING

/* What the deriver handed on. */
static struct fs_event out[64];
static int nr_out;

static void collect(void *ctx, const struct fs_event *ev)
{
	(void)ctx;
	if (nr_out < 64)
		out[nr_out++] = *ev;
}

/* An observation of the server on CPU 1. */
static struct fs_event probe(enum fs_ev type, uint64_t ts, unsigned int flags,
			     int64_t runtime, uint64_t deadline)
{
	struct fs_event e;

	memset(&e, 0, sizeof(e));
	e.type = type;
	e.cpu = 1;
	e.ts = ts;
	e.flags = flags;
	e.runtime = runtime;
	e.deadline = deadline;
	e.dl_runtime = 50 * MS;
	e.dl_period = 1000 * MS;
	e.ret = 1;
	return e;
}

static struct fs_task task(int pid, int prio, const char *comm)
{
	struct fs_task t;

	memset(&t, 0, sizeof(t));
	t.pid = pid;
	t.prio = prio;
	strncpy(t.comm, comm, FS_COMM_LEN - 1);
	return t;
}

/* A scheduler event of @type about @t on @cpu. */
static struct fs_event sched(enum fs_ev type, int cpu, uint64_t ts,
			     struct fs_task t)
{
	struct fs_event e;

	memset(&e, 0, sizeof(e));
	e.type = type;
	e.cpu = cpu;
	e.ts = ts;
	e.from = t;
	return e;
}

/* sched_switch on @cpu from @from, in @state, to @to. */
static struct fs_event sw(int cpu, uint64_t ts, struct fs_task from,
			  int64_t state, struct fs_task to)
{
	struct fs_event e = sched(FS_EV_SWITCH, cpu, ts, from);

	e.to = to;
	e.from_state = state;
	return e;
}

/* sched_wakeup of @t onto @cpu. */
static struct fs_event wake(int cpu, uint64_t ts, struct fs_task t)
{
	return sched(FS_EV_WAKEUP, cpu, ts, t);
}

/* sched_migrate_task of @t from @src to @dst. */
static struct fs_event migrate(int src, int dst, uint64_t ts, struct fs_task t)
{
	struct fs_event e = sched(FS_EV_MIGRATE, dst, ts, t);

	e.src_cpu = src;
	return e;
}

static void feed(struct fs_derive *d, struct fs_event e)
{
	fs_derive_event(d, &e, collect, NULL);
}

/* Whether the types handed on since @from are @want. */
static int types_are(int from, const enum fs_ev *want, int n)
{
	int i;

	if (nr_out - from != n)
		return 0;
	for (i = 0; i < n; i++)
		if (out[from + i].type != want[i])
			return 0;
	return 1;
}

/* One deferred period: start, boost, throttle, replenish, stop. */
static void test_server(void)
{
	struct fs_derive d;
	int n;

	fs_derive_init(&d, 4);
	nr_out = 0;
	/* dl_server_start(): the defer timer inside it, then its return. */
	feed(&d, probe(FS_EV_P_TIMER, 1 * MS, A_ | T_ | R_, 50 * MS, 1001 * MS));
	feed(&d, probe(FS_EV_P_START, 1 * MS, A_ | T_ | R_, 50 * MS, 1001 * MS));
	/* Each later fair enqueue calls it again: nothing happens. */
	feed(&d, probe(FS_EV_P_START, 5 * MS, A_ | T_ | R_, 50 * MS, 1001 * MS));
	{
		enum fs_ev want[] = { FS_EV_DEFER, FS_EV_START };

		ok(types_are(0, want, 2), "start: defer then start, once");
	}
	/* The timer fired early (runtime used in the background): pushed. */
	n = nr_out;
	feed(&d, probe(FS_EV_P_FIRED, 900 * MS, A_ | T_ | R_, 45 * MS, 1001 * MS));
	ok(nr_out == n + 1 && out[n].type == FS_EV_DEFER &&
	   out[n].runtime == 45 * MS, "the timer pushed later is a defer");
	/* The zero-laxity timer: replenish_dl_entity() with running set. */
	n = nr_out;
	feed(&d, probe(FS_EV_P_REPLENISH, 951 * MS, A_ | U_, 50 * MS, 1001 * MS));
	feed(&d, probe(FS_EV_P_FIRED, 951 * MS, A_ | U_, 50 * MS, 1001 * MS));
	ok(nr_out == n + 1 && out[n].type == FS_EV_BOOST,
	   "B to D is a boost; the timer's return adds nothing");
	/* Runtime used up: throttled, the replenishment timer armed. */
	n = nr_out;
	feed(&d, probe(FS_EV_P_TIMER, 1001 * MS, A_ | T_ | U_, 0, 1001 * MS));
	ok(nr_out == n + 1 && out[n].type == FS_EV_THROTTLE, "D to E is a throttle");
	/* A timer that is not armed, outside D: nothing. */
	n = nr_out;
	feed(&d, probe(FS_EV_P_TIMER, 1001 * MS, A_ | T_ | U_, 0, 1001 * MS));
	ok(nr_out == n, "an unarmed timer outside D is no event");
	n = nr_out;
	feed(&d, probe(FS_EV_P_REPLENISH, 1001 * MS, A_ | U_, 50 * MS, 2001 * MS));
	ok(nr_out == n + 1 && out[n].type == FS_EV_REPLENISH, "E to D is a replenishment");
	feed(&d, probe(FS_EV_P_REPLENISH, 1003 * MS, A_ | U_, 50 * MS, 2001 * MS));
	/* The pick path's stop, dl_server_stop() inline: its dequeue. */
	n = nr_out;
	feed(&d, probe(FS_EV_P_NONCONT, 1005 * MS, A_ | U_, 45 * MS, 2001 * MS));
	ok(nr_out == n + 1 && out[n].type == FS_EV_STOP && !(out[n].flags & A_),
	   "the dequeue to sleep is the inline stop");
	/* Started again at once (D), then dl_server_stop() and its dequeue. */
	feed(&d, probe(FS_EV_P_START, 1006 * MS, A_ | U_, 45 * MS, 2001 * MS));
	n = nr_out;
	feed(&d, probe(FS_EV_P_STOP, 1010 * MS, A_ | U_, 40 * MS, 2001 * MS));
	feed(&d, probe(FS_EV_P_NONCONT, 1010 * MS, A_ | U_, 40 * MS, 2001 * MS));
	ok(nr_out == n + 1 && out[n].type == FS_EV_STOP,
	   "dl_server_stop() and the dequeue in it: one stop");
	/* Idle time charged on leaving the idle task. */
	feed(&d, probe(FS_EV_P_START, 1011 * MS, A_ | U_, 40 * MS, 2001 * MS));
	n = nr_out;
	feed(&d, probe(FS_EV_P_PUT_IN, 1020 * MS, A_ | U_, 3 * MS, 2001 * MS));
	feed(&d, probe(FS_EV_P_PUT_OUT, 1020 * MS, A_ | U_, 0, 2001 * MS));
	ok(nr_out == n + 1 && out[n].type == FS_EV_IDLE,
	   "idle: put_prev_task_idle() used the runtime up");
	feed(&d, probe(FS_EV_P_REPLENISH, 1021 * MS, A_ | U_, 50 * MS, 2001 * MS));
	/* Stop, seen on entry; a second stop of a stopped server is none. */
	n = nr_out;
	feed(&d, probe(FS_EV_P_STOP, 1010 * MS, A_ | U_, 40 * MS, 2001 * MS));
	feed(&d, probe(FS_EV_P_STOP, 1010 * MS, A_ | U_, 40 * MS, 2001 * MS));
	feed(&d, probe(FS_EV_P_STOP, 1011 * MS, 0, 40 * MS, 2001 * MS));
	ok(nr_out == n + 1 && out[n].type == FS_EV_STOP &&
	   !(out[n].flags & A_), "stop once (function and its part), with the flags it leaves");
	/* Started again, a new period; fair tasks use it up: postponed. */
	feed(&d, probe(FS_EV_P_TIMER, 1100 * MS, A_ | T_ | R_, 50 * MS, 2100 * MS));
	feed(&d, probe(FS_EV_P_START, 1100 * MS, A_ | T_ | R_, 50 * MS, 2100 * MS));
	n = nr_out;
	feed(&d, probe(FS_EV_P_TIMER, 1200 * MS, A_ | T_ | R_, 50 * MS, 2200 * MS));
	{
		enum fs_ev want[] = { FS_EV_POSTPONE, FS_EV_DEFER };

		ok(types_are(n, want, 2), "a new deadline while armed is a postponement");
	}
	/* The timer failed to start: nothing. */
	n = nr_out;
	{
		struct fs_event e = probe(FS_EV_P_TIMER, 1201 * MS, A_ | T_ | R_,
					  50 * MS, 2300 * MS);

		e.ret = 0;
		feed(&d, e);
	}
	ok(nr_out == n, "a timer not started is no event");
	/* Idle time: an event only when it uses the runtime up. */
	n = nr_out;
	feed(&d, probe(FS_EV_P_IDLE_IN, 1300 * MS, A_ | T_ | R_, 10 * MS, 2200 * MS));
	feed(&d, probe(FS_EV_P_IDLE_OUT, 1300 * MS, A_ | T_ | R_, 2 * MS, 2200 * MS));
	feed(&d, probe(FS_EV_P_IDLE_IN, 1310 * MS, A_ | T_ | R_, 2 * MS, 2200 * MS));
	feed(&d, probe(FS_EV_P_IDLE_OUT, 1310 * MS, A_ | T_ | R_, 0, 2200 * MS));
	feed(&d, probe(FS_EV_P_IDLE_IN, 1320 * MS, A_ | T_ | R_, 0, 2200 * MS));
	feed(&d, probe(FS_EV_P_IDLE_OUT, 1320 * MS, A_ | T_ | R_, 0, 2200 * MS));
	ok(nr_out == n + 1 && out[n].type == FS_EV_IDLE &&
	   out[n].ts == 1310 * MS, "idle: the charge that used the runtime up");
	/* Not ours: passed on. */
	n = nr_out;
	{
		struct fs_event e = probe(FS_EV_HOTPLUG, 1400 * MS, 0, 0, 0);

		e.down = true;
		feed(&d, e);
	}
	ok(nr_out == n + 1 && out[n].type == FS_EV_HOTPLUG, "other events pass");
	/* Steps that are not a change (the dying CPU's own) forget nothing. */
	{
		struct fs_event e = probe(FS_EV_HOTPLUG, 1500 * MS, 0, 0, 0);

		struct fs_event start = probe(FS_EV_P_START, 1450 * MS, A_ | U_,
					      40 * MS, 2001 * MS);

		start.cpu = 2;
		feed(&d, start);
		e.cpu = 2;
		feed(&d, e);
		ok(d.cpu[1].down && !d.cpu[2].down && d.cpu[2].known,
		   "a step up of a CPU that is not down changes nothing");
		e.cpu = 1;
		feed(&d, e);
		ok(!d.cpu[1].down && !d.cpu[1].known, "back up: forgotten");
	}
	fs_derive_free(&d);
}

/* Fair tasks behind a FIFO task, served, preempted, moved away. */
static void test_starvation(void)
{
	struct fs_task fair = task(100, 120, "fair"), fair2 = task(101, 120, "fair2");
	struct fs_task fair3 = task(102, 120, "fair3");
	struct fs_task rt = task(200, 49, "rt"), rt2 = task(201, 9, "rt2");
	struct fs_task idle = task(0, 120, "swapper/1");
	struct fs_derive d;
	int n;

	fs_derive_init(&d, 4);
	nr_out = 0;
	/* What runs is unknown until the first switch: no wait yet. */
	feed(&d, wake(1, 1 * MS, fair2));
	ok(nr_out == 0, "nothing before the first switch");
	feed(&d, sw(1, 2 * MS, idle, 0, fair));
	ok(nr_out == 0, "a fair task behind a fair task does not starve");
	/* The FIFO task preempts the fair one: both wait. */
	feed(&d, sw(1, 10 * MS, fair, 0x100, rt));
	ok(nr_out == 2 && out[0].type == FS_EV_WAIT && out[0].first &&
	   out[0].task.pid == 100 && out[0].why == FS_WAIT_PREEMPTED &&
	   out[0].holder.pid == 200 && out[1].type == FS_EV_WAIT &&
	   !out[1].first && out[1].task.pid == 101 &&
	   out[1].why == FS_WAIT_QUEUED, "preempted and queued waits, first once");
	/* Another fair task wakes while the FIFO task runs. */
	n = nr_out;
	feed(&d, wake(1, 20 * MS, fair3));
	ok(nr_out == n + 1 && out[n].why == FS_WAIT_WAKEUP && !out[n].first,
	   "woken behind the FIFO task: a wait");
	/* A wakeup of a task already queued is no new wait. */
	n = nr_out;
	feed(&d, wake(1, 21 * MS, fair3));
	ok(nr_out == n, "a second wakeup of a queued task: nothing");
	/* A second FIFO task takes over: a hold. */
	n = nr_out;
	feed(&d, sw(1, 30 * MS, rt, 1, rt2));
	ok(nr_out == n + 1 && out[n].type == FS_EV_HOLD &&
	   out[n].holder.pid == 201, "another holder");
	/* One fair task is pulled to CPU 2, where a fair task runs. */
	feed(&d, sw(2, 31 * MS, idle, 0, task(300, 120, "x")));
	n = nr_out;
	feed(&d, migrate(1, 2, 35 * MS, fair3));
	ok(nr_out == n + 1 && out[n].type == FS_EV_LEAVE &&
	   out[n].cpu == 1 && out[n].task.pid == 102 &&
	   out[n].why == FS_END_LEFT, "moved away: it leaves, no wait on CPU 2");
	/* A sleeping task moves as it wakes: nothing. */
	n = nr_out;
	feed(&d, migrate(3, 1, 36 * MS, task(400, 120, "sleeper")));
	ok(nr_out == n, "a sleeping task's move is no event");
	/* The server picks a fair task while rt2 is still runnable. */
	n = nr_out;
	feed(&d, sw(1, 950 * MS, rt2, 0x100, fair));
	ok(nr_out == n + 1 && out[n].type == FS_EV_END &&
	   out[n].why == FS_END_SERVED && out[n].task.pid == 100 &&
	   out[n].starved == 940 * MS, "served: the episode ends, its length");
	/* FIFO again; then it blocks and the fair tasks run by themselves. */
	n = nr_out;
	feed(&d, sw(1, 1000 * MS, fair, 0x100, rt2));
	ok(nr_out == n + 2 && out[n].first && out[n].task.pid == 100,
	   "preempted again: a new episode");
	n = nr_out;
	feed(&d, sw(1, 1010 * MS, rt2, 1, fair2));
	ok(nr_out == n + 1 && out[n].why == FS_END_RAN &&
	   out[n].starved == 10 * MS, "the FIFO task sleeps: ran");
	/* Every waiting task moved away: the episode ends there. */
	feed(&d, sw(1, 1020 * MS, fair2, 0x100, rt));
	n = nr_out;
	feed(&d, migrate(1, 3, 1030 * MS, fair));
	feed(&d, migrate(1, 3, 1031 * MS, fair2));
	ok(nr_out == n + 3 && out[n + 2].type == FS_EV_END &&
	   out[n + 2].why == FS_END_LEFT && out[n + 2].ts == 1031 * MS,
	   "the last waiting task left: the end");
	/* Lost events: every CPU is told, the state is forgotten. */
	feed(&d, wake(1, 1040 * MS, fair3));
	n = nr_out;
	{
		struct fs_event e;

		memset(&e, 0, sizeof(e));
		e.type = FS_EV_LOST;
		e.cpu = 2;
		e.ts = 1050 * MS;
		e.lost = 7;
		feed(&d, e);
	}
	ok(nr_out == n + 4 && out[n].lost == 7 && out[n + 1].cpu == 0 &&
	   out[n + 1].lost == 0, "lost: a mark for each CPU");
	n = nr_out;
	feed(&d, wake(1, 1060 * MS, task(103, 120, "late")));
	ok(nr_out == n, "after a loss, no wait until a switch is seen");
	/* A switch to idle with tasks queued: forced idle ends it. */
	feed(&d, sw(1, 1070 * MS, idle, 0, rt));
	n = nr_out;
	feed(&d, sw(1, 1080 * MS, rt, 1, idle));
	ok(nr_out == n + 1 && out[n].why == FS_END_IDLE, "idle with tasks queued");
	fs_derive_free(&d);
}

/* More fair tasks queued on one CPU than are followed: counted. */
static void test_untracked(void)
{
	struct fs_derive d;
	int i;

	fs_derive_init(&d, 2);
	nr_out = 0;
	feed(&d, sw(0, 1 * MS, task(0, 120, "swapper/0"), 0, task(9, 49, "rt")));
	for (i = 0; i < FS_DERIVE_QUEUED + 3; i++)
		feed(&d, wake(0, 2 * MS + i, task(1000 + i, 120, "many")));
	ok(d.untracked == 3 && d.cpu[0].nr_queued == FS_DERIVE_QUEUED,
	   "tasks beyond the table are counted (%llu)",
	   (unsigned long long)d.untracked);
	fs_derive_free(&d);
}

/* Tasks found runnable at start: episodes that began before the run. */
static void test_found(void)
{
	struct fs_task hog = task(50, 49, "hog"), fair = task(51, 120, "fair");
	struct fs_task a = task(60, 120, "a"), b = task(61, 120, "b");
	struct fs_derive d;
	struct fs_event e;
	int n;

	fs_derive_init(&d, 4);
	nr_out = 0;
	/* CPU 1: a FIFO hog and a fair task it starves, highest first. */
	feed(&d, sched(FS_EV_FOUND_TASK, 1, 5 * MS, hog));
	feed(&d, sched(FS_EV_FOUND_TASK, 1, 5 * MS, fair));
	ok(nr_out == 1 && out[0].type == FS_EV_WAIT && out[0].first &&
	   out[0].why == FS_WAIT_UNSEEN && out[0].holder.pid == 50,
	   "found behind a FIFO task: a wait whose start was not seen");
	n = nr_out;
	feed(&d, sw(1, 900 * MS, hog, 0x100, fair));
	ok(nr_out == n + 1 && out[n].type == FS_EV_END &&
	   out[n].why == FS_END_SERVED, "it ends when the server runs it");
	/* CPU 2: a switch seen first tells what runs; the fair task it ran
	 * is not queued, another one found is, behind a fair task. */
	feed(&d, sw(2, 4 * MS, task(0, 120, "swapper/2"), 0, fair));
	n = nr_out;
	feed(&d, sched(FS_EV_FOUND_TASK, 2, 5 * MS, hog));
	feed(&d, sched(FS_EV_FOUND_TASK, 2, 5 * MS, fair));
	feed(&d, sched(FS_EV_FOUND_TASK, 2, 5 * MS, a));
	ok(nr_out == n && d.cpu[2].curr.pid == 51 && d.cpu[2].nr_queued == 1,
	   "after a switch: what runs is known, the others are queued");
	/* CPU 0: a FIFO task switched in before the scan (migration/0 and
	 * back); a fair task found queued waits behind it. */
	feed(&d, sw(0, 4 * MS, task(12, 0, "migration/0"), 1, hog));
	n = nr_out;
	feed(&d, sched(FS_EV_FOUND_TASK, 0, 5 * MS, hog));
	feed(&d, sched(FS_EV_FOUND_TASK, 0, 5 * MS, b));
	ok(nr_out == n + 1 && out[n].why == FS_WAIT_UNSEEN && out[n].first,
	   "found queued behind the FIFO task a switch showed: a wait");
	feed(&d, sw(0, 6 * MS, hog, 1, b));
	/* CPU 3: two fair tasks, one of them runs: no wait until a FIFO task
	 * preempts the one that ran, then both wait. */
	n = nr_out;
	feed(&d, sched(FS_EV_FOUND_TASK, 3, 5 * MS, a));
	feed(&d, sched(FS_EV_FOUND_TASK, 3, 5 * MS, b));
	ok(nr_out == n, "fair tasks alone: no wait");
	feed(&d, sw(3, 10 * MS, a, 0x100, hog));
	ok(nr_out == n + 2 && out[n].why == FS_WAIT_PREEMPTED &&
	   out[n + 1].task.pid == 61, "preempted, and the other found one waits");
	/* A found task that ran and slept leaves the queue. */
	e = sw(3, 20 * MS, hog, 1, b);
	feed(&d, e);
	feed(&d, sw(3, 30 * MS, b, 1, hog));
	ok(d.cpu[3].nr_queued == 1 && d.cpu[3].queued[0].pid == 60,
	   "a found task that slept is off the queue");
	fs_derive_free(&d);
}

int main(void)
{
	test_found();
	test_server();
	test_starvation();
	test_untracked();
	return tap_done();
}
