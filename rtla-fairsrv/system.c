// SPDX-License-Identifier: GPL-2.0
/*
 * What the system says outside tracefs: how many CPUs it has, the fair
 * servers' parameters in debugfs (read only), the trace clock's time, and
 * the tasks runnable now (/proc).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "fairsrv.h"

#define FAIR_SERVER_DIR	"/sys/kernel/debug/sched/fair_server"

/* The CPUs the system can have (configured), or -1. */
int fs_system_cpus(void)
{
	long nr = sysconf(_SC_NPROCESSORS_CONF);

	return nr > 0 && nr <= 0x7fffffff ? (int)nr : -1;
}

/* Read one number from @path into @val; 0, or -1. */
static int read_u64(const char *path, uint64_t *val)
{
	unsigned long long v;
	FILE *f = fopen(path, "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%llu", &v);
	fclose(f);
	if (n != 1) {
		errno = EINVAL;
		return -1;
	}
	*val = v;
	return 0;
}

/*
 * The fair server's runtime and period of @cpu from debugfs, in ns.
 * Returns 0, or -1 when debugfs or the files are not there.
 */
int fs_system_server(int cpu, uint64_t *runtime, uint64_t *period)
{
	char path[128];

	snprintf(path, sizeof(path), FAIR_SERVER_DIR "/cpu%d/runtime", cpu);
	if (read_u64(path, runtime))
		return -1;
	snprintf(path, sizeof(path), FAIR_SERVER_DIR "/cpu%d/period", cpu);
	return read_u64(path, period);
}

/*
 * Now, in the trace clock the session sets ("mono": CLOCK_MONOTONIC), so
 * that open episodes can be measured between events.
 */
uint64_t fs_system_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Now in wall-clock time (CLOCK_REALTIME), ns since the epoch. */
uint64_t fs_system_realtime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The running kernel's release (uname -r) into @buf; "" if unknown. */
void fs_system_release(char *buf, size_t len)
{
	struct utsname u;

	if (uname(&u))
		buf[0] = '\0';
	else
		snprintf(buf, len, "%s", u.release);
}

/* kernel.sched_rt_runtime_us into @us; 0, or -1 if it cannot be read. */
int fs_system_rt_runtime(long long *us)
{
	FILE *f = fopen("/proc/sys/kernel/sched_rt_runtime_us", "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%lld", us);
	fclose(f);
	return n == 1 ? 0 : -1;
}

/*
 * The jiffies counter and the monotonic time it was read at, from
 * /proc/timer_list: 0, or -1 if it has neither.
 */
int fs_system_jiffies(uint64_t *now_ns, uint64_t *jiffies)
{
	FILE *f = fopen("/proc/timer_list", "r");
	bool have_now = false, have_j = false;
	unsigned long long v;
	char line[256];

	if (!f)
		return -1;
	while ((!have_now || !have_j) && fgets(line, sizeof(line), f)) {
		if (!have_now && sscanf(line, "now at %llu nsecs", &v) == 1) {
			*now_ns = v;
			have_now = true;
		} else if (!have_j && sscanf(line, "jiffies: %llu", &v) == 1) {
			*jiffies = v;
			have_j = true;
		}
	}
	fclose(f);
	return have_now && have_j ? 0 : -1;
}

/*
 * The kernel's tick from two readings of jiffies: the nearest of the HZ
 * values a kernel can be built with; 0 if the readings say nothing.
 */
uint64_t fs_system_tick_ns(uint64_t ns0, uint64_t j0, uint64_t ns1,
			   uint64_t j1)
{
	static const unsigned int hz[] = { 100, 250, 300, 1000 };
	double rate, best_err = 0;
	unsigned int best = 0;
	size_t i;

	if (ns1 <= ns0 + 100000000ULL || j1 <= j0)
		return 0;
	rate = (double)(j1 - j0) * 1e9 / (double)(ns1 - ns0);
	for (i = 0; i < sizeof(hz) / sizeof(hz[0]); i++) {
		double err = rate > hz[i] ? rate - hz[i] : hz[i] - rate;

		if (!best || err < best_err) {
			best = hz[i];
			best_err = err;
		}
	}
	return 1000000000ULL / best;
}

/*
 * Read /proc/@pid/task/@tid/stat into @t and @cpu; 1 if the task is
 * runnable (state R), 0 if not or gone.
 */
static int runnable_task(const char *pid, const char *tid, struct fs_task *t,
			 int *cpu)
{
	char path[600], buf[1024], *open, *close, *tok, *save = NULL;
	int field = 2, prio = 0, ok = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/task/%s/stat", pid, tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return 0;
	}
	fclose(f);
	/* "tid (comm) state ...": the comm may hold anything but ")". */
	open = strchr(buf, '(');
	close = strrchr(buf, ')');
	if (!open || !close || close < open)
		return 0;
	memset(t, 0, sizeof(*t));
	t->pid = atoi(tid);
	snprintf(t->comm, sizeof(t->comm), "%.*s",
		 (int)(close - open - 1 < FS_COMM_LEN - 1 ?
		       close - open - 1 : FS_COMM_LEN - 1), open + 1);
	for (tok = strtok_r(close + 1, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		field++;
		if (field == 3 && strcmp(tok, "R"))
			return 0;
		if (field == 18)
			prio = atoi(tok);
		if (field == 39) {
			*cpu = atoi(tok);
			ok = 1;
			break;
		}
	}
	/* Field 18 is the kernel prio less MAX_RT_PRIO (100). */
	t->prio = prio + 100;
	return ok;
}

/* Hand every task runnable now, with its CPU, to @fn; -1 if no /proc. */
int fs_system_runnable(int (*fn)(void *ctx, int cpu, const struct fs_task *t),
		       void *ctx)
{
	struct dirent *p, *t;
	DIR *procs, *tasks;
	char path[300];

	procs = opendir("/proc");
	if (!procs)
		return -1;
	while ((p = readdir(procs))) {
		if (p->d_name[0] < '1' || p->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", p->d_name);
		tasks = opendir(path);
		if (!tasks)
			continue;	/* gone */
		while ((t = readdir(tasks))) {
			struct fs_task task;
			int cpu;

			if (t->d_name[0] == '.' ||
			    !runnable_task(p->d_name, t->d_name, &task, &cpu))
				continue;
			if (fn(ctx, cpu, &task)) {
				closedir(tasks);
				closedir(procs);
				return -1;
			}
		}
		closedir(tasks);
	}
	closedir(procs);
	return 0;
}
