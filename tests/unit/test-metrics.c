// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for rtla-fairsrv/metrics.c: the metrics of a report built by
 * hand, in Prometheus' text format and in OpenMetrics.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fairsrv.h"
#include "tap.h"

#define MS	1000000ULL

/* The report under test: CPUs 1 and 2 of 4, some samples on CPU 1. */
struct fixture {
	struct fs_params p;
	struct fs_trace_caps caps;
	struct fs_cpu cpus[4];
	struct fs_report r;
};

static int setup(struct fixture *x, enum fs_metrics_format fmt)
{
	int cpu;

	memset(x, 0, sizeof(*x));
	x->p.nr_cpus = 4;
	fs_cpuset_set(&x->p.cpus, 1);
	fs_cpuset_set(&x->p.cpus, 2);
	x->p.metrics_file = "unused";
	x->p.metrics_format = fmt;
	x->caps.source = "events";
	x->caps.starvation = true;
	x->caps.rt_wait = true;
	for (cpu = 0; cpu < 4; cpu++)
		if (fs_cpu_init(&x->cpus[cpu], cpu, 10 * MS, 256))
			return -1;
	/* CPU 1: starved 950 ms twice and 3 ms once, 12 s once (+Inf). */
	fs_hist_add(&x->cpus[1].st.hist, 950 * MS);
	fs_hist_add(&x->cpus[1].st.hist, 950 * MS);
	fs_hist_add(&x->cpus[1].st.hist, 3 * MS);
	fs_hist_add(&x->cpus[1].st.hist, 12000 * MS);
	fs_hist_add(&x->cpus[1].srv.preempt, 50 * MS + 500000);
	x->cpus[1].srv.boosts = 7;
	x->cpus[1].srv.dl_runtime = 50 * MS;
	x->cpus[1].srv.dl_period = 1000 * MS;
	x->cpus[1].srv.state = FS_ST_ZL_WAIT;
	x->cpus[1].srv.served_total = 1500 * MS;
	x->r.p = &x->p;
	x->r.caps = &x->caps;
	x->r.cpus = x->cpus;
	x->r.start_unix_ns = 1700000000ULL * 1000 * MS + 5;
	x->r.elapsed_ns = 2500 * MS;
	x->r.events = 1234;
	x->r.lost = 3;
	return 0;
}

static void teardown(struct fixture *x)
{
	int cpu;

	for (cpu = 0; cpu < 4; cpu++)
		fs_cpu_free(&x->cpus[cpu]);
}

/* Render @x; the text, to be freed. */
static char *render(struct fixture *x, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	*ret = fs_metrics_print(&x->r, f);
	fclose(f);
	return buf;
}

/* Whether @text has @line as a whole line. */
static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;

	while ((p = strstr(p, line))) {
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return true;
		p += n;
	}
	return false;
}

