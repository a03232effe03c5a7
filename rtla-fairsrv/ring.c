// SPDX-License-Identifier: GPL-2.0
/*
 * A tracefs ring (ring.h): an instance of our own, the events a source
 * put in it, where their fields lie and readers that decode each record
 * for a sink. Nothing here knows what the events mean.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>
#include <event-parse.h>
#include <kbuffer.h>

#include "record.h"
#include "ring.h"

/* The clock of the instances: CLOCK_MONOTONIC, the same on every CPU. */
#define TRACE_CLOCK		"mono"

/* Where each event is in tracefs; no system: not read by this source. */
struct ev_def {
	const char *system;
	char name[48];
	enum fs_ring_group group;
	const char *filter;
	bool present;		/* the kernel has it, and it is enabled */
};

struct fs_ring {
	const struct fs_params *p;
	const struct fs_ring_desc *desc;
	struct tracefs_instance *inst;	/* what we consume */
	char name[64];
	struct fs_layout layout;	/* where the fields lie */
	struct ev_def ev[FS_EV_NR];
	/* Readers of the instance's per-CPU buffers, open for the run. */
	struct tracefs_cpu **cpu;	/* p->nr_cpus of them */
	uint64_t *last_ts;		/* per buffer: the last record's ts */
	struct kbuffer *kbuf;
	void *page;
	int page_size;
};

/* A ring for the events of @p; NULL (said) when out of memory. */
struct fs_ring *fs_ring_alloc(const struct fs_params *p,
			      const struct fs_ring_desc *desc)
{
	struct fs_ring *r = calloc(1, sizeof(*r));

	if (!r) {
		fs_err("out of memory");
		return NULL;
	}
	r->p = p;
	r->desc = desc;
	return r;
}

/* Read event @i from tracefs @system:@name, with @filter (NULL: none). */
void fs_ring_add(struct fs_ring *r, enum fs_ev i, const char *system,
		 const char *name, const char *filter,
		 enum fs_ring_group group)
{
	struct ev_def *d = &r->ev[i];

	d->system = system;
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->filter = filter;
	d->group = group;
}

/* Read event @i where fs_events[] says it is. */
void fs_ring_add_std(struct fs_ring *r, enum fs_ev i,
		     enum fs_ring_group group)
{
	fs_ring_add(r, i, fs_events[i].system, fs_events[i].event,
		    fs_events[i].filter, group);
}

