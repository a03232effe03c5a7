// SPDX-License-Identifier: GPL-2.0
/*
 * The phases of top and hist, as rtla has them: parse_args, init,
 * apply_config, run, teardown. The run owns the per-CPU models: the trace
 * session hands it decoded events, which it puts back in time order and
 * feeds to the models; the renderers get a read-only report.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "derive.h"
#include "explain.h"
#include "fairsrv.h"
#include "load.h"
#include "order.h"

#define POLL_NS		(100ULL * 1000 * 1000)	/* read the buffers 10x/s */
#define REFRESH_NS	(1000ULL * 1000 * 1000)	/* top: redraw every second */
#define MAX_TASKS	4096			/* fair tasks whose waits are kept */
#define DEFAULT_WORST	10			/* episodes --json lists */

static volatile sig_atomic_t stop_signal;
/*
 * When the first stopping signal came, in the trace clock: the window ends
 * there, not at the read that follows. A 64-bit store is one store on the
 * 64-bit machines the tool is built for.
 */
static volatile uint64_t stop_ns;

/* The state of one run. */
struct run {
	const struct fs_params *p;
	struct fs_trace_caps caps;
	struct fs_cpu *cpus;		/* indexed by CPU number, nr_cpus */
	struct fs_order order;		/* events not yet fed, by timestamp */
	struct fs_derive derive;	/* a derived source's observations */
	bool derived;
	struct fs_tasks tasks;		/* the waits of each fair task */
	struct fs_loads loads;		/* --what-if: each CPU's load */
	bool loading;
	uint64_t jiffies_ns, jiffies;	/* read at start, for the tick */
	bool have_jiffies;
	struct fs_worst worst;		/* the longest episodes */
	uint64_t on_ns;			/* tracing went on, the first events */
	uint64_t start_ns;		/* the window opened, every event on:
					 * CLOCK_MONOTONIC, the trace clock */
	uint64_t start_unix_ns;		/* the same in wall-clock time */
	bool rt_unlimited;		/* sched_rt_runtime_us is -1 */
	uint64_t end_ns;		/* the window's end, once the signal or
					 * -d set it: later events not applied */
	unsigned long long after_end;	/* events read past end_ns */
	uint64_t events;
	long long lost;			/* from the records' drop marks */
	bool lost_unknown;
	/* -T: the first crossing since the actions last ran, its count. */
	struct fs_crossing cross;
	bool pending;			/* cross waits for its actions */
	unsigned long crossings;
	bool threshold_stop;		/* a crossing ended the run */
	bool action_failed;
	uint64_t *fired;		/* per CPU: start + 1 of the episode
					 * that crossed while open, 0: none */
	bool out_broken;		/* stdout is gone (EPIPE) */
};

/* Signal handler: only ask the loop to stop. */
static void on_signal(int sig)
{
	int saved = errno;
	struct timespec ts;

	if (!stop_ns && !clock_gettime(CLOCK_MONOTONIC, &ts))
		stop_ns = (uint64_t)ts.tv_sec * 1000000000ULL +
			  (uint64_t)ts.tv_nsec;
	stop_signal = sig;
	errno = saved;
}

/* Whether @cpu is one of the CPUs reported. */
static bool selected(const struct run *run, int cpu)
{
	return cpu >= 0 && cpu < run->p->nr_cpus &&
	       fs_cpuset_isset(&run->p->cpus, cpu);
}

/* Sink of the trace session: queue an event until its turn comes. */
static int queue(void *ctx, const struct fs_event *ev)
{
	struct run *run = ctx;

	if (ev->type == FS_EV_LOST) {
		if (ev->lost > 0)
			run->lost += ev->lost;
		else
			run->lost_unknown = true;
	}
	/*
	 * Derived figures need a task that moves away from a CPU. A loss
	 * counts wherever it lies: any buffer holds other CPUs' events.
	 */
	if (!selected(run, ev->cpu) &&
	    !(ev->type == FS_EV_MIGRATE && selected(run, ev->src_cpu)) &&
	    ev->type != FS_EV_LOST)
		return 0;
	if (fs_order_push(&run->order, ev)) {
		fs_err("out of memory");
		return -1;
	}
	return 0;
}

/* What went over -T, for messages. */
static const char *over_name(enum fs_over over)
{
	switch (over) {
	case FS_OVER_STARVATION:
		return "fair starvation";
	case FS_OVER_PREEMPTION:
		return "RT preemption";
	case FS_OVER_OPEN:
		return "fair starvation (still open)";
	default:
		return "nothing";
	}
}

/*
 * Note a -T crossing of kind @over on @cpu, @ns long; @ep is the episode
 * (a copy is kept, brought up to @now if open), NULL for a preemption.
 * An episode that crossed while open does not cross again when it ends.
 */
static void hit(struct run *run, int cpu, enum fs_over over, uint64_t ns,
		const struct fs_episode *ep, uint64_t now)
{
	struct fs_crossing *x = &run->cross;

	if (ep && run->fired[cpu] == ep->start + 1)
		return;
	if (over == FS_OVER_OPEN)
		run->fired[cpu] = ep->start + 1;
	run->crossings++;
	if (run->pending)
		return;		/* the first of a round is the one explained */
	run->pending = true;
	memset(x, 0, sizeof(*x));
	x->over = over;
	x->cpu = cpu;
	x->ns = ns;
	x->limit = run->p->threshold_ns;
	x->state = run->cpus[cpu].srv.state;
	x->dl_runtime = run->cpus[cpu].srv.dl_runtime;
	x->dl_period = run->cpus[cpu].srv.dl_period;
	if (ep) {
		x->ep = *ep;
		fs_episode_at(&x->ep, now);
	}
}

