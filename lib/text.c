// SPDX-License-Identifier: GPL-2.0
/*
 * Text for output; see text.h.
 */
#include <stdio.h>

#include "text.h"

/* Replace control characters by '?': a message quoting input stays one line. */
void fs_printable(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

/* Format @ns as "days hh:mm:ss". */
void fs_fmt_duration(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = ns / 1000000000ULL;

	snprintf(buf, len, "%llu %02llu:%02llu:%02llu",
		 (unsigned long long)(s / 86400),
		 (unsigned long long)(s / 3600 % 24),
		 (unsigned long long)(s / 60 % 60),
		 (unsigned long long)(s % 60));
}
