// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the shared option parser of top and hist
 * (rtla-fairsrv/cli.c). The input is split at newlines into arguments;
 * its first byte picks top or hist. Whatever the arguments, the parser
 * must return 0, 1 (help printed) or -1, and free what it allocated.
 * It runs the real error path (msg.c), so run it with -close_fd_mask=3:
 * the usage and error lines are not needed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fairsrv.h"

#define MAX_ARGS	32
#define MAX_INPUT	1024

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char buf[MAX_INPUT + 1], *argv[MAX_ARGS + 2], *s;
	struct fs_params p;
	int argc = 1, ret;

	if (size < 1 || size > MAX_INPUT)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	argv[0] = "rtla-fairsrv";
	for (s = buf; argc <= MAX_ARGS; argc++) {
		argv[argc] = s;
		s = strchr(s, '\n');
		if (!s) {
			argc++;
			break;
		}
		*s++ = '\0';
	}
	argv[argc] = NULL;

	ret = fs_parse_args(argc, argv, data[0] & 1 ? FS_MODE_HIST :
			    FS_MODE_TOP, &p);
	if (ret != 0 && ret != 1 && ret != -1)
		abort();
	if (ret == 0) {
		if (!fs_cpuset_count(&p.cpus) || p.nr_cpus < 1)
			abort();
		fs_free_params(&p);
	}
	return 0;
}
