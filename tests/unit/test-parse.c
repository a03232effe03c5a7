// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/parse.c.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "parse.h"
#include "tap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static char err[FS_ERRLEN];

/* Tell whether @set holds exactly the @n CPUs in @cpus. */
static bool set_is(const struct fs_cpuset *set, const int *cpus, int n)
{
	int i;

	if (fs_cpuset_count(set) != n)
		return false;
	for (i = 0; i < n; i++)
		if (!fs_cpuset_isset(set, cpus[i]))
			return false;
	return true;
}

/* Tell whether the last error message is non-empty and NUL-terminated. */
static bool err_set(void)
{
	return err[0] != '\0' && memchr(err, '\0', sizeof(err));
}

/* Check the fs_cpuset helpers. */
static void test_cpuset(void)
{
	struct fs_cpuset set;

	fs_cpuset_zero(&set);
	ok(fs_cpuset_count(&set) == 0, "zeroed set is empty");
	ok(fs_cpuset_next(&set, 0) == -1, "next in empty set is -1");

	fs_cpuset_set(&set, 5);
	fs_cpuset_set(&set, 64);
	fs_cpuset_set(&set, FS_MAX_CPUS - 1);
	fs_cpuset_set(&set, -1);
	fs_cpuset_set(&set, FS_MAX_CPUS);
	ok(fs_cpuset_count(&set) == 3, "out-of-range cpus are ignored");
	ok(fs_cpuset_isset(&set, 5) && fs_cpuset_isset(&set, 64) &&
	   fs_cpuset_isset(&set, FS_MAX_CPUS - 1), "isset on set cpus");
	ok(!fs_cpuset_isset(&set, 4) && !fs_cpuset_isset(&set, 63) &&
	   !fs_cpuset_isset(&set, 65), "isset on unset cpus");
	ok(!fs_cpuset_isset(&set, -1) && !fs_cpuset_isset(&set, FS_MAX_CPUS),
	   "isset out of range is false");
	ok(fs_cpuset_next(&set, -3) == 5, "next from negative");
	ok(fs_cpuset_next(&set, 5) == 5, "next at a set cpu");
	ok(fs_cpuset_next(&set, 6) == 64, "next across a word");
	ok(fs_cpuset_next(&set, 65) == FS_MAX_CPUS - 1, "next to last cpu");
	ok(fs_cpuset_next(&set, FS_MAX_CPUS) == -1, "next past the end");
}

/* Check CPU lists that must parse. */
static void test_cpus_good(void)
{
	static const int c0[] = { 0 };
	static const int c03[] = { 0, 1, 2, 3 };
	static const int cmix[] = { 0, 1, 2, 3, 6, 8, 9 };
	static const int c3[] = { 3 };
	static const int c01[] = { 0, 1 };
	static const int clast[] = { FS_MAX_CPUS - 1 };
	struct fs_cpuset set;
	char list[32];

	ok(fs_parse_cpus("0", 4, &set, err) == 0 && set_is(&set, c0, 1),
	   "cpus '0'");
	ok(fs_parse_cpus("0-3", 4, &set, err) == 0 && set_is(&set, c03, 4),
	   "cpus '0-3'");
	ok(fs_parse_cpus("0-3,6,8-9", 16, &set, err) == 0 &&
	   set_is(&set, cmix, 7), "cpus '0-3,6,8-9'");
	ok(fs_parse_cpus("3-3", 4, &set, err) == 0 && set_is(&set, c3, 1),
	   "cpus '3-3'");
	ok(fs_parse_cpus("1,1,0-1", 4, &set, err) == 0 &&
	   set_is(&set, c01, 2), "cpus with duplicates");
	ok(fs_parse_cpus("9,0-1", 10, &set, err) == 0 &&
	   fs_cpuset_count(&set) == 3 && fs_cpuset_isset(&set, 9),
	   "cpus not in order");
	snprintf(list, sizeof(list), "0-%d", FS_MAX_CPUS - 1);
	ok(fs_parse_cpus(list, FS_MAX_CPUS, &set, err) == 0 &&
	   fs_cpuset_count(&set) == FS_MAX_CPUS, "cpus '%s'", list);
	snprintf(list, sizeof(list), "%d", FS_MAX_CPUS - 1);
	ok(fs_parse_cpus(list, 4 * FS_MAX_CPUS, &set, err) == 0 &&
	   set_is(&set, clast, 1), "cpu %s with more than FS_MAX_CPUS", list);
}

