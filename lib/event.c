// SPDX-License-Identifier: GPL-2.0
/*
 * The table of the events, and names of their fields' values, for output.
 */
#include <inttypes.h>
#include <stdio.h>

#include "event.h"
#include "model.h"
#include "record.h"

#define F(x)		FS_F_BIT(x)
#define SERVER_FIELDS	(F(FS_F_CPU) | F(FS_F_FLAGS) | F(FS_F_RUNTIME) | \
			 F(FS_F_DEADLINE) | F(FS_F_DL_RUNTIME) | \
			 F(FS_F_DL_PERIOD))
#define TASK_FIELDS	(F(FS_F_CPU) | F(FS_F_PID) | F(FS_F_COMM))
#define WAKE_FIELDS	(F(FS_F_PID) | F(FS_F_COMM) | F(FS_F_PRIO) | \
			 F(FS_F_TARGET_CPU))
#define HOLDER_FIELDS	(F(FS_F_HOLDER_PID) | F(FS_F_HOLDER_COMM) | \
			 F(FS_F_HOLDER_PRIO))

/* Every edge between two states is a bit of fs_ev_desc's edges. */
_Static_assert(FS_ST_NR * FS_ST_NR <= 64, "edges do not fit");

#define EDGE(from, to)	FS_EDGE(from, to)
#define A		FS_ST_INIT
#define B		FS_ST_ZL_WAIT
#define D		FS_ST_RUNNING
#define E		FS_ST_REPL_WAIT

/* An event of the fair server's own. */
#define SERVER(_name, _event, _edges)			\
	{ .name = _name, .kind = FS_KIND_SERVER,	\
	  .system = "sched", .event = _event,		\
	  .fields = SERVER_FIELDS | F(FS_F_RT_WAIT),	\
	  .optional = F(FS_F_RT_WAIT), .edges = _edges }

/* One DL tasks share: only the fair server's (type 2) are read. */
#define SHARED(_name, _event, _edges)			\
	{ .name = _name, .kind = FS_KIND_SERVER,	\
	  .system = "sched", .event = _event,		\
	  .filter = "type == 2",			\
	  .fields = SERVER_FIELDS | F(FS_F_RT_WAIT),	\
	  .optional = F(FS_F_RT_WAIT), .edges = _edges }

/* Fair starvation. */
#define STARVE(_name, _event, _fields)			\
	{ .name = _name, .kind = FS_KIND_STARVE,	\
	  .system = "sched", .event = _event,		\
	  .fields = _fields }

/* An observation of a probe on a stock kernel's server (probes.c). */
#define PROBE(_name, _fields)				\
	{ .name = "probe_" _name, .kind = FS_KIND_PROBE, \
	  .fields = _fields, .observed = true }

/* One of the scheduler's events, as it names itself. */
#define SCHED(_name, _fields)				\
	{ .name = _name, .kind = FS_KIND_SCHED,		\
	  .system = "sched", .event = _name,		\
	  .fields = _fields, .observed = true }

/*
 * The events. The edges of the server's are read off
 * kernel/sched/deadline.c (6.12). An event that fires inside another
 * transition sees the flags of its middle: the defer event of
 * dl_server_start() comes before the start event and already has the
 * active flag, so it takes A->B itself.
 *
 * ring.c enables the events in the reverse of this order: of those
 * enabled together, one that opens what others close (a starvation wait,
 * a switch) comes before them here.
 */
