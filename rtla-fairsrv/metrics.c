// SPDX-License-Identifier: GPL-2.0
/*
 * --prometheus and --openmetrics: the run's figures as metrics, in the
 * text format that Prometheus scrapes and node_exporter's textfile
 * collector reads, or in OpenMetrics. Times are in seconds, counters end
 * in _total, every name starts with rtla_fairsrv_, and CPUs are a "cpu"
 * label. The histograms' buckets are the fixed bounds of lib/hist.h, the
 * same on every host, so that a fleet can sum them. The file is written
 * whole under a temporary name and renamed: a reader never sees half.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fairsrv.h"

#define PREFIX	"rtla_fairsrv_"

/* Print @ns as seconds, exactly: 1.500000000. */
static void seconds(FILE *f, uint64_t ns)
{
	fprintf(f, "%llu.%09llu", (unsigned long long)(ns / 1000000000ULL),
		(unsigned long long)(ns % 1000000000ULL));
}

/*
 * HELP and TYPE of a family. A counter's family is named without _total
 * in OpenMetrics, with it in Prometheus' format; @name has no _total.
 */
static void family(FILE *f, const struct fs_report *r, const char *name,
		   const char *type, const char *help)
{
	const char *total = !strcmp(type, "counter") &&
			    r->p->metrics_format == FS_METRICS_PROMETHEUS ?
			    "_total" : "";

	fprintf(f, "# HELP " PREFIX "%s%s %s\n", name, total, help);
	fprintf(f, "# TYPE " PREFIX "%s%s %s\n", name, total, type);
}

/* A per-CPU counter or gauge family whose value @get gives, as a count. */
static void per_cpu(FILE *f, const struct fs_report *r, const char *name,
		    const char *type, const char *help,
		    uint64_t (*get)(const struct fs_cpu *c))
{
	const char *total = strcmp(type, "counter") ? "" : "_total";
	int cpu;

	family(f, r, name, type, help);
	fs_for_each_cpu(cpu, &r->p->cpus)
		fprintf(f, PREFIX "%s%s{cpu=\"%d\"} %llu\n", name, total, cpu,
			(unsigned long long)get(&r->cpus[cpu]));
}

/* The same with a time value, in seconds. */
static void per_cpu_s(FILE *f, const struct fs_report *r, const char *name,
		      const char *type, const char *help,
		      uint64_t (*get)(const struct fs_report *r,
				      const struct fs_cpu *c))
{
	const char *total = strcmp(type, "counter") ? "" : "_total";
	int cpu;

	family(f, r, name, type, help);
	fs_for_each_cpu(cpu, &r->p->cpus) {
		fprintf(f, PREFIX "%s%s{cpu=\"%d\"} ", name, total, cpu);
		seconds(f, get(r, &r->cpus[cpu]));
		fputc('\n', f);
	}
}

/* A histogram family: cumulative buckets at the fixed bounds, sum, count. */
static void histogram(FILE *f, const struct fs_report *r, const char *name,
		      const char *help,
		      const struct fs_hist *(*get)(const struct fs_cpu *c))
{
	int cpu;

	family(f, r, name, "histogram", help);
	fs_for_each_cpu(cpu, &r->p->cpus) {
		const struct fs_hist *h = get(&r->cpus[cpu]);
		uint64_t n = 0;
		unsigned int i;

		for (i = 0; i < FS_HIST_FIXED_NR; i++) {
			n += h->fixed[i];
			fprintf(f, PREFIX "%s_bucket{cpu=\"%d\",le=\"", name, cpu);
			seconds(f, fs_hist_fixed_ns[i]);
			fprintf(f, "\"} %llu\n", (unsigned long long)n);
		}
		fprintf(f, PREFIX "%s_bucket{cpu=\"%d\",le=\"+Inf\"} %llu\n",
			name, cpu, (unsigned long long)h->stat.count);
		fprintf(f, PREFIX "%s_sum{cpu=\"%d\"} ", name, cpu);
		seconds(f, h->stat.sum);
		fprintf(f, "\n" PREFIX "%s_count{cpu=\"%d\"} %llu\n", name, cpu,
			(unsigned long long)h->stat.count);
	}
}

