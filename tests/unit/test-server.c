// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/model.c: synthetic streams of fair server events, with
 * the flags, runtimes and deadlines a 6.12 kernel gives them.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "model.h"
#include "tap.h"

#define US		1000ULL
#define MS		(1000 * US)
#define RT		(50 * MS)		/* fair server runtime */
#define PERIOD		(1000 * MS)		/* and period */
#define BUCKET		(10 * MS)
#define ENTRIES		256

/* The flags of each state, as the kernel sets them. */
#define FL_B		(FS_FLAG_ACTIVE | FS_FLAG_THROTTLED | FS_FLAG_ARMED)
#define FL_BOOST	(FL_B | FS_FLAG_RUNNING)
#define FL_D		(FS_FLAG_ACTIVE | FS_FLAG_RUNNING)
#define FL_THR		(FS_FLAG_ACTIVE | FS_FLAG_THROTTLED | FS_FLAG_RUNNING)
/* dl_server_stop() leaves dl_defer_running alone. */
#define FL_STOP		FS_FLAG_RUNNING

/* Trace time of the first event, and how far the rq clock lags behind. */
#define T0		5123456789012ULL
#define RQ_OFF		987654321ULL

#define MAX_EV		128
#define MAX_EP		16

/* The end of every run: after all the events of the tests. */
#define END		(T0 + 100000 * MS)

/* rq_clock() at trace time @ts. */
static uint64_t rq(uint64_t ts)
{
	return ts - RQ_OFF;
}

/* Trace time of the zero-laxity point of a period ending at @deadline. */
static uint64_t zero_laxity(uint64_t deadline, int64_t runtime)
{
	return deadline + RQ_OFF - (uint64_t)runtime;
}

static struct fs_event mkev(enum fs_ev type, uint64_t ts, unsigned int flags,
			    int64_t runtime, uint64_t deadline)
{
	struct fs_event ev = {
		.type = type,
		.ts = ts,
		.cpu = 1,
		.flags = flags,
		.runtime = runtime,
		.deadline = deadline,
		.dl_runtime = RT,
		.dl_period = PERIOD,
	};

	return ev;
}

/* Feed one event built from its fields. */
static void feed(struct fs_cpu *c, enum fs_ev type, uint64_t ts,
		 unsigned int flags, int64_t runtime, uint64_t deadline,
		 struct fs_outcome *out)
{
	struct fs_event ev = mkev(type, ts, flags, runtime, deadline);

	fs_cpu_event(c, &ev, out);
}

static bool outcome_empty(const struct fs_outcome *o)
{
	return !o->invalid && !o->server_wait && !o->preemption &&
	       !o->server_wait_ns && !o->preempt_ns && !o->served_ns;
}

/* A stream of events and the episodes it should produce. */
struct stream {
	struct fs_event ev[MAX_EV];
	int n;
	uint64_t starv[MAX_EP];		/* expected starvation samples */
	int nstarv;
	uint64_t preempt[MAX_EP];	/* expected preemption samples */
	uint64_t served[MAX_EP];	/* and served runtime of each */
	int npreempt;
	/* Per period of steady(): indices of its events. */
	int boost_idx[MAX_EP], thr_idx[MAX_EP];
	int periods;
	/* Where the next period waits from, and its deadline. */
	uint64_t wait_ts, deadline;
};

static void add(struct stream *s, enum fs_ev type, uint64_t ts,
		unsigned int flags, int64_t runtime, uint64_t deadline)
{
	if (s->n < MAX_EV)
		s->ev[s->n++] = mkev(type, ts, flags, runtime, deadline);
}

/* A fair task wakes up with the server stopped: defer, then start (A->B). */
static void start_deferred(struct stream *s, uint64_t ts)
{
	uint64_t dl = rq(ts) + PERIOD;

	add(s, FS_EV_DEFER, ts, FL_B, RT, dl);
	add(s, FS_EV_START, ts + 2 * US, FL_B, RT, dl);
	s->wait_ts = ts + 2 * US;
	s->deadline = dl;
}

/*
 * One period of the starvation cycle of an RT hog and a fair hog on one
 * CPU: the zero-laxity timer fires and boosts the server, which runs the
 * fair hog for its runtime and a bit more, is throttled, and is postponed
 * to a new period by the next update.
 */
static void period(struct stream *s)
{
	uint64_t boost = zero_laxity(s->deadline, RT) + 20 * US;
	uint64_t repl = boost;
	uint64_t rdl = rq(repl) + PERIOD;
	uint64_t thr = repl + 50 * MS + 500 * US;
	uint64_t post = thr + 100 * US;
	uint64_t pdl = rq(post) + PERIOD;
	int p = s->periods++;

	s->boost_idx[p] = s->n;
	add(s, FS_EV_BOOST, boost, FL_D, RT, s->deadline);
	s->thr_idx[p] = s->n;
	add(s, FS_EV_THROTTLE, thr, FL_THR, -(int64_t)(500 * US), rdl);
	add(s, FS_EV_POSTPONE, post, FL_B, RT, pdl);
	add(s, FS_EV_DEFER, post + 1 * US, FL_B, RT, pdl);

	s->starv[s->nstarv++] = repl - s->wait_ts;
	s->preempt[s->npreempt] = thr - repl;
	s->served[s->npreempt++] = RT + 500 * US;
	s->wait_ts = post;
	s->deadline = pdl;
}

/* The steady starvation cycle for @n periods. */
static void steady(struct stream *s, int n)
{
	int i;

	memset(s, 0, sizeof(*s));
	start_deferred(s, T0);
	for (i = 0; i < n; i++)
		period(s);
}

/*
 * A boosted episode in which the fair class briefly runs dry: stopped in
 * D, restarted straight back to D, then throttled as usual.
 */
static void period_stop_resume(struct stream *s)
{
	uint64_t boost = zero_laxity(s->deadline, RT) + 20 * US;
	uint64_t repl = boost;
	uint64_t rdl = rq(repl) + PERIOD;
	uint64_t stop = repl + 10 * MS;
	uint64_t thr = repl + 50 * MS + 700 * US;
	uint64_t post = thr + 100 * US;
	uint64_t pdl = rq(post) + PERIOD;

	add(s, FS_EV_BOOST, boost, FL_D, RT, s->deadline);
	add(s, FS_EV_STOP, stop, FL_STOP, RT - 10 * MS, rdl);
	add(s, FS_EV_START, stop + 4 * US, FL_D, RT - 10 * MS, rdl);
	add(s, FS_EV_THROTTLE, thr, FL_THR, -(int64_t)(700 * US), rdl);
	add(s, FS_EV_POSTPONE, post, FL_B, RT, pdl);
	add(s, FS_EV_DEFER, post + 1 * US, FL_B, RT, pdl);

	s->starv[s->nstarv++] = repl - s->wait_ts;
	/* The 4 us stopped do not count. */
	s->preempt[s->npreempt] = thr - repl - 4 * US;
	s->served[s->npreempt++] = RT + 700 * US;
	s->wait_ts = post;
	s->deadline = pdl;
}

/* A boosted episode that ends in a stop nothing resumes. */
static void period_stop_end(struct stream *s)
{
	uint64_t boost = zero_laxity(s->deadline, RT) + 20 * US;
	uint64_t repl = boost;
	uint64_t rdl = rq(repl) + PERIOD;
	uint64_t stop = repl + 20 * MS;

	add(s, FS_EV_BOOST, boost, FL_D, RT, s->deadline);
	add(s, FS_EV_STOP, stop, FL_STOP, RT - 20 * MS, rdl);

	s->starv[s->nstarv++] = repl - s->wait_ts;
	s->preempt[s->npreempt] = stop - repl;
	s->served[s->npreempt++] = 20 * MS;
}

/*
 * A boost on a CPU whose fair task left meanwhile: the server finds nothing
 * to run and stops at once. A fair task wakes up again 300 ms later.
 */
static void period_idle_boost(struct stream *s)
{
	uint64_t boost = zero_laxity(s->deadline, RT) + 20 * US;
	uint64_t repl = boost;
	uint64_t rdl = rq(repl) + PERIOD;

	add(s, FS_EV_BOOST, boost, FL_D, RT, s->deadline);
	add(s, FS_EV_STOP, repl + 4 * US, FL_STOP, RT, rdl);
	start_deferred(s, repl + 300 * MS);
}

/* Feed events [from, to) of @s; store the outcomes in @outs if given. */
static void feed_range(struct fs_cpu *c, const struct stream *s, int from,
		       int to, struct fs_outcome *outs)
{
	struct fs_outcome out;
	int i;

	for (i = from; i < to; i++) {
		fs_cpu_event(c, &s->ev[i], &out);
		if (outs)
			outs[i] = out;
	}
}

static int cpu_init(struct fs_cpu *c)
{
	return fs_cpu_init(c, 1, BUCKET, ENTRIES);
}

/* A fresh model of CPU 1; false, reported as a failure, if it cannot be. */
static bool fresh(struct fs_cpu *c)
{
	if (!cpu_init(c))
		return true;
	ok(0, "fs_cpu_init");
	return false;
}

/* 1. The state of each flag combination. */
static void test_state_of(void)
{
	static const struct {
		unsigned int flags;
		enum fs_state st;
	} cases[] = {
		{ 0, FS_ST_INIT },
		{ FS_FLAG_RUNNING, FS_ST_INIT },
		{ FS_FLAG_THROTTLED | FS_FLAG_ARMED, FS_ST_INIT },
		{ FS_FLAG_THROTTLED | FS_FLAG_ARMED | FS_FLAG_RUNNING,
		  FS_ST_INIT },
		{ FL_B, FS_ST_ZL_WAIT },
		{ FL_BOOST, FS_ST_ZL_WAIT },
		{ FS_FLAG_ACTIVE, FS_ST_RUNNING },
		{ FL_D, FS_ST_RUNNING },
		{ FS_FLAG_ACTIVE | FS_FLAG_ARMED, FS_ST_RUNNING },
		{ FS_FLAG_ACTIVE | FS_FLAG_THROTTLED, FS_ST_REPL_WAIT },
		{ FL_THR, FS_ST_REPL_WAIT },
	};
	unsigned int i, f, bad = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ok(fs_state_of(cases[i].flags) == cases[i].st,
		   "flags 0x%x are state %s", cases[i].flags,
		   fs_state_letter(cases[i].st));

	/* Every combination of the four flags against the table in model.h. */
	for (f = 0; f < 16; f++) {
		enum fs_state want;

		if (!(f & FS_FLAG_ACTIVE))
			want = FS_ST_INIT;
		else if (!(f & FS_FLAG_THROTTLED))
			want = FS_ST_RUNNING;
		else if (f & FS_FLAG_ARMED)
			want = FS_ST_ZL_WAIT;
		else
			want = FS_ST_REPL_WAIT;
		if (fs_state_of(f) != want)
			bad++;
	}
	ok(bad == 0, "all 16 flag combinations map as model.h says");
	ok(fs_state_of(FL_B | 0xf0) == FS_ST_ZL_WAIT,
	   "unknown flag bits are ignored");

	ok(!strcmp(fs_state_letter(FS_ST_ZL_WAIT), "B") &&
	   !strcmp(fs_state_letter(FS_ST_UNKNOWN), "?") &&
	   !strcmp(fs_state_letter(FS_ST_NR), "!"), "state letters");
	ok(!strcmp(fs_state_name(FS_ST_REPL_WAIT), "replenish-wait") &&
	   !strcmp(fs_state_name(FS_ST_NR), "invalid"), "state names");
	ok(!strcmp(fs_ev_name(FS_EV_BOOST), "server_boost") &&
	   !strcmp(fs_ev_name(FS_EV_THROTTLE), "throttle") &&
	   !strcmp(fs_ev_name(FS_EV_NR), "invalid"), "event names");
}

