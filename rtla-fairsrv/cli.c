// SPDX-License-Identifier: GPL-2.0
/*
 * The option parser shared by rtla fairsrv top and hist.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fairsrv.h"

#define DEFAULT_BUCKET_NS	(10ULL * 1000 * 1000)	/* 10 ms */
#define DEFAULT_ENTRIES		256
#define MAX_ENTRIES		100000
#define MAX_WORST		1000000

enum {
	OPT_FILTER = 256,
	OPT_TRIGGER,
	OPT_NO_HEADER,
	OPT_NO_SUMMARY,
	OPT_NO_INDEX,
	OPT_WITH_ZEROS,
	OPT_BUFFER,
	OPT_JSON,
	OPT_WORST,
	OPT_SERVER_ONLY,
	OPT_SOURCE,
	OPT_VERSION,
	OPT_ON_THRESHOLD,
	OPT_ON_END,
	OPT_WHAT_IF,
	OPT_TARGET,
	OPT_PROMETHEUS,
	OPT_OPENMETRICS,
};

static const struct option long_opts[] = {
	{ "cpus",		required_argument, NULL, 'c' },
	{ "duration",		required_argument, NULL, 'd' },
	{ "debug",		no_argument,	   NULL, 'D' },
	{ "quiet",		no_argument,	   NULL, 'q' },
	{ "threshold",		required_argument, NULL, 'T' },
	{ "auto",		required_argument, NULL, 'a' },
	{ "on-threshold",	required_argument, NULL, OPT_ON_THRESHOLD },
	{ "on-end",		required_argument, NULL, OPT_ON_END },
	{ "trace",		optional_argument, NULL, 't' },
	{ "event",		required_argument, NULL, 'e' },
	{ "filter",		required_argument, NULL, OPT_FILTER },
	{ "trigger",		required_argument, NULL, OPT_TRIGGER },
	{ "bucket-size",	required_argument, NULL, 'b' },
	{ "entries",		required_argument, NULL, 'E' },
	{ "no-header",		no_argument,	   NULL, OPT_NO_HEADER },
	{ "no-summary",		no_argument,	   NULL, OPT_NO_SUMMARY },
	{ "no-index",		no_argument,	   NULL, OPT_NO_INDEX },
	{ "with-zeros",		no_argument,	   NULL, OPT_WITH_ZEROS },
	{ "trace-buffer-size",	required_argument, NULL, OPT_BUFFER },
	{ "house-keeping",	required_argument, NULL, 'H' },
	{ "json",		no_argument,	   NULL, OPT_JSON },
	{ "worst",		required_argument, NULL, OPT_WORST },
	{ "server-only",	no_argument,	   NULL, OPT_SERVER_ONLY },
	{ "source",		required_argument, NULL, OPT_SOURCE },
	{ "what-if",		required_argument, NULL, OPT_WHAT_IF },
	{ "target-starvation",	required_argument, NULL, OPT_TARGET },
	{ "prometheus",		required_argument, NULL, OPT_PROMETHEUS },
	{ "openmetrics",	required_argument, NULL, OPT_OPENMETRICS },
	{ "version",		no_argument,	   NULL, OPT_VERSION },
	{ "help",		no_argument,	   NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* The leading ':' makes getopt tell a missing value (':') from an unknown
 * option ('?'). */
static const char short_opts[] = ":c:d:DqT:a:t::e:b:E:H:h";

/* Print the usage of top or hist. */
void fs_usage(enum fs_mode mode, FILE *f)
{
	bool hist = mode == FS_MODE_HIST;
	char names[128];

	fs_source_names(names, sizeof(names), "|");

	fprintf(f,
		"usage: rtla fairsrv %s [-h] [-q] [-D] [-d s] [-c cpu-list] [-H cpu-list]\n"
		"	[-T time] [-a time] [-t[file]] [--on-threshold action] [--on-end action]\n"
		"	[-e sys[:event]] [--filter f] [--trigger t]\n"
		"	[--trace-buffer-size kB] [--json] [--worst N] [--server-only]\n"
		"	[--source %s] [--prometheus file] [--openmetrics file]\n"
		"	[--version]%s\n\n",
		hist ? "hist" : "top", names,
		hist ? "\n	[-b time] [-E N] [--no-header] [--no-summary] [--no-index] [--with-zeros]\n"
		       "	[--what-if runtime/period[,...]] [--target-starvation time]" : "");
	fprintf(f, "  %s\n\n",
		hist ? "Histograms of fair-task starvation, the fair server's wait and RT preemption."
		     : "Live per-CPU fair-task starvation and fair server (dl_server) statistics.");
	fprintf(f,
		"	  -h/--help: print this menu\n"
		"	  -c/--cpus cpu-list: CPUs to report (default: all)\n"
		"	  -H/--house-keeping cpu-list: run rtla on these CPUs\n"
		"	  -d/--duration time[s|m|h|d]: stop after this long\n"
		"	  -D/--debug: print debug information\n"
		"	  -q/--quiet: print only the final result\n"
		"	  -T/--threshold time[ns|us|ms|s]: stop (exit 2) when a fair starvation\n"
		"		or RT-preemption episode is longer (default unit us)\n"
		"	  -a/--auto time: -T time and -t, and explain the episode that\n"
		"		crossed: who waited, who held the CPU, the server's states\n"
		"	     --on-threshold action: when -T is crossed, instead of\n"
		"		stopping at once (repeatable, run in order): trace[,file=f],\n"
		"		signal,num=n,pid=pid|parent, shell,command=cmd, continue\n"
		"	     --on-end action: at the end of the run (repeatable; not continue)\n"
		"	  -t/--trace [file]: save the events to file on stop (default %s)\n"
		"	  -e/--event sys[:event]: also save this event with -t (repeatable)\n"
		"	     --filter expr: filter for the previous -e event\n"
		"	     --trigger trigger: trigger for the previous -e event\n"
		"	     --trace-buffer-size kB: per-CPU trace buffer size\n"
		"	     --json: print the result as JSON\n"
		"	     --worst N: list the N longest starvation episodes, with who\n"
		"		waited and who held the CPU (--json: 10 by default)\n"
		"	     --server-only: leave fair starvation out (the least overhead)\n"
		"	     --source %s: where the server's events come\n"
		"		from: the series' events, or on a stock kernel BPF\n"
		"		programs or kprobes (both need BTF); auto: the cheapest\n"
		"		this kernel serves\n"
		"	     --prometheus file: write the figures as metrics to file\n"
		"		every second and at the end (Prometheus' text format, as\n"
		"		node_exporter's textfile collector reads it)\n"
		"	     --openmetrics file: the same in OpenMetrics\n"
		"	     --version: print the version\n",
		FS_DEFAULT_TRACE_FILE, names);
	if (hist)
		fprintf(f,
			"	  -b/--bucket-size time[ns|us|ms|s]: histogram bucket (default 10ms)\n"
			"	  -E/--entries N: number of buckets (default %d)\n"
			"	     --no-header: do not print the header\n"
			"	     --no-summary: do not print over/count/min/avg/max\n"
			"	     --no-index: do not print the Index column\n"
			"	     --with-zeros: print buckets with no samples\n"
			"	     --what-if runtime/period[,...]: replay each CPU's recorded\n"
			"		load with these server settings (e.g. 20ms/100ms; 0/1s:\n"
			"		disabled): predicted starvation, RT preemption, fair share\n"
			"	     --target-starvation time: advise the setting with the least\n"
			"		RT preemption whose predicted starvation stays within time,\n"
			"		and print the debugfs writes that apply it (not applied)\n",
			DEFAULT_ENTRIES);
}

/* Report a bad option or value: one line, exit code 1 by the caller. */
static int __attribute__((format(printf, 2, 3)))
bad(const struct fs_params *p, const char *fmt, ...)
{
	va_list ap;

	fs_prog = p->prog;
	va_start(ap, fmt);
	fs_verr(fmt, ap);
	va_end(ap);
	return -1;
}

/* Whether option @c only makes sense for hist. */
static bool hist_only(int c)
{
	switch (c) {
	case 'b':
	case 'E':
	case OPT_NO_HEADER:
	case OPT_NO_SUMMARY:
	case OPT_NO_INDEX:
	case OPT_WITH_ZEROS:
	case OPT_WHAT_IF:
	case OPT_TARGET:
		return true;
	default:
		return false;
	}
}

/* Add a -e event, "sys" or "sys:event". */
static int add_event(struct fs_params *p, const char *arg)
{
	struct fs_extra_event *ev;
	const char *colon;

	if (p->nr_events == FS_MAX_EXTRA_EVENTS)
		return bad(p, "too many -e events (at most %d)", FS_MAX_EXTRA_EVENTS);
	colon = strchr(arg, ':');
	if (!*arg || colon == arg || (colon && !colon[1]) ||
	    (colon && strchr(colon + 1, ':')))
		return bad(p, "invalid event '%s': use system or system:event",
			   arg);
	ev = &p->events[p->nr_events];
	ev->system = colon ? strndup(arg, colon - arg) : strdup(arg);
	ev->name = colon ? strdup(colon + 1) : NULL;
	if (!ev->system || (colon && !ev->name)) {
		free(ev->system);
		free(ev->name);
		return bad(p, "out of memory");
	}
	p->nr_events++;
	return 0;
}

/* Free what fs_parse_args allocated. */
void fs_free_params(struct fs_params *p)
{
	int i;

	for (i = 0; i < p->nr_events; i++) {
		free(p->events[i].system);
		free(p->events[i].name);
	}
	p->nr_events = 0;
}

/* Add an action of --on-threshold (@end false) or --on-end. */
static int add_action(struct fs_params *p, const char *arg, bool end)
{
	struct fs_action *list = end ? p->on_end : p->on_threshold;
	int *nr = end ? &p->nr_on_end : &p->nr_on_threshold;
	char err[FS_ERRLEN];

	if (*nr == FS_MAX_ACTIONS)
		return bad(p, "too many %s actions (at most %d)",
			   end ? "--on-end" : "--on-threshold", FS_MAX_ACTIONS);
	if (fs_parse_action(arg, &list[*nr], err))
		return bad(p, "%s", err);
	if (end && list[*nr].type == FS_ACT_CONTINUE)
		return bad(p, "--on-end cannot continue: the run has ended");
	if (list[*nr].type == FS_ACT_TRACE)
		p->record = true;
	(*nr)++;
	return 0;
}

/* Take the -t file, in any of rtla's forms: -t, -tFILE, -t FILE, --trace,
 * --trace=FILE; a leading '=' (-t=FILE) is not part of the name. */
static int trace_file(struct fs_params *p, int argc, char **argv)
{
	const char *file = optarg;

	if (!file && optind < argc && argv[optind][0] != '-')
		file = argv[optind++];
	if (file && *file == '=')
		file++;
	if (file && !*file)
		return bad(p, "empty trace file name");
	p->trace_file = file ? file : FS_DEFAULT_TRACE_FILE;
	p->record = true;
	return 0;
}

/* The name of option @c: "-x" for a short one, "--name" for a long one. */
static void opt_name(int c, char *buf, size_t len)
{
	const struct option *o;

	if (c > 0 && c < 256) {
		snprintf(buf, len, "-%c", c);
		return;
	}
	for (o = long_opts; o->name; o++) {
		if (o->val == c) {
			snprintf(buf, len, "--%s", o->name);
			return;
		}
	}
	snprintf(buf, len, "?");
}

/*
 * The option getopt just refused. optopt names a known option that lacks
 * its value (its long form if that is what @arg, the argument just
 * passed, spells), or an unknown short one, even inside a group like -Zq.
 * It is 0 for an unknown long option: then @arg is it.
 */
static void refused(const char *arg, char *buf, size_t len)
{
	size_t n = strcspn(arg, "=");
	const struct option *o;

	if (!strncmp(arg, "--", 2)) {
		for (o = long_opts; o->name; o++) {
			if (optopt && o->val == optopt &&
			    strlen(o->name) == n - 2 &&
			    !strncmp(o->name, arg + 2, n - 2)) {
				snprintf(buf, len, "--%s", o->name);
				return;
			}
		}
	}
	if (optopt) {
		opt_name(optopt, buf, len);
		return;
	}
	snprintf(buf, len, "%.*s", (int)(n < 40 ? n : 40), arg);
}

/* Set the defaults: every CPU, 10 ms buckets. */
static int defaults(struct fs_params *p, enum fs_mode mode)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->mode = mode;
	p->prog = mode == FS_MODE_HIST ? "rtla fairsrv hist" : "rtla fairsrv top";
	p->bucket_ns = DEFAULT_BUCKET_NS;
	p->entries = DEFAULT_ENTRIES;
	p->nr_cpus = fs_system_cpus();
	if (p->nr_cpus < 1)
		return bad(p, "cannot tell how many CPUs this system has");
	if (p->nr_cpus > FS_MAX_CPUS)
		return bad(p, "this system has %d CPUs; rtla fairsrv supports at most %d",
			   p->nr_cpus, FS_MAX_CPUS);
	for (i = 0; i < p->nr_cpus; i++)
		fs_cpuset_set(&p->cpus, i);
	return 0;
}

/*
 * Parse the options of top or hist into @p. Returns 0 to run, 1 when help
 * or the version was printed, -1 on error (one line already printed).
 */
int fs_parse_args(int argc, char **argv, enum fs_mode mode,
		  struct fs_params *p)
{
	char err[FS_ERRLEN], opt[64], names[128];
	int c, idx;
	long nr;

	if (defaults(p, mode))
		return -1;
	opterr = 0;
	optind = 0;	/* glibc: a full reset, a previous scan's state included */
	while ((c = getopt_long(argc, argv, short_opts, long_opts, &idx)) != -1) {
		const char *arg = argv[optind - 1];

		err[0] = '\0';
		switch (c) {
		case 'c':
			fs_cpuset_zero(&p->cpus);
			if (fs_parse_cpus(optarg, p->nr_cpus, &p->cpus, err))
				goto bad_value;
			break;
		case 'H':
			p->hk = true;
			if (fs_parse_cpus(optarg, p->nr_cpus, &p->hk_cpus, err))
				goto bad_value;
			break;
		case 'd':
			if (fs_parse_duration(optarg, &p->duration_s, err))
				goto bad_value;
			break;
		case 'T':
			if (fs_parse_time(optarg, &p->threshold_ns, err))
				goto bad_value;
			break;
		case 'a':
			if (fs_parse_time(optarg, &p->threshold_ns, err))
				goto bad_value;
			p->analyze = true;
			if (!p->trace_file)
				p->trace_file = FS_DEFAULT_TRACE_FILE;
			p->record = true;
			break;
		case OPT_ON_THRESHOLD:
		case OPT_ON_END:
			if (add_action(p, optarg, c == OPT_ON_END))
				goto fail;
			break;
		case 'b':
			if (fs_parse_time(optarg, &p->bucket_ns, err))
				goto bad_value;
			break;
		case 'E':
			if (fs_parse_long(optarg, 1, MAX_ENTRIES, &nr, err))
				goto bad_value;
			p->entries = (unsigned int)nr;
			break;
		case OPT_WORST:
			if (fs_parse_long(optarg, 1, MAX_WORST, &nr, err))
				goto bad_value;
			p->worst = (unsigned int)nr;
			break;
		case OPT_BUFFER:
			if (fs_parse_size_kb(optarg, &p->buffer_kb, err))
				goto bad_value;
			break;
		case 'D':
			p->debug = true;
			break;
		case 'q':
			p->quiet = true;
			break;
		case 't':
			if (trace_file(p, argc, argv))
				goto fail;
			break;
		case 'e':
			if (add_event(p, optarg))
				goto fail;
			break;
		case OPT_FILTER:
		case OPT_TRIGGER:
			if (!p->nr_events) {
				bad(p, "%s needs an -e event before it",
				    c == OPT_FILTER ? "--filter" : "--trigger");
				goto fail;
			}
			if (c == OPT_FILTER)
				p->events[p->nr_events - 1].filter = optarg;
			else
				p->events[p->nr_events - 1].trigger = optarg;
			break;
		case OPT_NO_HEADER:
			p->no_header = true;
			break;
		case OPT_NO_SUMMARY:
			p->no_summary = true;
			break;
		case OPT_NO_INDEX:
			p->no_index = true;
			break;
		case OPT_WITH_ZEROS:
			p->with_zeros = true;
			break;
		case OPT_JSON:
			p->json = true;
			break;
		case OPT_SERVER_ONLY:
			p->server_only = true;
			break;
		case OPT_SOURCE:
			if (!fs_source_exists(optarg)) {
				fs_source_names(names, sizeof(names), ", ");
				bad(p, "invalid --source '%s': one of %s",
				    optarg, names);
				goto fail;
			}
			p->source = strcmp(optarg, "auto") ? optarg : NULL;
			break;
		case OPT_WHAT_IF:
			if (fs_parse_settings(optarg, p->what_if,
					      &p->nr_what_if, err))
				goto bad_value;
			break;
		case OPT_TARGET:
			if (fs_parse_time(optarg, &p->target_ns, err))
				goto bad_value;
			break;
		case OPT_PROMETHEUS:
		case OPT_OPENMETRICS:
			if (p->metrics_file) {
				bad(p, "one metrics file only: --prometheus or --openmetrics, once");
				goto fail;
			}
			if (!*optarg) {
				bad(p, "empty metrics file name");
				goto fail;
			}
			p->metrics_file = optarg;
			p->metrics_format = c == OPT_PROMETHEUS ?
					    FS_METRICS_PROMETHEUS :
					    FS_METRICS_OPENMETRICS;
			break;
		case OPT_VERSION:
			fs_print_version();
			fs_free_params(p);
			return 1;
		case 'h':
			fs_usage(mode, stdout);
			fs_free_params(p);
			return 1;
		case ':':
			refused(arg, opt, sizeof(opt));
			bad(p, "option '%s' needs a value", opt);
			goto fail;
		default:
			refused(arg, opt, sizeof(opt));
			bad(p, "unknown option '%s' (see --help)", opt);
			goto fail;
		}
		if (mode == FS_MODE_TOP && hist_only(c)) {
			opt_name(c, opt, sizeof(opt));
			bad(p, "option '%s' is only valid for hist", opt);
			goto fail;
		}
	}
	if (optind < argc) {
		bad(p, "unexpected argument '%s'", argv[optind]);
		goto fail;
	}
	if (!fs_cpuset_count(&p->cpus)) {
		bad(p, "no CPU selected");
		goto fail;
	}
	if (p->nr_on_threshold && !p->threshold_ns) {
		bad(p, "--on-threshold needs a threshold: -T or -a");
		goto fail;
	}
	if (fs_params_load(p) && p->server_only) {
		bad(p, "--what-if and --target-starvation need the scheduler's events: not with --server-only");
		goto fail;
	}
	if ((unsigned long long)p->entries * p->bucket_ns / p->entries !=
	    p->bucket_ns) {
		bad(p, "bucket size times entries overflows");
		goto fail;
	}
	fs_debug_on = p->debug;
	return 0;

bad_value:
	bad(p, "%s", err);
fail:
	fs_free_params(p);
	return -1;
}