const struct fs_ev_desc fs_events[FS_EV_NR] = {
	/* dl_server_start(): deferred, or straight to running. */
	[FS_EV_START]	= SERVER("server_start", "sched_dl_server_start",
				 EDGE(A, B) | EDGE(A, D) | EDGE(B, B) |
				 EDGE(D, D)),
	/* dl_server_stop(), from any active state. */
	[FS_EV_STOP]	= SERVER("server_stop", "sched_dl_server_stop",
				 EDGE(B, A) | EDGE(D, A) | EDGE(E, A)),
	/* Timer armed: on start, after a postponement or a replenishment
	 * that defers again, and when pushed forward while waiting. */
	[FS_EV_DEFER]	= SERVER("server_defer", "sched_dl_server_defer",
				 EDGE(A, B) | EDGE(B, B) | EDGE(E, B)),
	/* Runtime used up in the background: a new period, still waiting. */
	[FS_EV_POSTPONE] = SERVER("server_postpone",
				  "sched_dl_server_postpone",
				  EDGE(B, B) | EDGE(E, B)),
	/* The zero-laxity timer fired with runtime left: B to D. */
	[FS_EV_BOOST]	= SERVER("server_boost", "sched_dl_server_boost",
				 EDGE(B, D)),
	/* Idle time used up the runtime of an active server. */
	[FS_EV_IDLE]	= SERVER("server_idle", "sched_dl_server_idle",
				 EDGE(B, B) | EDGE(D, D) | EDGE(E, E)),
	/* Runtime exhausted while serving. */
	[FS_EV_THROTTLE] = SHARED("throttle", "sched_dl_throttle",
				  EDGE(D, E)),
	/*
	 * Replenished: serve now, or wait for the zero-laxity time again.
	 * A new period from now (replenish_dl_new_period()) fires one too:
	 * at the first start (A->A), a start that needs one (A->B, the
	 * active flag set before the enqueue), a postponement (B->B, E->B)
	 * and a lagging replenishment (E->E).
	 */
	[FS_EV_REPLENISH] = SHARED("replenish", "sched_dl_replenish",
				   EDGE(B, D) | EDGE(E, D) | EDGE(E, B) |
				   EDGE(B, B) | EDGE(D, D) | EDGE(A, A) |
				   EDGE(A, B) | EDGE(E, E)),
	/* Parameters change no state by themselves: see params(), server.c. */
	[FS_EV_PARAMS] = {
		.name = "server_params", .kind = FS_KIND_SERVER,
		.system = "sched", .event = "sched_dl_server_params",
		.fields = F(FS_F_CPU) | F(FS_F_DL_RUNTIME) |
			  F(FS_F_DL_PERIOD) | F(FS_F_RET),
		.edges = FS_EDGES_ANY,
	},

	[FS_EV_WAIT]	= STARVE("wait", "sched_fair_starve_wait",
				 TASK_FIELDS | HOLDER_FIELDS | F(FS_F_WHY) |
				 F(FS_F_FIRST)),
	[FS_EV_HOLD]	= STARVE("hold", "sched_fair_starve_hold",
				 F(FS_F_CPU) | HOLDER_FIELDS),
	[FS_EV_LEAVE]	= STARVE("leave", "sched_fair_starve_leave",
				 TASK_FIELDS | F(FS_F_WHY)),
	[FS_EV_END]	= STARVE("end", "sched_fair_starve_end",
				 TASK_FIELDS | F(FS_F_STARVED) | F(FS_F_WHY)),
	[FS_EV_RAN]	= STARVE("ran", "sched_fair_starve_ran",
				 TASK_FIELDS | F(FS_F_STARVED)),

	/* cpuhp_enter: cpu and target, the state it goes to. */
	[FS_EV_HOTPLUG] = {
		.name = "hotplug", .kind = FS_KIND_HOTPLUG,
		.system = "cpuhp", .event = "cpuhp_enter",
		.fields = F(FS_F_CPU) | F(FS_F_TARGET),
	},

	/* The probes' observations, with the fields probes.c fetches. */
	[FS_EV_P_START]	= PROBE("start", SERVER_FIELDS),
	[FS_EV_P_STOP]	= PROBE("stop", SERVER_FIELDS),
	[FS_EV_P_TIMER]	= PROBE("timer", SERVER_FIELDS | F(FS_F_RET)),
	[FS_EV_P_REPLENISH] = PROBE("replenish", SERVER_FIELDS),
	[FS_EV_P_FIRED]	= PROBE("fired", SERVER_FIELDS),
	[FS_EV_P_NONCONT] = PROBE("noncont", SERVER_FIELDS),
	[FS_EV_P_IDLE_IN] = PROBE("idle_in", SERVER_FIELDS),
	[FS_EV_P_IDLE_OUT] = PROBE("idle_out", SERVER_FIELDS),
	[FS_EV_P_PUT_IN] = PROBE("put_in", SERVER_FIELDS),
	[FS_EV_P_PUT_OUT] = PROBE("put_out", SERVER_FIELDS),

	[FS_EV_SWITCH]	= SCHED("sched_switch",
				F(FS_F_PREV_COMM) | F(FS_F_PREV_PID) |
				F(FS_F_PREV_PRIO) | F(FS_F_PREV_STATE) |
				F(FS_F_NEXT_COMM) | F(FS_F_NEXT_PID) |
				F(FS_F_NEXT_PRIO)),
	[FS_EV_WAKEUP]	= SCHED("sched_wakeup", WAKE_FIELDS),
	[FS_EV_WAKEUP_NEW] = SCHED("sched_wakeup_new", WAKE_FIELDS),
	[FS_EV_MIGRATE]	= SCHED("sched_migrate_task",
				F(FS_F_PID) | F(FS_F_COMM) | F(FS_F_PRIO) |
				F(FS_F_ORIG_CPU) | F(FS_F_DEST_CPU)),

	/* The tasks found runnable at start, for derive.h. */
	[FS_EV_FOUND_TASK] = {
		.name = "found_task", .kind = FS_KIND_MARK, .observed = true,
	},
	[FS_EV_LOST]	= { .name = "lost", .kind = FS_KIND_MARK },
	[FS_EV_FOUND]	= { .name = "found", .kind = FS_KIND_MARK },
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
	return ev < FS_EV_NR ? fs_events[ev].name : "invalid";
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

/* The names of the server's flags, lowest bit first. */
static const char *const flag_names[] = {
	"active", "throttled", "armed", "running",
};

/*
 * A server's event or observation @ev as one line of text, its fields as
 * name=value and its own time last (the line may be written later than
 * @ev happened). Returns what snprintf() returns.
 */
int fs_event_line(char *buf, size_t len, const struct fs_event *ev)
{
	char flags[48] = "";
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++)
		if (ev->flags & (1u << i))
			n += snprintf(flags + n, sizeof(flags) - n, "%s%s",
				      n ? "|" : "", flag_names[i]);
	return snprintf(buf, len,
			"%s cpu=%d flags=%s runtime=%" PRId64 " deadline=%" PRIu64
			" dl_runtime=%" PRIu64 " dl_period=%" PRIu64
			" ret=%d ts=%" PRIu64 ".%09" PRIu64,
			fs_ev_name(ev->type), ev->cpu, n ? flags : "0",
			ev->runtime, ev->deadline, ev->dl_runtime,
			ev->dl_period, ev->ret, ev->ts / 1000000000,
			ev->ts % 1000000000);
}
