// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF source's programs. Those on the fair server see what the
 * kprobe source's probes see and send each observation to user space as
 * one struct fs_bpf_rec, through one ring buffer; they filter the same
 * way, for a fraction of the cost: fentry and fexit on the server's
 * functions, a kprobe where callers may enter a split-off copy of one
 * (dl_server_stop). The programs on the scheduler's events (tp_btf) derive
 * fair starvation and the real-time wait in the kernel, with the code
 * derive.c runs in user space (lib/kderive.h), and send only what they
 * derive: nothing while no higher class meets a fair task. For the
 * what-if, which replays every switch, they send each event instead.
 * Nothing is sent until user space sets recording.
 */
#include <linux/types.h>
#include <stdbool.h>
#include <linux/bpf.h>
#include <asm/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "kernel.h"
#include "record.h"

#define FS_KD_QUEUED	FS_BPF_KD_QUEUED
#define FS_KD_RT	FS_BPF_KD_RT
#include "kderive.h"

char LICENSE[] SEC("license") = "GPL";

/* Its size is set by user space before loading. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
} records SEC(".maps");

/*
 * Set by user space before loading: every program returns at once, so
 * that make bench can weigh the attachments alone (RTLA_FAIRSRV_BPF_EMPTY).
 * The verifier drops the test when it is false.
 */
const volatile bool empty;
/*
 * Set by user space before loading, when the run reports some CPUs only
 * (-c): the records about other CPUs, which run.c would drop, are not
 * made. A migration is about both of its CPUs.
 */
const volatile bool some_cpus;
const volatile __u64 cpus[FS_BPF_MAX_CPUS / 64];
/* Set by user space: send records from now on. */
int recording;
/* Records the ring had no room for, by CPU, in all and not yet told. */
__u64 dropped[FS_BPF_MAX_CPUS];
__u32 untold[FS_BPF_MAX_CPUS];

/*
 * What the programs keep of each server between calls, so as to send
 * only what derive.h can use: whether a start was sent since the last
 * stop (derive.h takes the first start after a stop; every fair enqueue
 * calls dl_server_start()), and the entry of an idle charge that found
 * runtime left (sent with its return only if the charge used it up). A
 * loss forgets the starts: they were sent in an older generation; so
 * does a CPU's hotplug, as derive.h does. Sending a start derive.h does
 * not need is harmless; leaving out one it needs is not.
 */
__u32 generation;
__u32 started[FS_BPF_MAX_CPUS];
struct fs_bpf_idle idle_entry[FS_BPF_MAX_CPUS];

/*
 * Set by user space before loading: the programs derive fair starvation
 * and the real-time wait themselves, with lib/kderive.h, and send what
 * they derive instead of every switch, wake-up and migration. Each CPU's
 * state is an entry of kd_cpus, under that entry's lock: a CPU's own
 * steps hold its runqueue's lock too, but a migration's arrival and the
 * tasks found at start do not.
 */
const volatile bool derive;

/* A CPU's entry in kd_cpus: its state, and its lock. */
struct fs_bpf_kd {
	struct bpf_spin_lock lock;
	struct fs_kd_cpu c;
};

/* One entry per CPU; user space sets the number before loading. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct fs_bpf_kd);
	__uint(max_entries, 1);
} kd_cpus SEC(".maps");

/*
 * What one step derived, sent once the lock is released: per CPU for the
 * scheduler's events (they run with interrupts off), and one of its own
 * for the tasks found at start (their program can be preempted).
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct fs_kd_outs);
	__uint(max_entries, 1);
} kd_outs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct fs_kd_outs);
	__uint(max_entries, 1);
} kd_found_outs SEC(".maps");

/*
 * A kprobe program may not take a BPF lock. The kprobe on the server's
 * stop (before 7.1) reads each CPU's real-time wait from this copy, which
 * every step refreshes, and leaves the time of the stop in kd_stopped for
 * the CPU's next step to apply first.
 */