/* 2. The edges of the state machine. */
#define A	FS_ST_INIT
#define B	FS_ST_ZL_WAIT
#define D	FS_ST_RUNNING
#define E	FS_ST_REPL_WAIT
static void test_transitions(void)
{
	/* The edges[] table of model.c, written out. */
	static const struct {
		enum fs_ev ev;
		enum fs_state from, to;
	} valid[] = {
		{ FS_EV_START, A, B }, { FS_EV_START, A, D },
		{ FS_EV_START, B, B }, { FS_EV_START, D, D },
		{ FS_EV_STOP, B, A }, { FS_EV_STOP, D, A },
		{ FS_EV_STOP, E, A },
		{ FS_EV_DEFER, A, B }, { FS_EV_DEFER, B, B },
		{ FS_EV_DEFER, E, B },
		{ FS_EV_POSTPONE, B, B }, { FS_EV_POSTPONE, E, B },
		{ FS_EV_BOOST, B, D },
		{ FS_EV_IDLE, B, B },
		{ FS_EV_IDLE, D, D }, { FS_EV_IDLE, E, E },
		{ FS_EV_THROTTLE, D, E },
		{ FS_EV_REPLENISH, B, D }, { FS_EV_REPLENISH, E, D },
		{ FS_EV_REPLENISH, E, B }, { FS_EV_REPLENISH, B, B },
		{ FS_EV_REPLENISH, D, D },
		/* A new period from now (replenish_dl_new_period()). */
		{ FS_EV_REPLENISH, A, A }, { FS_EV_REPLENISH, A, B },
		{ FS_EV_REPLENISH, E, E },
	};
	static const struct {
		enum fs_ev ev;
		enum fs_state from, to;
	} invalid[] = {
		{ FS_EV_THROTTLE, B, E }, { FS_EV_BOOST, D, D },
		{ FS_EV_STOP, A, A }, { FS_EV_POSTPONE, D, B },
		{ FS_EV_BOOST, B, B }, { FS_EV_THROTTLE, E, E },
		{ FS_EV_IDLE, A, A },
		{ FS_EV_START, E, D }, { FS_EV_DEFER, D, B },
		{ FS_EV_REPLENISH, A, D }, { FS_EV_STOP, D, D },
		{ FS_EV_IDLE, B, A }, { FS_EV_POSTPONE, A, B },
	};
	unsigned int i, nvalid = 0, nall = 0, bad = 0;
	int ev, from, to;

	for (i = 0; i < sizeof(valid) / sizeof(valid[0]); i++)
		ok(fs_transition_valid(valid[i].ev, valid[i].from, valid[i].to),
		   "%s %s->%s is valid", fs_ev_name(valid[i].ev),
		   fs_state_letter(valid[i].from),
		   fs_state_letter(valid[i].to));
	for (i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++)
		ok(!fs_transition_valid(invalid[i].ev, invalid[i].from,
					invalid[i].to),
		   "%s %s->%s is invalid", fs_ev_name(invalid[i].ev),
		   fs_state_letter(invalid[i].from),
		   fs_state_letter(invalid[i].to));

	/* No edge between known states beyond the table. */
	for (ev = 0; ev < FS_EV_SERVER_NR; ev++) {
		if (ev == FS_EV_PARAMS)
			continue;
		for (from = A; from < FS_ST_NR; from++)
			for (to = A; to < FS_ST_NR; to++)
				nvalid += fs_transition_valid(ev, from, to);
	}
	ok(nvalid == sizeof(valid) / sizeof(valid[0]),
	   "exactly the %zu edges of the table are valid (%u)",
	   sizeof(valid) / sizeof(valid[0]), nvalid);

	/* Nothing is known before the first event, when off or offline. */
	for (ev = 0; ev < FS_EV_SERVER_NR; ev++)
		for (to = 0; to < FS_ST_NR; to++) {
			nall += 3;
			bad += !fs_transition_valid(ev, FS_ST_UNKNOWN, to);
			bad += !fs_transition_valid(ev, FS_ST_OFF, to);
			bad += !fs_transition_valid(ev, FS_ST_OFFLINE, to);
		}
	ok(bad == 0, "from unknown, off or offline, anything goes (%u)", nall);
	ok(!fs_transition_valid(FS_EV_WAIT, FS_ST_UNKNOWN, B) &&
	   !fs_transition_valid(FS_EV_LOST, B, B),
	   "events that are not the server's are no transitions");

	bad = 0;
	for (from = 0; from < FS_ST_NR; from++)
		for (to = 0; to < FS_ST_NR; to++)
			bad += !fs_transition_valid(FS_EV_PARAMS, from, to);
	ok(bad == 0, "params is valid in any state");

	ok(!fs_transition_valid(FS_EV_NR, B, D) &&
	   !fs_transition_valid(FS_EV_BOOST, FS_ST_NR, B) &&
	   !fs_transition_valid(FS_EV_BOOST, B, FS_ST_NR),
	   "out of range arguments are invalid");
}
#undef A
#undef B
#undef D
#undef E

/* 3. The steady starvation cycle of an RT hog and a fair hog. */
static void test_steady(void)
{
	struct fs_outcome outs[MAX_EV];
	struct stream s;
	struct fs_cpu c;
	uint64_t sum = 0, min = UINT64_MAX, max = 0;
	int i, bad_out = 0, other = 0;

	steady(&s, 5);
	if (!fresh(&c))
		return;
	ok(c.srv.state == FS_ST_UNKNOWN && c.cpu == 1 &&
	   c.srv.wait.bucket_size == BUCKET &&
	   c.srv.preempt.entries == ENTRIES, "a new CPU is in no known state");
	ok(s.n == 22, "stream of 22 events (%d)", s.n);

	feed_range(&c, &s, 0, s.n, outs);

	for (i = 0; i < 5; i++) {
		const struct fs_outcome *b = &outs[s.boost_idx[i]];
		const struct fs_outcome *t = &outs[s.thr_idx[i] + 1];

		ok(outcome_empty(b) && outcome_empty(&outs[s.thr_idx[i]]),
		   "period %d: the boost and the throttle complete nothing yet",
		   i);
		ok(t->server_wait && t->server_wait_ns == s.starv[i] &&
		   !t->invalid,
		   "period %d: the postpone reports a server wait of %llu ns (%llu)",
		   i, (unsigned long long)s.starv[i],
		   (unsigned long long)t->server_wait_ns);
		ok(t->preemption && t->preempt_ns == s.preempt[i] &&
		   t->served_ns == s.served[i],
		   "period %d: and a preemption of %llu ns, %llu served", i,
		   (unsigned long long)t->preempt_ns,
		   (unsigned long long)t->served_ns);
		if (s.starv[i] < 949 * MS || s.starv[i] > 951 * MS)
			bad_out++;
		sum += s.starv[i];
		if (s.starv[i] < min)
			min = s.starv[i];
		if (s.starv[i] > max)
			max = s.starv[i];
	}
	ok(bad_out == 0, "the expected server waits are all about 950 ms");
	ok(s.starv[0] == 950 * MS + 18 * US && s.starv[1] == 950 * MS + 20 * US,
	   "the first wait counts from the start, later ones from the postpone");
	ok(s.preempt[0] == 50 * MS + 500 * US, "expected preemption 50.5 ms");

	for (i = 1; i < s.n; i++)
		if (s.ev[i - 1].type != FS_EV_THROTTLE &&
		    !outcome_empty(&outs[i]))
			other++;
	ok(other == 0, "only the events after the throttles complete something");

	ok(c.srv.boosts == 5, "boosts == 5 (%llu)", (unsigned long long)c.srv.boosts);
	ok(c.srv.idle_boosts == 0, "no idle boost");
	ok(c.srv.wait.stat.count == 5, "5 server wait samples");
	ok(c.srv.wait.stat.sum == sum && c.srv.wait.stat.min == min &&
	   c.srv.wait.stat.max == max,
	   "server wait sum/min/max from the timestamps");
	ok(c.srv.wait.buckets[95] == 5 && c.srv.wait.over == 0,
	   "the waits land in the 950 ms bucket");
	ok(c.srv.preempt.stat.count == 5 &&
	   c.srv.preempt.stat.min == 50 * MS + 500 * US &&
	   c.srv.preempt.stat.max == 50 * MS + 500 * US &&
	   c.srv.preempt.stat.sum == 5 * (50 * MS + 500 * US),
	   "5 preemptions of 50.5 ms");
	ok(c.srv.preempt.buckets[5] == 5, "preemptions land in the 50 ms bucket");
	ok(c.srv.served_total == 5 * (50 * MS + 500 * US),
	   "served_total == 5 * 50.5 ms (%llu)",
	   (unsigned long long)c.srv.served_total);
	ok(c.invalid == 0, "no invalid transition");
	ok(c.srv.state == FS_ST_ZL_WAIT, "ends in B (%s)",
	   fs_state_letter(c.srv.state));
	ok(c.srv.count[FS_EV_THROTTLE] == 5 && c.srv.count[FS_EV_BOOST] == 5 &&
	   c.srv.count[FS_EV_REPLENISH] == 0 && c.srv.count[FS_EV_POSTPONE] == 5 &&
	   c.srv.count[FS_EV_DEFER] == 6 && c.srv.count[FS_EV_START] == 1 &&
	   c.srv.count[FS_EV_STOP] == 0 && c.srv.count[FS_EV_IDLE] == 0,
	   "event counters");
	ok(c.srv.dl_runtime == RT && c.srv.dl_period == PERIOD,
	   "parameters taken from the events");

	fs_cpu_free(&c);
	ok(c.srv.wait.buckets == NULL && c.srv.preempt.buckets == NULL,
	   "fs_cpu_free releases the histograms");
	/* A second free must be harmless: ASan would report a double free. */
	fs_cpu_free(&c);
	ok(c.srv.wait.buckets == NULL && c.st.hist.buckets == NULL,
	   "fs_cpu_free twice leaves the model empty");
}