/* How many lines of @text begin with @prefix. */
static int count_prefix(const char *text, const char *prefix)
{
	const char *p = text;
	int n = 0;

	while (p && *p) {
		if (!strncmp(p, prefix, strlen(prefix)))
			n++;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return n;
}

static void test_prometheus(void)
{
	struct fixture x;
	char *t;
	int ret = -1;

	if (setup(&x, FS_METRICS_PROMETHEUS)) {
		ok(0, "setup");
		return;
	}
	t = render(&x, &ret);
	ok(t && ret == 0, "renders");
	if (!t) {
		teardown(&x);
		return;
	}
	ok(has_line(t, "# TYPE rtla_fairsrv_starvation_seconds histogram"),
	   "starvation is a histogram family");
	ok(has_line(t, "rtla_fairsrv_starvation_seconds_bucket{cpu=\"1\",le=\"0.002000000\"} 0") &&
	   has_line(t, "rtla_fairsrv_starvation_seconds_bucket{cpu=\"1\",le=\"0.005000000\"} 1") &&
	   has_line(t, "rtla_fairsrv_starvation_seconds_bucket{cpu=\"1\",le=\"0.500000000\"} 1") &&
	   has_line(t, "rtla_fairsrv_starvation_seconds_bucket{cpu=\"1\",le=\"1.000000000\"} 3") &&
	   has_line(t, "rtla_fairsrv_starvation_seconds_bucket{cpu=\"1\",le=\"10.000000000\"} 3"),
	   "buckets are cumulative at the fixed bounds");
	ok(has_line(t, "rtla_fairsrv_starvation_seconds_bucket{cpu=\"1\",le=\"+Inf\"} 4") &&
	   has_line(t, "rtla_fairsrv_starvation_seconds_count{cpu=\"1\"} 4") &&
	   has_line(t, "rtla_fairsrv_starvation_seconds_sum{cpu=\"1\"} 13.903000000"),
	   "+Inf, count and sum (seconds) include the sample above 10 s");
	ok(count_prefix(t, "rtla_fairsrv_starvation_seconds_bucket{cpu=\"1\"") ==
	   FS_HIST_FIXED_NR + 1 &&
	   count_prefix(t, "rtla_fairsrv_starvation_seconds_bucket{cpu=\"2\"") ==
	   FS_HIST_FIXED_NR + 1 &&
	   count_prefix(t, "rtla_fairsrv_starvation_seconds_bucket{cpu=\"0\"") == 0,
	   "every selected CPU has every bucket, the others none");
	ok(has_line(t, "rtla_fairsrv_rt_preemption_seconds_sum{cpu=\"1\"} 0.050500000"),
	   "RT preemption in seconds");
	ok(has_line(t, "# TYPE rtla_fairsrv_boosts_total counter") &&
	   has_line(t, "rtla_fairsrv_boosts_total{cpu=\"1\"} 7") &&
	   has_line(t, "rtla_fairsrv_served_seconds_total{cpu=\"1\"} 1.500000000"),
	   "counters end in _total, family included");
	ok(has_line(t, "rtla_fairsrv_server_runtime_seconds{cpu=\"1\"} 0.050000000") &&
	   has_line(t, "rtla_fairsrv_server_period_seconds{cpu=\"1\"} 1.000000000"),
	   "the parameters as gauges in seconds");
	ok(has_line(t, "rtla_fairsrv_server_state{cpu=\"1\",state=\"zero_laxity-wait\"} 1") &&
	   has_line(t, "rtla_fairsrv_server_state{cpu=\"1\",state=\"running\"} 0") &&
	   count_prefix(t, "rtla_fairsrv_server_state{cpu=\"2\"") == FS_ST_NR,
	   "the state as a set, one line per state");
	ok(has_line(t, "rtla_fairsrv_lost_events_total 3") &&
	   has_line(t, "rtla_fairsrv_events_total 1234") &&
	   has_line(t, "rtla_fairsrv_start_time_seconds 1700000000.000000005") &&
	   has_line(t, "rtla_fairsrv_measured_seconds_total 2.500000000"),
	   "the run's figures");
	ok(has_line(t, "rtla_fairsrv_info{version=\"" FS_VERSION "\",source=\"events\",rt_preemption=\"rt_wait\"} 1"),
	   "info names the version, the source and what RT preemption is");
	ok(!strstr(t, "# EOF") && count_prefix(t, "# TYPE") == count_prefix(t, "# HELP"),
	   "no # EOF; one HELP per TYPE");
	ok(!strstr(t, "process_start_time_seconds"),
	   "no name node_exporter itself exports");
	free(t);

	/* Without starvation measured, its families are absent. */
	x.caps.starvation = false;
	t = render(&x, &ret);
	ok(t && !strstr(t, "starvation_"), "--server-only: no starvation family");
	free(t);
	teardown(&x);
}

static void test_openmetrics(void)
{
	struct fixture x;
	size_t n;
	char *t;
	int ret = -1;

	if (setup(&x, FS_METRICS_OPENMETRICS)) {
		ok(0, "setup");
		return;
	}
	t = render(&x, &ret);
	ok(t && ret == 0, "renders OpenMetrics");
	if (!t) {
		teardown(&x);
		return;
	}
	n = strlen(t);
	ok(n > 6 && !strcmp(t + n - 6, "# EOF\n"), "ends with # EOF");
	ok(has_line(t, "# TYPE rtla_fairsrv_boosts counter") &&
	   has_line(t, "rtla_fairsrv_boosts_total{cpu=\"1\"} 7"),
	   "a counter's family has no _total, its sample has");
	free(t);
	teardown(&x);
}

int main(void)
{
	test_prometheus();
	test_openmetrics();
	return tap_done();
}