/* Check -T against what one event completed. */
static void threshold(struct run *run, int cpu, const struct fs_outcome *out)
{
	enum fs_over over;
	uint64_t ns;

	if (!run->p->threshold_ns || run->threshold_stop)
		return;
	over = fs_over_outcome(out, run->p->threshold_ns, &ns);
	if (over != FS_OVER_NONE)
		hit(run, cpu, over, ns,
		    over == FS_OVER_STARVATION ? out->episode : NULL,
		    out->episode ? out->episode->start + out->episode->ns : 0);
}

/*
 * Check -T against the starvation still open at @safe, the time up to
 * which every event was fed: a CPU that stays starved (its server
 * disabled, say) sends no event to end the episode.
 */
static void threshold_open(struct run *run, uint64_t safe)
{
	enum fs_over over;
	uint64_t ns;
	int cpu;

	if (!run->p->threshold_ns || run->threshold_stop)
		return;
	fs_for_each_cpu(cpu, &run->p->cpus) {
		over = fs_over_open(&run->cpus[cpu], safe, run->p->threshold_ns,
				    &ns);
		if (over != FS_OVER_NONE)
			hit(run, cpu, over, ns, &run->cpus[cpu].st.ep, safe);
	}
}

/*
 * A crossing: pause the saved trace, which should end with it, and run
 * the --on-threshold actions. Returns true to go on measuring, which
 * resumes the recording unless the run has @ended.
 */
static bool on_threshold(struct run *run, struct fs_trace *t, bool ended)
{
	const struct fs_params *p = run->p;
	int ret;

	run->pending = false;
	if (!p->nr_on_threshold) {
		run->threshold_stop = true;
		return false;
	}
	if (fs_trace_record(t, false)) {
		run->action_failed = true;
		run->threshold_stop = true;
		return false;
	}
	ret = fs_actions_run(p->on_threshold, p->nr_on_threshold, t);
	if (ret == 1 && ended)
		return true;
	if (ret == 1 && !fs_trace_record(t, true))
		return true;
	if (ret < 0)
		run->action_failed = true;
	run->threshold_stop = true;
	return false;
}

/* Keep what an event completed: a task's starvation, the longest episodes. */
static int account(struct run *run, int cpu, const struct fs_outcome *out)
{
	if (out->ran && fs_tasks_add(&run->tasks, out->ran, out->ran_ns, cpu,
				     out->ran_at))
		return -1;
	if (out->episode)
		fs_worst_add(&run->worst, out->episode);
	threshold(run, cpu, out);
	return 0;
}

/* Feed one event of the series, in timestamp order, to its CPU's model. */
static void feed_one(void *ctx, const struct fs_event *ev)
{
	struct run *run = ctx;
	struct fs_outcome out;
	enum fs_state from;
	uint64_t last;

	if (!selected(run, ev->cpu))
		return;
	from = run->cpus[ev->cpu].srv.state;
	last = run->cpus[ev->cpu].last_ts;
	fs_cpu_event(&run->cpus[ev->cpu], ev, &out);
	if (out.invalid && ev->ts < last)
		fs_debug("cpu %d: %s at %llu not applied (out of order: %llu ns before the last)",
			 ev->cpu, fs_ev_name(ev->type),
			 (unsigned long long)ev->ts,
			 (unsigned long long)(last - ev->ts));
	else if (out.invalid)
		fs_debug("cpu %d: %s at %llu not applied (invalid transition: %s to %s)",
			 ev->cpu, fs_ev_name(ev->type),
			 (unsigned long long)ev->ts, fs_state_letter(from),
			 fs_state_letter(fs_state_of(ev->flags)));
	if (account(run, ev->cpu, &out))
		stop_signal = -1;
}

/*
 * Events were lost from one CPU's buffer. A server's events and a fair
 * task's are written where the wakeup or the balance ran, so that buffer
 * held other CPUs' events too: every CPU's model is told, and forgets
 * what was open (the count of lost events goes with the buffer's own).
 */
static void lost_everywhere(struct run *run, const struct fs_event *ev)
{
	struct fs_event mark = *ev;
	int cpu;

	fs_for_each_cpu(cpu, &run->p->cpus) {
		mark.cpu = cpu;
		mark.lost = cpu == ev->cpu ? ev->lost : 0;
		feed_one(run, &mark);
	}
}

