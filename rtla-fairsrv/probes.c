// SPDX-License-Identifier: GPL-2.0
/*
 * The stock-kernel source: kprobes on the fair server's functions, made
 * in a group of this process's own, with the fields the models need read
 * where the kernel's BTF says they lie. derive.h says what each probe
 * means.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <tracefs.h>

#include "fairsrv.h"
#include "record.h"

#define GROUP_PREFIX	"rtla_fairsrv_"
#define BTF_FILE	"/sys/kernel/btf/vmlinux"

/* Where the fields lie, in bytes, and the flag word's bits. */
struct offsets {
	unsigned int runtime, deadline, dl_runtime, dl_period, rq, dl_timer;
	unsigned int word;			/* the bit fields' u32 */
	unsigned int bit[FS_PROBE_FLAGS];	/* FS_FLAG_* order */
	unsigned int server_bit;
	unsigned int rq_cpu, rq_fair_server;
	/* A second server per CPU (sched_ext's): where each names its pick. */
	bool ext_server;
	unsigned int pick;
	unsigned long long fair_pick;		/* fair_server_pick_task() */
};

/* What a probed function's first argument is. */
enum probe_arg {
	ARG_SE,		/* the server's sched_dl_entity */
	ARG_RQ,		/* the rq whose fair_server it is */
	ARG_TIMER,	/* the entity's dl_timer */
};

/*
 * How the kernel charges idle time to the server, which names the probes
 * it needs: 6.12 has dl_server_update_idle_time(rq), inline in
 * put_prev_task_idle() too; later kernels dl_server_update_idle(dl_se),
 * never inline, called for each server of the CPU.
 */
enum idle_kind {
	IDLE_RQ = 1,
	IDLE_SE = 2,
	IDLE_ANY = IDLE_RQ | IDLE_SE,
};

/*
 * One probe: which observation, where, return or entry, on which kernels.
 * An entry probe goes on the function's .part.N copy when the compiler
 * split it: callers may then enter that copy directly (pick_task_dl()
 * calls dl_server_stop.part.0 in 6.12), and the function itself ends in it.
 */
struct probe_def {
	enum fs_ev ev;
	const char *func;
	bool ret;
	enum probe_arg arg;
	enum idle_kind kernels;
};

static const struct probe_def probe_defs[] = {
	{ FS_EV_P_START,	"dl_server_start",	true,	ARG_SE,	IDLE_ANY },
	{ FS_EV_P_STOP,		"dl_server_stop",	false,	ARG_SE,	IDLE_ANY },
	{ FS_EV_P_TIMER,	"start_dl_timer",	true,	ARG_SE,	IDLE_ANY },
	{ FS_EV_P_REPLENISH,	"replenish_dl_entity",	true,	ARG_SE,	IDLE_ANY },
	{ FS_EV_P_FIRED,	"dl_task_timer",	true,	ARG_TIMER, IDLE_ANY },
	{ FS_EV_P_NONCONT,	"task_non_contending",	false,	ARG_SE,	IDLE_ANY },
	{ FS_EV_P_IDLE_IN,	"dl_server_update_idle_time", false, ARG_RQ, IDLE_RQ },
	{ FS_EV_P_IDLE_OUT,	"dl_server_update_idle_time", true, ARG_RQ, IDLE_RQ },
	{ FS_EV_P_PUT_IN,	"put_prev_task_idle",	false,	ARG_RQ,	IDLE_RQ },
	{ FS_EV_P_PUT_OUT,	"put_prev_task_idle",	true,	ARG_RQ,	IDLE_RQ },
	{ FS_EV_P_IDLE_IN,	"dl_server_update_idle", false,	ARG_SE,	IDLE_SE },
	{ FS_EV_P_IDLE_OUT,	"dl_server_update_idle", true,	ARG_SE,	IDLE_SE },
};

#define NR_PROBES	(sizeof(probe_defs) / sizeof(probe_defs[0]))

