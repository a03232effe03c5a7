// SPDX-License-Identifier: GPL-2.0
/*
 * The tracefs session: an instance of our own with the fair server, fair
 * starvation and CPU hotplug events, where their fields lie (resolved once
 * from the formats), and readers that hand each decoded event to a sink.
 * On a kernel without the series, the server's events are kprobes
 * (probes.c) and fair starvation comes from the scheduler's events; both
 * are handed on as observations for derive.h to read. Nothing here knows
 * what the events mean.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>
#include <event-parse.h>
#include <kbuffer.h>

#include "fairsrv.h"
#include "record.h"

#define INSTANCE_PREFIX		"rtla_fairsrv_"
/* The clock of the instances: CLOCK_MONOTONIC, the same on every CPU. */
#define TRACE_CLOCK		"mono"

/*
 * Groups of events: the server's are needed, the others add figures; the
 * scheduler's own are read for the what-if's load (the kprobe source reads
 * them as its starvation group).
 */
enum group { GROUP_SERVER, GROUP_STARVATION, GROUP_HOTPLUG, GROUP_LOAD,
	     NR_GROUPS };

/* Where each event is in tracefs; no system: not read from this source. */
struct ev_def {
	const char *system;
	char name[48];
	enum group group;
	const char *filter;
	bool present;		/* the kernel has it, and it is enabled */
};

struct fs_trace {
	const struct fs_params *p;
	struct tracefs_instance *inst;	/* what we consume */
	struct tracefs_instance *rec;	/* -t: kept for saving */
	struct fs_layout layout;	/* where the fields lie */
	struct ev_def ev[FS_EV_NR];	/* the kernel's events */
	struct fs_trace_caps caps;
	struct fs_probes *probes;	/* the kprobe source's probes */
	char name[64];
	/* Readers of our instance's per-CPU buffers, open for the run. */
	struct tracefs_cpu **cpu;	/* p->nr_cpus of them */
	uint64_t *last_ts;		/* per buffer: the last record's ts */
	struct kbuffer *kbuf;
	void *page;
	int page_size;
};

/* Name of our instance for this process, and for the -t one. */
static void instance_name(char *buf, size_t len, const char *kind)
{
	snprintf(buf, len, INSTANCE_PREFIX "%s%d", kind, (int)getpid());
}

/* Walk callback: collect the names of our instances, any process's. */
static int add_ours(const char *name, void *data)
{
	char ***names = data;
	char **list;

	if (strncmp(name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)))
		return 0;
	list = tracefs_list_add(*names, name);
	if (!list)
		return -1;
	*names = list;
	return 0;
}

/*
 * Remove instances whose rtla fairsrv process no longer exists. The names
 * are matched here: tracefs_instances() leaks its compiled regex.
 */
void fs_trace_cleanup_stale(void)
{
	char **names = NULL;
	int i;

	if (tracefs_instances_walk(add_ours, &names) < 0 || !names) {
		tracefs_list_free(names);
		return;
	}
	for (i = 0; names[i]; i++) {
		const char *num = strrchr(names[i], '_');
		struct tracefs_instance *inst;
		long pid;

		if (!num)
			continue;
		pid = strtol(num + 1, NULL, 10);
		if (pid <= 0 || !(kill((pid_t)pid, 0) == -1 && errno == ESRCH))
			continue;
		inst = tracefs_instance_alloc(NULL, names[i]);
		if (!inst)
			continue;
		if (tracefs_instance_destroy(inst))
			fs_err("cannot remove stale instance %s: %s", names[i],
			       strerror(errno));
		else
			fs_debug("removed stale instance %s", names[i]);
		tracefs_instance_free(inst);
	}
	tracefs_list_free(names);
	fs_probes_cleanup_stale();
}

/* Read event @i as fs_events[] names it, in @group. */
static void define(struct fs_trace *t, enum fs_ev i, enum group group)
{
	struct ev_def *d = &t->ev[i];

	d->system = fs_events[i].system;
	snprintf(d->name, sizeof(d->name), "%s", fs_events[i].event);
	d->filter = fs_events[i].filter;
	d->group = group;
}

