/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The events of the kernel series, derived from what a stock kernel shows:
 * probes on the fair server's functions, and the scheduler's own
 * sched_switch, sched_wakeup(_new) and sched_migrate_task.
 *
 * The server: each probe reads the entity's flags and budget where the
 * function ends (where it begins for a stop), and the change from the
 * state last seen names the event, as deadline.c's states A-E do:
 *
 *   dl_server_start()      A -> B or D          start (once until a stop)
 *   dl_server_stop()       any -> A             stop (not when inactive)
 *   task_non_contending()  any -> A             stop (the pick path has
 *                                               dl_server_stop() inline;
 *                                               only a stop dequeues a
 *                                               server to sleep)
 *   start_dl_timer()       -> B, armed          defer; from B with a new
 *                                               deadline: postpone first
 *                          D -> E, not armed    throttle
 *   replenish_dl_entity()  B -> D               boost (zero-laxity timer)
 *                          other                replenish
 *   dl_task_timer()        B -> B               defer (the timer pushed
 *                                               later while waiting)
 *   dl_server_update_idle_time(), put_prev_task_idle() (which has it
 *   inline): runtime left on entry, none on return
 *                                               idle
 *
 * Not seen: parameter writes (sched_fair_server_write() takes no entity).
 *
 * Starvation: which fair tasks are runnable on each CPU and what runs
 * there, from every switch, wakeup and migration; an episode is open while
 * one is queued and a task of a higher class runs. What ran before the
 * first switch seen comes from the tasks found runnable at start
 * (FS_EV_FOUND_TASK, the highest priority of a CPU first): an episode
 * found open then is one whose start was not seen.
 */
#ifndef FAIRSRV_DERIVE_H
#define FAIRSRV_DERIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

/* Queued fair tasks kept by name on one CPU; more are counted. */
#define FS_DERIVE_QUEUED	256

struct fs_derive_cpu {
	/* The fair server, as the probes last showed it. */
	bool known;
	enum fs_state state;
	uint64_t deadline;
	bool started;		/* a start passed on, no stop since */
	bool idle_in;		/* an idle charge began with runtime left */
	/* The scheduler. */
	bool curr_known;
	bool curr_found;	/* curr is a guess from the tasks found */
	struct fs_task curr;
	struct fs_task queued[FS_DERIVE_QUEUED];
	unsigned int nr_queued;
	bool open;		/* a starvation episode */
	uint64_t since;		/* its start */
	bool down;		/* going offline */
};

struct fs_derive {
	int nr_cpus;
	struct fs_derive_cpu *cpu;
	uint64_t untracked;	/* fair tasks not kept: a CPU's table full */
};

/* The consumer of derived events, in timestamp order. */
typedef void (*fs_derive_fn)(void *ctx, const struct fs_event *ev);

int fs_derive_init(struct fs_derive *d, int nr_cpus);
void fs_derive_free(struct fs_derive *d);

/*
 * Feed one event, in timestamp order: an observation becomes none, one or
 * more events of the series; any other event is passed on as it is.
 */
void fs_derive_event(struct fs_derive *d, const struct fs_event *ev,
		     fs_derive_fn emit, void *ctx);

/* Whether a kernel prio is a fair task's (and pid 0 is the idle task). */
static inline bool fs_prio_fair(int pid, int prio)
{
	return pid != 0 && prio >= 100;
}

/* Whether @t is a task of a class above fair (stop, deadline, RT). */
static inline bool fs_task_higher(const struct fs_task *t)
{
	return t->pid != 0 && t->prio < 100;
}

/*
 * Whether a sched_switch left its previous task runnable (preempted, or
 * yielding) rather than asleep: no state bit below TASK_REPORT_MAX.
 */
static inline bool fs_switch_runnable(const struct fs_event *ev)
{
	return !(ev->from_state & 0xffLL);
}

#endif
