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
	FS_BPF_NR
};

/* The server's flags, as the series' events carry them. */
#define FS_BPF_ACTIVE		0x01
#define FS_BPF_THROTTLED	0x02
#define FS_BPF_ARMED		0x04
#define FS_BPF_RUNNING		0x08

/* A task as the scheduler's events show it. */
struct fs_bpf_task {
	__s32 pid;
	__s32 prio;		/* kernel prio */
	char comm[16];
};

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

#endif
