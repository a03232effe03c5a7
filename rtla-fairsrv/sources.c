// SPDX-License-Identifier: GPL-2.0
/*
 * The sources the tool can read the fair server from, cheapest first:
 * --source auto takes the first one the kernel can serve.
 */
#include <stdio.h>
#include <string.h>

#include "source.h"

const struct fs_source_ops *const fs_sources[] = {
	&fs_source_events,
#ifdef FS_HAVE_BPF
	&fs_source_bpf,
#endif
	&fs_source_kprobe,
	NULL,
};

/* Whether --source @name is one: "auto" or a source's name. */
bool fs_source_exists(const char *name)
{
	int i;

	if (!strcmp(name, "auto"))
		return true;
	for (i = 0; fs_sources[i]; i++)
		if (!strcmp(name, fs_sources[i]->name))
			return true;
	return false;
}

/* The words --source takes, for its help and its error: "auto|a|b". */
void fs_source_names(char *buf, size_t len, const char *sep)
{
	size_t n;
	int i;

	snprintf(buf, len, "auto");
	for (i = 0; fs_sources[i]; i++) {
		n = strlen(buf);
		snprintf(buf + n, len - n, "%s%s", sep, fs_sources[i]->name);
	}
}

/* --version: the tool's, and the sources it was built with. */
void fs_print_version(void)
{
	char names[128];

	fs_source_names(names, sizeof(names), ", ");
	printf("rtla fairsrv %s\nsources: %s%s\n", FS_VERSION, names,
#ifdef FS_HAVE_BPF
	       ""
#else
	       " (built without the BPF source: no clang or bpftool, or NO_BPF=1)"
#endif
	       );
}