/* Feed one decoded event, in timestamp order: derived first if need be. */
static void feed(void *ctx, const struct fs_event *ev)
{
	struct run *run = ctx;
	struct fs_event at_end;

	/*
	 * The kernel went on while the tool read its last events. A loss
	 * is told with the next record that found room, which may come
	 * after the end, while what was lost came before it: it is told
	 * at the end.
	 */
	if (run->end_ns && ev->ts > run->end_ns) {
		if (ev->type != FS_EV_LOST) {
			run->after_end++;
			return;
		}
		at_end = *ev;
		at_end.ts = run->end_ns;
		ev = &at_end;
	}
	/* Events read: not the tool's marks (the tasks found at start too). */
	if (!fs_ev_is(ev->type, FS_KIND_MARK))
		run->events++;
	if (run->loading)
		fs_loads_event(&run->loads, ev);
	if (run->derived)
		fs_derive_event(&run->derive, ev, feed_one, run);
	else if (ev->type == FS_EV_LOST)
		lost_everywhere(run, ev);
	else if (!fs_ev_observed(ev->type))
		feed_one(run, ev);
}

/* A report of the run as it is at @now. @all is set up by the caller. */
static void report_of(const struct run *run, struct fs_report *r,
		      struct fs_cpu *all, uint64_t now, bool final)
{
	const struct fs_params *p = run->p;
	int cpu;

	memset(r, 0, sizeof(*r));
	r->p = p;
	r->caps = &run->caps;
	r->cpus = run->cpus;
	r->all = all;
	r->now = now;
	r->start_ns = run->start_ns;
	r->elapsed_ns = now - run->start_ns;
	r->events = run->events;
	r->lost = run->lost;
	r->lost_unknown = run->lost_unknown;
	r->late = run->order.late;
	r->final = final;
	r->threshold_hit = run->threshold_stop;
	r->crossings = run->crossings;
	r->start_unix_ns = run->start_unix_ns;
	r->rt_runtime_unlimited = run->rt_unlimited;
	fs_for_each_cpu(cpu, &p->cpus)
		if (fs_cpu_merge(all, &run->cpus[cpu]))
			fs_err("cannot sum CPU %d into ALL", cpu);
}

/* Write one screen or result to stdout at once. */
static int emit(struct run *run, const struct fs_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f) {
		fs_err("out of memory");
		return -1;
	}
	if (run->p->json)
		ret = fs_json_print(r, f);
	else if (run->p->mode == FS_MODE_TOP)
		ret = fs_top_print(r, f);
	else
		ret = fs_hist_print(r, f);
	if (fclose(f) || ret) {
		free(buf);
		fs_err("out of memory");
		return -1;
	}
	if (fwrite(buf, 1, len, stdout) != len || fflush(stdout)) {
		if (errno == EPIPE)
			run->out_broken = true;
		else
			fs_err("cannot write the output: %s", strerror(errno));
		free(buf);
		return -1;
	}
	free(buf);
	return 0;
}

/* Print the live table of top (@live), write the metrics file if asked. */
static int refresh(struct run *run, bool live)
{
	const struct fs_params *p = run->p;
	struct fs_report r;
	struct fs_cpu all;
	int ret = 0;

	if (fs_cpu_init(&all, -1, p->bucket_ns, p->entries)) {
		fs_err("out of memory");
		return -1;
	}
	report_of(run, &r, &all, fs_system_now(), false);
	if (p->metrics_file)
		ret = fs_metrics_write(&r);
	if (!ret && live)
		ret = emit(run, &r);
	fs_cpu_free(&all);
	return ret;
}

/*
 * The server's parameters, as debugfs has them at start, for each CPU, as
 * of tracing on: the first event it can precede.
 */
static void found(struct run *run)
{
	uint64_t now = run->on_ns, runtime, period;
	struct fs_outcome out;
	int cpu;

	fs_for_each_cpu(cpu, &run->p->cpus) {
		struct fs_event ev = {
			.type = FS_EV_FOUND, .cpu = cpu, .ts = now,
		};

		if (fs_system_server(cpu, &runtime, &period)) {
			fs_debug("cpu %d: no fair_server parameters in debugfs", cpu);
			continue;
		}
		ev.dl_runtime = runtime;
		ev.dl_period = period;
		fs_cpu_event(&run->cpus[cpu], &ev, &out);
	}
}

/* The tasks found runnable at start, kept to be sorted. */
struct found {
	struct fs_event *ev;
	size_t nr, cap;
};

/* fs_system_runnable() callback: keep one task. */
static int keep_found(void *ctx, int cpu, const struct fs_task *t)
{
	struct found *f = ctx;

	if (f->nr == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 256;
		struct fs_event *ev = realloc(f->ev, cap * sizeof(*ev));

		if (!ev)
			return -1;
		f->ev = ev;
		f->cap = cap;
	}
	memset(&f->ev[f->nr], 0, sizeof(f->ev[0]));
	f->ev[f->nr].type = FS_EV_FOUND_TASK;
	f->ev[f->nr].cpu = cpu;
	f->ev[f->nr].from = *t;
	f->nr++;
	return 0;
}

/* By CPU, the highest priority (lowest kernel prio) first. */
static int by_cpu_prio(const void *a, const void *b)
{
	const struct fs_event *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu - y->cpu;
	return x->from.prio - y->from.prio;
}

/*
 * The kprobe source: the tasks runnable now, read once tracing is on, as
 * what the run found at its start (derive.h). Every switch recorded since
 * comes after them and overrides them. Without them, an episode open
 * before the run would stay unseen until it ends.
 */