struct fs_bpf_kd_copy kd_copy[FS_BPF_MAX_CPUS];
__u64 kd_stopped[FS_BPF_MAX_CPUS];

/* @cpu's derivation state, NULL if there is none. */
static __always_inline struct fs_bpf_kd *kd_slot(int cpu)
{
	__u32 key = cpu;

	return bpf_map_lookup_elem(&kd_cpus, &key);
}

/* The list a step on this CPU derives into, emptied. */
static __always_inline struct fs_kd_outs *kd_list(void *map)
{
	__u32 key = 0;
	struct fs_kd_outs *o = bpf_map_lookup_elem(map, &key);

	if (o) {
		o->nr = 0;
		o->dropped = 0;
	}
	return o;
}

/* A step on @c (CPU @cpu) begins: a stop the kprobe saw comes first. */
static __always_inline void kd_begin(struct fs_kd_cpu *c, int cpu)
{
	__u64 at;

	if (cpu < 0 || cpu >= FS_BPF_MAX_CPUS || !kd_stopped[cpu])
		return;
	at = __sync_lock_test_and_set(&kd_stopped[cpu], 0);
	if (!at)
		return;
	c->srv_running = false;
	fs_kd_rt_update(c, fs_kd_now(c, at));
}

/* A step on @c ends: what the kprobe and user space read, copied. */
static __always_inline void kd_done(struct fs_kd_cpu *c, int cpu)
{
	struct fs_bpf_kd_copy *k;

	if (cpu < 0 || cpu >= FS_BPF_MAX_CPUS)
		return;
	k = &kd_copy[cpu];
	k->rt_since = c->rt_since;
	k->rt_wait = c->rt_wait;
	k->rt_open = c->rt_open;
	k->untracked = c->untracked;
	k->rt_untracked = c->rt_untracked;
}

/*
 * Run @step on @slot's state (CPU @cpu) under its lock: a stop the kprobe
 * saw is applied first, and the copies are refreshed after. A macro, not
 * a function: the verifier must see the lock taken and released in the
 * program that holds it.
 */
#define KD_LOCKED(slot, cpu, step)				\
	do {							\
		bpf_spin_lock(&(slot)->lock);			\
		kd_begin(&(slot)->c, (cpu));			\
		step;						\
		kd_done(&(slot)->c, (cpu));			\
		bpf_spin_unlock(&(slot)->lock);			\
	} while (0)

/* Whether the run wants records about @cpu. */
static __always_inline bool cpu_wanted(int cpu)
{
	__u32 c = cpu;

	if (!some_cpus)
		return true;
	if (c >= FS_BPF_MAX_CPUS)
		return false;
	return cpus[c / 64] & (1ULL << (c % 64));
}

/*
 * A record of @type about @cpu at @ts (0: now), or NULL (not recording, or
 * no room).
 */
static __always_inline struct fs_bpf_rec *reserve(__u32 type, int cpu,
						  __u64 ts)
{
	__u32 me;
	struct fs_bpf_rec *r;

	if (empty)
		return NULL;
	me = bpf_get_smp_processor_id();
	if (!recording || me >= FS_BPF_MAX_CPUS)
		return NULL;
	r = bpf_ringbuf_reserve(&records, sizeof(*r), 0);
	if (!r) {
		__sync_fetch_and_add(&dropped[me], 1);
		__sync_fetch_and_add(&untold[me], 1);
		__sync_fetch_and_add(&generation, 1);
		return NULL;
	}
	r->ts = ts ? ts : bpf_ktime_get_ns();
	r->type = type;
	r->cpu = cpu;
	r->on_cpu = me;
	r->lost = __sync_lock_test_and_set(&untold[me], 0);
	return r;
}

/*
 * A field of @p, read one of two ways: directly where the verifier knows
 * what @p points to (the arguments of fentry, fexit and tp_btf programs:
 * one load each), or through bpf_probe_read_kernel() where it does not
 * (a kprobe's argument; the entity found back from its dl_timer). @probed
 * is a constant: the compiler keeps one way only.
 */