/* Fill the table of the events the series' source reads. */
static void define_events(struct fs_trace *t)
{
	int i;

	for (i = 0; i < FS_EV_NR; i++) {
		switch (fs_events[i].kind) {
		case FS_KIND_SERVER:
			define(t, i, GROUP_SERVER);
			break;
		case FS_KIND_STARVE:
			define(t, i, GROUP_STARVATION);
			break;
		case FS_KIND_HOTPLUG:
			define(t, i, GROUP_HOTPLUG);
			break;
		case FS_KIND_SCHED:
			if (fs_params_load(t->p))
				define(t, i, GROUP_LOAD);
			break;
		default:
			break;
		}
	}
}

/* Fill the table of the events the kprobe source reads. */
static void define_probes(struct fs_trace *t)
{
	int i;

	for (i = 0; i < FS_EV_NR; i++) {
		struct ev_def *d = &t->ev[i];
		const char *name = "";

		switch (fs_events[i].kind) {
		case FS_KIND_PROBE:
			d->system = fs_probes_event(t->probes, i, &name,
						    &d->filter);
			snprintf(d->name, sizeof(d->name), "%s", name);
			d->group = GROUP_SERVER;
			break;
		case FS_KIND_SCHED:
			/* Fair starvation, derived from the scheduler's. */
			define(t, i, GROUP_STARVATION);
			break;
		case FS_KIND_HOTPLUG:
			define(t, i, GROUP_HOTPLUG);
			break;
		default:
			break;
		}
	}
}

/* Place the format field @f as @out of @fs; 0, or -1 if not usable. */
static int place(struct fs_fields *fs, struct fs_field *out,
		 const struct tep_format_field *f)
{
	bool string = (f->flags & TEP_FIELD_IS_ARRAY) &&
		      (f->flags & TEP_FIELD_IS_STRING);

	if (f->offset < 0 || f->size < 0 ||
	    ((f->flags & TEP_FIELD_IS_ARRAY) && !string))
		return -1;
	/* A __string(): sched_migrate_task's comm in newer kernels (7.3). */
	if (f->flags & TEP_FIELD_IS_DYNAMIC)
		return f->size == 4 && string ?
			fs_field_set_loc(fs, out, (unsigned int)f->offset) : -1;
	return fs_field_set(fs, out, (unsigned int)f->offset,
			    (unsigned int)f->size,
			    f->flags & TEP_FIELD_IS_SIGNED, string);
}

/* Resolve the fields event @i needs from its format @ev. */
static int resolve_fields(struct fs_layout *l, int i, struct tep_event *ev)
{
	struct fs_fields *fs = &l->ev[i];
	int fid;

	for (fid = 0; fid < FS_F_NR; fid++) {
		struct tep_format_field *f;

		if (!fs_event_has(i, fid))
			continue;
		f = tep_find_field(ev, fs_field_name(fid));
		/* A field an older series lacks: left unplaced, it reads 0. */
		if (!f && (fs_events[i].optional & FS_F_BIT(fid)))
			continue;
		if (!f) {
			fs_err("event %s has no field '%s': the kernel's events do not match this tool",
			       ev->name, fs_field_name(fid));
			return -1;
		}
		if (place(fs, &fs->f[fid], f)) {
			fs_err("event %s: field '%s' has a size or type this tool cannot read",
			       ev->name, fs_field_name(fid));
			return -1;
		}
	}
	fs->id = ev->id;
	return 0;
}

/* Resolve common_type, the id every record starts with, from @ev. */
static int common_type(struct fs_layout *l, struct tep_event *ev)
{
	struct tep_format_field *f = tep_find_common_field(ev, "common_type");

	if (!f || place(NULL, &l->type, f)) {
		fs_err("event %s: no usable common_type field", ev->name);
		return -1;
	}
	return 0;
}

/* Add event @i to @l: where its fields lie, from its parsed format. */
int fs_trace_layout_event(struct fs_layout *l, enum fs_ev i,
			  struct tep_event *ev)
{
	/* The common fields are the same in every event. */
	if (!l->type.size && common_type(l, ev))
		return -1;
	return resolve_fields(l, i, ev);
}

