// SPDX-License-Identifier: GPL-2.0
/*
 * decode-check: the tool's record decoding against libtraceevent, on the
 * running kernel's real formats and records.
 *
 *   decode-check -d SECONDS -r READY_FILE
 *
 * It records the tool's events in an instance of its own for SECONDS, or
 * until SIGINT (READY_FILE is created once they are enabled, for the load
 * to start),
 * then takes every record twice: through the tool's layout and
 * fs_record_decode(), and through libtraceevent, which reads each field
 * and prints the event from its print format (the kernel's TP_printk).
 * Every field must agree, and the printed flags and reasons must be the
 * names the tool gives its own values. One line per event tells how
 * many records were checked; the exit status is 1 on any mismatch.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "fairsrv.h"
#include "record.h"
#include "ring.h"

#define MAX_REPORTS	10	/* mismatches printed in full */

struct check {
	struct tep_handle *tep;
	struct fs_layout layout;
	struct tep_event *events[FS_EV_NR];	/* the series' events only */
	unsigned long records[FS_EV_NR];
	unsigned long bad[FS_EV_NR];
	unsigned long reports;
	struct trace_seq seq;
};

/* Whether event @i is the series' or CPU hotplug's: what this checks. */
static bool series(int i)
{
	return fs_ev_is(i, FS_KIND_SERVER) || fs_ev_is(i, FS_KIND_STARVE) ||
	       fs_ev_is(i, FS_KIND_HOTPLUG);
}

/* Note one mismatch of @what in a record of event @i. */
static void mismatch(struct check *c, int i, const char *what,
		     const char *info)
{
	c->bad[i]++;
	if (c->reports++ < MAX_REPORTS)
		fprintf(stderr, "decode-check: %s: %s differs: %s\n",
			c->events[i]->name, what, info);
}

/* The field @name of @rec as libtraceevent reads it, sign-extended. */
static int tep_value(struct tep_event *ev, struct tep_record *rec,
		     const char *name, long long *out)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	unsigned long long v;

	if (!f || tep_read_number_field(f, rec->data, &v))
		return -1;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		unsigned int shift = 64 - 8 * f->size;

		*out = (long long)(v << shift) >> shift;
	} else {
		*out = (long long)v;
	}
	return 0;
}

/* The string field @name of @rec, as its bytes say. */
static int tep_string(struct tep_event *ev, struct tep_record *rec,
		      const char *name, char *out, size_t len)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	size_t n;

	if (!f || f->offset < 0 || f->size <= 0)
		return -1;
	n = strnlen((const char *)rec->data + f->offset, f->size);
	if (n >= len)
		n = len - 1;
	memcpy(out, (const char *)rec->data + f->offset, n);
	out[n] = '\0';
	return 0;
}

/* The number the tool decoded for field @fid of @ev. */
static long long ours(const struct fs_event *ev, enum fs_fid fid)
{
	switch (fid) {
	case FS_F_CPU:		return ev->cpu;
	case FS_F_FLAGS:	return ev->flags;
	case FS_F_RUNTIME:	return ev->runtime;
	case FS_F_DEADLINE:	return (long long)ev->deadline;
	case FS_F_DL_RUNTIME:	return (long long)ev->dl_runtime;
	case FS_F_DL_PERIOD:	return (long long)ev->dl_period;
	case FS_F_RET:		return ev->ret;
	case FS_F_PID:		return ev->task.pid;
	case FS_F_HOLDER_PID:	return ev->holder.pid;
	case FS_F_HOLDER_PRIO:	return ev->holder.prio;
	case FS_F_WHY:		return ev->why;
	case FS_F_FIRST:	return ev->first;
	case FS_F_STARVED:	return (long long)ev->starved;
	case FS_F_RT_WAIT:	return (long long)ev->rt_wait;
	/* A field this check does not know yet fails every record. */
	default:		return LLONG_MIN;
	}
}

