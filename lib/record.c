// SPDX-License-Identifier: GPL-2.0
/*
 * Raw trace records to fs_events; see record.h.
 */
#include <string.h>

#include "record.h"

static const char *const field_names[FS_F_NR] = {
	[FS_F_CPU]		= "cpu",
	[FS_F_FLAGS]		= "flags",
	[FS_F_RUNTIME]		= "runtime",
	[FS_F_DEADLINE]		= "deadline",
	[FS_F_DL_RUNTIME]	= "dl_runtime",
	[FS_F_DL_PERIOD]	= "dl_period",
	[FS_F_RET]		= "ret",
	[FS_F_PID]		= "pid",
	[FS_F_COMM]		= "comm",
	[FS_F_HOLDER_PID]	= "holder_pid",
	[FS_F_HOLDER_COMM]	= "holder_comm",
	[FS_F_HOLDER_PRIO]	= "holder_prio",
	[FS_F_WHY]		= "why",
	[FS_F_FIRST]		= "first",
	[FS_F_STARVED]		= "starved",
	[FS_F_RT_WAIT]		= "rt_wait",
	[FS_F_TARGET]		= "target",
	[FS_F_PREV_COMM]	= "prev_comm",
	[FS_F_PREV_PID]		= "prev_pid",
	[FS_F_PREV_PRIO]	= "prev_prio",
	[FS_F_PREV_STATE]	= "prev_state",
	[FS_F_NEXT_COMM]	= "next_comm",
	[FS_F_NEXT_PID]		= "next_pid",
	[FS_F_NEXT_PRIO]	= "next_prio",
	[FS_F_PRIO]		= "prio",
	[FS_F_TARGET_CPU]	= "target_cpu",
	[FS_F_ORIG_CPU]		= "orig_cpu",
	[FS_F_DEST_CPU]		= "dest_cpu",
};

/* The name of a field in the formats. */
const char *fs_field_name(enum fs_fid fid)
{
	return fid < FS_F_NR ? field_names[fid] : "?";
}

/* Whether event @ev carries field @fid. */
bool fs_event_has(enum fs_ev ev, enum fs_fid fid)
{
	return ev < FS_EV_NR && fid < FS_F_NR &&
	       (fs_events[ev].fields & FS_F_BIT(fid));
}

/* Place a field and grow its event's need. */
int fs_field_set(struct fs_fields *fs, struct fs_field *f,
		 unsigned int offset, unsigned int size, bool is_signed,
		 bool is_string)
{
	if (is_string ? size < 1 :
	    size != 1 && size != 2 && size != 4 && size != 8)
		return -1;
	f->offset = offset;
	f->size = size;
	f->is_signed = is_signed && !is_string;
	f->is_string = is_string;
	f->is_loc = false;
	if (fs && offset + size > fs->need)
		fs->need = offset + size;
	return 0;
}

/* Place a string the record holds past its fixed fields. */
int fs_field_set_loc(struct fs_fields *fs, struct fs_field *f,
		     unsigned int offset)
{
	fs_field_set(fs, f, offset, 4, false, true);
	f->is_loc = true;
	return 0;
}

/* Load the number @f of @data, sign-extended if signed; 0 if absent. */
static uint64_t load(const struct fs_field *f, const unsigned char *data)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (f->size) {
	case 1:
		memcpy(&u8, data + f->offset, 1);
		return f->is_signed ? (uint64_t)(int64_t)(int8_t)u8 : u8;
	case 2:
		memcpy(&u16, data + f->offset, 2);
		return f->is_signed ? (uint64_t)(int64_t)(int16_t)u16 : u16;
	case 4:
		memcpy(&u32, data + f->offset, 4);
		return f->is_signed ? (uint64_t)(int64_t)(int32_t)u32 : u32;
	case 8:
		memcpy(&u64, data + f->offset, 8);
		return u64;
	}
	return 0;
}

/*
 * Copy the string @f of the record @data, @size bytes long, into @out,
 * NUL-terminated; "" if absent or if its locator points outside the record.
 */
static void load_string(const struct fs_field *f, const unsigned char *data,
			unsigned int size, char out[FS_COMM_LEN])
{
	unsigned int off = f->offset, len = f->size, n;
	uint32_t loc;

	if (f->is_loc) {
		memcpy(&loc, data + f->offset, 4);
		off = loc & 0xffff;
		len = loc >> 16;
		if (off + len > size)
			len = 0;
	}
	n = len < FS_COMM_LEN - 1 ? len : FS_COMM_LEN - 1;
	memcpy(out, data + off, n);
	out[n] = '\0';
}

