/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strict parsers for command-line values: CPU lists, durations, time
 * values and plain numbers. They never print; on error they return -1
 * and leave a one-line reason in the caller's buffer.
 */
#ifndef FAIRSRV_PARSE_H
#define FAIRSRV_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "text.h"

/* CPUs the sets can hold; the tool refuses a system with more. */
#define FS_MAX_CPUS	8192
#define FS_ERRLEN	128

/* A set of CPU numbers, 0 .. FS_MAX_CPUS - 1. */
struct fs_cpuset {
	uint64_t bits[FS_MAX_CPUS / 64];
};

void fs_cpuset_zero(struct fs_cpuset *set);
void fs_cpuset_set(struct fs_cpuset *set, int cpu);
bool fs_cpuset_isset(const struct fs_cpuset *set, int cpu);
int fs_cpuset_count(const struct fs_cpuset *set);
/* Next CPU in the set at or after @cpu, or -1. */
int fs_cpuset_next(const struct fs_cpuset *set, int cpu);

/* Every CPU of @set, in ascending order. */
#define fs_for_each_cpu(cpu, set)					\
	for ((cpu) = fs_cpuset_next((set), 0); (cpu) >= 0;		\
	     (cpu) = fs_cpuset_next((set), (cpu) + 1))

/*
 * Parse a CPU list such as "0-3,6,8-9" into @set. Every CPU must be below
 * @nr_cpus (the CPUs the system has). Ranges must be ascending (a-b with
 * a <= b); duplicates are allowed. Empty strings, empty elements ("1,,2"),
 * signs, spaces, trailing garbage and numbers >= @nr_cpus are errors.
 */
int fs_parse_cpus(const char *str, int nr_cpus, struct fs_cpuset *set,
		  char err[FS_ERRLEN]);

/*
 * Parse a duration for -d: a positive whole number with an optional unit
 * s (default), m, h or d. Result in seconds, at most FS_MAX_DURATION_S
 * (its nanoseconds must fit in 64 bits). 0, negatives, overflow,
 * fractions, unknown units and trailing garbage are errors.
 */
#define FS_MAX_DURATION_S	(UINT64_MAX / 1000000000ULL)
int fs_parse_duration(const char *str, uint64_t *seconds, char err[FS_ERRLEN]);

/*
 * Parse a time value for -T and -b: a positive whole number with an
 * optional unit ns, us (default), ms or s. Result in nanoseconds.
 * 0, negatives, overflow, fractions and unknown units are errors.
 */
int fs_parse_time(const char *str, uint64_t *ns, char err[FS_ERRLEN]);

/*
 * Parse a whole number in [@min, @max] (decimal only). Signs other than a
 * leading '-' for negative ranges, spaces, empty strings, overflow and
 * trailing garbage are errors.
 */
int fs_parse_long(const char *str, long min, long max, long *val,
		  char err[FS_ERRLEN]);

/*
 * Parse a size for --trace-buffer-size: a positive whole number of
 * kilobytes with an optional unit k (default), m or g. Result in KiB.
 */
int fs_parse_size_kb(const char *str, uint64_t *kb, char err[FS_ERRLEN]);

/* A fair server setting, for --what-if. */
struct fs_setting {
	uint64_t runtime;	/* ns; 0: the server disabled */
	uint64_t period;	/* ns */
};

#define FS_MAX_SETTINGS		8
/* The periods the kernel accepts (fair_server_period_min and _max). */
#define FS_PERIOD_MIN_NS	(100 * 1000ULL)
#define FS_PERIOD_MAX_NS	((1ULL << 22) * 1000)

/*
 * Parse "RUNTIME/PERIOD[,RUNTIME/PERIOD...]", each a time as -T takes it
 * (a runtime may also be 0: disabled), at most FS_MAX_SETTINGS of them,
 * into @set and @nr. The period must be one the kernel takes, the runtime
 * no longer than it.
 */
int fs_parse_settings(const char *str, struct fs_setting *set,
		      unsigned int *nr, char err[FS_ERRLEN]);

/* An action of --on-threshold or --on-end, as rtla has them. */
enum fs_action_type {
	FS_ACT_TRACE,		/* save the trace (-t's instance) */
	FS_ACT_SIGNAL,		/* send a signal */
	FS_ACT_SHELL,		/* run a shell command */
	FS_ACT_CONTINUE,	/* go on measuring (threshold only) */
};

struct fs_action {
	enum fs_action_type type;
	const char *file;	/* trace: NULL for the default file */
	int signal;		/* signal: its number */
	int pid;		/* signal: its target; 0 for the parent */
	const char *command;	/* shell */
};

/*
 * Parse an action: "trace[,file=FILE]", "signal,num=N,pid=PID|parent",
 * "shell,command=CMD" or "continue". file= and command= take the rest of
 * the string, commas included. @a points into @str.
 */
int fs_parse_action(const char *str, struct fs_action *a,
		    char err[FS_ERRLEN]);


#endif
