// SPDX-License-Identifier: GPL-2.0
/*
 * The kprobe source, for kernels without our series: kprobes on the fair
 * server's functions (probes.c) and the scheduler's own events, read
 * through a tracefs ring. Its events are observations that derive.h turns
 * into the server's transitions and fair starvation. It does not see
 * parameter writes, and a kretprobe costs several times an event.
 */
#include "ring.h"

static const struct fs_ring_desc kprobe_desc = {
	.server_missing = "the kernel refused the fair server's probes (%s)",
	.starve_events = "sched_switch, sched_wakeup or sched_migrate_task",
	.starve_absent = "the kernel has no sched_switch, sched_wakeup or sched_migrate_task",
	.derived = true,
};

struct kprobe_source {
	struct fs_ring_source rs;	/* first: the ring's ops read it */
	struct fs_probes *probes;
};

/* Any kernel with a fair server may be probed: open() says why not. */
static bool kprobe_usable(void)
{
	return true;
}

/* Remove the ring, then the probes: only once no instance uses them. */
static void kprobe_close(struct fs_source *s)
{
	struct kprobe_source *k = (struct kprobe_source *)s;
	struct fs_probes *probes;

	if (!k)
		return;
	probes = k->probes;
	fs_ring_source_free(&k->rs);
	fs_probes_destroy(probes);
}

/* Make the probes and put them in a ring, with the scheduler's events. */
static struct fs_source *kprobe_open(const struct fs_params *p,
				     struct fs_trace_caps *caps)
{
	struct kprobe_source *k = fs_ring_source_alloc(sizeof(*k), p,
						       &kprobe_desc);
	int i;

	if (!k)
		return NULL;
	k->probes = fs_probes_create(fs_ring_layout(k->rs.ring));
	if (!k->probes)
		goto fail;
	for (i = 0; i < FS_EV_NR; i++) {
		const char *system, *name = "", *filter = NULL;

		switch (fs_events[i].kind) {
		case FS_KIND_PROBE:
			system = fs_probes_event(k->probes, i, &name, &filter);
			fs_ring_add(k->rs.ring, i, system, name, filter,
				    FS_RING_SERVER);
			break;
		case FS_KIND_SCHED:
			/* Fair starvation, derived from the scheduler's. */
			fs_ring_add_std(k->rs.ring, i, FS_RING_STARVATION);
			break;
		case FS_KIND_HOTPLUG:
			fs_ring_add_std(k->rs.ring, i, FS_RING_HOTPLUG);
			break;
		default:
			break;
		}
	}
	caps->params = false;
	caps->note = "kprobes on a kernel without the series: parameter writes (params, refused) are not seen";
	if (fs_ring_open(k->rs.ring, caps))
		goto fail;
	return (struct fs_source *)k;
fail:
	kprobe_close((struct fs_source *)k);
	return NULL;
}

/* Probe hits the kernel missed, from kprobe_profile. */
static long long kprobe_missed(struct fs_source *s)
{
	return fs_probes_missed(((struct kprobe_source *)s)->probes);
}

const struct fs_source_ops fs_source_kprobe = {
	.name = "kprobe",
	.usable = kprobe_usable,
	.open = kprobe_open,
	.start = fs_ring_source_start,
	.collect = fs_ring_source_collect,
	.stop = fs_ring_source_stop,
	.overrun = fs_ring_source_overrun,
	.missed = kprobe_missed,
	.close = kprobe_close,
	.cleanup_stale = fs_probes_cleanup_stale,
};
