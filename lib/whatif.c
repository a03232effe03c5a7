// SPDX-License-Identifier: GPL-2.0
/*
 * The what-if replay of a CPU's load with other fair server parameters.
 * See whatif.h for the model; the comments name the kernel function each
 * rule stands for.
 */
#include <stdio.h>
#include <string.h>

#include "whatif.h"

#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL
/* dl_server_min_res: a deferred timer moves only for more than this. */
#define MIN_RES_NS	NSEC_PER_MSEC
/*
 * No runtime below this is advised, nor below FS_WHATIF_MIN_TICKS ticks
 * (whatif.h): the tick decides when a runtime runs out, and the overrun
 * would dominate.
 */
#define MIN_ADVISED_NS	(100 * 1000ULL)
/*
 * A runtime seen to run out at a tick throttles the server there; the
 * switch that follows, and the charge that starts the next deferred
 * period, come this much later (traces under TCG show 0.1-0.2 ms; native,
 * tens of us). Over the next period the runtime then runs out just past
 * a tick, and the overrun is nearly a whole tick.
 */
#define RESCHED_NS	(50 * 1000ULL)
/*
 * Fair demand possibly missed, per mille of the window, that censors: 5
 * ms a second, below which the error is within what the predictions are
 * checked to.
 */
#define CENSOR_PER_MILLE	5

/* The replay of one CPU with one setting. */
struct sim {
	const struct fs_load *in;
	struct fs_whatif *out;
	uint64_t q, p;		/* runtime, period = relative deadline */
	uint64_t now;
	size_t hi_i, job_i;	/* the next span and job */
	bool hi;		/* a higher class wants the CPU */
	uint64_t backlog;	/* fair work queued, ns */
	unsigned long open;	/* queued jobs that never end */
	/* The server. */
	bool active, throttled, armed, defer_running;
	int64_t runtime;
	uint64_t deadline;
	uint64_t timer;		/* when its timer fires, 0: not armed */
	bool wait_idle;		/* idle time used the runtime up in this wait */
	bool defer_idle;	/* 7.x: to stop when its timer fires */
	/* The serving episode, as the live tool (server.c) cuts it. */
	bool ep;		/* one is open: in D, or held by a stop */
	bool ep_held;		/* stopped: a start straight to D resumes it */
	bool ep_boosted;	/* it began with a boost or a replenishment */
	bool ep_idle;		/* idle time used its runtime: an idle boost */
	uint64_t ep_served, ep_rt;
	bool preempted;		/* a higher-class task waits for the segment */
	/* Figures. */
	bool idle, starving;
	uint64_t idle_since, starve_since;
};

/* Fair work is queued. */
static bool queued(const struct sim *s)
{
	return s->open || s->backlog;
}

/* The server is enqueued as a deadline entity: D. */
static bool enqueued(const struct sim *s)
{
	return s->active && !s->throttled;
}

/* What runs: fair tasks, served or in the background. */
static bool fair_runs(const struct sim *s)
{
	return queued(s) && (enqueued(s) || !s->hi);
}

/* dl_entity_overflow(): the rest of the period exceeds the bandwidth. */
static bool overflow(const struct sim *s, uint64_t t)
{
	__int128 left = (__int128)s->p * s->runtime;
	__int128 right = (__int128)((int64_t)(s->deadline - t)) * s->q;

	return right < left;
}

/* replenish_dl_new_period(). */
static void new_period(struct sim *s)
{
	s->deadline = s->now + s->p;
	s->runtime = s->q;
	if (!s->defer_running) {
		s->throttled = true;
		s->armed = true;
	}
}

/*
 * start_dl_timer(): armed, at the zero-laxity time, else at the deadline;
 * false if that time has passed.
 */
static bool start_timer(struct sim *s)
{
	uint64_t at = s->armed ? s->deadline - s->runtime : s->deadline;

	if ((int64_t)(at - s->now) <= 0)
		return false;
	s->timer = at;
	return true;
}

/* enqueue_dl_entity()'s end: wait for the timer if throttled, else D. */
static void enqueue(struct sim *s)
{
	if (s->throttled && start_timer(s))
		return;
	s->timer = 0;
	s->throttled = false;
	s->armed = false;
}

/*
 * A serving episode begins in D: @boosted when the server's timer put it
 * there (a boost, or a replenishment while it serves one).
 */
