// SPDX-License-Identifier: GPL-2.0
/*
 * Strict parsers for command-line values. See parse.h for the rules.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

#define FS_CPU_WORDS	(FS_MAX_CPUS / 64)
/* Longest part of the bad input quoted back in an error message. */
#define QUOTE_MAX	40

/* A unit suffix and the factor it multiplies the number by. */
struct unit {
	const char *name;
	uint64_t mult;
};

/* How to parse and report one kind of number-with-unit value. */
struct unit_spec {
	const char *what;	/* "duration", "time", ... */
	const char *def;	/* name of the default unit */
	const char *hint;	/* list of valid units for messages */
	const struct unit *units;	/* the "" entry is the default */
	size_t nr_units;
};

static const struct unit duration_units[] = {
	{ "",	1 },
	{ "s",	1 },
	{ "m",	60 },
	{ "h",	60 * 60 },
	{ "d",	24 * 60 * 60 },
};

static const struct unit time_units[] = {
	{ "",	1000 },
	{ "ns",	1 },
	{ "us",	1000 },
	{ "ms",	1000 * 1000 },
	{ "s",	1000 * 1000 * 1000 },
};

static const struct unit size_units[] = {
	{ "",	1 },
	{ "k",	1 },
	{ "m",	1024 },
	{ "g",	1024 * 1024 },
};

static const struct unit_spec duration_spec = {
	.what = "duration",
	.def = "s",
	.hint = "s, m, h or d",
	.units = duration_units,
	.nr_units = sizeof(duration_units) / sizeof(duration_units[0]),
};

static const struct unit_spec time_spec = {
	.what = "time",
	.def = "us",
	.hint = "ns, us, ms or s",
	.units = time_units,
	.nr_units = sizeof(time_units) / sizeof(time_units[0]),
};

static const struct unit_spec size_spec = {
	.what = "size",
	.def = "k",
	.hint = "k, m or g",
	.units = size_units,
	.nr_units = sizeof(size_units) / sizeof(size_units[0]),
};

/*
 * Write "invalid WHAT 'STR': REASON" into @err, quoting at most QUOTE_MAX
 * bytes of @str so the reason always fits. No prefix when @what is NULL.
 */
__attribute__((format(printf, 4, 5)))
static void set_err(char *err, const char *what, const char *str,
		    const char *fmt, ...)
{
	va_list ap;
	int len = 0;

	if (!err)
		return;
	err[0] = '\0';
	if (what) {
		len = snprintf(err, FS_ERRLEN, "invalid %s '%.*s%s': ", what,
			       QUOTE_MAX, str,
			       strlen(str) > QUOTE_MAX ? "..." : "");
		if (len < 0 || len >= FS_ERRLEN)
			return;
	}
	va_start(ap, fmt);
	vsnprintf(err + len, FS_ERRLEN - len, fmt, ap);
	va_end(ap);
	fs_printable(err);
}

/* Describe byte @c for a message: 'x' when printable, else its code. */
static const char *char_desc(char c, char buf[16])
{
	unsigned char uc = (unsigned char)c;

	if (isprint(uc))
		snprintf(buf, 16, "'%c'", c);
	else
		snprintf(buf, 16, "byte 0x%02x", uc);
	return buf;
}

/* True when @c is an ASCII decimal digit. */
static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Read the decimal digits at @s into @val and point @end past them.
 * @s must start with a digit. Returns -1 (ERANGE) on overflow.
 */
static int read_u64(const char *s, uint64_t *val, const char **end)
{
	unsigned long long v;
	char *e;

	errno = 0;
	v = strtoull(s, &e, 10);
	*end = e;
	if (errno == ERANGE)
		return -1;
	*val = v;
	return 0;
}

/* Set every bit of @set to zero. */
void fs_cpuset_zero(struct fs_cpuset *set)
{
	memset(set, 0, sizeof(*set));
}

/* Add @cpu to @set; CPUs outside 0 .. FS_MAX_CPUS - 1 are ignored. */
void fs_cpuset_set(struct fs_cpuset *set, int cpu)
{
	if (cpu < 0 || cpu >= FS_MAX_CPUS)
		return;
	set->bits[cpu / 64] |= UINT64_C(1) << (cpu % 64);
}

/* Tell whether @cpu is in @set; false for CPUs outside the range. */
bool fs_cpuset_isset(const struct fs_cpuset *set, int cpu)
{
	if (cpu < 0 || cpu >= FS_MAX_CPUS)
		return false;
	return set->bits[cpu / 64] & (UINT64_C(1) << (cpu % 64));
}

