/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tracefs ring: the events a source reads through an instance's ring
 * buffers, where their fields lie (resolved once from their formats), and
 * the readers that decode each record for a sink. The series' events and
 * the kprobe source both read one; they differ in the events they put in.
 */
#ifndef FAIRSRV_RING_H
#define FAIRSRV_RING_H

#include "source.h"

struct fs_ring;

/*
 * Groups of events: the server's are needed, the others add figures; the
 * scheduler's own are read for the what-if's load (the kprobe source reads
 * them as its starvation group). A group is read whole or not at all.
 */
enum fs_ring_group {
	FS_RING_SERVER,
	FS_RING_STARVATION,
	FS_RING_HOTPLUG,
	FS_RING_LOAD,
	FS_RING_NR_GROUPS
};

/* What a source says of its events, for the ring's checks and messages. */
struct fs_ring_desc {
	/* The error when a server event is missing, with one %s: which. */
	const char *server_missing;
	/* The events fair starvation is read from, for a message. */
	const char *starve_events;
	/* Why fair starvation is not measured when the kernel lacks them. */
	const char *starve_absent;
	/* Its events are observations that derive.h turns into figures. */
	bool derived;
};

struct fs_ring *fs_ring_alloc(const struct fs_params *p,
			      const struct fs_ring_desc *desc);
/* Read event @i from tracefs @system:@name, with @filter (NULL: none). */
void fs_ring_add(struct fs_ring *r, enum fs_ev i, const char *system,
		 const char *name, const char *filter,
		 enum fs_ring_group group);
/* Read event @i where fs_events[] says it is. */
void fs_ring_add_std(struct fs_ring *r, enum fs_ev i,
		     enum fs_ring_group group);
/* Where the records' fields lie, for a source that adds to it. */
struct fs_layout *fs_ring_layout(struct fs_ring *r);
/* Parse the events' formats, fill @caps, open the instance's readers. */
int fs_ring_open(struct fs_ring *r, struct fs_trace_caps *caps);
void fs_ring_free(struct fs_ring *r);

/*
 * What a source read through a ring shares with the others: its state
 * begins with a struct fs_ring_source, and these serve as its start,
 * collect, stop and overrun ops.
 */
struct fs_ring_source {
	struct fs_ring *ring;
};

/* A source's state of @size bytes with its ring; NULL after an error line. */
void *fs_ring_source_alloc(size_t size, const struct fs_params *p,
			   const struct fs_ring_desc *desc);
/* Free what fs_ring_source_alloc() made; NULL is nothing. */
void fs_ring_source_free(struct fs_ring_source *rs);
int fs_ring_source_start(struct fs_source *s, struct tracefs_instance *rec,
			 uint64_t *on, uint64_t *all);
int fs_ring_source_collect(struct fs_source *s, fs_sink_fn sink, void *ctx);
int fs_ring_source_stop(struct fs_source *s);
long long fs_ring_source_overrun(struct fs_source *s);

/* Add event @i to @l from its parsed format (shared with tests/probe). */
struct tep_event;
int fs_ring_layout_event(struct fs_layout *l, enum fs_ev i,
			 struct tep_event *ev);

#endif