/* Check CPU lists that must fail, and their messages. */
static void test_cpus_bad(void)
{
	static const char *const bad[] = {
		"", ",", "1,", ",1", "1,,2", "3-1", "-1", "1-", "a", "1 ",
		" 1", "+1", "0-4", "99999999999999999999", "1-2-3", "4",
		"0x1", "1-a", "1;2", "1.0", "0-3,", "\t1", "1,-2", "0--1",
		"18446744073709551616",
	};
	static const int c2[] = { 2 };
	struct fs_cpuset set;
	char big[200];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		fs_cpuset_zero(&set);
		fs_cpuset_set(&set, 2);
		ok(fs_parse_cpus(bad[i], 4, &set, err) == -1 && err_set() &&
		   set_is(&set, c2, 1), "cpus '%s' rejected: %s", bad[i], err);
	}

	snprintf(big, sizeof(big), "%d", FS_MAX_CPUS);
	ok(fs_parse_cpus(big, 4 * FS_MAX_CPUS, &set, err) == -1,
	   "cpu %s rejected: %s", big, err);
	ok(fs_parse_cpus("0", 0, &set, err) == -1, "nr_cpus 0 rejected: %s",
	   err);
	ok(fs_parse_cpus(NULL, 4, &set, err) == -1, "NULL cpu list rejected");

	fs_parse_cpus("0-x", 4, &set, err);
	ok(!strcmp(err, "invalid cpu list '0-x': expected a number after '-'"),
	   "message for '0-x': %s", err);
	fs_parse_cpus("9", 4, &set, err);
	ok(!strcmp(err, "cpu 9 is out of range (0-3)"),
	   "message for '9': %s", err);
	fs_parse_cpus("0-4", 4, &set, err);
	ok(!strcmp(err, "cpu 4 is out of range (0-3)"),
	   "message for '0-4': %s", err);
	fs_parse_cpus("3-1", 4, &set, err);
	ok(strstr(err, "'3-1'") && strstr(err, "descending"),
	   "message for '3-1': %s", err);
	fs_parse_cpus("1,,2", 4, &set, err);
	ok(strstr(err, "empty element"), "message for '1,,2': %s", err);
	fs_parse_cpus("1,", 4, &set, err);
	ok(strstr(err, "trailing ','"), "message for '1,': %s", err);
	fs_parse_cpus("1-2-3", 4, &set, err);
	ok(strstr(err, "unexpected '-'"), "message for '1-2-3': %s", err);

	memset(big, '1', sizeof(big) - 2);
	big[sizeof(big) - 2] = 'x';
	big[sizeof(big) - 1] = '\0';
	fs_parse_cpus(big, 4, &set, err);
	ok(strlen(err) < FS_ERRLEN && strstr(err, "...'"),
	   "long input is shortened in the message: %s", err);
	ok(fs_parse_cpus("0", 4, &set, NULL) == 0 &&
	   fs_parse_cpus("x", 4, &set, NULL) == -1, "NULL err buffer");
}