#define READ(probed, p, f) \
	((probed) ? BPF_CORE_READ(p, f) : (p)->f)
#define FLAG(probed, p, f) \
	((probed) ? BPF_CORE_READ_BITFIELD_PROBED(p, f) : \
		    BPF_CORE_READ_BITFIELD(p, f))

/* The server's state, read before deciding to send it. */
struct state {
	__u32 flags;
	__s64 runtime;
};

/*
 * The CPU whose fair server @se is, -1 if it is none or its CPU is not
 * one the run wants: tested before reading the rest of its state.
 */
static __always_inline int server_cpu(struct sched_dl_entity *se,
				      bool probed)
{
	struct rq *rq;
	int cpu;

	if (!FLAG(probed, se, dl_server))
		return -1;
	rq = READ(probed, se, rq);
	/* sched_ext's server is one too: only the fair one is ours. */
	if (!rq || (void *)se != (void *)rq +
	    bpf_core_field_offset(struct rq, fair_server))
		return -1;
	cpu = READ(probed, rq, cpu);
	if (cpu < 0 || cpu >= FS_BPF_MAX_CPUS || !cpu_wanted(cpu))
		return -1;
	return cpu;
}

/* Read the state of the fair server @se into @s. */
static __always_inline void read_state(struct sched_dl_entity *se,
				       struct state *s, bool probed)
{
	s->flags = 0;
	if (FLAG(probed, se, dl_server_active))
		s->flags |= FS_BPF_ACTIVE;
	if (FLAG(probed, se, dl_throttled))
		s->flags |= FS_BPF_THROTTLED;
	if (FLAG(probed, se, dl_defer_armed))
		s->flags |= FS_BPF_ARMED;
	if (FLAG(probed, se, dl_defer_running))
		s->flags |= FS_BPF_RUNNING;
	s->runtime = READ(probed, se, runtime);
}

/*
 * Whether an observation of @type with state @s is one derive.h reads:
 * the same filters as the kprobe source's (probes.c); a start only if
 * active.
 */
static __always_inline bool wanted(__u32 type, const struct state *s)
{
	switch (type) {
	case FS_BPF_START:
	case FS_BPF_STOP:
	case FS_BPF_NONCONT:
		return s->flags & FS_BPF_ACTIVE;
	case FS_BPF_IDLE_IN:
	case FS_BPF_PUT_IN:
		return (s->flags & FS_BPF_ACTIVE) && s->runtime > 0;
	case FS_BPF_IDLE_OUT:
	case FS_BPF_PUT_OUT:
		return (s->flags & FS_BPF_ACTIVE) && s->runtime <= 0;
	default:
		return true;
	}
}

/*
 * Where the programs derive: the real-time wait on @cpu at @ts that a
 * server record of @type with state @s carries, and the server's part in
 * it from then on (in D it picks the fair tasks that run). The stop's
 * kprobe (@type STOP, @probed) reads the copy, and leaves the stop to
 * the CPU's next step.
 */
static __always_inline __u64 kd_server(__u32 type, const struct state *s,
				       int cpu, __u64 ts, bool probed)
{
	bool running = (s->flags & FS_BPF_ACTIVE) &&
		       !(s->flags & FS_BPF_THROTTLED) &&
		       type != FS_BPF_STOP && type != FS_BPF_NONCONT;
	struct fs_bpf_kd *slot;
	struct fs_bpf_kd_copy *k;
	__u64 rt;

	if (!derive || cpu < 0 || cpu >= FS_BPF_MAX_CPUS)
		return 0;
	if (type == FS_BPF_STOP && probed) {
		k = &kd_copy[cpu];
		rt = k->rt_wait;
		if (k->rt_open && ts >= k->rt_since)
			rt += ts - k->rt_since;
		kd_stopped[cpu] = ts;
		return rt;
	}
	slot = kd_slot(cpu);
	if (!slot)
		return 0;
	KD_LOCKED(slot, cpu, {
		ts = fs_kd_now(&slot->c, ts);
		rt = fs_kd_rt_wait_at(&slot->c, ts);
		slot->c.rt_told = rt;
		slot->c.srv_running = running;
		fs_kd_rt_update(&slot->c, ts);
	});
	return rt;
}

