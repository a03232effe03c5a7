// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/event.c's text: a server's observation as the line
 * the BPF source writes into the -t trace, flags by name, time last.
 */
#include <string.h>

#include "event.h"
#include "tap.h"

int main(void)
{
	struct fs_event ev = {
		.type = FS_EV_P_TIMER, .cpu = 2, .ts = 12000000345ULL,
		.flags = FS_FLAG_ACTIVE | FS_FLAG_ARMED, .runtime = -5,
		.deadline = 99, .dl_runtime = 50000000,
		.dl_period = 1000000000, .ret = 1,
	};
	char buf[256], small[16];
	int n;

	n = fs_event_line(buf, sizeof(buf), &ev);
	ok(!strcmp(buf, "probe_timer cpu=2 flags=active|armed runtime=-5 deadline=99 dl_runtime=50000000 dl_period=1000000000 ret=1 ts=12.000000345"),
	   "a timer observation reads back: %s", buf);
	ok(n == (int)strlen(buf), "the length is returned (%d)", n);

	ev.flags = 0;
	ev.type = FS_EV_P_STOP;
	fs_event_line(buf, sizeof(buf), &ev);
	ok(strstr(buf, "probe_stop cpu=2 flags=0 ") == buf,
	   "no flag set reads 0: %s", buf);

	ev.flags = FS_FLAG_ACTIVE | FS_FLAG_THROTTLED | FS_FLAG_ARMED |
		   FS_FLAG_RUNNING;
	n = fs_event_line(small, sizeof(small), &ev);
	ok(n > (int)sizeof(small) && strlen(small) == sizeof(small) - 1,
	   "a short buffer is cut, NUL-terminated, and the full length told");
	fs_event_line(buf, sizeof(buf), &ev);
	ok(strstr(buf, "flags=active|throttled|armed|running "),
	   "every flag by name: %s", buf);
	return tap_done();
}
