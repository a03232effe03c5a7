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

/* The first event of @type handed on since @from, or NULL. */
static const struct fs_event *first_of(int from, enum fs_ev type)
{
	int i;

	for (i = from; i < nr_out; i++)
		if (out[i].type == type)
			return &out[i];
	return NULL;
}

/* How many events of @type about task @pid were handed on since @from. */
static int count_of(int from, enum fs_ev type, int pid)
{
	int i, n = 0;

	for (i = from; i < nr_out; i++)
		n += out[i].type == type && out[i].task.pid == pid;
	return n;
}

/* Whether the last event handed on is a ran event of @pid, @starved. */
static int last_ran(int pid, uint64_t starved)
{
	const struct fs_event *e = &out[nr_out - 1];

	return nr_out && e->type == FS_EV_RAN && e->task.pid == pid &&
	       e->starved == starved;
}

/* A lost-events mark for @cpu at @ts. */
static struct fs_event lost(int cpu, uint64_t ts)
{
	struct fs_event e;

	memset(&e, 0, sizeof(e));
	e.type = FS_EV_LOST;
	e.cpu = cpu;
	e.ts = ts;
	e.lost = 1;
	return e;
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
	/*
	 * Serving (D), an idle charge takes the rest of the runtime and
	 * leaves the running state. The throttle's timer cannot start (the
	 * period is over), the replenishment made at once arms the defer:
	 * the armed timer is seen, then the replenishment's return.
	 */
	feed(&d, probe(FS_EV_P_REPLENISH, 1250 * MS, A_ | U_, 50 * MS, 2250 * MS));
	n = nr_out;
	{
		struct fs_event e = probe(FS_EV_P_TIMER, 2250 * MS, A_ | T_,
					  0, 2250 * MS);

		e.ret = 0;
		feed(&d, e);
	}
	feed(&d, probe(FS_EV_P_TIMER, 2250 * MS, A_ | T_ | R_, 50 * MS, 3250 * MS));
	feed(&d, probe(FS_EV_P_REPLENISH, 2250 * MS, A_ | T_ | R_, 50 * MS, 3250 * MS));
	{
		enum fs_ev want[] = { FS_EV_THROTTLE, FS_EV_DEFER, FS_EV_REPLENISH };

		ok(types_are(n, want, 3) && fs_state_of(out[n].flags) == FS_ST_REPL_WAIT,
		   "a defer armed from D: the throttle first, then the defer");
		ok(nr_out >= n + 1 && out[n].runtime == 0 &&
		   out[n].deadline == 2250 * MS,
		   "the throttle has the runtime it ran out of and its old deadline");
	}
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
		ok(d.cpu[1].kd.down && !d.cpu[2].kd.down && d.cpu[2].known,
		   "a step up of a CPU that is not down changes nothing");
		e.cpu = 1;
		feed(&d, e);
		ok(!d.cpu[1].kd.down && !d.cpu[1].known, "back up: forgotten");
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
	ok(nr_out == n + 2 && out[n].type == FS_EV_END &&
	   out[n].why == FS_END_SERVED && out[n].task.pid == 100 &&
	   out[n].starved == 940 * MS, "served: the episode ends, its length");
	ok(out[n + 1].type == FS_EV_RAN && out[n + 1].task.pid == 100 &&
	   out[n + 1].starved == 940 * MS && out[n + 1].ts == 950 * MS,
	   "then the task that runs: its own starvation");
	/* FIFO again; then it blocks and the fair tasks run by themselves. */
	n = nr_out;
	feed(&d, sw(1, 1000 * MS, fair, 0x100, rt2));
	ok(nr_out == n + 2 && out[n].first && out[n].task.pid == 100,
	   "preempted again: a new episode");
	n = nr_out;
	feed(&d, sw(1, 1010 * MS, rt2, 1, fair2));
	ok(nr_out == n + 2 && out[n].why == FS_END_RAN &&
	   out[n].starved == 10 * MS, "the FIFO task sleeps: ran");
	/* fair2 waited since 1 ms through both episodes, not fair's turn. */
	ok(out[n + 1].type == FS_EV_RAN && out[n + 1].task.pid == 101 &&
	   out[n + 1].starved == 950 * MS, "fair2 met 940 + 10 ms");
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
	for (i = 0; i < FS_KD_QUEUED + 3; i++)
		feed(&d, wake(0, 2 * MS + i, task(1000 + i, 120, "many")));
	ok(fs_derive_untracked(&d) == 3 && d.cpu[0].kd.nr_queued == FS_KD_QUEUED,
	   "tasks beyond the table are counted (%llu)",
	   (unsigned long long)fs_derive_untracked(&d));
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
	ok(nr_out == n + 2 && out[n].type == FS_EV_END &&
	   out[n].why == FS_END_SERVED, "it ends when the server runs it");
	ok(out[n + 1].type == FS_EV_RAN && out[n + 1].task.pid == 51 &&
	   out[n + 1].starved == 895 * MS,
	   "it waited from the start of the run: ran, 895 ms");
	/* CPU 2: a switch seen first tells what runs; the fair task it ran
	 * is not queued, another one found is, behind a fair task. */
	feed(&d, sw(2, 4 * MS, task(0, 120, "swapper/2"), 0, fair));
	n = nr_out;
	feed(&d, sched(FS_EV_FOUND_TASK, 2, 5 * MS, hog));
	feed(&d, sched(FS_EV_FOUND_TASK, 2, 5 * MS, fair));
	feed(&d, sched(FS_EV_FOUND_TASK, 2, 5 * MS, a));
	ok(nr_out == n && d.cpu[2].kd.curr.pid == 51 && d.cpu[2].kd.nr_queued == 1,
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
	ok(d.cpu[3].kd.nr_queued == 1 && d.cpu[3].kd.queued[0].task.pid == 60,
	   "a found task that slept is off the queue");
	fs_derive_free(&d);
}

/*
 * A fair task behind a FIFO task through two episodes with a kworker's
 * turn between them: one ran event, both episodes, not the turn.
 */
static void test_ran_episodes(void)
{
	struct fs_task a = task(100, 120, "a"), kw = task(110, 120, "kworker");
	struct fs_task rt = task(200, 49, "rt"), idle = task(0, 120, "swapper/1");
	struct fs_derive d;
	int n;

	fs_derive_init(&d, 4);
	nr_out = 0;
	feed(&d, sw(1, 1 * MS, idle, 0, a));
	feed(&d, sw(1, 10 * MS, a, 0x100, rt));		/* episode 1: 10-30 */
	feed(&d, wake(1, 20 * MS, kw));
	n = nr_out;
	feed(&d, sw(1, 30 * MS, rt, 1, kw));
	ok(nr_out == n + 2 && out[n].type == FS_EV_END &&
	   out[n].starved == 20 * MS && last_ran(110, 10 * MS),
	   "the kworker woken at 20 ms met 10 ms of the episode");
	feed(&d, wake(1, 34 * MS, rt));
	feed(&d, sw(1, 35 * MS, kw, 1, rt));		/* episode 2: 35-75 */
	n = nr_out;
	feed(&d, sw(1, 75 * MS, rt, 1, a));
	ok(nr_out == n + 2 && out[n].type == FS_EV_END &&
	   out[n].starved == 40 * MS, "the second episode: 40 ms");
	ok(last_ran(100, 60 * MS) && out[nr_out - 1].ts == 75 * MS &&
	   out[nr_out - 1].cpu == 1,
	   "a: 20 + 40 ms, the kworker's 5 ms left out (%llu)",
	   (unsigned long long)out[nr_out - 1].starved);
	ok(count_of(0, FS_EV_RAN, 100) == 1, "a: one ran event for its wait");
	fs_derive_free(&d);
}

/* Two fair tasks take turns in the server's service. */
static void test_ran_shared(void)
{
	struct fs_task a = task(100, 120, "a"), b = task(101, 120, "b");
	struct fs_task rt = task(200, 49, "rt"), idle = task(0, 120, "swapper/1");
	struct fs_derive d;
	int n;

	fs_derive_init(&d, 4);
	nr_out = 0;
	feed(&d, sw(1, 1 * MS, idle, 0, rt));
	feed(&d, wake(1, 10 * MS, a));			/* episode: 10-110 */
	feed(&d, wake(1, 10 * MS, b));
	n = nr_out;
	feed(&d, sw(1, 110 * MS, rt, 0x100, a));	/* served */
	ok(nr_out == n + 2 && out[n].why == FS_END_SERVED &&
	   last_ran(100, 100 * MS), "a, served first: 100 ms");
	n = nr_out;
	feed(&d, sw(1, 120 * MS, a, 0x100, b));
	ok(nr_out == n + 1 && last_ran(101, 100 * MS),
	   "b: 100 ms, not a's 10 ms turn (%llu)",
	   (unsigned long long)out[nr_out - 1].starved);
	feed(&d, sw(1, 150 * MS, b, 0x100, rt));	/* throttled: 150-1000 */
	n = nr_out;
	feed(&d, sw(1, 1000 * MS, rt, 1, a));
	ok(nr_out == n + 2 && out[n].starved == 850 * MS &&
	   last_ran(100, 850 * MS), "a again: the second episode only");
	n = nr_out;
	feed(&d, sw(1, 1010 * MS, a, 1, b));
	ok(nr_out == n + 1 && last_ran(101, 850 * MS),
	   "b again: the second episode, not a's turns");
	fs_derive_free(&d);
}

/* A task moved while it waits carries what it met to the next CPU. */
static void test_ran_migrate(void)
{
	struct fs_task a = task(100, 120, "a"), b = task(101, 120, "b");
	struct fs_task rt = task(200, 49, "rt"), rt2 = task(201, 49, "rt2");
	struct fs_derive d;
	int n;

	fs_derive_init(&d, 4);
	nr_out = 0;
	feed(&d, sw(1, 1 * MS, task(0, 120, "swapper/1"), 0, rt));
	feed(&d, sw(2, 1 * MS, task(0, 120, "swapper/2"), 0, rt2));
	feed(&d, wake(2, 5 * MS, b));			/* CPU 2: 5-60 */
	feed(&d, wake(1, 10 * MS, a));			/* CPU 1: 10-40 */
	n = nr_out;
	feed(&d, migrate(1, 2, 40 * MS, a));
	ok(nr_out == n + 3 && out[n + 1].type == FS_EV_END &&
	   out[n + 1].cpu == 1 && out[n + 1].starved == 30 * MS &&
	   out[n + 2].type == FS_EV_WAIT && out[n + 2].cpu == 2,
	   "a leaves CPU 1 after 30 ms, waits on CPU 2");
	ok(d.cpu[2].kd.nr_queued == 2 && d.cpu[2].kd.queued[1].task.pid == 100 &&
	   d.cpu[2].kd.queued[1].acc == 30 * MS &&
	   d.cpu[2].kd.queued[1].mark == 35 * MS,
	   "it carries 30 ms; marked on CPU 2's clock, 35 ms");
	n = nr_out;
	feed(&d, sw(2, 60 * MS, rt2, 0x100, a));
	ok(nr_out == n + 2 && out[n].starved == 55 * MS && out[n + 1].cpu == 2 &&
	   last_ran(100, 50 * MS),
	   "a runs on CPU 2: 30 ms there and 20 ms here (%llu)",
	   (unsigned long long)out[nr_out - 1].starved);
	n = nr_out;
	feed(&d, sw(2, 70 * MS, a, 1, b));
	ok(nr_out == n + 1 && last_ran(101, 55 * MS),
	   "b: CPU 2's episode, not a's turn");
	fs_derive_free(&d);
}

/* Tasks found queued at start waited from then on. */
static void test_ran_found(void)
{
	struct fs_task hog = task(50, 49, "hog"), x = task(60, 120, "x");
	struct fs_task y = task(61, 120, "y");
	struct fs_derive d;
	int n;

	fs_derive_init(&d, 4);
	nr_out = 0;
	feed(&d, sched(FS_EV_FOUND_TASK, 1, 5 * MS, hog));
	feed(&d, sched(FS_EV_FOUND_TASK, 1, 5 * MS, x));
	feed(&d, sched(FS_EV_FOUND_TASK, 1, 5 * MS, y));
	n = nr_out;
	feed(&d, sw(1, 100 * MS, hog, 0x100, x));
	ok(nr_out == n + 2 && last_ran(60, 95 * MS),
	   "x, found queued: from the start, 95 ms");
	feed(&d, sw(1, 110 * MS, x, 0x100, hog));	/* 110-200 */
	n = nr_out;
	feed(&d, sw(1, 200 * MS, hog, 1, y));
	ok(nr_out == n + 2 && out[n].starved == 90 * MS &&
	   last_ran(61, 185 * MS), "y: 95 + 90 ms, x's turn left out");
	n = nr_out;
	feed(&d, sw(1, 210 * MS, y, 1, x));
	ok(nr_out == n + 1 && last_ran(60, 90 * MS),
	   "x again: from its preemption, 90 ms");
	/*
	 * CPU 2: the FIFO task is taken as running, but the first switch
	 * shows x ran: it waits from then, not from the start.
	 */
	feed(&d, sched(FS_EV_FOUND_TASK, 2, 5 * MS, hog));
	feed(&d, sched(FS_EV_FOUND_TASK, 2, 5 * MS, x));
	feed(&d, sw(2, 100 * MS, x, 0x100, hog));
	n = nr_out;
	feed(&d, sw(2, 150 * MS, hog, 1, x));
	ok(nr_out == n + 2 && out[n].starved == 145 * MS &&
	   last_ran(60, 50 * MS),
	   "x found queued but running: 50 ms from its preemption (%llu)",
	   (unsigned long long)out[nr_out - 1].starved);
	fs_derive_free(&d);
}

/* A wait without starvation, or across lost events: no ran event. */
static void test_ran_none(void)
{
	struct fs_task a = task(100, 120, "a"), b = task(101, 120, "b");
	struct fs_task rt = task(200, 49, "rt");
	struct fs_derive d;
	int n;

	fs_derive_init(&d, 4);
	nr_out = 0;
	feed(&d, sw(1, 1 * MS, task(0, 120, "swapper/1"), 0, a));
	feed(&d, wake(1, 2 * MS, b));
	feed(&d, sw(1, 5 * MS, a, 0x100, b));
	ok(nr_out == 0, "behind a fair task only: nothing");
	feed(&d, sw(1, 10 * MS, b, 1, rt));		/* a waits: 10-20 */
	feed(&d, sw(1, 20 * MS, rt, 1, a));
	ok(last_ran(100, 10 * MS), "a met the FIFO task: 10 ms");
	/* b wakes after that episode: the clock is at 10 ms, it met none. */
	feed(&d, wake(1, 25 * MS, b));
	n = nr_out;
	feed(&d, sw(1, 30 * MS, a, 1, b));
	ok(nr_out == n, "a wait after the episode: no ran event");
	/* A wait that events were lost in the middle of is not reported. */
	feed(&d, wake(1, 40 * MS, a));
	feed(&d, sw(1, 45 * MS, b, 1, rt));
	feed(&d, lost(1, 50 * MS));
	n = nr_out;
	feed(&d, sw(1, 60 * MS, rt, 1, a));
	ok(nr_out == n && !d.cpu[1].kd.clock, "across a loss: nothing");
	fs_derive_free(&d);
}

/*
 * RT tasks' wait on server events: only while the server is in D, a fair
 * task runs and a real-time task is queued. A duty-cycle task asleep, a
 * deadline task queued, a deadline task running: none of it counts.
 */
static void test_rt_wait(void)
{
	struct fs_task f = task(100, 120, "f"), r = task(300, 69, "duty");
	struct fs_task dl = task(400, -1, "dl");
	const struct fs_event *e;
	struct fs_derive d;
	int n;

	fs_derive_init(&d, 4);
	nr_out = 0;
	feed(&d, sw(1, 1 * MS, task(0, 120, "swapper/1"), 0, r));
	feed(&d, wake(1, 2 * MS, f));
	feed(&d, probe(FS_EV_P_TIMER, 2 * MS, A_ | T_ | R_, 50 * MS, 1002 * MS));
	feed(&d, probe(FS_EV_P_START, 2 * MS, A_ | T_ | R_, 50 * MS, 1002 * MS));
	e = first_of(0, FS_EV_START);
	ok(e && !e->rt_wait, "start: nothing waited yet");
	/* Boosted while r runs: r's turn is not a wait. */
	n = nr_out;
	feed(&d, probe(FS_EV_P_REPLENISH, 50 * MS, A_ | U_, 50 * MS, 1002 * MS));
	ok(nr_out == n + 1 && out[n].type == FS_EV_BOOST && !out[n].rt_wait,
	   "boost: 0");
	/* The server runs f, r preempted waits: 50-60. */
	feed(&d, sw(1, 50 * MS, r, 0x100, f));
	n = nr_out;
	feed(&d, probe(FS_EV_P_TIMER, 60 * MS, A_ | T_ | U_, 0, 1002 * MS));
	ok(nr_out == n + 1 && out[n].type == FS_EV_THROTTLE &&
	   out[n].rt_wait == 10 * MS, "throttle: r waited 10 ms (%llu)",
	   (unsigned long long)out[n].rt_wait);
	ok(!d.cpu[1].kd.rt_open, "out of D: no wait open");
	/* r runs (a moment after the throttle), sleeps; f runs by itself. */
	feed(&d, sw(1, 61 * MS, f, 0x100, r));
	feed(&d, sw(1, 65 * MS, r, 1, f));
	n = nr_out;
	feed(&d, probe(FS_EV_P_REPLENISH, 100 * MS, A_ | U_, 50 * MS, 2002 * MS));
	ok(nr_out == n + 1 && out[n].type == FS_EV_REPLENISH &&
	   out[n].rt_wait == 10 * MS, "replenished in D, r asleep: still 10 ms");
	/* A deadline task queued is no RT wait; r woken behind f is. */
	feed(&d, wake(1, 105 * MS, dl));
	feed(&d, wake(1, 120 * MS, r));			/* 120-122 */
	ok(d.cpu[1].kd.nr_rt == 1 && d.cpu[1].kd.rt[0] == 300 && d.cpu[1].kd.rt_open,
	   "r woken behind f in D: one RT task queued, waiting");
	/* The deadline task runs: not a fair task, no wait. */
	feed(&d, sw(1, 122 * MS, f, 0x100, dl));
	feed(&d, sw(1, 124 * MS, dl, 1, f));		/* 124-130 */
	n = nr_out;
	feed(&d, probe(FS_EV_P_TIMER, 130 * MS, A_ | T_ | U_, 0, 2002 * MS));
	ok(nr_out == n + 1 && out[n].type == FS_EV_THROTTLE &&
	   out[n].rt_wait == 18 * MS,
	   "throttle: 10 + 2 + 6 ms, not r's sleep nor dl's (%llu)",
	   (unsigned long long)out[n].rt_wait);
	fs_derive_free(&d);
}

/* RT tasks found at start: queued, but the one taken as running. */
static void test_rt_wait_found(void)
{
	struct fs_task r1 = task(300, 49, "r1"), r2 = task(301, 69, "r2");
	struct fs_task f = task(100, 120, "f"), g = task(101, 120, "g");
	struct fs_derive d;
	int n;

	fs_derive_init(&d, 4);
	nr_out = 0;
	feed(&d, sched(FS_EV_FOUND_TASK, 1, 5 * MS, r1));
	feed(&d, sched(FS_EV_FOUND_TASK, 1, 5 * MS, r2));
	feed(&d, sched(FS_EV_FOUND_TASK, 1, 5 * MS, f));
	ok(d.cpu[1].kd.nr_rt == 1 && d.cpu[1].kd.rt[0] == 301,
	   "r2 queued; r1 taken as running");
	feed(&d, probe(FS_EV_P_START, 5 * MS, A_ | U_, 40 * MS, 1005 * MS));
	/* The first switch shows f ran: r1 was queued too. */
	feed(&d, wake(1, 8 * MS, g));
	feed(&d, sw(1, 10 * MS, f, 0x100, g));		/* 10-20 */
	ok(d.cpu[1].kd.nr_rt == 2 && d.cpu[1].kd.rt_open,
	   "the first switch: both queued, waiting behind g");
	n = nr_out;
	feed(&d, probe(FS_EV_P_TIMER, 20 * MS, A_ | T_ | U_, 0, 1005 * MS));
	ok(nr_out == n + 1 && out[n].type == FS_EV_THROTTLE &&
	   out[n].rt_wait == 10 * MS, "throttle: 10 ms");
	fs_derive_free(&d);
}

/* An RT task moved away no longer waits there; it does where it went. */
static void test_rt_wait_migrate(void)
{
	struct fs_task f = task(100, 120, "f"), r = task(300, 69, "duty");
	struct fs_derive d;
	int n;

	fs_derive_init(&d, 4);
	nr_out = 0;
	feed(&d, sw(1, 1 * MS, task(0, 120, "swapper/1"), 0, r));
	feed(&d, wake(1, 2 * MS, f));
	feed(&d, probe(FS_EV_P_TIMER, 2 * MS, A_ | T_ | R_, 50 * MS, 1002 * MS));
	feed(&d, probe(FS_EV_P_START, 2 * MS, A_ | T_ | R_, 50 * MS, 1002 * MS));
	feed(&d, probe(FS_EV_P_REPLENISH, 50 * MS, A_ | U_, 50 * MS, 1002 * MS));
	feed(&d, sw(1, 50 * MS, r, 0x100, f));		/* 50-57 */
	feed(&d, migrate(1, 2, 57 * MS, r));
	ok(!d.cpu[1].kd.nr_rt && d.cpu[2].kd.nr_rt == 1 && d.cpu[2].kd.rt[0] == 300,
	   "the queued RT task moved to CPU 2");
	n = nr_out;
	feed(&d, probe(FS_EV_P_TIMER, 60 * MS, A_ | T_ | U_, 0, 1002 * MS));
	ok(nr_out == n + 1 && out[n].rt_wait == 7 * MS,
	   "throttle: the 7 ms before it moved (%llu)",
	   (unsigned long long)out[n].rt_wait);
	fs_derive_free(&d);
}

/*
 * Lost events close the RT wait open at the figure last handed on: it
 * never goes back, and the time not seen is not in it.
 */
static void test_rt_wait_lost(void)
{
	struct fs_task f = task(100, 120, "f"), r = task(300, 69, "duty");
	const struct fs_event *e;
	struct fs_derive d;
	int n;

	fs_derive_init(&d, 4);
	nr_out = 0;
	feed(&d, sw(1, 1 * MS, task(0, 120, "swapper/1"), 0, r));
	feed(&d, wake(1, 2 * MS, f));
	feed(&d, probe(FS_EV_P_TIMER, 2 * MS, A_ | T_ | R_, 50 * MS, 1002 * MS));
	feed(&d, probe(FS_EV_P_START, 2 * MS, A_ | T_ | R_, 50 * MS, 1002 * MS));
	feed(&d, probe(FS_EV_P_REPLENISH, 50 * MS, A_ | U_, 50 * MS, 1002 * MS));
	feed(&d, sw(1, 50 * MS, r, 0x100, f));		/* 50-70 seen */
	n = nr_out;
	feed(&d, probe(FS_EV_P_REPLENISH, 70 * MS, A_ | U_, 50 * MS, 1070 * MS));
	ok(nr_out == n + 1 && out[n].type == FS_EV_REPLENISH &&
	   out[n].rt_wait == 20 * MS, "in D, r queued: 20 ms");
	feed(&d, lost(2, 80 * MS));
	ok(!d.cpu[1].kd.rt_open && d.cpu[1].kd.rt_wait == 20 * MS && !d.cpu[1].kd.nr_rt,
	   "lost: closed at the figure handed on");
	/* Started again straight into D: no wait until a switch shows one. */
	n = nr_out;
	feed(&d, probe(FS_EV_P_START, 90 * MS, A_ | U_, 40 * MS, 1070 * MS));
	e = first_of(n, FS_EV_START);
	ok(e && e->rt_wait == 20 * MS,
	   "after the loss: 20 ms, neither back nor the time unseen (%llu)",
	   e ? (unsigned long long)e->rt_wait : 0ULL);
	feed(&d, sw(1, 95 * MS, r, 0x100, f));		/* 95-100 */
	n = nr_out;
	feed(&d, probe(FS_EV_P_TIMER, 100 * MS, A_ | T_ | U_, 0, 1070 * MS));
	ok(nr_out == n + 1 && out[n].type == FS_EV_THROTTLE &&
	   out[n].rt_wait == 25 * MS, "then it goes on: 25 ms");
	fs_derive_free(&d);
}

/*
 * A source that derives the real-time wait itself (the BPF programs): the
 * server's events carry the figure its observations carry, whatever the
 * switches fed here would give.
 */
static void test_rt_given(void)
{
	struct fs_task f = task(100, 120, "f"), r = task(300, 69, "duty");
	struct fs_event p;
	struct fs_derive d;
	int n;

	fs_derive_init(&d, 4);
	fs_derive_rt_given(&d);
	nr_out = 0;
	feed(&d, wake(1, 1 * MS, f));
	p = probe(FS_EV_P_START, 2 * MS, A_ | U_, 50 * MS, 1002 * MS);
	p.rt_wait = 7 * MS;
	feed(&d, p);
	feed(&d, sw(1, 3 * MS, r, 0x100, f));
	n = nr_out;
	p = probe(FS_EV_P_TIMER, 10 * MS, A_ | T_ | U_, 0, 1002 * MS);
	p.rt_wait = 9 * MS;
	feed(&d, p);
	ok(out[0].type == FS_EV_START && out[0].rt_wait == 7 * MS &&
	   nr_out == n + 1 && out[n].type == FS_EV_THROTTLE &&
	   out[n].rt_wait == 9 * MS,
	   "rt_wait given by the source: 7 ms, then 9 ms, as its observations say");
	fs_derive_free(&d);
}

/*
 * A server already active when the run began (or after a loss): seen
 * running, then throttled; a fair enqueue's dl_server_start() returns at
 * once, which is no start (it would be E to E, which no start does).
 */
static void test_active_before(void)
{
	struct fs_derive d;
	int n;

	fs_derive_init(&d, 4);
	nr_out = 0;
	feed(&d, probe(FS_EV_P_REPLENISH, 10 * MS, A_ | U_, 50 * MS, 1010 * MS));
	feed(&d, probe(FS_EV_P_TIMER, 60 * MS, A_ | T_ | U_, 0, 1010 * MS));
	n = nr_out;
	feed(&d, probe(FS_EV_P_START, 70 * MS, A_ | T_ | U_, 0, 1010 * MS));
	ok(nr_out == n, "dl_server_start() returning in E is no start");
	/* Stopped there, then started for real: a start again. */
	feed(&d, probe(FS_EV_P_STOP, 80 * MS, A_ | T_ | U_, 0, 1010 * MS));
	n = nr_out;
	feed(&d, probe(FS_EV_P_TIMER, 90 * MS, A_ | T_ | R_, 50 * MS, 1090 * MS));
	feed(&d, probe(FS_EV_P_START, 90 * MS, A_ | T_ | R_, 50 * MS, 1090 * MS));
	{
		enum fs_ev want[] = { FS_EV_DEFER, FS_EV_START };

		ok(types_are(n, want, 2), "after a stop, a start is one");
	}
	fs_derive_free(&d);
}

/*
 * A disabled server: dl_server_start() returns at once and leaves it
 * inactive, at every fair enqueue, and again after a loss.
 */
static void test_disabled(void)
{
	struct fs_derive d;
	struct fs_event e;

	fs_derive_init(&d, 4);
	nr_out = 0;
	e = probe(FS_EV_P_START, 10 * MS, 0, 0, 0);
	e.dl_runtime = 0;
	feed(&d, e);
	e.ts = 20 * MS;
	feed(&d, e);
	ok(nr_out == 0, "a disabled server's dl_server_start() is no start");
	feed(&d, lost(1, 30 * MS));
	e.ts = 40 * MS;
	feed(&d, e);
	ok(nr_out > 0 && out[nr_out - 1].type == FS_EV_LOST,
	   "nor after a loss");
	fs_derive_free(&d);
}

int main(void)
{
	test_found();
	test_server();
	test_active_before();
	test_disabled();
	test_starvation();
	test_untracked();
	test_ran_episodes();
	test_ran_shared();
	test_ran_migrate();
	test_ran_found();
	test_ran_none();
	test_rt_wait();
	test_rt_wait_found();
	test_rt_wait_migrate();
	test_rt_wait_lost();
	test_rt_given();
	return tap_done();
}
