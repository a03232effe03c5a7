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

/* The per-CPU figures that are one number each. */
enum cpu_figure {
	F_BOOSTS, F_IDLE_BOOSTS, F_DEFERS, F_POSTPONEMENTS, F_THROTTLES,
	F_REPLENISHMENTS, F_INVALID, F_LOST_MARKS,
	F_SERVED_NS, F_OFFLINE_NS, F_RUNTIME_NS, F_PERIOD_NS, F_OPEN_NS,
};

/* One per-CPU counter or gauge: a figure, in seconds if it is a time. */
struct cpu_metric {
	const char *name;	/* without the prefix and _total */
	const char *type;	/* "counter" or "gauge" */
	enum cpu_figure figure;
	bool seconds;
	bool starvation;	/* only where starvation is measured */
	const char *help;
};

static const struct cpu_metric cpu_metrics[] = {
	{ "starvation_open_seconds", "gauge", F_OPEN_NS, true, true,
	  "The starvation episode still open, 0 if none." },
	{ "boosts", "counter", F_BOOSTS, false, false,
	  "Boosts that served fair tasks (the zero-laxity time came)." },
	{ "idle_boosts", "counter", F_IDLE_BOOSTS, false, false,
	  "Boosts that served nothing (an idle CPU's server)." },
	{ "defers", "counter", F_DEFERS, false, false,
	  "sched_dl_server_defer events." },
	{ "postponements", "counter", F_POSTPONEMENTS, false, false,
	  "sched_dl_server_postpone events." },
	{ "throttles", "counter", F_THROTTLES, false, false,
	  "Throttles of the fair server." },
	{ "replenishments", "counter", F_REPLENISHMENTS, false, false,
	  "Replenishments of the fair server." },
	{ "invalid_transitions", "counter", F_INVALID, false, false,
	  "Events the server's state machine could not follow (missed events): no figure spans them." },
	{ "lost_marks", "counter", F_LOST_MARKS, false, false,
	  "Times the CPU's buffer reported lost events." },
	{ "served_seconds", "counter", F_SERVED_NS, true, false,
	  "Runtime the fair server consumed serving fair tasks." },
	{ "offline_seconds", "counter", F_OFFLINE_NS, true, false,
	  "Time the CPU was offline." },
	{ "server_runtime_seconds", "gauge", F_RUNTIME_NS, true, false,
	  "The fair server's runtime setting." },
	{ "server_period_seconds", "gauge", F_PERIOD_NS, true, false,
	  "The fair server's period setting." },
};

/* The value of figure @fig of CPU @c at the report's time. */
static uint64_t figure(const struct fs_report *r, const struct fs_cpu *c,
		       enum cpu_figure fig)
{
	switch (fig) {
	case F_BOOSTS:
		return c->srv.boosts;
	case F_IDLE_BOOSTS:
		return c->srv.idle_boosts;
	case F_DEFERS:
		return c->srv.count[FS_EV_DEFER];
	case F_POSTPONEMENTS:
		return c->srv.count[FS_EV_POSTPONE];
	case F_THROTTLES:
		return c->srv.count[FS_EV_THROTTLE];
	case F_REPLENISHMENTS:
		return c->srv.count[FS_EV_REPLENISH];
	case F_INVALID:
		return c->invalid;
	case F_LOST_MARKS:
		return c->lost_marks;
	case F_SERVED_NS:
		return c->srv.served_total;
	case F_OFFLINE_NS:
		return c->offline_ns;
	case F_RUNTIME_NS:
		return c->srv.dl_runtime;
	case F_PERIOD_NS:
		return c->srv.dl_period;
	case F_OPEN_NS:
		return fs_cpu_open_ns(c, r->now);
	}
	return 0;
}

/* One per-CPU family of cpu_metrics[], a line per CPU. */
static void per_cpu(FILE *f, const struct fs_report *r,
		    const struct cpu_metric *m)
{
	const char *total = strcmp(m->type, "counter") ? "" : "_total";
	uint64_t v;
	int cpu;

	family(f, r, m->name, m->type, m->help);
	fs_for_each_cpu(cpu, &r->p->cpus) {
		v = figure(r, &r->cpus[cpu], m->figure);
		fprintf(f, PREFIX "%s%s{cpu=\"%d\"} ", m->name, total, cpu);
		if (m->seconds)
			seconds(f, v);
		else
			fprintf(f, "%llu", (unsigned long long)v);
		fputc('\n', f);
	}
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
		FS_VERSION, r->caps->source,
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
	size_t i;

	run_figures(f, r);
	if (r->caps->starvation)
		histogram(f, r, "starvation_seconds",
			  "Fair starvation episodes: a fair task runnable and none running while a higher class held the CPU.",
			  starvation);
	histogram(f, r, "server_wait_seconds",
		  "The fair server's wait, from its start or deferral to the boost that served.",
		  server_wait);
	histogram(f, r, "rt_preemption_seconds",
		  "How long the server's service kept real-time tasks off the CPU at a time.",
		  rt_preemption);
	for (i = 0; i < sizeof(cpu_metrics) / sizeof(cpu_metrics[0]); i++)
		if (!cpu_metrics[i].starvation || r->caps->starvation)
			per_cpu(f, r, &cpu_metrics[i]);
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