/* Count the CPUs in @set. */
int fs_cpuset_count(const struct fs_cpuset *set)
{
	int i, n = 0;

	for (i = 0; i < FS_CPU_WORDS; i++)
		n += __builtin_popcountll(set->bits[i]);
	return n;
}

/* Return the first CPU of @set at or after @cpu, or -1 if there is none. */
int fs_cpuset_next(const struct fs_cpuset *set, int cpu)
{
	uint64_t word;
	int w;

	if (cpu < 0)
		cpu = 0;
	if (cpu >= FS_MAX_CPUS)
		return -1;
	w = cpu / 64;
	word = set->bits[w] & (~UINT64_C(0) << (cpu % 64));
	for (;;) {
		if (word)
			return w * 64 + __builtin_ctzll(word);
		if (++w >= FS_CPU_WORDS)
			return -1;
		word = set->bits[w];
	}
}

/*
 * Read one CPU number of the list @str at *@pos into @cpu and advance
 * *@pos. @after_dash tells whether it is the end of a range.
 */
static int read_cpu(const char *str, const char **pos, int limit,
		    bool after_dash, int *cpu, char *err)
{
	const char *p = *pos;
	uint64_t v;
	char buf[16];

	if (!is_digit(*p)) {
		if (after_dash)
			set_err(err, "cpu list", str,
				"expected a number after '-'");
		else if (*p == '\0')
			set_err(err, "cpu list", str, "trailing ','");
		else if (*p == ',')
			set_err(err, "cpu list", str, "empty element");
		else
			set_err(err, "cpu list", str,
				"expected a number, found %s",
				char_desc(*p, buf));
		return -1;
	}
	if (read_u64(p, &v, pos)) {
		set_err(err, "cpu list", str, "number too large");
		return -1;
	}
	if (v >= (uint64_t)limit) {
		set_err(err, NULL, str,
			"cpu %" PRIu64 " is out of range (0-%d)", v, limit - 1);
		return -1;
	}
	*cpu = (int)v;
	return 0;
}

/* Parse the CPU list @str into @set; see parse.h. */
int fs_parse_cpus(const char *str, int nr_cpus, struct fs_cpuset *set,
		  char err[FS_ERRLEN])
{
	struct fs_cpuset tmp;
	const char *p, *elem;
	int limit, first, last, cpu;
	char buf[16];

	if (!str)
		str = "";
	if (nr_cpus <= 0) {
		set_err(err, "cpu list", str, "no cpus to choose from");
		return -1;
	}
	if (!*str) {
		set_err(err, "cpu list", str, "empty list");
		return -1;
	}
	limit = nr_cpus < FS_MAX_CPUS ? nr_cpus : FS_MAX_CPUS;
	fs_cpuset_zero(&tmp);
	p = str;
	for (;;) {
		elem = p;
		if (read_cpu(str, &p, limit, false, &first, err))
			return -1;
		last = first;
		if (*p == '-') {
			p++;
			if (read_cpu(str, &p, limit, true, &last, err))
				return -1;
			if (last < first) {
				set_err(err, "cpu list", str,
					"range %d-%d is descending",
					first, last);
				return -1;
			}
		}
		for (cpu = first; cpu <= last; cpu++)
			fs_cpuset_set(&tmp, cpu);
		if (*p == '\0')
			break;
		if (*p != ',') {
			set_err(err, "cpu list", str,
				"unexpected %s after '%.*s'",
				char_desc(*p, buf), (int)(p - elem), elem);
			return -1;
		}
		p++;
	}
	*set = tmp;
	return 0;
}

/*
 * Parse a positive whole number with an optional unit from @spec and
 * store it, multiplied by the unit's factor, in @out.
 */
static int parse_scaled(const char *str, const struct unit_spec *spec,
			uint64_t *out, char *err)
{
	const struct unit *unit = NULL;
	const char *end;
	uint64_t v;
	size_t i;
	char buf[16];

	if (!str)
		str = "";
	if (*str == '\0') {
		set_err(err, spec->what, str, "empty value");
		return -1;
	}
	if (*str == '-') {
		set_err(err, spec->what, str, "must be positive");
		return -1;
	}
	if (!is_digit(*str)) {
		set_err(err, spec->what, str, "expected a number, found %s",
			char_desc(*str, buf));
		return -1;
	}
	if (read_u64(str, &v, &end)) {
		set_err(err, spec->what, str, "number too large");
		return -1;
	}
	if (*end == '.') {
		set_err(err, spec->what, str, "fractions are not allowed");
		return -1;
	}
	for (i = 0; i < spec->nr_units; i++) {
		if (!strcmp(end, spec->units[i].name)) {
			unit = &spec->units[i];
			break;
		}
	}
	if (!unit) {
		if (strpbrk(end, " \t\n\v\f\r"))
			set_err(err, spec->what, str, "unexpected space");
		else
			set_err(err, spec->what, str,
				"unknown unit '%.16s' (use %s)", end,
				spec->hint);
		return -1;
	}
	if (v == 0) {
		set_err(err, spec->what, str, "must be greater than 0");
		return -1;
	}
	if (v > UINT64_MAX / unit->mult) {
		set_err(err, spec->what, str, "too large (max %" PRIu64 "%s)",
			UINT64_MAX / unit->mult,
			unit->name[0] ? unit->name : spec->def);
		return -1;
	}
	*out = v * unit->mult;
	return 0;
}

