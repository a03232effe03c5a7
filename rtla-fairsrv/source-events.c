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
	.server_missing = "this kernel lacks the fair server trace events (%s): boot a kernel with the rtla-fairsrv series (kernel/patches), or use --source kprobe",
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

/* Put the series' events in a ring; the scheduler's for --what-if. */
static struct fs_source *events_open(const struct fs_params *p,
				     struct fs_trace_caps *caps)
{
	struct fs_ring *r = fs_ring_alloc(p, &events_desc);
	int i;

	if (!r)
		return NULL;
	for (i = 0; i < FS_EV_NR; i++) {
		switch (fs_events[i].kind) {
		case FS_KIND_SERVER:
			fs_ring_add_std(r, i, FS_RING_SERVER);
			break;
		case FS_KIND_STARVE:
			fs_ring_add_std(r, i, FS_RING_STARVATION);
			break;
		case FS_KIND_HOTPLUG:
			fs_ring_add_std(r, i, FS_RING_HOTPLUG);
			break;
		case FS_KIND_SCHED:
			if (fs_params_load(p))
				fs_ring_add_std(r, i, FS_RING_LOAD);
			break;
		default:
			break;
		}
	}
	caps->params = true;
	if (fs_ring_open(r, caps)) {
		fs_ring_free(r);
		return NULL;
	}
	return (struct fs_source *)r;
}

/* Turn the events on, in our instance and the -t one. */
static int events_start(struct fs_source *s, struct tracefs_instance *rec,
			uint64_t *on, uint64_t *all)
{
	return fs_ring_start((struct fs_ring *)s, rec, on, all);
}

/* Decode what the ring holds. */
static int events_collect(struct fs_source *s, fs_sink_fn sink, void *ctx)
{
	return fs_ring_collect((struct fs_ring *)s, sink, ctx);
}

/* Stop the ring. */
static int events_stop(struct fs_source *s)
{
	return fs_ring_stop((struct fs_ring *)s);
}

/* The ring's overwritten and dropped events. */
static long long events_overrun(struct fs_source *s)
{
	return fs_ring_overrun((struct fs_ring *)s);
}

/* Remove the ring. */
static void events_close(struct fs_source *s)
{
	fs_ring_free((struct fs_ring *)s);
}

const struct fs_source_ops fs_source_events = {
	.name = "events",
	.usable = events_usable,
	.open = events_open,
	.start = events_start,
	.collect = events_collect,
	.stop = events_stop,
	.overrun = events_overrun,
	.close = events_close,
};
