/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The decoded events the models consume: the fair server's sched_dl_*
 * events, the fair starvation events sched_fair_starve_*, CPU hotplug,
 * and the tool's own marks (lost events, the state found at start).
 */
#ifndef FAIRSRV_EVENT_H
#define FAIRSRV_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "series.h"

/*
 * The events, each described by its entry in fs_events[] (event.c): a new
 * event is an entry here and one there.
 */
enum fs_ev {
	/*
	 * The fair server, sched_dl_<name> and sched_dl_server_<name>. They
	 * come first: struct fs_server counts them by type.
	 */
	FS_EV_START,
	FS_EV_STOP,
	FS_EV_DEFER,
	FS_EV_POSTPONE,
	FS_EV_BOOST,
	FS_EV_IDLE,
	FS_EV_THROTTLE,
	FS_EV_REPLENISH,
	FS_EV_PARAMS,
	FS_EV_SERVER_NR,	/* their number, not an event */
	/* Fair starvation, sched_fair_starve_<name>. */
	FS_EV_WAIT = FS_EV_SERVER_NR,
	FS_EV_HOLD,
	FS_EV_LEAVE,
	FS_EV_END,
	FS_EV_RAN,		/* a task that waited runs: its own starvation */
	/* CPU hotplug: cpuhp_enter, going down or coming up. */
	FS_EV_HOTPLUG,
	/*
	 * What a stock kernel shows (derive.h turns it into the events
	 * above): the server's fields where probes catch it, and the
	 * scheduler's sched_switch, sched_wakeup(_new), sched_migrate_task.
	 */
	FS_EV_P_START,		/* dl_server_start() returned */
	FS_EV_P_STOP,		/* dl_server_stop() called */
	FS_EV_P_TIMER,		/* start_dl_timer() returned */
	FS_EV_P_REPLENISH,	/* replenish_dl_entity() returned */
	FS_EV_P_FIRED,		/* dl_task_timer() returned */
	FS_EV_P_NONCONT,	/* task_non_contending() called */
	FS_EV_P_IDLE_IN,	/* dl_server_update_idle_time() called */
	FS_EV_P_IDLE_OUT,	/* ... and returned */
	FS_EV_P_PUT_IN,		/* put_prev_task_idle() called */
	FS_EV_P_PUT_OUT,	/* ... and returned */
	FS_EV_SWITCH,
	FS_EV_WAKEUP,
	FS_EV_WAKEUP_NEW,
	FS_EV_MIGRATE,
	/* A task found runnable on a CPU at start (/proc), for derive.h. */
	FS_EV_FOUND_TASK,
	/* The tool's marks: events lost before ts; the server found at start. */
	FS_EV_LOST,
	FS_EV_FOUND,
	FS_EV_NR
};

/* What an event is: where it comes from, and which part reads it. */
enum fs_ev_kind {
	FS_KIND_SERVER,		/* the fair server's (model.h) */
	FS_KIND_STARVE,		/* fair starvation */
	FS_KIND_HOTPLUG,	/* CPU hotplug */
	FS_KIND_PROBE,		/* a stock kernel's server, seen by a kprobe */
	FS_KIND_SCHED,		/* sched_switch, _wakeup(_new), _migrate_task */
	FS_KIND_MARK,		/* the tool's own: no event of the kernel */
};

/* Any transition: an event that changes no state by itself. */
#define FS_EDGES_ANY	(~0ULL)

/* Everything the tool knows of one event, in one place. */
struct fs_ev_desc {
	const char *name;	/* for output; a probe's is "probe_<name>" */
	enum fs_ev_kind kind;
	/*
	 * The kernel's event in tracefs, and the filter it is read with;
	 * NULL for the probes (probes.c makes and names them) and the marks.
	 */
	const char *system;
	const char *event;
	const char *filter;
	unsigned int fields;	/* what the tool reads: FS_F_BIT()s, record.h */
	unsigned int optional;	/* of those, what a kernel may lack */
	bool observed;		/* derive.h turns it into events */
	/* A server event: the FS_EDGE()s it may take (model.h). */
	unsigned long long edges;
};

/* The table of the events, indexed by fs_ev. */
extern const struct fs_ev_desc fs_events[FS_EV_NR];

/* Whether @ev is an event of kind @kind. */
static inline bool fs_ev_is(enum fs_ev ev, enum fs_ev_kind kind)
{
	return ev < FS_EV_NR && fs_events[ev].kind == kind;
}

/* Whether @ev is one of the fair server's own events. */
static inline bool fs_ev_server(enum fs_ev ev)
{
	return fs_ev_is(ev, FS_KIND_SERVER);
}

/* Whether @ev is an observation that derive.h turns into events. */
static inline bool fs_ev_observed(enum fs_ev ev)
{
	return ev < FS_EV_NR && fs_events[ev].observed;
}

/* A task as the events name it; pid 0 when not known. */
struct fs_task {
	int32_t pid;
	int32_t prio;		/* kernel prio: -1 deadline, 0-99 real-time */
	char comm[FS_COMM_LEN];	/* always NUL-terminated */
};

/* One decoded event. Which members are valid depends on the type. */
struct fs_event {
	enum fs_ev type;
	int cpu;		/* the CPU the event is about */
	uint64_t ts;		/* trace clock (mono), ns */
	union {
		/* The fair server's events, and FS_EV_FOUND. */
		struct {
			unsigned int flags;	/* FS_FLAG_*, after the change */
			int64_t runtime;	/* budget left, ns */
			uint64_t deadline;	/* absolute, rq_clock ns */
			uint64_t dl_runtime;	/* parameters in force */
			uint64_t dl_period;
			int ret;		/* params: the write's result */
			/*
			 * How long real-time tasks waited behind the server on
			 * its CPU since tracing began; its change over a
			 * serving episode is what the episode took from them.
			 */
			uint64_t rt_wait;
		};
		/* Fair starvation. */
		struct {
			struct fs_task task;	/* the fair task */
			struct fs_task holder;	/* the task that holds the CPU */
			unsigned int why;	/* fs_wait_why or fs_end_why */
			bool first;		/* wait: it opens the episode */
			/*
			 * end: the episode's length; ran: the time a higher
			 * class held the task's CPU while it waited; rq_clock ns
			 */
			uint64_t starved;
		};
		/* CPU hotplug. */
		struct {
			bool down;		/* going offline, else coming up */
		};
		/*
		 * The scheduler's events: sched_switch from @from to @to, in
		 * @from_state; sched_wakeup(_new) of @from onto @cpu;
		 * sched_migrate_task of @from from @src_cpu to @cpu.
		 */
		struct {
			struct fs_task from;
			struct fs_task to;
			int64_t from_state;
			int src_cpu;
		};
		/* Lost events: how many, -1 if not known. */
		struct {
			int64_t lost;
		};
	};
};

/* Names of events, states of waits, for output. */
const char *fs_ev_name(enum fs_ev ev);
const char *fs_wait_why_name(unsigned int why);
const char *fs_end_why_name(unsigned int why);

/* Policy of a kernel prio, for output: "DL", "RT" or "other". */
const char *fs_prio_class(int prio);

/* The real-time priority a user sets, from a kernel prio (RT only). */
int fs_prio_rt(int prio);

/* A kernel prio as a user reads it: "DL", "RT 50" or "other". */
void fs_prio_label(char *buf, size_t len, int prio);

/* A task as "comm:pid", or "?" when the kernel did not name it. */
void fs_task_label(char *buf, size_t len, const struct fs_task *t);

/* A server's event or observation as one line: name, fields, time. */
int fs_event_line(char *buf, size_t len, const struct fs_event *ev);

#endif
