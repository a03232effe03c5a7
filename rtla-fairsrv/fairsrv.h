/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtla fairsrv: shared declarations of the command. The pure logic (the
 * models, histograms, parsers) lives in lib/; this directory does the I/O.
 * It flows one way: cli.c parses the options, run.c drives the phases,
 * session.c opens a source of events (source.h) that hands decoded events
 * to run.c, which feeds the models and runs the threshold actions
 * (actions.c), and top.c, histogram.c and json.c render a read-only
 * report.
 */
#ifndef FAIRSRV_H
#define FAIRSRV_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"
#include "parse.h"
#include "tasks.h"
#include "whatif.h"

#define FS_VERSION		"0.3"

enum fs_mode { FS_MODE_TOP, FS_MODE_HIST };

#define FS_MAX_EXTRA_EVENTS	16
#define FS_MAX_ACTIONS		16

/* An extra event for the saved trace (-e), with its filter and trigger. */
struct fs_extra_event {
	char *system;		/* NULL: all systems */
	char *name;		/* NULL: all events of the system */
	const char *filter;
	const char *trigger;
};

/* The format of the metrics file (--prometheus, --openmetrics). */
enum fs_metrics_format {
	FS_METRICS_PROMETHEUS,	/* the text format node_exporter reads */
	FS_METRICS_OPENMETRICS,
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
	bool analyze;			/* -a: explain the crossing */
	const char *trace_file;		/* -t; NULL: do not save */
	bool record;			/* -t or a trace action: keep a trace */
	struct fs_action on_threshold[FS_MAX_ACTIONS];
	int nr_on_threshold;
	struct fs_action on_end[FS_MAX_ACTIONS];
	int nr_on_end;
	struct fs_extra_event events[FS_MAX_EXTRA_EVENTS];
	int nr_events;
	uint64_t buffer_kb;		/* 0: kernel default */
	unsigned int worst;		/* --worst: episodes to list */
	bool server_only;		/* --server-only: no starvation events */
	const char *source;		/* --source; NULL: auto */
	const char *metrics_file;	/* --prometheus, --openmetrics */
	enum fs_metrics_format metrics_format;
	/* hist: the what-if replay and the advice (whatif.h) */
	struct fs_setting what_if[FS_MAX_SETTINGS];
	unsigned int nr_what_if;
	uint64_t target_ns;		/* --target-starvation, 0: none */
	/* hist */
	uint64_t bucket_ns;
	unsigned int entries;
	bool no_header, no_summary, no_index, with_zeros;
};

/* Whether the run records each CPU's load: --what-if, --target-starvation. */
static inline bool fs_params_load(const struct fs_params *p)
{
	return p->nr_what_if || p->target_ns;
}

/* Exit codes, as newer rtla has them. */
#define FS_EXIT_OK		0
#define FS_EXIT_ERROR		1
#define FS_EXIT_THRESHOLD	2

