// SPDX-License-Identifier: GPL-2.0
/*
 * --json: the result of top or hist as one JSON object, for scripts and
 * tests. All times are in nanoseconds; timestamps are the trace clock's
 * (CLOCK_MONOTONIC).
 */
#include <stdio.h>

#include "fairsrv.h"

/* A JSON string: quotes, backslashes and control characters escaped. */
static void string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* "key":value for an unsigned number, with a leading comma if @comma. */
static void num(FILE *f, bool comma, const char *key, uint64_t v)
{
	fprintf(f, "%s\"%s\":%llu", comma ? "," : "", key,
		(unsigned long long)v);
}

/* The members of a statistics object: count, total, min, avg and max. */
static void stat_members(FILE *f, const struct fs_stat *st)
{
	num(f, false, "count", st->count);
	num(f, true, "total_ns", st->sum);
	num(f, true, "min_ns", st->count ? st->min : 0);
	num(f, true, "avg_ns", fs_stat_avg(st));
	num(f, true, "max_ns", st->max);
}

/* A histogram's statistics object, with its samples over the range. */
static void stat_json(FILE *f, const char *name, const struct fs_hist *h)
{
	fprintf(f, ",\"%s\":{", name);
	stat_members(f, &h->stat);
	num(f, true, "over", h->over);
	fprintf(f, "}");
}

/* A task: pid and comm; with its priority for a holder. */
static void task(FILE *f, const struct fs_task *t, bool prio)
{
	fprintf(f, "{\"pid\":%d,\"comm\":", t->pid);
	string(f, t->comm);
	if (prio)
		fprintf(f, ",\"prio\":%d,\"class\":\"%s\",\"rt_priority\":%d",
			t->prio, fs_prio_class(t->prio), fs_prio_rt(t->prio));
	fprintf(f, "}");
}

/* A task that held the CPU, and for how long. */
static void hold(FILE *f, const struct fs_hold *h)
{
	fprintf(f, "{\"task\":");
	task(f, &h->task, true);
	num(f, true, "ns", h->ns);
	fprintf(f, "}");
}

/* One starvation episode, with its waits and holders. */
static void episode(FILE *f, const struct fs_episode *ep)
{
	unsigned int i;

	fprintf(f, "{\"cpu\":%d", ep->cpu);
	num(f, true, "start_ns", ep->start);
	num(f, true, "ns", ep->ns);
	fprintf(f, ",\"open\":%s,\"start_known\":%s,\"end\":\"%s\",\"ran\":",
		ep->end == FS_END_OPEN ? "true" : "false",
		ep->start_known ? "true" : "false", fs_end_why_name(ep->end));
	if (ep->ran.pid)
		task(f, &ep->ran, false);
	else
		fprintf(f, "null");
	fprintf(f, ",\"server_at_start\":\"%s\",\"boosted\":%s,\"waits\":[",
		fs_state_name(ep->server_at_start),
		ep->boosted ? "true" : "false");
	for (i = 0; i < ep->nr_waits; i++) {
		const struct fs_wait *w = &ep->waits[i];

		fprintf(f, "%s{\"task\":", i ? "," : "");
		task(f, &w->task, false);
		fprintf(f, ",\"why\":\"%s\"", fs_wait_why_name(w->why));
		num(f, true, "since_ns", w->since);
		num(f, true, "ns", w->ns);
		fprintf(f, ",\"end\":\"%s\"}", fs_end_why_name(w->end));
	}
	fprintf(f, "]");
	num(f, true, "more_waits", ep->more_waits);
	num(f, true, "unnamed_waits", ep->unnamed_waits);
	fprintf(f, ",\"holders\":[");
	for (i = 0; i < ep->nr_holds; i++) {
		fprintf(f, "%s", i ? "," : "");
		hold(f, &ep->holds[i]);
	}
	fprintf(f, "]");
	num(f, true, "other_holders_ns", ep->other_hold_ns);
	fprintf(f, "}");
}

/* The fair starvation of a CPU (or ALL). */
static void starvation(FILE *f, const struct fs_report *r,
		       const struct fs_cpu *c)
{
	const struct fs_starve *s = &c->st;
	struct fs_hold top;
	int i;

	fprintf(f, ",\"starvation\":{");
	stat_members(f, &s->hist.stat);
	num(f, true, "over", s->hist.over);
	num(f, true, "partial", s->partial);
	num(f, true, "dropped", s->dropped);
	num(f, true, "orphans", s->orphans);
	num(f, true, "starved_ns", s->total_ns);
	fprintf(f, ",\"ends\":{");
	for (i = FS_END_RAN; i < FS_END_NR; i++)
		fprintf(f, "%s\"%s\":%llu", i > FS_END_RAN ? "," : "",
			fs_end_why_name(i), (unsigned long long)s->ends[i]);
	fprintf(f, "},\"open\":");
	if (c->cpu >= 0 && s->open && r->final)
		episode(f, &s->ep);
	else
		fprintf(f, "null");
	fprintf(f, ",\"top_holder\":");
	if (fs_starve_top_holder(s, r->now, &top))
		hold(f, &top);
	else
		fprintf(f, "null");
	fprintf(f, "}");
}

