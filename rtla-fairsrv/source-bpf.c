// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF source: programs (bpf/fairsrv.bpf.c) that see what the kprobe
 * source's probes and the scheduler's events see. Their observations of
 * the server come through one BPF ring buffer as fixed records, which
 * derive.h turns into the same events as the kprobe source's, at a
 * fraction of the cost: fentry and fexit instead of kprobes and
 * kretprobes, and no trace event to parse. Fair starvation and the
 * real-time wait the programs derive themselves, with lib/kderive.h, so
 * that only what they derive leaves the kernel; for the what-if, which
 * replays the load, and with RTLA_FAIRSRV_BPF_RECORDS=1 (to compare),
 * they send every switch, wake-up and migration for derive.h instead.
 * Built where clang and bpftool were; RTLA_NO_BPF=1 keeps --source auto
 * off it, as it keeps rtla's timerlat off its own.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <tracefs.h>

#include "kderive.h"
#include "source.h"
#include "bpf/record.h"
#include "fairsrv.skel.h"

/* The ring's size when -b does not say: 0.1 s of 1M events/s, twice. */
#define RING_DEFAULT	(16U << 20)

/* Which kernels a program is for, or which figures need it. */
enum need {
	NEED_SERVER,		/* the server, on every kernel */
	NEED_IDLE_RQ,		/* 6.12: idle time charged to a CPU's server */
	NEED_IDLE_SE,		/* later: to each server of the CPU */
	NEED_STOP_PROBE,	/* before 7.1: the server's stop, by kprobe */
	NEED_STOP_TP,		/* 7.1+: by upstream's sched_dl_server_stop_tp */
	NEED_STARVATION,	/* fair starvation and the what-if's load */
	NEED_HOTPLUG,
	NEED_DERIVE,		/* the programs derive: the tasks found */
};

/* What the running kernel has, from its BTF. */
struct kernel_has {
	enum need idle;		/* NEED_IDLE_RQ or NEED_IDLE_SE */
	bool stop_tp;		/* upstream's sched_dl_server_stop_tp */
};

/* The programs, by name, and what each is for. */
static const struct prog_def {
	const char *name;
	enum need need;
	const char *kprobe;	/* attach as a kprobe on this function's entry */
} prog_defs[] = {
	{ "server_start",	NEED_SERVER,		NULL },
	{ "server_stop",	NEED_STOP_PROBE,	"dl_server_stop" },
	{ "server_stop_tp",	NEED_STOP_TP,		NULL },
	{ "timer_start",	NEED_SERVER,		NULL },
	{ "replenish",		NEED_SERVER,		NULL },
	{ "timer_fired",	NEED_SERVER,		NULL },
	{ "non_contending",	NEED_SERVER,		NULL },
	{ "idle_rq_in",		NEED_IDLE_RQ,		NULL },
	{ "idle_rq_out",	NEED_IDLE_RQ,		NULL },
	{ "put_idle_in",	NEED_IDLE_RQ,		NULL },
	{ "put_idle_out",	NEED_IDLE_RQ,		NULL },
	{ "idle_se_in",		NEED_IDLE_SE,		NULL },
	{ "idle_se_out",	NEED_IDLE_SE,		NULL },
	{ "sched_switch",	NEED_STARVATION,	NULL },
	{ "sched_wakeup",	NEED_STARVATION,	NULL },
	{ "sched_wakeup_new",	NEED_STARVATION,	NULL },
	{ "sched_migrate_task",	NEED_STARVATION,	NULL },
	{ "cpuhp_enter",	NEED_HOTPLUG,		NULL },
	{ "found_tasks",	NEED_DERIVE,		NULL },
};

#define NR_PROGS	(sizeof(prog_defs) / sizeof(prog_defs[0]))

