// SPDX-License-Identifier: GPL-2.0
/*
 * campaign-gen: draw one scenario of the campaign from a seed.
 *
 *   campaign-gen SEED
 *
 * Prints the scenario as lines that tests/campaign/scenario.sh carries out,
 * the same for the same seed on any machine (its own generator, no libc
 * rand()). CPU 0 is the house-keeping CPU; the scenario loads CPUs 1-3:
 *
 *   seed N                  the seed
 *   duration S              the probes' window, whole seconds
 *   buffer KB               the tool's per-CPU buffer (0: the default)
 *   whatif RT_NS PER_NS     hist --what-if this setting; then apply it and
 *                           run the load again (absent: no what-if)
 *   server CPU RT_NS PER_NS the fair server at the start (RT_NS 0: disabled)
 *   change CPU AT_MS RT_NS PER_NS     a new setting AT_MS into the window
 *   rt CPU fifo|rr PRIO hog|cycle R/P/J  a real-time probe (ms)
 *   dl CPU R/D/P hog|cycle R/P/J      a SCHED_DEADLINE probe (R/D/P in us)
 *   fair CPU NICE spin|wake R/P/J     a fair probe; wake: R ms of work
 *   group CPU weight W | max QUOTA_US PERIOD_US   the CPU's fair probes'
 *                                     cgroup
 *   hotplug CPU AT_MS DOWN_MS         offline, then back online (a CPU
 *                                     with no dl task and no group)
 *
 * Each line is drawn whatever the ones before drew, in a fixed order, so
 * a scenario is the same on every kernel and a failure replays from its
 * seed alone.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NSEC_PER_MSEC	1000000ULL
#define FIRST_CPU	1
#define LAST_CPU	3

/* splitmix64: a small generator whose sequence only its seed decides. */
static uint64_t state;

