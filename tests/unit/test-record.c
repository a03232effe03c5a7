// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/record.c: raw records built here, in the layouts of
 * the kernel's sched_dl_template and sched_fair_starve_wait (after an
 * 8-byte common header), of cpuhp_enter and of 7.3's sched_migrate_task,
 * decode into the values written.
 */
#include <stdint.h>
#include <string.h>

#include "record.h"
#include "tap.h"

/* The kernel's layout: common_type u16 at 0, then the event's fields. */
enum {
	OFF_TYPE = 0, OFF_CPU = 8, OFF_FLAGS = 17, OFF_RUNTIME = 24,
	OFF_DEADLINE = 32, OFF_DL_RUNTIME = 40, OFF_DL_PERIOD = 48,
	REC_SIZE = 56, ID_BOOST = 1234, ID_PARAMS = 1240,
};

/* A layout with boost and params resolved, as ring.c would. */
static void layout(struct fs_layout *l)
{
	struct fs_fields *b = &l->ev[FS_EV_BOOST], *p = &l->ev[FS_EV_PARAMS];

	memset(l, 0, sizeof(*l));
	fs_field_set(NULL, &l->type, OFF_TYPE, 2, false, false);
	b->id = ID_BOOST;
	fs_field_set(b, &b->f[FS_F_CPU], OFF_CPU, 4, true, false);
	fs_field_set(b, &b->f[FS_F_FLAGS], OFF_FLAGS, 1, false, false);
	fs_field_set(b, &b->f[FS_F_RUNTIME], OFF_RUNTIME, 8, true, false);
	fs_field_set(b, &b->f[FS_F_DEADLINE], OFF_DEADLINE, 8, false, false);
	fs_field_set(b, &b->f[FS_F_DL_RUNTIME], OFF_DL_RUNTIME, 8, false, false);
	fs_field_set(b, &b->f[FS_F_DL_PERIOD], OFF_DL_PERIOD, 8, false, false);
	p->id = ID_PARAMS;
	fs_field_set(p, &p->f[FS_F_CPU], OFF_CPU, 4, true, false);
	fs_field_set(p, &p->f[FS_F_DL_RUNTIME], OFF_DL_RUNTIME, 8, false, false);
	fs_field_set(p, &p->f[FS_F_DL_PERIOD], OFF_DL_PERIOD, 8, false, false);
}

/* Write @size bytes of @v at @off of @rec. */
static void put(unsigned char *rec, unsigned int off, uint64_t v, int size)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;

	switch (size) {
	case 1:
		memcpy(rec + off, &u8, 1);
		break;
	case 2:
		memcpy(rec + off, &u16, 2);
		break;
	case 4:
		memcpy(rec + off, &u32, 4);
		break;
	default:
		memcpy(rec + off, &v, 8);
	}
}

/* A record of event @id with distinct values in every field. */
static void record(unsigned char *rec, int id)
{
	memset(rec, 0xa5, REC_SIZE);
	put(rec, OFF_TYPE, (uint64_t)id, 2);
	put(rec, OFF_CPU, 3, 4);
	put(rec, OFF_FLAGS, 0x0d, 1);
	put(rec, OFF_RUNTIME, (uint64_t)-33556, 8);
	put(rec, OFF_DEADLINE, 10732064288ULL, 8);
	put(rec, OFF_DL_RUNTIME, 50000000, 8);
	put(rec, OFF_DL_PERIOD, 1000000000, 8);
}

/* Every field comes out as written, the timestamp as given. */
static void test_fields(void)
{
	unsigned char rec[REC_SIZE];
	struct fs_layout l;
	struct fs_event ev;

	layout(&l);
	record(rec, ID_BOOST);
	memset(&ev, 0, sizeof(ev));
	ok(fs_record_decode(&l, rec, REC_SIZE, 9808060000ULL, &ev) == 1,
	   "a boost record decodes");
	ok(ev.type == FS_EV_BOOST && ev.ts == 9808060000ULL && ev.cpu == 3,
	   "type, timestamp and cpu (%d, %llu, %d)", ev.type,
	   (unsigned long long)ev.ts, ev.cpu);
	ok(ev.flags == 0x0d, "a 1-byte field: flags 0x%x", ev.flags);
	ok(ev.runtime == -33556,
	   "a negative runtime keeps its sign (%lld)", (long long)ev.runtime);
	ok(ev.deadline == 10732064288ULL && ev.dl_runtime == 50000000 &&
	   ev.dl_period == 1000000000, "deadline and parameters");
}