/* The event of lib/event.h each record is. */
static const enum fs_ev ev_of[FS_BPF_NR] = {
	[FS_BPF_START]		= FS_EV_P_START,
	[FS_BPF_STOP]		= FS_EV_P_STOP,
	[FS_BPF_TIMER]		= FS_EV_P_TIMER,
	[FS_BPF_REPLENISH]	= FS_EV_P_REPLENISH,
	[FS_BPF_FIRED]		= FS_EV_P_FIRED,
	[FS_BPF_NONCONT]	= FS_EV_P_NONCONT,
	[FS_BPF_IDLE_IN]	= FS_EV_P_IDLE_IN,
	[FS_BPF_IDLE_OUT]	= FS_EV_P_IDLE_OUT,
	[FS_BPF_PUT_IN]		= FS_EV_P_PUT_IN,
	[FS_BPF_PUT_OUT]	= FS_EV_P_PUT_OUT,
	[FS_BPF_SWITCH]		= FS_EV_SWITCH,
	[FS_BPF_WAKEUP]		= FS_EV_WAKEUP,
	[FS_BPF_WAKEUP_NEW]	= FS_EV_WAKEUP_NEW,
	[FS_BPF_MIGRATE]	= FS_EV_MIGRATE,
	[FS_BPF_HOTPLUG]	= FS_EV_HOTPLUG,
	[FS_BPF_WAIT]		= FS_EV_WAIT,
	[FS_BPF_HOLD]		= FS_EV_HOLD,
	[FS_BPF_END]		= FS_EV_END,
	[FS_BPF_RAN]		= FS_EV_RAN,
	[FS_BPF_LEAVE]		= FS_EV_LEAVE,
};

struct bpf_source {
	const struct fs_params *p;
	/*
	 * The programs derive fair starvation and the real-time wait
	 * (lib/kderive.h) and send only what they derive; else they send
	 * every switch, wake-up and migration for derive.h in user space.
	 */
	bool derive;
	struct fairsrv_bpf *skel;
	struct bpf_link *link[NR_PROGS];
	struct ring_buffer *rb;
	/* The collect() under way: where records go, and the first error. */
	fs_sink_fn sink;
	void *ctx;
	int err;
	/* The -t instance, whose trace gets a line per server record. */
	struct tracefs_instance *rec;
	unsigned long untraced;	/* lines it refused */
	bool stopped;		/* recording is off: the last collect() */
	uint64_t last_ts;	/* the newest record taken */
};

/* An error line when --source bpf asked for it, else a debug line. */
static void __attribute__((format(printf, 2, 3)))
say(const struct fs_params *p, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (p->source)
		fs_err("%s", buf);
	else
		fs_debug("source bpf: %s", buf);
}

/* Whether the environment variable @name is set, and not to "0". */
static bool env_set(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

/* Whether the running kernel is a PREEMPT_RT one. */
static bool kernel_is_rt(void)
{
	struct utsname u;

	return !uname(&u) && strstr(u.version, "PREEMPT_RT");
}

/*
 * Built, not turned off by RTLA_NO_BPF, the kernel has BTF, and it is not
 * PREEMPT_RT: there irq_work/N runs at RT priority 1, so any real-time
 * busy loop above it starves it, and the fentry and fexit programs could
 * not be detached until that loop ended (see detach_watch()).
 */
static bool bpf_usable(void)
{
	if (env_set("RTLA_NO_BPF"))
		return false;
	if (kernel_is_rt()) {
		fs_debug("source bpf: not taken by auto on PREEMPT_RT, where its detach waits for every starved irq_work thread");
		return false;
	}
	return !access("/sys/kernel/btf/vmlinux", R_OK);
}

/*
 * Fill @k from the kernel's BTF: how it charges idle time to the server,
 * and whether it has upstream's tracepoints. -1 if it has no fair server
 * this source can read.
 */
static int kernel_has(const struct fs_params *p, struct kernel_has *k)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int ret = 0;

	if (!btf) {
		say(p, "cannot read the kernel's BTF: %s", strerror(errno));
		return -1;
	}
	if (btf__find_by_name_kind(btf, "dl_server_update_idle_time",
				   BTF_KIND_FUNC) > 0)
		k->idle = NEED_IDLE_RQ;
	else if (btf__find_by_name_kind(btf, "dl_server_update_idle",
					BTF_KIND_FUNC) > 0)
		k->idle = NEED_IDLE_SE;
	else {
		say(p, "the kernel's BTF has neither dl_server_update_idle_time nor dl_server_update_idle: no fair server this tool can read");
		ret = -1;
	}
	/* A tracepoint's BTF is the typedef of what a tp_btf program gets. */
	k->stop_tp = btf__find_by_name_kind(btf,
			"btf_trace_sched_dl_server_stop_tp", BTF_KIND_TYPEDEF) > 0;
	btf__free(btf);
	return ret;
}

