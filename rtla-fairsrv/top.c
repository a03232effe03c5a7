// SPDX-License-Identifier: GPL-2.0
/*
 * rtla fairsrv top: a per-CPU table refreshed every second, and once more
 * at the end.
 */
#include <stdio.h>
#include <unistd.h>

#include "fairsrv.h"

/* ns as milliseconds with one decimal, right-aligned in @w columns. */
static void ms(uint64_t ns, int w)
{
	printf(" %*.1f", w, (double)ns / 1e6);
}

/* Print the "days hh:mm:ss" duration rtla prints. */
void fs_print_duration(uint64_t ns)
{
	uint64_t s = ns / 1000000000ULL;

	printf("%llu %02llu:%02llu:%02llu", (unsigned long long)(s / 86400),
	       (unsigned long long)(s / 3600 % 24),
	       (unsigned long long)(s / 60 % 60), (unsigned long long)(s % 60));
}

/* Like ms(), but "-" when there is no sample, as hist prints it. */
static void sample_ms(const struct fs_stat *st, uint64_t ns, int w)
{
	if (st->count)
		ms(ns, w);
	else
		printf(" %*s", w, "-");
}

/* One row: counters, served time, starvation and RT preemption. */
static void row(const char *label, const struct fs_cpu *c, bool state)
{
	const struct fs_stat *sv = &c->starvation.stat, *pr = &c->preempt.stat;

	printf("%4s %-5s %6llu %6llu %6llu %6llu %6llu", label,
	       state ? fs_state_letter(c->state) : "",
	       (unsigned long long)c->boosts,
	       (unsigned long long)c->count[FS_EV_DEFER],
	       (unsigned long long)c->count[FS_EV_POSTPONE],
	       (unsigned long long)c->count[FS_EV_THROTTLE],
	       (unsigned long long)c->count[FS_EV_REPLENISH]);
	ms(c->served_total, 9);
	printf(" |");
	sample_ms(sv, sv->min, 7);
	sample_ms(sv, fs_stat_avg(sv), 7);
	sample_ms(sv, sv->max, 7);
	printf(" |");
	ms(pr->sum, 9);
	sample_ms(pr, pr->max, 7);
	printf(" | %llu\n", (unsigned long long)c->invalid);
}

/* Print the table; @final for the last one, which is never cleared. */
void fs_top_print(const struct fs_run *run, bool final)
{
	const struct fs_params *p = run->p;
	bool tty = isatty(STDOUT_FILENO);
	struct fs_cpu all;
	int cpu;

	if (tty && !final)
		printf("\033[H\033[2J");
	if (tty)
		printf("\033[7m");
	printf("%-46s%s", "  Fair server (dl_server) statistics", "");
	printf("  duration ");
	fs_print_duration(run->elapsed_ns);
	if (tty)
		printf("\033[0m");
	printf("\n");
	printf("events %llu  lost %lld%s  (A:init B:zero_laxity-wait D:running E:replenish-wait)\n",
	       (unsigned long long)run->events, fs_run_lost(run),
	       run->lost_unknown ? "+" : "");
	printf("%4s %-5s %6s %6s %6s %6s %6s %10s | %23s | %17s | %s\n", "", "",
	       "", "", "", "", "", "served", "starvation (ms)",
	       "RT preempted (ms)", "");
	printf("%4s %-5s %6s %6s %6s %6s %6s %10s | %7s %7s %7s | %9s %7s | %s\n",
	       "CPU", "STATE", "BOOST", "DEFER", "POSTP", "THROT", "REPLN",
	       "(ms)", "min", "avg", "max", "total", "max", "INVAL");
	for (cpu = fs_cpuset_next(&p->cpus, 0); cpu >= 0;
	     cpu = fs_cpuset_next(&p->cpus, cpu + 1)) {
		char label[16];

		snprintf(label, sizeof(label), "%d", cpu);
		row(label, &run->cpus[cpu], true);
	}
	if (!fs_run_total(run, &all))
		row("ALL", &all, false);
	fs_cpu_free(&all);
	fflush(stdout);
}
