// SPDX-License-Identifier: GPL-2.0
/*
 * campaign-replay: the what-if replay of one CPU's load, off line, from a
 * trace the tool saved (-t, as a failed scenario keeps it). The
 * scheduler's events in it (sched_switch, sched_wakeup(_new),
 * sched_migrate_task) go through lib/load.c as the tool's own recording
 * does, and each setting is replayed as --what-if replays it.
 *
 *   campaign-replay -c CPU -s START_NS -d DURATION_NS [-k TICK_NS] TRACE
 *                   RUNTIME/PERIOD[,RUNTIME/PERIOD...]
 *
 * START_NS and DURATION_NS are the tool's window (its JSON's start_ns and
 * duration_ns), TICK_NS the tick it measured (what_if.tick_ns; 1 ms by
 * default). Prints one line per setting: the worst starvation and when
 * the longest episode that ended did, boosts, RT preemption per second.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "parse.h"
#include "whatif.h"

#define LINE_MAX_LEN	1024

/* One error line, exit 1. */
static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "campaign-replay: %s\n", what);
	exit(1);
}

/* The unsigned number after @key in @s, or -1 if @key is not there. */
static long long field(const char *s, const char *key)
{
	const char *p = strstr(s, key);

	return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

/* The command name after @key in @s, up to " @next", into @t. */
static void comm(const char *s, const char *key, const char *next,
		 struct fs_task *t)
{
	const char *p = strstr(s, key), *e;
	size_t n;

	if (!p)
		return;
	p += strlen(key);
	e = strstr(p, next);
	n = e ? (size_t)(e - p) : strlen(p);
	if (n >= sizeof(t->comm))
		n = sizeof(t->comm) - 1;
	memcpy(t->comm, p, n);
	t->comm[n] = '\0';
}

/*
 * Turn one line of a text trace into @ev: "TASK-PID [CPU] FLAGS
 * SEC.USEC: EVENT: ARGS". False if it is not a scheduler event the
 * recording takes.
 */
static bool parse_line(const char *line, struct fs_event *ev)
{
	static const struct {
		const char *name;
		enum fs_ev type;
	} kinds[] = {
		{ ": sched_switch: ", FS_EV_SWITCH },
		{ ": sched_wakeup: ", FS_EV_WAKEUP },
		{ ": sched_wakeup_new: ", FS_EV_WAKEUP_NEW },
		{ ": sched_migrate_task: ", FS_EV_MIGRATE },
	};
	const char *at = NULL, *args, *ts;
	unsigned long long sec, frac;
	char digits[16];
	size_t i, n;

	memset(ev, 0, sizeof(*ev));
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		at = strstr(line, kinds[i].name);
		if (at)
			break;
	}
	if (!at)
		return false;
	ev->type = kinds[i].type;
	args = at + strlen(kinds[i].name);
	/* The timestamp ends where the event's name begins. */
	for (ts = at; ts > line && ts[-1] != ' '; ts--)
		;
	if (sscanf(ts, "%llu.%15[0-9]", &sec, digits) != 2)
		return false;
	n = strlen(digits);
	frac = strtoull(digits, NULL, 10);
	for (; n < 9; n++)
		frac *= 10;
	ev->ts = sec * 1000000000ULL + frac;
	switch (ev->type) {
	case FS_EV_SWITCH:
		ev->cpu = (int)field(line, "[");
		comm(args, "prev_comm=", " prev_pid=", &ev->from);
		ev->from.pid = (int)field(args, "prev_pid=");
		ev->from.prio = (int)field(args, "prev_prio=");
		/* Preempted ("R+") or yielding ("R") is runnable. */
		ev->from_state = strstr(args, "prev_state=R") ? 0 : 1;
		comm(args, "next_comm=", " next_pid=", &ev->to);
		ev->to.pid = (int)field(args, "next_pid=");
		ev->to.prio = (int)field(args, "next_prio=");
		break;
	case FS_EV_MIGRATE:
		comm(args, "comm=", " pid=", &ev->from);
		ev->from.pid = (int)field(args, " pid=");
		ev->from.prio = (int)field(args, " prio=");
		ev->src_cpu = (int)field(args, "orig_cpu=");
		ev->cpu = (int)field(args, "dest_cpu=");
		break;
	default:
		comm(args, "comm=", " pid=", &ev->from);
		ev->from.pid = (int)field(args, " pid=");
		ev->from.prio = (int)field(args, " prio=");
		ev->cpu = (int)field(args, "target_cpu=");
		break;
	}
	return ev->cpu >= 0;
}