/*
 * Throttle at @thr with @runtime left, then the postpone 100 us later
 * that ends the serving episode; its outcome in @out.
 */
static void throttle_at(struct fs_cpu *c, uint64_t thr, int64_t runtime,
			uint64_t dl, struct fs_outcome *out)
{
	uint64_t post = thr + 100 * US;

	feed(c, FS_EV_THROTTLE, thr, FL_THR, runtime, dl, out);
	ok(outcome_empty(out) && c->srv.tail_held,
	   "the throttle at %llu holds its episode open",
	   (unsigned long long)thr);
	feed(c, FS_EV_POSTPONE, post, FL_B, RT, rq(post) + PERIOD, out);
}

/* Serve from @repl until throttled 50.5 ms later; the episode's outcome. */
static void throttle_after(struct fs_cpu *c, uint64_t repl,
			   struct fs_outcome *out)
{
	throttle_at(c, repl + 50 * MS + 500 * US, -(int64_t)(500 * US),
		    rq(repl) + PERIOD, out);
}

/* 4. Runtime used in the background shortens the starvation. */
static void test_background(void)
{
	struct fs_outcome out;
	struct fs_cpu c;
	uint64_t dl = rq(T0) + PERIOD, start = T0 + 2 * US, boost, repl;

	if (!fresh(&c))
		return;
	feed(&c, FS_EV_DEFER, T0, FL_B, RT, dl, &out);
	feed(&c, FS_EV_START, start, FL_B, RT, dl, &out);
	/* The fair hog ran 20 ms: the zero-laxity timer moves 20 ms on. */
	feed(&c, FS_EV_DEFER, T0 + 950 * MS + 10 * US, FL_B, RT - 20 * MS, dl,
	     &out);
	ok(outcome_empty(&out) && c.srv.state == FS_ST_ZL_WAIT,
	   "a defer in B with less runtime: still B, nothing completed");
	boost = zero_laxity(dl, RT - 20 * MS) + 20 * US;
	feed(&c, FS_EV_BOOST, boost, FL_D, RT - 20 * MS, dl, &out);
	repl = boost;
	throttle_after(&c, repl, &out);
	ok(out.server_wait && out.server_wait_ns == repl - start - 20 * MS,
	   "starvation less the 20 ms consumed: %llu (%llu)",
	   (unsigned long long)(repl - start - 20 * MS),
	   (unsigned long long)out.server_wait_ns);
	ok(out.server_wait_ns == 950 * MS + 18 * US, "which is 950.018 ms");
	ok(c.srv.wait.stat.count == 1 &&
	   c.srv.wait.stat.sum == out.server_wait_ns,
	   "one sample in the hist");
	fs_cpu_free(&c);

	/* Two steps of consumption: the total counts, not the sum of steps. */
	if (!fresh(&c))
		return;
	feed(&c, FS_EV_DEFER, T0, FL_B, RT, dl, &out);
	feed(&c, FS_EV_START, start, FL_B, RT, dl, &out);
	feed(&c, FS_EV_DEFER, T0 + 950 * MS, FL_B, RT - 5 * MS, dl, &out);
	feed(&c, FS_EV_DEFER, T0 + 955 * MS, FL_B, RT - 12 * MS, dl, &out);
	boost = zero_laxity(dl, RT - 12 * MS) + 20 * US;
	feed(&c, FS_EV_BOOST, boost, FL_D, RT - 12 * MS, dl, &out);
	repl = boost;
	throttle_after(&c, repl, &out);
	ok(out.server_wait && out.server_wait_ns == repl - start - 12 * MS,
	   "consumption in two steps counts 12 ms once (%llu)",
	   (unsigned long long)out.server_wait_ns);
	fs_cpu_free(&c);

	/* A smaller runtime of another period is no consumption. */
	if (!fresh(&c))
		return;
	feed(&c, FS_EV_DEFER, T0, FL_B, RT, dl, &out);
	feed(&c, FS_EV_START, start, FL_B, RT, dl, &out);
	feed(&c, FS_EV_DEFER, T0 + 500 * MS, FL_B, RT - 20 * MS, dl + 7 * MS,
	     &out);
	boost = T0 + 950 * MS + 20 * US;
	feed(&c, FS_EV_BOOST, boost, FL_D, RT, dl, &out);
	repl = boost;
	throttle_after(&c, repl, &out);
	ok(out.server_wait && out.server_wait_ns == repl - start,
	   "runtime of another deadline is not consumption (%llu)",
	   (unsigned long long)out.server_wait_ns);
	fs_cpu_free(&c);
}

/* Put @c in D by a boost; returns the replenish time. */
static uint64_t boost_to_d(struct fs_cpu *c, uint64_t *rdl)
{
	struct fs_outcome out;
	uint64_t dl = rq(T0) + PERIOD;
	uint64_t boost = zero_laxity(dl, RT) + 20 * US, repl = boost;

	feed(c, FS_EV_DEFER, T0, FL_B, RT, dl, &out);
	feed(c, FS_EV_START, T0 + 2 * US, FL_B, RT, dl, &out);
	feed(c, FS_EV_BOOST, boost, FL_D, RT, dl, &out);
	*rdl = dl;
	return repl;
}

/*
 * Boost to D, stop 15 ms later, then a parameter write (dl_runtime
 * @runtime) 10 us after the stop, as debugfs does. Returns the boost's
 * time; the stop's in @stop, the deadline in @rdl.
 */
static uint64_t stop_and_write(struct fs_cpu *c, uint64_t *rdl,
			       uint64_t *stop, uint64_t runtime,
			       struct fs_outcome *out)
{
	struct fs_event ev;
	uint64_t repl = boost_to_d(c, rdl);

	*stop = repl + 15 * MS;
	feed(c, FS_EV_STOP, *stop, FL_STOP, RT - 15 * MS, *rdl, out);
	ev = mkev(FS_EV_PARAMS, *stop + 10 * US, 0, 0, 0);
	ev.dl_runtime = runtime;
	fs_cpu_event(c, &ev, out);
	return repl;
}

/* The server's wait boost_to_d() ends: from its start to the boost. */
#define BOOST_WAIT	(950 * MS + 18 * US)