static const struct fs_hist *starvation(const struct fs_cpu *c)
{
	return &c->st.hist;
}

static const struct fs_hist *server_wait(const struct fs_cpu *c)
{
	return &c->srv.wait;
}

static const struct fs_hist *rt_preemption(const struct fs_cpu *c)
{
	return &c->srv.preempt;
}

static uint64_t boosts(const struct fs_cpu *c)
{
	return c->srv.boosts;
}

static uint64_t idle_boosts(const struct fs_cpu *c)
{
	return c->srv.idle_boosts;
}

static uint64_t defers(const struct fs_cpu *c)
{
	return c->srv.count[FS_EV_DEFER];
}

static uint64_t postponements(const struct fs_cpu *c)
{
	return c->srv.count[FS_EV_POSTPONE];
}

static uint64_t throttles(const struct fs_cpu *c)
{
	return c->srv.count[FS_EV_THROTTLE];
}

static uint64_t replenishments(const struct fs_cpu *c)
{
	return c->srv.count[FS_EV_REPLENISH];
}

static uint64_t invalid(const struct fs_cpu *c)
{
	return c->invalid;
}

static uint64_t lost_marks(const struct fs_cpu *c)
{
	return c->lost_marks;
}

static uint64_t served(const struct fs_report *r, const struct fs_cpu *c)
{
	(void)r;
	return c->srv.served_total;
}

static uint64_t offline(const struct fs_report *r, const struct fs_cpu *c)
{
	(void)r;
	return c->offline_ns;
}

static uint64_t runtime(const struct fs_report *r, const struct fs_cpu *c)
{
	(void)r;
	return c->srv.dl_runtime;
}

static uint64_t period(const struct fs_report *r, const struct fs_cpu *c)
{
	(void)r;
	return c->srv.dl_period;
}

static uint64_t open_episode(const struct fs_report *r,
			     const struct fs_cpu *c)
{
	return fs_cpu_open_ns(c, r->now);
}

/* The server's state as a set: 1 for the state it is in, 0 for others. */
static void states(FILE *f, const struct fs_report *r)
{
	enum fs_state st;
	int cpu;

	family(f, r, "server_state", "gauge",
	       "The fair server's state (1) by the model of rtla-fairsrv(8): A init, B zero_laxity-wait, D running, E replenish-wait, or off, offline, unknown.");
	fs_for_each_cpu(cpu, &r->p->cpus)
		for (st = 0; st < FS_ST_NR; st++)
			fprintf(f, PREFIX "server_state{cpu=\"%d\",state=\"%s\"} %d\n",
				cpu, fs_state_name(st),
				r->cpus[cpu].srv.state == st);
}

/* The figures of the whole run: what produced them, and its losses. */
static void run_figures(FILE *f, const struct fs_report *r)
{
	family(f, r, "info", "gauge",
	       "Always 1: the collector's version, its source of events, and whether RT preemption is what RT tasks waited (rt_wait) or the time the server ran (an upper bound).");
	fprintf(f, PREFIX "info{version=\"%s\",source=\"%s\",rt_preemption=\"%s\"} 1\n",
		FS_VERSION, fs_source_name(r->caps->source),
		r->caps->rt_wait ? "rt_wait" : "upper_bound");
	family(f, r, "start_time_seconds", "gauge",
	       "When the collector began to measure, in seconds since the epoch: a new value is a restart, after which the counters start again from 0.");
	fprintf(f, PREFIX "start_time_seconds ");
	seconds(f, r->start_unix_ns);
	fputc('\n', f);
	family(f, r, "measured_seconds", "counter",
	       "How long the collector has measured.");
	fprintf(f, PREFIX "measured_seconds_total ");
	seconds(f, r->elapsed_ns);
	fputc('\n', f);
	family(f, r, "events", "counter", "Events read from the kernel.");
	fprintf(f, PREFIX "events_total %llu\n",
		(unsigned long long)r->events);
	family(f, r, "lost_events", "counter",
	       "Events the kernel dropped before the collector read them (figures across them are not counted).");
	fprintf(f, PREFIX "lost_events_total %lld\n", r->lost > 0 ? r->lost : 0);
	family(f, r, "rt_runtime_unlimited", "gauge",
	       "1 if kernel.sched_rt_runtime_us is -1: since Linux 6.12 that no longer disables the fair server, which still runs.");
	fprintf(f, PREFIX "rt_runtime_unlimited %d\n", r->rt_runtime_unlimited);
}