/* The value of "@key=" in the printed @info, or NULL. */
static const char *printed(const char *info, const char *key, char *buf,
			   size_t len)
{
	size_t k = strlen(key), n;
	const char *p = info;

	while ((p = strstr(p, key))) {
		if ((p == info || p[-1] == ' ') && p[k] == '=') {
			p += k + 1;
			n = strcspn(p, " ");
			if (n >= len)
				n = len - 1;
			memcpy(buf, p, n);
			buf[n] = '\0';
			return buf;
		}
		p += k;
	}
	return NULL;
}

/* The tool's flags as the kernel's print format names them. */
static void flag_names(unsigned int flags, char *buf, size_t len)
{
	static const struct { unsigned int bit; const char *name; } names[] = {
		{ FS_FLAG_ACTIVE, "active" }, { FS_FLAG_THROTTLED, "throttled" },
		{ FS_FLAG_ARMED, "armed" }, { FS_FLAG_RUNNING, "running" },
	};
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (flags & names[i].bit)
			n += snprintf(buf + n, len - n, "%s%s", n ? "|" : "",
				      names[i].name);
}

/* Compare what libtraceevent prints with the tool's names. */
static void check_printed(struct check *c, int i, const struct fs_event *ev,
			  const char *info)
{
	char got[64], want[64];

	if (strstr(info, "FAILED TO PARSE") || strstr(info, "[UNKNOWN")) {
		mismatch(c, i, "the print format", info);
		return;
	}
	if (printed(info, "flags", got, sizeof(got))) {
		flag_names(ev->flags, want, sizeof(want));
		if (strcmp(got, want))
			mismatch(c, i, "flags", info);
	}
	if (printed(info, "why", got, sizeof(got)) &&
	    strcmp(got, i == FS_EV_WAIT ? fs_wait_why_name(ev->why) :
			fs_end_why_name(ev->why)))
		mismatch(c, i, "why", info);
	if (printed(info, "cpu", got, sizeof(got)) &&
	    strtol(got, NULL, 10) != ev->cpu)
		mismatch(c, i, "cpu", info);
}

/* Take one record both ways. */
static int one(struct tep_event *tev, struct tep_record *rec, int cpu,
	       void *data)
{
	struct check *c = data;
	struct fs_event ev;
	char want[FS_COMM_LEN + 1];
	int i, fid, ret;

	(void)cpu;
	for (i = 0; i < FS_EV_NR; i++)
		if (c->events[i] && c->events[i]->id == tev->id)
			break;
	if (i == FS_EV_NR)
		return 0;
	c->records[i]++;
	ret = fs_record_decode(&c->layout, rec->data, rec->size, rec->ts, &ev);
	if (ret != 1 || (int)ev.type != i || ev.ts != rec->ts) {
		mismatch(c, i, "the record", "not decoded as this event");
		return 0;
	}
	for (fid = 0; fid < FS_F_NR; fid++) {
		const char *name = fs_field_name(fid);
		long long v;

		if (!fs_event_has(i, fid))
			continue;
		if (fid == FS_F_COMM || fid == FS_F_HOLDER_COMM) {
			const char *got = fid == FS_F_COMM ? ev.task.comm :
							     ev.holder.comm;

			if (tep_string(tev, rec, name, want, sizeof(want)) ||
			    strncmp(got, want, FS_COMM_LEN - 1))
				mismatch(c, i, name, got);
			continue;
		}
		if (tep_value(tev, rec, name, &v)) {
			mismatch(c, i, name, "libtraceevent cannot read it");
			continue;
		}
		/* cpuhp_enter's target: the tool keeps whether it is 0. */
		if (fid == FS_F_TARGET ? ev.down != (v == 0) : ours(&ev, fid) != v) {
			char info[96];

			snprintf(info, sizeof(info), "libtraceevent %lld, the tool %lld",
				 v, fid == FS_F_TARGET ? ev.down : ours(&ev, fid));
			mismatch(c, i, name, info);
		}
	}
	trace_seq_reset(&c->seq);
	tep_print_event(c->tep, &c->seq, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&c->seq);
	check_printed(c, i, &ev, c->seq.buffer);
	return 0;
}

