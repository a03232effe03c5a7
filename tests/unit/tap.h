/* SPDX-License-Identifier: GPL-2.0 */
/* A minimal TAP producer for the unit tests. */
#ifndef FAIRSRV_TAP_H
#define FAIRSRV_TAP_H

#include <stdio.h>

static int tap_n, tap_failed;

/* Report one check; print the failing expression's context on failure. */
#define ok(cond, ...) do {						\
	int _c = !!(cond);						\
	printf("%sok %d - ", _c ? "" : "not ", ++tap_n);		\
	printf(__VA_ARGS__);						\
	printf("\n");							\
	if (!_c) {							\
		tap_failed++;						\
		printf("#   failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	}								\
} while (0)

/* Print the plan and return the exit code. */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
