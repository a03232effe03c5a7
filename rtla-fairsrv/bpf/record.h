/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the BPF source's programs send to user space: one record per thing
 * the kernel did, the same observations the kprobe source's probes and the
 * scheduler's events make. Shared by the programs and source-bpf.c.
 */
#ifndef FAIRSRV_BPF_RECORD_H
#define FAIRSRV_BPF_RECORD_H

/* The CPUs a run can record: more are not counted. */
#define FS_BPF_MAX_CPUS		1024

/*
 * Where the programs derive (kderive.h): the fair and real-time tasks
 * each CPU's state keeps. The verifier walks every turn of every loop
 * over them, and takes no more than a million instructions for a
 * program: 6.12.118 took these, and refused 48 fair tasks. More are
 * counted, and user space says so.
 */
#define FS_BPF_KD_QUEUED	32
#define FS_BPF_KD_RT		16

/* What a record saw; source-bpf.c names each as an event of lib/event.h. */
enum fs_bpf_type {
	FS_BPF_START,		/* dl_server_start() returned */
	FS_BPF_STOP,		/* dl_server_stop() called */
	FS_BPF_TIMER,		/* start_dl_timer() returned */
	FS_BPF_REPLENISH,	/* replenish_dl_entity() returned */
	FS_BPF_FIRED,		/* dl_task_timer() returned */
	FS_BPF_NONCONT,		/* task_non_contending() called */
	FS_BPF_IDLE_IN,		/* the server's idle time charged: called */
	FS_BPF_IDLE_OUT,	/* ... and returned */
	FS_BPF_PUT_IN,		/* put_prev_task_idle() called (6.12) */
	FS_BPF_PUT_OUT,		/* ... and returned */
	FS_BPF_SWITCH,		/* sched_switch */
	FS_BPF_WAKEUP,		/* sched_wakeup */
	FS_BPF_WAKEUP_NEW,	/* sched_wakeup_new */
	FS_BPF_MIGRATE,		/* sched_migrate_task */
	FS_BPF_HOTPLUG,		/* cpuhp_enter */
	/* Derived by the programs (kderive.h), in enum fs_kd_type's order. */
	FS_BPF_WAIT,
	FS_BPF_HOLD,
	FS_BPF_END,
	FS_BPF_RAN,
	FS_BPF_LEAVE,
	FS_BPF_NR
};

/* A task as the scheduler's events show it. */
struct fs_bpf_task {
	__s32 pid;
	__s32 prio;		/* kernel prio */
	char comm[16];
};

/* The server's flags, as the series' events carry them. */
#define FS_BPF_ACTIVE		0x01
#define FS_BPF_THROTTLED	0x02
#define FS_BPF_ARMED		0x04
#define FS_BPF_RUNNING		0x08

struct fs_bpf_rec {
	__u64 ts;		/* CLOCK_MONOTONIC, ns */
	__u32 type;		/* enum fs_bpf_type */
	__s32 cpu;		/* the CPU it is about */
	__u32 on_cpu;		/* the CPU that recorded it */
	/* Records this CPU had no room for since its last one. */
	__u32 lost;
	union {
		/* The server's state, after what was seen. */
		struct {
			__u32 flags;	/* FS_BPF_* */
			__s32 ret;	/* start_dl_timer(): whether it armed */
			__s64 runtime;
			__u64 deadline;
			__u64 dl_runtime;
			__u64 dl_period;
			/* Where the programs derive: rt_wait (kderive.h). */
			__u64 rt_wait;
		} srv;
		/*
		 * sched_switch from @from to @to (@state as sched_switch's
		 * prev_state: 0 or 0x100 runnable); a wake-up of @from onto
		 * @cpu; a migration of @from from @src_cpu to @cpu.
		 */
		struct {
			struct fs_bpf_task from;
			struct fs_bpf_task to;
			__s64 state;
			__s32 src_cpu;
		} sch;
		/* What the programs derived (FS_BPF_WAIT to FS_BPF_LEAVE). */
		struct {
			struct fs_bpf_task task;
			struct fs_bpf_task holder;
			__u64 starved;
			__u32 why;
			__u32 first;
		} kd;
		/* cpuhp_enter: the state the CPU goes to (0: offline). */
		struct {
			__s32 target;
		} hp;
	};
};

/*
 * The entry of an idle charge, kept by the programs until its return (in
 * their .bss, which the skeleton shows user space too).
 */
struct fs_bpf_idle {
	__u64 ts;
	__u32 type;		/* FS_BPF_IDLE_IN or FS_BPF_PUT_IN; 0: none */
	__u32 flags;
	__s64 runtime;
};

/*
 * What the programs' last step on a CPU left there, copied out of its
 * state (kderive.h's), which a kprobe program may not read: its lock is
 * one that kprobes may not take. The real-time wait, for the server's
 * stop seen by kprobe; the tasks not followed, for user space.
 */
struct fs_bpf_kd_copy {
	__u64 rt_since;
	__u64 rt_wait;
	__u32 rt_open;
	__u32 untracked;	/* fair tasks: the CPU's table was full */
	__u32 rt_untracked;	/* real-time tasks, likewise */
};

#endif
