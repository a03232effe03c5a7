// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/record.c: raw records built here, in the layout of
 * the kernel's sched_dl_template (after an 8-byte common header), decode
 * into the values written.
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

/* A layout with boost and params resolved, as trace.c would. */
static void layout(struct fs_layout *l)
{
	struct fs_fields *b = &l->ev[FS_EV_BOOST], *p = &l->ev[FS_EV_PARAMS];

	memset(l, 0, sizeof(*l));
	fs_field_set(NULL, &l->type, OFF_TYPE, 2);
	b->id = ID_BOOST;
	fs_field_set(b, &b->cpu, OFF_CPU, 4);
	fs_field_set(b, &b->flags, OFF_FLAGS, 1);
	fs_field_set(b, &b->runtime, OFF_RUNTIME, 8);
	fs_field_set(b, &b->deadline, OFF_DEADLINE, 8);
	fs_field_set(b, &b->dl_runtime, OFF_DL_RUNTIME, 8);
	fs_field_set(b, &b->dl_period, OFF_DL_PERIOD, 8);
	p->id = ID_PARAMS;
	fs_field_set(p, &p->cpu, OFF_CPU, 4);
	fs_field_set(p, &p->dl_runtime, OFF_DL_RUNTIME, 8);
	fs_field_set(p, &p->dl_period, OFF_DL_PERIOD, 8);
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

/* Only 1, 2, 4 and 8-byte fields can be placed. */
static void test_sizes(void)
{
	struct fs_fields fs;
	struct fs_field f;
	unsigned int size, good = 0;

	memset(&fs, 0, sizeof(fs));
	for (size = 0; size <= 16; size++)
		if (!fs_field_set(&fs, &f, 0, size))
			good++;
	ok(good == 4, "4 sizes of 0-16 accepted (%u)", good);
	fs_field_set(&fs, &f, 40, 8);
	fs_field_set(&fs, &f, 8, 4);
	ok(fs.need == 48, "need is the end of the last field (%u)", fs.need);
}

int main(void)
{
	test_fields();
	test_absent();
	test_reject();
	test_sizes();
	return tap_done();
}