/* Check fs_parse_duration. */
static void test_duration(void)
{
	static const struct {
		const char *str;
		uint64_t val;
	} good[] = {
		{ "10", 10 },
		{ "1", 1 },
		{ "10s", 10 },
		{ "5m", 300 },
		{ "1h", 3600 },
		{ "2d", 172800 },
		/* The longest whose nanoseconds fit in 64 bits. */
		{ "18446744073", UINT64_C(18446744073) },
		{ "213503d", UINT64_C(18446659200) },
	};
	static const char *const bad[] = {
		"0", "0s", "-1", "1.5", "1.5s", "1x", "", "s", "1S", "1M",
		"10 ", "+1", " 1", "1 s", "1sec", "0x10", "1ms", "1ss",
		"18446744074", "213504d", "18446744073709551615",
		"18446744073709551616", "213503982334602d",
		"307445734561825861m", "5124095576030432h",
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		v = 0;
		ok(fs_parse_duration(good[i].str, &v, err) == 0 &&
		   v == good[i].val, "duration '%s' = %llu", good[i].str,
		   (unsigned long long)v);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		v = 42;
		ok(fs_parse_duration(bad[i], &v, err) == -1 && err_set() &&
		   v == 42, "duration '%s' rejected: %s", bad[i], err);
	}

	fs_parse_duration("10x", &v, err);
	ok(!strcmp(err, "invalid duration '10x': "
		   "unknown unit 'x' (use s, m, h or d)"),
	   "message for '10x': %s", err);
	fs_parse_duration("1.5s", &v, err);
	ok(strstr(err, "fraction"), "message for '1.5s': %s", err);
	fs_parse_duration("0", &v, err);
	ok(strstr(err, "greater than 0"), "message for '0': %s", err);
	fs_parse_duration("213503982334602d", &v, err);
	ok(strstr(err, "too large"), "message for overflow: %s", err);
	fs_parse_duration("18446744074", &v, err);
	ok(!strcmp(err, "invalid duration '18446744074': too large (max 18446744073s)"),
	   "message for a duration whose ns overflow: %s", err);
}

/* Check fs_parse_time. */
static void test_time(void)
{
	static const struct {
		const char *str;
		uint64_t val;
	} good[] = {
		{ "100", 100000 },
		{ "100us", 100000 },
		{ "2ms", 2000000 },
		{ "1s", 1000000000 },
		{ "500ns", 500 },
		{ "1ns", 1 },
		{ "18446744073s", UINT64_C(18446744073000000000) },
		{ "18446744073709ms", UINT64_C(18446744073709000000) },
		{ "18446744073709551", UINT64_C(18446744073709551000) },
		{ "18446744073709551615ns", UINT64_MAX },
	};
	static const char *const bad[] = {
		"0", "0ns", "-1", "1.5ms", "10x", "", "us", "1m", "1h", "1d",
		"1MS", "1Us", "1 us", "1us ", "+5", "1.0", "18446744074s",
		"18446744073710ms", "18446744073709552",
		"18446744073709551616ns", "1usec", "1sns",
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		v = 0;
		ok(fs_parse_time(good[i].str, &v, err) == 0 &&
		   v == good[i].val, "time '%s' = %llu", good[i].str,
		   (unsigned long long)v);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		v = 42;
		ok(fs_parse_time(bad[i], &v, err) == -1 && err_set() &&
		   v == 42, "time '%s' rejected: %s", bad[i], err);
	}

	fs_parse_time("5m", &v, err);
	ok(!strcmp(err,
		   "invalid time '5m': unknown unit 'm' (use ns, us, ms or s)"),
	   "message for '5m': %s", err);
	fs_parse_time("18446744074s", &v, err);
	ok(strstr(err, "too large"), "message for '18446744074s': %s", err);
}

