// SPDX-License-Identifier: GPL-2.0
/*
 * rusage: run a command and write the CPU time and peak RSS it used, its
 * waited-for children included, as key=value lines. SIGINT and SIGTERM
 * are passed on to the command, so it can be stopped like the tool is.
 *
 *   rusage -o FILE -- COMMAND [ARG...]
 *
 * FILE gets user_ns, sys_ns, maxrss_kb and status; the exit status is the
 * command's (128 + signal when it was killed).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child;

/* Pass a stop request on to the command. */
static void forward(int sig)
{
	if (child > 0)
		kill(child, sig);
}

/* One error line, exit 1. */
static void die(const char *what)
{
	fprintf(stderr, "rusage: %s: %s\n", what, strerror(errno));
	exit(1);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	struct rusage ru;
	const char *out;
	int status, ret;
	FILE *f;

	if (argc < 5 || strcmp(argv[1], "-o") || strcmp(argv[3], "--")) {
		fprintf(stderr, "usage: rusage -o FILE -- COMMAND [ARG...]\n");
		return 1;
	}
	out = argv[2];

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
		die("sigaction");

	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		execvp(argv[4], argv + 4);
		fprintf(stderr, "rusage: %s: %s\n", argv[4], strerror(errno));
		_exit(127);
	}
	while (wait4(child, &status, 0, &ru) < 0)
		if (errno != EINTR)
			die("wait4");

	ret = WIFEXITED(status) ? WEXITSTATUS(status) :
	      128 + WTERMSIG(status);
	f = fopen(out, "w");
	if (!f)
		die(out);
	fprintf(f, "user_ns=%lld\nsys_ns=%lld\nmaxrss_kb=%ld\nstatus=%d\n",
		(long long)ru.ru_utime.tv_sec * 1000000000LL +
		ru.ru_utime.tv_usec * 1000LL,
		(long long)ru.ru_stime.tv_sec * 1000000000LL +
		ru.ru_stime.tv_usec * 1000LL,
		ru.ru_maxrss, ret);
	if (fclose(f))
		die(out);
	return ret;
}