/* Whether program @d is loaded for this run of @b on a kernel with @k. */
static bool wanted(const struct bpf_source *b, const struct prog_def *d,
		   const struct kernel_has *k)
{
	const struct fs_params *p = b->p;

	switch (d->need) {
	case NEED_SERVER:
	case NEED_HOTPLUG:
		return true;
	case NEED_IDLE_RQ:
	case NEED_IDLE_SE:
		return d->need == k->idle;
	case NEED_STOP_PROBE:
		return !k->stop_tp;
	case NEED_STOP_TP:
		return k->stop_tp;
	case NEED_STARVATION:
		return !p->server_only;
	case NEED_DERIVE:
		return b->derive;
	}
	return false;
}

/* The ring's size: -b per CPU, a power of two as the kernel needs. */
static __u32 ring_size(const struct fs_params *p)
{
	unsigned long long want = p->buffer_kb ?
		p->buffer_kb * 1024ULL * (unsigned int)p->nr_cpus : RING_DEFAULT;
	__u32 size = 1U << 16;

	while (size < want && size < (1U << 30))
		size <<= 1;
	return size;
}

/* Pick the programs this kernel and run need, and size the ring. */
static int configure(struct bpf_source *b, const struct kernel_has *k)
{
	struct bpf_program *prog;
	unsigned int i;

	bpf_object__for_each_program(prog, b->skel->obj) {
		const char *name = bpf_program__name(prog);
		bool load = false;

		for (i = 0; i < NR_PROGS; i++)
			if (!strcmp(name, prog_defs[i].name))
				load = wanted(b, &prog_defs[i], k);
		if (bpf_program__set_autoload(prog, load)) {
			say(b->p, "cannot configure the program %s", name);
			return -1;
		}
	}
	/* Only the CPUs -c names, when it names fewer than all. */
	if (fs_cpuset_count(&b->p->cpus) < b->p->nr_cpus) {
		b->skel->rodata->some_cpus = true;
		for (i = 0; i < FS_BPF_MAX_CPUS && (int)i < b->p->nr_cpus; i++)
			if (fs_cpuset_isset(&b->p->cpus, i))
				b->skel->rodata->cpus[i / 64] |= 1ULL << (i % 64);
	}
	if (env_set("RTLA_FAIRSRV_BPF_EMPTY")) {
		fs_err("RTLA_FAIRSRV_BPF_EMPTY: the BPF programs attach and record nothing (a benchmark's floor)");
		b->skel->rodata->empty = true;
	}
	if (bpf_map__set_max_entries(b->skel->maps.records, ring_size(b->p))) {
		say(b->p, "cannot size the BPF ring buffer");
		return -1;
	}
	b->skel->rodata->derive = b->derive;
	if (b->derive &&
	    bpf_map__set_max_entries(b->skel->maps.kd_cpus, b->p->nr_cpus)) {
		say(b->p, "cannot size the BPF programs' state");
		return -1;
	}
	return 0;
}

