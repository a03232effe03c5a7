// SPDX-License-Identifier: GPL-2.0
/*
 * rtla fairsrv hist: per CPU, histograms of fair starvation (Starv), of
 * the fair server's wait (SWait) and of RT preemption (RTPre), printed at
 * the end in rtla's layout.
 */
#include <stdio.h>

#include "fairsrv.h"

enum kind { STARV, SWAIT, RTPRE, NR_KINDS };

static const char *const kind_names[NR_KINDS] = {
	[STARV] = "Starv", [SWAIT] = "SWait", [RTPRE] = "RTPre",
};

/* The histogram of kind @k of a CPU. */
static const struct fs_hist *kind(const struct fs_cpu *c, int k)
{
	return k == STARV ? &c->st.hist : k == SWAIT ? &c->srv.wait :
			    &c->srv.preempt;
}

/* The kinds shown: Starv only when the kernel has its events. */
static int first_kind(const struct fs_report *r)
{
	return r->caps->starvation ? STARV : SWAIT;
}

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

enum { OVER, COUNT, MIN, AVG, MAX, OPEN };
static const char *const summary_labels[] = {
	"over:", "count:", "min:", "avg:", "max:", "open:"
};

/* A time in the unit, or "-" when @have is false. */
static void time_cell(FILE *f, bool have, uint64_t v, uint64_t div)
{
	if (have)
		fprintf(f, "%10llu", (unsigned long long)(v / div));
	else
		fprintf(f, "%10s", "-");
}

/* One summary cell of kind @k of @c. */
static void cell(FILE *f, const struct fs_report *r, const struct fs_cpu *c,
		 int k, int what, uint64_t div)
{
	const struct fs_hist *h = kind(c, k);
	const struct fs_stat *st = &h->stat;

	switch (what) {
	case OVER:
		fprintf(f, "%10llu", (unsigned long long)h->over);
		break;
	case COUNT:
		fprintf(f, "%10llu", (unsigned long long)st->count);
		break;
	case MIN:
		time_cell(f, st->count, st->min, div);
		break;
	case AVG:
		time_cell(f, st->count, fs_stat_avg(st), div);
		break;
	case MAX:
		time_cell(f, st->count, st->max, div);
		break;
	default:
		/* Only a CPU's starvation has an open episode. */
		time_cell(f, k == STARV && c->cpu >= 0 && c->st.open,
			  fs_cpu_open_ns(c, r->now), div);
		break;
	}
}

/* The header: what, the unit, the run, then the column names. */
static void header(FILE *f, const struct fs_report *r, const char *longunit,
		   const char *unit)
{
	const struct fs_params *p = r->p;
	char dur[32];
	int cpu, k;

	fs_fmt_duration(dur, sizeof(dur), r->elapsed_ns);
	fprintf(f, "# RTLA fairsrv histogram\n");
	fprintf(f, "# Time unit is %s (%s)\n", longunit, unit);
	fprintf(f, "# Duration:   %s\n", dur);
	fprintf(f, "# Events: %llu   Lost: %lld%s   Invalid: %llu\n",
		(unsigned long long)r->events, r->lost,
		r->lost_unknown ? "+" : "",
		(unsigned long long)r->all->invalid);
	if (fs_starvation_absent(r))
		fprintf(f, "# Fair starvation: not measured (%s)\n",
			fs_starvation_absent(r));
	if (fs_source_note(r))
		fprintf(f, "# Source: %s\n", fs_source_note(r));
	if (!p->no_index)
		fprintf(f, "%-6s", "Index");
	fs_for_each_cpu(cpu, &p->cpus)
		for (k = first_kind(r); k < NR_KINDS; k++)
			fprintf(f, "%6s-%03d", kind_names[k], cpu);
	fprintf(f, "\n");
}

/* The buckets: one line per bucket with a sample (or all, --with-zeros). */
static void buckets(FILE *f, const struct fs_report *r, uint64_t div)
{
	const struct fs_params *p = r->p;
	unsigned int i;
	int cpu, k;

	for (i = 0; i < p->entries; i++) {
		uint64_t total = 0;

		fs_for_each_cpu(cpu, &p->cpus)
			for (k = first_kind(r); k < NR_KINDS; k++)
				total += kind(&r->cpus[cpu], k)->buckets[i];
		if (!total && !p->with_zeros)
			continue;
		if (!p->no_index)
			fprintf(f, "%-6llu",
				(unsigned long long)(i * p->bucket_ns / div));
		fs_for_each_cpu(cpu, &p->cpus)
			for (k = first_kind(r); k < NR_KINDS; k++)
				fprintf(f, "%10llu", (unsigned long long)
					kind(&r->cpus[cpu], k)->buckets[i]);
		fprintf(f, "\n");
	}
}

/* The over/count/min/avg/max/open lines for every column. */
static void summary(FILE *f, const struct fs_report *r, uint64_t div)
{
	const struct fs_params *p = r->p;
	int cpu, k, what;

	for (what = OVER; what <= OPEN; what++) {
		if (!p->no_index)
			fprintf(f, "%-6s", summary_labels[what]);
		fs_for_each_cpu(cpu, &p->cpus)
			for (k = first_kind(r); k < NR_KINDS; k++)
				cell(f, r, &r->cpus[cpu], k, what, div);
		fprintf(f, "\n");
	}
}

/* The ALL block: every CPU's samples together. */
static void all_block(FILE *f, const struct fs_report *r, uint64_t div)
{
	int k, what;

	fprintf(f, "ALL:  ");
	for (k = first_kind(r); k < NR_KINDS; k++)
		fprintf(f, "%10s", kind_names[k]);
	fprintf(f, "\n");
	for (what = COUNT; what <= MAX; what++) {
		fprintf(f, "%-6s", summary_labels[what]);
		for (k = first_kind(r); k < NR_KINDS; k++)
			cell(f, r, r->all, k, what, div);
		fprintf(f, "\n");
	}
}

/* Who caused the most starvation on each CPU, and the longest episodes. */
static void attribution(FILE *f, const struct fs_report *r, uint64_t div,
			const char *unit)
{
	char who[64], waiter[64];
	uint64_t ns;
	size_t i;
	int cpu;

	fs_for_each_cpu(cpu, &r->p->cpus)
		if (fs_top_holder_label(r, cpu, who, sizeof(who), &ns))
			fprintf(f, "# CPU %d: fair tasks starved most behind %s: %llu %s\n",
				cpu, who, (unsigned long long)(ns / div), unit);
	for (i = 0; i < r->nr_worst; i++) {
		const struct fs_episode *ep = &r->worst[i];

		fs_episode_labels(ep, waiter, who, sizeof(who));
		fprintf(f, "# worst %zu: CPU %d at %.6f, %llu %s%s: %s waited behind %s, %s\n",
			i + 1, ep->cpu, (double)ep->start / 1e9,
			(unsigned long long)(ep->ns / div), unit,
			ep->start_known ? "" : " or more", waiter, who,
			fs_end_why_name(ep->end));
	}
}

/* Print the histograms of the whole run. */
int fs_hist_print(const struct fs_report *r, FILE *f)
{
	const struct fs_params *p = r->p;
	const char *unit, *longunit;
	uint64_t div;

	unit_of(p->bucket_ns, &div, &unit, &longunit);
	if (!p->no_header)
		header(f, r, longunit, unit);
	buckets(f, r, div);
	if (!p->no_summary) {
		summary(f, r, div);
		all_block(f, r, div);
		attribution(f, r, div, unit);
	}
	fs_advice_print(r, f);
	return ferror(f) ? -1 : 0;
}
