// SPDX-License-Identifier: GPL-2.0
/*
 * The tracefs session: an instance of our own with the fair server events,
 * field handles looked up once, and a decoder that hands each event to the
 * run (run.c). Nothing here knows what the events mean.
 */
#include <errno.h>
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
#define SYSTEM			"sched"
/* Only the fair server of the events DL tasks share (type 2). */
#define FAIR_SERVER_FILTER	"type == 2"

struct fs_trace {
	const struct fs_params *p;
	struct tracefs_instance *inst;	/* what we consume */
	struct tracefs_instance *rec;	/* -t: kept for saving */
	struct fs_layout layout;	/* where the fields lie */
	char names[FS_EV_NR][48];	/* sched_dl_<fs_ev_name()> */
	struct fs_run *run;		/* while collecting */
	char name[64];
	/* Readers of our instance's per-CPU buffers, open for the run. */
	struct tracefs_cpu **cpu;	/* p->nr_cpus of them */
	struct kbuffer *kbuf;
	void *page;
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
}

/* Place the field @f of a format at @out; 0, or -1 if not a number. */
static int place(struct fs_fields *fs, struct fs_field *out,
		 const struct tep_format_field *f)
{
	if ((f->flags & TEP_FIELD_IS_ARRAY) || f->offset < 0 || f->size < 0)
		return -1;
	return fs_field_set(fs, out, (unsigned int)f->offset,
			    (unsigned int)f->size);
}

/* Resolve a field of @ev into @fs; every field we use must exist. */
static int field(struct tep_event *ev, const char *name,
		 struct fs_fields *fs, struct fs_field *out)
{
	struct tep_format_field *f = tep_find_field(ev, name);

	if (!f) {
		fs_err("event %s has no field '%s': the kernel's events do not match this tool",
		       ev->name, name);
		return -1;
	}
	if (place(fs, out, f)) {
		fs_err("event %s: field '%s' is not a number of 1, 2, 4 or 8 bytes",
		       ev->name, name);
		return -1;
	}
	return 0;
}

/* Resolve common_type, the id every record starts with, from @ev. */
static int common_type(struct fs_trace *t, struct tep_event *ev)
{
	struct tep_format_field *f = tep_find_common_field(ev, "common_type");

	if (!f || place(NULL, &t->layout.type, f)) {
		fs_err("event %s: no usable common_type field", ev->name);
		return -1;
	}
	return 0;
}

/*
 * A parser for our events alone. tracefs_local_events_system() would also
 * parse every other sched event, /proc/kallsyms and the printk formats:
 * seconds of CPU at start and 20 MB of RSS under TCG, for nothing used.
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
static int load_event(struct tep_handle *tep, const char *name)
{
	char *buf;
	int size = 0, ret = 0;

	buf = tracefs_event_file_read(NULL, SYSTEM, name, "format", &size);
	if (!buf)
		return 1;
	if (tep_parse_event(tep, buf, size, SYSTEM)) {
		fs_err("cannot parse the format of %s:%s", SYSTEM, name);
		ret = -1;
	}
	free(buf);
	return ret;
}

/* Parse our events' formats with @tep and resolve their fields. */
static int resolve_with(struct fs_trace *t, struct tep_handle *tep)
{
	char missing[512] = "";
	int i, ret;

	for (i = 0; i < FS_EV_NR; i++) {
		struct fs_fields *fs;
		struct tep_event *ev;

		snprintf(t->names[i], sizeof(t->names[i]), "sched_dl_%s",
			 fs_ev_name(i));
		ret = load_event(tep, t->names[i]);
		if (ret < 0)
			return -1;
		ev = ret ? NULL :
		     tep_find_event_by_name(tep, SYSTEM, t->names[i]);
		if (!ev) {
			size_t len = strlen(missing);

			snprintf(missing + len, sizeof(missing) - len, "%s%s",
				 len ? ", " : "", t->names[i]);
			continue;
		}
		fs = &t->layout.ev[i];
		fs->id = ev->id;
		/* The common fields are the same in every event. */
		if (!t->layout.type.size && common_type(t, ev))
			return -1;
		if (field(ev, "cpu", fs, &fs->cpu) ||
		    field(ev, "dl_runtime", fs, &fs->dl_runtime) ||
		    field(ev, "dl_period", fs, &fs->dl_period))
			return -1;
		if (i == FS_EV_PARAMS)
			continue;
		if (field(ev, "flags", fs, &fs->flags) ||
		    field(ev, "runtime", fs, &fs->runtime) ||
		    field(ev, "deadline", fs, &fs->deadline))
			return -1;
	}
	if (missing[0]) {
		fs_err("this kernel lacks the fair server trace events (%s): boot a kernel with the rtla-fairsrv series (kernel/patches)",
		       missing);
		return -1;
	}
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
	t->kbuf = kbuffer_alloc(lsize, KBUFFER_ENDIAN_SAME_AS_HOST);
	if (!t->cpu || !t->kbuf) {
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
	t->page = malloc(size);
	if (size <= 0 || !t->page) {
		fs_err("out of memory");
		return -1;
	}
	return 0;
}

/* Open the session: tracefs, the event formats and our instance(s). */
struct fs_trace *fs_trace_open(const struct fs_params *p)
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
	if (resolve_events(t))
		goto fail;

	instance_name(t->name, sizeof(t->name), "");
	t->inst = tracefs_instance_create(t->name);
	if (!t->inst) {
		fs_err("cannot create tracefs instance %s: %s", t->name,
		       strerror(errno));
		goto fail;
	}
	if (open_readers(t))
		goto fail;
	if (p->trace_file) {
		instance_name(name, sizeof(name), "trace_");
		t->rec = tracefs_instance_create(name);
		if (!t->rec) {
			fs_err("cannot create tracefs instance %s: %s", name,
			       strerror(errno));
			goto fail;
		}
	}
	return t;
fail:
	fs_trace_close(t);
	return NULL;
}