/* 5. Stops in D: held, resumed, or closing the episode. */
static void test_stop(void)
{
	struct fs_outcome out;
	struct fs_cpu c;
	uint64_t repl, rdl, stop, thr, start;

	/* Stop, then straight back to D: one episode. */
	if (!fresh(&c))
		return;
	repl = boost_to_d(&c, &rdl);
	ok(c.srv.state == FS_ST_RUNNING && c.srv.boosts == 0 &&
	   c.srv.wait.stat.count == 0,
	   "boosted into D; the boost is counted when the episode ends");
	stop = repl + 20 * MS;
	feed(&c, FS_EV_STOP, stop, FL_STOP, RT - 20 * MS, rdl, &out);
	ok(outcome_empty(&out) && c.srv.state == FS_ST_INIT && c.srv.stop_held,
	   "stop in D: A, held, nothing completed yet");
	feed(&c, FS_EV_START, stop + 3 * US, FL_D, RT - 20 * MS, rdl, &out);
	ok(outcome_empty(&out) && c.srv.state == FS_ST_RUNNING && !c.srv.stop_held,
	   "start straight back to D: the same episode goes on");
	ok(c.srv.preempt.stat.count == 0 && c.srv.served_total == 0,
	   "nothing accounted yet");
	thr = repl + 50 * MS + 500 * US;
	throttle_at(&c, thr, -(int64_t)(500 * US), rdl, &out);
	ok(out.preemption && out.preempt_ns == thr - repl - 3 * US &&
	   out.served_ns == 50 * MS + 500 * US,
	   "the throttle closes one episode of %llu ns (%llu), served %llu",
	   (unsigned long long)(thr - repl - 3 * US),
	   (unsigned long long)out.preempt_ns,
	   (unsigned long long)out.served_ns);
	ok(out.server_wait && out.server_wait_ns == BOOST_WAIT,
	   "and reports the starvation before it");
	ok(c.srv.preempt.stat.count == 1 &&
	   c.srv.preempt.stat.sum == thr - repl - 3 * US,
	   "preempt hist: one sample, without the 3 us stopped");
	ok(c.srv.served_total == 50 * MS + 500 * US && c.srv.boosts == 1 &&
	   c.srv.wait.stat.count == 1 && c.invalid == 0,
	   "served, boosts, starvation and invalid after the resumed episode");
	ok(c.srv.served_boost.count == 1 &&
	   c.srv.served_boost.sum == 50 * MS + 500 * US &&
	   c.srv.served_boost.max == 50 * MS + 500 * US,
	   "served per boost: one episode of 50.5 ms");
	ok(c.srv.count[FS_EV_STOP] == 1 && c.srv.count[FS_EV_START] == 2,
	   "stop and start are counted");
	fs_cpu_finish(&c, END, &out);
	ok(outcome_empty(&out), "finish with nothing held completes nothing");
	fs_cpu_free(&c);

	/* Stop, then a deferred start: the episode ended at the stop. */
	if (!fresh(&c))
		return;
	repl = boost_to_d(&c, &rdl);
	stop = repl + 20 * MS;
	feed(&c, FS_EV_STOP, stop, FL_STOP, RT - 20 * MS, rdl, &out);
	ok(outcome_empty(&out), "stop in D completes nothing yet");
	start = stop + 300 * US;
	feed(&c, FS_EV_DEFER, start, FL_B, RT, rq(start) + PERIOD, &out);
	ok(out.preemption && out.preempt_ns == 20 * MS &&
	   out.served_ns == 20 * MS && !out.invalid,
	   "the next defer closes the episode at the stop: %llu ns (%llu)",
	   (unsigned long long)(20 * MS), (unsigned long long)out.preempt_ns);
	ok(out.server_wait && out.server_wait_ns == BOOST_WAIT && c.srv.boosts == 1,
	   "with the boost and its starvation");
	feed(&c, FS_EV_START, start + 2 * US, FL_B, RT, rq(start) + PERIOD,
	     &out);
	ok(outcome_empty(&out) && c.srv.state == FS_ST_ZL_WAIT,
	   "the start after it completes nothing more");
	ok(c.srv.preempt.stat.count == 1 && c.srv.preempt.stat.sum == 20 * MS &&
	   c.srv.served_total == 20 * MS, "one 20 ms episode");
	/* That start began a new wait. */
	repl = start + 2 * US + 950 * MS;
	feed(&c, FS_EV_BOOST, repl, FL_D, RT, rq(start) + PERIOD, &out);
	throttle_after(&c, repl, &out);
	ok(out.server_wait && out.server_wait_ns == 950 * MS,
	   "the next starvation counts from the restart (%llu)",
	   (unsigned long long)out.server_wait_ns);
	fs_cpu_free(&c);

	/* Stop, then a start straight to B (no defer event first). */
	if (!fresh(&c))
		return;
	repl = boost_to_d(&c, &rdl);
	stop = repl + 7 * MS;
	feed(&c, FS_EV_STOP, stop, FL_STOP, RT - 7 * MS, rdl, &out);
	feed(&c, FS_EV_START, stop + 1 * MS, FL_B, RT, rq(stop) + PERIOD, &out);
	ok(out.preemption && out.preempt_ns == 7 * MS &&
	   out.served_ns == 7 * MS && c.srv.state == FS_ST_ZL_WAIT,
	   "a start to B closes the episode at the stop (%llu)",
	   (unsigned long long)out.preempt_ns);
	fs_cpu_free(&c);

	/* Stop, then the end of the run. */
	if (!fresh(&c))
		return;
	repl = boost_to_d(&c, &rdl);
	stop = repl + 33 * MS;
	feed(&c, FS_EV_STOP, stop, FL_STOP, RT - 33 * MS, rdl, &out);
	ok(c.srv.preempt.stat.count == 0 && c.srv.stop_held, "stop held");
	fs_cpu_finish(&c, END, &out);
	ok(out.preemption && out.preempt_ns == 33 * MS &&
	   out.served_ns == 33 * MS && !c.srv.stop_held,
	   "fs_cpu_finish closes the held stop at its timestamp (%llu)",
	   (unsigned long long)out.preempt_ns);
	ok(out.server_wait && out.server_wait_ns == BOOST_WAIT,
	   "and reports its starvation");
	ok(c.srv.preempt.stat.count == 1 && c.srv.served_total == 33 * MS &&
	   c.srv.boosts == 1 && c.srv.wait.stat.count == 1, "and accounts it");
	fs_cpu_finish(&c, END, &out);
	ok(outcome_empty(&out) && c.srv.preempt.stat.count == 1,
	   "a second finish does nothing");
	fs_cpu_free(&c);

	/* Two stop/resume in one episode. */
	if (!fresh(&c))
		return;
	repl = boost_to_d(&c, &rdl);
	feed(&c, FS_EV_STOP, repl + 5 * MS, FL_STOP, RT - 5 * MS, rdl, &out);
	feed(&c, FS_EV_START, repl + 5 * MS + 2 * US, FL_D, RT - 5 * MS, rdl,
	     &out);
	feed(&c, FS_EV_STOP, repl + 15 * MS, FL_STOP, RT - 15 * MS, rdl, &out);
	feed(&c, FS_EV_START, repl + 15 * MS + 2 * US, FL_D, RT - 15 * MS, rdl,
	     &out);
	thr = repl + 50 * MS + 100 * US;
	throttle_at(&c, thr, -(int64_t)(100 * US), rdl, &out);
	ok(out.preemption && out.preempt_ns == thr - repl - 4 * US &&
	   c.srv.preempt.stat.count == 1 && c.srv.served_total == 50 * MS + 100 * US &&
	   c.srv.boosts == 1, "two stop/resume pairs: still one episode");
	fs_cpu_free(&c);

	/*
	 * Idle time is charged to the runtime while the server is stopped:
	 * neither that time nor that runtime is served or preempts RT.
	 */
	if (!fresh(&c))
		return;
	repl = boost_to_d(&c, &rdl);
	stop = repl + 10 * MS;
	feed(&c, FS_EV_STOP, stop, FL_STOP, RT - 10 * MS, rdl, &out);
	start = stop + 30 * MS;
	feed(&c, FS_EV_START, start, FL_D, RT - 40 * MS, rdl, &out);
	ok(outcome_empty(&out) && c.srv.state == FS_ST_RUNNING,
	   "30 ms idle while stopped, then back to D");
	thr = start + 10 * MS + 200 * US;
	throttle_at(&c, thr, -(int64_t)(200 * US), rdl, &out);
	ok(out.preemption && out.preempt_ns == 20 * MS + 200 * US &&
	   out.served_ns == 20 * MS + 200 * US,
	   "the episode is 20.2 ms long and served 20.2 ms (%llu, %llu)",
	   (unsigned long long)out.preempt_ns,
	   (unsigned long long)out.served_ns);
	fs_cpu_free(&c);

	/* A non-boosted episode: served, but no preemption sample. */
	if (!fresh(&c))
		return;
	feed(&c, FS_EV_START, T0, FL_D, RT, rq(T0) + PERIOD, &out);
	ok(c.srv.state == FS_ST_RUNNING && c.srv.boosts == 0,
	   "first event starting straight in D is no boost");
	feed(&c, FS_EV_STOP, T0 + 3 * MS, FL_STOP, RT - 3 * MS,
	     rq(T0) + PERIOD, &out);
	fs_cpu_finish(&c, END, &out);
	ok(!out.preemption && !out.server_wait && out.served_ns == 3 * MS &&
	   c.srv.preempt.stat.count == 0 && c.srv.served_total == 3 * MS &&
	   c.srv.boosts == 0 && c.srv.idle_boosts == 0,
	   "an unboosted episode counts served time only");
	fs_cpu_free(&c);
}

/*
 * 5c. A run that starts in the middle of a wait: the first boost counts,
 * with its preemption; where the wait began is not known.
 */
static void test_mid_wait(void)
{
	struct fs_outcome out;
	struct fs_cpu c;
	uint64_t dl = rq(T0) + PERIOD, repl = T0 + 5 * US;

	if (!fresh(&c))
		return;
	feed(&c, FS_EV_BOOST, repl, FL_D, RT, dl, &out);
	ok(!out.invalid && c.srv.state == FS_ST_RUNNING,
	   "a boost as the first event puts the CPU in D");
	throttle_after(&c, repl, &out);
	ok(out.preemption && out.preempt_ns == 50 * MS + 500 * US &&
	   c.srv.boosts == 1 && c.srv.preempt.stat.count == 1 && c.invalid == 0,
	   "its episode counts a boost and a preemption");
	fs_cpu_free(&c);
}

/*
 * 5d. The window opens during the first boost (the server's events were
 * on before the others): that episode and the events before the window
 * move the state but are not counted; the four periods after are.
 */
static void test_window(void)
{
	struct stream s;
	struct fs_cpu c;
	uint64_t from, before = 0;
	int i;

	steady(&s, 5);
	if (!fresh(&c))
		return;
	from = s.ev[s.boost_idx[0]].ts + 1;
	for (i = 0; i < s.n; i++)
		if (s.ev[i].ts < from && s.ev[i].type == FS_EV_BOOST)
			before++;
	fs_cpu_window(&c, from);
	feed_range(&c, &s, 0, s.n, NULL);
	ok(before == 1 && c.invalid == 0 && c.srv.state == FS_ST_ZL_WAIT,
	   "the events before the window set the state");
	ok(c.srv.boosts == 4 && c.srv.count[FS_EV_BOOST] == 4 &&
	   c.srv.count[FS_EV_THROTTLE] == 5,
	   "the boost under way at the window's start is not counted (%llu boosts, %llu boost and %llu throttle events)",
	   (unsigned long long)c.srv.boosts,
	   (unsigned long long)c.srv.count[FS_EV_BOOST],
	   (unsigned long long)c.srv.count[FS_EV_THROTTLE]);
	ok(c.srv.preempt.stat.count == 4 && c.srv.wait.stat.count == 4 &&
	   c.srv.served_total == 4 * (50 * MS + 500 * US) &&
	   c.srv.served_boost.count == 4,
	   "nor its preemption, server wait and service");
	fs_cpu_free(&c);
}

/* 5b. Boosts that serve nothing: an idle CPU's server. */
static void test_idle_boost(void)
{
	struct fs_outcome out;
	struct fs_cpu c;
	uint64_t repl, rdl, start, dl = rq(T0) + PERIOD;

	/* Boosted, nothing to run, stopped at once; then a new start. */
	if (!fresh(&c))
		return;
	repl = boost_to_d(&c, &rdl);
	feed(&c, FS_EV_STOP, repl + 4 * US, FL_STOP, RT, rdl, &out);
	ok(outcome_empty(&out) && c.srv.stop_held, "the stop is held");
	start = repl + 200 * MS;
	feed(&c, FS_EV_DEFER, start, FL_B, RT, rq(start) + PERIOD, &out);
	ok(!out.preemption && !out.server_wait && out.served_ns == 0 &&
	   !out.invalid, "a boost that served nothing reports nothing");
	ok(c.srv.boosts == 0 && c.srv.idle_boosts == 1,
	   "it is an idle boost (%llu/%llu)",
	   (unsigned long long)c.srv.boosts, (unsigned long long)c.srv.idle_boosts);
	ok(c.srv.wait.stat.count == 0 && c.srv.preempt.stat.count == 0 &&
	   c.srv.served_total == 0, "and no sample");
	fs_cpu_free(&c);

	/* The same closed by the end of the run. */
	if (!fresh(&c))
		return;
	repl = boost_to_d(&c, &rdl);
	feed(&c, FS_EV_STOP, repl + 4 * US, FL_STOP, RT, rdl, &out);
	fs_cpu_finish(&c, END, &out);
	ok(!out.preemption && !out.server_wait && c.srv.idle_boosts == 1 &&
	   c.srv.boosts == 0, "an idle boost closed by fs_cpu_finish");
	fs_cpu_free(&c);

	/* 1 us served is a boost. */
	if (!fresh(&c))
		return;
	repl = boost_to_d(&c, &rdl);
	feed(&c, FS_EV_STOP, repl + 4 * US, FL_STOP, RT - 1 * US, rdl, &out);
	fs_cpu_finish(&c, END, &out);
	ok(out.preemption && out.server_wait && c.srv.boosts == 1 &&
	   c.srv.idle_boosts == 0, "a boost that served 1 us is a boost");
	fs_cpu_free(&c);

	/*
	 * Boosted while the CPU idled, and left enqueued: a fair task wakes
	 * 586 ms later, its enqueue charges the idle time (the idle event,
	 * in D, runtime 0), and it runs 362 us on the server, throttled.
	 * Found in 08-quiet: counted as a boost with 586 ms of RT preempted
	 * and 50 ms served, on a CPU with no RT task at all.
	 */
	if (!fresh(&c))
		return;
	repl = boost_to_d(&c, &rdl);
	feed(&c, FS_EV_IDLE, repl + 586 * MS, FL_D, 0, rdl, &out);
	ok(outcome_empty(&out) && c.srv.state == FS_ST_RUNNING,
	   "an idle event in D stays in D");
	throttle_at(&c, repl + 586 * MS + 500 * US, -362 * (int64_t)US, rdl,
		    &out);
	ok(!out.preemption && !out.server_wait && out.served_ns == 362 * US,
	   "the CPU idled while boosted: no preemption, 362 us served (%llu)",
	   (unsigned long long)out.served_ns);
	ok(c.srv.boosts == 0 && c.srv.idle_boosts == 1 &&
	   c.srv.preempt.stat.count == 0 && c.srv.served_total == 362 * US,
	   "an idle boost, whose idle charge is not service");
	fs_cpu_free(&c);

	/* Idle time used the runtime up while waiting: nothing starved. */
	if (!fresh(&c))
		return;
	feed(&c, FS_EV_DEFER, T0, FL_B, RT, dl, &out);
	feed(&c, FS_EV_START, T0 + 2 * US, FL_B, RT, dl, &out);
	feed(&c, FS_EV_IDLE, T0 + 300 * MS, FL_B, 0, dl, &out);
	ok(outcome_empty(&out) && c.srv.state == FS_ST_ZL_WAIT,
	   "an idle event in B stays in B");
	repl = zero_laxity(dl, 0);
	feed(&c, FS_EV_BOOST, repl, FL_D, RT, rq(repl) + PERIOD, &out);
	throttle_after(&c, repl, &out);
	ok(!out.server_wait && !out.preemption &&
	   out.served_ns == 50 * MS + 500 * US,
	   "serving after an idle wait: served, but no starvation");
	ok(c.srv.boosts == 0 && c.srv.wait.stat.count == 0 &&
	   c.srv.preempt.stat.count == 0 && c.srv.served_total == 50 * MS + 500 * US,
	   "no boost, no sample");
	fs_cpu_free(&c);
}