/* Where the records' fields lie. */
struct fs_layout *fs_ring_layout(struct fs_ring *r)
{
	return &r->layout;
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
int fs_ring_layout_event(struct fs_layout *l, enum fs_ev i,
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

/* Parse our events' formats with @tep, resolve their fields, fill @caps. */
static int resolve_with(struct fs_ring *r, struct tep_handle *tep,
			struct fs_trace_caps *caps)
{
	bool have[FS_RING_NR_GROUPS] = { true, true, true, true };
	const struct fs_ring_desc *desc = r->desc;
	char missing[512] = "";
	int i, ret;

	for (i = 0; i < FS_EV_NR; i++) {
		struct ev_def *d = &r->ev[i];
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
			if (d->group == FS_RING_SERVER)
				add_missing(missing, sizeof(missing), d->name);
			continue;
		}
		if (fs_ring_layout_event(&r->layout, i, ev))
			return -1;
	}
	if (missing[0]) {
		fs_err(desc->server_missing, missing);
		return -1;
	}
	if (!have[FS_RING_STARVATION])
		fs_err("this kernel has no %s events: fair starvation is not measured, only the server's figures",
		       desc->starve_events);
	else if (r->p->server_only)
		have[FS_RING_STARVATION] = false;
	for (i = 0; i < FS_EV_NR; i++) {
		r->ev[i].present = r->ev[i].system && have[r->ev[i].group];
		if (!r->ev[i].present)
			memset(&r->layout.ev[i], 0, sizeof(r->layout.ev[i]));
	}
	caps->starvation = have[FS_RING_STARVATION];
	caps->starve_absent = desc->starve_absent;
	caps->derived = desc->derived;
	/*
	 * The series' hooks keep rt_wait while the starvation events are on;
	 * derive.h keeps it from the scheduler's events it reads for them.
	 */
	caps->rt_wait = caps->starvation &&
			(desc->derived ||
			 r->layout.ev[FS_EV_START].f[FS_F_RT_WAIT].size);
	caps->hotplug = have[FS_RING_HOTPLUG];
	caps->load = desc->derived ? have[FS_RING_STARVATION] :
				     r->ev[FS_EV_SWITCH].present;
	if (fs_params_load(r->p) && !caps->load) {
		fs_err("this kernel has no sched_switch, sched_wakeup or sched_migrate_task events: --what-if and --target-starvation cannot record the load");
		return -1;
	}
	fs_debug("source %s: server yes, starvation %s, hotplug %s",
		 caps->source, caps->starvation ? "yes" : "no",
		 caps->hotplug ? "yes" : "no");
	return 0;
}

/* Resolve where our events' fields lie; the parser is not kept. */
static int resolve_events(struct fs_ring *r, struct fs_trace_caps *caps)
{
	struct tep_handle *tep = load_tep(r->p->nr_cpus);
	int ret;

	if (!tep) {
		fs_err("cannot read the ring buffer format from tracefs: %s",
		       strerror(errno));
		return -1;
	}
	ret = resolve_with(r, tep, caps);
	tep_free(tep);
	return ret;
}

/* Open a non-blocking reader on each CPU's buffer of our instance. */
static int open_readers(struct fs_ring *r)
{
	enum kbuffer_long_size lsize = sizeof(long) == 8 ? KBUFFER_LSIZE_8 :
							   KBUFFER_LSIZE_4;
	int cpu, size = 0;

	r->cpu = calloc(r->p->nr_cpus, sizeof(*r->cpu));
	r->last_ts = calloc(r->p->nr_cpus, sizeof(*r->last_ts));
	r->kbuf = kbuffer_alloc(lsize, KBUFFER_ENDIAN_SAME_AS_HOST);
	if (!r->cpu || !r->last_ts || !r->kbuf) {
		fs_err("out of memory");
		return -1;
	}
	for (cpu = 0; cpu < r->p->nr_cpus; cpu++) {
		r->cpu[cpu] = tracefs_cpu_open(r->inst, cpu, true);
		if (!r->cpu[cpu]) {
			fs_err("cannot open the trace buffer of CPU %d: %s",
			       cpu, strerror(errno));
			return -1;
		}
		if (tracefs_cpu_read_size(r->cpu[cpu]) > size)
			size = tracefs_cpu_read_size(r->cpu[cpu]);
	}
	if (size <= 0) {
		fs_err("cannot read the size of the trace buffers' pages");
		return -1;
	}
	r->page = malloc(size);
	if (!r->page) {
		fs_err("out of memory");
		return -1;
	}
	r->page_size = size;
	return 0;
}

/* Parse the events' formats, fill @caps, open the instance's readers. */
int fs_ring_open(struct fs_ring *r, struct fs_trace_caps *caps)
{
	if (resolve_events(r, caps))
		return -1;
	r->inst = fs_session_instance("", r->name, sizeof(r->name));
	if (!r->inst)
		return -1;
	return open_readers(r);
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
	return d->group == FS_RING_SERVER || d->group == FS_RING_HOTPLUG;
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
static int enable_events(struct fs_ring *r, struct tracefs_instance *inst,
			 enum stage stage)
{
	int i;

	for (i = FS_EV_NR - 1; i >= 0; i--) {
		const struct ev_def *d = &r->ev[i];

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

/*
 * Set up one instance: clock and buffer size, the server's events, then
 * tracing on at @on (CLOCK_MONOTONIC, NULL: not asked), then the events
 * of @rest (see before_on()), all on at @all.
 */
static int set_up(struct fs_ring *r, struct tracefs_instance *inst,
		  enum stage rest, uint64_t *on, uint64_t *all)
{
	const struct fs_params *p = r->p;

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
	if (enable_events(r, inst, STAGE_STATE))
		return -1;
	if (on)
		*on = fs_system_now();
	if (tracefs_trace_on(inst)) {
		fs_err("cannot start tracing in %s",
		       tracefs_instance_get_name(inst));
		return -1;
	}
	if (enable_events(r, inst, rest))
		return -1;
	if (all)
		*all = fs_system_now();
	return 0;
}

/*
 * Set up our instance and the -t one, @rec (NULL: none); ours records
 * from @on, with every event from @all: the run's window opens there. The
 * kernel reports a starvation episode open before the run (why "unseen",
 * at its next tick) once, to the instances that have
 * sched_fair_starve_wait on when it turns on: ours gets the kernel's
 * starvation events first, and the -t instance its own after it (its
 * trace may lack that report).
 */
static int fs_ring_start(struct fs_ring *r, struct tracefs_instance *rec,
			 uint64_t *on, uint64_t *all)
{
	if (rec && set_up(r, rec, STAGE_UNKEPT, NULL, NULL))
		return -1;
	if (set_up(r, r->inst, STAGE_REST, on, all))
		return -1;
	return rec ? enable_events(r, rec, STAGE_KEPT) : 0;
}

/* Decode one record of @cpu's buffer and hand it to @sink. */
static int decode(struct fs_ring *r, const void *data, unsigned int size,
		  uint64_t ts, int cpu, fs_sink_fn sink, void *ctx)
{
	struct fs_event ev;
	int ret = fs_record_decode(&r->layout, data, size, ts, &ev);

	if (ret < 0) {
		fs_err("a %s record of CPU %d is %u bytes, shorter than its format",
		       r->ev[ev.type].name, cpu, size);
		return -1;
	}
	/* A switch is the CPU's whose buffer has it. */
	if (ret && ev.type == FS_EV_SWITCH)
		ev.cpu = cpu;
	r->last_ts[cpu] = ts;
	return ret ? sink(ctx, &ev) : 0;
}

/*
 * Decode the sub-buffer just read from @cpu's buffer. Drops are reported
 * once per sub-buffer, before its first record: the mark goes to the sink
 * with that record's time.
 */
static int read_subbuf(struct fs_ring *r, int cpu, fs_sink_fn sink,
		       void *ctx)
{
	unsigned long long ts;
	int missed;
	void *data;

	if (kbuffer_load_subbuffer(r->kbuf, r->page)) {
		fs_err("cannot parse a trace sub-buffer of CPU %d", cpu);
		return -1;
	}
	missed = kbuffer_missed_events(r->kbuf);
	data = kbuffer_read_event(r->kbuf, &ts);
	if (missed) {
		struct fs_event mark = {
			.type = FS_EV_LOST, .cpu = cpu,
			.ts = data ? ts : r->last_ts[cpu],
			.lost = missed > 0 ? missed : -1,
		};

		if (sink(ctx, &mark))
			return -1;
	}
	for (; data; data = kbuffer_next_event(r->kbuf, &ts))
		if (decode(r, data, kbuffer_event_size(r->kbuf), ts, cpu,
			   sink, ctx))
			return -1;
	return 0;
}

/* Hand what the buffers hold now to @sink. */
static int fs_ring_collect(struct fs_ring *r, fs_sink_fn sink, void *ctx)
{
	int cpu, n;

	for (cpu = 0; cpu < r->p->nr_cpus; cpu++) {
		while ((n = tracefs_cpu_read(r->cpu[cpu], r->page, true)) > 0)
			if (read_subbuf(r, cpu, sink, ctx))
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
static long long fs_ring_overrun(struct fs_ring *r)
{
	long long overrun = 0;
	char file[64];
	int cpu;

	for (cpu = 0; cpu < r->p->nr_cpus; cpu++) {
		char *buf, *line;

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		buf = tracefs_instance_file_read(r->inst, file, NULL);
		if (!buf)
			continue;
		line = strstr(buf, "overrun:");
		if (line)
			overrun += strtoll(line + 8, NULL, 10);
		free(buf);
	}
	return overrun;
}

/* Stop recording in our instance. */
static int fs_ring_stop(struct fs_ring *r)
{
	if (tracefs_trace_off(r->inst)) {
		fs_err("cannot stop tracing in %s", r->name);
		return -1;
	}
	return 0;
}

/* Close the readers and remove our instance; safe on a partly open ring. */
void fs_ring_free(struct fs_ring *r)
{
	int cpu;

	if (!r)
		return;
	if (r->cpu)
		for (cpu = 0; cpu < r->p->nr_cpus; cpu++)
			if (r->cpu[cpu])
				tracefs_cpu_close(r->cpu[cpu]);
	free(r->cpu);
	free(r->last_ts);
	if (r->kbuf)
		kbuffer_free(r->kbuf);
	free(r->page);
	fs_session_drop(r->inst);
	free(r);
}

/* A source's state of @size bytes, which begins with its ring. */
void *fs_ring_source_alloc(size_t size, const struct fs_params *p,
			   const struct fs_ring_desc *desc)
{
	struct fs_ring_source *rs = calloc(1, size);

	if (!rs) {
		fs_err("out of memory");
		return NULL;
	}
	rs->ring = fs_ring_alloc(p, desc);
	if (!rs->ring) {
		free(rs);
		return NULL;
	}
	return rs;
}

/* Free the ring and the state fs_ring_source_alloc() made. */
void fs_ring_source_free(struct fs_ring_source *rs)
{
	if (!rs)
		return;
	fs_ring_free(rs->ring);
	free(rs);
}

/* The ring of a source whose state begins with a struct fs_ring_source. */
static struct fs_ring *ring_of(struct fs_source *s)
{
	return ((struct fs_ring_source *)s)->ring;
}

/* start: the ring, with the -t instance. */
int fs_ring_source_start(struct fs_source *s, struct tracefs_instance *rec,
			 uint64_t *on, uint64_t *all)
{
	return fs_ring_start(ring_of(s), rec, on, all);
}

/* collect: what the ring holds. */
int fs_ring_source_collect(struct fs_source *s, fs_sink_fn sink, void *ctx)
{
	return fs_ring_collect(ring_of(s), sink, ctx);
}

/* stop: the ring. */
int fs_ring_source_stop(struct fs_source *s)
{
	return fs_ring_stop(ring_of(s));
}

/* overrun: the ring's overwritten and dropped events. */
long long fs_ring_source_overrun(struct fs_source *s)
{
	return fs_ring_overrun(ring_of(s));
}
