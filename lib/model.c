// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU model: checks the order of events, hands each to the server
 * or the starvation part, and applies what comes from outside the server's
 * events (CPU hotplug, lost events). See model.h.
 */
#include <string.h>

#include "model.h"

/* Set up one CPU's model with empty statistics. */
int fs_cpu_init(struct fs_cpu *c, int cpu, uint64_t bucket_ns,
		unsigned int entries)
{
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	if (fs_server_init(&c->srv, bucket_ns, entries))
		return -1;
	if (fs_starve_init(&c->st, cpu, bucket_ns, entries)) {
		fs_server_free(&c->srv);
		return -1;
	}
	return 0;
}

void fs_cpu_window(struct fs_cpu *c, uint64_t from)
{
	c->srv.from = from;
	c->st.from = from;
}

/* Release one CPU's model. */
void fs_cpu_free(struct fs_cpu *c)
{
	fs_server_free(&c->srv);
	fs_starve_free(&c->st);
}

/*
 * CPU hotplug at @ev. Going down, what the server was serving ends there
 * and nothing is counted until the CPU is back. An episode the kernel
 * could not end (its CPU died with it open) ends when the CPU went down.
 */
static void hotplug(struct fs_cpu *c, const struct fs_event *ev,
		    struct fs_outcome *out)
{
	bool offline = c->srv.state == FS_ST_OFFLINE;

	if (ev->down == offline)
		return;		/* one mark per step of the same change */
	if (ev->down) {
		c->offline_since = ev->ts;
		fs_server_reset(&c->srv, FS_ST_OFFLINE, ev->ts, out);
		return;
	}
	c->offline_ns += ev->ts - c->offline_since;
	fs_server_reset(&c->srv, FS_ST_INIT, ev->ts, out);
	if (c->st.open) {
		struct fs_event end = {
			.type = FS_EV_END, .cpu = c->cpu, .ts = c->offline_since,
			.why = FS_END_OFFLINE,
		};

		if (end.ts < c->st.ep.start)
			end.ts = c->st.ep.start;
		fs_starve_event(&c->st, &end, c->srv.state, out);
	}
}

/* Feed one event of this CPU, in timestamp order. */
void fs_cpu_event(struct fs_cpu *c, const struct fs_event *ev,
		  struct fs_outcome *out)
{
	memset(out, 0, sizeof(*out));
	if (ev->type == FS_EV_LOST) {
		/* Whenever it is placed: what was open is lost from here. */
		c->lost_marks++;
		fs_server_reset(&c->srv, FS_ST_UNKNOWN, ev->ts, out);
		fs_starve_drop(&c->st);
		return;
	}
	if (ev->type >= FS_EV_NR || ev->ts < c->last_ts) {
		/* Never a sample from time running backwards. */
		c->invalid++;
		out->invalid = true;
		return;
	}
	c->last_ts = ev->ts;

	switch (fs_events[ev->type].kind) {
	case FS_KIND_STARVE:
		if (ev->type == FS_EV_WAIT)
			fs_server_wait(&c->srv, ev);
		fs_starve_event(&c->st, ev, c->srv.state, out);
		break;
	case FS_KIND_HOTPLUG:
		hotplug(c, ev, out);
		break;
	default:
		fs_server_event(&c->srv, ev, out);
		if (out->invalid)
			c->invalid++;
		else if (ev->type == FS_EV_BOOST)
			fs_starve_boost(&c->st, ev->ts >= c->srv.from);
		break;
	}
	fs_starve_server(&c->st, ev->ts, c->srv.state);
}

/* The end of a run at @now: close or hand back what is open. */
void fs_cpu_finish(struct fs_cpu *c, uint64_t now, struct fs_outcome *out)
{
	memset(out, 0, sizeof(*out));
	fs_server_finish(&c->srv, out);
	fs_starve_finish(&c->st, now, out);
	if (c->srv.state == FS_ST_OFFLINE && now > c->offline_since) {
		c->offline_ns += now - c->offline_since;
		c->offline_since = now;
	}
}

/* The open episode's length at @now. */
uint64_t fs_cpu_open_ns(const struct fs_cpu *c, uint64_t now)
{
	if (!c->st.open || now < c->st.ep.start)
		return 0;
	return now - c->st.ep.start;
}

/* Whether what one event completed is over @limit. */
enum fs_over fs_over_outcome(const struct fs_outcome *out, uint64_t limit,
			     uint64_t *ns)
{
	if (out->episode && out->episode->ns > limit) {
		*ns = out->episode->ns;
		return FS_OVER_STARVATION;
	}
	if (out->preemption && out->preempt_ns > limit) {
		*ns = out->preempt_ns;
		return FS_OVER_PREEMPTION;
	}
	return FS_OVER_NONE;
}

/* Whether the episode still open at @safe is over @limit. */
enum fs_over fs_over_open(const struct fs_cpu *c, uint64_t safe,
			  uint64_t limit, uint64_t *ns)
{
	uint64_t open = fs_cpu_open_ns(c, safe);

	if (open <= limit)
		return FS_OVER_NONE;
	*ns = open;
	return FS_OVER_OPEN;
}

/* Add one CPU's statistics to the ALL model. */
int fs_cpu_merge(struct fs_cpu *dst, const struct fs_cpu *src)
{
	if (fs_server_merge(&dst->srv, &src->srv) ||
	    fs_starve_merge(&dst->st, &src->st))
		return -1;
	dst->invalid += src->invalid;
	dst->lost_marks += src->lost_marks;
	dst->offline_ns += src->offline_ns;
	return 0;
}