/* One CPU (or ALL) as a JSON object. */
static void cpu_json(FILE *f, const struct fs_report *r,
		     const struct fs_cpu *c)
{
	const struct fs_server *s = &c->srv;

	if (c->cpu < 0)
		fprintf(f, "{\"cpu\":\"ALL\"");
	else
		fprintf(f, "{\"cpu\":%d,\"state\":\"%s\",\"dl_runtime_ns\":%llu,\"dl_period_ns\":%llu",
			c->cpu, fs_state_name(s->state),
			(unsigned long long)s->dl_runtime,
			(unsigned long long)s->dl_period);
	num(f, true, "boosts", s->boosts);
	num(f, true, "idle_boosts", s->idle_boosts);
	num(f, true, "unstarved_boosts", c->st.unstarved_boosts);
	num(f, true, "defers", s->count[FS_EV_DEFER]);
	num(f, true, "postponements", s->count[FS_EV_POSTPONE]);
	num(f, true, "throttles", s->count[FS_EV_THROTTLE]);
	num(f, true, "replenishments", s->count[FS_EV_REPLENISH]);
	num(f, true, "starts", s->count[FS_EV_START]);
	num(f, true, "stops", s->count[FS_EV_STOP]);
	num(f, true, "idle", s->count[FS_EV_IDLE]);
	if (r->caps->params) {
		num(f, true, "params", s->count[FS_EV_PARAMS]);
		num(f, true, "refused", s->refused);
	} else {
		fprintf(f, ",\"params\":null,\"refused\":null");
	}
	num(f, true, "invalid", c->invalid);
	num(f, true, "lost_marks", c->lost_marks);
	num(f, true, "offline_ns", c->offline_ns);
	num(f, true, "served_ns", s->served_total);
	if (r->caps->starvation)
		starvation(f, r, c);
	else
		fprintf(f, ",\"starvation\":null");
	stat_json(f, "server_wait", &s->wait);
	stat_json(f, "rt_preempted", &s->preempt);
	fprintf(f, ",\"served_per_boost\":{");
	stat_members(f, &s->served_boost);
	fprintf(f, "}}");
}

/* The fair tasks that waited, the longest wait first. */
static void tasks(FILE *f, const struct fs_report *r)
{
	size_t i;

	fprintf(f, ",\"tasks\":[");
	for (i = 0; i < r->nr_tasks; i++) {
		const struct fs_task_waits *t = &r->tasks[i];

		fprintf(f, "%s{\"task\":", i ? "," : "");
		task(f, &t->task, false);
		fprintf(f, ",\"cpu\":%d,", t->cpu);
		stat_members(f, &t->wait);
		num(f, true, "max_at_ns", t->max_at);
		fprintf(f, "}");
	}
	fprintf(f, "]");
	num(f, true, "other_tasks", r->other_tasks);
}

/* A number, or null if not known. */
static void num_or_null(FILE *f, const char *key, bool known, uint64_t v)
{
	if (known)
		num(f, true, key, v);
	else
		fprintf(f, ",\"%s\":null", key);
}

/*
 * The recorded row's check: whether it agrees with what the run measured
 * (null if not checked), and those figures.
 */
static void recorded(FILE *f, const struct fs_whatif_row *x)
{
	const struct fs_whatif_measured *m = &x->measured;

	fprintf(f, ",\"recorded_agrees\":%s",
		!x->checked ? "null" : x->agrees ? "true" : "false");
	if (!x->checked)
		return;
	fprintf(f, ",\"measured\":{");
	num(f, false, "window_ns", m->window_ns);
	num_or_null(f, "worst_ns", m->starve, m->worst_ns);
	num(f, true, "rt_per_s_ns",
	    (uint64_t)((__int128)m->rt_ns * 1000000000 / m->window_ns));
	fprintf(f, ",\"rt_upper_bound\":%s", m->rt_bound ? "true" : "false");
	num(f, true, "boosts", m->boosts);
	fprintf(f, ",\"agrees\":{\"starvation\":%s,\"rt_preemption\":%s,\"boosts\":%s}}",
		x->check.starve ? "true" : "false",
		x->check.rt ? "true" : "false",
		x->check.boosts ? "true" : "false");
}

/*
 * The advice's admission (the bandwidth its root domain had free for the
 * server, null if not known or unlimited) and its writes, in order.
 */