/*
 * A parser for our events alone. tracefs_local_events_system() would also
 * parse every other event of the systems, /proc/kallsyms and the printk
 * formats: seconds of CPU at start and 20 MB of RSS under TCG, for nothing.
 */
static struct tep_handle *load_tep(int nr_cpus)
{
	enum tep_endian endian = tep_is_bigendian() ? TEP_BIG_ENDIAN :
						      TEP_LITTLE_ENDIAN;
	struct tep_handle *tep = tep_alloc();
	char *buf;
	int size = 0;

	if (!tep)
		return NULL;
	tep_set_file_bigendian(tep, endian);
	tep_set_local_bigendian(tep, endian);
	tep_set_long_size(tep, sizeof(long));
	tep_set_page_size(tep, getpagesize());
	tep_set_cpus(tep, nr_cpus);
	buf = tracefs_instance_file_read(NULL, "events/header_page", &size);
	if (!buf || tep_parse_header_page(tep, buf, size, sizeof(long))) {
		free(buf);
		tep_free(tep);
		return NULL;
	}
	free(buf);
	return tep;
}

/* Parse one event's format; 1 if the kernel does not have the event. */
static int load_event(struct tep_handle *tep, const struct ev_def *d)
{
	char *buf;
	int size = 0, ret = 0;

	buf = tracefs_event_file_read(NULL, d->system, d->name, "format",
				      &size);
	if (!buf)
		return 1;
	if (tep_parse_event(tep, buf, size, d->system)) {
		fs_err("cannot parse the format of %s:%s", d->system, d->name);
		ret = -1;
	}
	free(buf);
	return ret;
}

/* Append @name to the list @buf of missing events. */
static void add_missing(char *buf, size_t len, const char *name)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s", n ? ", " : "", name);
}

/* Parse our events' formats with @tep and resolve their fields. */
static int resolve_with(struct fs_trace *t, struct tep_handle *tep)
{
	bool have[NR_GROUPS] = { true, true, true, true };
	char missing[512] = "";
	int i, ret;

	for (i = 0; i < FS_EV_NR; i++) {
		struct ev_def *d = &t->ev[i];
		struct tep_event *ev;

		if (!d->system)
			continue;
		ret = load_event(tep, d);
		if (ret < 0)
			return -1;
		ev = ret ? NULL : tep_find_event_by_name(tep, d->system,
							  d->name);
		if (!ev) {
			have[d->group] = false;
			if (d->group == GROUP_SERVER)
				add_missing(missing, sizeof(missing), d->name);
			continue;
		}
		if (fs_trace_layout_event(&t->layout, i, ev))
			return -1;
	}
	if (missing[0]) {
		fs_err("this kernel lacks the fair server trace events (%s): boot a kernel with the rtla-fairsrv series (kernel/patches), or use --source kprobe",
		       missing);
		return -1;
	}
	if (!have[GROUP_STARVATION])
		fs_err("this kernel has no %s events: fair starvation is not measured, only the server's figures",
		       t->probes ? "sched_switch, sched_wakeup or sched_migrate_task" :
				   "sched_fair_starve_*");
	else if (t->p->server_only)
		have[GROUP_STARVATION] = false;
	/* A group is read whole or not at all. */
	for (i = 0; i < FS_EV_NR; i++) {
		t->ev[i].present = t->ev[i].system && have[t->ev[i].group];
		if (!t->ev[i].present)
			memset(&t->layout.ev[i], 0, sizeof(t->layout.ev[i]));
	}
	t->caps.starvation = have[GROUP_STARVATION];
	/*
	 * The series' hooks keep rt_wait while the starvation events are on;
	 * derive.h keeps it from the scheduler's events it reads for them.
	 */
	t->caps.rt_wait = t->caps.starvation &&
			  (t->probes ||
			   t->layout.ev[FS_EV_START].f[FS_F_RT_WAIT].size);
	t->caps.hotplug = have[GROUP_HOTPLUG];
	t->caps.load = t->probes ? have[GROUP_STARVATION] :
				   t->ev[FS_EV_SWITCH].present;
	if (fs_params_load(t->p) && !t->caps.load) {
		fs_err("this kernel has no sched_switch, sched_wakeup or sched_migrate_task events: --what-if and --target-starvation cannot record the load");
		return -1;
	}
	fs_debug("source %s: server yes, starvation %s, hotplug %s",
		 fs_source_name(t->caps.source),
		 t->caps.starvation ? "yes" : "no",
		 t->caps.hotplug ? "yes" : "no");
	return 0;
}