/* Enable our events in @inst, server-only for the shared DL events. */
static int enable_events(struct fs_trace *t, struct tracefs_instance *inst)
{
	int i;

	for (i = 0; i < FS_EV_NR; i++) {
		if (tracefs_event_enable(inst, SYSTEM, t->names[i])) {
			fs_err("cannot enable %s:%s", SYSTEM, t->names[i]);
			return -1;
		}
		if ((i == FS_EV_THROTTLE || i == FS_EV_REPLENISH) &&
		    tracefs_event_file_write(inst, SYSTEM, t->names[i],
					     "filter", FAIR_SERVER_FILTER) < 0) {
			fs_err("cannot set the filter of %s", t->names[i]);
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

/* Size the buffers, enable the events and start recording. */
int fs_trace_start(struct fs_trace *t)
{
	const struct fs_params *p = t->p;

	if (tracefs_trace_off(t->inst)) {
		fs_err("cannot stop tracing in %s", t->name);
		return -1;
	}
	if (p->buffer_kb &&
	    tracefs_instance_set_buffer_size(t->inst, p->buffer_kb, -1)) {
		fs_err("cannot set the trace buffer size to %llu kB",
		       (unsigned long long)p->buffer_kb);
		return -1;
	}
	if (enable_events(t, t->inst))
		return -1;
	if (t->rec && (enable_events(t, t->rec) || enable_extra(t, t->rec)))
		return -1;
	if ((t->rec && tracefs_trace_on(t->rec)) || tracefs_trace_on(t->inst)) {
		fs_err("cannot start tracing");
		return -1;
	}
	return 0;
}


/* Decode one record of @cpu's buffer and queue it for the run. */
static int decode(struct fs_trace *t, const void *data, unsigned int size,
		  uint64_t ts, int cpu)
{
	struct fs_event ev;
	int ret = fs_record_decode(&t->layout, data, size, ts, &ev);

	if (ret < 0) {
		fs_err("a %s record of CPU %d is %u bytes, shorter than its format",
		       t->names[ev.type], cpu, size);
		return -1;
	}
	if (ret && fs_run_queue(t->run, &ev)) {
		fs_err("out of memory");
		return -1;
	}
	return 0;
}

/* Decode the sub-buffer just read from @cpu's buffer. */
static int read_subbuf(struct fs_trace *t, int cpu)
{
	unsigned long long ts;
	int missed;
	void *data;

	if (kbuffer_load_subbuffer(t->kbuf, t->page)) {
		fs_err("cannot parse a trace sub-buffer of CPU %d", cpu);
		return -1;
	}
	/* Drops are reported once per sub-buffer, before its first record. */
	missed = kbuffer_missed_events(t->kbuf);
	if (missed > 0)
		t->run->lost += missed;
	else if (missed < 0)
		t->run->lost_unknown = true;

	for (data = kbuffer_read_event(t->kbuf, &ts); data;
	     data = kbuffer_next_event(t->kbuf, &ts))
		if (decode(t, data, kbuffer_event_size(t->kbuf), ts, cpu))
			return -1;
	return 0;
}

/* Consume what the buffers hold now; events go to @run. */
int fs_trace_collect(struct fs_trace *t, struct fs_run *run)
{
	int cpu, n;

	t->run = run;
	for (cpu = 0; cpu < t->p->nr_cpus; cpu++) {
		while ((n = tracefs_cpu_read(t->cpu[cpu], t->page, true)) > 0)
			if (read_subbuf(t, cpu))
				return -1;
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			fs_err("cannot read the trace buffer of CPU %d: %s",
			       cpu, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Add the per-CPU overrun counters to @run's lost events. */
static void count_overruns(struct fs_trace *t, struct fs_run *run)
{
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
			run->overrun += strtoll(line + 8, NULL, 10);
		free(buf);
	}
}

/* Stop recording and read what is left. */
int fs_trace_stop(struct fs_trace *t, struct fs_run *run)
{
	if (tracefs_trace_off(t->inst))
		fs_err("cannot stop tracing in %s", t->name);
	if (t->rec && tracefs_trace_off(t->rec))
		fs_err("cannot stop tracing in the -t instance");
	if (fs_trace_collect(t, run))
		return -1;
	count_overruns(t, run);
	return 0;
}

/* Write the -t instance's trace to @file. */
int fs_trace_save(struct fs_trace *t, const char *file)
{
	FILE *f;
	char *buf;
	int size = 0, ret = 0;

	if (!t->rec)
		return 0;
	buf = tracefs_instance_file_read(t->rec, "trace", &size);
	if (!buf) {
		fs_err("cannot read the saved trace");
		return -1;
	}
	f = fopen(file, "w");
	if (!f) {
		fs_err("cannot open %s: %s", file, strerror(errno));
		free(buf);
		return -1;
	}
	if (fwrite(buf, 1, size, f) != (size_t)size)
		ret = -1;
	if (fclose(f))
		ret = -1;
	if (ret)
		fs_err("cannot write %s: %s", file, strerror(errno));
	free(buf);
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
	if (t->kbuf)
		kbuffer_free(t->kbuf);
	free(t->page);
	drop_instance(t->inst);
	drop_instance(t->rec);
	free(t);
}
