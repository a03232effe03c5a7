// SPDX-License-Identifier: GPL-2.0
/*
 * Fair starvation episodes, from the kernel's sched_fair_starve_* events.
 * The kernel says when an episode begins (the first wait), who else began
 * to wait, which task of a higher class took the CPU, who left, and when
 * it ended and how. This file keeps the open episode per CPU, the waits
 * of the tasks named in it and the time each holder held the CPU, and
 * turns what ended into statistics. See model.h for the definition.
 */
#include <string.h>

#include "model.h"

/* Set up a CPU's starvation model, with histograms in ns. */
int fs_starve_init(struct fs_starve *s, int cpu, uint64_t bucket_ns,
		   unsigned int entries)
{
	memset(s, 0, sizeof(*s));
	s->ep.cpu = cpu;
	return fs_hist_init(&s->hist, bucket_ns, entries);
}

/* Release a CPU's starvation model. */
void fs_starve_free(struct fs_starve *s)
{
	fs_hist_free(&s->hist);
}

/* Whether two events name the same task. */
static bool same_task(const struct fs_task *a, const struct fs_task *b)
{
	return a->pid == b->pid && !strcmp(a->comm, b->comm);
}

/* The part of the stretch from @since to @ts that lies before @from. */
static uint64_t before(uint64_t since, uint64_t ts, uint64_t from)
{
	if (since >= from)
		return 0;
	return (ts < from ? ts : from) - since;
}

/* Add @ns to @task's entry in a table of holders, or to @other_ns. */
static void hold_add(struct fs_hold *tab, unsigned int *nr, unsigned int max,
		     uint64_t *other_ns, const struct fs_task *task,
		     uint64_t ns)
{
	unsigned int i;

	for (i = 0; i < *nr; i++) {
		if (same_task(&tab[i].task, task)) {
			tab[i].ns += ns;
			return;
		}
	}
	if (*nr < max) {
		tab[*nr].task = *task;
		tab[(*nr)++].ns = ns;
		return;
	}
	*other_ns += ns;
}

/* The index of @task in the episode's holders, adding it; -1: no room. */
static int hold_index(struct fs_episode *ep, const struct fs_task *task)
{
	unsigned int i;

	for (i = 0; i < ep->nr_holds; i++)
		if (same_task(&ep->holds[i].task, task))
			return (int)i;
	if (ep->nr_holds == FS_EP_HOLDS)
		return -1;
	ep->holds[ep->nr_holds].task = *task;
	ep->holds[ep->nr_holds].ns = 0;
	ep->holds[ep->nr_holds].early_ns = 0;
	return (int)ep->nr_holds++;
}

/* End the current holder's stretch at @ts, and its part before the window. */
static void hold_close(struct fs_episode *ep, uint64_t ts)
{
	uint64_t ns = ts - ep->hold_since;
	uint64_t early = before(ep->hold_since, ts, ep->from);

	if (ep->cur_hold >= 0) {
		ep->holds[ep->cur_hold].ns += ns;
		ep->holds[ep->cur_hold].early_ns += early;
	} else {
		ep->other_hold_ns += ns;
		ep->other_early_ns += early;
	}
	ep->hold_since = ts;
}

/* @task holds the CPU from @ts on. */
static void hold_switch(struct fs_episode *ep, const struct fs_task *task,
			uint64_t ts)
{
	hold_close(ep, ts);
	ep->cur_hold = hold_index(ep, task);
}

/* Open an episode at @ev, the first wait seen. */
static void open_episode(struct fs_starve *s, const struct fs_event *ev,
			 enum fs_state server)
{
	struct fs_episode *ep = &s->ep;
	int cpu = ep->cpu;

	memset(ep, 0, sizeof(*ep));
	ep->cpu = cpu;
	ep->start = ev->ts;
	ep->from = s->from;
	ep->start_known = ev->first && ev->why != FS_WAIT_UNSEEN;
	ep->end = FS_END_OPEN;
	ep->server_at_start = server;
	ep->server[0].ts = ev->ts;
	ep->server[0].state = server;
	ep->nr_server = 1;
	ep->hold_since = ev->ts;
	ep->cur_hold = hold_index(ep, &ev->holder);
	s->open = true;
}