/* msg.c: errors always, debug lines with -D. */
extern bool fs_debug_on;
extern const char *fs_prog;
void fs_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fs_verr(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
void fs_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The file -t and the trace action write when not told one. */
#define FS_DEFAULT_TRACE_FILE	"fairsrv_trace.txt"

/* cli.c */
int fs_parse_args(int argc, char **argv, enum fs_mode mode,
		  struct fs_params *p);
void fs_usage(enum fs_mode mode, FILE *f);
void fs_free_params(struct fs_params *p);

/* system.c: what the system says outside tracefs. */
int fs_system_cpus(void);
int fs_system_server(int cpu, uint64_t *runtime, uint64_t *period);
uint64_t fs_system_now(void);
uint64_t fs_system_realtime(void);
void fs_system_release(char *buf, size_t len);
int fs_system_rt_runtime(long long *us);
int fs_system_jiffies(uint64_t *now_ns, uint64_t *jiffies);
uint64_t fs_system_tick_ns(uint64_t ns0, uint64_t j0, uint64_t ns1,
			   uint64_t j1);
int fs_system_runnable(int (*fn)(void *ctx, int cpu, const struct fs_task *t),
		       void *ctx);

/* session.c: the trace session and its source of decoded events. */
struct fs_trace;

/* Receives each decoded event, in the order of each buffer; 0 or -1. */
typedef int (*fs_sink_fn)(void *ctx, const struct fs_event *ev);

/* What the chosen source can show, as its open() found the kernel. */
struct fs_trace_caps {
	const char *source;	/* the name of the one chosen */
	/* What it does not show, in one line; NULL: it shows all. */
	const char *note;
	bool derived;		/* derive.h turns its observations into events */
	/*
	 * The source derives fair starvation and the real-time wait itself
	 * (lib/kderive.h), from the tasks it finds at start on.
	 */
	bool sched_derived;
	bool starvation;	/* fair starvation is measured */
	const char *starve_absent;	/* why not, when it is not */
	bool hotplug;		/* cpuhp_enter */
	bool params;		/* parameter writes are seen */
	bool rt_wait;		/* RT preemption is what RT tasks waited */
	bool load;		/* the scheduler's events, for --what-if */
};

/* sources.c: --source's words ("auto" and each source's name). */
bool fs_source_exists(const char *name);
void fs_source_names(char *buf, size_t len, const char *sep);
void fs_print_version(void);

/* probes.c: the kprobes of the kprobe source. */
struct fs_layout;
struct fs_probes;
struct fs_probes *fs_probes_create(struct fs_layout *l);
void fs_probes_destroy(struct fs_probes *pr);
const char *fs_probes_event(const struct fs_probes *pr, enum fs_ev ev,
			    const char **name, const char **filter);
long long fs_probes_missed(const struct fs_probes *pr);
void fs_probes_cleanup_stale(void);
/* Where a function's entry is caught: its .part copy if it has one. */
int fs_ksym_entry(const char *func, char *sym, size_t len);
/* libbpf's messages: with -D only. */
void fs_libbpf_quiet(void);

struct fs_trace *fs_trace_open(const struct fs_params *p,
			       struct fs_trace_caps *caps);
int fs_trace_start(struct fs_trace *t, uint64_t *on, uint64_t *all);
int fs_trace_collect(struct fs_trace *t, fs_sink_fn sink, void *ctx);
int fs_trace_stop(struct fs_trace *t, fs_sink_fn sink, void *ctx,
		  uint64_t *off);
/* Events the buffers overwrote or dropped, from their counters. */
long long fs_trace_overrun(struct fs_trace *t);
/* Probe hits the kernel missed (kprobe source), -1 if unknown. */
long long fs_trace_missed(struct fs_trace *t);
int fs_trace_save(struct fs_trace *t, const char *file);
/* Pause or resume the recording that -t and the trace action save. */
int fs_trace_record(struct fs_trace *t, bool on);
void fs_trace_close(struct fs_trace *t);
void fs_trace_cleanup_stale(void);

/* A read-only view of a run, for the renderers. */
struct fs_report {
	const struct fs_params *p;
	const struct fs_trace_caps *caps;
	const struct fs_cpu *cpus;	/* indexed by CPU number */
	const struct fs_cpu *all;	/* the selected CPUs together */
	uint64_t now;			/* trace time of the report */
	uint64_t start_ns;		/* the window opened: tracing went on */
	uint64_t elapsed_ns;		/* since then */
	uint64_t events;		/* events decoded */
	long long lost;			/* events the buffers dropped */
	bool lost_unknown;		/* some drops were not counted */
	uint64_t late;			/* events older than one fed before */
	bool final;			/* the end of the run */
	/* Final reports only: the tasks that waited, the longest episodes. */
	const struct fs_task_waits *tasks;
	size_t nr_tasks;
	uint64_t other_tasks;		/* waits of tasks not kept */
	const struct fs_episode *worst;
	size_t nr_worst;
	/* Whether a -T crossing stopped the run; how many there were. */
	bool threshold_hit;
	unsigned long crossings;
	/* --what-if and --target-starvation: the replays, CPU by CPU. */
	const struct fs_whatif_row *what_if;
	size_t nr_what_if;
	uint64_t load_lost;		/* losses within the recorded load */
	uint64_t tick_ns;		/* the tick the replays assumed */
	char kernel[65];		/* the release the load ran on */
	enum fs_rules rules;		/* the server the replays follow */
	bool kernel_other;		/* a line the rules were not read in */
	/* For the metrics: the window's start in wall-clock time. */
	uint64_t start_unix_ns;
	bool rt_runtime_unlimited;	/* sched_rt_runtime_us is -1 */
};

/* The part of --target-starvation the advice keeps free, percent: for
 * what the replay cannot see. */
#define FS_ADVICE_MARGIN	10

/* One replay of a CPU's load, as the renderers show it. */
enum fs_whatif_kind {
	FS_WHATIF_RECORDED,	/* the setting the run had */
	FS_WHATIF_ASKED,	/* one of --what-if */
	FS_WHATIF_ADVISED,	/* --target-starvation's answer */
	FS_WHATIF_NONE,		/* --target-starvation: no setting meets it */
};

struct fs_whatif_row {
	int cpu;
	enum fs_whatif_kind kind;
	struct fs_whatif w;
	uint64_t old_runtime, old_period;	/* advised: the writes' order */
	/*
	 * Advised: the bandwidth its root domain had free for this server
	 * (the advice of the CPUs before it taken as applied), if known;
	 * whether the root domain lost its servers' bandwidth (then every
	 * write is refused); how to write the setting.
	 */
	bool room_known;
	uint64_t room_bw;
	bool rd_lost;
	struct fs_apply apply;
	/*
	 * Recorded: checked against what the run measured on the CPU (not
	 * across lost events, invalid ones, a CPU offline, a full load or a
	 * setting changed in the run), and whether it agrees. Advised: none,
	 * because the recorded row disagrees.
	 */
	bool checked, agrees;
	struct fs_whatif_measured measured;
	struct fs_whatif_check check;
	bool disagrees;
};

/* actions.c: run @n actions in order, up to the first that fails or a
 * continue; 1 if a continue was reached, 0 if not, -1 on a failure. */
int fs_actions_run(const struct fs_action *list, int n, struct fs_trace *t);

/* run.c */
int fs_main(int argc, char **argv, enum fs_mode mode);

/* top.c, histogram.c, json.c: write the report to @f; 0, or -1 (errno). */
int fs_top_print(const struct fs_report *r, FILE *f);
int fs_hist_print(const struct fs_report *r, FILE *f);
int fs_json_print(const struct fs_report *r, FILE *f);

/* metrics.c: the figures for Prometheus; the file written whole. */
int fs_metrics_print(const struct fs_report *r, FILE *f);
int fs_metrics_write(const struct fs_report *r);

/* advice.c: hist's what-if table and advice, when asked for. */
void fs_advice_print(const struct fs_report *r, FILE *f);
const char *fs_whatif_kind_name(enum fs_whatif_kind kind);

/* Shared by the renderers. */
const char *fs_source_note(const struct fs_report *r);
const char *fs_starvation_absent(const struct fs_report *r);
bool fs_top_holder_label(const struct fs_report *r, int cpu, char *who,
			 size_t len, uint64_t *ns);
void fs_episode_labels(const struct fs_episode *ep, char *waiter,
		       char *holder, size_t len);

#endif
