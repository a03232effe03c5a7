// SPDX-License-Identifier: GPL-2.0
/*
 * The what-if table and the advice of hist, as text: one row per CPU and
 * setting, then the debugfs writes that would apply the advice.
 */
#include <string.h>

#include "fairsrv.h"

#define FS_DEBUGFS	"/sys/kernel/debug/sched/fair_server"
#define NS_PER_MS	1e6

/* The name of a row's kind, as the table and the JSON print it. */
const char *fs_whatif_kind_name(enum fs_whatif_kind kind)
{
	static const char *const names[] = {
		[FS_WHATIF_RECORDED]	= "recorded",
		[FS_WHATIF_ASKED]	= "what-if",
		[FS_WHATIF_ADVISED]	= "advised",
		[FS_WHATIF_NONE]	= "none",
	};

	return names[kind];
}

/*
 * One row of the table; its note says what to make of it: the marks of
 * the lines under the table, separated by commas, or "-".
 */
static void row(FILE *f, const struct fs_whatif_row *x)
{
	const struct fs_whatif *w = &x->w;
	double share = w->window_ns ? 100.0 * w->fair_ns / w->window_ns : 0;
	char note[64] = "";

	if (w->censored)
		strcat(note, ",censored");
	if (w->rt_displaced)
		strcat(note, w->rt_over ? ",displaced:over" :
					  ",displaced:under");
	if (x->checked && !x->agrees)
		strcat(note, ",disagrees");
	if (w->tick_bound)
		strcat(note, ",ticks");
	fprintf(f, "%-9s %4d %8.2f %8.2f %8.2f %8.2f %7llu %8.2f %8.2f %8.2f %6.2f %s\n",
		fs_whatif_kind_name(x->kind), x->cpu, w->runtime / NS_PER_MS,
		w->period / NS_PER_MS, fs_whatif_worst(w) / NS_PER_MS,
		fs_whatif_avg(w) / NS_PER_MS,
		(unsigned long long)(w->starve.count + (w->starve_open ? 1 : 0)),
		w->preempt.max / NS_PER_MS, fs_stat_avg(&w->preempt) / NS_PER_MS,
		fs_whatif_preempt_rate(w) / NS_PER_MS, share,
		note[0] ? note + 1 : "-");
}

/* Per second of @w's window, in ms. */
static double per_s_ms(const struct fs_whatif *w, uint64_t ns)
{
	return w->window_ns ? ns * 1e3 / w->window_ns : 0;
}

/*
 * A recorded row that disagrees with what the run measured: the figures
 * that do, each as measured and as replayed.
 */
static void disagrees(FILE *f, const struct fs_whatif_row *x)
{
	const struct fs_whatif_measured *m = &x->measured;
	const struct fs_whatif *w = &x->w;

	fprintf(f, "# CPU %d disagrees: the replay of the setting the run had is not what the run measured:",
		x->cpu);
	if (!x->check.starve)
		fprintf(f, " worst starvation %.2f ms measured, %.2f replayed;",
			m->worst_ns / NS_PER_MS, fs_whatif_worst(w) / NS_PER_MS);
	if (!x->check.rt)
		fprintf(f, " RT preemption %.2f ms/s measured%s, %.2f replayed;",
			m->window_ns ? m->rt_ns * 1e3 / m->window_ns : 0,
			m->rt_bound ? " (an upper bound)" : "",
			per_s_ms(w, w->preempt.sum));
	if (!x->check.boosts)
		fprintf(f, " %llu boosts measured in %.2f s, %llu replayed in %.2f s;",
			(unsigned long long)m->boosts, m->window_ns / 1e9,
			(unsigned long long)w->boosts, w->window_ns / 1e9);
	fprintf(f, " its other rows are suspect, and it gets no advice\n");
}

/*
 * For each CPU with censored rows (a CPU's rows follow each other), what
 * they mean.
 */