static void advised(FILE *f, const struct fs_whatif_row *x)
{
	const struct fs_apply *a = &x->apply;
	unsigned int i;

	fprintf(f, ",\"admission\":{\"checked\":%s,\"room_bw\":",
		x->room_known ? "true" : "false");
	if (x->room_known && x->room_bw != UINT64_MAX)
		fprintf(f, "%llu", (unsigned long long)x->room_bw);
	else
		fprintf(f, "null");
	fprintf(f, ",\"lost\":%s}", x->rd_lost ? "true" : "false");
	fprintf(f, ",\"recorded_disagrees\":%s",
		x->disagrees ? "true" : "false");
	if (x->kind == FS_WHATIF_NONE)
		return;
	fprintf(f, ",\"writes\":[");
	for (i = 0; i < a->nr; i++) {
		bool runtime = (i == 0) == a->runtime_first;

		fprintf(f, "%s{\"file\":\"%s\",\"value\":%llu}", i ? "," : "",
			runtime ? "runtime" : "period",
			(unsigned long long)(runtime ? x->w.runtime :
						       x->w.period));
	}
	fprintf(f, "],\"writes_safe\":%s", a->safe ? "true" : "false");
}

/* --what-if and --target-starvation: the replays, then the advice. */
static void what_if(FILE *f, const struct fs_report *r)
{
	size_t i;

	if (!r->nr_what_if)
		return;
	fprintf(f, ",\"what_if\":{\"rules\":\"%s\",\"kernel\":",
		fs_whatif_rules_name(r->rules));
	string(f, r->kernel);
	num(f, true, "tick_ns", r->tick_ns);
	num(f, true, "lost", r->load_lost);
	num(f, true, "target_ns", r->p->target_ns);
	num(f, true, "margin_pct", FS_ADVICE_MARGIN);
	fprintf(f, ",\"replays\":[");
	for (i = 0; i < r->nr_what_if; i++) {
		const struct fs_whatif_row *x = &r->what_if[i];
		const struct fs_whatif *w = &x->w;

		fprintf(f, "%s{\"cpu\":%d,\"setting\":\"%s\"", i ? "," : "",
			x->cpu, fs_whatif_kind_name(x->kind));
		if (x->kind != FS_WHATIF_NONE) {
			num(f, true, "runtime_ns", w->runtime);
			num(f, true, "period_ns", w->period);
			num(f, true, "window_ns", w->window_ns);
			num(f, true, "fair_ns", w->fair_ns);
			num(f, true, "boosts", w->boosts);
			fprintf(f, ",\"censored\":%s",
				w->censored ? "true" : "false");
			num(f, true, "missing_demand_ns", w->missing_ns);
			num(f, true, "hidden_demand_ns", w->waited_ns);
			fprintf(f, ",\"rt_displaced\":%s",
				!w->rt_displaced ? "null" :
				w->rt_over ? "\"over\"" : "\"under\"");
			num(f, true, "rt_displaced_demand_ns",
			    w->rt_displaced_ns);
			fprintf(f, ",\"tick_bound\":%s",
				w->tick_bound ? "true" : "false");
			fprintf(f, ",\"starvation\":{");
			stat_members(f, &w->starve);
			num(f, true, "open_ns", w->starve_open);
			num(f, true, "worst_ns", fs_whatif_worst(w));
			fprintf(f, "},\"rt_preemption\":{");
			stat_members(f, &w->preempt);
			num(f, true, "per_s_ns", fs_whatif_preempt_rate(w));
			fprintf(f, "}");
		}
		if (x->kind == FS_WHATIF_RECORDED)
			recorded(f, x);
		if (x->kind == FS_WHATIF_ADVISED || x->kind == FS_WHATIF_NONE)
			advised(f, x);
		fprintf(f, "}");
	}
	fprintf(f, "]}");
}

/* Print the whole run as JSON. */
int fs_json_print(const struct fs_report *r, FILE *f)
{
	const struct fs_params *p = r->p;
	bool first = true;
	size_t i;
	int cpu;

	fprintf(f, "{\"tool\":\"rtla fairsrv %s\",\"version\":\"%s\"",
		p->mode == FS_MODE_HIST ? "hist" : "top", FS_VERSION);
	num(f, true, "start_ns", r->start_ns);
	num(f, true, "duration_ns", r->elapsed_ns);
	num(f, true, "events", r->events);
	fprintf(f, ",\"source\":\"%s\"", r->caps->source);
	fprintf(f, ",\"lost\":%lld,\"lost_unknown\":%s", r->lost,
		r->lost_unknown ? "true" : "false");
	num(f, true, "late", r->late);
	fprintf(f, ",\"threshold_hit\":%s,\"threshold_crossings\":%lu,\"starvation_measured\":%s,\"rt_wait_measured\":%s,\"cpus\":[",
		r->threshold_hit ? "true" : "false", r->crossings,
		r->caps->starvation ? "true" : "false",
		r->caps->rt_wait ? "true" : "false");
	fs_for_each_cpu(cpu, &p->cpus) {
		if (!first)
			fprintf(f, ",");
		first = false;
		cpu_json(f, r, &r->cpus[cpu]);
	}
	fprintf(f, "],\"all\":");
	cpu_json(f, r, r->all);
	tasks(f, r);
	fprintf(f, ",\"worst\":[");
	for (i = 0; i < r->nr_worst; i++) {
		fprintf(f, "%s", i ? "," : "");
		episode(f, &r->worst[i]);
	}
	fprintf(f, "]");
	what_if(f, r);
	fprintf(f, "}\n");
	return ferror(f) ? -1 : 0;
}