/* Parse the formats and place the fields the tool's way. */
static int setup(struct check *c)
{
	static const char *const systems[] = { "sched", "cpuhp", NULL };
	int i;

	c->tep = tracefs_local_events_system(NULL, systems);
	if (!c->tep) {
		fprintf(stderr, "decode-check: cannot parse the event formats\n");
		return -1;
	}
	for (i = 0; i < FS_EV_NR; i++) {
		const char *sys = fs_events[i].system;
		const char *name = fs_events[i].event;

		if (!series(i))
			continue;
		c->events[i] = tep_find_event_by_name(c->tep, sys, name);
		if (!c->events[i]) {
			fprintf(stderr, "decode-check: the kernel has no %s:%s\n",
				sys, name);
			return -1;
		}
		if (fs_ring_layout_event(&c->layout, i, c->events[i]))
			return -1;
	}
	return 0;
}

/* SIGINT: only end the recording's sleep early. */
static void on_stop(int sig)
{
	(void)sig;
}

/* Record the tool's events for @secs seconds (or until SIGINT) in @inst. */
static int record(struct tracefs_instance *inst, unsigned int secs,
		  const char *ready)
{
	struct sigaction sa = { .sa_handler = on_stop };
	int i, fd;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL)) {
		fprintf(stderr, "decode-check: sigaction: %s\n", strerror(errno));
		return -1;
	}
	if (tracefs_trace_off(inst) ||
	    tracefs_instance_file_write(inst, "trace_clock", "mono") < 0) {
		fprintf(stderr, "decode-check: cannot set up the instance\n");
		return -1;
	}
	for (i = 0; i < FS_EV_NR; i++) {
		const char *sys = fs_events[i].system;
		const char *name = fs_events[i].event;

		if (!series(i))
			continue;
		if (tracefs_event_enable(inst, sys, name)) {
			fprintf(stderr, "decode-check: cannot enable %s\n", name);
			return -1;
		}
	}
	if (tracefs_trace_on(inst)) {
		fprintf(stderr, "decode-check: cannot start tracing\n");
		return -1;
	}
	fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || close(fd)) {
		fprintf(stderr, "decode-check: %s: %s\n", ready, strerror(errno));
		return -1;
	}
	sleep(secs);
	if (tracefs_trace_off(inst) || tracefs_event_disable(inst, NULL, NULL)) {
		fprintf(stderr, "decode-check: cannot stop tracing\n");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct tracefs_instance *inst = NULL;
	struct check c = { 0 };
	const char *ready = NULL;
	unsigned long total = 0, bad = 0;
	unsigned int secs = 0;
	char name[64];
	int opt, i, ret = 1;

	while ((opt = getopt(argc, argv, "d:r:")) != -1) {
		if (opt == 'd')
			secs = (unsigned int)strtoul(optarg, NULL, 10);
		else if (opt == 'r')
			ready = optarg;
		else
			break;
	}
	if (!secs || !ready || optind != argc) {
		fprintf(stderr, "usage: decode-check -d SECONDS -r READY_FILE\n");
		return 2;
	}
	trace_seq_init(&c.seq);
	if (setup(&c))
		goto out;
	snprintf(name, sizeof(name), "decode_check_%d", (int)getpid());
	inst = tracefs_instance_create(name);
	if (!inst) {
		fprintf(stderr, "decode-check: cannot create instance %s\n", name);
		goto out;
	}
	if (record(inst, secs, ready))
		goto out;
	if (tracefs_iterate_raw_events(c.tep, inst, NULL, 0, one, &c)) {
		fprintf(stderr, "decode-check: cannot read the records\n");
		goto out;
	}
	for (i = 0; i < FS_EV_NR; i++) {
		if (!c.events[i])
			continue;
		printf("%s: %lu records, %lu mismatches\n", c.events[i]->name,
		       c.records[i], c.bad[i]);
		total += c.records[i];
		bad += c.bad[i];
	}
	printf("all: %lu records, %lu mismatches\n", total, bad);
	ret = bad ? 1 : 0;
out:
	if (inst) {
		tracefs_instance_destroy(inst);
		tracefs_instance_free(inst);
	}
	trace_seq_destroy(&c.seq);
	tep_free(c.tep);
	return ret;
}