struct fs_probes {
	char group[48];
	enum idle_kind kernel;
	/* Event names carry the pid too: kprobe_profile names no group. */
	char name[NR_PROBES][48];
	struct offsets o;
	struct tracefs_dynevent *dyn[NR_PROBES];
	char filter[NR_PROBES][96];
};

/*
 * Find member @name of struct @type_id, also inside anonymous structs and
 * unions; its offset in bits into @bits and its bit-field size (0 if not
 * one) into @size. 0, or -1 if there is none.
 */
static int member(const struct btf *btf, int type_id, const char *name,
		  unsigned int *bits, unsigned int *size)
{
	const struct btf_type *t = btf__type_by_id(btf, type_id);
	const struct btf_member *m;
	int i;

	if (!t || (!btf_is_struct(t) && !btf_is_union(t)))
		return -1;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = btf__name_by_offset(btf, m->name_off);
		unsigned int inner;

		if (n && *n) {
			if (strcmp(n, name))
				continue;
			*bits = btf_member_bit_offset(t, i);
			*size = btf_member_bitfield_size(t, i);
			return 0;
		}
		/* Anonymous: look inside. */
		if (!member(btf, btf__resolve_type(btf, m->type), name,
			    &inner, size)) {
			*bits = btf_member_bit_offset(t, i) + inner;
			return 0;
		}
	}
	return -1;
}

/* The byte offset of a member that is not a bit field, into @off. */
static int byte_member(const struct btf *btf, int id, const char *type,
		       const char *name, unsigned int *off)
{
	unsigned int bits, size;

	if (member(btf, id, name, &bits, &size) || size || bits % 8) {
		fs_err("the kernel's BTF has no usable %s.%s: this kernel's fair server is not the one this tool knows",
		       type, name);
		return -1;
	}
	*off = bits / 8;
	return 0;
}

/* The bit offset of the one-bit field @name of sched_dl_entity. */
static int flag_member(const struct btf *btf, int id, const char *name,
		       unsigned int *bit)
{
	unsigned int size;

	if (member(btf, id, name, bit, &size) || size != 1) {
		fs_err("the kernel's BTF has no bit field sched_dl_entity.%s: this kernel's fair server is not the one this tool knows",
		       name);
		return -1;
	}
	return 0;
}

