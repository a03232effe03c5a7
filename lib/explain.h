/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Auto-analysis (-a): what made one episode cross the threshold, in
 * words: the CPU, who waited, who held the CPU and for how long, and the
 * fair server's states through it, with why it did or did not boost.
 * Pure code: it reads a copy of the model's episode and writes text.
 */
#ifndef FAIRSRV_EXPLAIN_H
#define FAIRSRV_EXPLAIN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"

/* What crossed the threshold, and what the server looked like then. */
struct fs_crossing {
	enum fs_over over;		/* FS_OVER_NONE: nothing crossed */
	int cpu;
	uint64_t ns;			/* its length, or so far if open */
	uint64_t limit;			/* the threshold */
	struct fs_episode ep;		/* starvation: the episode, copied */
	enum fs_state state;		/* the server's state at the crossing */
	uint64_t dl_runtime, dl_period;	/* its parameters; 0: not known */
};

/* Why the server did not boost during an episode, from its @state. */
const char *fs_explain_no_boost(enum fs_state state);

/* Write the analysis of @x to @f; 0, or -1 when a write failed. */
int fs_explain(const struct fs_crossing *x, FILE *f);

#endif