/* Resolve where our events' fields lie; the parser is not kept. */
static int resolve_events(struct fs_trace *t)
{
	struct tep_handle *tep = load_tep(t->p->nr_cpus);
	int ret;

	if (!tep) {
		fs_err("cannot read the ring buffer format from tracefs: %s",
		       strerror(errno));
		return -1;
	}
	ret = resolve_with(t, tep);
	tep_free(tep);
	return ret;
}

/* Open a non-blocking reader on each CPU's buffer of our instance. */
static int open_readers(struct fs_trace *t)
{
	enum kbuffer_long_size lsize = sizeof(long) == 8 ? KBUFFER_LSIZE_8 :
							   KBUFFER_LSIZE_4;
	int cpu, size = 0;

	t->cpu = calloc(t->p->nr_cpus, sizeof(*t->cpu));
	t->last_ts = calloc(t->p->nr_cpus, sizeof(*t->last_ts));
	t->kbuf = kbuffer_alloc(lsize, KBUFFER_ENDIAN_SAME_AS_HOST);
	if (!t->cpu || !t->last_ts || !t->kbuf) {
		fs_err("out of memory");
		return -1;
	}
	for (cpu = 0; cpu < t->p->nr_cpus; cpu++) {
		t->cpu[cpu] = tracefs_cpu_open(t->inst, cpu, true);
		if (!t->cpu[cpu]) {
			fs_err("cannot open the trace buffer of CPU %d: %s",
			       cpu, strerror(errno));
			return -1;
		}
		if (tracefs_cpu_read_size(t->cpu[cpu]) > size)
			size = tracefs_cpu_read_size(t->cpu[cpu]);
	}
	if (size <= 0) {
		fs_err("cannot read the size of the trace buffers' pages");
		return -1;
	}
	t->page = malloc(size);
	if (!t->page) {
		fs_err("out of memory");
		return -1;
	}
	t->page_size = size;
	return 0;
}

/* Create an instance for this process, "" or "trace_" in its name. */
static struct tracefs_instance *create(const char *kind, char *name,
				       size_t len)
{
	struct tracefs_instance *inst;

	instance_name(name, len, kind);
	inst = tracefs_instance_create(name);
	if (!inst)
		fs_err("cannot create tracefs instance %s: %s", name,
		       strerror(errno));
	return inst;
}

/* Whether the kernel has the series' events. */
static bool have_series(void)
{
	const struct fs_ev_desc *start = &fs_events[FS_EV_START];

	return tracefs_event_file_exists(NULL, start->system, start->event,
					 "format");
}

/*
 * Choose the source: the series' events if the kernel has them (or
 * --source events), else kprobes made now.
 */
static int choose_source(struct fs_trace *t)
{
	enum fs_source s = t->p->source;

	if (s == FS_SOURCE_AUTO)
		s = have_series() ? FS_SOURCE_EVENTS : FS_SOURCE_KPROBE;
	t->caps.source = s;
	if (s == FS_SOURCE_EVENTS) {
		define_events(t);
		t->caps.params = true;
		return 0;
	}
	t->probes = fs_probes_create(&t->layout);
	if (!t->probes)
		return -1;
	define_probes(t);
	return 0;
}

/* Open the session: tracefs, the event formats and our instance(s). */
struct fs_trace *fs_trace_open(const struct fs_params *p,
			       struct fs_trace_caps *caps)
{
	struct fs_trace *t;
	char name[64];

	if (!tracefs_tracing_dir()) {
		fs_err("tracefs is not mounted and could not be mounted at /sys/kernel/tracing");
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		fs_err("out of memory");
		return NULL;
	}
	t->p = p;
	if (choose_source(t))
		goto fail;
	if (resolve_events(t))
		goto fail;
	t->inst = create("", t->name, sizeof(t->name));
	if (!t->inst || open_readers(t))
		goto fail;
	if (p->record) {
		t->rec = create("trace_", name, sizeof(name));
		if (!t->rec)
			goto fail;
	}
	*caps = t->caps;
	return t;
fail:
	fs_trace_close(t);
	return NULL;
}