/* libbpf's own messages: with -D only, as debug lines. */
static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (!fs_debug_on || level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* Let libbpf speak with -D only. */
void fs_libbpf_quiet(void)
{
	libbpf_set_print(libbpf_print);
}

/* Read every offset the probes need from the kernel's BTF. */
static int read_offsets(struct offsets *o)
{
	static const char *const flags[FS_PROBE_FLAGS] = {
		"dl_server_active", "dl_throttled", "dl_defer_armed",
		"dl_defer_running",
	};
	unsigned int bits[FS_PROBE_FLAGS + 1], lo, i, ext_bits, ext_size;
	struct btf *btf;
	int dl, rq, ret = -1;

	fs_libbpf_quiet();
	if (access(BTF_FILE, R_OK)) {
		fs_err("cannot read the kernel's BTF, %s: %s: probing a kernel without the series needs CONFIG_DEBUG_INFO_BTF",
		       BTF_FILE, strerror(errno));
		return -1;
	}
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		fs_err("cannot parse the kernel's BTF, %s: %s", BTF_FILE,
		       strerror(errno));
		return -1;
	}
	dl = btf__find_by_name_kind(btf, "sched_dl_entity", BTF_KIND_STRUCT);
	rq = btf__find_by_name_kind(btf, "rq", BTF_KIND_STRUCT);
	if (dl < 0 || rq < 0) {
		fs_err("the kernel's BTF has no struct %s",
		       dl < 0 ? "sched_dl_entity" : "rq");
		goto out;
	}
	if (byte_member(btf, dl, "sched_dl_entity", "runtime", &o->runtime) ||
	    byte_member(btf, dl, "sched_dl_entity", "deadline", &o->deadline) ||
	    byte_member(btf, dl, "sched_dl_entity", "dl_runtime", &o->dl_runtime) ||
	    byte_member(btf, dl, "sched_dl_entity", "dl_period", &o->dl_period) ||
	    byte_member(btf, dl, "sched_dl_entity", "rq", &o->rq) ||
	    byte_member(btf, dl, "sched_dl_entity", "dl_timer", &o->dl_timer) ||
	    byte_member(btf, rq, "rq", "cpu", &o->rq_cpu) ||
	    byte_member(btf, rq, "rq", "fair_server", &o->rq_fair_server))
		goto out;
	for (i = 0; i < FS_PROBE_FLAGS; i++)
		if (flag_member(btf, dl, flags[i], &bits[i]))
			goto out;
	if (flag_member(btf, dl, "dl_server", &bits[FS_PROBE_FLAGS]))
		goto out;
	/* With sched_ext, a second server: each names its own pick. */
	if (!member(btf, rq, "ext_server", &ext_bits, &ext_size)) {
		o->ext_server = true;
		if (byte_member(btf, dl, "sched_dl_entity", "server_pick_task",
				&o->pick))
			goto out;
	}
	/* One aligned u32 must hold them all: the probes read one word. */
	lo = bits[0];
	for (i = 1; i <= FS_PROBE_FLAGS; i++)
		if (bits[i] < lo)
			lo = bits[i];
	o->word = lo / 32 * 4;
	for (i = 0; i <= FS_PROBE_FLAGS; i++) {
		if (bits[i] - o->word * 8 >= 32) {
			fs_err("sched_dl_entity's flags are not in one word: this tool cannot probe them");
			goto out;
		}
		if (i < FS_PROBE_FLAGS)
			o->bit[i] = bits[i] - o->word * 8;
	}
	o->server_bit = bits[FS_PROBE_FLAGS] - o->word * 8;
	ret = 0;
out:
	btf__free(btf);
	return ret;
}

/*
 * Whether the probe of @d must tell the fair server from sched_ext's: its
 * argument is an entity, which may be either.
 */
static bool needs_pick(const struct offsets *o, const struct probe_def *d)
{
	return o->ext_server && d->arg != ARG_RQ;
}

/*
 * The fetch arguments of the probe @d. $arg1 is the entity, or the rq
 * whose fair_server it is (idle time on 6.12), or its dl_timer (the
 * timer's).
 */
static void fetch_args(const struct offsets *o, const struct probe_def *d,
		       char *buf, size_t len)
{
	long b = d->arg == ARG_RQ ? (long)o->rq_fair_server :
		 d->arg == ARG_TIMER ? -(long)o->dl_timer : 0;
	char cpu[48], pick[48] = "";

	if (d->arg == ARG_RQ)
		snprintf(cpu, sizeof(cpu), "+%u($arg1):s32", o->rq_cpu);
	else
		snprintf(cpu, sizeof(cpu), "+%u(%+ld($arg1)):s32", o->rq_cpu,
			 b + o->rq);
	if (needs_pick(o, d))
		snprintf(pick, sizeof(pick), " pick=%+ld($arg1):u64",
			 b + o->pick);
	snprintf(buf, len,
		 "cpu=%s flags=%+ld($arg1):u32 runtime=%+ld($arg1):s64 deadline=%+ld($arg1):u64 dl_runtime=%+ld($arg1):u64 dl_period=%+ld($arg1):u64%s%s",
		 cpu, b + o->word, b + o->runtime, b + o->deadline,
		 b + o->dl_runtime, b + o->dl_period,
		 d->ev == FS_EV_P_TIMER ? " ret=$retval:s32" : "", pick);
}