/* Check fs_parse_long. */
static void test_long(void)
{
	static const char *const bad[] = {
		"11", "-1", "", "+1", " 1", "1 ", "1a", "1.0", "-", "0x1",
		"99999999999999999999", "--1", "1-", "1\t",
	};
	long v;
	size_t i;

	ok(fs_parse_long("0", 0, 10, &v, err) == 0 && v == 0, "long 0");
	ok(fs_parse_long("10", 0, 10, &v, err) == 0 && v == 10, "long max");
	ok(fs_parse_long("5", 0, 10, &v, err) == 0 && v == 5, "long 5");
	ok(fs_parse_long("007", 0, 10, &v, err) == 0 && v == 7,
	   "long with leading zeros is decimal");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		v = 42;
		ok(fs_parse_long(bad[i], 0, 10, &v, err) == -1 && err_set() &&
		   v == 42, "long '%s' in 0..10 rejected: %s", bad[i], err);
	}

	ok(fs_parse_long("-5", -5, -1, &v, err) == 0 && v == -5,
	   "negative range min");
	ok(fs_parse_long("-1", -5, -1, &v, err) == 0 && v == -1,
	   "negative range max");
	ok(fs_parse_long("0", -5, -1, &v, err) == -1, "above negative range");
	ok(fs_parse_long("-6", -5, -1, &v, err) == -1, "below negative range");
	ok(fs_parse_long("9223372036854775807", LONG_MIN, LONG_MAX, &v,
			 err) == 0 && v == LONG_MAX, "LONG_MAX");
	ok(fs_parse_long("-9223372036854775808", LONG_MIN, LONG_MAX, &v,
			 err) == 0 && v == LONG_MIN, "LONG_MIN");
	ok(fs_parse_long("9223372036854775808", LONG_MIN, LONG_MAX, &v,
			 err) == -1, "above LONG_MAX rejected: %s", err);
	ok(fs_parse_long("-9223372036854775809", LONG_MIN, LONG_MAX, &v,
			 err) == -1, "below LONG_MIN rejected: %s", err);

	fs_parse_long("11", 0, 10, &v, err);
	ok(!strcmp(err, "invalid number '11': must be between 0 and 10"),
	   "message for '11': %s", err);
	fs_parse_long("-", 0, 10, &v, err);
	ok(strstr(err, "expected a number after '-'"),
	   "message for '-': %s", err);
	fs_parse_long("1\t", 0, 10, &v, err);
	ok(strstr(err, "unexpected byte 0x09"), "message for a tab: %s", err);
}

/* Check fs_parse_size_kb. */
static void test_size(void)
{
	static const struct {
		const char *str;
		uint64_t val;
	} good[] = {
		{ "1", 1 },
		{ "4k", 4 },
		{ "2m", 2048 },
		{ "1g", 1048576 },
		{ "17592186044415g", UINT64_C(18446744073708503040) },
		{ "18446744073709551615", UINT64_MAX },
	};
	static const char *const bad[] = {
		"0", "0k", "1K", "1M", "1G", "1t", "1.5m", "-1", "", "k",
		"1kb", "1 k", "+1", "17592186044416g", "18014398509481984m",
		"18446744073709551616",
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		v = 0;
		ok(fs_parse_size_kb(good[i].str, &v, err) == 0 &&
		   v == good[i].val, "size '%s' = %llu", good[i].str,
		   (unsigned long long)v);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		v = 42;
		ok(fs_parse_size_kb(bad[i], &v, err) == -1 && err_set() &&
		   v == 42, "size '%s' rejected: %s", bad[i], err);
	}
	fs_parse_size_kb("1t", &v, err);
	ok(!strcmp(err, "invalid size '1t': unknown unit 't' (use k, m or g)"),
	   "message for '1t': %s", err);
}