/* Fields an event lacks read as zero; the record need not cover them. */
static void test_absent(void)
{
	unsigned char rec[REC_SIZE];
	struct fs_layout l;
	struct fs_event ev;

	layout(&l);
	record(rec, ID_PARAMS);
	ok(fs_record_decode(&l, rec, REC_SIZE, 1, &ev) == 1 &&
	   ev.type == FS_EV_PARAMS && ev.cpu == 3 &&
	   ev.dl_period == 1000000000,
	   "a params record decodes");
	ok(ev.flags == 0 && ev.runtime == 0 && ev.deadline == 0,
	   "its absent flags, runtime and deadline are zero");
}

/* Other events are skipped; records shorter than their format fail. */
static void test_reject(void)
{
	unsigned char rec[REC_SIZE];
	struct fs_layout l, empty;
	struct fs_event ev;

	layout(&l);
	record(rec, 999);
	ok(fs_record_decode(&l, rec, REC_SIZE, 1, &ev) == 0,
	   "a record of another event is not ours");
	record(rec, 0);
	ok(fs_record_decode(&l, rec, REC_SIZE, 1, &ev) == 0,
	   "id 0 matches no unresolved entry");
	record(rec, ID_BOOST);
	ok(fs_record_decode(&l, rec, REC_SIZE - 1, 1, &ev) == -1 &&
	   ev.type == FS_EV_BOOST,
	   "a boost record one byte short fails, naming the event");
	ok(fs_record_decode(&l, rec, 1, 1, &ev) == 0,
	   "a record too short for common_type is skipped");
	memset(&empty, 0, sizeof(empty));
	ok(fs_record_decode(&empty, rec, REC_SIZE, 1, &ev) == 0,
	   "an empty layout decodes nothing");
}

/* Only 1, 2, 4 and 8-byte numbers can be placed; strings of any size. */
static void test_sizes(void)
{
	struct fs_fields fs;
	struct fs_field f;
	unsigned int size, good = 0, strings = 0;

	memset(&fs, 0, sizeof(fs));
	for (size = 0; size <= 16; size++) {
		if (!fs_field_set(&fs, &f, 0, size, false, false))
			good++;
		if (!fs_field_set(&fs, &f, 0, size, false, true))
			strings++;
	}
	ok(good == 4, "4 number sizes of 0-16 accepted (%u)", good);
	ok(strings == 16, "strings of 1-16 bytes accepted (%u)", strings);
	fs_field_set(&fs, &f, 40, 8, false, false);
	fs_field_set(&fs, &f, 8, 4, false, false);
	ok(fs.need == 48, "need is the end of the last field (%u)", fs.need);
}

/* sched_fair_starve_wait: cpu, pid, comm[16], holder_pid, holder_comm[16],
 * holder_prio, why, first. */
enum {
	W_CPU = 8, W_PID = 12, W_COMM = 16, W_HPID = 32, W_HCOMM = 36,
	W_HPRIO = 52, W_WHY = 56, W_FIRST = 57, W_SIZE = 64, ID_WAIT = 1300,
	H_CPU = 8, H_TARGET = 12, H_SIZE = 32, ID_HOTPLUG = 77,
};

/* The starvation and hotplug events resolved, as ring.c would. */
static void starve_layout(struct fs_layout *l)
{
	struct fs_fields *w = &l->ev[FS_EV_WAIT], *h = &l->ev[FS_EV_HOTPLUG];

	memset(l, 0, sizeof(*l));
	fs_field_set(NULL, &l->type, OFF_TYPE, 2, false, false);
	w->id = ID_WAIT;
	fs_field_set(w, &w->f[FS_F_CPU], W_CPU, 4, true, false);
	fs_field_set(w, &w->f[FS_F_PID], W_PID, 4, true, false);
	fs_field_set(w, &w->f[FS_F_COMM], W_COMM, 16, false, true);
	fs_field_set(w, &w->f[FS_F_HOLDER_PID], W_HPID, 4, true, false);
	fs_field_set(w, &w->f[FS_F_HOLDER_COMM], W_HCOMM, 16, false, true);
	fs_field_set(w, &w->f[FS_F_HOLDER_PRIO], W_HPRIO, 4, true, false);
	fs_field_set(w, &w->f[FS_F_WHY], W_WHY, 1, false, false);
	fs_field_set(w, &w->f[FS_F_FIRST], W_FIRST, 1, false, false);
	h->id = ID_HOTPLUG;
	fs_field_set(h, &h->f[FS_F_CPU], H_CPU, 4, false, false);
	fs_field_set(h, &h->f[FS_F_TARGET], H_TARGET, 4, true, false);
}