/* 6. Transitions the state machine does not have are counted. */
/*
 * 4b. The new periods a 6.12 kernel starts from now fire a replenish of
 * their own (replenish_dl_new_period()). At 20 ms / 100 ms under a FIFO
 * hog, each cycle is: boost, throttle, the served task runs a little
 * more (a replenish E->B with a new deadline, then the postponement),
 * the defer, the next boost. A start from A is a replenish A->B, the
 * defer, the start. None is invalid, every stint and wait is counted.
 */
static void test_new_period(void)
{
	const uint64_t rt = 20 * MS, per = 100 * MS;
	struct fs_outcome out;
	struct fs_cpu c;
	uint64_t t = T0, dl = rq(T0) + per;
	unsigned int i, invalid = 0, stints = 0, waits = 0;
	struct fs_event ev;

	if (!fresh(&c))
		return;
#define EV(type, flags, runtime, deadline) do {				\
		ev = mkev(type, t, flags, runtime, deadline);		\
		ev.dl_runtime = rt;					\
		ev.dl_period = per;					\
		fs_cpu_event(&c, &ev, &out);				\
		invalid += out.invalid;					\
		stints += out.preemption;				\
		waits += out.server_wait;				\
	} while (0)
	EV(FS_EV_REPLENISH, FL_B, rt, dl);
	EV(FS_EV_DEFER, FL_B, rt, dl);
	t += 2 * US;
	EV(FS_EV_START, FL_B, rt, dl);
	for (i = 0; i < 5; i++) {
		t = zero_laxity(dl, rt);
		dl = rq(t) + per;	/* the boost's CBS test: a new period */
		EV(FS_EV_BOOST, FL_D, rt, dl);
		t += rt + 300 * US;
		EV(FS_EV_THROTTLE, FL_THR, -300 * (int64_t)US, dl);
		t += 50 * US;
		dl = rq(t) + per;
		EV(FS_EV_REPLENISH, FL_B, rt, dl);
		EV(FS_EV_POSTPONE, FL_B, rt, dl);
		EV(FS_EV_DEFER, FL_B, rt, dl);
	}
#undef EV
	ok(!invalid, "new periods are valid transitions (%u invalid)", invalid);
	ok(stints == 5 && waits == 5 && c.srv.boosts == 5,
	   "five stints, waits and boosts (%u, %u, %llu)", stints, waits,
	   (unsigned long long)c.srv.boosts);
	ok(c.srv.preempt.stat.max == rt + 300 * US,
	   "each stint is the runtime and its overrun (%llu ns)",
	   (unsigned long long)c.srv.preempt.stat.max);
	ok(c.srv.wait.stat.max == per - rt,
	   "each wait runs from the postponement to the boost (%llu ns)",
	   (unsigned long long)c.srv.wait.stat.max);
	ok(c.srv.count[FS_EV_REPLENISH] == 6,
	   "every new period is a replenishment (%llu)",
	   (unsigned long long)c.srv.count[FS_EV_REPLENISH]);
	fs_cpu_free(&c);
}

/*
 * 4c. RT preemption is what real-time tasks waited behind the service
 * (the events' rt_wait), not its length: a duty-cycle task sleeps
 * through part of it. A stop ends a hold-off (a waiting real-time task
 * runs then): split by a stop and a start, one episode gives two
 * samples, 3 and 2 ms. Without rt_wait, the episode's length stands,
 * an upper bound.
 */
static void test_rt_wait(void)
{
	struct fs_outcome out;
	struct fs_event ev;
	struct fs_cpu c;
	uint64_t dl = rq(T0) + PERIOD, boost = zero_laxity(dl, RT) + 20 * US;
	int known;

	for (known = 1; known >= 0; known--) {
		if (!fresh(&c))
			return;
		c.srv.rt_wait_known = known;
		feed(&c, FS_EV_DEFER, T0, FL_B, RT, dl, &out);
		feed(&c, FS_EV_START, T0 + 2 * US, FL_B, RT, dl, &out);
		ev = mkev(FS_EV_BOOST, boost, FL_D, RT, dl);
		ev.rt_wait = 100 * MS;
		fs_cpu_event(&c, &ev, &out);
		ev = mkev(FS_EV_STOP, boost + 10 * MS, FL_STOP, RT - 10 * MS, dl);
		ev.rt_wait = 103 * MS;
		fs_cpu_event(&c, &ev, &out);
		if (known)
			ok(out.preemption && out.preempt_ns == 3 * MS,
			   "with rt_wait, the stop ends a hold-off of 3 ms (%llu)",
			   (unsigned long long)out.preempt_ns);
		else
			ok(!out.preemption,
			   "without it, the stop holds the episode open");
		ev = mkev(FS_EV_START, boost + 10 * MS + 5 * US, FL_D,
			  RT - 10 * MS, dl);
		ev.rt_wait = 103 * MS;
		fs_cpu_event(&c, &ev, &out);
		ev = mkev(FS_EV_THROTTLE, boost + 20 * MS, FL_THR, -1, dl);
		ev.rt_wait = 105 * MS;
		fs_cpu_event(&c, &ev, &out);
		ev = mkev(FS_EV_POSTPONE, boost + 20 * MS + 100 * US, FL_B, RT,
			  dl + PERIOD);
		ev.rt_wait = 105 * MS;
		fs_cpu_event(&c, &ev, &out);
		if (known)
			ok(out.preemption && out.preempt_ns == 2 * MS &&
			   c.srv.preempt.stat.count == 2 &&
			   c.srv.preempt.stat.sum == 5 * MS,
			   "with rt_wait, then the last hold-off: 2 ms, 5 in two (%llu)",
			   (unsigned long long)out.preempt_ns);
		else
			ok(out.preemption &&
			   out.preempt_ns == 20 * MS - 5 * US,
			   "without it, the episode's time in D (%llu)",
			   (unsigned long long)out.preempt_ns);
		fs_cpu_free(&c);
	}
}

/*
 * Feed a server event at @ts with the events' rt_wait @rt_wait, in D
 * with @runtime left (@flags say which state).
 */
static void feed_rt(struct fs_cpu *c, enum fs_ev type, uint64_t ts,
		    unsigned int flags, int64_t runtime, uint64_t dl,
		    uint64_t rt_wait, struct fs_outcome *out)
{
	struct fs_event ev = mkev(type, ts, flags, runtime, dl);

	ev.rt_wait = rt_wait;
	fs_cpu_event(c, &ev, out);
}

/* A fair task (pid 200) begins to wait at @ts behind an RT task, @why. */
static void fair_waits(struct fs_cpu *c, uint64_t ts, unsigned int why,
		       struct fs_outcome *out)
{
	struct fs_event ev = { .type = FS_EV_WAIT, .cpu = 1, .ts = ts };

	ev.task.pid = 200;
	ev.task.prio = 120;
	ev.holder.pid = 300;
	ev.holder.prio = 49;
	ev.why = why;
	ev.first = !c->st.open;
	fs_cpu_event(c, &ev, out);
}

/*
 * 5e. The tail of a throttle: the fair task runs on after it until the
 * switch that gives the CPU to the real-time task, which waits through
 * it. Boosted with rt_wait 100 ms, RT waits 10 ms of a 20 ms serving;
 * the throttle (rt_wait 110 ms) is followed 100 us later by the switch
 * (the fair task made to wait, @why), and the postpone 200 us after the
 * throttle carries rt_wait 110.1 ms (@rt_tail: 100 us) or 110 ms (0).
 */
static void tail_case(struct fs_cpu *c, bool known, unsigned int why,
		      uint64_t rt_tail, bool finish, struct fs_outcome *out)
{
	uint64_t dl = rq(T0) + PERIOD, boost = zero_laxity(dl, RT) + 20 * US;
	uint64_t thr = boost + 20 * MS;

	c->srv.rt_wait_known = known;
	feed(c, FS_EV_DEFER, T0, FL_B, RT, dl, out);
	feed(c, FS_EV_START, T0 + 2 * US, FL_B, RT, dl, out);
	feed_rt(c, FS_EV_BOOST, boost, FL_D, 20 * MS, dl, 100 * MS, out);
	feed_rt(c, FS_EV_THROTTLE, thr, FL_THR, 0, dl, 110 * MS, out);
	fair_waits(c, thr + 100 * US, why, out);
	/* A second fair task made to wait later moves nothing. */
	fair_waits(c, thr + 150 * US, FS_WAIT_PREEMPTED, out);
	if (finish)
		fs_cpu_finish(c, thr + 1 * MS, out);
	else
		feed_rt(c, FS_EV_POSTPONE, thr + 200 * US, FL_B, RT,
			dl + PERIOD, 110 * MS + rt_tail, out);
}