/* The part of a probe's filter that the server's state decides. */
static void probe_filter_state(const struct offsets *o, enum fs_ev ev,
			       char *buf, size_t len)
{
	unsigned int active = 1u << o->bit[0], server = 1u << o->server_bit;

	switch (ev) {
	case FS_EV_P_STOP:
		snprintf(buf, len, "flags & %u", active);
		break;
	case FS_EV_P_TIMER:
	case FS_EV_P_REPLENISH:
	case FS_EV_P_FIRED:
		snprintf(buf, len, "flags & %u", server);
		break;
	case FS_EV_P_NONCONT:
		/* DL tasks go to sleep here too: only the servers pass. */
		snprintf(buf, len, "(flags & %u) && (flags & %u)", server,
			 active);
		break;
	case FS_EV_P_IDLE_IN:
	case FS_EV_P_PUT_IN:
		snprintf(buf, len, "(flags & %u) && runtime > 0", active);
		break;
	case FS_EV_P_IDLE_OUT:
	case FS_EV_P_PUT_OUT:
		snprintf(buf, len, "runtime <= 0");
		break;
	default:
		buf[0] = '\0';
		break;
	}
}

/*
 * The filter of a probe, in-kernel: only what can be an event, and of the
 * fair server only.
 */
static void probe_filter(const struct offsets *o, const struct probe_def *d,
			 char *buf, size_t len)
{
	char state[64];

	probe_filter_state(o, d->ev, state, sizeof(state));
	if (!needs_pick(o, d))
		snprintf(buf, len, "%s", state);
	else if (state[0])
		snprintf(buf, len, "(%s) && pick == %llu", state, o->fair_pick);
	else
		snprintf(buf, len, "pick == %llu", o->fair_pick);
}

/* The name of observation @ev's probe in our group. */
static const char *probe_name(enum fs_ev ev)
{
	/* fs_ev_name() is "probe_<name>". */
	return fs_ev_name(ev) + strlen("probe_");
}

/* A function to find in /proc/kallsyms. */
struct ksym {
	const char *func;
	char sym[256];		/* where to probe its entry */
	unsigned long long addr;
	bool found, part;
};

/*
 * Whether the kallsyms name @name, at @addr, is @k's function or a
 * split-off part.
 */
static void match(struct ksym *k, const char *name, unsigned long long addr)
{
	size_t n = strlen(k->func);

	if (strncmp(name, k->func, n))
		return;
	if (!name[n]) {
		if (!k->part)
			snprintf(k->sym, sizeof(k->sym), "%s", name);
		k->addr = addr;
		k->found = true;
	} else if (!strncmp(name + n, ".part.", 6)) {
		snprintf(k->sym, sizeof(k->sym), "%s", name);
		k->part = true;
	}
}

/*
 * Look the @nr functions of @k up in /proc/kallsyms, in one pass (the file
 * is slow to read): whether each is there, where to probe its entry (its
 * split-off part if it has one) and its address. 0, or -1 after one error
 * line.
 */