/*
 * Whether event @d is enabled before tracing goes on: the server's and
 * CPU hotplug, whose first event tells the state. The starvation and load
 * events come after, once the window is open: enabling
 * sched_fair_starve_wait makes the kernel report at its next tick an
 * episode that began before, which tracing must be on to record.
 */
static bool before_on(const struct ev_def *d)
{
	return d->group == GROUP_SERVER || d->group == GROUP_HOTPLUG;
}

/* Which of the events enable_events() turns on, in this order. */
enum stage {
	STAGE_STATE,	/* the server's and hotplug's: before tracing goes on */
	STAGE_REST,	/* all the others */
	STAGE_UNKEPT,	/* all the others but the kernel's starvation ones */
	STAGE_KEPT,	/* the kernel's starvation ones alone */
};

/* Whether event @i, defined as @d, is turned on at @stage. */
static bool in_stage(int i, const struct ev_def *d, enum stage stage)
{
	bool kept = fs_events[i].kind == FS_KIND_STARVE;

	switch (stage) {
	case STAGE_STATE:
		return before_on(d);
	case STAGE_REST:
		return !before_on(d);
	case STAGE_UNKEPT:
		return !before_on(d) && !kept;
	case STAGE_KEPT:
		return kept;
	}
	return false;
}

/*
 * Enable in @inst the events of @stage, with the server-only filter of
 * the shared DL events. In the reverse of fs_events[]'s order: the kernel
 * keeps the starvation state only while sched_fair_starve_wait is enabled,
 * so it comes after the events that end what it opens, and sched_switch
 * comes after the wake-ups and migrations it pairs with. Tests see the
 * last one enabled as the end of the set-up.
 */
static int enable_events(struct fs_trace *t, struct tracefs_instance *inst,
			 enum stage stage)
{
	int i;

	for (i = FS_EV_NR - 1; i >= 0; i--) {
		const struct ev_def *d = &t->ev[i];

		if (!d->present || !in_stage(i, d, stage))
			continue;
		if (d->filter && tracefs_event_file_write(inst, d->system,
				d->name, "filter", d->filter) < 0) {
			fs_err("cannot set the filter of %s", d->name);
			return -1;
		}
		if (tracefs_event_enable(inst, d->system, d->name)) {
			fs_err("cannot enable %s:%s", d->system, d->name);
			return -1;
		}
	}
	return 0;
}

/* Enable the -e events, with their filters and triggers, in @inst. */
static int enable_extra(struct fs_trace *t, struct tracefs_instance *inst)
{
	int i;

	for (i = 0; i < t->p->nr_events; i++) {
		const struct fs_extra_event *e = &t->p->events[i];
		const char *name = e->name ? e->name : "*";

		if (tracefs_event_enable(inst, e->system, e->name)) {
			fs_err("cannot enable event %s:%s", e->system, name);
			return -1;
		}
		if (e->filter && tracefs_event_file_write(inst, e->system,
				e->name, "filter", e->filter) < 0) {
			fs_err("invalid filter '%s' for %s:%s", e->filter,
			       e->system, name);
			return -1;
		}
		if (e->trigger && tracefs_event_file_write(inst, e->system,
				e->name, "trigger", e->trigger) < 0) {
			fs_err("invalid trigger '%s' for %s:%s", e->trigger,
			       e->system, name);
			return -1;
		}
	}
	return 0;
}

/*
 * Set up one instance: clock and buffer size, the server's events, then
 * tracing on at @on (CLOCK_MONOTONIC, NULL: not asked), then the events
 * of @rest (see before_on()), all on at @all.
 */
static int set_up(struct fs_trace *t, struct tracefs_instance *inst,
		  enum stage rest, uint64_t *on, uint64_t *all)
{
	const struct fs_params *p = t->p;

