// SPDX-License-Identifier: GPL-2.0
/*
 * The trace session: the source a run reads (source.h), and what every
 * source shares: the names of our tracefs instances, the -t instance that
 * records a trace to save, with the -e events, and the cleanup of what a
 * killed run left behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "source.h"

#define INSTANCE_PREFIX		"rtla_fairsrv_"

struct fs_trace {
	const struct fs_params *p;
	const struct fs_source_ops *ops;
	struct fs_source *src;
	struct tracefs_instance *rec;	/* -t: kept for saving */
};

/* Create an instance for this process, "" or "trace_" in its name. */
struct tracefs_instance *fs_session_instance(const char *kind, char *name,
					     size_t len)
{
	struct tracefs_instance *inst;

	snprintf(name, len, INSTANCE_PREFIX "%s%d", kind, (int)getpid());
	inst = tracefs_instance_create(name);
	if (!inst)
		fs_err("cannot create tracefs instance %s: %s", name,
		       strerror(errno));
	return inst;
}

/* Remove one instance: tracing and events off, directory gone. */
void fs_session_drop(struct tracefs_instance *inst)
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

/* Remove the instance @name if its rtla fairsrv process is gone. */
static void drop_stale(const char *name)
{
	const char *num = strrchr(name, '_');
	struct tracefs_instance *inst;
	long pid;

	if (!num)
		return;
	pid = strtol(num + 1, NULL, 10);
	if (pid <= 0 || !(kill((pid_t)pid, 0) == -1 && errno == ESRCH))
		return;
	inst = tracefs_instance_alloc(NULL, name);
	if (!inst)
		return;
	if (tracefs_instance_destroy(inst))
		fs_err("cannot remove stale instance %s: %s", name,
		       strerror(errno));
	else
		fs_debug("removed stale instance %s", name);
	tracefs_instance_free(inst);
}

/*
 * Remove the instances, then whatever else each source made, of rtla
 * fairsrv processes that no longer exist. The names are matched here:
 * tracefs_instances() leaks its compiled regex.
 */
void fs_trace_cleanup_stale(void)
{
	char **names = NULL;
	int i;

	if (tracefs_instances_walk(add_ours, &names) >= 0 && names)
		for (i = 0; names[i]; i++)
			drop_stale(names[i]);
	tracefs_list_free(names);
	for (i = 0; fs_sources[i]; i++)
		if (fs_sources[i]->cleanup_stale)
			fs_sources[i]->cleanup_stale();
}

/*
 * Open the source --source names, or auto's: the first the kernel serves,
 * or the next after one that says it may fail quietly and did. NULL after
 * one error line.
 */
static struct fs_source *open_source(struct fs_trace *t,
				     struct fs_trace_caps *caps)
{
	const char *name = t->p->source;
	int i;

	for (i = 0; fs_sources[i]; i++) {
		const struct fs_source_ops *ops = fs_sources[i];

		if (name ? strcmp(name, ops->name) : !ops->usable())
			continue;
		memset(caps, 0, sizeof(*caps));
		caps->source = ops->name;
		t->ops = ops;
		t->src = ops->open(t->p, caps);
		if (t->src || name || !ops->fallback)
			return t->src;
		fs_debug("source %s could not open: trying the next",
			 ops->name);
	}
	t->ops = NULL;
	fs_err("no source of events can read this kernel's fair server");
	return NULL;
}

/* Open the session: its source, with the -t instance if asked. */
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
	if (!open_source(t, caps))
		goto fail;
	if (p->record) {
		t->rec = fs_session_instance("trace_", name, sizeof(name));
		if (!t->rec)
			goto fail;
	}
	return t;
fail:
	fs_trace_close(t);
	return NULL;
}

/* Enable the -e events, with their filters and triggers, in @inst. */
static int enable_extra(const struct fs_params *p,
			struct tracefs_instance *inst)
{
	int i;

	for (i = 0; i < p->nr_events; i++) {
		const struct fs_extra_event *e = &p->events[i];
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
 * Turn the source on, the -t instance with it: the first events at @on,
 * every event at @all, where the run's window opens.
 */
int fs_trace_start(struct fs_trace *t, uint64_t *on, uint64_t *all)
{
	if (t->rec && enable_extra(t->p, t->rec))
		return -1;
	return t->ops->start(t->src, t->rec, on, all);
}

/* Hand what the source collected so far to @sink. */
int fs_trace_collect(struct fs_trace *t, fs_sink_fn sink, void *ctx)
{
	return t->ops->collect(t->src, sink, ctx);
}

/* Events the source's buffers overwrote or dropped. */
long long fs_trace_overrun(struct fs_trace *t)
{
	return t->ops->overrun(t->src);
}

/* Hits the kernel could not record, -1 if unknown. */
long long fs_trace_missed(struct fs_trace *t)
{
	return t->ops->missed ? t->ops->missed(t->src) : 0;
}

/*
 * Stop collecting at @off (CLOCK_MONOTONIC), where the run's window
 * closes, and hand what is left to @sink. The -t instance records until
 * then: a source may copy what it collects into it.
 */
int fs_trace_stop(struct fs_trace *t, fs_sink_fn sink, void *ctx,
		  uint64_t *off)
{
	int ret;

	*off = fs_system_now();
	t->ops->stop(t->src);
	ret = t->ops->collect(t->src, sink, ctx);
	if (t->rec && tracefs_trace_off(t->rec))
		fs_err("cannot stop tracing in the -t instance");
	return ret;
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

/* Write all of @buf, @n bytes, to @fd; 0 or -1 (errno). */
static int write_all(int fd, const char *buf, ssize_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += w;
		n -= w;
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
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write_all(out, buf, n))
			goto write_err;
	if (n < 0) {
		fs_err("cannot read the saved trace: %s", strerror(errno));
		goto out;
	}
	ret = close(out);
	out = -1;
	if (ret)
		goto write_err;
	goto out;
write_err:
	ret = -1;
	fs_err("cannot write %s: %s", file, strerror(errno));
out:
	if (out >= 0)
		close(out);
	close(in);
	return ret;
}

/*
 * Tear the session down; safe on a partly opened one. The -t instance
 * goes first: a source's probes can be removed only once no instance
 * has them enabled.
 */
void fs_trace_close(struct fs_trace *t)
{
	if (!t)
		return;
	fs_session_drop(t->rec);
	if (t->ops)
		t->ops->close(t->src);
	free(t);
}