/* Parse a duration in s, m, h or d (default s) into seconds. */
int fs_parse_duration(const char *str, uint64_t *seconds, char err[FS_ERRLEN])
{
	uint64_t s;

	if (parse_scaled(str, &duration_spec, &s, err))
		return -1;
	if (s > FS_MAX_DURATION_S) {
		set_err(err, duration_spec.what, str,
			"too large (max %llus)",
			(unsigned long long)FS_MAX_DURATION_S);
		return -1;
	}
	*seconds = s;
	return 0;
}

/* Parse a time in ns, us, ms or s (default us) into nanoseconds. */
int fs_parse_time(const char *str, uint64_t *ns, char err[FS_ERRLEN])
{
	return parse_scaled(str, &time_spec, ns, err);
}

/* Parse one "RUNTIME/PERIOD" of @len bytes at @str into @set. */
static int parse_setting(const char *str, size_t len, struct fs_setting *set,
			 char err[FS_ERRLEN])
{
	char buf[64], sub[FS_ERRLEN];
	char *slash;

	if (!len || len >= sizeof(buf)) {
		set_err(err, "setting", str, len ? "too long" :
			"empty: use RUNTIME/PERIOD, e.g. 50ms/1s");
		return -1;
	}
	memcpy(buf, str, len);
	buf[len] = '\0';
	slash = strchr(buf, '/');
	if (!slash) {
		set_err(err, "setting", buf, "use RUNTIME/PERIOD, e.g. 50ms/1s");
		return -1;
	}
	*slash = '\0';
	if (!strcmp(buf, "0")) {
		set->runtime = 0;
	} else if (fs_parse_time(buf, &set->runtime, sub)) {
		set_err(err, NULL, NULL, "runtime: %s", sub);
		return -1;
	}
	if (fs_parse_time(slash + 1, &set->period, sub)) {
		set_err(err, NULL, NULL, "period: %s", sub);
		return -1;
	}
	*slash = '/';
	if (set->period < FS_PERIOD_MIN_NS || set->period > FS_PERIOD_MAX_NS) {
		set_err(err, "setting", buf,
			"the period must be between 100us and 4194304us");
		return -1;
	}
	if (set->runtime > set->period) {
		set_err(err, "setting", buf,
			"the runtime must not exceed the period");
		return -1;
	}
	return 0;
}

