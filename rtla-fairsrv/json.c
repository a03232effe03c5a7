// SPDX-License-Identifier: GPL-2.0
/*
 * --json: the result of top or hist as one JSON object, for scripts and
 * tests. All times are in nanoseconds.
 */
#include <stdio.h>

#include "fairsrv.h"

/* The members of a statistics object: count, total, min, avg and max. */
static void stat_members(const struct fs_stat *st)
{
	printf("\"count\":%llu,\"total_ns\":%llu,\"min_ns\":%llu,\"avg_ns\":%llu,\"max_ns\":%llu",
	       (unsigned long long)st->count, (unsigned long long)st->sum,
	       (unsigned long long)(st->count ? st->min : 0),
	       (unsigned long long)fs_stat_avg(st),
	       (unsigned long long)st->max);
}

/* A histogram's statistics object, with its samples over the range. */
static void stat_json(const char *name, const struct fs_hist *h)
{
	printf("\"%s\":{", name);
	stat_members(&h->stat);
	printf(",\"over\":%llu}", (unsigned long long)h->over);
}

/* One CPU (or ALL) as a JSON object. */
static void cpu_json(const struct fs_cpu *c, bool all)
{
	if (all)
		printf("{\"cpu\":\"ALL\",");
	else
		printf("{\"cpu\":%d,\"state\":\"%s\",\"dl_runtime_ns\":%llu,\"dl_period_ns\":%llu,",
		       c->cpu, fs_state_name(c->state),
		       (unsigned long long)c->dl_runtime,
		       (unsigned long long)c->dl_period);
	printf("\"boosts\":%llu,\"defers\":%llu,\"postponements\":%llu,\"throttles\":%llu,\"replenishments\":%llu,",
	       (unsigned long long)c->boosts,
	       (unsigned long long)c->count[FS_EV_DEFER],
	       (unsigned long long)c->count[FS_EV_POSTPONE],
	       (unsigned long long)c->count[FS_EV_THROTTLE],
	       (unsigned long long)c->count[FS_EV_REPLENISH]);
	printf("\"idle_boosts\":%llu,\"untraced_stops\":%llu,",
	       (unsigned long long)c->idle_boosts,
	       (unsigned long long)c->untraced_stops);
	printf("\"starts\":%llu,\"stops\":%llu,\"idle\":%llu,\"params\":%llu,\"invalid\":%llu,\"served_ns\":%llu,",
	       (unsigned long long)c->count[FS_EV_START],
	       (unsigned long long)c->count[FS_EV_STOP],
	       (unsigned long long)c->count[FS_EV_IDLE],
	       (unsigned long long)c->count[FS_EV_PARAMS],
	       (unsigned long long)c->invalid,
	       (unsigned long long)c->served_total);
	stat_json("starvation", &c->starvation);
	printf(",");
	stat_json("rt_preempted", &c->preempt);
	printf(",\"served_per_boost\":{");
	stat_members(&c->served_boost);
	printf("}}");
}

/* Print the whole run as JSON. */
void fs_json_print(const struct fs_run *run)
{
	const struct fs_params *p = run->p;
	struct fs_cpu all;
	int cpu;
	bool first = true;

	printf("{\"tool\":\"rtla fairsrv %s\",\"duration_ns\":%llu,\"events\":%llu,\"lost\":%lld,\"lost_unknown\":%s,\"threshold_hit\":%s,\"cpus\":[",
	       p->mode == FS_MODE_HIST ? "hist" : "top",
	       (unsigned long long)run->elapsed_ns,
	       (unsigned long long)run->events, fs_run_lost(run),
	       run->lost_unknown ? "true" : "false",
	       run->threshold_hit ? "true" : "false");
	for (cpu = fs_cpuset_next(&p->cpus, 0); cpu >= 0;
	     cpu = fs_cpuset_next(&p->cpus, cpu + 1)) {
		if (!first)
			printf(",");
		first = false;
		cpu_json(&run->cpus[cpu], false);
	}
	printf("],\"all\":");
	if (fs_run_total(run, &all))
		printf("null");
	else
		cpu_json(&all, true);
	fs_cpu_free(&all);
	printf("}\n");
	fflush(stdout);
}