/* Attach the loaded programs, each where prog_defs[] says. */
static int attach(struct bpf_source *b)
{
	struct bpf_program *prog;
	char sym[256];
	unsigned int i;

	for (i = 0; i < NR_PROGS; i++) {
		const struct prog_def *d = &prog_defs[i];

		prog = bpf_object__find_program_by_name(b->skel->obj, d->name);
		/* The iterator runs once, from start(). */
		if (!prog || !bpf_program__autoload(prog) ||
		    d->need == NEED_DERIVE)
			continue;
		if (d->kprobe) {
			if (fs_ksym_entry(d->kprobe, sym, sizeof(sym)))
				return -1;
			b->link[i] = bpf_program__attach_kprobe(prog, false,
								sym);
		} else {
			b->link[i] = bpf_program__attach(prog);
		}
		if (!b->link[i]) {
			say(b->p, "cannot attach the program %s: %s", d->name,
			    strerror(errno));
			return -1;
		}
	}
	return 0;
}

/*
 * Copy the server's observation @ev (take() calls it for those only)
 * into the -t trace as a line of its marker (the scheduler's events are
 * there as themselves). The line is written when the ring is read, so it
 * carries @ev's own time. The kernel refuses it while the recording is
 * paused (an action runs), when the trace loses everything else too: -D
 * counts them.
 */
static void to_trace(struct bpf_source *b, const struct fs_event *ev)
{
	char line[256];

	if (!b->rec)
		return;
	fs_event_line(line, sizeof(line), ev);
	if (tracefs_printf(b->rec, "rtla_fairsrv: %s\n", line) < 0)
		b->untraced++;
}

/* A task of a record, as the events name it. */
static void task_of(struct fs_task *t, const struct fs_bpf_task *k)
{
	t->pid = k->pid;
	t->prio = k->prio;
	memcpy(t->comm, k->comm, FS_COMM_LEN - 1);
	t->comm[FS_COMM_LEN - 1] = '\0';
}

/* Turn one record into events for the sink: a loss mark first, if any. */
static int take(void *ctx, void *data, size_t size)
{
	struct bpf_source *b = ctx;
	const struct fs_bpf_rec *r = data;
	struct fs_event ev;

	if (size < sizeof(*r) || r->type >= FS_BPF_NR)
		return 0;
	if (r->lost) {
		struct fs_event mark = {
			.type = FS_EV_LOST, .cpu = (int)r->on_cpu, .ts = r->ts,
			.lost = r->lost,
		};

		if (b->sink(b->ctx, &mark))
			goto fail;
	}
	if (r->ts > b->last_ts)
		b->last_ts = r->ts;
	memset(&ev, 0, sizeof(ev));
	ev.type = ev_of[r->type];
	ev.cpu = r->cpu;
	ev.ts = r->ts;
	switch (r->type) {
	case FS_BPF_SWITCH:
	case FS_BPF_WAKEUP:
	case FS_BPF_WAKEUP_NEW:
	case FS_BPF_MIGRATE:
		task_of(&ev.from, &r->sch.from);
		task_of(&ev.to, &r->sch.to);
		ev.from_state = r->sch.state;
		ev.src_cpu = r->sch.src_cpu;
		break;
	case FS_BPF_HOTPLUG:
		ev.down = r->hp.target == 0;
		break;
	case FS_BPF_WAIT:
	case FS_BPF_HOLD:
	case FS_BPF_END:
	case FS_BPF_RAN:
	case FS_BPF_LEAVE:
		task_of(&ev.task, &r->kd.task);
		task_of(&ev.holder, &r->kd.holder);
		ev.why = r->kd.why;
		ev.first = r->kd.first;
		ev.starved = r->kd.starved;
		break;
	default:
		ev.flags = r->srv.flags;
		ev.runtime = r->srv.runtime;
		ev.deadline = r->srv.deadline;
		ev.dl_runtime = r->srv.dl_runtime;
		ev.dl_period = r->srv.dl_period;
		ev.ret = r->srv.ret;
		ev.rt_wait = r->srv.rt_wait;
		to_trace(b, &ev);
		break;
	}
	if (!b->sink(b->ctx, &ev))
		return 0;
fail:
	b->err = -1;
	return -1;
}

/* Seconds of waiting for the programs' detach before saying why. */
#define DETACH_NOTICE_S	1

/* The detach under way, and whether it is over. */
struct detach {
	pthread_mutex_t lock;
	pthread_cond_t over;
	bool done;
};

