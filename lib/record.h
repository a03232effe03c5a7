/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding of one raw trace record into an fs_event, given where each
 * field lies. The layout is read from the events' formats by the tracefs
 * side (ring.c); this part is pure, and the records are in host byte
 * order, as a local ring buffer's are.
 */
#ifndef FAIRSRV_RECORD_H
#define FAIRSRV_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"

/* The fields the tool reads, whatever event carries them. */
enum fs_fid {
	FS_F_CPU,
	FS_F_FLAGS,
	FS_F_RUNTIME,
	FS_F_DEADLINE,
	FS_F_DL_RUNTIME,
	FS_F_DL_PERIOD,
	FS_F_RET,
	FS_F_PID,
	FS_F_COMM,
	FS_F_HOLDER_PID,
	FS_F_HOLDER_COMM,
	FS_F_HOLDER_PRIO,
	FS_F_WHY,
	FS_F_FIRST,
	FS_F_STARVED,
	FS_F_TARGET,
	FS_F_RT_WAIT,
	/* The scheduler's events. */
	FS_F_PREV_COMM,
	FS_F_PREV_PID,
	FS_F_PREV_PRIO,
	FS_F_PREV_STATE,
	FS_F_NEXT_COMM,
	FS_F_NEXT_PID,
	FS_F_NEXT_PRIO,
	FS_F_PRIO,
	FS_F_TARGET_CPU,
	FS_F_ORIG_CPU,
	FS_F_DEST_CPU,
	FS_F_NR
};

/* Field @fid in a set of fields, fs_ev_desc's fields. */
#define FS_F_BIT(fid)	(1u << (fid))

/*
 * The flags of the probes, a word of sched_dl_entity's bit fields: the
 * bit of each FS_FLAG_* in it (BTF says where), in flag order.
 */
#define FS_PROBE_FLAGS	4

/* Where a field lies in a record; size 0 when the event lacks it. */
struct fs_field {
	unsigned int offset, size;
	bool is_signed;		/* a number to sign-extend */
	bool is_string;		/* a char array */
	bool is_loc;		/* a string elsewhere in the record: see below */
};

/*
 * The fields of one event. need is 0 until a field is set: such an entry
 * matches no record.
 */
struct fs_fields {
	int id;			/* the event's common_type */
	unsigned int need;	/* a record must be this long */
	struct fs_field f[FS_F_NR];
};

/* The layout of all the events the tool reads. */
struct fs_layout {
	struct fs_field type;	/* common_type, in every record */
	struct fs_fields ev[FS_EV_NR];
	unsigned int probe_bit[FS_PROBE_FLAGS];
};

/* The FS_FLAG_* bits of the probes' word @word. */
unsigned int fs_probe_flags(const struct fs_layout *l, uint64_t word);

/* The name of field @fid in the events' formats. */
const char *fs_field_name(enum fs_fid fid);

/*
 * Whether event @ev carries field @fid, as its entry in fs_events[] says:
 * as the kernel series defines them (cpuhp_enter: cpu and target), as the
 * scheduler's events have them, and as the tool's probes define them.
 */
bool fs_event_has(enum fs_ev ev, enum fs_fid fid);

/*
 * Place a field at @offset, @size bytes, into @fs (NULL for common_type,
 * then into @f). Numbers must have 1, 2, 4 or 8 bytes; strings are char
 * arrays of at least 1 byte. Returns 0, or -1 if the size does not fit.
 */
int fs_field_set(struct fs_fields *fs, struct fs_field *f,
		 unsigned int offset, unsigned int size, bool is_signed,
		 bool is_string);

/*
 * Place a string that the record holds after its fixed fields (the
 * kernel's __string(), a "__data_loc char[]" in the format): at @offset,
 * a u32 whose low 16 bits are where the string starts in the record and
 * whose high 16 bits are its length. Returns 0.
 */
int fs_field_set_loc(struct fs_fields *fs, struct fs_field *f,
		     unsigned int offset);

/*
 * Decode the record @data of @size bytes, stamped @ts. Returns 1 with
 * @ev filled, 0 if it is not one of our events, or -1 if it is shorter
 * than its format (@ev->type then names the event).
 */
int fs_record_decode(const struct fs_layout *l, const void *data,
		     unsigned int size, uint64_t ts, struct fs_event *ev);

#endif