static void test_tail(void)
{
	struct fs_outcome out;
	struct fs_cpu c;

	if (!fresh(&c))
		return;
	tail_case(&c, true, FS_WAIT_PREEMPTED, 100 * US, false, &out);
	ok(out.preemption && out.preempt_ns == 10 * MS + 100 * US &&
	   out.served_ns == 20 * MS + 100 * US,
	   "rt_wait known: RT waited 10.1 ms (%llu), 20.1 ms served (%llu)",
	   (unsigned long long)out.preempt_ns,
	   (unsigned long long)out.served_ns);
	ok(c.srv.served_total == 20 * MS + 100 * US &&
	   c.srv.preempt.stat.sum == 10 * MS + 100 * US && !c.srv.tail_held,
	   "and the totals count the tail");
	fs_cpu_free(&c);

	if (!fresh(&c))
		return;
	tail_case(&c, false, FS_WAIT_PREEMPTED, 0, false, &out);
	ok(out.preemption && out.preempt_ns == 20 * MS + 100 * US &&
	   out.served_ns == 20 * MS + 100 * US,
	   "rt_wait not known: the time in D up to the switch, 20.1 ms (%llu)",
	   (unsigned long long)out.preempt_ns);
	fs_cpu_free(&c);

	if (!fresh(&c))
		return;
	tail_case(&c, true, FS_WAIT_QUEUED, 0, false, &out);
	ok(out.preemption && out.preempt_ns == 10 * MS &&
	   out.served_ns == 20 * MS,
	   "no real-time task waited through the tail: not counted (%llu)",
	   (unsigned long long)out.served_ns);
	fs_cpu_free(&c);

	if (!fresh(&c))
		return;
	tail_case(&c, false, FS_WAIT_WAKEUP, 0, false, &out);
	ok(out.preemption && out.preempt_ns == 20 * MS + 150 * US &&
	   out.served_ns == 20 * MS + 150 * US,
	   "a wake-up is no switch: the tail ends at the next preemption (%llu)",
	   (unsigned long long)out.preempt_ns);
	fs_cpu_free(&c);

	if (!fresh(&c))
		return;
	tail_case(&c, false, FS_WAIT_PREEMPTED, 0, true, &out);
	ok(out.preemption && out.preempt_ns == 20 * MS + 100 * US &&
	   !c.srv.tail_held,
	   "the end of the run closes a held throttle, tail included (%llu)",
	   (unsigned long long)out.preempt_ns);
	fs_cpu_free(&c);
}

/*
 * 5f. 6.12's late exhaustion: the runtime of a boosted server runs out 1
 * ms past its deadline, the timer cannot start and the throttle is
 * replenished in the same call, still in D; 50 ms on, a throttle in time,
 * the switch 100 us later (the fair task made to wait) and a postpone. RT
 * waits from the boost (rt_wait 100 ms) to the switch. The replenishment
 * comes @gap after the first throttle, with @rt of real-time wait in
 * between; @why, if not 0, a fair task made to wait (FS_WAIT_PREEMPTED: a
 * switch) or woken behind the RT task (FS_WAIT_WAKEUP: the one served had
 * slept) 10 us after the throttle.
 */
static void late_case(struct fs_cpu *c, bool known, unsigned int why,
		      uint64_t gap, uint64_t rt, struct fs_outcome *out)
{
	uint64_t dl = rq(T0) + PERIOD, boost = zero_laxity(dl, RT) + 20 * US;
	uint64_t thr = boost + 51 * MS, thr2 = thr + gap + 50 * MS;
	uint64_t rt_repl = 151 * MS + rt, rt_thr2 = rt_repl + 49980 * US;

	c->srv.rt_wait_known = known;
	feed(c, FS_EV_DEFER, T0, FL_B, RT, dl, out);
	feed(c, FS_EV_START, T0 + 2 * US, FL_B, RT, dl, out);
	feed_rt(c, FS_EV_BOOST, boost, FL_D, RT, dl, 100 * MS, out);
	feed_rt(c, FS_EV_THROTTLE, thr, FL_THR, -1 * (int64_t)MS, dl,
		151 * MS, out);
	if (why)
		fair_waits(c, thr + 10 * US, why, out);
	feed_rt(c, FS_EV_REPLENISH, thr + gap, FL_D, RT - 1 * MS,
		dl + PERIOD, rt_repl, out);
	feed_rt(c, FS_EV_THROTTLE, thr2, FL_THR, -980 * (int64_t)US,
		dl + PERIOD, rt_thr2, out);
	fair_waits(c, thr2 + 100 * US, FS_WAIT_PREEMPTED, out);
	feed_rt(c, FS_EV_POSTPONE, thr2 + 200 * US, FL_B, RT, dl + 2 * PERIOD,
		rt_thr2 + 100 * US, out);
}

/* One case of 5f: late_case()'s arguments, and the hold-offs it gives. */
struct late {
	bool known;
	unsigned int why;
	uint64_t gap, rt;
	uint64_t hold_offs, max, sum;	/* max, sum 0: not checked */
	const char *what;
};

static void test_late(void)
{
	static const struct late cases[] = {
		{ true, 0, 20 * US, 20 * US, 1, 101100 * US, 0,
		  "late exhaustion: one hold-off of 101.1 ms, one boost" },
		{ true, FS_WAIT_PREEMPTED, 20 * US, 20 * US, 2, 0, 101100 * US,
		  "a switch between: the RT task ran, two hold-offs" },
		{ false, 0, 20 * US, 0, 1, 0, 0,
		  "without switches, 20 us apart: the same call, one episode" },
		/*
		 * Seed 1 (patched, CPU 2 at 0.5 / 13 ms): the task served
		 * slept at the throttle, woke behind the RT task, and the
		 * timer replenished 14 ms later, 1.36 ms of real-time wait
		 * between: two hold-offs.
		 */
		{ true, FS_WAIT_WAKEUP, 14 * MS, 1360 * US, 2, 0, 0,
		  "the timer's replenishment 14 ms on, the RT task ran: two" },
		{ true, 0, 5 * MS, 5 * MS, 1, 106080 * US, 0,
		  "5 ms apart (a stand-still), RT waiting all along: one" },
		{ false, 0, 5 * MS, 0, 2, 0, 0,
		  "5 ms apart without rt_wait: it cannot be told, two" },
	};
	struct fs_outcome out;
	struct fs_cpu c;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct late *x = &cases[i];

		if (!fresh(&c))
			return;
		late_case(&c, x->known, x->why, x->gap, x->rt, &out);
		ok(c.srv.preempt.stat.count == x->hold_offs &&
		   c.srv.boosts == x->hold_offs && !c.invalid &&
		   (!x->max || c.srv.preempt.stat.max == x->max) &&
		   (!x->sum || c.srv.preempt.stat.sum == x->sum),
		   "%s (%llu, max %llu, sum %llu)", x->what,
		   (unsigned long long)c.srv.preempt.stat.count,
		   (unsigned long long)c.srv.preempt.stat.max,
		   (unsigned long long)c.srv.preempt.stat.sum);
		if (i == 0)
			ok(out.served_ns == 101100 * US &&
			   c.srv.served_total == 101100 * US,
			   "and 51 + 0.02 + 49.98 + 0.1 ms served in it (%llu)",
			   (unsigned long long)out.served_ns);
		fs_cpu_free(&c);
	}
}

static void test_invalid(void)
{
	struct fs_outcome out;
	struct fs_cpu c;
	uint64_t dl = rq(T0) + PERIOD, rdl;

	if (!fresh(&c))
		return;
	feed(&c, FS_EV_THROTTLE, T0, FL_THR, -1, dl, &out);
	ok(!out.invalid && c.invalid == 0 && c.srv.state == FS_ST_REPL_WAIT,
	   "the first event is valid whatever it is");
	fs_cpu_free(&c);

	if (!fresh(&c))
		return;
	feed(&c, FS_EV_DEFER, T0, FL_B, RT, dl, &out);
	ok(!out.invalid, "defer from unknown to B is valid");
	feed(&c, FS_EV_START, T0 + 2 * US, FL_B, RT, dl, &out);
	ok(!out.invalid && c.invalid == 0, "start B->B is valid");
	feed(&c, FS_EV_THROTTLE, T0 + 10 * MS, FL_THR, -1, dl, &out);
	ok(out.invalid && c.invalid == 1, "a throttle in B is invalid");
	ok(c.srv.state == FS_ST_REPL_WAIT, "the state follows the flags anyway");
	ok(c.srv.count[FS_EV_THROTTLE] == 1, "and the event is counted");
	feed(&c, FS_EV_STOP, T0 + 11 * MS, 0, 0, dl, &out);
	ok(!out.invalid && c.invalid == 1, "stop E->A is valid");
	feed(&c, FS_EV_STOP, T0 + 12 * MS, 0, 0, dl, &out);
	ok(out.invalid && c.invalid == 2, "a second stop (A->A) is invalid");
	fs_cpu_free(&c);

	if (!fresh(&c))
		return;
	feed(&c, FS_EV_DEFER, T0, FL_B, RT, dl, &out);
	feed(&c, FS_EV_START, T0 + 2 * US, FL_B, RT, dl, &out);
	feed(&c, FS_EV_BOOST, T0 + 950 * MS, FL_BOOST, RT, dl, &out);
	ok(out.invalid && c.invalid == 1,
	   "a boost whose flags say B (before the enqueue) is invalid");
	ok(c.srv.state == FS_ST_ZL_WAIT, "and leaves the server in B");
	fs_cpu_free(&c);

	if (!fresh(&c))
		return;
	boost_to_d(&c, &rdl);
	ok(c.invalid == 0, "the boost path is valid");
	feed(&c, FS_EV_POSTPONE, T0 + 990 * MS, FL_B, RT, rdl + PERIOD, &out);
	ok(out.invalid && c.invalid == 1, "a postpone D->B is invalid");
	feed(&c, FS_EV_BOOST, T0 + 1990 * MS, FL_D, RT, rdl + PERIOD, &out);
	ok(!out.invalid && c.invalid == 1, "valid events after it are not");
	fs_cpu_free(&c);

	/*
	 * Seen in a trace whose events were enabled one by one while tracing
	 * was on (20 ms / 100 ms): a throttle, then a boost whose postpone
	 * and defer were not recorded (E->D is no boost), then the next
	 * throttle. The serving that the unseen boost began has no known
	 * start: no RT preemption, no served runtime, no wait may come of
	 * it (a stale start gave 147 ms on a 20 ms runtime).
	 */
	if (!fresh(&c))
		return;
	boost_to_d(&c, &rdl);
	feed(&c, FS_EV_THROTTLE, T0 + 1000 * MS, FL_THR, -1, rdl, &out);
	ok(outcome_empty(&out) && c.srv.tail_held,
	   "a first stint, held open by its throttle");
	feed(&c, FS_EV_BOOST, T0 + 1200 * MS, FL_D, RT, rdl + PERIOD, &out);
	ok(out.invalid && c.invalid == 1, "a boost from E is invalid");
	ok(out.preemption && !c.srv.tail_held,
	   "the first stint, whole at its throttle, is counted there");
	feed(&c, FS_EV_THROTTLE, T0 + 1223 * MS, FL_THR, -3 * MS,
	     rdl + PERIOD, &out);
	ok(!out.invalid && !out.preemption && !out.served_ns &&
	   !out.server_wait,
	   "the stint the unseen boost began is not counted");
	ok(c.srv.preempt.stat.count == 1 && c.srv.boosts == 1,
	   "only the first stint and boost are (%llu, %llu)",
	   (unsigned long long)c.srv.preempt.stat.count,
	   (unsigned long long)c.srv.boosts);
	fs_cpu_free(&c);
}