static void censored(FILE *f, const struct fs_report *r)
{
	size_t i = 0, j;

	while (i < r->nr_what_if) {
		const struct fs_whatif_row *x = &r->what_if[i];
		uint64_t most = 0;
		bool any = false;

		for (j = i; j < r->nr_what_if && r->what_if[j].cpu == x->cpu;
		     j++) {
			const struct fs_whatif *w = &r->what_if[j].w;

			if (r->what_if[j].kind == FS_WHATIF_NONE || !w->censored)
				continue;
			any = true;
			if (w->missing_ns > most)
				most = w->missing_ns;
		}
		if (any)
			fprintf(f, "# CPU %d, censored: fair tasks that sleep starved while recording, which may have hidden up to %.2f ms a second of their demand; the settings marked starve fair work less, so those tasks would come back sooner and use more (up to %.2f ms a second): starvation and RT preemption are under-predicted there\n",
				x->cpu, per_s_ms(&x->w, x->w.waited_ns),
				per_s_ms(&x->w, most));
		i = j;
	}
}

/*
 * For each CPU with rows whose real-time demand was displaced, what they
 * mean.
 */
static void displaced(FILE *f, const struct fs_report *r)
{
	size_t i = 0, j;

	while (i < r->nr_what_if) {
		const struct fs_whatif_row *x = &r->what_if[i];
		bool any = false;

		for (j = i; j < r->nr_what_if && r->what_if[j].cpu == x->cpu;
		     j++)
			any |= r->what_if[j].kind != FS_WHATIF_NONE &&
			       r->what_if[j].w.rt_displaced;
		if (any)
			fprintf(f, "# CPU %d, displaced: while recording, the server kept real-time tasks that sleep off the CPU for %.2f ms a second, and the replay takes what they wanted as recorded, that wait included; a setting that preempts them less (displaced:over) would have seen them run and sleep sooner: starvation and RT preemption are over-predicted there; one that preempts them more (displaced:under) would have made them want more: under-predicted\n",
				x->cpu, per_s_ms(&x->w, x->w.rt_displaced_ns));
		i = j;
	}
}

/* If any row is tick-bound, what that means. */
static void ticks(FILE *f, const struct fs_report *r)
{
	size_t i;

	for (i = 0; i < r->nr_what_if; i++) {
		if (r->what_if[i].kind == FS_WHATIF_NONE ||
		    !r->what_if[i].w.tick_bound)
			continue;
		fprintf(f, "# ticks: the settings marked have a runtime under %d ticks (%.2f ms each), which the kernel sees run out at the tick after; the replay takes ticks as on time, and a late one lengthens every stint: RT preemption is under-predicted there (a stint may last its runtime and 2 ticks)\n",
			FS_WHATIF_MIN_TICKS, r->tick_ns / NS_PER_MS);
		return;
	}
}

/* One debugfs write of @x's setting: its runtime, or its period. */
static void write_one(FILE *f, const struct fs_whatif_row *x, bool runtime,
		      uint64_t value)
{
	fprintf(f, "echo %llu > " FS_DEBUGFS "/cpu%d/%s\n",
		(unsigned long long)value, x->cpu,
		runtime ? "runtime" : "period");
}

/*
 * The writes that apply @x, in the order fs_whatif_apply() found: where
 * any refusal leaves the old setting, the second write cannot raise the
 * bandwidth; else a comment says how to undo the first.
 */
static void writes(FILE *f, const struct fs_whatif_row *x)
{
	const struct fs_apply *a = &x->apply;
	bool first = a->runtime_first;

	if (!a->nr) {
		fprintf(f, "# (CPU %d already has it)\n", x->cpu);
		return;
	}
	write_one(f, x, first, first ? x->w.runtime : x->w.period);
	if (a->nr < 2)
		return;
	write_one(f, x, !first, first ? x->w.period : x->w.runtime);
	if (!a->safe)
		fprintf(f, "# No order of the two writes is safe here: if the kernel refuses the second, undo the first with: echo %llu > " FS_DEBUGFS "/cpu%d/%s\n",
			(unsigned long long)(first ? x->old_runtime :
						     x->old_period),
			x->cpu, first ? "runtime" : "period");
}