/* The FS_FLAG_* bits of a probe's word. */
unsigned int fs_probe_flags(const struct fs_layout *l, uint64_t word)
{
	unsigned int i, flags = 0;

	for (i = 0; i < FS_PROBE_FLAGS; i++)
		if (l->probe_bit[i] < 64 && (word >> l->probe_bit[i]) & 1)
			flags |= 1u << i;
	return flags;
}

/* Load the task @pid, @prio and @comm of @d, @size bytes, into @t. */
static void load_task(const struct fs_field *pid, const struct fs_field *prio,
		      const struct fs_field *comm, const unsigned char *d,
		      unsigned int size, struct fs_task *t)
{
	t->pid = (int32_t)load(pid, d);
	t->prio = (int32_t)load(prio, d);
	load_string(comm, d, size, t->comm);
}

/* Fill the fields of the scheduler's event @ev from @d, @size bytes. */
static void fill_sched(const struct fs_field *f, const unsigned char *d,
		       unsigned int size, struct fs_event *ev)
{
	switch (ev->type) {
	case FS_EV_SWITCH:
		/* The CPU is the buffer's: the reader sets it. */
		load_task(&f[FS_F_PREV_PID], &f[FS_F_PREV_PRIO],
			  &f[FS_F_PREV_COMM], d, size, &ev->from);
		load_task(&f[FS_F_NEXT_PID], &f[FS_F_NEXT_PRIO],
			  &f[FS_F_NEXT_COMM], d, size, &ev->to);
		ev->from_state = (int64_t)load(&f[FS_F_PREV_STATE], d);
		break;
	case FS_EV_WAKEUP:
	case FS_EV_WAKEUP_NEW:
		load_task(&f[FS_F_PID], &f[FS_F_PRIO], &f[FS_F_COMM], d,
			  size, &ev->from);
		ev->cpu = (int)load(&f[FS_F_TARGET_CPU], d);
		break;
	case FS_EV_MIGRATE:
		load_task(&f[FS_F_PID], &f[FS_F_PRIO], &f[FS_F_COMM], d,
			  size, &ev->from);
		ev->src_cpu = (int)load(&f[FS_F_ORIG_CPU], d);
		ev->cpu = (int)load(&f[FS_F_DEST_CPU], d);
		break;
	default:
		break;
	}
}

/* Fill the fields of @ev that its event carries. */
static void fill(const struct fs_layout *l, const struct fs_fields *fs,
		 const unsigned char *d, unsigned int size, struct fs_event *ev)
{
	const struct fs_field *f = fs->f;

	ev->cpu = (int)load(&f[FS_F_CPU], d);
	switch (fs_events[ev->type].kind) {
	case FS_KIND_SCHED:
		fill_sched(f, d, size, ev);
		break;
	case FS_KIND_STARVE:
		ev->task.pid = (int32_t)load(&f[FS_F_PID], d);
		load_string(&f[FS_F_COMM], d, size, ev->task.comm);
		ev->holder.pid = (int32_t)load(&f[FS_F_HOLDER_PID], d);
		ev->holder.prio = (int32_t)load(&f[FS_F_HOLDER_PRIO], d);
		load_string(&f[FS_F_HOLDER_COMM], d, size, ev->holder.comm);
		ev->why = (unsigned int)load(&f[FS_F_WHY], d);
		ev->first = load(&f[FS_F_FIRST], d) != 0;
		ev->starved = load(&f[FS_F_STARVED], d);
		break;
	case FS_KIND_HOTPLUG:
		/* cpuhp_enter: a step towards CPUHP_OFFLINE (0), or up. */
		ev->down = load(&f[FS_F_TARGET], d) == 0;
		break;
	default:
		/* The server's, as the series or a probe shows it. */
		ev->flags = (unsigned int)load(&f[FS_F_FLAGS], d);
		if (fs_events[ev->type].kind == FS_KIND_PROBE)
			ev->flags = fs_probe_flags(l, load(&f[FS_F_FLAGS], d));
		ev->runtime = (int64_t)load(&f[FS_F_RUNTIME], d);
		ev->deadline = load(&f[FS_F_DEADLINE], d);
		ev->dl_runtime = load(&f[FS_F_DL_RUNTIME], d);
		ev->dl_period = load(&f[FS_F_DL_PERIOD], d);
		ev->ret = (int)load(&f[FS_F_RET], d);
		ev->rt_wait = load(&f[FS_F_RT_WAIT], d);
		break;
	}
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
	memset(ev, 0, sizeof(*ev));
	ev->type = i;
	if (size < fs->need)
		return -1;
	ev->ts = ts;
	fill(l, fs, data, size, ev);
	return 1;
}