static void ep_begin(struct sim *s, bool boosted)
{
	s->ep = true;
	s->ep_held = false;
	s->ep_boosted = boosted;
	s->ep_idle = boosted && s->wait_idle;
	s->ep_served = 0;
	s->ep_rt = 0;
}

/*
 * The episode ends, as server.c's serve_end() counts it with rt_wait: a
 * sample of RT preemption if a higher-class task waited in its last
 * hold-off, however it began; a boost if it began with one, served fair
 * tasks and was no idle boost.
 */
static void ep_end(struct sim *s)
{
	if (!s->ep)
		return;
	s->ep = false;
	s->ep_held = false;
	if (s->ep_rt)
		fs_stat_add(&s->out->preempt, s->ep_rt);
	if (s->ep_boosted && s->ep_served && !s->ep_idle)
		s->out->boosts++;
}

/* The server leaves D: the end of a segment, and of the episode. */
static void leave_d(struct sim *s)
{
	s->preempted = false;
	ep_end(s);
}

/* The server's timer put it in D (E->D, B->D): a boosted episode. */
static void timer_served(struct sim *s)
{
	if (enqueued(s))
		ep_begin(s, true);
}

/* replenish_dl_entity(), then the enqueue. */
static void replenish(struct sim *s)
{
	if (s->armed && overflow(s, s->now)) {
		s->deadline = s->now + s->p;
		s->runtime = s->q;
	}
	while (s->runtime <= 0) {
		s->deadline += s->p;
		s->runtime += s->q;
	}
	if ((int64_t)(s->deadline - s->now) < 0)
		new_period(s);
	s->throttled = false;
	if (s->armed) {
		s->armed = false;
		enqueue(s);
		return;
	}
	if (!s->defer_running &&
	    (int64_t)(s->deadline - s->runtime - s->now) > 0) {
		s->armed = true;
		s->throttled = true;
		if (!start_timer(s)) {
			s->armed = false;
			s->throttled = false;
		}
	}
	enqueue(s);
}

/* Whether the replay follows 7.x's server. */
static bool rules_7(const struct sim *s)
{
	return s->in->rules == FS_RULES_7;
}

/* dl_server_start(): fair work was queued on an empty fair class. */
static void start(struct sim *s)
{
	s->defer_idle = false;
	if (!s->q || s->active)
		return;
	s->active = true;
	s->wait_idle = false;
	/* update_dl_entity() */
	if ((int64_t)(s->deadline - s->now) < 0 || overflow(s, s->now)) {
		if (s->defer_running &&
		    (int64_t)(s->deadline - s->now) >= 0) {
			/* update_dl_revised_wakeup(): the bandwidth left. */
			s->runtime = (int64_t)((__int128)s->q *
					       (s->deadline - s->now) / s->p);
		} else {
			s->defer_running = false;
			new_period(s);
		}
	} else if (!s->defer_running) {
		s->armed = true;
		s->throttled = true;
	}
	enqueue(s);
	/*
	 * Straight to D after a stop: the same episode goes on, as the live
	 * tool holds it. Deferred: a held episode ends.
	 */
	if (enqueued(s) && s->ep_held)
		s->ep_held = false;
	else if (enqueued(s))
		ep_begin(s, false);
	else
		ep_end(s);
}

/*
 * dl_server_stop(): picked with no fair task to run. A higher-class task
 * that waited runs now: its hold-off, as server.c's hold_end() cuts it,
 * is a sample of its own.
 */
static void stop(struct sim *s)
{
	s->preempted = false;
	if (s->ep) {
		s->ep_held = true;
		if (s->ep_rt)
			fs_stat_add(&s->out->preempt, s->ep_rt);
		s->ep_rt = 0;
	}
	s->active = false;
	s->throttled = false;
	s->armed = false;
	s->defer_idle = false;
	s->timer = 0;
}