	if (tracefs_trace_off(inst)) {
		fs_err("cannot stop tracing in %s", tracefs_instance_get_name(inst));
		return -1;
	}
	if (tracefs_instance_file_write(inst, "trace_clock", TRACE_CLOCK) < 0) {
		fs_err("cannot set the trace clock to %s", TRACE_CLOCK);
		return -1;
	}
	if (p->buffer_kb &&
	    tracefs_instance_set_buffer_size(inst, p->buffer_kb, -1)) {
		fs_err("cannot set the trace buffer size to %llu kB",
		       (unsigned long long)p->buffer_kb);
		return -1;
	}
	if (enable_events(t, inst, STAGE_STATE))
		return -1;
	if (on)
		*on = fs_system_now();
	if (tracefs_trace_on(inst)) {
		fs_err("cannot start tracing in %s",
		       tracefs_instance_get_name(inst));
		return -1;
	}
	if (enable_events(t, inst, rest))
		return -1;
	if (all)
		*all = fs_system_now();
	return 0;
}

/*
 * Set up the instances; the one we consume records from @on, with every
 * event from @all: the run's window opens there. The kernel reports a
 * starvation episode open before the run (why "unseen", at its next tick)
 * once, to the instances that have sched_fair_starve_wait on when it
 * turns on: the one we consume gets the kernel's starvation events first,
 * and the -t instance its own after it (its trace may lack that report).
 */
int fs_trace_start(struct fs_trace *t, uint64_t *on, uint64_t *all)
{
	if (t->rec && (set_up(t, t->rec, STAGE_UNKEPT, NULL, NULL) ||
		       enable_extra(t, t->rec)))
		return -1;
	if (set_up(t, t->inst, STAGE_REST, on, all))
		return -1;
	return t->rec ? enable_events(t, t->rec, STAGE_KEPT) : 0;
}

/* Decode one record of @cpu's buffer and hand it to @sink. */
static int decode(struct fs_trace *t, const void *data, unsigned int size,
		  uint64_t ts, int cpu, fs_sink_fn sink, void *ctx)
{
	struct fs_event ev;
	int ret = fs_record_decode(&t->layout, data, size, ts, &ev);

	if (ret < 0) {
		fs_err("a %s record of CPU %d is %u bytes, shorter than its format",
		       t->ev[ev.type].name, cpu, size);
		return -1;
	}
	/* A switch is the CPU's whose buffer has it. */
	if (ret && ev.type == FS_EV_SWITCH)
		ev.cpu = cpu;
	t->last_ts[cpu] = ts;
	return ret ? sink(ctx, &ev) : 0;
}

/*
 * Decode the sub-buffer just read from @cpu's buffer. Drops are reported
 * once per sub-buffer, before its first record: the mark goes to the sink
 * with that record's time.
 */
static int read_subbuf(struct fs_trace *t, int cpu, fs_sink_fn sink,
		       void *ctx)
{
	unsigned long long ts;
	int missed;
	void *data;

	if (kbuffer_load_subbuffer(t->kbuf, t->page)) {
		fs_err("cannot parse a trace sub-buffer of CPU %d", cpu);
		return -1;
	}
	missed = kbuffer_missed_events(t->kbuf);
	data = kbuffer_read_event(t->kbuf, &ts);
	if (missed) {
		struct fs_event mark = {
			.type = FS_EV_LOST, .cpu = cpu,
			.ts = data ? ts : t->last_ts[cpu],
			.lost = missed > 0 ? missed : -1,
		};

		if (sink(ctx, &mark))
			return -1;
	}
	for (; data; data = kbuffer_next_event(t->kbuf, &ts))
		if (decode(t, data, kbuffer_event_size(t->kbuf), ts, cpu,
			   sink, ctx))
			return -1;
	return 0;
}