static void found_tasks(struct run *run)
{
	struct found f = { 0 };
	size_t i;

	if (fs_system_runnable(keep_found, &f)) {
		fs_debug("cannot read the runnable tasks from /proc: episodes open at start are not seen");
		free(f.ev);
		return;
	}
	qsort(f.ev, f.nr, sizeof(*f.ev), by_cpu_prio);
	for (i = 0; i < f.nr; i++) {
		f.ev[i].ts = run->on_ns;
		if (queue(run, &f.ev[i]))
			break;
	}
	free(f.ev);
}

/*
 * kernel.sched_rt_runtime_us = -1, as TuneD's realtime profile and others
 * set it, disabled RT throttling before 6.12; since, it disables nothing
 * and the fair server runs on. Said once: on stderr (the journal, for the
 * service) when metrics are written, with -D otherwise, and as a metric.
 */
static void rt_runtime_check(struct run *run)
{
	const char *msg = "warning: kernel.sched_rt_runtime_us is -1, which since Linux 6.12 does not disable the fair server: it still runs";
	long long us;

	if (fs_system_rt_runtime(&us) || us != -1)
		return;
	run->rt_unlimited = true;
	if (run->p->metrics_file)
		fs_err("%s", msg);
	else
		fs_debug("%s", msg);
}

/* init: check the environment, set up the models, open the session. */
static struct fs_trace *init(const struct fs_params *p, struct run *run)
{
	size_t worst = p->worst ? p->worst : p->json ? DEFAULT_WORST : 0;
	struct fs_trace *t;
	int cpu;

	if (geteuid() != 0) {
		fs_err("needs root to use tracefs; run it as root");
		return NULL;
	}
	memset(run, 0, sizeof(*run));
	run->p = p;
	fs_order_init(&run->order);
	fs_tasks_init(&run->tasks, MAX_TASKS);
	run->cpus = calloc(p->nr_cpus, sizeof(*run->cpus));
	run->fired = calloc(p->nr_cpus, sizeof(*run->fired));
	if (!run->cpus || !run->fired || fs_worst_init(&run->worst, worst)) {
		fs_err("out of memory");
		return NULL;
	}
	for (cpu = 0; cpu < p->nr_cpus; cpu++) {
		if (fs_cpu_init(&run->cpus[cpu], cpu, p->bucket_ns,
				p->entries)) {
			fs_err("out of memory");
			return NULL;
		}
	}
	rt_runtime_check(run);
	fs_trace_cleanup_stale();
	t = fs_trace_open(p, &run->caps);
	for (cpu = 0; t && cpu < p->nr_cpus; cpu++)
		run->cpus[cpu].srv.rt_wait_known = run->caps.rt_wait;
	if (t && run->caps.derived) {
		if (fs_derive_init(&run->derive, p->nr_cpus)) {
			fs_err("out of memory");
			fs_trace_close(t);
			return NULL;
		}
		run->derived = true;
		if (run->caps.sched_derived)
			fs_derive_rt_given(&run->derive);
	}
	return t;
}

/*
 * Run on the house-keeping CPUs: -H, or else the CPUs outside -c, as
 * rtla's automatic house-keeping does, so that the tool's own wake-ups do
 * not land on the CPUs it measures.
 */
static int house_keeping(const struct fs_params *p)
{
	cpu_set_t *set;
	size_t size = CPU_ALLOC_SIZE(p->nr_cpus);
	int cpu, n = 0, ret = 0;

	set = CPU_ALLOC(p->nr_cpus);
	if (!set) {
		fs_err("out of memory");
		return -1;
	}
	CPU_ZERO_S(size, set);
	for (cpu = 0; cpu < p->nr_cpus; cpu++) {
		if (p->hk ? fs_cpuset_isset(&p->hk_cpus, cpu) :
			    !fs_cpuset_isset(&p->cpus, cpu)) {
			CPU_SET_S(cpu, size, set);
			n++;
		}
	}
	if (!n) {
		fs_debug("house-keeping: -c covers every CPU; running anywhere");
	} else if (sched_setaffinity(0, size, set)) {
		if (p->hk) {
			fs_err("cannot run on the house-keeping CPUs: %s",
			       strerror(errno));
			ret = -1;
		} else {
			fs_debug("house-keeping: cannot leave the measured CPUs: %s",
				 strerror(errno));
		}
	} else {
		fs_debug("house-keeping: running on the %d CPUs %s", n,
			 p->hk ? "of -H" : "outside -c");
	}
	CPU_FREE(set);
	return ret;
}

/* apply_config: house-keeping affinity, the start state, the events. */
static int apply_config(struct run *run, struct fs_trace *t)
{
	int cpu;

	if (house_keeping(run->p))
		return -1;
	/*
	 * Tracing goes on with the server's events, the others follow: the
	 * window opens once every event is on. What the server did while the
	 * others were being enabled (the time -D gives) sets its state at
	 * the window's start, but is not counted: the figures are the
	 * window's.
	 */
	if (fs_trace_start(t, &run->on_ns, &run->start_ns))
		return -1;
	for (cpu = 0; cpu < run->p->nr_cpus; cpu++)
		fs_cpu_window(&run->cpus[cpu], run->start_ns);
	run->start_unix_ns = fs_system_realtime() -
			     (fs_system_now() - run->start_ns);
	fs_debug("tracing on at %llu, every event on and the window open %llu ms later",
		 (unsigned long long)run->on_ns,
		 (unsigned long long)((run->start_ns - run->on_ns) / 1000000));
	found(run);
	/* The load is known from here: what ran before is not. */
	if (fs_params_load(run->p)) {
		if (fs_loads_init(&run->loads, run->p->nr_cpus,
				  fs_system_now())) {
			fs_err("out of memory");
			return -1;
		}
		run->loading = true;
		run->have_jiffies = !fs_system_jiffies(&run->jiffies_ns,
						       &run->jiffies);
	}
	/* A source that derives starvation finds the tasks itself. */
	if (run->derived && !run->caps.sched_derived)
		found_tasks(run);
	return 0;
}

