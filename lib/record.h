/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding of one raw trace record into an fs_event, given where each
 * field lies. The layout is read from the events' formats by the tracefs
 * side (trace.c); this part is pure, and the records are in host byte
 * order, as a local ring buffer's are.
 */
#ifndef FAIRSRV_RECORD_H
#define FAIRSRV_RECORD_H

#include <stdint.h>

#include "model.h"

/* Where a field lies in a record; size 0 when the event lacks it. */
struct fs_field {
	unsigned int offset, size;	/* size: 1, 2, 4 or 8 */
};

/*
 * The fields of one event; flags, runtime, deadline absent for params.
 * need is 0 until a field is set: such an entry matches no record.
 */
struct fs_fields {
	int id;			/* the event's common_type */
	unsigned int need;	/* a record must be this long */
	struct fs_field cpu, flags, runtime, deadline, dl_runtime, dl_period;
};

/* The layout of all our events. */
struct fs_layout {
	struct fs_field type;	/* common_type, in every record */
	struct fs_fields ev[FS_EV_NR];
};

/*
 * Place @f at @offset, @size bytes; @fs, the event's fields @f is one of,
 * grows its need (NULL for common_type). 0, or -1 if not 1/2/4/8 bytes.
 */
int fs_field_set(struct fs_fields *fs, struct fs_field *f,
		 unsigned int offset, unsigned int size);

/*
 * Decode the record @data of @size bytes, stamped @ts. Returns 1 with
 * @ev filled, 0 if it is not one of our events, or -1 if it is shorter
 * than its format (@ev->type then names the event).
 */
int fs_record_decode(const struct fs_layout *l, const void *data,
		     unsigned int size, uint64_t ts, struct fs_event *ev);

#endif
