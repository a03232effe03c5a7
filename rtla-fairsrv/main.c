// SPDX-License-Identifier: GPL-2.0
/*
 * rtla fairsrv: the entry point. As "rtla" it answers "rtla fairsrv ..."
 * and hands the other rtla tools to the system's rtla; as "rtla-fairsrv"
 * it is the fairsrv tool alone.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fairsrv.h"

#define SYSTEM_RTLA	"/usr/bin/rtla"

/* Usage of the fairsrv tool. */
static void usage(FILE *f)
{
	fprintf(f,
		"rtla fairsrv: observe the fair server (dl_server)\n\n"
		"  usage: rtla fairsrv [MODE] ...\n\n"
		"  modes:\n"
		"     top  - live per-CPU fair starvation, the server's boosts, throttles and\n"
		"            served time, and RT preemption\n"
		"     hist - histograms of fair starvation, the server's wait and RT preemption\n\n"
		"  if no MODE is given, the top mode is called, passing the arguments\n");
}

/* Dispatch "fairsrv [top|hist] ...": argv[0] is "fairsrv". */
static int fairsrv_main(int argc, char **argv)
{
	if (argc < 2)
		return fs_main(argc, argv, FS_MODE_TOP);
	if (!strcmp(argv[1], "top"))
		return fs_main(argc - 1, argv + 1, FS_MODE_TOP);
	if (!strcmp(argv[1], "hist"))
		return fs_main(argc - 1, argv + 1, FS_MODE_HIST);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return FS_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		fs_print_version();
		return FS_EXIT_OK;
	}
	if (argv[1][0] == '-')
		return fs_main(argc, argv, FS_MODE_TOP);
	fprintf(stderr, "rtla fairsrv: unknown mode '%s' (top or hist)\n",
		argv[1]);
	return FS_EXIT_ERROR;
}

/* Whether @path is this very program, not another rtla. */
static bool is_self(const char *path)
{
	struct stat a, b;

	if (stat(path, &a) || stat("/proc/self/exe", &b))
		return false;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Hand a tool this build lacks to the system's rtla. */
static int hand_over(char **argv)
{
	if (access(SYSTEM_RTLA, X_OK) == 0 && !is_self(SYSTEM_RTLA)) {
		execv(SYSTEM_RTLA, argv);
		fprintf(stderr, "rtla: cannot run %s: %s\n", SYSTEM_RTLA,
			strerror(errno));
		return FS_EXIT_ERROR;
	}
	fprintf(stderr, "rtla: this build only has fairsrv; '%s' needs the system's rtla (%s), which is not installed\n",
		argv[1], SYSTEM_RTLA);
	return FS_EXIT_ERROR;
}

int main(int argc, char **argv)
{
	char *name = basename(argv[0]);

	if (!strcmp(name, "rtla-fairsrv")) {
		argv[0] = "fairsrv";
		return fairsrv_main(argc, argv);
	}
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout,
			"rtla: real-time Linux analysis\n\n"
			"  usage: rtla COMMAND ...\n\n"
			"  commands:\n"
			"     fairsrv  - observe the fair server (this build)\n"
			"     osnoise, hwnoise, timerlat - handed to %s when installed\n",
			SYSTEM_RTLA);
		return argc < 2 ? FS_EXIT_ERROR : FS_EXIT_OK;
	}
	if (!strcmp(argv[1], "fairsrv"))
		return fairsrv_main(argc - 1, argv + 1);
	return hand_over(argv);
}