/* Hand what the buffers hold now to @sink. */
int fs_trace_collect(struct fs_trace *t, fs_sink_fn sink, void *ctx)
{
	int cpu, n;

	for (cpu = 0; cpu < t->p->nr_cpus; cpu++) {
		while ((n = tracefs_cpu_read(t->cpu[cpu], t->page, true)) > 0)
			if (read_subbuf(t, cpu, sink, ctx))
				return -1;
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			fs_err("cannot read the trace buffer of CPU %d: %s",
			       cpu, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Events overwritten or dropped, from the buffers' counters. */
long long fs_trace_overrun(struct fs_trace *t)
{
	long long overrun = 0;
	char file[64];
	int cpu;

	for (cpu = 0; cpu < t->p->nr_cpus; cpu++) {
		char *buf, *line;

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		buf = tracefs_instance_file_read(t->inst, file, NULL);
		if (!buf)
			continue;
		line = strstr(buf, "overrun:");
		if (line)
			overrun += strtoll(line + 8, NULL, 10);
		free(buf);
	}
	return overrun;
}

/* Probe hits the kernel missed, for the kprobe source; 0 otherwise. */
long long fs_trace_missed(struct fs_trace *t)
{
	return t->probes ? fs_probes_missed(t->probes) : 0;
}

/*
 * Stop recording at @off (CLOCK_MONOTONIC), where the run's window closes,
 * and hand what is left to @sink.
 */
int fs_trace_stop(struct fs_trace *t, fs_sink_fn sink, void *ctx,
		  uint64_t *off)
{
	*off = fs_system_now();
	if (tracefs_trace_off(t->inst))
		fs_err("cannot stop tracing in %s", t->name);
	if (t->rec && tracefs_trace_off(t->rec))
		fs_err("cannot stop tracing in the -t instance");
	return fs_trace_collect(t, sink, ctx);
}

/* Pause (@on false) or resume the recording of the -t instance. */
int fs_trace_record(struct fs_trace *t, bool on)
{
	if (!t->rec)
		return 0;
	if (on ? tracefs_trace_on(t->rec) : tracefs_trace_off(t->rec)) {
		fs_err("cannot %s tracing in the -t instance",
		       on ? "resume" : "stop");
		return -1;
	}
	return 0;
}

/* Copy the -t instance's trace to @file, a chunk at a time. */
int fs_trace_save(struct fs_trace *t, const char *file)
{
	char *path, buf[65536];
	int in, out, ret = -1;
	ssize_t n;

	if (!t->rec)
		return 0;
	path = tracefs_instance_get_file(t->rec, "trace");
	in = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	tracefs_put_tracing_file(path);
	if (in < 0) {
		fs_err("cannot read the saved trace: %s", strerror(errno));
		return -1;
	}
	out = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		fs_err("cannot open %s: %s", file, strerror(errno));
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		char *p = buf;

		while (n > 0) {
			ssize_t w = write(out, p, n);

			if (w < 0) {
				if (errno == EINTR)
					continue;
				goto write_err;
			}
			p += w;
			n -= w;
		}
	}
	if (n < 0) {
		fs_err("cannot read the saved trace: %s", strerror(errno));
		goto out;
	}
	if (close(out)) {
		out = -1;
		goto write_err;
	}
	out = -1;
	ret = 0;
	goto out;
write_err:
	fs_err("cannot write %s: %s", file, strerror(errno));
out:
	if (out >= 0)
		close(out);
	close(in);
	return ret;
}

/* Remove one instance: events off, directory gone. */
static void drop_instance(struct tracefs_instance *inst)
{
	if (!inst)
		return;
	tracefs_trace_off(inst);
	tracefs_event_disable(inst, NULL, NULL);
	if (tracefs_instance_destroy(inst))
		fs_err("cannot remove tracefs instance %s: %s",
		       tracefs_instance_get_name(inst), strerror(errno));
	tracefs_instance_free(inst);
}

/* Tear the session down; safe on a partly opened one. */
void fs_trace_close(struct fs_trace *t)
{
	int cpu;

	if (!t)
		return;
	if (t->cpu)
		for (cpu = 0; cpu < t->p->nr_cpus; cpu++)
			if (t->cpu[cpu])
				tracefs_cpu_close(t->cpu[cpu]);
	free(t->cpu);
	free(t->last_ts);
	if (t->kbuf)
		kbuffer_free(t->kbuf);
	free(t->page);
	drop_instance(t->inst);
	drop_instance(t->rec);
	/* Only once no instance uses them. */
	fs_probes_destroy(t->probes);
	free(t);
}