/* Parse a list of fair server settings for --what-if. */
int fs_parse_settings(const char *str, struct fs_setting *set,
		      unsigned int *nr, char err[FS_ERRLEN])
{
	const char *p = str ? str : "";

	*nr = 0;
	for (;;) {
		size_t len = strcspn(p, ",");

		if (*nr == FS_MAX_SETTINGS) {
			set_err(err, "settings", str, "at most %d",
				FS_MAX_SETTINGS);
			return -1;
		}
		if (parse_setting(p, len, &set[*nr], err))
			return -1;
		(*nr)++;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* Parse a size in k, m or g (default k) into KiB. */
int fs_parse_size_kb(const char *str, uint64_t *kb, char err[FS_ERRLEN])
{
	return parse_scaled(str, &size_spec, kb, err);
}

/* Parse a decimal whole number in [@min, @max] into @val. */
int fs_parse_long(const char *str, long min, long max, long *val,
		  char err[FS_ERRLEN])
{
	const char *digits;
	char *end;
	long v;
	char buf[16];

	if (!str)
		str = "";
	if (*str == '\0') {
		set_err(err, "number", str, "empty value");
		return -1;
	}
	digits = *str == '-' ? str + 1 : str;
	if (!is_digit(*digits)) {
		if (digits != str)
			set_err(err, "number", str,
				"expected a number after '-'");
		else
			set_err(err, "number", str,
				"expected a number, found %s",
				char_desc(*str, buf));
		return -1;
	}
	errno = 0;
	v = strtol(str, &end, 10);
	if (errno == ERANGE) {
		set_err(err, "number", str, "must be between %ld and %ld",
			min, max);
		return -1;
	}
	if (*end == '.') {
		set_err(err, "number", str, "fractions are not allowed");
		return -1;
	}
	if (*end != '\0') {
		set_err(err, "number", str, "unexpected %s after the number",
			char_desc(*end, buf));
		return -1;
	}
	if (v < min || v > max) {
		set_err(err, "number", str, "must be between %ld and %ld",
			min, max);
		return -1;
	}
	*val = v;
	return 0;
}

/* The value of "@key=value" at @s, or NULL if @s is another field. */
static const char *field(const char *s, const char *key)
{
	size_t n = strlen(key);

	return !strncmp(s, key, n) && s[n] == '=' ? s + n + 1 : NULL;
}

/* A number field of @len bytes at @v, in [@min, @max]. */
static int num_field(const char *v, size_t len, long min, long max,
		     long *val, char err[FS_ERRLEN])
{
	char buf[24];

	if (len >= sizeof(buf)) {
		set_err(err, "number", v, "too long");
		return -1;
	}
	memcpy(buf, v, len);
	buf[len] = '\0';
	return fs_parse_long(buf, min, max, val, err);
}

/* Parse one field of a signal action, @len bytes at @s. */
static int signal_field(const char *s, size_t len, struct fs_action *a,
			bool *num, bool *pid, char err[FS_ERRLEN])
{
	const char *v;
	long val;

	char why[FS_ERRLEN];

	if ((v = field(s, "num"))) {
		if (num_field(v, len - (v - s), 1, 64, &val, why)) {
			set_err(err, NULL, NULL, "signal num=: %s", why);
			return -1;
		}
		a->signal = (int)val;
		*num = true;
		return 0;
	}
	if ((v = field(s, "pid"))) {
		*pid = true;
		if (len - (v - s) == 6 && !strncmp(v, "parent", 6)) {
			a->pid = 0;
			return 0;
		}
		if (num_field(v, len - (v - s), 1, INT_MAX, &val, why)) {
			set_err(err, NULL, NULL, "signal pid=: %s", why);
			return -1;
		}
		a->pid = (int)val;
		return 0;
	}
	set_err(err, "action", s, "signal takes num= and pid=");
	return -1;
}

/* Parse an action of --on-threshold or --on-end. */
int fs_parse_action(const char *str, struct fs_action *a,
		    char err[FS_ERRLEN])
{
	static const char *const types[] = {
		[FS_ACT_TRACE]		= "trace",
		[FS_ACT_SIGNAL]		= "signal",
		[FS_ACT_SHELL]		= "shell",
		[FS_ACT_CONTINUE]	= "continue",
	};
	bool num = false, pid = false;
	const char *s, *v;
	size_t n, i;

	memset(a, 0, sizeof(*a));
	n = strcspn(str, ",");
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strlen(types[i]) == n && !strncmp(str, types[i], n))
			break;
	if (i == sizeof(types) / sizeof(types[0])) {
		set_err(err, "action", str,
			"expected trace, signal, shell or continue");
		return -1;
	}
	a->type = (enum fs_action_type)i;
	for (s = str + n; *s == ','; s += n) {
		s++;
		n = strcspn(s, ",");
		if (a->type == FS_ACT_TRACE && (v = field(s, "file"))) {
			a->file = v;	/* the rest, commas included */
			n = strlen(s);
		} else if (a->type == FS_ACT_SHELL &&
			   (v = field(s, "command"))) {
			a->command = v;
			n = strlen(s);
		} else if (a->type == FS_ACT_SIGNAL) {
			if (signal_field(s, n, a, &num, &pid, err))
				return -1;
		} else {
			set_err(err, "action", str, "%s takes %s", types[a->type],
				a->type == FS_ACT_TRACE ? "only file=" :
				a->type == FS_ACT_SHELL ? "only command=" :
							  "no field");
			return -1;
		}
	}
	if ((a->file && !*a->file) || (a->command && !*a->command)) {
		set_err(err, "action", str, "empty %s", a->file ? "file name" :
							     "command");
		return -1;
	}
	if (a->type == FS_ACT_SIGNAL && (!num || !pid)) {
		set_err(err, "action", str, "signal needs num= and pid=");
		return -1;
	}
	if (a->type == FS_ACT_SHELL && !a->command) {
		set_err(err, "action", str, "shell needs command=");
		return -1;
	}
	return 0;
}