/*
 * Detaching an fentry or fexit program waits for an RCU-tasks grace
 * period: until every task that was runnable has run since. A task that
 * a real-time task starves (a lower-priority real-time task; on
 * PREEMPT_RT, irq_work/N at priority 1) holds it up for as long as it
 * starves. This thread says so, once, if the detach takes a while.
 */
static void *detach_watch(void *arg)
{
	struct detach *d = arg;
	struct timespec until;
	int rc = 0;

	if (clock_gettime(CLOCK_REALTIME, &until))
		return NULL;
	until.tv_sec += DETACH_NOTICE_S;
	pthread_mutex_lock(&d->lock);
	while (!d->done && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&d->over, &d->lock, &until);
	if (!d->done)
		fs_err("detaching the BPF programs: waiting until every runnable task has run (an RCU-tasks grace period); a task starved by a real-time one delays this until it runs");
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

/* Destroy @b's links, with detach_watch() watching. */
static void detach_all(struct bpf_source *b)
{
	struct detach d = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.over = PTHREAD_COND_INITIALIZER,
	};
	uint64_t t0 = fs_system_now();
	pthread_t watch;
	unsigned int i;
	int err;

	err = pthread_create(&watch, NULL, detach_watch, &d);
	if (err)
		fs_debug("source bpf: no watch over the detach: %s",
			 strerror(err));
	for (i = 0; i < NR_PROGS; i++)
		bpf_link__destroy(b->link[i]);
	if (!err) {
		pthread_mutex_lock(&d.lock);
		d.done = true;
		pthread_cond_signal(&d.over);
		pthread_mutex_unlock(&d.lock);
		pthread_join(watch, NULL);
	}
	fs_debug("source bpf: programs detached in %llu ms",
		 (unsigned long long)(fs_system_now() - t0) / 1000000);
}

/* Detach and unload; safe on a partly opened source. */
static void bpf_close(struct fs_source *s)
{
	struct bpf_source *b = (struct bpf_source *)s;

	if (!b)
		return;
	ring_buffer__free(b->rb);
	detach_all(b);
	fairsrv_bpf__destroy(b->skel);
	free(b);
}

/*
 * Open, configure and load the programs for @b on a kernel with @k; a
 * refusal is said as an error only if there is no @retry.
 */
static int load_once(struct bpf_source *b, const struct kernel_has *k,
		     bool retry)
{
	b->skel = fairsrv_bpf__open();
	if (!b->skel) {
		say(b->p, "cannot open the BPF programs: %s", strerror(errno));
		return -1;
	}
	if (configure(b, k))
		return -1;
	if (!fairsrv_bpf__load(b->skel))
		return 0;
	if (retry)
		fs_debug("source bpf: the kernel refused the programs that derive (%s)",
			 strerror(errno));
	else
		say(b->p, "the kernel refused the BPF programs (%s): run with -D for the verifier's words",
		    strerror(errno));
	return -1;
}

/*
 * Load the programs. A verifier that takes the deriving programs for too
 * long (its limits differ between kernels) still takes the ones that send
 * every event: the tool then derives in user space, and -D says so.
 */
static int load(struct bpf_source *b, const struct kernel_has *k)
{
	if (!load_once(b, k, b->derive))
		return 0;
	if (!b->derive)
		return -1;
	fairsrv_bpf__destroy(b->skel);
	b->skel = NULL;
	b->derive = false;
	fs_debug("source bpf: sending every scheduler event instead");
	return load_once(b, k, false);
}

/* Load and attach the programs, not yet recording. */
static struct fs_source *bpf_open(const struct fs_params *p,
				  struct fs_trace_caps *caps)
{
	struct bpf_source *b = calloc(1, sizeof(*b));
	struct kernel_has k;

