// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/kderive.h where it differs from what test-derive
 * reaches through derive.c: the steps the BPF programs take in an order
 * user space never sees (a migration's arrival read before a later step
 * took the CPU's lock), the bounded list, and the tasks found with the
 * CPU's current task already known.
 */
#include <stdlib.h>
#include <string.h>

#include "kderive.h"
#include "tap.h"

#define MS	1000000ULL

/* A task of @prio named "t<pid>". */
static struct fs_kd_task task(int pid, int prio)
{
	struct fs_kd_task t;

	memset(&t, 0, sizeof(t));
	t.pid = pid;
	t.prio = prio;
	t.comm[0] = 't';
	t.comm[1] = '0' + pid % 10;
	return t;
}

/* How many events of @type @o holds. */
static int count(const struct fs_kd_outs *o, __u32 type)
{
	unsigned int i;
	int n = 0;

	for (i = 0; i < o->nr; i++)
		n += o->ev[i].type == type;
	return n;
}

/*
 * A migration's arrival stamped before the step that opened the episode
 * on its CPU: it counts from the step's time, and the episode it leaves
 * later is not negative.
 */
static void test_late_arrival(void)
{
	struct fs_kd_cpu *src = calloc(1, sizeof(*src));
	struct fs_kd_cpu *dst = calloc(1, sizeof(*dst));
	struct fs_kd_outs *o = calloc(1, sizeof(*o));
	struct fs_kd_task fifo = task(1, 10), fair = task(2, 120);
	struct fs_kd_task idle = task(0, 120), other = task(3, 120);
	struct fs_kd_move m;

	if (!src || !dst || !o)
		abort();
	/* src runs a fair task with @fair queued; dst goes to a FIFO one. */
	fs_kd_switch(src, 0, 1 * MS, &idle, &other, false, o);
	fs_kd_wakeup(src, 0, 2 * MS, &fair, o);
	fs_kd_switch(dst, 1, 5 * MS, &idle, &fifo, false, o);
	o->nr = 0;
	/* The arrival read the clock at 4 ms, dst's lock taken after 5 ms. */
	fs_kd_leave(src, 0, 4 * MS, &fair, &m, o);
	ok(m.fair && !m.rt && m.acc == 0, "the fair task leaves, nothing met");
	fs_kd_arrive(dst, 1, 4 * MS, &fair, &m, o);
	ok(o->nr == 1 && o->ev[0].type == FS_KD_WAIT &&
	   o->ev[0].ts == 5 * MS && o->ev[0].first,
	   "it waits behind the FIFO task from dst's latest step (%llu ns)",
	   (unsigned long long)o->ev[0].ts);
	o->nr = 0;
	fs_kd_leave(dst, 1, 7 * MS, &fair, &m, o);
	ok(count(o, FS_KD_LEAVE) == 1 && count(o, FS_KD_END) == 1 &&
	   o->ev[1].starved == 2 * MS && m.acc == 2 * MS,
	   "it leaves after 2 ms: the episode and its carry are 2 ms (%llu, %llu)",
	   (unsigned long long)o->ev[1].starved, (unsigned long long)m.acc);
	free(src);
	free(dst);
	free(o);
}

/* The list takes FS_KD_OUTS events; more are counted, not kept. */
static void test_full_list(void)
{
	struct fs_kd_outs *o = calloc(1, sizeof(*o));
	unsigned int i;

	if (!o)
		abort();
	for (i = 0; i < FS_KD_OUTS + 3; i++)
		kd_out(o, FS_KD_HOLD, 0, i);
	ok(o->nr == FS_KD_OUTS && o->dropped == 3,
	   "a full list keeps %u and counts %u", o->nr, o->dropped);
	free(o);
}

/*
 * The BPF programs read a CPU's current task before they find the tasks
 * queued there: a fair task found behind it waits, unseen; the current
 * task found again is not queued; a real-time task found queued is.
 */
static void test_found_current(void)
{
	struct fs_kd_cpu *c = calloc(1, sizeof(*c));
	struct fs_kd_outs *o = calloc(1, sizeof(*o));
	struct fs_kd_task fifo = task(1, 10), fair = task(2, 120);
	struct fs_kd_task rt = task(4, 50);

	if (!c || !o)
		abort();
	c->curr = fifo;
	c->curr_known = true;
	fs_kd_found(c, 0, 1 * MS, &fair, o);
	fs_kd_found(c, 0, 1 * MS, &fifo, o);
	fs_kd_found(c, 0, 1 * MS, &rt, o);
	ok(o->nr == 1 && o->ev[0].why == FS_WAIT_UNSEEN &&
	   o->ev[0].holder.pid == 1 && c->nr_queued == 1 && c->nr_rt == 1 &&
	   c->rt[0] == 4,
	   "found: the fair task waits unseen behind the current FIFO task, the RT task is queued");
	free(c);
	free(o);
}

int main(void)
{
	test_late_arrival();
	test_full_list();
	test_found_current();
	return tap_done();
}