/* Strings come out NUL-terminated, a negative prio keeps its sign. */
static void test_starve(void)
{
	unsigned char rec[W_SIZE];
	struct fs_layout l;
	struct fs_event ev;

	starve_layout(&l);
	memset(rec, 'x', sizeof(rec));
	put(rec, OFF_TYPE, ID_WAIT, 2);
	put(rec, W_CPU, 2, 4);
	put(rec, W_PID, 4242, 4);
	memcpy(rec + W_COMM, "fair-probe\0zzzzz", 16);
	put(rec, W_HPID, 99, 4);
	memcpy(rec + W_HCOMM, "0123456789abcdef", 16);	/* no NUL */
	put(rec, W_HPRIO, (uint64_t)-1, 4);
	put(rec, W_WHY, FS_WAIT_PREEMPTED, 1);
	put(rec, W_FIRST, 1, 1);
	ok(fs_record_decode(&l, rec, W_SIZE, 5, &ev) == 1 &&
	   ev.type == FS_EV_WAIT && ev.cpu == 2, "a wait record decodes");
	ok(ev.task.pid == 4242 && !strcmp(ev.task.comm, "fair-probe"),
	   "the waiting task: %d %s", ev.task.pid, ev.task.comm);
	ok(ev.holder.pid == 99 && !strcmp(ev.holder.comm, "0123456789abcde"),
	   "a 16-byte comm without NUL is cut to 15 (%s)", ev.holder.comm);
	ok(ev.holder.prio == -1, "a negative prio keeps its sign (%d)",
	   ev.holder.prio);
	ok(ev.why == FS_WAIT_PREEMPTED && ev.first,
	   "why and first (%u, %d)", ev.why, ev.first);

	memset(rec, 0, sizeof(rec));
	put(rec, OFF_TYPE, ID_HOTPLUG, 2);
	put(rec, H_CPU, 3, 4);
	put(rec, H_TARGET, 0, 4);
	ok(fs_record_decode(&l, rec, H_SIZE, 5, &ev) == 1 &&
	   ev.type == FS_EV_HOTPLUG && ev.cpu == 3 && ev.down,
	   "cpuhp_enter towards state 0: going down");
	put(rec, H_TARGET, 235, 4);
	ok(fs_record_decode(&l, rec, H_SIZE, 5, &ev) == 1 && !ev.down,
	   "towards another state: coming up");
}

/*
 * sched_migrate_task as 7.3 has it: comm a __string(), whose locator at
 * M_COMM says where in the record it lies; pid, prio, orig and dest CPU.
 */
enum {
	M_COMM = 8, M_PID = 12, M_PRIO = 16, M_ORIG = 20, M_DEST = 24,
	M_STR = 28, M_SIZE = 40, ID_MIGRATE = 300,
};

/* A string past the fixed fields is found by its locator, and checked. */
static void test_loc(void)
{
	struct fs_fields *m;
	unsigned char rec[M_SIZE];
	struct fs_layout l;
	struct fs_event ev;

	memset(&l, 0, sizeof(l));
	fs_field_set(NULL, &l.type, OFF_TYPE, 2, false, false);
	m = &l.ev[FS_EV_MIGRATE];
	m->id = ID_MIGRATE;
	fs_field_set_loc(m, &m->f[FS_F_COMM], M_COMM);
	fs_field_set(m, &m->f[FS_F_PID], M_PID, 4, true, false);
	fs_field_set(m, &m->f[FS_F_PRIO], M_PRIO, 4, true, false);
	fs_field_set(m, &m->f[FS_F_ORIG_CPU], M_ORIG, 4, true, false);
	fs_field_set(m, &m->f[FS_F_DEST_CPU], M_DEST, 4, true, false);
	ok(m->need == M_STR, "need ends at the fixed fields (%u)", m->need);

	memset(rec, 0, sizeof(rec));
	put(rec, OFF_TYPE, ID_MIGRATE, 2);
	put(rec, M_COMM, (uint64_t)(11u << 16 | M_STR), 4);
	put(rec, M_PID, 77, 4);
	put(rec, M_PRIO, 120, 4);
	put(rec, M_ORIG, 1, 4);
	put(rec, M_DEST, 3, 4);
	memcpy(rec + M_STR, "fair-probe", 11);
	ok(fs_record_decode(&l, rec, M_SIZE, 9, &ev) == 1 &&
	   ev.type == FS_EV_MIGRATE && ev.from.pid == 77 &&
	   ev.src_cpu == 1 && ev.cpu == 3, "a migration with a __string decodes");
	ok(!strcmp(ev.from.comm, "fair-probe"), "its comm is found (%s)",
	   ev.from.comm);
	put(rec, M_COMM, (uint64_t)(20u << 16 | M_STR), 4);
	ok(fs_record_decode(&l, rec, M_SIZE, 9, &ev) == 1 &&
	   ev.from.comm[0] == '\0' && ev.from.pid == 77,
	   "a locator past the record's end gives no comm, the rest stays");
}

