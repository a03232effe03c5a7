// SPDX-License-Identifier: GPL-2.0
/*
 * rtla fairsrv top: a per-CPU table, refreshed every second on a terminal
 * (plain refreshes into a pipe or a file), and once more at the end.
 */
#include <stdio.h>
#include <unistd.h>

#include "fairsrv.h"

#define MS(ns)		((double)(ns) / 1e6)

/* A time in ms with one decimal, right-aligned in @w columns; "-" when
 * there is no sample. */
static void cell_ms(FILE *f, bool have, uint64_t ns, int w)
{
	if (have)
		fprintf(f, " %*.1f", w, MS(ns));
	else
		fprintf(f, " %*s", w, "-");
}

/* The fair starvation columns of one row. */
static void starvation(FILE *f, const struct fs_report *r,
		       const struct fs_cpu *c, bool cpu_row)
{
	const struct fs_stat *st = &c->st.hist.stat;

	if (!r->caps->starvation) {
		fprintf(f, " %6s %8s %8s %8s", "-", "-", "-", "-");
		return;
	}
	fprintf(f, " %6llu", (unsigned long long)st->count);
	cell_ms(f, st->count, fs_stat_avg(st), 8);
	cell_ms(f, st->count, st->max, 8);
	/* The open episode: only a CPU's own row has one. */
	cell_ms(f, cpu_row && c->st.open, fs_cpu_open_ns(c, r->now), 8);
}

/* One row: starvation, the server's figures, RT preemption. */
static void row(FILE *f, const struct fs_report *r, const char *label,
		const struct fs_cpu *c, bool cpu_row)
{
	const struct fs_server *s = &c->srv;
	const struct fs_stat *w = &s->wait.stat, *pr = &s->preempt.stat;

	fprintf(f, "%4s %-5s|", label,
		cpu_row ? fs_state_letter(s->state) : "");
	starvation(f, r, c, cpu_row);
	fprintf(f, " | %5llu %5llu %5llu %5llu",
		(unsigned long long)s->boosts,
		(unsigned long long)s->count[FS_EV_DEFER],
		(unsigned long long)s->count[FS_EV_POSTPONE],
		(unsigned long long)s->count[FS_EV_THROTTLE]);
	cell_ms(f, true, s->served_total, 8);
	cell_ms(f, w->count, w->max, 8);
	fprintf(f, " |");
	cell_ms(f, true, pr->sum, 8);
	cell_ms(f, pr->count, pr->max, 6);
	fprintf(f, " | %llu\n", (unsigned long long)c->invalid);
}

/* Under the table: per CPU, the task that caused the most starvation. */
static void holders(FILE *f, const struct fs_report *r)
{
	char who[64];
	uint64_t ns;
	int cpu;

	fs_for_each_cpu(cpu, &r->p->cpus)
		if (fs_top_holder_label(r, cpu, who, sizeof(who), &ns))
			fprintf(f, "CPU %d: fair tasks starved most behind %s: %.1f ms\n",
				cpu, who, MS(ns));
}

/* The longest episodes, one line each (--worst). */
static void worst(FILE *f, const struct fs_report *r)
{
	char waiter[64], holder[64];
	size_t i;

	if (!r->nr_worst)
		return;
	fprintf(f, "longest fair starvation episodes:\n");
	for (i = 0; i < r->nr_worst; i++) {
		const struct fs_episode *ep = &r->worst[i];

		fs_episode_labels(ep, waiter, holder, sizeof(waiter));
		fprintf(f, "  CPU %d at %.6f: %.1f ms%s, %s waited behind %s, %s\n",
			ep->cpu, (double)ep->start / 1e9, MS(ep->ns),
			ep->start_known ? "" : " (or more)", waiter, holder,
			fs_end_why_name(ep->end));
	}
}

/* Print the table; live ones clear a terminal first. */
int fs_top_print(const struct fs_report *r, FILE *f)
{
	bool tty = isatty(STDOUT_FILENO);
	char dur[32];
	int cpu;

	if (tty && !r->final)
		fprintf(f, "\033[H\033[2J");
	fs_fmt_duration(dur, sizeof(dur), r->elapsed_ns);
	fprintf(f, "%s%-62s duration %s%s\n", tty ? "\033[7m" : "",
		"  Fair starvation and the fair server (dl_server)", dur,
		tty ? "\033[0m" : "");
	fprintf(f, "events %llu  lost %lld%s  SRV: A stopped B deferred D serving E throttled\n",
		(unsigned long long)r->events, r->lost,
		r->lost_unknown ? "+" : "");
	/* Group titles centred over the columns of each group. */
	fprintf(f, "%-10s|%-34s|%-47s|%-17s|\n", "",
		"       fair starvation (ms)",
		"              fair server (ms)",
		"  RT preempted");
	fprintf(f, "%4s %-5s| %6s %8s %8s %8s | %5s %5s %5s %5s %8s %8s | %8s %6s | %s\n",
		"CPU", "SRV", "count", "avg", "max", "open", "BOOST", "DEFER",
		"POSTP", "THROT", "served", "wait max", "total", "max",
		"INVAL");
	fs_for_each_cpu(cpu, &r->p->cpus) {
		char label[16];

		snprintf(label, sizeof(label), "%d", cpu);
		row(f, r, label, &r->cpus[cpu], true);
	}
	row(f, r, "ALL", r->all, false);
	if (fs_starvation_absent(r))
		fprintf(f, "fair starvation: not measured (%s)\n",
			fs_starvation_absent(r));
	if (fs_source_note(r))
		fprintf(f, "source: %s\n", fs_source_note(r));
	holders(f, r);
	if (r->final)
		worst(f, r);
	if (!tty && !r->final)
		fprintf(f, "\n");
	return ferror(f) ? -1 : 0;
}
