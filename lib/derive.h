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
 *                                               deadline: postpone first;
 *                                               from D: throttle first
 *                                               (the timer that failed)
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
 *
 * A task's own starvation (ran), as fair.c reads it: each CPU keeps a
 * starvation clock, the summed length of its episodes, the open one
 * included. A fair task marks it when it begins to wait there (woken,
 * preempted, moved in; found queued at start: the clock then) and carries
 * what it met on the CPUs it left by migration before it ran. When it is
 * switched in, that carry plus the clock's advance since its mark is the
 * time a higher class held its CPU while it waited, other fair tasks'
 * turns left out: a ran event if not 0, after the end the same switch may
 * bring. A wait that began before a loss, or unseen, gets none.
 *
 * RT tasks' wait (rt_wait, on every server event derived): the real-time
 * tasks (not deadline) queued on each CPU and not running (switched out
 * runnable, woken while another task runs, moved in while queued, found
 * at start), and the time since tracing began in which one of them was
 * queued while a fair task ran with the server in D as the probes last
 * showed it: in D, the server picks the fair tasks that run. Lost events
 * (and a CPU back up) close the open part at the figure last handed on:
 * it never goes back, and the time not seen is not in it.
 */
#ifndef FAIRSRV_DERIVE_H
#define FAIRSRV_DERIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "kderive.h"
#include "model.h"

/* What one CPU's probes and events told. */
struct fs_derive_cpu {
	/* The fair server, as the probes last showed it. */
	bool known;
	enum fs_state state;
	uint64_t deadline;
	bool started;		/* a start passed on, no stop since */
	bool idle_in;		/* an idle charge began with runtime left */
	/* Each observation carries rt_wait: see fs_derive_rt_given(). */
	bool rt_given;
	/* The scheduler: fair starvation and real-time wait (kderive.h). */
	struct fs_kd_cpu kd;
};

struct fs_derive {
	int nr_cpus;
	struct fs_derive_cpu *cpu;
	struct fs_kd_outs *outs;	/* what one step derived */
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

/* Hand on @nr events a step of kderive.h derived, as the series' events. */
void fs_derive_hand_on(const struct fs_kd_out *o, unsigned int nr,
		       fs_derive_fn emit, void *ctx);

/*
 * The source derives fair starvation and the real-time wait itself (the
 * BPF programs, with kderive.h): its observations of the server carry
 * rt_wait, which the server's events then take.
 */
void fs_derive_rt_given(struct fs_derive *d);

/* Fair tasks not followed, summed over the CPUs: their tables were full. */
uint64_t fs_derive_untracked(const struct fs_derive *d);

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

/* Whether @t is a real-time task (stop's too: its prio is RT 99's). */
static inline bool fs_task_rt(const struct fs_task *t)
{
	return t->pid != 0 && t->prio >= 0 && t->prio < 100;
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
