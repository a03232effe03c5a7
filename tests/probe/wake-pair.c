// SPDX-License-Identifier: GPL-2.0
/*
 * wake-pair: the deferred server's motivating case (seed patch 5). A
 * SCHED_FIFO thread and a SCHED_OTHER thread, pinned to one idle CPU,
 * wake at the same absolute time. The FIFO thread then spins for a busy
 * period. A fair server that did not defer would run the fair thread
 * first, or in the middle of that period; a deferred one lets the FIFO
 * thread finish (unless the period is longer than the server's deferral,
 * about period - runtime: then the fair thread must get in).
 *
 *   wake-pair -c CPU [-n ROUNDS] [-b BUSY_MS]
 *
 * Prints key=value lines: rounds, fair_inside (rounds in which the fair
 * thread ran before the FIFO thread's busy period ended), rt_first (rounds
 * in which the FIFO thread ran first), and the largest delays.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_MSEC	1000000LL
#define NSEC_PER_SEC	1000000000LL

struct pair {
	int cpu;
	int64_t busy_ns;
	pthread_barrier_t start, done;
	int64_t at;		/* this round's wake time */
	int64_t rt_run;		/* when each thread first ran after it */
	int64_t rt_end;
	int64_t fair_run;
	int quit;
};

/* One error line, exit 1. */
static void die(const char *what, int err)
{
	fprintf(stderr, "wake-pair: %s: %s\n", what, strerror(err));
	exit(1);
}

/* CLOCK_MONOTONIC in ns. */
static int64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* Sleep until CLOCK_MONOTONIC reaches @at. */
static void sleep_until(int64_t at)
{
	struct timespec ts = { at / NSEC_PER_SEC, at % NSEC_PER_SEC };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/*
 * Both threads: wait for the round, sleep until its wake time, note when
 * they ran; the FIFO one then spins for the busy period.
 */
static void *wake_thread(struct pair *p, bool rt)
{
	for (;;) {
		pthread_barrier_wait(&p->start);
		if (p->quit)
			return NULL;
		sleep_until(p->at);
		if (rt) {
			p->rt_run = now();
			while (now() < p->rt_run + p->busy_ns)
				;
			p->rt_end = now();
		} else {
			p->fair_run = now();
		}
		pthread_barrier_wait(&p->done);
	}
}

/* Thread entry points of the two roles. */
static void *rt_thread(void *arg)
{
	return wake_thread(arg, true);
}

static void *fair_thread(void *arg)
{
	return wake_thread(arg, false);
}

/* Start one thread on @cpu with @policy. */
static pthread_t spawn(struct pair *p, int policy, void *(*fn)(void *))
{
	struct sched_param sp = { .sched_priority = policy == SCHED_FIFO ? 50 : 0 };
	pthread_attr_t attr;
	cpu_set_t set;
	pthread_t t;
	int err;

	CPU_ZERO(&set);
	CPU_SET(p->cpu, &set);
	if ((err = pthread_attr_init(&attr)) ||
	    (err = pthread_attr_setaffinity_np(&attr, sizeof(set), &set)) ||
	    (err = pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED)) ||
	    (err = pthread_attr_setschedpolicy(&attr, policy)) ||
	    (err = pthread_attr_setschedparam(&attr, &sp)))
		die("pthread attributes", err);
	err = pthread_create(&t, &attr, fn, p);
	if (err)
		die("pthread_create", err);
	pthread_attr_destroy(&attr);
	return t;
}

/* A whole number option value in [min, max]; exit 1 otherwise. */
static long number(const char *s, long min, long max, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "wake-pair: invalid %s '%s' (%ld..%ld)\n",
			what, s, min, max);
		exit(1);
	}
	return v;
}

int main(int argc, char **argv)
{
	int64_t rt_lat_max = 0, fair_wait_max = 0;
	long rounds = 20, i, inside = 0, rt_first = 0;
	struct pair p = { .cpu = -1, .busy_ns = 20 * NSEC_PER_MSEC };
	pthread_t rt, fair;
	int c, err;

	while ((c = getopt(argc, argv, "c:n:b:h")) != -1) {
		switch (c) {
		case 'c':
			p.cpu = (int)number(optarg, 0, CPU_SETSIZE - 1, "CPU");
			break;
		case 'n':
			rounds = number(optarg, 1, 100000, "round count");
			break;
		case 'b':
			p.busy_ns = number(optarg, 1, 60000, "busy time (ms)") *
				    NSEC_PER_MSEC;
			break;
		default:
			fprintf(stderr, "usage: wake-pair -c CPU [-n ROUNDS] [-b BUSY_MS]\n");
			return c == 'h' ? 0 : 1;
		}
	}
	if (p.cpu < 0 || optind != argc) {
		fprintf(stderr, "usage: wake-pair -c CPU [-n ROUNDS] [-b BUSY_MS]\n");
		return 1;
	}
	if ((err = pthread_barrier_init(&p.start, NULL, 3)) ||
	    (err = pthread_barrier_init(&p.done, NULL, 3)))
		die("pthread_barrier_init", err);
	rt = spawn(&p, SCHED_FIFO, rt_thread);
	fair = spawn(&p, SCHED_OTHER, fair_thread);

	for (i = 0; i < rounds; i++) {
		/* Both asleep well before the wake time, on an idle CPU. */
		p.at = now() + 50 * NSEC_PER_MSEC;
		pthread_barrier_wait(&p.start);
		pthread_barrier_wait(&p.done);
		if (p.fair_run < p.rt_end)
			inside++;
		if (p.rt_run <= p.fair_run)
			rt_first++;
		if (p.rt_run - p.at > rt_lat_max)
			rt_lat_max = p.rt_run - p.at;
		if (p.fair_run - p.at > fair_wait_max)
			fair_wait_max = p.fair_run - p.at;
	}
	p.quit = 1;
	pthread_barrier_wait(&p.start);
	pthread_join(rt, NULL);
	pthread_join(fair, NULL);

	printf("rounds=%ld\nbusy_ns=%lld\nfair_inside=%ld\nrt_first=%ld\n"
	       "rt_wake_latency_max_ns=%lld\nfair_wait_max_ns=%lld\n",
	       rounds, (long long)p.busy_ns, inside, rt_first,
	       (long long)rt_lat_max, (long long)fair_wait_max);
	return 0;
}