/* A CPU hotplug mark at @ts. */
static void hotplug(struct fs_cpu *c, uint64_t ts, bool down,
		    struct fs_outcome *out)
{
	struct fs_event ev = { .type = FS_EV_HOTPLUG, .cpu = 1, .ts = ts,
			       .down = down };

	fs_cpu_event(c, &ev, out);
}

/*
 * 6b. A CPU going offline. Without hotplug events, its server's stop is
 * inferred from the next event. With them, offline time is its own
 * state: neither RT preemption nor a wait.
 */
static void test_offline(void)
{
	struct fs_outcome out;
	struct fs_cpu c;
	uint64_t dl = rq(T0) + PERIOD, rdl, repl, down, up;

	if (!fresh(&c))
		return;
	/*
	 * Without hotplug marks, a server that went down in D is next seen
	 * deferring: an edge the machine does not have. The episode is not
	 * counted (it would span the offline time).
	 */
	repl = boost_to_d(&c, &rdl);
	feed(&c, FS_EV_DEFER, repl + 5000 * MS, FL_B, RT, rdl + 5 * PERIOD,
	     &out);
	ok(out.invalid && c.invalid == 1 && !out.preemption &&
	   c.srv.preempt.stat.count == 0 && c.srv.state == FS_ST_ZL_WAIT,
	   "D to B by a defer: invalid, and no 5 s preemption");
	feed(&c, FS_EV_START, repl + 5000 * MS + 2 * US, FL_B, RT,
	     rdl + 5 * PERIOD, &out);
	ok(!out.invalid && c.invalid == 1, "the start after it is valid");
	fs_cpu_free(&c);

	/* Serving 20 ms, then offline for 5 s: 20 ms of RT preemption. */
	if (!fresh(&c))
		return;
	repl = boost_to_d(&c, &rdl);
	down = repl + 20 * MS;
	hotplug(&c, down, true, &out);
	ok(out.preemption && out.preempt_ns == 20 * MS &&
	   out.served_ns == 20 * MS && out.server_wait &&
	   out.server_wait_ns == BOOST_WAIT,
	   "going offline in D ends the episode there: %llu ns preempted",
	   (unsigned long long)out.preempt_ns);
	ok(c.srv.state == FS_ST_OFFLINE && c.srv.boosts == 1,
	   "the server is offline, with its boost counted");
	hotplug(&c, down + 1 * MS, true, &out);
	ok(!out.preemption && !out.invalid && c.srv.state == FS_ST_OFFLINE,
	   "the next steps of the same offlining change nothing");
	feed(&c, FS_EV_THROTTLE, down + 2 * MS, FL_THR, -1, rdl, &out);
	ok(!out.preemption && !out.invalid && c.srv.state == FS_ST_OFFLINE &&
	   c.srv.count[FS_EV_THROTTLE] == 1,
	   "an event while offline is counted, and completes nothing");
	up = down + 5000 * MS;
	hotplug(&c, up, false, &out);
	ok(c.srv.state == FS_ST_INIT && c.offline_ns == 5000 * MS,
	   "back online: the server is stopped (A), 5 s were offline");
	feed(&c, FS_EV_DEFER, up + 10 * MS, FL_B, RT, dl + 6 * PERIOD, &out);
	ok(!out.preemption && !out.invalid && c.srv.preempt.stat.count == 1 &&
	   c.srv.preempt.stat.sum == 20 * MS && c.srv.served_total == 20 * MS,
	   "the offline time is not RT preemption: still 20 ms in all");
	hotplug(&c, up + 100 * MS, false, &out);
	ok(c.offline_ns == 5000 * MS, "coming up twice counts nothing more");
	fs_cpu_free(&c);

	/* Offline at the end of the run: counted up to the end. */
	if (!fresh(&c))
		return;
	hotplug(&c, T0, true, &out);
	fs_cpu_finish(&c, T0 + 3000 * MS, &out);
	ok(c.offline_ns == 3000 * MS && c.srv.state == FS_ST_OFFLINE,
	   "offline until the end: 3 s (%llu)",
	   (unsigned long long)c.offline_ns);
	fs_cpu_free(&c);
}

/* 7. Parameter changes. */
static void test_params(void)
{
	struct fs_outcome out;
	struct fs_event ev;
	struct fs_cpu c;
	uint64_t dl = rq(T0) + PERIOD, repl, rdl, stop, start;

	if (!fresh(&c))
		return;
	feed(&c, FS_EV_DEFER, T0, FL_B, RT, dl, &out);
	feed(&c, FS_EV_START, T0 + 2 * US, FL_B, RT, dl, &out);
	ev = mkev(FS_EV_PARAMS, T0 + 100 * MS, 0, 0, 0);
	ev.dl_runtime = 100 * MS;
	ev.dl_period = 500 * MS;
	fs_cpu_event(&c, &ev, &out);
	ok(c.srv.dl_runtime == 100 * MS && c.srv.dl_period == 500 * MS,
	   "params set dl_runtime and dl_period");
	ok(c.srv.state == FS_ST_ZL_WAIT,
	   "params leave the state alone (flags 0 would be A)");
	ok(outcome_empty(&out) && c.invalid == 0 && c.srv.count[FS_EV_PARAMS] == 1,
	   "params: counted, valid, complete nothing");
	fs_cpu_free(&c);

	if (!fresh(&c))
		return;
	ev = mkev(FS_EV_PARAMS, T0, 0, 0, 0);
	fs_cpu_event(&c, &ev, &out);
	ok(c.srv.state == FS_ST_UNKNOWN && c.invalid == 0,
	   "params first: the state stays unknown");
	fs_cpu_free(&c);

	/*
	 * A write to the debugfs files in D: stop, params, then a start that
	 * defers again. The params event does not decide the held stop.
	 */
	if (!fresh(&c))
		return;
	repl = stop_and_write(&c, &rdl, &stop, 40 * MS, &out);
	ok(outcome_empty(&out) && c.srv.stop_held && c.srv.state == FS_ST_INIT,
	   "params after a stop in D keep the stop held");
	start = stop + 20 * US;
	feed(&c, FS_EV_DEFER, start, FL_B, 40 * MS, rq(start) + PERIOD, &out);
	ok(out.preemption && out.preempt_ns == 15 * MS &&
	   out.served_ns == 15 * MS,
	   "the defer after them closes the episode at the stop (%llu)",
	   (unsigned long long)out.preempt_ns);
	ok(c.srv.dl_runtime == RT, "the next event's parameters are taken");
	fs_cpu_free(&c);

	/* The same write answered by a start back to D: one episode. */
	if (!fresh(&c))
		return;
	repl = stop_and_write(&c, &rdl, &stop, 0, &out);
	feed(&c, FS_EV_START, stop + 20 * US, FL_D, RT - 15 * MS, rdl, &out);
	ok(outcome_empty(&out) && c.srv.state == FS_ST_RUNNING,
	   "stop, params, start to D: the episode goes on");
	throttle_at(&c, repl + 51 * MS, -(int64_t)MS, rdl, &out);
	ok(out.preemption && out.preempt_ns == 51 * MS - 20 * US &&
	   c.srv.preempt.stat.count == 1, "and ends at the throttle");
	fs_cpu_free(&c);

	/* Disabled: runtime 0 is its own state, from the start or a write. */
	if (!fresh(&c))
		return;
	ev = mkev(FS_EV_FOUND, T0, 0, 0, 0);
	ev.dl_runtime = 0;
	fs_cpu_event(&c, &ev, &out);
	ok(c.srv.state == FS_ST_OFF && c.srv.count[FS_EV_PARAMS] == 0 &&
	   !strcmp(fs_state_letter(c.srv.state), "off"),
	   "found at start with runtime 0: off, from the first screen");
	ev = mkev(FS_EV_PARAMS, T0 + 1 * MS, 0, 0, 0);
	ev.ret = -16;
	ev.dl_runtime = 0;
	fs_cpu_event(&c, &ev, &out);
	ok(c.srv.state == FS_ST_OFF && c.srv.refused == 1 &&
	   c.srv.count[FS_EV_PARAMS] == 1,
	   "a refused write is counted, and the server stays off");
	ev = mkev(FS_EV_PARAMS, T0 + 2 * MS, 0, 0, 0);
	fs_cpu_event(&c, &ev, &out);
	ok(c.srv.state == FS_ST_INIT && c.srv.dl_runtime == RT,
	   "a write of a runtime turns it on, stopped (A)");
	feed(&c, FS_EV_DEFER, T0 + 3 * MS, FL_B, RT, dl, &out);
	ok(!out.invalid && c.srv.state == FS_ST_ZL_WAIT,
	   "and it defers at the next start");
	ev = mkev(FS_EV_PARAMS, T0 + 4 * MS, 0, 0, 0);
	ev.dl_runtime = 0;
	fs_cpu_event(&c, &ev, &out);
	ok(c.srv.state == FS_ST_OFF, "a write of 0 turns it off again");
	fs_cpu_free(&c);

	/* Found at start with a runtime: nothing known about its state. */
	if (!fresh(&c))
		return;
	ev = mkev(FS_EV_FOUND, T0, 0, 0, 0);
	fs_cpu_event(&c, &ev, &out);
	ok(c.srv.state == FS_ST_UNKNOWN && c.srv.dl_runtime == RT &&
	   c.srv.dl_period == PERIOD,
	   "found with a runtime: its parameters, state unknown");
	fs_cpu_free(&c);
}