/* Send the server's state @s of @se as @type at @ts (0: now). */
static __always_inline bool send(__u32 type, struct sched_dl_entity *se,
				 const struct state *s, int cpu, int ret,
				 __u64 ts, bool probed)
{
	__u64 now = ts ? ts : bpf_ktime_get_ns();
	__u64 rt = kd_server(type, s, cpu, now, probed);
	struct fs_bpf_rec *r = reserve(type, cpu, now);

	if (!r)
		return false;
	r->srv.rt_wait = rt;
	r->srv.flags = s->flags;
	r->srv.ret = ret;
	r->srv.runtime = s->runtime;
	r->srv.deadline = READ(probed, se, deadline);
	r->srv.dl_runtime = READ(probed, se, dl_runtime);
	r->srv.dl_period = READ(probed, se, dl_period);
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
	return true;
}

/*
 * An idle charge's entry (@type IDLE_IN, PUT_IN) or return (IDLE_OUT,
 * PUT_OUT) on @cpu: the entry is kept, and sent before the return only
 * when the charge used the runtime up, the one case derive.h reads.
 */
static __always_inline int idle_charge(__u32 type, struct sched_dl_entity *se,
				       const struct state *s, int cpu)
{
	struct fs_bpf_idle *e = &idle_entry[cpu];
	struct state in;

	if (type == FS_BPF_IDLE_IN || type == FS_BPF_PUT_IN) {
		e->type = wanted(type, s) ? type : 0;
		e->ts = bpf_ktime_get_ns();
		e->flags = s->flags;
		e->runtime = s->runtime;
		return 0;
	}
	if (e->type != type - 1 || !wanted(type, s)) {
		e->type = 0;
		return 0;
	}
	in = *s;
	in.flags = e->flags;
	in.runtime = e->runtime;
	if (send(e->type, se, &in, cpu, 0, e->ts, false))
		send(type, se, s, cpu, 0, 0, false);
	e->type = 0;
	return 0;
}

/* Send observation @type of the fair server @se; @ret for the timer's. */
static __always_inline int observe(__u32 type, struct sched_dl_entity *se,
				   int ret, bool probed)
{
	struct state s;
	__u32 gen;
	int cpu;

	if (empty || !recording)
		return 0;
	cpu = server_cpu(se, probed);
	if (cpu < 0)
		return 0;
	read_state(se, &s, probed);
	switch (type) {
	case FS_BPF_IDLE_IN:
	case FS_BPF_IDLE_OUT:
	case FS_BPF_PUT_IN:
	case FS_BPF_PUT_OUT:
		return idle_charge(type, se, &s, cpu);
	case FS_BPF_START:
		gen = generation + 1;
		if (!wanted(type, &s) || started[cpu] == gen)
			return 0;
		if (send(type, se, &s, cpu, ret, 0, probed))
			started[cpu] = gen;
		return 0;
	case FS_BPF_STOP:
	case FS_BPF_NONCONT:
		if (wanted(type, &s) && send(type, se, &s, cpu, ret, 0, probed))
			started[cpu] = 0;
		return 0;
	default:
		if (wanted(type, &s))
			send(type, se, &s, cpu, ret, 0, probed);
		return 0;
	}
}

/* The fair server of @rq. */
static __always_inline struct sched_dl_entity *fair_server(struct rq *rq)
{
	return (void *)rq + bpf_core_field_offset(struct rq, fair_server);
}

SEC("fexit/dl_server_start")
int BPF_PROG(server_start, struct sched_dl_entity *se)
{
	return observe(FS_BPF_START, se, 0, false);
}

/*
 * Before 7.1, a kprobe: compilers inline dl_server_stop() into some of
 * its callers and split a copy off for the others, which user space
 * finds (its .part copy if it has one).
 */
