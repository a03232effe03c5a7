/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the series' events carry besides numbers: the server's flags, and
 * why a fair task began to wait or an episode ended. Plain C with no
 * library headers, so that the BPF programs, which derive these events in
 * the kernel, share it with user space.
 */
#ifndef FAIRSRV_SERIES_H
#define FAIRSRV_SERIES_H

#define FS_COMM_LEN	16

/* The flags field of the sched_dl_* events (include/trace/events/sched.h). */
#define FS_FLAG_ACTIVE		0x01
#define FS_FLAG_THROTTLED	0x02
#define FS_FLAG_ARMED		0x04
#define FS_FLAG_RUNNING		0x08

/* Why a fair task began to wait (the why field of sched_fair_starve_wait). */
enum fs_wait_why {
	FS_WAIT_WAKEUP = 1,	/* woken while a higher class ran */
	FS_WAIT_MIGRATED,	/* moved to the CPU while a higher class ran */
	FS_WAIT_PREEMPTED,	/* preempted by a higher class */
	FS_WAIT_QUEUED,		/* queued when a higher class took the CPU */
	FS_WAIT_UNSEEN,		/* found waiting by the tick */
	FS_WAIT_NR
};

/* How a wait or an episode ended (sched_fair_starve_end and _leave). */
enum fs_end_why {
	FS_END_OPEN,		/* not ended: still waiting */
	FS_END_RAN,		/* a fair task ran: the higher class was done */
	FS_END_SERVED,		/* a fair task ran, picked by the fair server */
	FS_END_LEFT,		/* the waiting tasks left the CPU */
	FS_END_OFFLINE,		/* they left because the CPU went offline */
	FS_END_IDLE,		/* the CPU went idle (core scheduling) */
	FS_END_GONE,		/* the tick found the CPU no longer starved */
	FS_END_LOST,		/* events were lost: the end is not known */
	FS_END_NR
};

#endif