/* 8. Merging CPUs into the ALL row. */
static void test_merge(void)
{
	struct fs_outcome out;
	struct fs_cpu a, b, all, bad;
	struct stream s;
	uint64_t dl = rq(T0) + PERIOD, start = T0 + 400 * MS, boost, repl;
	uint64_t idle;
	unsigned int i;
	int ev, bad_n = 0;

	if (cpu_init(&a) || cpu_init(&b) ||
	    fs_cpu_init(&all, -1, BUCKET, ENTRIES)) {
		ok(0, "fs_cpu_init");
		return;
	}
	steady(&s, 5);
	feed_range(&a, &s, 0, s.n, NULL);

	/*
	 * b: a shorter starvation (a late wakeup keeps the deadline of an
	 * earlier activation), a stop, an invalid event, an idle boost.
	 */
	feed(&b, FS_EV_DEFER, start - 2 * US, FL_B, RT, dl, &out);
	feed(&b, FS_EV_START, start, FL_B, RT, dl, &out);
	feed(&b, FS_EV_DEFER, T0 + 600 * MS, FL_B, RT - 30 * MS, dl, &out);
	boost = zero_laxity(dl, RT - 30 * MS) + 20 * US;
	feed(&b, FS_EV_BOOST, boost, FL_D, RT - 30 * MS, dl, &out);
	repl = boost;
	feed(&b, FS_EV_STOP, repl + 2 * MS, FL_STOP, RT - 32 * MS, dl, &out);
	feed(&b, FS_EV_STOP, repl + 3 * MS, 0, RT - 32 * MS, dl, &out);
	/* Then an idle boost. */
	idle = repl + 100 * MS;
	feed(&b, FS_EV_DEFER, idle, FL_B, RT, rq(idle) + PERIOD, &out);
	feed(&b, FS_EV_START, idle + 2 * US, FL_B, RT, rq(idle) + PERIOD,
	     &out);
	boost = zero_laxity(rq(idle) + PERIOD, RT) + 20 * US;
	feed(&b, FS_EV_BOOST, boost, FL_D, RT, rq(idle) + PERIOD, &out);
	feed(&b, FS_EV_STOP, boost + 9 * US, FL_STOP, RT, rq(boost) + PERIOD,
	     &out);
	fs_cpu_finish(&b, END, &out);
	ok(b.srv.idle_boosts == 1, "second CPU: one idle boost");
	ok(b.invalid == 1 && b.srv.boosts == 1 && b.srv.preempt.stat.count == 1 &&
	   b.srv.wait.stat.count == 1 && b.srv.served_total == 2 * MS,
	   "second CPU: one boost, one 2 ms episode, one invalid");
	ok(b.srv.wait.stat.sum == repl - start - 30 * MS &&
	   b.srv.wait.stat.sum == 550 * MS + 20 * US,
	   "second CPU: a server wait of 550.02 ms");

	ok(fs_cpu_merge(&all, &a) == 0 && fs_cpu_merge(&all, &b) == 0,
	   "merge two CPUs");
	for (ev = 0; ev < FS_EV_SERVER_NR; ev++)
		if (all.srv.count[ev] != a.srv.count[ev] + b.srv.count[ev])
			bad_n++;
	ok(bad_n == 0, "event counters are summed");
	ok(all.srv.boosts == 6 && all.srv.idle_boosts == 1 && all.invalid == 1,
	   "boosts, idle boosts and invalid summed");
	ok(all.srv.served_total == a.srv.served_total + b.srv.served_total,
	   "served_total summed");
	ok(all.srv.wait.stat.count == 6 && all.srv.preempt.stat.count == 6,
	   "sample counts summed");
	ok(all.srv.wait.stat.sum == a.srv.wait.stat.sum +
				      b.srv.wait.stat.sum &&
	   all.srv.wait.stat.min == b.srv.wait.stat.min &&
	   all.srv.wait.stat.max == a.srv.wait.stat.max,
	   "starvation sum/min/max merged");
	ok(all.srv.preempt.stat.sum == a.srv.preempt.stat.sum + b.srv.preempt.stat.sum &&
	   all.srv.preempt.stat.min == 2 * MS &&
	   all.srv.preempt.stat.max == 50 * MS + 500 * US,
	   "preempt sum/min/max merged");
	bad_n = 0;
	for (i = 0; i < ENTRIES; i++) {
		if (all.srv.wait.buckets[i] !=
		    a.srv.wait.buckets[i] + b.srv.wait.buckets[i])
			bad_n++;
		if (all.srv.preempt.buckets[i] !=
		    a.srv.preempt.buckets[i] + b.srv.preempt.buckets[i])
			bad_n++;
	}
	ok(bad_n == 0 && all.srv.wait.buckets[95] == 5 &&
	   all.srv.wait.buckets[55] == 1 && all.srv.preempt.buckets[0] == 1,
	   "buckets summed");
	ok(a.srv.boosts == 5 && a.srv.wait.stat.count == 5 && b.srv.boosts == 1,
	   "sources are left alone");
	ok(all.cpu == -1, "the ALL row keeps its cpu");

	/* Different geometry. */
	if (fs_cpu_init(&bad, 2, 1 * MS, ENTRIES)) {
		ok(0, "fs_cpu_init");
		return;
	}
	errno = 0;
	ok(fs_cpu_merge(&all, &bad) == -1 && errno == EINVAL,
	   "merging another bucket size fails");
	fs_cpu_free(&bad);
	if (fs_cpu_init(&bad, 2, BUCKET, ENTRIES / 2)) {
		ok(0, "fs_cpu_init");
		return;
	}
	errno = 0;
	ok(fs_cpu_merge(&all, &bad) == -1 && errno == EINVAL,
	   "merging another entry count fails");
	fs_cpu_free(&bad);

	errno = 0;
	ok(fs_cpu_init(&bad, 2, BUCKET, 0) == -1 && errno == EINVAL,
	   "fs_cpu_init with 0 entries fails");
	fs_cpu_free(&bad);
	errno = 0;
	ok(fs_cpu_init(&bad, 2, 0, ENTRIES) == -1 && errno == EINVAL,
	   "fs_cpu_init with bucket 0 fails");
	fs_cpu_free(&bad);

	fs_cpu_free(&a);
	fs_cpu_free(&b);
	fs_cpu_free(&all);
}

/* 9. A mixed stream: stop/resume, idle boost, a stop at the end. */
static void test_mixed(void)
{
	struct fs_outcome fin;
	struct fs_cpu c;
	struct stream s;
	uint64_t sum = 0, psum = 0, served = 0;
	int i;

	steady(&s, 2);
	period_stop_resume(&s);
	period(&s);
	period_idle_boost(&s);
	period_stop_end(&s);
	ok(s.n <= MAX_EV && s.nstarv == 5 && s.npreempt == 5,
	   "mixed stream of %d events, 5 episodes", s.n);
	if (!fresh(&c))
		return;
	feed_range(&c, &s, 0, s.n, NULL);
	fs_cpu_finish(&c, END, &fin);
	ok(c.srv.boosts == 5 && c.srv.idle_boosts == 1 && c.invalid == 0 &&
	   c.srv.wait.stat.count == 5 && c.srv.preempt.stat.count == 5,
	   "5 boosts, 1 idle, 5 server waits and preemptions");
	ok(fin.preemption && fin.preempt_ns == s.preempt[4] &&
	   fin.server_wait && fin.server_wait_ns == s.starv[4],
	   "the final held stop is closed by finish");
	for (i = 0; i < s.nstarv; i++) {
		sum += s.starv[i];
		psum += s.preempt[i];
		served += s.served[i];
	}
	ok(c.srv.wait.stat.sum == sum && c.srv.preempt.stat.sum == psum &&
	   c.srv.served_total == served, "sums match the timestamps");
	ok(c.srv.preempt.stat.max == 50 * MS + 696 * US &&
	   c.srv.preempt.stat.min == 20 * MS,
	   "the stop/resume episode is 50.696 ms, the stopped one 20 ms");
	fs_cpu_free(&c);
}

/* A lost-events mark at @ts. */
static void lost(struct fs_cpu *c, uint64_t ts, struct fs_outcome *out)
{
	struct fs_event ev = { .type = FS_EV_LOST, .cpu = 1, .ts = ts,
			       .lost = 12 };

	fs_cpu_event(c, &ev, out);
}

/*
 * 10. Lost events: what was open is dropped, never a sample across the
 * gap, and the state is learned again from the next events.
 */
static void test_lost(void)
{
	struct fs_outcome out;
	struct fs_cpu c;
	uint64_t repl, rdl, dl, t;

	if (!fresh(&c))
		return;
	repl = boost_to_d(&c, &rdl);
	lost(&c, repl + 10 * MS, &out);
	ok(!out.preemption && !out.server_wait && !out.invalid &&
	   c.srv.state == FS_ST_UNKNOWN && c.lost_marks == 1,
	   "a loss in D: nothing completed, the state unknown");
	t = repl + 3000 * MS;
	feed(&c, FS_EV_THROTTLE, t, FL_THR, -1, rdl, &out);
	ok(!out.preemption && !out.invalid && c.srv.preempt.stat.count == 0 &&
	   c.srv.state == FS_ST_REPL_WAIT,
	   "the throttle after it is learned, not a 3 s preemption");
	fs_cpu_free(&c);

	/* A loss while waiting: the next boost has no known wait. */
	if (!fresh(&c))
		return;
	dl = rq(T0) + PERIOD;
	feed(&c, FS_EV_DEFER, T0, FL_B, RT, dl, &out);
	feed(&c, FS_EV_START, T0 + 2 * US, FL_B, RT, dl, &out);
	lost(&c, T0 + 500 * MS, &out);
	feed(&c, FS_EV_DEFER, T0 + 600 * MS, FL_B, RT, dl, &out);
	repl = zero_laxity(dl, RT) + 20 * US;
	feed(&c, FS_EV_BOOST, repl, FL_D, RT, dl, &out);
	throttle_after(&c, repl, &out);
	ok(out.preemption && !out.server_wait && c.srv.wait.stat.count == 0,
	   "after a loss, the boost counts, its wait (begun before) does not");
	fs_cpu_free(&c);
}

/* 12. -T: a boosted serving episode longer than the threshold. */
static void test_threshold(void)
{
	struct fs_outcome out;
	struct fs_cpu c;
	uint64_t repl, rdl, ns = 0;

	if (!fresh(&c))
		return;
	repl = boost_to_d(&c, &rdl);
	throttle_after(&c, repl, &out);
	ok(out.preemption && out.preempt_ns == 50 * MS + 500 * US,
	   "a boosted episode of 50.5 ms");
	ok(fs_over_outcome(&out, 50 * MS, &ns) == FS_OVER_PREEMPTION &&
	   ns == 50 * MS + 500 * US, "over a 50 ms threshold, its length given");
	ns = 7;
	ok(fs_over_outcome(&out, 50 * MS + 500 * US, &ns) == FS_OVER_NONE &&
	   ns == 7, "not over a threshold of its own length: strictly longer");
	fs_cpu_free(&c);
}

/* 11. Time running backwards: rejected, never an unsigned wrap. */
static void test_order(void)
{
	struct fs_outcome out;
	struct fs_cpu c;
	uint64_t repl, rdl;

	if (!fresh(&c))
		return;
	repl = boost_to_d(&c, &rdl);
	feed(&c, FS_EV_THROTTLE, repl - 1 * MS, FL_THR, -1, rdl, &out);
	ok(out.invalid && c.invalid == 1 && !out.preemption &&
	   c.srv.state == FS_ST_RUNNING && c.srv.count[FS_EV_THROTTLE] == 0,
	   "an event older than the last one is rejected, not applied");
	throttle_after(&c, repl, &out);
	ok(out.preemption && out.preempt_ns == 50 * MS + 500 * US &&
	   c.srv.preempt.stat.max == 50 * MS + 500 * US,
	   "and the episode ends at the next valid event: 50.5 ms, no wrap");
	fs_cpu_free(&c);
}

int main(void)
{
	test_state_of();
	test_transitions();
	test_steady();
	test_background();
	test_stop();
	test_idle_boost();
	test_mid_wait();
	test_window();
	test_invalid();
	test_new_period();
	test_rt_wait();
	test_tail();
	test_late();
	test_offline();
	test_params();
	test_merge();
	test_mixed();
	test_lost();
	test_order();
	test_threshold();
	return tap_done();
}
