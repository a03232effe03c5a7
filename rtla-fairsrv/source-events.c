// SPDX-License-Identifier: GPL-2.0
/*
 * The events source: the trace events our kernel series adds (the
 * server's transitions, fair starvation as the kernel sees it, parameter
 * writes), read through a tracefs ring. The cheapest source, and the only
 * one that sees parameter writes.
 */
#include <tracefs.h>

#include "ring.h"

static const struct fs_ring_desc events_desc = {
	.server_missing = "this kernel lacks the fair server trace events (%s): boot a kernel with the rtla-fairsrv series (kernel/patches), or use --source auto",
	.starve_events = "sched_fair_starve_*",
	.starve_absent = "the kernel has no sched_fair_starve_* events",
	.derived = false,
};

/* Whether the kernel has the series' events. */
static bool events_usable(void)
{
	const struct fs_ev_desc *start = &fs_events[FS_EV_START];

	return tracefs_event_file_exists(NULL, start->system, start->event,
					 "format");
}

/* Remove the ring. */
static void events_close(struct fs_source *s)
{
	fs_ring_source_free((struct fs_ring_source *)s);
}

/* Put the series' events in a ring; the scheduler's for --what-if. */
static struct fs_source *events_open(const struct fs_params *p,
				     struct fs_trace_caps *caps)
{
	struct fs_ring_source *rs = fs_ring_source_alloc(sizeof(*rs), p,
							 &events_desc);
	int i;

	if (!rs)
		return NULL;
	for (i = 0; i < FS_EV_NR; i++) {
		switch (fs_events[i].kind) {
		case FS_KIND_SERVER:
			fs_ring_add_std(rs->ring, i, FS_RING_SERVER);
			break;
		case FS_KIND_STARVE:
			fs_ring_add_std(rs->ring, i, FS_RING_STARVATION);
			break;
		case FS_KIND_HOTPLUG:
			fs_ring_add_std(rs->ring, i, FS_RING_HOTPLUG);
			break;
		case FS_KIND_SCHED:
			if (fs_params_load(p))
				fs_ring_add_std(rs->ring, i, FS_RING_LOAD);
			break;
		default:
			break;
		}
	}
	caps->params = true;
	if (fs_ring_open(rs->ring, caps))
		goto fail;
	return (struct fs_source *)rs;
fail:
	events_close((struct fs_source *)rs);
	return NULL;
}

const struct fs_source_ops fs_source_events = {
	.name = "events",
	.usable = events_usable,
	.open = events_open,
	.start = fs_ring_source_start,
	.collect = fs_ring_source_collect,
	.stop = fs_ring_source_stop,
	.overrun = fs_ring_source_overrun,
	.close = events_close,
};