/* Stop on every signal that would end the tool; a closed pipe is seen
 * as EPIPE on the next write. */
static int set_signals(void)
{
	static const int stops[] = {
		SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM,
	};
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	if (sigaction(SIGPIPE, &sa, NULL))
		goto fail;
	sa.sa_handler = on_signal;
	for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		if (sigaction(stops[i], &sa, NULL))
			goto fail;
	return 0;
fail:
	fs_err("cannot install signal handlers: %s", strerror(errno));
	return -1;
}

/*
 * Set where the window ends once it is known at @now: at the stopping
 * signal, or -d after it opened. Set before the events up to @now are fed,
 * so that none after the end is applied.
 */
static void window_end(struct run *run, uint64_t now)
{
	uint64_t d = run->p->duration_s * 1000000000ULL;

	if (run->end_ns)
		return;
	if (stop_ns > run->start_ns)
		run->end_ns = stop_ns;
	if (d && now - run->start_ns >= d &&
	    (!run->end_ns || run->end_ns > run->start_ns + d))
		run->end_ns = run->start_ns + d;
}

/* run: collect until a signal, the duration or the threshold. */
static int run_loop(struct run *run, struct fs_trace *t)
{
	const struct fs_params *p = run->p;
	bool live = p->mode == FS_MODE_TOP && !p->quiet && !p->json;
	uint64_t next_refresh = REFRESH_NS, elapsed, now;

	while (!stop_signal) {
		struct timespec ts = { 0, POLL_NS };

		if (nanosleep(&ts, NULL) && errno != EINTR) {
			fs_err("nanosleep: %s", strerror(errno));
			return -1;
		}
		now = fs_system_now();
		window_end(run, now);
		fs_order_mark(&run->order, now);
		if (fs_trace_collect(t, queue, run))
			return -1;
		fs_order_round(&run->order, feed, run);
		if (stop_signal < 0)
			return -1;
		threshold_open(run, run->order.safe);
		if (run->pending && !on_threshold(run, t, false))
			break;
		if (run->end_ns)
			break;
		elapsed = fs_system_now() - run->start_ns;
		if ((live || p->metrics_file) && elapsed >= next_refresh) {
			if (refresh(run, live))
				return run->out_broken ? 0 : -1;
			next_refresh += REFRESH_NS;
		}
	}
	window_end(run, fs_system_now());
	if (stop_signal > 0)
		fs_debug("stopped by signal %d", (int)stop_signal);
	return 0;
}

/* Feed what is still queued and close what the models left open. */
static int finish(struct run *run, uint64_t now)
{
	struct fs_outcome out;
	int cpu;

	fs_order_flush(&run->order, feed, run);
	if (run->after_end)
		fs_debug("%llu events after the window's end (the stop) not applied",
			 run->after_end);
	if (run->order.late)
		fs_debug("%llu events arrived after later ones: not applied",
			 (unsigned long long)run->order.late);
	if (fs_derive_untracked(&run->derive))
		fs_err("%llu fair tasks queued beyond %d on one CPU were not followed: fair starvation may be under-counted",
		       (unsigned long long)fs_derive_untracked(&run->derive),
		       FS_KD_QUEUED);
	for (cpu = 0; cpu < run->p->nr_cpus; cpu++) {
		fs_cpu_finish(&run->cpus[cpu], now, &out);
		if (account(run, cpu, &out))
			return -1;
	}
	return stop_signal < 0 ? -1 : 0;
}

/* -a: explain the crossing that stopped the run, or the last one kept;
 * on stderr when stdout carries JSON. */