/* update_curr_dl_se(): the runtime ran out while fair tasks ran. */
static void exhausted(struct sim *s)
{
	if (s->throttled) {
		/* In the background: not needed this period; defer anew. */
		s->defer_running = false;
		s->wait_idle = false;
		new_period(s);
		if (!start_timer(s))
			enqueue(s);
		return;
	}
	/* Serving: E until the deadline, unless a fair task runs on. */
	s->throttled = true;
	s->wait_idle = false;
	/*
	 * The deadline has passed (the runtime ran out late: a tick after a
	 * revised runtime, for one): start_dl_timer() fails and the throttle
	 * replenishes at once; a server serving its boost goes on in D, and
	 * with no switch between, the live tool goes on with its episode.
	 */
	if (!start_timer(s)) {
		if (rules_7(s)) {
			/* 7.x: a new period, waited for as a replenishment. */
			leave_d(s);
			new_period(s);
			start_timer(s);
			return;
		}
		replenish(s);
		if (!enqueued(s))
			leave_d(s);
		return;
	}
	leave_d(s);
	/*
	 * A fair task still queued was current: the switch this throttle
	 * asks for charges it a little more, in the background now, which
	 * starts a deferred period at once (the trace shows a throttle, then
	 * a postponement).
	 */
	if (queued(s)) {
		s->defer_running = false;
		new_period(s);
		if (s->in->tick_ns)
			s->deadline += RESCHED_NS;
		if (!start_timer(s))
			enqueue(s);
	}
}

/*
 * 7.x's dl_server_update_idle(): the idle time since it was last charged
 * goes to an active server's runtime as a fair task's time does
 * (update_curr_dl_se()); @idle while the CPU still idles (the kernel's
 * idle_rq()), not as it leaves idle, when a task is queued already.
 */
static void charge_idle_7(struct sim *s, bool idle)
{
	int64_t dt = (int64_t)(s->now - s->idle_since);

	s->idle_since = s->now;
	if (dt <= 0 || !s->active)
		return;
	s->runtime -= dt;
	if (!idle)
		s->defer_idle = false;
	if (s->runtime > 0)
		return;
	if (!s->throttled) {
		exhausted(s);
		return;
	}
	/* Marked idle already: no new period, the timer stops it. */
	if (s->defer_idle && idle) {
		s->runtime = 0;
		return;
	}
	exhausted(s);
	s->defer_idle = idle;
}

/*
 * The CPU's idle time, charged as it leaves idle and, by 7.x's rules,
 * as the server's timer fires while it idles (@idle).
 */
static void charge_idle(struct sim *s, bool idle)
{
	int64_t before = s->runtime;

	if (rules_7(s)) {
		charge_idle_7(s, idle);
		return;
	}
	/* 6.12's dl_server_update_idle_time(), active or not. */
	if (s->runtime < 0)
		return;
	s->runtime -= (int64_t)(s->now - s->idle_since);
	if (s->runtime >= 0)
		return;
	s->runtime = 0;
	s->defer_running = false;
	/* The kernel's idle event: the runtime of an active server used up. */
	if (!s->active || before <= 0)
		return;
	if (enqueued(s))
		s->ep_idle = s->ep_idle || s->ep_boosted;
	else
		s->wait_idle = true;
}

/* dl_server_timer(); @idle: the CPU idles. */
static void fire(struct sim *s, bool idle)
{
	s->timer = 0;
	if (!s->throttled)
		return;
	if (rules_7(s)) {
		/* The idle time first; if it used the runtime up, a stop. */
		if (idle)
			charge_idle_7(s, true);
		if (s->defer_idle) {
			stop(s);
			return;
		}
	}
	if (s->armed) {
		uint64_t zero_laxity = s->deadline - s->runtime;

		if ((int64_t)(zero_laxity - MIN_RES_NS - s->now) > 0) {
			s->timer = zero_laxity;
			return;
		}
		s->defer_running = true;
	}
	replenish(s);
	timer_served(s);
}

/* Queue the jobs that arrive now; the first one starts the server. */
static void arrive(struct sim *s)
{
	const struct fs_load *in = s->in;

	while (s->job_i < in->nr_jobs && in->jobs[s->job_i].ts <= s->now) {
		const struct fs_job *j = &in->jobs[s->job_i++];
		bool was = queued(s);

		if (j->work == FS_WORK_OPEN)
			s->open++;
		else
			s->backlog += j->work;
		if (!was && queued(s))
			start(s);
	}
}

/* Whether a higher class wants the CPU now; passes the spans gone by. */
static void want(struct sim *s)
{
	const struct fs_load *in = s->in;

	while (s->hi_i < in->nr_hi && in->hi[s->hi_i].end <= s->now)
		s->hi_i++;
	s->hi = s->hi_i < in->nr_hi && in->hi[s->hi_i].start <= s->now;
}