/* What each event carries, as the kernel series has it. */
static void test_has(void)
{
	ok(fs_event_has(FS_EV_BOOST, FS_F_FLAGS) &&
	   !fs_event_has(FS_EV_BOOST, FS_F_COMM) &&
	   fs_event_has(FS_EV_PARAMS, FS_F_RET) &&
	   !fs_event_has(FS_EV_PARAMS, FS_F_FLAGS) &&
	   fs_event_has(FS_EV_END, FS_F_STARVED) &&
	   !fs_event_has(FS_EV_HOLD, FS_F_PID) &&
	   fs_event_has(FS_EV_HOTPLUG, FS_F_TARGET) &&
	   !fs_event_has(FS_EV_LOST, FS_F_CPU) &&
	   !fs_event_has(FS_EV_NR, FS_F_CPU),
	   "fields per event");
	ok(!strcmp(fs_field_name(FS_F_HOLDER_COMM), "holder_comm") &&
	   !strcmp(fs_field_name(FS_F_NR), "?"), "field names");
}

/* The table of the events holds together. */
static void test_table(void)
{
	unsigned int i, j, bad_name = 0, bad_server = 0, bad_kernel = 0;
	unsigned int bad_edges = 0, bad_observed = 0, bad_fields = 0;

	for (i = 0; i < FS_EV_NR; i++) {
		const struct fs_ev_desc *e = &fs_events[i];
		bool kernel = e->kind == FS_KIND_SERVER ||
			      e->kind == FS_KIND_STARVE ||
			      e->kind == FS_KIND_HOTPLUG ||
			      e->kind == FS_KIND_SCHED;

		if (!e->name || !strcmp(e->name, "invalid"))
			bad_name++;
		for (j = 0; e->name && j < i; j++)
			bad_name += fs_events[j].name &&
				    !strcmp(fs_events[j].name, e->name);
		/* struct fs_server counts the server's events by type. */
		bad_server += fs_ev_server(i) != (i < FS_EV_SERVER_NR);
		bad_kernel += kernel != (e->system && e->event);
		bad_kernel += !kernel && (e->system || e->event || e->filter);
		bad_edges += fs_ev_server(i) != (e->edges != 0);
		bad_observed += e->observed != (e->kind == FS_KIND_PROBE ||
						e->kind == FS_KIND_SCHED ||
						i == FS_EV_FOUND_TASK);
		bad_fields += (e->kind == FS_KIND_MARK) != !e->fields;
	}
	ok(bad_name == 0, "every event has a name of its own");
	ok(bad_server == 0, "the server's events come first, %d of them",
	   FS_EV_SERVER_NR);
	ok(bad_kernel == 0,
	   "the kernel's events have a tracefs name, probes and marks none");
	ok(bad_edges == 0, "the server's events, and only they, have edges");
	ok(bad_observed == 0, "the probes', the scheduler's and the tasks "
	   "found are observations");
	ok(bad_fields == 0, "every event but the marks has fields");
	ok(fs_ev_is(FS_EV_HOLD, FS_KIND_STARVE) &&
	   !fs_ev_is(FS_EV_NR, FS_KIND_MARK) && !fs_ev_server(FS_EV_NR) &&
	   !fs_ev_observed(FS_EV_NR), "kinds, and no kind out of range");
}

int main(void)
{
	test_fields();
	test_absent();
	test_reject();
	test_sizes();
	test_starve();
	test_loc();
	test_has();
	test_table();
	return tap_done();
}