static int explain(struct run *run)
{
	FILE *f = run->p->json ? stderr : stdout;

	if (fs_explain(&run->cross, f) || fflush(f)) {
		if (errno == EPIPE)
			run->out_broken = true;
		else
			fs_err("cannot write the analysis: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* The kernel's tick, from jiffies read at start and now; 0 if unknown. */
static uint64_t tick_ns(const struct run *run)
{
	uint64_t ns, j;

	if (!run->have_jiffies || fs_system_jiffies(&ns, &j)) {
		fs_debug("no jiffies in /proc/timer_list: the replay takes runtimes to run out on time");
		return 0;
	}
	return fs_system_tick_ns(run->jiffies_ns, run->jiffies, ns, j);
}

/* -D: what was recorded of @cpu's load. */
static void load_debug(const struct fs_load *l, int cpu)
{
	uint64_t hi = 0, longest = 0, at = 0, work = 0;
	size_t i, open = 0;

	if (!fs_debug_on)
		return;
	for (i = 0; i < l->nr_hi; i++) {
		uint64_t len = l->hi[i].end - l->hi[i].start;

		hi += len;
		if (len > longest) {
			longest = len;
			at = l->hi[i].start;
		}
	}
	for (i = 0; i < l->nr_jobs; i++) {
		if (l->jobs[i].work == FS_WORK_OPEN)
			open++;
		else
			work += l->jobs[i].work;
	}

	fs_debug("cpu %d load: %zu higher-class spans, %llu ms, the longest %llu ms at %llu, %llu ms of them displaced; %zu fair jobs, %zu open, the others %llu ms; fair work starved %llu ms, sleepers' jobs %llu ms",
		 cpu, l->nr_hi, (unsigned long long)(hi / 1000000),
		 (unsigned long long)(longest / 1000000),
		 (unsigned long long)at,
		 (unsigned long long)(l->rt_displaced_ns / 1000000),
		 l->nr_jobs, open, (unsigned long long)(work / 1000000),
		 (unsigned long long)(l->starved_ns / 1000000),
		 (unsigned long long)(l->censor_ns / 1000000));
}

/* Append a row of @kind for @cpu to @rows, the setting it had noted. */
static struct fs_whatif_row *add_row(struct fs_whatif_row *rows, size_t *nr,
				     const struct run *run, int cpu,
				     enum fs_whatif_kind kind)
{
	struct fs_whatif_row *row = &rows[(*nr)++];

	row->cpu = cpu;
	row->kind = kind;
	row->old_runtime = run->cpus[cpu].srv.dl_runtime;
	row->old_period = run->cpus[cpu].srv.dl_period;
	return row;
}

/* The kernel's own figures of each CPU's root domain (sched/debug). */
#define SCHED_DEBUG	"/sys/kernel/debug/sched/debug"

/* A CPU's root domain's deadline bandwidth, as sched/debug shows it. */
struct rd_cpu {
	bool seen;
	int64_t bw, total_bw;
};

/*
 * Read each online CPU's root domain's dl_bw->bw and ->total_bw into
 * @rc (@nr CPUs); -1 if the file cannot be read. Not from
 * /proc/sys/kernel/sched_rt_runtime_us: on 6.12 even a read of it
 * rebuilds the root domains, which without the fix loses the servers'
 * bandwidth and makes every later write fail.
 */
static int rd_read(struct rd_cpu *rc, int nr)
{
	FILE *f = fopen(SCHED_DEBUG, "r");
	char line[256];
	long long v;
	int cpu = -1, c;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "dl_rq[%d]:", &c) == 1)
			cpu = c >= 0 && c < nr ? c : -1;
		else if (cpu < 0)
			continue;
		else if (sscanf(line, " .dl_bw->bw : %lld", &v) == 1)
			rc[cpu].bw = v;
		else if (sscanf(line, " .dl_bw->total_bw : %lld", &v) == 1) {
			rc[cpu].total_bw = v;
			rc[cpu].seen = true;
		}
	}
	fclose(f);
	return 0;
}

/*
 * @cpu's root domain from @rc: its CPUs taken to be the online ones that
 * show the same figures, each of full capacity, and their fair servers'
 * bandwidth as debugfs gives it (0 if one cannot be read: then a lost
 * bandwidth is not recognized).
 */
static void rd_of(const struct rd_cpu *rc, int nr, int cpu,
		  struct fs_rd_bw *rd)
{
	bool servers = true;
	uint64_t r, p;
	int d;

	memset(rd, 0, sizeof(*rd));
	rd->bw = rc[cpu].bw;
	rd->total_bw = rc[cpu].total_bw;
	for (d = 0; d < nr; d++) {
		if (!rc[d].seen || rc[d].bw != rc[cpu].bw ||
		    rc[d].total_bw != rc[cpu].total_bw)
			continue;
		rd->cpus++;
		if (fs_system_server(d, &r, &p))
			servers = false;
		else
			rd->servers_bw += fs_bw(r, p);
	}
	if (!servers)
		rd->servers_bw = 0;
}

/*
 * The advice for @cpu into @row, within its root domain's free bandwidth
 * if @rc knows it; what the advice takes is then taken from the other
 * CPUs of that root domain, for the advice printed after it.
 */
static void advise(struct run *run, struct rd_cpu *rc, int cpu,
		   struct fs_whatif_row *row)
{
	uint64_t old_bw = fs_bw(row->old_runtime, row->old_period);
	uint64_t max_bw = UINT64_MAX, new_bw;
	int nr = run->p->nr_cpus, d;
	struct fs_rd_bw rd;

	if (rc && rc[cpu].seen) {
		rd_of(rc, nr, cpu, &rd);
		row->room_known = true;
		row->room_bw = max_bw = fs_rd_room(&rd, old_bw);
		row->rd_lost = rd.total_bw < 0 ||
			       (uint64_t)rd.total_bw < rd.servers_bw;
	}
	if (row->rd_lost ||
	    !fs_whatif_advise(&run->loads.cpu[cpu], run->p->target_ns,
			      FS_ADVICE_MARGIN, max_bw, &row->w)) {
		row->kind = FS_WHATIF_NONE;
		return;
	}
	fs_whatif_apply(row->old_runtime, row->old_period, row->w.runtime,
			row->w.period, max_bw, &row->apply);
	new_bw = fs_bw(row->w.runtime, row->w.period);
	if (!row->room_known || new_bw == old_bw)
		return;
	for (d = 0; d < nr; d++)
		if (d != cpu && rc[d].seen && rc[d].bw == rc[cpu].bw &&
		    rc[d].total_bw == rc[cpu].total_bw)
			rc[d].total_bw += (int64_t)(new_bw - old_bw);
	rc[cpu].total_bw += (int64_t)(new_bw - old_bw);
}