/* The first tick at or after @t (@t without a tick). */
static uint64_t tick_after(const struct sim *s, uint64_t t)
{
	uint64_t tick = s->in->tick_ns;

	return tick ? (t + tick - 1) / tick * tick : t;
}

/* The next instant anything changes, at most @end. */
static uint64_t next_change(const struct sim *s, uint64_t end)
{
	const struct fs_load *in = s->in;
	uint64_t next = end;

#define EARLIER(t) do { if ((t) < next) next = (t); } while (0)
	if (s->hi_i < in->nr_hi)
		EARLIER(s->hi ? in->hi[s->hi_i].end : in->hi[s->hi_i].start);
	if (s->job_i < in->nr_jobs)
		EARLIER(in->jobs[s->job_i].ts);
	if (s->timer)
		EARLIER(s->timer > s->now ? s->timer : s->now);
	if (fair_runs(s)) {
		if (!s->open)
			EARLIER(s->now + s->backlog);
		if (s->active)
			EARLIER(tick_after(s, s->now + (s->runtime > 0 ?
							s->runtime : 0)));
	}
#undef EARLIER
	return next;
}

/* Run the CPU until @next; whether the server's runtime was used. */
static bool advance(struct sim *s, uint64_t next)
{
	uint64_t dt = next - s->now;
	bool used = false;

	if (fair_runs(s)) {
		s->out->fair_ns += dt;
		if (!s->open)
			s->backlog -= dt;
		if (s->active) {
			s->runtime -= (int64_t)dt;
			s->defer_idle = false;
			used = true;
		}
		/*
		 * Served: a higher-class task that wants the CPU waits. One
		 * the service preempted (or that woke during it) stays
		 * runnable until it gets the CPU back: the segment's end.
		 */
		if (enqueued(s)) {
			s->ep_served += dt;
			if (s->hi || s->preempted) {
				s->ep_rt += dt;
				s->preempted = true;
			}
		}
	} else {
		/* The higher class runs, or nothing: none waits any more. */
		s->preempted = false;
	}
	s->now = next;
	return used;
}

/* After a change: the stop a pick makes, then the figures' edges. */
static void settle(struct sim *s)
{
	bool starving, idle;

	if (enqueued(s) && !queued(s) && s->hi)
		stop(s);

	starving = queued(s) && !fair_runs(s);
	if (starving && !s->starving)
		s->starve_since = s->now;
	else if (!starving && s->starving) {
		if (s->now - s->starve_since > s->out->starve.max)
			s->out->starve_end = s->now;
		fs_stat_add(&s->out->starve, s->now - s->starve_since);
	}
	s->starving = starving;

	idle = !queued(s) && !s->hi;
	if (idle && !s->idle)
		s->idle_since = s->now;
	s->idle = idle;
}

void fs_whatif_censor(const struct fs_load *load, struct fs_whatif *w)
{
	uint64_t base = load->base_known ? load->base_starved_ns :
			load->starved_ns;
	uint64_t starved = w->starve.sum + w->starve_open, gain, diff;
	uint64_t limit = w->window_ns / 1000 * CENSOR_PER_MILLE;

	w->waited_ns = load->censor_ns;
	gain = base > starved ? base - starved : 0;
	w->missing_ns = gain < load->censor_ns ? gain : load->censor_ns;
	w->censored = w->window_ns && w->missing_ns >= limit;

	/* The real-time side, against the recorded setting's replay. */
	w->rt_displaced_ns = load->rt_displaced_ns;
	diff = w->preempt.sum > load->base_preempt_ns ?
	       w->preempt.sum - load->base_preempt_ns :
	       load->base_preempt_ns - w->preempt.sum;
	w->rt_displaced = load->base_known && w->window_ns &&
			  load->rt_displaced_ns >= limit && diff >= limit;
	w->rt_over = w->rt_displaced && w->preempt.sum < load->base_preempt_ns;
}

