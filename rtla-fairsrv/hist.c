// SPDX-License-Identifier: GPL-2.0
/*
 * rtla fairsrv hist: histograms of starvation and RT preemption per CPU,
 * printed at the end in rtla's layout.
 */
#include <stdio.h>

#include "fairsrv.h"

/* The two histograms of a CPU, as columns. */
static const struct fs_hist *kind(const struct fs_cpu *c, int k)
{
	return k == 0 ? &c->starvation : &c->preempt;
}

static const char *const kind_names[] = { "Starv", "RTPre" };

/* The unit the Index column and the statistics are printed in. */
static void unit_of(uint64_t bucket_ns, uint64_t *div, const char **name,
		    const char **longname)
{
	if (bucket_ns % 1000000 == 0) {
		*div = 1000000;
		*name = "ms";
		*longname = "milliseconds";
	} else if (bucket_ns % 1000 == 0) {
		*div = 1000;
		*name = "us";
		*longname = "microseconds";
	} else {
		*div = 1;
		*name = "ns";
		*longname = "nanoseconds";
	}
}

enum { OVER, COUNT, MIN, AVG, MAX };
static const char *const summary_labels[] = {
	"over:", "count:", "min:", "avg:", "max:"
};

/* Print one summary cell of @h: over, count, or a time in the unit. */
static void cell(const struct fs_hist *h, int what, uint64_t div)
{
	const struct fs_stat *st = &h->stat;
	uint64_t v;

	switch (what) {
	case OVER:
		v = h->over;
		break;
	case COUNT:
		v = st->count;
		break;
	default:
		if (!st->count) {
			printf("%10s", "-");
			return;
		}
		v = what == MIN ? st->min : what == AVG ? fs_stat_avg(st) : st->max;
		v /= div;
	}
	printf("%10llu", (unsigned long long)v);
}

/* Print the over/count/min/avg/max lines for every column. */
static void summary(const struct fs_run *run, uint64_t div)
{
	const struct fs_params *p = run->p;
	int cpu, k, what;

	for (what = OVER; what <= MAX; what++) {
		if (!p->no_index)
			printf("%-6s", summary_labels[what]);
		for (cpu = fs_cpuset_next(&p->cpus, 0); cpu >= 0;
		     cpu = fs_cpuset_next(&p->cpus, cpu + 1))
			for (k = 0; k < 2; k++)
				cell(kind(&run->cpus[cpu], k), what, div);
		printf("\n");
	}
}

/* Print the ALL block: every CPU's samples together. */
static void all_block(const struct fs_run *run, uint64_t div)
{
	struct fs_cpu all;
	int k, what;

	if (fs_run_total(run, &all)) {
		fs_cpu_free(&all);
		fs_err("out of memory");
		return;
	}
	printf("ALL:  %10s%10s\n", kind_names[0], kind_names[1]);
	for (what = COUNT; what <= MAX; what++) {
		printf("%-6s", summary_labels[what]);
		for (k = 0; k < 2; k++)
			cell(kind(&all, k), what, div);
		printf("\n");
	}
	fs_cpu_free(&all);
}

/* Print the histogram of the whole run. */
void fs_hist_print(const struct fs_run *run)
{
	const struct fs_params *p = run->p;
	const char *unit, *longunit;
	uint64_t div;
	unsigned int i;
	int cpu, k;

	unit_of(p->bucket_ns, &div, &unit, &longunit);
	if (!p->no_header) {
		printf("# RTLA fairsrv histogram\n");
		printf("# Time unit is %s (%s)\n", longunit, unit);
		printf("# Duration:   ");
		fs_print_duration(run->elapsed_ns);
		printf("\n");
		printf("# Events: %llu   Lost: %lld%s   Invalid transitions:",
		       (unsigned long long)run->events,
		       fs_run_lost(run), run->lost_unknown ? "+" : "");
		for (cpu = fs_cpuset_next(&p->cpus, 0), k = 0; cpu >= 0;
		     cpu = fs_cpuset_next(&p->cpus, cpu + 1))
			k += (int)run->cpus[cpu].invalid;
		printf(" %d\n", k);
		if (!p->no_index)
			printf("%-6s", "Index");
		for (cpu = fs_cpuset_next(&p->cpus, 0); cpu >= 0;
		     cpu = fs_cpuset_next(&p->cpus, cpu + 1))
			for (k = 0; k < 2; k++)
				printf("%6s-%03d", kind_names[k], cpu);
		printf("\n");
	}

	for (i = 0; i < p->entries; i++) {
		uint64_t total = 0;

		for (cpu = fs_cpuset_next(&p->cpus, 0); cpu >= 0;
		     cpu = fs_cpuset_next(&p->cpus, cpu + 1))
			for (k = 0; k < 2; k++)
				total += kind(&run->cpus[cpu], k)->buckets[i];
		if (!total && !p->with_zeros)
			continue;
		if (!p->no_index)
			printf("%-6llu",
			       (unsigned long long)(i * p->bucket_ns / div));
		for (cpu = fs_cpuset_next(&p->cpus, 0); cpu >= 0;
		     cpu = fs_cpuset_next(&p->cpus, cpu + 1))
			for (k = 0; k < 2; k++)
				printf("%10llu", (unsigned long long)
				       kind(&run->cpus[cpu], k)->buckets[i]);
		printf("\n");
	}

	if (p->no_summary)
		return;
	summary(run, div);
	all_block(run, div);
}
