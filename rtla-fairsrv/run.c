// SPDX-License-Identifier: GPL-2.0
/*
 * The phases of top and hist, as rtla has them: parse_args, init,
 * apply_config, run, teardown. Only the output differs between the two.
 */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fairsrv.h"

#define POLL_NS		(100ULL * 1000 * 1000)	/* read the buffers 10x/s */
#define REFRESH_NS	(1000ULL * 1000 * 1000)	/* top: redraw every second */

volatile sig_atomic_t fs_stop;
bool fs_debug_on;
const char *fs_prog = "rtla fairsrv";

/* Print one error line, whatever the input it quotes. */
void fs_verr(const char *fmt, va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fs_printable(msg);
	fprintf(stderr, "%s: %s\n", fs_prog, msg);
}

/* Print one error line. */
void fs_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fs_verr(fmt, ap);
	va_end(ap);
}

/* Print one debug line with -D. */
void fs_debug(const char *fmt, ...)
{
	va_list ap;

	if (!fs_debug_on)
		return;
	fprintf(stderr, "debug: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Signal handler: only ask the loop to stop. */
static void on_signal(int sig)
{
	(void)sig;
	fs_stop = 1;
}

/* CLOCK_MONOTONIC in ns. */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Queue one decoded event of a selected CPU until its turn comes. */
int fs_run_queue(struct fs_run *run, const struct fs_event *ev)
{
	const struct fs_params *p = run->p;

	if (ev->cpu < 0 || ev->cpu >= p->nr_cpus ||
	    !fs_cpuset_isset(&p->cpus, ev->cpu))
		return 0;
	return fs_order_push(&run->order, ev);
}

/* Feed one event, in timestamp order, to its CPU's model; check -T. */
static void feed(void *ctx, const struct fs_event *ev)
{
	struct fs_run *run = ctx;
	const struct fs_params *p = run->p;
	struct fs_outcome out;

	run->events++;
	if (!run->start_ts)
		run->start_ts = ev->ts;
	run->last_ts = ev->ts;
	fs_cpu_event(&run->cpus[ev->cpu], ev, &out);
	if (out.invalid)
		fs_debug("cpu %d: invalid transition by %s at %llu", ev->cpu,
			 fs_ev_name(ev->type), (unsigned long long)ev->ts);
	if (!p->threshold_ns || run->threshold_hit)
		return;
	if (out.starvation && out.starvation_ns > p->threshold_ns) {
		run->hit_what = "starvation";
		run->hit_ns = out.starvation_ns;
	} else if (out.preemption && out.preempt_ns > p->threshold_ns) {
		run->hit_what = "RT preemption";
		run->hit_ns = out.preempt_ns;
	} else {
		return;
	}
	run->threshold_hit = true;
	run->hit_cpu = ev->cpu;
}

/* Sum the selected CPUs into @all, which the caller frees. */
int fs_run_total(const struct fs_run *run, struct fs_cpu *all)
{
	const struct fs_params *p = run->p;
	int cpu;

	if (fs_cpu_init(all, -1, p->bucket_ns, p->entries))
		return -1;
	for (cpu = fs_cpuset_next(&p->cpus, 0); cpu >= 0;
	     cpu = fs_cpuset_next(&p->cpus, cpu + 1))
		if (fs_cpu_merge(all, &run->cpus[cpu]))
			return -1;
	return 0;
}

/* init: check the environment, open the session, set up the models. */
static struct fs_trace *init(const struct fs_params *p, struct fs_run *run)
{
	int cpu;

	if (geteuid() != 0) {
		fs_err("needs root to use tracefs; run it as root");
		return NULL;
	}
	memset(run, 0, sizeof(*run));
	fs_order_init(&run->order);
	run->p = p;
	run->cpus = calloc(p->nr_cpus, sizeof(*run->cpus));
	if (!run->cpus) {
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
	fs_trace_cleanup_stale();
	return fs_trace_open(p);
}

/* apply_config: house-keeping affinity, buffers, events. */
static int apply_config(const struct fs_params *p, struct fs_trace *t)
{
	if (p->hk) {
		cpu_set_t set;
		int cpu;

		CPU_ZERO(&set);
		for (cpu = fs_cpuset_next(&p->hk_cpus, 0); cpu >= 0;
		     cpu = fs_cpuset_next(&p->hk_cpus, cpu + 1))
			CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			fs_err("cannot run on the house-keeping CPUs: %s",
			       strerror(errno));
			return -1;
		}
	}
	return fs_trace_start(t);
}

/* Install the stop handlers for SIGINT and SIGTERM. */
static int set_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL)) {
		fs_err("cannot install signal handlers: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* run: collect until a signal, the duration or the threshold. */
static int run_loop(const struct fs_params *p, struct fs_trace *t,
		    struct fs_run *run)
{
	uint64_t next_refresh = REFRESH_NS;

	run->wall_start_ns = now_ns();
	while (!fs_stop) {
		struct timespec ts = { 0, POLL_NS };

		if (nanosleep(&ts, NULL) && errno != EINTR) {
			fs_err("nanosleep: %s", strerror(errno));
			return -1;
		}
		if (fs_trace_collect(t, run))
			return -1;
		fs_order_round(&run->order, feed, run);
		run->elapsed_ns = now_ns() - run->wall_start_ns;
		if (run->threshold_hit)
			break;
		if (p->duration_s &&
		    run->elapsed_ns >= p->duration_s * 1000000000ULL)
			break;
		if (p->mode == FS_MODE_TOP && !p->quiet && !p->json &&
		    run->elapsed_ns >= next_refresh) {
			fs_top_print(run, false);
			next_refresh += REFRESH_NS;
		}
	}
	return 0;
}

/* Feed what is still queued and close what the models left open. */
static void finish(struct fs_run *run)
{
	struct fs_outcome out;
	int cpu;

	fs_order_flush(&run->order, feed, run);
	if (run->order.late)
		fs_debug("%llu events arrived too late to be fed in order",
			 (unsigned long long)run->order.late);
	for (cpu = 0; cpu < run->p->nr_cpus; cpu++)
		fs_cpu_finish(&run->cpus[cpu], &out);
}

/* Print the result of the run. */
static void report(const struct fs_params *p, struct fs_run *run)
{
	if (p->json)
		fs_json_print(run);
	else if (p->mode == FS_MODE_TOP)
		fs_top_print(run, true);
	else
		fs_hist_print(run);
	if (run->threshold_hit)
		fprintf(stderr, "%s: %s of %llu us on CPU %d exceeded the threshold of %llu us\n",
			p->prog, run->hit_what,
			(unsigned long long)(run->hit_ns / 1000), run->hit_cpu,
			(unsigned long long)(p->threshold_ns / 1000));
}

/* top and hist: parse_args, init, apply_config, run, teardown. */
int fs_main(int argc, char **argv, enum fs_mode mode)
{
	struct fs_params params;
	struct fs_trace *t = NULL;
	struct fs_run run = { 0 };
	int ret = FS_EXIT_ERROR, cpu;

	switch (fs_parse_args(argc, argv, mode, &params)) {
	case 0:
		break;
	case 1:
		return FS_EXIT_OK;
	default:
		return FS_EXIT_ERROR;
	}
	fs_prog = params.prog;

	if (set_signals())
		goto out;
	t = init(&params, &run);
	if (!t)
		goto out;
	if (apply_config(&params, t))
		goto out;
	if (run_loop(&params, t, &run))
		goto out;

	if (fs_trace_stop(t, &run))
		goto out;
	run.elapsed_ns = now_ns() - run.wall_start_ns;
	finish(&run);
	if (params.trace_file && fs_trace_save(t, params.trace_file))
		goto out;
	report(&params, &run);
	ret = run.threshold_hit ? FS_EXIT_THRESHOLD : FS_EXIT_OK;
out:
	fs_trace_close(t);
	if (run.cpus)
		for (cpu = 0; cpu < params.nr_cpus; cpu++)
			fs_cpu_free(&run.cpus[cpu]);
	free(run.cpus);
	fs_order_free(&run.order);
	fs_free_params(&params);
	return ret;
}