void fs_whatif_replay(const struct fs_load *load, uint64_t runtime,
		      uint64_t period, struct fs_whatif *out)
{
	struct sim s;

	memset(out, 0, sizeof(*out));
	out->runtime = runtime;
	out->period = period;
	out->window_ns = load->t1 - load->t0;
	if (!period)
		return;
	out->tick_bound = runtime < FS_WHATIF_MIN_TICKS * load->tick_ns;
	memset(&s, 0, sizeof(s));
	s.in = load;
	s.out = out;
	s.q = runtime;
	s.p = period;
	s.now = load->t0;
	s.idle_since = load->t0;
	want(&s);
	arrive(&s);
	settle(&s);
	while (s.now < load->t1) {
		bool used = advance(&s, next_change(&s, load->t1)), woke;

		/* What happens at the end is not the window's. */
		if (s.now >= load->t1)
			break;
		if (used && s.runtime <= 0)
			exhausted(&s);
		want(&s);
		woke = s.hi || (s.job_i < load->nr_jobs &&
				load->jobs[s.job_i].ts <= s.now);
		if (s.idle && woke)
			charge_idle(&s, false);
		arrive(&s);
		if (s.timer && s.timer <= s.now)
			fire(&s, s.idle && !woke);
		settle(&s);
	}
	if (s.starving)
		out->starve_open = s.now - s.starve_since;
	/*
	 * A stop held at the end closes its episode, as fs_server_finish()
	 * does; one still in D is not counted, as the live tool does not.
	 */
	if (s.ep_held)
		ep_end(&s);
	fs_whatif_censor(load, out);
}

/* @ns over a window of @window ns, per second. */
static uint64_t per_s(uint64_t ns, uint64_t window)
{
	return window ? (uint64_t)((__int128)ns * NSEC_PER_SEC / window) : 0;
}

bool fs_whatif_agrees(const struct fs_whatif *w,
		      const struct fs_whatif_measured *m, uint64_t tick_ns,
		      struct fs_whatif_check *c)
{
	uint64_t worst = fs_whatif_worst(w), tol, rate, live, expect;

	memset(c, 0, sizeof(*c));
	c->starve = c->rt = c->boosts = true;
	if (m->starve) {
		tol = m->worst_ns / 5 + 2 * NSEC_PER_MSEC + 2 * tick_ns;
		c->starve = worst <= m->worst_ns + tol &&
			    worst + tol + m->lead_ns >= m->worst_ns;
	}
	if (m->rt) {
		rate = per_s(w->preempt.sum, w->window_ns);
		live = per_s(m->rt_ns, m->window_ns);
		tol = live / 5 + 2 * NSEC_PER_MSEC +
		      per_s(m->rt_max_ns, m->window_ns) +
		      per_s(w->preempt.max, w->window_ns);
		c->rt = rate <= live + tol &&
			(m->rt_bound || rate + tol >= live);
	}
	/* In thousandths of a boost. */
	expect = m->window_ns ? (uint64_t)((__int128)m->boosts * 1000 *
					   w->window_ns / m->window_ns) : 0;
	tol = expect / 5 + 2000;
	c->boosts = w->boosts * 1000 <= expect + tol &&
		    w->boosts * 1000 + tol >= expect;
	return c->starve && c->rt && c->boosts;
}

uint64_t fs_bw(uint64_t runtime, uint64_t period)
{
	if (!period)
		return 0;
	return (uint64_t)(((__int128)runtime << FS_BW_SHIFT) / period);
}

uint64_t fs_rd_room(const struct fs_rd_bw *rd, uint64_t old_bw)
{
	__int128 room;

	if (rd->total_bw < 0 || (uint64_t)rd->total_bw < rd->servers_bw)
		return 0;
	if (rd->bw < 0)
		return UINT64_MAX;
	room = (__int128)rd->bw * rd->cpus - rd->total_bw + old_bw;
	return room < 0 ? 0 : room > UINT64_MAX ? UINT64_MAX : (uint64_t)room;
}

/*
 * The first write's step of applying (@r, @p) from (@r0, @p0): whether it
 * is valid (runtime within the period), fits @room, and leaves a second
 * write that cannot raise the bandwidth (no refusal after a success).
 */
static void step(uint64_t r, uint64_t p, uint64_t new_bw, uint64_t room,
		 bool *valid, bool *fits, bool *safe)
{
	uint64_t bw = fs_bw(r, p);

	*valid = r <= p;
	*fits = *valid && bw <= room;
	*safe = *fits && bw >= new_bw;
}