/* Add the wait @ev begins to the open episode. */
static void add_wait(struct fs_episode *ep, const struct fs_event *ev)
{
	unsigned int i;

	if (!ev->task.pid) {
		ep->unnamed_waits++;
		return;
	}
	for (i = 0; i < ep->nr_waits; i++)
		if (ep->waits[i].end == FS_END_OPEN &&
		    same_task(&ep->waits[i].task, &ev->task))
			return;		/* still waiting: the same wait */
	if (ep->nr_waits == FS_EP_WAITS) {
		ep->more_waits++;
		return;
	}
	ep->waits[ep->nr_waits].task = ev->task;
	ep->waits[ep->nr_waits].why = ev->why;
	ep->waits[ep->nr_waits].since = ev->ts;
	ep->waits[ep->nr_waits].ns = 0;
	ep->waits[ep->nr_waits].end = FS_END_OPEN;
	ep->nr_waits++;
}

/* Sort the episode's holders, the longest first (a handful: insertion). */
static void sort_holds(struct fs_episode *ep)
{
	unsigned int i, j;

	for (i = 1; i < ep->nr_holds; i++) {
		struct fs_hold h = ep->holds[i];

		for (j = i; j > 0 && ep->holds[j - 1].ns < h.ns; j--)
			ep->holds[j] = ep->holds[j - 1];
		ep->holds[j] = h;
	}
	ep->cur_hold = -1;
}

/*
 * Close the open episode at @ts, for @why; @ran ran at its end. Its waits
 * still open end with it, and are handed to @out with the episode.
 */
static void close_episode(struct fs_starve *s, uint64_t ts, unsigned int why,
			  const struct fs_task *ran, struct fs_outcome *out)
{
	struct fs_episode *ep = &s->ep;
	unsigned int i;

	if (ts < s->from) {
		/* Over before the window opened: not counted. */
		s->open = false;
		return;
	}
	hold_close(ep, ts);
	ep->ns = ts - ep->start;
	ep->end = why;
	if (ran)
		ep->ran = *ran;
	for (i = 0; i < ep->nr_waits; i++) {
		if (ep->waits[i].end != FS_END_OPEN)
			continue;
		ep->waits[i].ns = ts - ep->waits[i].since;
		ep->waits[i].end = why;
	}
	for (i = 0; i < ep->nr_holds; i++)
		hold_add(s->holders, &s->nr_holders, FS_HOLDERS,
			 &s->other_holders_ns, &ep->holds[i].task,
			 ep->holds[i].ns - ep->holds[i].early_ns);
	s->other_holders_ns += ep->other_hold_ns - ep->other_early_ns;
	sort_holds(ep);

	s->ends[why]++;
	s->total_ns += ts - (ep->start > s->from ? ep->start : s->from);
	if (ep->start_known)
		fs_hist_add(&s->hist, ep->ns);
	else
		s->partial++;
	s->open = false;

	out->episode = ep;
	out->waits = ep->waits;
	out->nr_waits = ep->nr_waits;
}

/* A waiting task left the CPU at @ev: its wait ends there. */
static void leave(struct fs_starve *s, const struct fs_event *ev,
		  struct fs_outcome *out)
{
	struct fs_episode *ep = &s->ep;
	unsigned int i;

	for (i = 0; i < ep->nr_waits; i++) {
		struct fs_wait *w = &ep->waits[i];

		if (w->end != FS_END_OPEN || !same_task(&w->task, &ev->task))
			continue;
		w->ns = ev->ts - w->since;
		w->end = ev->why;
		out->waits = w;
		out->nr_waits = 1;
		return;
	}
}

/*
 * Feed one starvation event of this CPU. @server is the server's state,
 * recorded with an episode that begins.
 */
void fs_starve_event(struct fs_starve *s, const struct fs_event *ev,
		     enum fs_state server, struct fs_outcome *out)
{
	switch (ev->type) {
	case FS_EV_WAIT:
		if (ev->first && s->open) {
			/* A new episode: the end of the last one was lost. */
			s->dropped++;
			s->open = false;
		}
		if (!s->open)
			open_episode(s, ev, server);
		else if (ev->holder.pid &&
			 (s->ep.cur_hold < 0 ||
			  !same_task(&s->ep.holds[s->ep.cur_hold].task,
				     &ev->holder)))
			hold_switch(&s->ep, &ev->holder, ev->ts);
		add_wait(&s->ep, ev);
		break;
	case FS_EV_HOLD:
		if (!s->open) {
			s->orphans++;
			break;
		}
		hold_switch(&s->ep, &ev->holder, ev->ts);
		break;
	case FS_EV_LEAVE:
		if (s->open && ev->ts >= s->from)
			leave(s, ev, out);
		break;
	case FS_EV_RAN:
		/* A task's own figure: no episode changes with it. */
		if (ev->ts < s->from)
			break;
		out->ran = &ev->task;
		out->ran_ns = ev->starved;
		out->ran_at = ev->ts;
		break;
	case FS_EV_END:
		if (!s->open) {
			/* It began before we saw it: its length is the kernel's. */
			if (ev->ts < s->from)
				break;
			s->orphans++;
			s->ends[ev->why < FS_END_NR ? ev->why : FS_END_LOST]++;
			s->partial++;
			s->total_ns += ev->ts - s->from < ev->starved ?
				       ev->ts - s->from : ev->starved;
			break;
		}
		close_episode(s, ev->ts, ev->why < FS_END_NR ? ev->why :
					 FS_END_LOST,
			      ev->task.pid ? &ev->task : NULL, out);
		break;
	default:
		break;
	}
}

