/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sources of the fair server's events. A source makes what the kernel
 * needs to show the server (the series' trace events, or kprobes), turns
 * it on, and hands each event to a sink as a struct fs_event (lib/event.h):
 * past that seam nothing knows where an event came from. The session
 * (session.c) picks a source from fs_sources[] (sources.c), cheapest
 * first, and owns what every source shares: its tracefs instances' names,
 * the -t recording and the cleanup of what a killed run left behind.
 *
 * A new source is one file with one struct fs_source_ops, and one entry
 * in fs_sources[].
 */
#ifndef FAIRSRV_SOURCE_H
#define FAIRSRV_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairsrv.h"

struct tracefs_instance;
struct fs_source;		/* a source's own state */

struct fs_source_ops {
	const char *name;	/* --source's word, and the output's */
	/* Whether --source auto may take it on this kernel. */
	bool (*usable)(void);
	/*
	 * Whether auto goes on to the next source when open() fails: open()
	 * then says why only with -D, unless --source named it.
	 */
	bool fallback;
	/* Make what it reads and fill @caps; NULL after one error line. */
	struct fs_source *(*open)(const struct fs_params *p,
				  struct fs_trace_caps *caps);
	/*
	 * Turn collection on: the first events at @on, every event at @all
	 * (CLOCK_MONOTONIC), where the run's window opens. Its events go to
	 * the -t instance @rec too, when there is one.
	 */
	int (*start)(struct fs_source *s, struct tracefs_instance *rec,
		     uint64_t *on, uint64_t *all);
	/* Hand what was collected so far to @sink, in each CPU's order. */
	int (*collect)(struct fs_source *s, fs_sink_fn sink, void *ctx);
	/* Stop collecting; a last collect() hands on what is left. */
	int (*stop)(struct fs_source *s);
	/* Events its buffers overwrote or dropped, from their counters. */
	long long (*overrun)(struct fs_source *s);
	/* Hits the kernel could not record, -1 if unknown; NULL: none. */
	long long (*missed)(struct fs_source *s);
	/* Remove what it made; safe on a partly opened source. */
	void (*close)(struct fs_source *s);
	/* Remove what runs that no longer exist left behind; NULL: none. */
	void (*cleanup_stale)(void);
};

/* sources.c: every source, cheapest first; NULL-terminated. */
extern const struct fs_source_ops *const fs_sources[];
extern const struct fs_source_ops fs_source_events;
extern const struct fs_source_ops fs_source_kprobe;
/* Built where clang and bpftool were (FS_HAVE_BPF). */
extern const struct fs_source_ops fs_source_bpf;

/* session.c: an instance of this process's, "" or "trace_" in its name. */
struct tracefs_instance *fs_session_instance(const char *kind, char *name,
					     size_t len);
/* Remove an instance: tracing and events off, directory gone. */
void fs_session_drop(struct tracefs_instance *inst);

#endif