SEC("kprobe")
int BPF_KPROBE(server_stop, struct sched_dl_entity *se)
{
	return observe(FS_BPF_STOP, se, 0, true);
}

/*
 * 7.1 and later: upstream's bare tracepoint in dl_server_stop(), which
 * sees what the kprobe saw (on entry, the server still active), wherever
 * the compiler put the function, and only the calls that stop it.
 */
SEC("tp_btf/sched_dl_server_stop_tp")
int BPF_PROG(server_stop_tp, struct sched_dl_entity *se, int cpu, __u8 type)
{
	return observe(FS_BPF_STOP, se, 0, false);
}

SEC("fexit/start_dl_timer")
int BPF_PROG(timer_start, struct sched_dl_entity *se, long ret)
{
	/* A bool on newer kernels: only its low byte is the value. */
	return observe(FS_BPF_TIMER, se, (ret & 0xff) != 0, false);
}

SEC("fexit/replenish_dl_entity")
int BPF_PROG(replenish, struct sched_dl_entity *se)
{
	return observe(FS_BPF_REPLENISH, se, 0, false);
}

SEC("fexit/dl_task_timer")
int BPF_PROG(timer_fired, struct hrtimer *timer)
{
	return observe(FS_BPF_FIRED, (void *)timer -
		       bpf_core_field_offset(struct sched_dl_entity, dl_timer),
		       0, true);
}

SEC("fentry/task_non_contending")
int BPF_PROG(non_contending, struct sched_dl_entity *se)
{
	return observe(FS_BPF_NONCONT, se, 0, false);
}

/* 6.12: idle time charged to the rq's server; inline in the next too. */
SEC("fentry/dl_server_update_idle_time")
int BPF_PROG(idle_rq_in, struct rq *rq)
{
	return observe(FS_BPF_IDLE_IN, fair_server(rq), 0, false);
}

SEC("fexit/dl_server_update_idle_time")
int BPF_PROG(idle_rq_out, struct rq *rq)
{
	return observe(FS_BPF_IDLE_OUT, fair_server(rq), 0, false);
}

SEC("fentry/put_prev_task_idle")
int BPF_PROG(put_idle_in, struct rq *rq)
{
	return observe(FS_BPF_PUT_IN, fair_server(rq), 0, false);
}

SEC("fexit/put_prev_task_idle")
int BPF_PROG(put_idle_out, struct rq *rq)
{
	return observe(FS_BPF_PUT_OUT, fair_server(rq), 0, false);
}

/* Later kernels: idle time charged to each server of the CPU. */
SEC("fentry/dl_server_update_idle")
int BPF_PROG(idle_se_in, struct sched_dl_entity *se)
{
	return observe(FS_BPF_IDLE_IN, se, 0, false);
}

SEC("fexit/dl_server_update_idle")
int BPF_PROG(idle_se_out, struct sched_dl_entity *se)
{
	return observe(FS_BPF_IDLE_OUT, se, 0, false);
}

/* The CPU task_cpu() gives: in thread_info where the kernel has it there. */
static __always_inline int task_cpu(struct task_struct *p)
{
	if (bpf_core_field_exists(p->thread_info.cpu))
		return p->thread_info.cpu;
	return p->cpu;
}

/*
 * @p as the scheduler's events name it. @p is a tp_btf argument, which the
 * verifier lets the program read directly: the name is copied with two
 * 8-byte loads, where bpf_probe_read_kernel() would cost a helper call
 * and a fault-safe copy at every switch and wake-up.
 */
static __always_inline void task(struct fs_kd_task *t, struct task_struct *p)
{
	const __u64 *name = (const __u64 *)p->comm;
	__u64 *to = (__u64 *)t->comm;

	t->pid = p->pid;
	t->prio = p->prio;
	to[0] = name[0];
	to[1] = name[1];
}

/* A record's task, which kderive.h's is laid out as. */
static __always_inline struct fs_kd_task *as_kd(struct fs_bpf_task *t)
{
	_Static_assert(sizeof(struct fs_bpf_task) == sizeof(struct fs_kd_task),
		       "a record's task is kderive.h's");
	return (struct fs_kd_task *)t;
}

