// SPDX-License-Identifier: GPL-2.0
/*
 * Raw trace records to fs_events; see record.h.
 */
#include <string.h>

#include "record.h"

/* Place @f at @offset, @size bytes, and grow @fs's need. */
int fs_field_set(struct fs_fields *fs, struct fs_field *f,
		 unsigned int offset, unsigned int size)
{
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return -1;
	f->offset = offset;
	f->size = size;
	if (fs && offset + size > fs->need)
		fs->need = offset + size;
	return 0;
}

/* Load the unsigned number @f of @data; 0 if the event lacks it. */
static uint64_t load(const struct fs_field *f, const unsigned char *data)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (f->size) {
	case 1:
		memcpy(&u8, data + f->offset, 1);
		return u8;
	case 2:
		memcpy(&u16, data + f->offset, 2);
		return u16;
	case 4:
		memcpy(&u32, data + f->offset, 4);
		return u32;
	case 8:
		memcpy(&u64, data + f->offset, 8);
		return u64;
	}
	return 0;
}

/* Decode one record; 1 decoded, 0 not ours, -1 too short. */
int fs_record_decode(const struct fs_layout *l, const void *data,
		     unsigned int size, uint64_t ts, struct fs_event *ev)
{
	const struct fs_fields *fs;
	int i, id;

	if (!l->type.size || size < l->type.offset + l->type.size)
		return 0;
	id = (int)load(&l->type, data);
	for (i = 0; i < FS_EV_NR; i++)
		if (l->ev[i].need && l->ev[i].id == id)
			break;
	if (i == FS_EV_NR)
		return 0;
	fs = &l->ev[i];
	ev->type = i;
	if (size < fs->need)
		return -1;
	ev->ts = ts;
	ev->cpu = (int)load(&fs->cpu, data);
	ev->flags = (unsigned int)load(&fs->flags, data);
	ev->runtime = (int64_t)load(&fs->runtime, data);
	ev->deadline = load(&fs->deadline, data);
	ev->dl_runtime = load(&fs->dl_runtime, data);
	ev->dl_period = load(&fs->dl_period, data);
	return 1;
}
