// SPDX-License-Identifier: GPL-2.0
/*
 * What the system says outside tracefs: how many CPUs it has, the fair
 * servers' parameters in debugfs (read only), and the trace clock's time.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

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
