// SPDX-License-Identifier: GPL-2.0
/*
 * core-cookie: run a command in a core-scheduling cookie of its own.
 *
 *   core-cookie COMMAND [ARG...]
 *
 * Creates a new cookie for this process (PR_SCHED_CORE_CREATE, thread
 * group scope), which the command keeps across exec, then runs it. Tasks
 * with different cookies never share an SMT core at the same time.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: core-cookie COMMAND [ARG...]\n");
		return 1;
	}
	if (prctl(PR_SCHED_CORE, PR_SCHED_CORE_CREATE, 0,
		  PR_SCHED_CORE_SCOPE_THREAD_GROUP, 0)) {
		fprintf(stderr, "core-cookie: PR_SCHED_CORE_CREATE: %s\n",
			strerror(errno));
		return 1;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "core-cookie: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
