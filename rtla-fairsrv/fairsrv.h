/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla fairsrv: shared declarations of the command. The pure logic (model,
 * histograms, parsers) lives in lib/; this directory does the I/O.
 */
#ifndef FAIRSRV_H
#define FAIRSRV_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <signal.h>

#include "parse.h"
#include "model.h"
#include "order.h"

enum fs_mode { FS_MODE_TOP, FS_MODE_HIST };

#define FS_MAX_EXTRA_EVENTS	16

/* An extra event for the saved trace (-e), with its filter and trigger. */
struct fs_extra_event {
	char *system;		/* NULL: all systems */
	char *name;		/* NULL: all events of the system */
	const char *filter;
	const char *trigger;
};

/* Everything the options set. */
struct fs_params {
	enum fs_mode mode;
	const char *prog;		/* "rtla fairsrv top", for messages */
	struct fs_cpuset cpus;		/* CPUs to report */
	int nr_cpus;			/* CPUs the system has */
	struct fs_cpuset hk_cpus;	/* -H */
	bool hk;
	uint64_t duration_s;		/* 0: until interrupted */
	uint64_t threshold_ns;		/* 0: none */
	bool debug, quiet, json;
	const char *trace_file;		/* -t; NULL: do not save */
	struct fs_extra_event events[FS_MAX_EXTRA_EVENTS];
	int nr_events;
	uint64_t buffer_kb;		/* 0: kernel default */
	/* hist */
	uint64_t bucket_ns;
	unsigned int entries;
	bool no_header, no_summary, no_index, with_zeros;
};

/* Exit codes, as newer rtla has them. */
#define FS_EXIT_OK		0
#define FS_EXIT_ERROR		1
#define FS_EXIT_THRESHOLD	2

/* cli.c */
int fs_parse_args(int argc, char **argv, enum fs_mode mode,
		  struct fs_params *p);
void fs_usage(enum fs_mode mode, FILE *f);
void fs_free_params(struct fs_params *p);

/* Per-run state shared by the collector and the renderers. */
struct fs_run {
	const struct fs_params *p;
	struct fs_cpu *cpus;		/* indexed by CPU number, nr_cpus */
	struct fs_order order;		/* events not yet fed, by timestamp */
	uint64_t start_ts;		/* first event or start, trace ns */
	uint64_t last_ts;
	uint64_t wall_start_ns;		/* CLOCK_MONOTONIC */
	uint64_t elapsed_ns;
	uint64_t events;		/* fair server events decoded */
	long long lost;			/* events the buffers dropped */
	long long overrun;		/* overwritten, per the CPU stats */
	bool lost_unknown;		/* some drops were not counted */
	bool threshold_hit;
	int hit_cpu;
	const char *hit_what;
	uint64_t hit_ns;
};

/* trace.c */
struct fs_trace;
struct fs_trace *fs_trace_open(const struct fs_params *p);
int fs_trace_start(struct fs_trace *t);
int fs_trace_collect(struct fs_trace *t, struct fs_run *run);
int fs_trace_stop(struct fs_trace *t, struct fs_run *run);
int fs_trace_save(struct fs_trace *t, const char *file);
void fs_trace_close(struct fs_trace *t);
void fs_trace_cleanup_stale(void);

/* run.c */
extern volatile sig_atomic_t fs_stop;
int fs_run_queue(struct fs_run *run, const struct fs_event *ev);
int fs_main(int argc, char **argv, enum fs_mode mode);

/* top.c, hist.c, json.c */
void fs_top_print(const struct fs_run *run, bool final);
void fs_hist_print(const struct fs_run *run);
void fs_json_print(const struct fs_run *run);

/*
 * Events lost: the drops the records reported, or the buffers' overrun
 * counters if those saw more (they also count drops no record followed).
 * Both count the same drops, so they are never added.
 */
static inline long long fs_run_lost(const struct fs_run *run)
{
	return run->overrun > run->lost ? run->overrun : run->lost;
}

/* "days hh:mm:ss", as rtla prints durations. */
void fs_print_duration(uint64_t ns);

/* Sum of all selected CPUs' models, for the ALL row. */
int fs_run_total(const struct fs_run *run, struct fs_cpu *all);

/* Messages: errors always, debug with -D. */
void fs_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fs_verr(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
void fs_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern bool fs_debug_on;
extern const char *fs_prog;

#endif
