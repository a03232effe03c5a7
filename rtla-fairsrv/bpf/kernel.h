/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's types as far as the BPF programs read them. Only the names
 * count: libbpf relocates each access to where the running kernel's BTF
 * puts the field (CO-RE), so these need not match any one kernel's layout.
 */
#ifndef FAIRSRV_BPF_KERNEL_H
#define FAIRSRV_BPF_KERNEL_H

#define __core __attribute__((preserve_access_index))

struct hrtimer {
	__u64 _unused;
} __core;

struct rq;

struct sched_dl_entity {
	__s64 runtime;
	__u64 deadline;
	__u64 dl_runtime;
	__u64 dl_period;
	unsigned int dl_throttled:1;
	unsigned int dl_server:1;
	unsigned int dl_server_active:1;
	unsigned int dl_defer_armed:1;
	unsigned int dl_defer_running:1;
	struct hrtimer dl_timer;
	struct rq *rq;
} __core;

struct task_struct;

struct rq {
	int cpu;
	struct task_struct *curr;
	struct sched_dl_entity fair_server;
} __core;

struct thread_info {
	__u32 cpu;
} __core;

struct task_struct {
	struct thread_info thread_info;
	unsigned int __state;
	int on_rq;
	unsigned int cpu;
	int pid;
	int prio;
	char comm[16];
} __core;

/* What a task iterator's program gets. */
struct bpf_iter_meta;

struct bpf_iter__task {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
} __core;

#endif