static int lookup(struct ksym *k, unsigned int nr)
{
	char line[512];
	unsigned int i;
	FILE *f;

	f = fopen("/proc/kallsyms", "re");
	if (!f) {
		fs_err("cannot read /proc/kallsyms: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char name[256];

		if (sscanf(line, "%llx %*s %255s", &addr, name) != 2)
			continue;
		for (i = 0; i < nr; i++)
			match(&k[i], name, addr);
	}
	fclose(f);
	return 0;
}

/*
 * Where to catch the entry of @func: its split-off part if the compiler
 * made one, else itself, into @sym. 0, or -1 after one error line.
 */
int fs_ksym_entry(const char *func, char *sym, size_t len)
{
	struct ksym k = { .func = func };

	if (lookup(&k, 1))
		return -1;
	if (!k.found) {
		fs_err("/proc/kallsyms has no %s: this kernel's fair server is not one this tool can read",
		       func);
		return -1;
	}
	snprintf(sym, len, "%s", k.sym);
	return 0;
}

/* Which way the kernel charges idle time, from what @k found; 0 or -1. */
static int pick_kernel(struct fs_probes *pr, const struct ksym *k)
{
	unsigned int i;

	for (i = 0; i < NR_PROBES; i++) {
		if (probe_defs[i].ev != FS_EV_P_IDLE_IN || !k[i].found)
			continue;
		pr->kernel = probe_defs[i].kernels;
		fs_debug("probes: idle time charged by %s()", k[i].func);
		return 0;
	}
	fs_err("/proc/kallsyms has neither dl_server_update_idle_time nor dl_server_update_idle: this kernel has no fair server this tool can probe");
	return -1;
}

/* Whether every function the kernel's probes need is there; 0 or -1. */
static int check_found(const struct fs_probes *pr, const struct ksym *k)
{
	unsigned int i;

	for (i = 0; i < NR_PROBES; i++) {
		if (!(probe_defs[i].kernels & pr->kernel) || k[i].found)
			continue;
		fs_err("/proc/kallsyms has no %s: this kernel's fair server is not one this tool can probe",
		       k[i].func);
		return -1;
	}
	if (pr->o.ext_server && !k[NR_PROBES].addr) {
		fs_err("/proc/kallsyms shows no address of %s: this tool cannot tell the fair server from sched_ext's (run as root, kernel.kptr_restrict below 2)",
		       k[NR_PROBES].func);
		return -1;
	}
	return 0;
}

/* Remove the probes made so far. */
void fs_probes_destroy(struct fs_probes *pr)
{
	unsigned int i;

	if (!pr)
		return;
	for (i = 0; i < NR_PROBES; i++) {
		if (!pr->dyn[i])
			continue;
		if (tracefs_dynevent_destroy(pr->dyn[i], true))
			fs_err("cannot remove the probe %s/%s: %s", pr->group,
			       pr->name[i], strerror(errno));
		tracefs_dynevent_free(pr->dyn[i]);
	}
	free(pr);
}

/* Make the probes, in group rtla_fairsrv_<pid>; NULL after one error line. */
struct fs_probes *fs_probes_create(struct fs_layout *l)
{
	struct fs_probes *pr = calloc(1, sizeof(*pr));
	/* The probes' functions, then the fair server's pick. */
	struct ksym k[NR_PROBES + 1];
	struct ksym *pick = &k[NR_PROBES];
	char args[384];
	unsigned int i;

	if (!pr) {
		fs_err("out of memory");
		return NULL;
	}
	memset(k, 0, sizeof(k));
	for (i = 0; i < NR_PROBES; i++)
		k[i].func = probe_defs[i].func;
	pick->func = "fair_server_pick_task";
	if (read_offsets(&pr->o) || lookup(k, NR_PROBES + 1))
		goto fail;
	if (pick_kernel(pr, k) || check_found(pr, k))
		goto fail;
	pr->o.fair_pick = pick->addr;
	snprintf(pr->group, sizeof(pr->group), GROUP_PREFIX "%d", (int)getpid());
	for (i = 0; i < NR_PROBES; i++) {
		const struct probe_def *d = &probe_defs[i];
		/* A return probe: the function's own return, not its part's. */
		const char *sym = d->ret ? d->func : k[i].sym;

		if (!(d->kernels & pr->kernel))
			continue;
		fetch_args(&pr->o, d, args, sizeof(args));
		snprintf(pr->name[i], sizeof(pr->name[i]), "%s_%d",
			 probe_name(d->ev), (int)getpid());
		pr->dyn[i] = d->ret ?
			tracefs_kretprobe_alloc(pr->group, pr->name[i], sym,
						args, 0) :
			tracefs_kprobe_alloc(pr->group, pr->name[i], sym, args);
		if (!pr->dyn[i]) {
			fs_err("out of memory");
			goto fail;
		}
		if (tracefs_dynevent_create(pr->dyn[i])) {
			fs_err("cannot probe %s%s (%s): is it in /proc/kallsyms, and are kprobe events enabled (CONFIG_KPROBE_EVENTS)?",
			       sym, d->ret ? " on return" : "",
			       strerror(errno));
			tracefs_dynevent_free(pr->dyn[i]);
			pr->dyn[i] = NULL;
			goto fail;
		}
		probe_filter(&pr->o, d, pr->filter[i], sizeof(pr->filter[i]));
	}
	for (i = 0; i < FS_PROBE_FLAGS; i++)
		l->probe_bit[i] = pr->o.bit[i];
	fs_debug("probes: group %s, sched_dl_entity flags in the u32 at +%u",
		 pr->group, pr->o.word);
	for (i = 0; i < NR_PROBES; i++) {
		char *addr = NULL;

		if (pr->dyn[i] && tracefs_dynevent_info(pr->dyn[i], NULL, NULL, NULL, &addr,
					  NULL) != TRACEFS_DYNEVENT_UNKNOWN)
			fs_debug("probe %s on %s%s", pr->name[i],
				 addr ? addr : "?",
				 probe_defs[i].ret ? " (return)" : "");
		free(addr);
	}
	return pr;
fail:
	fs_probes_destroy(pr);
	return NULL;
}

/* The group (returned), @name and @filter of observation @ev's probe. */
const char *fs_probes_event(const struct fs_probes *pr, enum fs_ev ev,
			    const char **name, const char **filter)
{
	unsigned int i;

	for (i = 0; i < NR_PROBES; i++) {
		if (probe_defs[i].ev != ev || !pr->dyn[i])
			continue;
		*name = pr->name[i];
		*filter = pr->filter[i][0] ? pr->filter[i] : NULL;
		return pr->group;
	}
	return NULL;
}

/*
 * Hits the kernel could not record (a kretprobe out of instances, a probe
 * hit inside another), from kprobe_profile; -1 if it cannot be read.
 */
long long fs_probes_missed(const struct fs_probes *pr)
{
	long long missed = 0;
	char *buf, *line, *save = NULL;
	unsigned int i;

	buf = tracefs_instance_file_read(NULL, "kprobe_profile", NULL);
	if (!buf)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[64];
		unsigned long long hits, miss;

		if (sscanf(line, "%63s %llu %llu", name, &hits, &miss) != 3)
			continue;
		for (i = 0; i < NR_PROBES; i++)
			if (!strcmp(name, pr->name[i]))
				missed += (long long)miss;
	}
	free(buf);
	return missed;
}

/* Remove the probes of rtla fairsrv processes that no longer exist. */
void fs_probes_cleanup_stale(void)
{
	struct tracefs_dynevent **all;
	int i;

	all = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_KPROBE |
				       TRACEFS_DYNEVENT_KRETPROBE, NULL);
	if (!all)
		return;
	for (i = 0; all[i]; i++) {
		char *system = NULL, *event = NULL;
		long pid;

		if (tracefs_dynevent_info(all[i], &system, &event, NULL, NULL,
					  NULL) == TRACEFS_DYNEVENT_UNKNOWN ||
		    !system || strncmp(system, GROUP_PREFIX,
				       strlen(GROUP_PREFIX)))
			goto next;
		pid = strtol(system + strlen(GROUP_PREFIX), NULL, 10);
		if (pid <= 0 || !(kill((pid_t)pid, 0) == -1 && errno == ESRCH))
			goto next;
		if (tracefs_dynevent_destroy(all[i], true))
			fs_err("cannot remove the stale probe %s/%s: %s",
			       system, event, strerror(errno));
		else
			fs_debug("removed stale probe %s/%s", system, event);
next:
		free(system);
		free(event);
	}
	tracefs_dynevent_list_free(all);
}
