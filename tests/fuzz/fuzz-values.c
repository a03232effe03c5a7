// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the value parsers of lib/parse.c. The first byte picks
 * the parser, the rest is the string. Besides the sanitizers, every
 * accepted value is checked against the parser's contract, and every
 * rejection must leave a one-line reason.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

#define MAX_INPUT	256

/* A rejection must explain itself in one line. */
static void check_reason(int ret, const char *err)
{
	if (ret == 0)
		return;
	if (ret != -1 || !err[0] || strchr(err, '\n') ||
	    strnlen(err, FS_ERRLEN) == FS_ERRLEN)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char str[MAX_INPUT + 1], err[FS_ERRLEN];
	struct fs_setting set[FS_MAX_SETTINGS];
	struct fs_cpuset cpus;
	unsigned int nr_set, i;
	uint64_t u;
	long l;
	int ret, nr, cpu;

	if (size < 1 || size > MAX_INPUT)
		return 0;
	memcpy(str, data + 1, size - 1);
	str[size - 1] = '\0';
	err[0] = '\0';

	switch (data[0] % 6) {
	case 0:
		nr = 1 + data[0] / 5 * 20;	/* 1 .. 1021 CPUs */
		fs_cpuset_zero(&cpus);
		ret = fs_parse_cpus(str, nr, &cpus, err);
		if (ret == 0) {
			if (!fs_cpuset_count(&cpus))
				abort();
			for (cpu = fs_cpuset_next(&cpus, 0); cpu >= 0;
			     cpu = fs_cpuset_next(&cpus, cpu + 1))
				if (cpu >= nr)
					abort();
		}
		break;
	case 1:
		ret = fs_parse_duration(str, &u, err);
		if (ret == 0 && u == 0)
			abort();
		break;
	case 2:
		ret = fs_parse_time(str, &u, err);
		if (ret == 0 && u == 0)
			abort();
		break;
	case 3:
		ret = fs_parse_long(str, -50, 1000, &l, err);
		if (ret == 0 && (l < -50 || l > 1000))
			abort();
		break;
	case 4:
		ret = fs_parse_settings(str, set, &nr_set, err);
		if (ret == 0) {
			if (!nr_set || nr_set > FS_MAX_SETTINGS)
				abort();
			for (i = 0; i < nr_set; i++)
				if (set[i].runtime > set[i].period ||
				    set[i].period < FS_PERIOD_MIN_NS ||
				    set[i].period > FS_PERIOD_MAX_NS)
					abort();
		}
		break;
	default:
		ret = fs_parse_size_kb(str, &u, err);
		if (ret == 0 && u == 0)
			abort();
		break;
	}
	check_reason(ret, err);
	return 0;
}