/* A whole number of @what from @s; exits on anything else. */
static unsigned long long number(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end) {
		fprintf(stderr, "campaign-replay: %s: not a number: '%s'\n",
			what, s);
		exit(1);
	}
	return v;
}

int main(int argc, char **argv)
{
	unsigned long long start = 0, duration = 0, tick = 1000000;
	struct fs_setting set[FS_MAX_SETTINGS];
	char line[LINE_MAX_LEN], err[FS_ERRLEN];
	unsigned int nr, i;
	struct fs_loads l;
	struct fs_event ev;
	int cpu = -1, nr_cpus = 0, opt;
	FILE *f;

	while ((opt = getopt(argc, argv, "c:s:d:k:")) != -1) {
		switch (opt) {
		case 'c':
			cpu = (int)number(optarg, "-c");
			break;
		case 's':
			start = number(optarg, "-s");
			break;
		case 'd':
			duration = number(optarg, "-d");
			break;
		case 'k':
			tick = number(optarg, "-k");
			break;
		default:
			die("usage: campaign-replay -c CPU -s START_NS -d DURATION_NS [-k TICK_NS] TRACE RUNTIME/PERIOD[,...]");
		}
	}
	if (cpu < 0 || cpu >= 1024 || !start || !duration || !tick ||
	    argc - optind != 2)
		die("usage: campaign-replay -c CPU -s START_NS -d DURATION_NS [-k TICK_NS] TRACE RUNTIME/PERIOD[,...]");
	if (fs_parse_settings(argv[optind + 1], set, &nr, err))
		die(err);
	f = fopen(argv[optind], "r");
	if (!f) {
		fprintf(stderr, "campaign-replay: %s: %s\n", argv[optind],
			strerror(errno));
		return 1;
	}
	/* The header says how many CPUs the trace holds ("#P:4"). */
	while (fgets(line, sizeof(line), f) && line[0] == '#')
		if (strstr(line, "#P:"))
			nr_cpus = (int)field(line, "#P:");
	if (nr_cpus <= cpu)
		die("the trace's header does not hold that CPU (#P:)");
	if (fs_loads_init(&l, nr_cpus, start))
		die("out of memory");
	do {
		if (!parse_line(line, &ev) || ev.ts > start + duration ||
		    ev.cpu >= nr_cpus || ev.src_cpu >= nr_cpus)
			continue;
		fs_loads_event(&l, &ev);
	} while (fgets(line, sizeof(line), f));
	fclose(f);
	fs_loads_finish(&l, start + duration);
	if (l.failed)
		die("out of memory");
	l.cpu[cpu].tick_ns = tick;
	for (i = 0; i < nr; i++) {
		struct fs_whatif w;

		fs_whatif_replay(&l.cpu[cpu], set[i].runtime, set[i].period,
				 &w);
		printf("cpu %d at %llu/%llu ns: worst starvation %llu ns (the longest that ended, %llu ns, ended at %llu), %llu boosts, RT preemption %llu ns/s\n",
		       cpu, (unsigned long long)set[i].runtime,
		       (unsigned long long)set[i].period,
		       (unsigned long long)fs_whatif_worst(&w),
		       (unsigned long long)w.starve.max,
		       (unsigned long long)w.starve_end,
		       (unsigned long long)w.boosts,
		       (unsigned long long)fs_whatif_preempt_rate(&w));
	}
	fs_loads_free(&l);
	return 0;
}
