// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong: two threads on two CPUs pass a byte back and forth through
 * pipes, so that each CPU goes idle and wakes up again at every round
 * trip. With a fair thread on an otherwise idle CPU, each round trip
 * starts its CPU's fair server (first fair task queued) and stops it
 * (the next pick finds no fair task): the server's start and stop paths,
 * and the fair starvation hooks, at every round trip. With -r the other
 * thread is SCHED_FIFO.
 *
 *   pingpong -a CPU -b CPU [-n ROUNDS] [-r]
 *
 * Prints "round_trip_ns=N": the mean time of one round trip.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct side {
	int cpu;
	int policy;
	int in, out;		/* read from in, write to out */
	long rounds;
};

/* One error line, exit 1. */
static void die(const char *what, int err)
{
	fprintf(stderr, "pingpong: %s: %s\n", what, strerror(err));
	exit(1);
}

/* Pin the calling thread to @cpu and give it @policy. */
static void place(int cpu, int policy)
{
	struct sched_param sp = { .sched_priority = policy == SCHED_FIFO ? 50 : 0 };
	cpu_set_t set;
	int err;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (err)
		die("pthread_setaffinity_np", err);
	err = pthread_setschedparam(pthread_self(), policy, &sp);
	if (err)
		die("pthread_setschedparam", err);
}

/* The answering side: echo every byte back. */
static void *echo(void *arg)
{
	struct side *s = arg;
	char c;
	long i;

	place(s->cpu, s->policy);
	for (i = 0; i < s->rounds; i++) {
		if (read(s->in, &c, 1) != 1)
			die("read", errno);
		if (write(s->out, &c, 1) != 1)
			die("write", errno);
	}
	return NULL;
}

/* CLOCK_MONOTONIC in ns. */
static long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	struct side b = { .cpu = -1, .policy = SCHED_OTHER, .rounds = 20000 };
	int a_cpu = -1, to_b[2], to_a[2], c, err;
	long long t0, t1;
	pthread_t tb;
	char ch = 'x';
	long i;

	while ((c = getopt(argc, argv, "a:b:n:r")) != -1) {
		switch (c) {
		case 'a':
			a_cpu = atoi(optarg);
			break;
		case 'b':
			b.cpu = atoi(optarg);
			break;
		case 'n':
			b.rounds = atol(optarg);
			break;
		case 'r':
			b.policy = SCHED_FIFO;
			break;
		default:
			fprintf(stderr, "usage: pingpong -a CPU -b CPU [-n ROUNDS] [-r]\n");
			return 1;
		}
	}
	if (a_cpu < 0 || b.cpu < 0 || b.rounds <= 0) {
		fprintf(stderr, "pingpong: -a and -b name two CPUs, -n a count\n");
		return 1;
	}
	if (pipe(to_b) || pipe(to_a))
		die("pipe", errno);
	b.in = to_b[0];
	b.out = to_a[1];
	place(a_cpu, SCHED_OTHER);
	err = pthread_create(&tb, NULL, echo, &b);
	if (err)
		die("pthread_create", err);
	t0 = now();
	for (i = 0; i < b.rounds; i++) {
		if (write(to_b[1], &ch, 1) != 1)
			die("write", errno);
		if (read(to_a[0], &ch, 1) != 1)
			die("read", errno);
	}
	t1 = now();
	err = pthread_join(tb, NULL);
	if (err)
		die("pthread_join", err);
	printf("round_trip_ns=%lld\n", (t1 - t0) / b.rounds);
	return 0;
}