	if (!b) {
		fs_err("out of memory");
		return NULL;
	}
	b->p = p;
	/* The what-if replays the load: it needs every switch. */
	b->derive = !p->server_only && !fs_params_load(p) &&
		    !env_set("RTLA_FAIRSRV_BPF_RECORDS");
	fs_libbpf_quiet();
	if (kernel_has(p, &k) || load(b, &k))
		goto fail;
	if (attach(b))
		goto fail;
	b->rb = ring_buffer__new(bpf_map__fd(b->skel->maps.records), take, b,
				 NULL);
	if (!b->rb) {
		say(p, "cannot read the BPF ring buffer: %s", strerror(errno));
		goto fail;
	}
	caps->derived = true;
	caps->starvation = !p->server_only;
	caps->starve_absent = "the BPF programs on the scheduler's events are not loaded";
	caps->rt_wait = caps->starvation;
	caps->load = caps->starvation;
	caps->hotplug = true;
	caps->params = false;
	caps->sched_derived = b->derive;
	caps->note = "BPF on a kernel without the series: parameter writes (params, refused) are not seen";
	fs_debug("source bpf: %s idle charge, stop by %s, ring of %u kB, starvation derived %s",
		 k.idle == NEED_IDLE_RQ ? "per-rq" : "per-server",
		 k.stop_tp ? "tracepoint" : "kprobe",
		 ring_size(p) >> 10,
		 b->derive ? "in the kernel" : "in user space");
	return (struct fs_source *)b;
fail:
	bpf_close((struct fs_source *)b);
	return NULL;
}

/*
 * Where the programs derive: run their task iterator once, which gives
 * each CPU's state the tasks runnable now (what derive.h reads from /proc
 * in user space).
 */
static int find_tasks(struct bpf_source *b)
{
	struct bpf_link *link;
	char buf[64];
	ssize_t n;
	int fd;

	link = bpf_program__attach_iter(b->skel->progs.found_tasks, NULL);
	if (!link) {
		fs_err("cannot attach the BPF task iterator: %s",
		       strerror(errno));
		return -1;
	}
	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0) {
		fs_err("cannot run the BPF task iterator: %s", strerror(errno));
		bpf_link__destroy(link);
		return -1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		;
	if (n < 0)
		fs_err("cannot run the BPF task iterator: %s", strerror(errno));
	close(fd);
	bpf_link__destroy(link);
	return n < 0 ? -1 : 0;
}

/*
 * Start recording at @on = @all: every program sends from the same
 * moment. The -t instance @rec records the scheduler's own events and
 * hotplug beside; the server's records are not trace events: to_trace()
 * writes them into its marker.
 */
static int bpf_start(struct fs_source *s, struct tracefs_instance *rec,
		     uint64_t *on, uint64_t *all)
{
	static const char *const std[][2] = {
		{ "sched", "sched_switch" }, { "sched", "sched_wakeup" },
		{ "sched", "sched_wakeup_new" },
		{ "sched", "sched_migrate_task" }, { "cpuhp", "cpuhp_enter" },
	};
	struct bpf_source *b = (struct bpf_source *)s;
	unsigned int i;

	b->rec = rec;
	if (rec) {
		for (i = 0; i < sizeof(std) / sizeof(std[0]); i++)
			if (tracefs_event_enable(rec, std[i][0], std[i][1])) {
				fs_err("cannot enable %s:%s", std[i][0],
				       std[i][1]);
				return -1;
			}
		if (tracefs_trace_on(rec)) {
			fs_err("cannot start tracing in the -t instance");
			return -1;
		}
	}
	*on = fs_system_now();
	*all = *on;
	__atomic_store_n(&b->skel->bss->recording, 1, __ATOMIC_RELEASE);
	return b->derive ? find_tasks(b) : 0;
}

/*
 * Once recording is off, tell each CPU of the records it had no room for
 * and made none after: a loss is told with that CPU's next record, and
 * there will be none.
 */
static int untold_losses(struct bpf_source *b)
{
	struct fs_event mark = { .type = FS_EV_LOST, .ts = b->last_ts };
	int cpu;

	for (cpu = 0; cpu < b->p->nr_cpus && cpu < FS_BPF_MAX_CPUS; cpu++) {
		mark.lost = __atomic_exchange_n(&b->skel->bss->untold[cpu], 0,
						__ATOMIC_ACQ_REL);
		mark.cpu = cpu;
		if (mark.lost && b->sink(b->ctx, &mark))
			return -1;
	}
	return 0;
}