/* What is known of whether the kernel will take @x's writes. */
static void admission(FILE *f, const struct fs_whatif_row *x)
{
	if (!x->room_known)
		fprintf(f, "# The root domain's deadline bandwidth could not be read (/sys/kernel/debug/sched/debug): the kernel may refuse the writes (EBUSY)\n");
	else if (x->room_bw == UINT64_MAX)
		fprintf(f, "# The root domain has no deadline bandwidth limit (sched_rt_runtime_us -1)\n");
	else
		fprintf(f, "# It fits the deadline bandwidth its root domain has free for this server, %.2f%% of a CPU (servers and SCHED_DEADLINE tasks counted, as of the end of the run, the advice above taken as applied)\n",
			100.0 * x->room_bw / (1 << FS_BW_SHIFT));
}

/* The advice of one CPU. */
static void advice(FILE *f, const struct fs_report *r,
		   const struct fs_whatif_row *x)
{
	double target = r->p->target_ns / NS_PER_MS;

	if (x->kind == FS_WHATIF_NONE && x->disagrees) {
		fprintf(f, "# Advice for CPU %d: none, as the replay of the setting the run had disagrees with what the run measured there\n",
			x->cpu);
		return;
	}
	if (x->kind == FS_WHATIF_NONE && x->rd_lost) {
		fprintf(f, "# Advice for CPU %d: none can be applied: its root domain holds less deadline bandwidth than its fair servers have (a 6.12 kernel without the fix loses it at a root-domain rebuild, which even a read of sched_rt_runtime_us makes): the kernel refuses every write (EBUSY)\n",
			x->cpu);
		return;
	}
	if (x->kind == FS_WHATIF_NONE) {
		fprintf(f, "# Advice for CPU %d: no setting tried keeps fair starvation within %.2f ms on this load (with a margin of %d%%)%s\n",
			x->cpu, target, FS_ADVICE_MARGIN,
			x->room_known && x->room_bw != UINT64_MAX ?
			", within the deadline bandwidth its root domain has free" :
			"");
		return;
	}
	fprintf(f, "# Advice for CPU %d: %.2f ms every %.2f ms keeps fair starvation within %.2f ms (predicted %.2f, a margin of %d%% kept) with the least RT preemption. To apply it (not applied):\n",
		x->cpu, x->w.runtime / NS_PER_MS, x->w.period / NS_PER_MS,
		target, fs_whatif_worst(&x->w) / NS_PER_MS, FS_ADVICE_MARGIN);
	admission(f, x);
	writes(f, x);
}

/* Print the what-if table and the advice, if asked for. */
void fs_advice_print(const struct fs_report *r, FILE *f)
{
	size_t i;

	if (!r->nr_what_if)
		return;
	fprintf(f, "# What-if (ms): each CPU's load replayed with the fair server at other settings, by %s's rules.\n",
		fs_whatif_rules_name(r->rules));
	if (r->kernel_other)
		fprintf(f, "# This kernel is %s, whose server's source the rules were not read in: the replays are %s's\n",
			r->kernel[0] ? r->kernel : "unknown",
			fs_whatif_rules_name(r->rules));
	fprintf(f, "# The load is taken as recorded: higher classes want the CPU when they did, fair tasks need the CPU time they used. Tick: ");
	if (r->tick_ns)
		fprintf(f, "%.2f ms\n", r->tick_ns / NS_PER_MS);
	else
		fprintf(f, "not known (runtimes run out on time)\n");
	if (r->load_lost)
		fprintf(f, "# Events were lost %llu times: the load has gaps, and so have the replays\n",
			(unsigned long long)r->load_lost);
	fprintf(f, "Setting    CPU  Runtime   Period StarvMax StarvAvg Starved RTPreMax RTPreAvg  RTPre/s  Fair%% Note\n");
	for (i = 0; i < r->nr_what_if; i++)
		if (r->what_if[i].kind != FS_WHATIF_NONE)
			row(f, &r->what_if[i]);
	censored(f, r);
	displaced(f, r);
	ticks(f, r);
	for (i = 0; i < r->nr_what_if; i++)
		if (r->what_if[i].checked && !r->what_if[i].agrees)
			disagrees(f, &r->what_if[i]);
	for (i = 0; i < r->nr_what_if; i++)
		if (r->what_if[i].kind == FS_WHATIF_ADVISED ||
		    r->what_if[i].kind == FS_WHATIF_NONE)
			advice(f, r, &r->what_if[i]);
}