/* Send what a step derived, each event a record. */
static __always_inline void kd_send(struct fs_kd_outs *o)
{
	struct fs_bpf_rec *r;
	struct fs_kd_out *e;
	__u32 i, n = o->nr;

	for (i = 0; i < FS_KD_OUTS && i < n; i++) {
		e = &o->ev[i];
		if (e->type > FS_BPF_LEAVE - FS_BPF_WAIT)
			continue;
		r = reserve(FS_BPF_WAIT + e->type, e->cpu, e->ts);
		if (!r)
			continue;
		__builtin_memcpy(&r->kd.task, &e->task, sizeof(r->kd.task));
		__builtin_memcpy(&r->kd.holder, &e->holder,
				 sizeof(r->kd.holder));
		r->kd.starved = e->starved;
		r->kd.why = e->why;
		r->kd.first = e->first;
		bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
	}
}

/* sched_switch where the programs derive: a step of kderive.h. */
static __always_inline int kd_switch(int cpu, bool preempt,
				     struct task_struct *prev,
				     struct task_struct *next,
				     unsigned int prev_state)
{
	struct fs_kd_task from, to;
	struct fs_kd_outs *o;
	struct fs_bpf_kd *slot;
	__u64 ts;

	if (empty || !recording)
		return 0;
	slot = kd_slot(cpu);
	o = kd_list(&kd_outs);
	if (!slot || !o)
		return 0;
	task(&from, prev);
	task(&to, next);
	ts = bpf_ktime_get_ns();
	/* Preempted, or a state below TASK_REPORT_MAX: still runnable. */
	KD_LOCKED(slot, cpu, fs_kd_switch(&slot->c, cpu, ts, &from, &to,
					  preempt || !(prev_state & 0xff), o));
	kd_send(o);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(sched_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	int cpu = bpf_get_smp_processor_id();
	struct fs_bpf_rec *r;

	if (!cpu_wanted(cpu))
		return 0;
	if (derive)
		return kd_switch(cpu, preempt, prev, next, prev_state);
	r = reserve(FS_BPF_SWITCH, cpu, 0);
	if (!r)
		return 0;
	task(as_kd(&r->sch.from), prev);
	task(as_kd(&r->sch.to), next);
	/* As sched_switch's prev_state: preempted is runnable (0x100). */
	r->sch.state = preempt ? 0x100 : prev_state;
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
	return 0;
}

/* A wake-up of @p onto @cpu where the programs derive. */
static __always_inline int kd_wakeup(int cpu, struct task_struct *p)
{
	struct fs_kd_outs *o;
	struct fs_bpf_kd *slot;
	struct fs_kd_task t;
	__u64 ts;

	if (empty || !recording)
		return 0;
	slot = kd_slot(cpu);
	o = kd_list(&kd_outs);
	if (!slot || !o)
		return 0;
	task(&t, p);
	ts = bpf_ktime_get_ns();
	KD_LOCKED(slot, cpu, fs_kd_wakeup(&slot->c, cpu, ts, &t, o));
	kd_send(o);
	return 0;
}

/* A wake-up of @p, sched_wakeup's or sched_wakeup_new's. */
static __always_inline int wakeup(__u32 type, struct task_struct *p)
{
	int cpu = task_cpu(p);
	struct fs_bpf_rec *r;

	if (!cpu_wanted(cpu))
		return 0;
	if (derive)
		return kd_wakeup(cpu, p);
	r = reserve(type, cpu, 0);
	if (!r)
		return 0;
	task(as_kd(&r->sch.from), p);
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(sched_wakeup, struct task_struct *p)
{
	return wakeup(FS_BPF_WAKEUP, p);
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(sched_wakeup_new, struct task_struct *p)
{
	return wakeup(FS_BPF_WAKEUP_NEW, p);
}

/*
 * A migration of @p from @src to @dst where the programs derive: it
 * leaves one CPU, then arrives on the other, each under its own lock.
 */
static __always_inline int kd_migrate(int src, int dst, struct task_struct *p)
{
	struct fs_bpf_kd *from, *to;
	struct fs_kd_move m;
	struct fs_kd_outs *o;
	struct fs_kd_task t;
	__u64 ts;

	if (empty || !recording)
		return 0;
	from = kd_slot(src);
	to = kd_slot(dst);
	o = kd_list(&kd_outs);
	if (!from || !to || !o)
		return 0;
	task(&t, p);
	ts = bpf_ktime_get_ns();
	KD_LOCKED(from, src, fs_kd_leave(&from->c, src, ts, &t, &m, o));
	if (m.rt || m.fair)
		KD_LOCKED(to, dst, fs_kd_arrive(&to->c, dst, ts, &t, &m, o));
	kd_send(o);
	return 0;
}

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(sched_migrate_task, struct task_struct *p, int dest_cpu)
{
	int src_cpu = task_cpu(p);
	struct fs_bpf_rec *r;

	if (!cpu_wanted(dest_cpu) && !cpu_wanted(src_cpu))
		return 0;
	if (derive)
		return kd_migrate(src_cpu, dest_cpu, p);
	r = reserve(FS_BPF_MIGRATE, dest_cpu, 0);
	if (!r)
		return 0;
	task(as_kd(&r->sch.from), p);
	r->sch.src_cpu = src_cpu;
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
	return 0;
}

/* Each CPU's runqueue, for its current task. */
extern struct rq runqueues __ksym;

/*
 * The tasks found runnable at start, where the programs derive: user
 * space runs this over every task once recording is on. The current task
 * of the CPU is read from its runqueue, so that its state knows what runs
 * before its first switch; a task found queued behind a higher class
 * waits from now, its start not seen.
 */
SEC("iter/task")
int found_tasks(struct bpf_iter__task *ctx)
{
	struct task_struct *p = ctx->task, *curr;
	struct fs_kd_task t, running;
	struct fs_kd_outs *o;
	struct fs_bpf_kd *slot;
	struct rq *rq;
	__u64 ts;
	int cpu;

	/* Runnable (TASK_RUNNING) and queued (TASK_ON_RQ_QUEUED). */
	if (!p || !derive || !recording || p->__state || p->on_rq != 1)
		return 0;
	cpu = task_cpu(p);
	if (cpu < 0 || cpu >= FS_BPF_MAX_CPUS || !cpu_wanted(cpu))
		return 0;
	rq = bpf_per_cpu_ptr(&runqueues, cpu);
	if (!rq)
		return 0;
	curr = rq->curr;
	slot = kd_slot(cpu);
	o = kd_list(&kd_found_outs);
	if (!curr || !slot || !o)
		return 0;
	task(&running, curr);
	task(&t, p);
	ts = bpf_ktime_get_ns();
	KD_LOCKED(slot, cpu, {
		if (!slot->c.curr_known) {
			slot->c.curr = running;
			slot->c.curr_known = true;
		}
		fs_kd_found(&slot->c, cpu, ts, &t, o);
	});
	kd_send(o);
	return 0;
}

SEC("tp_btf/cpuhp_enter")
int BPF_PROG(cpuhp_enter, unsigned int cpu, int target)
{
	struct fs_bpf_kd *slot;
	struct fs_bpf_rec *r;

	/* derive.h forgets a CPU that comes back: so does this side. */
	if (cpu < FS_BPF_MAX_CPUS) {
		started[cpu] = 0;
		idle_entry[cpu].type = 0;
	}
	slot = derive && recording ? kd_slot(cpu) : NULL;
	if (slot) {
		bpf_spin_lock(&slot->lock);
		fs_kd_hotplug(&slot->c, target == 0);
		bpf_spin_unlock(&slot->lock);
	}
	r = reserve(FS_BPF_HOTPLUG, cpu, 0);
	if (!r)
		return 0;
	r->hp.target = target;
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
	return 0;
}
