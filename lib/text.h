/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text for output: one-line messages and durations. Pure code.
 */
#ifndef FAIRSRV_TEXT_H
#define FAIRSRV_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Replace control characters in @s by '?', so that it prints on one line. */
void fs_printable(char *s);

/* "days hh:mm:ss", as rtla prints a run's duration, into @buf. */
void fs_fmt_duration(char *buf, size_t len, uint64_t ns);

#endif