/* Write the metrics of @r to @f; 0, or -1 if the stream failed. */
int fs_metrics_print(const struct fs_report *r, FILE *f)
{
	run_figures(f, r);
	if (r->caps->starvation) {
		histogram(f, r, "starvation_seconds",
			  "Fair starvation episodes: a fair task runnable and none running while a higher class held the CPU.",
			  starvation);
		per_cpu_s(f, r, "starvation_open_seconds", "gauge",
			  "The starvation episode still open, 0 if none.",
			  open_episode);
	}
	histogram(f, r, "server_wait_seconds",
		  "The fair server's wait, from its start or deferral to the boost that served.",
		  server_wait);
	histogram(f, r, "rt_preemption_seconds",
		  "Per serving episode, how long real-time tasks were kept off the CPU.",
		  rt_preemption);
	per_cpu(f, r, "boosts", "counter",
		"Boosts that served fair tasks (the zero-laxity time came).",
		boosts);
	per_cpu(f, r, "idle_boosts", "counter",
		"Boosts that served nothing (an idle CPU's server).",
		idle_boosts);
	per_cpu(f, r, "defers", "counter", "sched_dl_server_defer events.",
		defers);
	per_cpu(f, r, "postponements", "counter",
		"sched_dl_server_postpone events.", postponements);
	per_cpu(f, r, "throttles", "counter",
		"Throttles of the fair server.", throttles);
	per_cpu(f, r, "replenishments", "counter",
		"Replenishments of the fair server.", replenishments);
	per_cpu(f, r, "invalid_transitions", "counter",
		"Events the server's state machine could not follow (missed events): no figure spans them.",
		invalid);
	per_cpu(f, r, "lost_marks", "counter",
		"Times the CPU's buffer reported lost events.", lost_marks);
	per_cpu_s(f, r, "served_seconds", "counter",
		  "Runtime the fair server consumed serving fair tasks.",
		  served);
	per_cpu_s(f, r, "offline_seconds", "counter",
		  "Time the CPU was offline.", offline);
	per_cpu_s(f, r, "server_runtime_seconds", "gauge",
		  "The fair server's runtime setting.", runtime);
	per_cpu_s(f, r, "server_period_seconds", "gauge",
		  "The fair server's period setting.", period);
	states(f, r);
	if (r->p->metrics_format == FS_METRICS_OPENMETRICS)
		fprintf(f, "# EOF\n");
	return ferror(f) ? -1 : 0;
}

/*
 * Write the metrics to the file -p named: whole, to "FILE.tmp" first (a
 * name node_exporter's textfile collector skips), then renamed over it.
 */
int fs_metrics_write(const struct fs_report *r)
{
	const char *path = r->p->metrics_file;
	size_t len = strlen(path) + sizeof(".tmp");
	char *tmp = malloc(len);
	FILE *f;
	int ret;

	if (!tmp) {
		fs_err("out of memory");
		return -1;
	}
	snprintf(tmp, len, "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		fs_err("cannot write the metrics to %s: %s", tmp,
		       strerror(errno));
		free(tmp);
		return -1;
	}
	ret = fs_metrics_print(r, f);
	if (fclose(f) || ret) {
		fs_err("cannot write the metrics to %s: %s", tmp,
		       strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	if (rename(tmp, path)) {
		fs_err("cannot rename %s to %s: %s", tmp, path,
		       strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}