/* The next 64 random bits. */
static uint64_t next(void)
{
	uint64_t z = (state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A number in [lo, hi]. */
static uint64_t between(uint64_t lo, uint64_t hi)
{
	return lo + next() % (hi - lo + 1);
}

/* True with probability @pct percent. */
static int chance(unsigned int pct)
{
	return next() % 100 < pct;
}

/* A number in [lo, hi], spread evenly on a log scale. */
static uint64_t log_between(uint64_t lo, uint64_t hi)
{
	double u = (double)(next() >> 11) / (double)(1ULL << 53);
	uint64_t v = (uint64_t)((double)lo * pow((double)hi / (double)lo, u));

	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * A fair server setting: periods 10 ms - 1 s, runtimes 1-50% of the
 * period and at least 0.5 ms, or disabled now and then.
 */
static void setting(uint64_t *runtime, uint64_t *period, unsigned int off_pct)
{
	uint64_t pct;

	*period = log_between(10, 1000) * NSEC_PER_MSEC;
	pct = log_between(1, 50);
	*runtime = *period * pct / 100;
	if (*runtime < NSEC_PER_MSEC / 2)
		*runtime = NSEC_PER_MSEC / 2;
	if (chance(off_pct))
		*runtime = 0;
}

/* A duty cycle R/P/J in ms: busy 20-95% of a 10-200 ms period. */
static void cycle(char *buf, size_t len, unsigned int lo_pct)
{
	uint64_t period = log_between(10, 200);
	uint64_t run = period * between(lo_pct, 95) / 100;

	if (run < 1)
		run = 1;
	if (run >= period)
		run = period - 1;
	snprintf(buf, len, "%" PRIu64 "/%" PRIu64 "/%" PRIu64, run, period,
		 chance(50) ? between(0, period / 4) : 0);
}

/*
 * The load of one CPU: its server, real-time tasks, fair tasks. Returns
 * whether it has a SCHED_DEADLINE task or a cgroup (a cpuset partition
 * for the former: such a CPU is not taken offline).
 */
static int cpu_load(int cpu, unsigned int duration_s)
{
	uint64_t runtime, period;
	unsigned int i, nr_rt, nr_fair, prio;
	int pinned = 0;
	char cyc[64];

	setting(&runtime, &period, 8);
	printf("server %d %" PRIu64 " %" PRIu64 "\n", cpu, runtime, period);
	if (chance(20)) {
		setting(&runtime, &period, 8);
		printf("change %d %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", cpu,
		       between(1000, duration_s * 1000 - 1000), runtime,
		       period);
	}

	/* One to three real-time tasks, distinct priorities, highest first. */
	nr_rt = (unsigned int)between(1, 3);
	prio = (unsigned int)between(60, 90);
	for (i = 0; i < nr_rt; i++, prio -= (unsigned int)between(1, 15)) {
		const char *policy = chance(30) ? "rr" : "fifo";

		if (chance(45)) {
			printf("rt %d %s %u hog\n", cpu, policy, prio);
		} else {
			cycle(cyc, sizeof(cyc), 20);
			printf("rt %d %s %u cycle %s\n", cpu, policy, prio, cyc);
		}
	}
	if (chance(15)) {
		uint64_t dl_period = log_between(20, 200) * 1000;

		pinned = 1;
		uint64_t dl_runtime = dl_period * between(5, 30) / 100;

		printf("dl %d %" PRIu64 "/%" PRIu64 "/%" PRIu64, cpu,
		       dl_runtime, dl_period, dl_period);
		if (chance(50)) {
			printf(" hog\n");
		} else {
			cycle(cyc, sizeof(cyc), 20);
			printf(" cycle %s\n", cyc);
		}
	}

	/* One to three fair tasks: spinners and wakers with fixed work. */
	nr_fair = (unsigned int)between(1, 3);
	for (i = 0; i < nr_fair; i++) {
		int nice = chance(50) ? 0 : (int)between(0, 15) - 5;

		if (chance(50)) {
			printf("fair %d %d spin\n", cpu, nice);
		} else {
			uint64_t p = log_between(20, 1000);
			uint64_t r = between(1, p / 5 > 1 ? p / 5 : 1);

			printf("fair %d %d wake %" PRIu64 "/%" PRIu64 "/%" PRIu64
			       "\n", cpu, nice, r, p,
			       chance(50) ? between(0, p / 2) : 0);
		}
	}
	if (chance(15)) {
		pinned = 1;
		if (chance(50))
			printf("group %d weight %" PRIu64 "\n", cpu,
			       log_between(10, 1000));
		else
			printf("group %d max %" PRIu64 " 100000\n", cpu,
			       between(10, 90) * 1000);
	}
	return pinned;
}

/* Parse a whole decimal number; exits on error. */
static uint64_t parse_seed(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-') {
		fprintf(stderr, "campaign-gen: invalid seed '%s' (want a whole number)\n",
			s);
		exit(1);
	}
	return v;
}

int main(int argc, char **argv)
{
	uint64_t seed, runtime, period;
	unsigned int duration_s, free = 0;
	int cpu, whatif;

	if (argc != 2) {
		fprintf(stderr, "usage: campaign-gen SEED\n");
		return 1;
	}
	seed = parse_seed(argv[1]);
	state = seed;

	duration_s = (unsigned int)between(6, 12);
	printf("seed %" PRIu64 "\n", seed);
	printf("duration %u\n", duration_s);
	printf("buffer %u\n", chance(10) ? (unsigned int)between(4, 16) : 0);
	whatif = chance(25);
	setting(&runtime, &period, 0);
	if (whatif)
		printf("whatif %" PRIu64 " %" PRIu64 "\n", runtime, period);
	for (cpu = FIRST_CPU; cpu <= LAST_CPU; cpu++)
		if (!cpu_load(cpu, duration_s))
			free |= 1u << cpu;
	/* Hotplug a CPU of no partition: the first free one from a random one. */
	if (chance(10) && free) {
		cpu = (int)between(FIRST_CPU, LAST_CPU);
		while (!(free & (1u << cpu)))
			cpu = cpu == LAST_CPU ? FIRST_CPU : cpu + 1;
		printf("hotplug %d %" PRIu64 " %" PRIu64 "\n", cpu,
		       between(1000, duration_s * 1000 / 2),
		       between(300, 2000));
	}
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