/* Events were lost: the open episode cannot be measured. */
void fs_starve_drop(struct fs_starve *s)
{
	if (!s->open)
		return;
	s->dropped++;
	s->open = false;
}

/* The fair server boosted on this CPU; @counted: within the window. */
void fs_starve_boost(struct fs_starve *s, bool counted)
{
	if (s->open)
		s->ep.boosted = true;
	else if (counted)
		s->unstarved_boosts++;
}

/* The fair server of this CPU is in state @st from @ts on. */
void fs_starve_server(struct fs_starve *s, uint64_t ts, enum fs_state st)
{
	struct fs_episode *ep = &s->ep;

	if (!s->open || ep->server[ep->nr_server - 1].state == st)
		return;
	if (ep->nr_server == FS_EP_SERVER) {
		ep->more_server++;
		return;
	}
	ep->server[ep->nr_server].ts = ts;
	ep->server[ep->nr_server].state = st;
	ep->nr_server++;
}

/* Bring the open episode @ep up to @now: its length, its open waits, and
 * the current holder's stretch, which nothing else will close. */
static void so_far(struct fs_episode *ep, uint64_t now)
{
	unsigned int i;

	if (now > ep->hold_since)
		hold_close(ep, now);
	ep->ns = now > ep->start ? now - ep->start : 0;
	for (i = 0; i < ep->nr_waits; i++)
		if (ep->waits[i].end == FS_END_OPEN)
			ep->waits[i].ns = now > ep->waits[i].since ?
					  now - ep->waits[i].since : 0;
}

/* The end of a run at @now: hand back the open episode as open. */
void fs_starve_finish(struct fs_starve *s, uint64_t now,
		      struct fs_outcome *out)
{
	struct fs_episode *ep = &s->ep;

	if (!s->open)
		return;
	so_far(ep, now);
	out->episode = ep;
}

/* A copy @ep of an open episode, as it stands at @now, holders sorted. */
void fs_episode_at(struct fs_episode *ep, uint64_t now)
{
	if (ep->end != FS_END_OPEN)
		return;
	so_far(ep, now);
	sort_holds(ep);
}

/* Add @src's statistics into @dst. */
int fs_starve_merge(struct fs_starve *dst, const struct fs_starve *src)
{
	unsigned int i;

	if (fs_hist_merge(&dst->hist, &src->hist))
		return -1;
	dst->total_ns += src->total_ns;
	for (i = 0; i < FS_END_NR; i++)
		dst->ends[i] += src->ends[i];
	dst->partial += src->partial;
	dst->dropped += src->dropped;
	dst->orphans += src->orphans;
	dst->unstarved_boosts += src->unstarved_boosts;
	for (i = 0; i < src->nr_holders; i++)
		hold_add(dst->holders, &dst->nr_holders, FS_HOLDERS,
			 &dst->other_holders_ns, &src->holders[i].task,
			 src->holders[i].ns);
	dst->other_holders_ns += src->other_holders_ns;
	return 0;
}

/*
 * The holder that caused the most starvation up to @now, the open
 * episode included, into @out. Returns false if there is none.
 */
bool fs_starve_top_holder(const struct fs_starve *s, uint64_t now,
			  struct fs_hold *out)
{
	struct fs_hold tab[FS_HOLDERS];
	const struct fs_episode *ep = &s->ep;
	unsigned int nr = s->nr_holders, i;
	uint64_t other = 0;
	int best = -1;

	memcpy(tab, s->holders, sizeof(tab));
	if (s->open) {
		for (i = 0; i < ep->nr_holds; i++) {
			uint64_t ns = ep->holds[i].ns - ep->holds[i].early_ns;

			if ((int)i == ep->cur_hold && now > ep->hold_since)
				ns += now - ep->hold_since -
				      before(ep->hold_since, now, ep->from);
			hold_add(tab, &nr, FS_HOLDERS, &other,
				 &ep->holds[i].task, ns);
		}
	}
	for (i = 0; i < nr; i++)
		if (best < 0 || tab[i].ns > tab[best].ns)
			best = (int)i;
	if (best < 0)
		return false;
	*out = tab[best];
	return true;
}