void fs_whatif_apply(uint64_t r0, uint64_t p0, uint64_t r1, uint64_t p1,
		     uint64_t room, struct fs_apply *a)
{
	uint64_t new_bw = fs_bw(r1, p1), old_bw = fs_bw(r0, p0);
	bool va, fa, sa, vb, fb, sb;

	memset(a, 0, sizeof(*a));
	a->nr = (r1 != r0) + (p1 != p0);
	a->runtime_first = r1 != r0;
	a->safe = true;
	a->fits = new_bw <= room;
	if (a->nr < 2)
		return;
	/* A: the runtime first, through (r1, p0); B: the period, (r0, p1). */
	step(r1, p0, new_bw, room, &va, &fa, &sa);
	step(r0, p1, new_bw, room, &vb, &fb, &sb);
	if (sa || sb) {
		/* Both: the step that takes the less bandwidth. */
		a->runtime_first = sa && (!sb || fs_bw(r1, p0) <= fs_bw(r0, p1));
		return;
	}
	/*
	 * No order leaves the old setting on any refusal: a first write that
	 * fits, preferably one that does not raise the bandwidth; the
	 * second may be refused, and the first is then to be undone.
	 */
	a->safe = false;
	if (fa != fb)
		a->runtime_first = fa;
	else if (va != vb)
		a->runtime_first = va;
	else
		a->runtime_first = fs_bw(r1, p0) <= old_bw ||
				   fs_bw(r1, p0) <= fs_bw(r0, p1);
	a->fits = a->fits && (a->runtime_first ? fa : fb);
}

uint64_t fs_whatif_worst(const struct fs_whatif *w)
{
	uint64_t worst = w->starve.count ? w->starve.max : 0;

	return w->starve_open > worst ? w->starve_open : worst;
}

uint64_t fs_whatif_avg(const struct fs_whatif *w)
{
	uint64_t n = w->starve.count + (w->starve_open ? 1 : 0);

	return n ? (w->starve.sum + w->starve_open) / n : 0;
}

uint64_t fs_whatif_preempt_rate(const struct fs_whatif *w)
{
	if (!w->window_ns)
		return 0;
	return (uint64_t)((__int128)w->preempt.sum * NSEC_PER_SEC /
			  w->window_ns);
}

/*
 * Whether @a is better advice than @b: less RT preemption per second,
 * then a shorter worst preemption.
 */
static bool better(const struct fs_whatif *a, const struct fs_whatif *b)
{
	uint64_t ra = fs_whatif_preempt_rate(a), rb = fs_whatif_preempt_rate(b);

	if (ra != rb)
		return ra < rb;
	return a->preempt.max < b->preempt.max;
}

bool fs_whatif_advise(const struct fs_load *load, uint64_t target_ns,
		      unsigned int margin_pct, uint64_t max_bw,
		      struct fs_whatif *out)
{
	static const unsigned int period_ms[] = {
		1000, 500, 200, 100, 50, 20, 10,
	};
	/* Runtimes, in tenths of a percent of the period. */
	static const unsigned int permille[] = {
		10, 20, 30, 50, 75, 100, 150, 200, 250, 300, 400, 500,
	};
	uint64_t limit = target_ns / 100 * (100 - margin_pct);
	bool found = false;
	size_t i, j;

	for (i = 0; i < sizeof(period_ms) / sizeof(period_ms[0]); i++) {
		uint64_t period = period_ms[i] * NSEC_PER_MSEC;

		for (j = 0; j < sizeof(permille) / sizeof(permille[0]); j++) {
			uint64_t runtime = period / 1000 * permille[j];
			struct fs_whatif w;

			if (runtime < MIN_ADVISED_NS ||
			    runtime < FS_WHATIF_MIN_TICKS * load->tick_ns ||
			    fs_bw(runtime, period) > max_bw)
				continue;
			fs_whatif_replay(load, runtime, period, &w);
			if (fs_whatif_worst(&w) > limit)
				continue;
			/*
			 * Every runtime: more of it can preempt less (an
			 * earlier boost that falls in a higher class's gap).
			 */
			if (!found || better(&w, out)) {
				*out = w;
				found = true;
			}
		}
	}
	return found;
}

enum fs_rules fs_whatif_rules(const char *release, bool *checked)
{
	unsigned int major = 0, minor = 0;

	if (sscanf(release, "%u.%u", &major, &minor) != 2) {
		major = 0;
		minor = 0;
	}
	*checked = (major == 6 && minor == 12) || (major == 7 && minor == 3);
	return major >= 7 ? FS_RULES_7 : FS_RULES_6_12;
}

const char *fs_whatif_rules_name(enum fs_rules rules)
{
	return rules == FS_RULES_7 ? "7.3" : "6.12";
}
