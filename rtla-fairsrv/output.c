// SPDX-License-Identifier: GPL-2.0
/*
 * What the renderers share: how a task is named, why a figure is missing.
 */
#include <stdio.h>

#include "fairsrv.h"

/* A task as "comm:pid", or "?" when the kernel did not name it. */
void fs_task_label(char *buf, size_t len, const struct fs_task *t)
{
	if (!t->pid)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%s:%d", t->comm[0] ? t->comm : "?", t->pid);
}

/* Why fair starvation is not in the report, or NULL when it is. */
const char *fs_starvation_absent(const struct fs_report *r)
{
	if (r->caps->starvation)
		return NULL;
	if (r->p->server_only)
		return "--server-only";
	return "the kernel has no sched_fair_starve_* events";
}
