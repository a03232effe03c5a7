// SPDX-License-Identifier: GPL-2.0
/*
 * What the renderers share: how a task is named, why a figure is missing.
 */
#include <stdio.h>

#include "fairsrv.h"

/*
 * The task that held @cpu longest while fair tasks starved there, as
 * "comm:pid (RT 50)" into @who, and for how long; false if none did.
 */
bool fs_top_holder_label(const struct fs_report *r, int cpu, char *who,
			 size_t len, uint64_t *ns)
{
	char task[40], prio[16];
	struct fs_hold h;

	if (!fs_starve_top_holder(&r->cpus[cpu].st, r->now, &h))
		return false;
	fs_task_label(task, sizeof(task), &h.task);
	fs_prio_label(prio, sizeof(prio), h.task.prio);
	snprintf(who, len, "%s (%s)", task, prio);
	*ns = h.ns;
	return true;
}

/* Who waited first in @ep, and who held the CPU longest, as labels. */
void fs_episode_labels(const struct fs_episode *ep, char *waiter,
		       char *holder, size_t len)
{
	fs_task_label(waiter, len, ep->nr_waits ? &ep->waits[0].task :
						  &ep->ran);
	if (ep->nr_holds)
		fs_task_label(holder, len, &ep->holds[0].task);
	else
		snprintf(holder, len, "?");
}

/* Why fair starvation is not in the report, or NULL when it is. */
const char *fs_starvation_absent(const struct fs_report *r)
{
	if (r->caps->starvation)
		return NULL;
	if (r->p->server_only)
		return "--server-only";
	return r->caps->starve_absent;
}

/*
 * What the source does not show, in one line, or NULL when it shows all:
 * a figure it cannot give is printed as "-", never as 0.
 */
const char *fs_source_note(const struct fs_report *r)
{
	return r->caps->note;
}