/*
 * Where the programs derive: say, as derive.h's user would, how many
 * tasks a CPU's table had no room for (read once, at the end).
 */
static void untracked(struct bpf_source *b)
{
	unsigned long long fair = 0, rt = 0;
	int cpu;

	for (cpu = 0; cpu < b->p->nr_cpus && cpu < FS_BPF_MAX_CPUS; cpu++) {
		fair += b->skel->bss->kd_copy[cpu].untracked;
		rt += b->skel->bss->kd_copy[cpu].rt_untracked;
	}
	if (fair)
		fs_err("%llu fair tasks queued beyond %d on one CPU were not followed: fair starvation may be under-counted (RTLA_FAIRSRV_BPF_RECORDS=1 follows %d)",
		       fair, FS_BPF_KD_QUEUED, FS_KD_QUEUED);
	if (rt)
		fs_debug("source bpf: %llu real-time tasks queued beyond %d on one CPU were not followed",
			 rt, FS_BPF_KD_RT);
}

/* Hand what the ring holds now to @sink. */
static int bpf_collect(struct fs_source *s, fs_sink_fn sink, void *ctx)
{
	struct bpf_source *b = (struct bpf_source *)s;
	int n;

	b->sink = sink;
	b->ctx = ctx;
	b->err = 0;
	n = ring_buffer__consume(b->rb);
	/* The -t instance can be removed only with its marker closed. */
	if (b->rec)
		tracefs_print_close(b->rec);
	if (b->err)
		return -1;
	if (n < 0 && n != -EINTR) {
		fs_err("cannot read the BPF ring buffer: %s", strerror(-n));
		return -1;
	}
	if (!b->stopped)
		return 0;
	if (b->derive)
		untracked(b);
	if (b->untraced)
		fs_debug("source bpf: %lu server records not in the -t trace (its recording was paused)",
			 b->untraced);
	return untold_losses(b);
}

/* Stop recording; what the ring holds is still collected. */
static int bpf_stop(struct fs_source *s)
{
	struct bpf_source *b = (struct bpf_source *)s;

	__atomic_store_n(&b->skel->bss->recording, 0, __ATOMIC_RELEASE);
	b->stopped = true;
	return 0;
}

/* Records the ring had no room for. */
static long long bpf_overrun(struct fs_source *s)
{
	struct bpf_source *b = (struct bpf_source *)s;
	long long n = 0;
	int cpu;

	for (cpu = 0; cpu < b->p->nr_cpus && cpu < FS_BPF_MAX_CPUS; cpu++)
		n += (long long)__atomic_load_n(&b->skel->bss->dropped[cpu],
						__ATOMIC_RELAXED);
	return n;
}

/* Program runs the kernel skipped (one program inside another). */
static long long bpf_missed(struct fs_source *s)
{
	struct bpf_source *b = (struct bpf_source *)s;
	long long missed = 0;
	unsigned int i;

	for (i = 0; i < NR_PROGS; i++) {
		struct bpf_program *prog;
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		if (!b->link[i])
			continue;
		prog = bpf_object__find_program_by_name(b->skel->obj,
							prog_defs[i].name);
		memset(&info, 0, sizeof(info));
		if (!prog || bpf_obj_get_info_by_fd(bpf_program__fd(prog),
						    &info, &len))
			return -1;
		missed += (long long)info.recursion_misses;
	}
	return missed;
}

const struct fs_source_ops fs_source_bpf = {
	.name = "bpf",
	.usable = bpf_usable,
	.fallback = true,
	.open = bpf_open,
	.start = bpf_start,
	.collect = bpf_collect,
	.stop = bpf_stop,
	.overrun = bpf_overrun,
	.missed = bpf_missed,
	.close = bpf_close,
};
