// SPDX-License-Identifier: GPL-2.0
/*
 * Auto-analysis of a threshold crossing. See explain.h.
 */
#include <inttypes.h>
#include <stdio.h>

#include "explain.h"

#define MS(ns)	((unsigned long long)(ns) / 1000000), \
		((unsigned int)((ns) % 1000000 / 10000))
#define SECS(ns) ((unsigned long long)(ns) / 1000000000), \
		 ((unsigned int)((ns) % 1000000000 / 1000))

/* Why the server did not boost, from the state it was in. */
const char *fs_explain_no_boost(enum fs_state state)
{
	switch (state) {
	case FS_ST_OFF:
		return "the server is disabled (runtime 0): it never boosts, so fair tasks wait as long as higher classes run";
	case FS_ST_ZL_WAIT:
		return "the server is deferred: it boosts only at its zero-laxity time, period - runtime after it was armed";
	case FS_ST_REPL_WAIT:
		return "the server used up its runtime in this period: it is throttled until the next one";
	case FS_ST_RUNNING:
		return "the server runs now: the next pick of a fair task ends the episode";
	case FS_ST_INIT:
		return "the server is not started: no fair task was queued when it last looked";
	case FS_ST_OFFLINE:
		return "the CPU is offline";
	default:
		return "the server's state is not known (no event of it since the start, or events were lost)";
	}
}

/* A task as fs_task_label() names it. */
static void task(FILE *f, const struct fs_task *t)
{
	char buf[FS_COMM_LEN + 16];

	fs_task_label(buf, sizeof(buf), t);
	fputs(buf, f);
}

/* Who waited, and how each wait began and ended. */
static void waiters(const struct fs_episode *ep, FILE *f)
{
	unsigned int i;

	fputs("  Waited:", f);
	for (i = 0; i < ep->nr_waits; i++) {
		const struct fs_wait *w = &ep->waits[i];

		fputs(i ? ", " : " ", f);
		task(f, &w->task);
		fprintf(f, " (%s at +%llu.%02u ms, %s)", fs_wait_why_name(w->why),
			MS(w->since - ep->start),
			w->end == FS_END_OPEN ? "still waiting" :
						fs_end_why_name(w->end));
	}
	if (!ep->nr_waits)
		fputs(" fair tasks the kernel did not name", f);
	if (ep->more_waits)
		fprintf(f, ", %llu more", (unsigned long long)ep->more_waits);
	if (ep->unnamed_waits)
		fprintf(f, ", %llu unnamed", (unsigned long long)ep->unnamed_waits);
	fputc('\n', f);
}

/* Who held the CPU, the longest first, with their share of @ns. */
static void holders(const struct fs_episode *ep, uint64_t ns, FILE *f)
{
	unsigned int i;
	char prio[16];

	fputs("  Held by:", f);
	for (i = 0; i < ep->nr_holds; i++) {
		const struct fs_hold *h = &ep->holds[i];

		fputs(i ? ", " : " ", f);
		task(f, &h->task);
		fs_prio_label(prio, sizeof(prio), h->task.prio);
		fprintf(f, " (%s) %llu.%02u ms", prio, MS(h->ns));
		if (ns)
			fprintf(f, " (%llu%%)",
				(unsigned long long)(h->ns * 100 / ns));
	}
	if (!ep->nr_holds)
		fputs(" not named", f);
	if (ep->other_hold_ns)
		fprintf(f, ", others %llu.%02u ms", MS(ep->other_hold_ns));
	fputc('\n', f);
}

/* The server's states through the episode, and why it boosted or not. */
static void server(const struct fs_crossing *x, FILE *f)
{
	const struct fs_episode *ep = &x->ep;
	unsigned int i;

	if (x->dl_period)
		fprintf(f, "  Fair server: %llu.%02u ms every %llu.%02u ms\n",
			MS(x->dl_runtime), MS(x->dl_period));
	else
		fputs("  Fair server: parameters not known\n", f);
	for (i = 0; i < ep->nr_server; i++)
		fprintf(f, "    +%llu.%02u ms  %s:%s\n",
			MS(ep->server[i].ts - ep->start),
			fs_state_letter(ep->server[i].state),
			fs_state_name(ep->server[i].state));
	if (ep->more_server)
		fprintf(f, "    and %llu more changes\n",
			(unsigned long long)ep->more_server);
	if (ep->boosted) {
		fputs("  The server boosted during the episode", f);
		if (ep->end == FS_END_SERVED)
			fputs(", and its pick of a fair task ended it", f);
		fputs(".\n", f);
		return;
	}
	fprintf(f, "  No boost: %s", fs_explain_no_boost(x->state));
	if (x->state == FS_ST_ZL_WAIT && x->dl_period > x->dl_runtime)
		fprintf(f, " (%llu.%02u ms)", MS(x->dl_period - x->dl_runtime));
	fputs(".\n", f);
}

/* Write the analysis of a crossing. */
int fs_explain(const struct fs_crossing *x, FILE *f)
{
	const struct fs_episode *ep = &x->ep;

	if (x->over == FS_OVER_NONE)
		return 0;
	if (x->over == FS_OVER_PREEMPTION) {
		fprintf(f, "## CPU %d: the fair server kept RT tasks off the CPU for %llu.%02u ms, over the threshold of %llu.%02u ms\n",
			x->cpu, MS(x->ns), MS(x->limit));
		if (x->dl_period)
			fprintf(f, "  A boosted server runs fair tasks for up to its runtime, %llu.%02u ms every %llu.%02u ms: a lower runtime shortens this.\n",
				MS(x->dl_runtime), MS(x->dl_period));
		return ferror(f) ? -1 : 0;
	}
	fprintf(f, "## CPU %d: fair starvation of %llu.%02u ms%s, over the threshold of %llu.%02u ms\n",
		x->cpu, MS(x->ns), x->over == FS_OVER_OPEN ? " (still open)" : "",
		MS(x->limit));
	fprintf(f, "  Began at %llu.%06u%s", SECS(ep->start),
		ep->start_known ? "" : " or before (it was open when seen)");
	if (ep->end == FS_END_OPEN)
		fputs(", still open\n", f);
	else
		fprintf(f, ", ended: %s\n", fs_end_why_name(ep->end));
	waiters(ep, f);
	holders(ep, x->ns, f);
	server(x, f);
	return ferror(f) ? -1 : 0;
}
