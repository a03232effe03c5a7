// SPDX-License-Identifier: GPL-2.0
/*
 * Messages: one line per error on stderr, whatever input it quotes, and
 * debug lines with -D.
 */
#include <stdarg.h>
#include <stdio.h>

#include "fairsrv.h"

bool fs_debug_on;
const char *fs_prog = "rtla fairsrv";

/* Print one error line. */
void fs_verr(const char *fmt, va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fs_printable(msg);
	fprintf(stderr, "%s: %s\n", fs_prog, msg);
}

/* Print one error line. */
void fs_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fs_verr(fmt, ap);
	va_end(ap);
}

/* Print one debug line with -D. */
void fs_debug(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!fs_debug_on)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fs_printable(msg);
	fprintf(stderr, "debug: %s\n", msg);
}