/*
 * Check @row, the replay of the setting the run had on @cpu, against what
 * the live models measured there; not where they do not stand for the
 * whole run.
 */
static void check_recorded(const struct run *run, int cpu, uint64_t now,
			   struct fs_whatif_row *row)
{
	const struct fs_cpu *c = &run->cpus[cpu];
	const struct fs_load *l = &run->loads.cpu[cpu];
	struct fs_whatif_measured *m = &row->measured;
	uint64_t open = fs_cpu_open_ns(c, now);

	if (run->lost || run->lost_unknown || run->loads.lost || l->full ||
	    run->loads.failed || c->invalid || c->offline_ns ||
	    c->srv.count[FS_EV_PARAMS] || now <= run->start_ns)
		return;
	m->window_ns = now - run->start_ns;
	m->lead_ns = l->t0 > run->start_ns ? l->t0 - run->start_ns : 0;
	m->starve = run->caps.starvation;
	m->worst_ns = c->st.hist.stat.max > open ? c->st.hist.stat.max : open;
	m->rt = true;
	m->rt_bound = !c->srv.rt_wait_known;
	m->rt_ns = c->srv.preempt.stat.sum;
	m->rt_max_ns = c->srv.preempt.stat.max;
	m->boosts = c->srv.boosts;
	row->checked = true;
	row->agrees = fs_whatif_agrees(&row->w, m, l->tick_ns, &row->check);
}

/* Append a replay of @cpu's load to @rows. */
static void replay(struct fs_whatif_row *rows, size_t *nr, const struct run *run,
		   int cpu, enum fs_whatif_kind kind, uint64_t runtime,
		   uint64_t period)
{
	fs_whatif_replay(&run->loads.cpu[cpu], runtime, period,
			 &add_row(rows, nr, run, cpu, kind)->w);
}

/*
 * --what-if and --target-starvation: replay each CPU's load with the
 * setting it had (its last, if it changed), the settings asked for, and
 * find the advice, into @r. Returns the rows to free; NULL when not
 * asked, or out of memory.
 */
static struct fs_whatif_row *what_if(struct run *run, struct fs_report *r,
				     uint64_t now)
{
	const struct fs_params *p = run->p;
	size_t per_cpu = 2 + p->nr_what_if, nr = 0;
	struct fs_whatif_row *rows, *rec;
	struct rd_cpu *rc = NULL;
	unsigned int i;
	bool checked;
	int cpu;

	if (!run->loading)
		return NULL;
	rows = calloc((size_t)fs_cpuset_count(&p->cpus) * per_cpu,
		      sizeof(*rows));
	if (!rows)
		return NULL;
	if (p->target_ns) {
		rc = calloc(p->nr_cpus, sizeof(*rc));
		if (rc && rd_read(rc, p->nr_cpus)) {
			fs_debug("cannot read %s: the advice's bandwidth is not checked",
				 SCHED_DEBUG);
			free(rc);
			rc = NULL;
		}
	}
	fs_loads_finish(&run->loads, now);
	if (run->loads.failed)
		fs_err("out of memory while recording the load: the what-if replays part of it");
	r->tick_ns = tick_ns(run);
	r->load_lost = run->loads.lost;
	fs_system_release(r->kernel, sizeof(r->kernel));
	r->rules = fs_whatif_rules(r->kernel, &checked);
	r->kernel_other = !checked;
	fs_for_each_cpu(cpu, &p->cpus) {
		const struct fs_server *srv = &run->cpus[cpu].srv;
		struct fs_whatif_row *row;

		run->loads.cpu[cpu].tick_ns = r->tick_ns;
		run->loads.cpu[cpu].rules = r->rules;
		load_debug(&run->loads.cpu[cpu], cpu);
		if (run->loads.cpu[cpu].full)
			fs_err("CPU %d's load filled the %d spans or jobs kept per CPU after %.3f s: the what-if replays that much",
			       cpu, FS_LOAD_MAX,
			       (run->loads.cpu[cpu].full_at -
				run->loads.cpu[cpu].t0) / 1e9);
		rec = NULL;
		if (srv->dl_period) {
			struct fs_whatif *w;

			replay(rows, &nr, run, cpu, FS_WHATIF_RECORDED,
			       srv->dl_runtime, srv->dl_period);
			/* The others' censoring against the model's own. */
			rec = &rows[nr - 1];
			w = &rec->w;
			run->loads.cpu[cpu].base_starved_ns =
				w->starve.sum + w->starve_open;
			run->loads.cpu[cpu].base_preempt_ns = w->preempt.sum;
			run->loads.cpu[cpu].base_known = true;
			fs_whatif_censor(&run->loads.cpu[cpu], w);
			check_recorded(run, cpu, now, rec);
		}
		for (i = 0; i < p->nr_what_if; i++)
			replay(rows, &nr, run, cpu, FS_WHATIF_ASKED,
			       p->what_if[i].runtime, p->what_if[i].period);
		if (!p->target_ns)
			continue;
		row = add_row(rows, &nr, run, cpu, FS_WHATIF_ADVISED);
		/* A replay that does not agree with the run advises nothing. */
		if (rec && rec->checked && !rec->agrees) {
			row->kind = FS_WHATIF_NONE;
			row->disagrees = true;
			continue;
		}
		advise(run, rc, cpu, row);
	}
	free(rc);
	r->what_if = rows;
	r->nr_what_if = nr;
	return rows;
}

