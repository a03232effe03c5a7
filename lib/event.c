// SPDX-License-Identifier: GPL-2.0
/*
 * Names of events and of their fields' values, for output.
 */
#include <stdio.h>

#include "event.h"

static const char *const ev_names[FS_EV_NR] = {
	[FS_EV_START]		= "server_start",
	[FS_EV_STOP]		= "server_stop",
	[FS_EV_DEFER]		= "server_defer",
	[FS_EV_POSTPONE]	= "server_postpone",
	[FS_EV_BOOST]		= "server_boost",
	[FS_EV_IDLE]		= "server_idle",
	[FS_EV_THROTTLE]	= "throttle",
	[FS_EV_REPLENISH]	= "replenish",
	[FS_EV_PARAMS]		= "server_params",
	[FS_EV_WAIT]		= "wait",
	[FS_EV_HOLD]		= "hold",
	[FS_EV_LEAVE]		= "leave",
	[FS_EV_END]		= "end",
	[FS_EV_HOTPLUG]		= "hotplug",
	[FS_EV_P_START]		= "probe_start",
	[FS_EV_P_STOP]		= "probe_stop",
	[FS_EV_P_TIMER]		= "probe_timer",
	[FS_EV_P_REPLENISH]	= "probe_replenish",
	[FS_EV_P_FIRED]		= "probe_fired",
	[FS_EV_P_NONCONT]	= "probe_noncont",
	[FS_EV_P_IDLE_IN]	= "probe_idle_in",
	[FS_EV_P_IDLE_OUT]	= "probe_idle_out",
	[FS_EV_P_PUT_IN]	= "probe_put_in",
	[FS_EV_P_PUT_OUT]	= "probe_put_out",
	[FS_EV_SWITCH]		= "sched_switch",
	[FS_EV_WAKEUP]		= "sched_wakeup",
	[FS_EV_WAKEUP_NEW]	= "sched_wakeup_new",
	[FS_EV_MIGRATE]		= "sched_migrate_task",
	[FS_EV_FOUND_TASK]	= "found_task",
	[FS_EV_LOST]		= "lost",
	[FS_EV_FOUND]		= "found",
};

static const char *const wait_names[FS_WAIT_NR] = {
	[FS_WAIT_WAKEUP]	= "wakeup",
	[FS_WAIT_MIGRATED]	= "migrated",
	[FS_WAIT_PREEMPTED]	= "preempted",
	[FS_WAIT_QUEUED]	= "queued",
	[FS_WAIT_UNSEEN]	= "unseen",
};

static const char *const end_names[FS_END_NR] = {
	[FS_END_OPEN]		= "open",
	[FS_END_RAN]		= "ran",
	[FS_END_SERVED]		= "served",
	[FS_END_LEFT]		= "left",
	[FS_END_OFFLINE]	= "offline",
	[FS_END_IDLE]		= "idle",
	[FS_END_GONE]		= "gone",
	[FS_END_LOST]		= "lost",
};

/* Name of an event: the tracefs name without its prefix, or the mark's. */
const char *fs_ev_name(enum fs_ev ev)
{
	return ev < FS_EV_NR ? ev_names[ev] : "invalid";
}

/* How a wait began. */
const char *fs_wait_why_name(unsigned int why)
{
	return why < FS_WAIT_NR && wait_names[why] ? wait_names[why] : "?";
}

/* How a wait or an episode ended. */
const char *fs_end_why_name(unsigned int why)
{
	return why < FS_END_NR ? end_names[why] : "?";
}

/* The class of a kernel prio, for output. */
const char *fs_prio_class(int prio)
{
	if (prio < 0)
		return "DL";
	return prio < 100 ? "RT" : "other";
}

/* The priority a user gives a real-time task, from its kernel prio. */
int fs_prio_rt(int prio)
{
	return prio >= 0 && prio < 100 ? 99 - prio : 0;
}

/* A kernel prio as a user reads it: "DL", "RT 50" or "other". */
void fs_prio_label(char *buf, size_t len, int prio)
{
	if (prio >= 0 && prio < 100)
		snprintf(buf, len, "RT %d", fs_prio_rt(prio));
	else
		snprintf(buf, len, "%s", fs_prio_class(prio));
}

/* A task as "comm:pid", or "?" when the kernel did not name it. */
void fs_task_label(char *buf, size_t len, const struct fs_task *t)
{
	if (!t->pid)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%s:%d", t->comm[0] ? t->comm : "?", t->pid);
}