/* Check fs_parse_action: rtla's four actions, their fields, their errors. */
static void test_action(void)
{
	static const char *const bad[] = {
		"", "Trace", "trace,", "trace,file", "trace,file=", "trace,foo=1",
		"signal", "signal,num=2", "signal,pid=1", "signal,num=0,pid=1",
		"signal,num=65,pid=1", "signal,num=2,pid=0", "signal,num=2,pid=-1",
		"signal,num=2,pid=parents", "signal,num=x,pid=1",
		"signal,num=2,pid=1,", "signal,num=2,pid=1,x=1", "shell",
		"shell,command=", "shell,cmd=ls", "continue,", "continue,x=1",
		"continues", "signal,num=123456789012345678901234567890,pid=1",
	};
	struct fs_action a;
	size_t i;

	ok(!fs_parse_action("trace", &a, err) && a.type == FS_ACT_TRACE &&
	   !a.file, "trace: the default file");
	ok(!fs_parse_action("trace,file=a,b.txt", &a, err) &&
	   a.type == FS_ACT_TRACE && !strcmp(a.file, "a,b.txt"),
	   "trace,file= takes the rest, commas included");
	ok(!fs_parse_action("signal,num=10,pid=parent", &a, err) &&
	   a.type == FS_ACT_SIGNAL && a.signal == 10 && a.pid == 0,
	   "signal to the parent");
	ok(!fs_parse_action("signal,pid=4242,num=2", &a, err) &&
	   a.signal == 2 && a.pid == 4242, "signal: fields in any order");
	ok(!fs_parse_action("shell,command=echo a,b", &a, err) &&
	   a.type == FS_ACT_SHELL && !strcmp(a.command, "echo a,b"),
	   "shell,command= takes the rest, commas included");
	ok(!fs_parse_action("continue", &a, err) && a.type == FS_ACT_CONTINUE,
	   "continue");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		ok(fs_parse_action(bad[i], &a, err) == -1 && err_set() &&
		   !strchr(err, '\n'), "action '%s' rejected: %s", bad[i], err);
	}
	fs_parse_action("signal,num=99,pid=1", &a, err);
	ok(!strcmp(err, "signal num=: invalid number '99': must be between 1 and 64"),
	   "message for num=99: %s", err);
	fs_parse_action("shell,cmd=ls", &a, err);
	ok(!strcmp(err, "invalid action 'shell,cmd=ls': shell takes only command="),
	   "message for a wrong field: %s", err);
}

/* Messages that quote input stay on one line (found by fuzz-values). */
static void test_one_line(void)
{
	char err[FS_ERRLEN], msg[] = "a\nb\tc\x7f";
	struct fs_cpuset set;
	uint64_t v;

	ok(fs_parse_cpus("\x1d\n", 4, &set, err) == -1 && !strchr(err, '\n') &&
	   !strchr(err, 0x1d), "cpu list with control bytes: %s", err);
	ok(fs_parse_duration("1\n", &v, err) == -1 && !strchr(err, '\n'),
	   "duration with a newline: %s", err);
	fs_printable(msg);
	ok(!strcmp(msg, "a?b?c?"), "fs_printable replaces control bytes: %s",
	   msg);
}

/* Run every parser test. */
/* --what-if settings: RUNTIME/PERIOD lists within the kernel's bounds. */
static void test_settings(void)
{
	static const char *const bad[] = {
		"", "20ms", "20ms/", "/100ms", "20ms/100ms,", ",20ms/100ms",
		"200ms/100ms", "1ms/50us", "1ms/5s", "x/100ms", "20ms/100ms/1",
		"1ms/1s,1ms/1s,1ms/1s,1ms/1s,1ms/1s,1ms/1s,1ms/1s,1ms/1s,1ms/1s",
		"-1ms/100ms",
	};
	struct fs_setting set[FS_MAX_SETTINGS];
	char err[FS_ERRLEN];
	unsigned int nr, i;

	ok(!fs_parse_settings("20ms/100ms,0/1s,100us/100us", set, &nr, err) &&
	   nr == 3 && set[0].runtime == 20000000 &&
	   set[0].period == 100000000 && set[1].runtime == 0 &&
	   set[1].period == 1000000000 && set[2].runtime == 100000 &&
	   set[2].period == 100000,
	   "settings: 20ms/100ms,0/1s,100us/100us");
	ok(!fs_parse_settings("50000/1000000", set, &nr, err) && nr == 1 &&
	   set[0].runtime == 50000000 && set[0].period == 1000000000,
	   "settings: the default unit is us, as -T's");
	ok(!fs_parse_settings("1ms/4194304us", set, &nr, err) && nr == 1,
	   "settings: the longest period the kernel takes");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ok(fs_parse_settings(bad[i], set, &nr, err) == -1 && err[0] &&
		   !strchr(err, '\n'), "settings: '%s' refused: %s", bad[i], err);
	}
}

int main(void)
{
	test_cpuset();
	test_cpus_good();
	test_cpus_bad();
	test_duration();
	test_time();
	test_long();
	test_size();
	test_action();
	test_settings();
	test_one_line();
	return tap_done();
}