/* Print the result of the run; then what stopped it. */
static int result(struct run *run, uint64_t now)
{
	const struct fs_params *p = run->p;
	struct fs_task_waits *tasks = NULL;
	struct fs_episode *worst = NULL;
	struct fs_whatif_row *rows = NULL;
	struct fs_report r;
	struct fs_cpu all;
	int ret = -1;

	if (fs_cpu_init(&all, -1, p->bucket_ns, p->entries)) {
		fs_err("out of memory");
		return -1;
	}
	report_of(run, &r, &all, now, true);
	if (fs_tasks_sorted(&run->tasks, &tasks, &r.nr_tasks) ||
	    fs_worst_sorted(&run->worst, &worst)) {
		fs_err("out of memory");
		goto out;
	}
	r.tasks = tasks;
	r.other_tasks = run->tasks.other;
	r.worst = worst;
	r.nr_worst = run->worst.nr;
	rows = what_if(run, &r, now);
	if (run->loading && !rows) {
		fs_err("out of memory");
		goto out;
	}
	ret = emit(run, &r);
	if (p->metrics_file && fs_metrics_write(&r))
		ret = -1;
	if (run->threshold_stop)
		fprintf(stderr, "%s: %s of %llu us on CPU %d exceeded the threshold of %llu us\n",
			p->prog, over_name(run->cross.over),
			(unsigned long long)(run->cross.ns / 1000),
			run->cross.cpu,
			(unsigned long long)(p->threshold_ns / 1000));
	else if (run->crossings)
		fprintf(stderr, "%s: the threshold of %llu us was crossed %lu time%s\n",
			p->prog, (unsigned long long)(p->threshold_ns / 1000),
			run->crossings, run->crossings == 1 ? "" : "s");
	if (!ret && p->analyze && run->crossings)
		ret = explain(run);
out:
	free(rows);
	free(tasks);
	free(worst);
	fs_cpu_free(&all);
	return ret;
}

/* Release what init set up. */
static void teardown(struct run *run, struct fs_trace *t)
{
	int cpu;

	fs_trace_close(t);
	if (run->cpus)
		for (cpu = 0; cpu < run->p->nr_cpus; cpu++)
			fs_cpu_free(&run->cpus[cpu]);
	free(run->cpus);
	free(run->fired);
	fs_order_free(&run->order);
	fs_derive_free(&run->derive);
	fs_loads_free(&run->loads);
	fs_tasks_free(&run->tasks);
	fs_worst_free(&run->worst);
}

/* top and hist: parse_args, init, apply_config, run, teardown. */
int fs_main(int argc, char **argv, enum fs_mode mode)
{
	struct fs_params params;
	struct fs_trace *t = NULL;
	struct run run = { 0 };
	long long overrun, missed;
	int ret = FS_EXIT_ERROR;
	uint64_t now;

	switch (fs_parse_args(argc, argv, mode, &params)) {
	case 0:
		break;
	case 1:
		return FS_EXIT_OK;
	default:
		return FS_EXIT_ERROR;
	}
	fs_prog = params.prog;
	run.p = &params;

	if (set_signals())
		goto out;
	t = init(&params, &run);
	if (!t || apply_config(&run, t) || run_loop(&run, t))
		goto out;
	if (fs_trace_stop(t, queue, &run, &now))
		goto out;
	if (run.end_ns && run.end_ns < now)
		now = run.end_ns;
	overrun = fs_trace_overrun(t);
	/* Both count the same drops; the counters also see drops no
	 * record reported. */
	if (overrun > run.lost)
		run.lost = overrun;
	/* The kprobe source: hits the kernel missed are lost events too. */
	missed = fs_trace_missed(t);
	if (missed > 0) {
		fs_err("the kernel missed %lld probe hits (kprobe_profile): counted as lost",
		       missed);
		run.lost += missed;
	} else if (missed < 0) {
		run.lost_unknown = true;
	}
	if (finish(&run, now))
		goto out;
	/* An episode the end of the run closed may cross too. */
	if (run.pending)
		on_threshold(&run, t, true);
	/* The figures first: a failed save must not lose them. */
	if (result(&run, now) && !run.out_broken)
		goto out;
	if (params.trace_file && fs_trace_save(t, params.trace_file))
		goto out;
	if (fs_actions_run(params.on_end, params.nr_on_end, t) < 0 ||
	    run.action_failed)
		goto out;
	ret = run.threshold_stop ? FS_EXIT_THRESHOLD : FS_EXIT_OK;
out:
	teardown(&run, t);
	fs_free_params(&params);
	return ret;
}
