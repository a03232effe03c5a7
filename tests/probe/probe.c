// SPDX-License-Identifier: GPL-2.0
/*
 * Test probes: an independent oracle for the fair server tracer.
 *
 * Built with -DPROBE_POLICY_FAIR this is fair-probe, a SCHED_OTHER busy
 * loop; built with -DPROBE_POLICY_RT it is rt-probe, the same loop run as
 * SCHED_FIFO (or SCHED_RR, or SCHED_DEADLINE). The loop reads CLOCK_MONOTONIC back to back; whenever two
 * consecutive reads are further apart than the gap threshold, the task
 * was kept off the CPU for that long and the interval is recorded as a
 * gap. At the end it prints what the task experienced as key=value lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if defined(PROBE_POLICY_FAIR) && defined(PROBE_POLICY_RT)
#error "define only one of PROBE_POLICY_FAIR and PROBE_POLICY_RT"
#elif defined(PROBE_POLICY_FAIR)
#define PROG		"fair-probe"
#define PROBE_KIND	"fair"
#define PROBE_POLICY	SCHED_OTHER
#define POLICY_NAME	"SCHED_OTHER"
#elif defined(PROBE_POLICY_RT)
#define PROG		"rt-probe"
#define PROBE_KIND	"rt"
#define PROBE_POLICY	SCHED_FIFO
#define POLICY_NAME	"SCHED_FIFO"
#else
#error "define PROBE_POLICY_FAIR or PROBE_POLICY_RT"
#endif

#define NSEC_PER_USEC	1000LL
#define NSEC_PER_MSEC	1000000LL
#define NSEC_PER_SEC	1000000000LL

#define DEFAULT_GAP_US	100
#define DEFAULT_PRIO	50
/* Upper bounds that keep every nanosecond sum far from overflow. */
#define MAX_DURATION_S	1000000000ULL
#define MAX_GAP_US	1000000000ULL
#define SCHEDSTAT_PATH	"/proc/self/schedstat"
#define SCHEDSTAT_LEAD_NS	(50 * NSEC_PER_MSEC)
/* With -o, a clock jump with more CPU time charged in it is a stall. */
#define STALL_NS	(1 * NSEC_PER_MSEC)

/*
 * A listed interval: an off-CPU gap (its absolute start and length), or a
 * wake-up (when it was due and how late it ran), CLOCK_MONOTONIC ns.
 */
struct span {
	int64_t at;
	int64_t len;
	long runs;	/* turns on the CPU in it the thread never saw */
	int64_t charged;	/* CPU time the kernel charged inside it */
	/*
	 * A wake-up's: of its latency, the time the kernel counted the
	 * thread runnable but waiting for a CPU (schedstat's run delay);
	 * -1 if not known.
	 */
	int64_t queued;
};

/* A growable list of spans. */
struct spans {
	struct span *v;
	size_t nr, cap;
};

/* Gap statistics, always kept; the episode array only with -l. */
struct gap_stats {
	uint64_t count;
	int64_t min;
	int64_t max;
	int64_t sum;
	uint64_t over_1ms;
	uint64_t over_10ms;
	uint64_t over_100ms;
	uint64_t over_500ms;
	struct spans list;
	/* With -o: clock jumps with CPU time charged in them (stalls). */
	uint64_t stalls;
	int64_t stall_max;	/* the most CPU time charged in one */
	struct spans stall_list;
	/* The latest stall: where it began, its length, the time charged. */
	int64_t last_stall, last_stall_len, last_stall_charged;
	/*
	 * With -o: the clock read a measurement ended on, and the thread's
	 * CPU time then. The next measurement starts from that read, so the
	 * CPU time the thread is charged from there on (the cycle's own
	 * work, or a turn it never saw) is not taken for time off the CPU.
	 */
	int64_t last_read, last_cpu;
};

/* Parsed command line. */
struct options {
	int cpu;
	uint64_t duration_s;
	int64_t gap_ns;
	int prio;
	int list;
	int64_t start_at;	/* 0: start at once */
	/* --cycle: run for run_ns, then sleep until the next cycle. */
	int64_t run_ns;		/* 0: spin all the time */
	int64_t period_ns;
	int64_t jitter_ns;	/* each cycle is period + [0, jitter) long */
	int work;		/* run run_ns of CPU time, not until due + run */
	int off_cpu;		/* count only time the thread was off the CPU */
	/* rt-probe: SCHED_FIFO, SCHED_RR or SCHED_DEADLINE (dl_* in ns). */
	int policy;
	uint64_t dl_runtime, dl_deadline, dl_period;
	int nice;		/* fair-probe */
	const char *ready;	/* -R: created once set up, NULL: none */
	const char *start_file;	/* -S: holds the start time, once written */
	int64_t late_ns;	/* -S: how late the start time was seen */
	int waker_cpu;		/* -W: woken by a FIFO thread there, -1: none */
};

/*
 * fair-probe -W: a SCHED_FIFO thread on another CPU that wakes the probe
 * when a cycle is due. The probe writes the due time into one pipe and
 * blocks reading the other; the waker sleeps until then and writes a
 * byte. A real-time thread's sleep ends in a hard timer even on
 * PREEMPT_RT, where a fair task's own sleep ends in ksoftirqd.
 */
struct waker {
	int cpu;
	int due_fd[2];		/* probe -> waker: the next due time */
	int wake_fd[2];		/* waker -> probe: one byte per wake-up */
	pthread_t thread;
};

/* The layout of sched_setattr(2)'s argument, which libc does not declare. */
struct probe_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE	6
#endif

/* Wake-up latencies of a cycling probe. */
struct wake_stats {
	uint64_t count;
	int64_t max;
	int64_t sum;
	uint64_t over_1ms;
	int64_t sum_over_1ms;
	struct spans list;
	struct spans sleeps;	/* -l: when it slept, not runnable */
	/*
	 * Cycles that ran on into the next, due before the run was over, and
	 * of those the ones the emulator made late (-o): the clock jumped
	 * over the next cycle's due time in a stall, and without the time
	 * charged in that stall the thread would have been in time.
	 */
	uint64_t overruns;
	uint64_t overruns_stalled;
	struct spans overrun_list;	/* -l: due, late by, stall charged */
};

static volatile sig_atomic_t stop_requested;

/* Print "PROG: <reason>" on stderr and exit 1. */
static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", PROG);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static int64_t read_clock(clockid_t clk, const char *name);

/* Print the usage text on stdout. */
static void usage(void)
{
	printf("Usage: %s -c CPU [options]\n"
	       "\n"
	       "Busy loop as " POLICY_NAME " (by default) pinned to one CPU, reading\n"
	       "CLOCK_MONOTONIC back to back. Whenever two consecutive reads\n"
	       "differ by more than the gap threshold, the task was kept off\n"
	       "the CPU: that interval is recorded as a gap (start = the\n"
	       "earlier read, length = the difference). Stops on SIGINT or\n"
	       "SIGTERM, or when the duration has elapsed. Its memory is locked\n"
	       "(mlockall), so that no page fault is timed as a gap.\n"
	       "\n"
	       "Options:\n"
	       "  -c, --cpu N             pin to CPU N (required)\n"
	       "  -d, --duration SECONDS  measure for SECONDS (whole number >= 1);\n"
	       "                          default: until SIGINT/SIGTERM\n"
	       "  -g, --gap-threshold US  smallest clock jump counted as a gap,\n"
	       "                          in microseconds (>= 1, default %d)\n"
#ifdef PROBE_POLICY_RT
	       "  -p, --priority N        real-time priority, 1..99 (default %d)\n"
	       "  -r, --rr                SCHED_RR instead of SCHED_FIFO\n"
	       "  -D, --deadline RUNTIME/DEADLINE/PERIOD\n"
	       "                          SCHED_DEADLINE with these parameters (us)\n"
	       "                          instead of SCHED_FIFO\n"
#else
	       "  -n, --nice N            nice level, -20..19 (default 0)\n"
#endif
	       "  -l, --list              also print every gap episode\n"
	       "  -R, --ready FILE        create FILE once pinned and under its policy,\n"
	       "                          before waiting for the start (see -s)\n"
	       "  -S, --start-file FILE   once set up, wait for FILE to hold NS, then as -s\n"
	       "                          (the start is chosen once every probe is ready)\n"
	       "  -s, --start-at NS       start measuring at CLOCK_MONOTONIC time NS\n"
	       "                          (lets probes on one CPU share one window;\n"
	       "                          fair-probe spins, rt-probe sleeps until NS;\n"
	       "                          the window is then exactly [NS, NS + duration])\n"
	       "  -C, --cycle RUN/PERIOD[/JITTER]\n"
	       "                          in ms: run RUN, then sleep until the next\n"
	       "                          cycle, PERIOD (+ a pseudo-random part of\n"
	       "                          JITTER) after the last one began; a fair-probe\n"
	       "                          records how late it ran after each wake-up\n"
	       "                          (none when it is behind and does not sleep)\n"
	       "  -w, --work              with -C, run RUN of its own CPU time after\n"
	       "                          each wake-up (a fixed amount of work), not\n"
	       "                          until RUN after the cycle was due\n"
#ifdef PROBE_POLICY_FAIR
	       "  -W, --waker CPU         with -C, be woken by a SCHED_FIFO thread\n"
	       "                          of its own on CPU (a pipe write when the\n"
	       "                          cycle is due) instead of its own timer\n"
#endif
	       "  -o, --off-cpu           count in gaps and wake-ups only the time the\n"
	       "                          thread was off the CPU: the clock jump less\n"
	       "                          what its own CPU time advanced (under an\n"
	       "                          emulator, a vCPU that is not run for a while\n"
	       "                          is a gap in which the thread stays current)\n"
	       "      --now               print CLOCK_MONOTONIC in ns and exit\n"
	       "  -h, --help              print this text and exit\n"
	       "\n"
	       "Output on stdout, one key=value per line, times in nanoseconds:\n"
	       "  probe                   which probe: fair or rt (here: "
	       PROBE_KIND ")\n"
	       "  cpu                     the CPU it was pinned to\n"
	       "  policy                  SCHED_OTHER, SCHED_FIFO, SCHED_RR or\n"
	       "                          SCHED_DEADLINE\n"
	       "  pid                     its process id\n"
	       "  wall_ns                 measurement wall time, first to last\n"
	       "                          clock read\n"
	       "  cpu_ns                  the thread's CPU time over the\n"
	       "                          measurement (CLOCK_THREAD_CPUTIME_ID)\n"
	       "  schedstat_run_ns        on-CPU time over the measurement from\n"
	       "                          the first field of " SCHEDSTAT_PATH ";\n"
	       "                          -1 when the file is missing\n"
	       "  schedstat_wait_ns       time runnable but waiting for the CPU\n"
	       "                          (second field) from the set-up (rt-probe:\n"
	       "                          50 ms before the start) to the end; -1\n"
	       "                          when the file is missing\n"
	       "  share_pct               cpu_ns * 100 / wall_ns, 2 decimals\n"
	       "  late_ns                 with -S: how long after the start its\n"
	       "                          set-up ended; not 0: its first gap holds\n"
	       "                          its own set-up, the figures do not stand\n"
	       "  run_ns                  wall_ns minus the sum of the gaps: the\n"
	       "                          time it saw itself running\n"
	       "  gaps                    number of gaps\n"
	       "  gap_min_ns              shortest gap (0 when no gaps)\n"
	       "  gap_avg_ns              mean gap, rounded down (0 when no gaps)\n"
	       "  gap_max_ns              longest gap (0 when no gaps)\n"
	       "  gaps_over_1ms           gaps longer than 1 ms\n"
	       "  gaps_over_10ms          gaps longer than 10 ms\n"
	       "  gaps_over_100ms         gaps longer than 100 ms\n"
	       "  gaps_over_500ms         gaps longer than 500 ms\n"
	       "With -C, the wake-ups (a wake-up's latency is the time from when it\n"
	       "was due to the first clock read after it):\n"
	       "  wakes                   number of wake-ups\n"
	       "  wake_max_ns             the largest latency\n"
	       "  wake_avg_ns             the mean latency\n"
	       "  wakes_over_1ms          wake-ups later than 1 ms\n"
	       "  wake_avg_over_1ms_ns    their mean latency\n"
	       "  overruns                cycles whose run went on past the next\n"
	       "                          cycle's due time (no sleep between)\n"
	       "  overruns_stalled        with -o, those the emulator made: a stall\n"
	       "                          spanned the next due time and charged\n"
	       "                          more than the overrun and the cycle's\n"
	       "                          slack (period less run)\n"
	       "With -o:\n"
	       "  stalls                  clock jumps in which the kernel charged\n"
	       "                          the thread over 1 ms of CPU time that it\n"
	       "                          never saw itself run (it stayed current\n"
	       "                          while its virtual CPU was not run)\n"
	       "  stall_max_ns            the most CPU time charged in one\n"
	       "With -l, then one line per gap, in order:\n"
	       "  gap start_ns=OFFSET len_ns=LENGTH runs=N charged_ns=C\n"
	       "  (OFFSET from the start of the measurement; N the turns on\n"
	       "  the CPU in it that the thread never saw: context switches\n"
	       "  beyond the one that began it, so not 0: several waits; C,\n"
	       "  with -o, the CPU time the kernel charged inside the jump of\n"
	       "  the clock: a turn that went on while the CPU was not run,\n"
	       "  at the jump's start or its end)\n"
	       "and, with -C, one line per wake-up and per sleep:\n"
	       "  wake due_ns=OFFSET lat_ns=LATENCY runs=N queued_ns=Q\n"
	       "  (Q: of the latency, the time the kernel counted the thread\n"
	       "  runnable but waiting for a CPU, its run delay in\n"
	       "  /proc/self/schedstat, -1 if unknown; the rest came before\n"
	       "  it was runnable: a timer or an interrupt late. A gap while\n"
	       "  it spins is a preemption, runnable all through)\n"
	       "  sleep start_ns=OFFSET len_ns=LENGTH\n"
	       "  overrun due_ns=OFFSET late_ns=LATE stalled_ns=C emulator=E\n"
	       "  (a cycle that ran on LATE past the next one's due time; C,\n"
	       "  with -o, the CPU time charged in a stall that spanned it;\n"
	       "  E 1 if the emulator made it, as overruns_stalled counts)\n"
	       "and, with -o, one line per stall (the jump, and the CPU time\n"
	       "charged somewhere in it):\n"
	       "  stall start_ns=OFFSET len_ns=LENGTH charged_ns=C\n"
	       "and last:\n"
	       "  cpu_after_ns            the whole process's CPU time from the\n"
	       "                          end of the measurement to the end of\n"
	       "                          its report (CLOCK_PROCESS_CPUTIME_ID),\n"
	       "                          rt-probe's as SCHED_OTHER but its\n"
	       "                          last /proc read\n"
	       "\n"
	       "Exit status: 0 on a normal end, 1 on any error.\n",
	       PROG, DEFAULT_GAP_US
#ifdef PROBE_POLICY_RT
	       , DEFAULT_PRIO
#endif
	       );
}

/* Strictly parse a decimal number in 0..max; return 0 or -1. */
static int parse_u64(const char *str, uint64_t max, uint64_t *val)
{
	unsigned long long v;
	char *end;

	if (str[0] < '0' || str[0] > '9')
		return -1;
	errno = 0;
	v = strtoull(str, &end, 10);
	if (errno || *end != '\0' || v > max)
		return -1;
	*val = v;
	return 0;
}

/* Parse "RUN/PERIOD[/JITTER]" (ms) for --cycle; exits on error. */
static void parse_cycle(const char *arg, struct options *opt)
{
	uint64_t v[3] = { 0, 0, 0 };
	char buf[64], *part, *save = NULL;
	int n = 0;

	if (strlen(arg) >= sizeof(buf))
		die("invalid cycle '%s'", arg);
	strcpy(buf, arg);
	for (part = strtok_r(buf, "/", &save); part && n < 3;
	     part = strtok_r(NULL, "/", &save))
		if (parse_u64(part, 1000000, &v[n++]))
			die("invalid cycle '%s' (want RUN/PERIOD[/JITTER] in ms)",
			    arg);
	if (part || n < 2 || !v[0] || v[0] >= v[1])
		die("invalid cycle '%s' (want RUN/PERIOD[/JITTER] in ms, 0 < RUN < PERIOD)",
		    arg);
	opt->run_ns = (int64_t)v[0] * NSEC_PER_MSEC;
	opt->period_ns = (int64_t)v[1] * NSEC_PER_MSEC;
	opt->jitter_ns = (int64_t)v[2] * NSEC_PER_MSEC;
}

#ifdef PROBE_POLICY_RT
/* Parse "RUNTIME/DEADLINE/PERIOD" (us) for --deadline; exits on error. */
static void parse_deadline(const char *arg, struct options *opt)
{
	uint64_t v[3];
	char buf[64], *part, *save = NULL;
	int n = 0;

	if (strlen(arg) >= sizeof(buf))
		die("invalid deadline parameters '%s'", arg);
	strcpy(buf, arg);
	for (part = strtok_r(buf, "/", &save); part && n < 3;
	     part = strtok_r(NULL, "/", &save))
		if (parse_u64(part, 10000000, &v[n++]))
			die("invalid deadline parameters '%s' (want RUNTIME/DEADLINE/PERIOD in us)",
			    arg);
	if (part || n < 3 || !v[0] || v[0] > v[1] || v[1] > v[2])
		die("invalid deadline parameters '%s' (want 0 < RUNTIME <= DEADLINE <= PERIOD, in us)",
		    arg);
	opt->policy = SCHED_DEADLINE;
	opt->dl_runtime = v[0] * NSEC_PER_USEC;
	opt->dl_deadline = v[1] * NSEC_PER_USEC;
	opt->dl_period = v[2] * NSEC_PER_USEC;
}
#endif

/* Parse the command line into @opt; exits on -h and on any error. */
static void parse_args(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "cpu",		required_argument,	NULL, 'c' },
		{ "duration",		required_argument,	NULL, 'd' },
		{ "gap-threshold",	required_argument,	NULL, 'g' },
		{ "priority",		required_argument,	NULL, 'p' },
		{ "rr",			no_argument,		NULL, 'r' },
		{ "deadline",		required_argument,	NULL, 'D' },
		{ "nice",		required_argument,	NULL, 'n' },
		{ "ready",		required_argument,	NULL, 'R' },
		{ "start-file",		required_argument,	NULL, 'S' },
		{ "list",		no_argument,		NULL, 'l' },
		{ "start-at",		required_argument,	NULL, 's' },
		{ "cycle",		required_argument,	NULL, 'C' },
		{ "off-cpu",		no_argument,		NULL, 'o' },
		{ "work",		no_argument,		NULL, 'w' },
		{ "waker",		required_argument,	NULL, 'W' },
		{ "now",		no_argument,		NULL, 'N' },
		{ "help",		no_argument,		NULL, 'h' },
		{ NULL,			0,			NULL, 0 }
	};
	uint64_t v;
	int c;

	opt->cpu = -1;
	opt->duration_s = 0;
	opt->gap_ns = DEFAULT_GAP_US * NSEC_PER_USEC;
	opt->prio = DEFAULT_PRIO;
	opt->list = 0;
	opt->start_at = 0;
	opt->run_ns = 0;
	opt->off_cpu = 0;
	opt->work = 0;
	opt->policy = PROBE_POLICY;
	opt->nice = 0;
	opt->ready = NULL;
	opt->start_file = NULL;
	opt->late_ns = 0;
	opt->waker_cpu = -1;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:d:g:p:rD:n:R:S:ls:C:owW:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'c':
			if (parse_u64(optarg, CPU_SETSIZE - 1, &v))
				die("invalid CPU '%s' (want 0..%d)", optarg,
				    CPU_SETSIZE - 1);
			opt->cpu = (int)v;
			break;
		case 'd':
			if (parse_u64(optarg, MAX_DURATION_S, &v) || v == 0)
				die("invalid duration '%s' (want whole seconds, 1..%llu)",
				    optarg, MAX_DURATION_S);
			opt->duration_s = v;
			break;
		case 'g':
			if (parse_u64(optarg, MAX_GAP_US, &v) || v == 0)
				die("invalid gap threshold '%s' (want microseconds, 1..%llu)",
				    optarg, MAX_GAP_US);
			opt->gap_ns = (int64_t)v * NSEC_PER_USEC;
			break;
		case 'p':
#ifdef PROBE_POLICY_RT
			if (parse_u64(optarg, 99, &v) || v == 0)
				die("invalid priority '%s' (want 1..99)", optarg);
			opt->prio = (int)v;
			break;
#else
			die("option -p/--priority is only valid for rt-probe");
#endif
		case 'r':
		case 'D':
#ifdef PROBE_POLICY_RT
			if (c == 'r')
				opt->policy = SCHED_RR;
			else
				parse_deadline(optarg, opt);
			break;
#else
			die("options -r/--rr and -D/--deadline are only valid for rt-probe");
#endif
		case 'n': {
#ifdef PROBE_POLICY_FAIR
			const char *num = optarg[0] == '-' ? optarg + 1 : optarg;

			if (parse_u64(num, 20, &v) || (optarg[0] != '-' && v > 19))
				die("invalid nice level '%s' (want -20..19)", optarg);
			opt->nice = optarg[0] == '-' ? -(int)v : (int)v;
			break;
#else
			die("option -n/--nice is only valid for fair-probe");
#endif
		}
		case 'l':
			opt->list = 1;
			break;
		case 'R':
			opt->ready = optarg;
			break;
		case 'S':
			opt->start_file = optarg;
			break;
		case 's':
			if (parse_u64(optarg, INT64_MAX, &v) || !v)
				die("invalid start time '%s'", optarg);
			opt->start_at = (int64_t)v;
			break;
		case 'C':
			parse_cycle(optarg, opt);
			break;
		case 'o':
			opt->off_cpu = 1;
			break;
		case 'w':
			opt->work = 1;
			break;
		case 'W':
#ifdef PROBE_POLICY_FAIR
			if (parse_u64(optarg, CPU_SETSIZE - 1, &v))
				die("invalid waker CPU '%s' (want 0..%d)", optarg,
				    CPU_SETSIZE - 1);
			opt->waker_cpu = (int)v;
			break;
#else
			die("option -W/--waker is only valid for fair-probe");
#endif
		case 'N':
			printf("%" PRId64 "\n",
			       read_clock(CLOCK_MONOTONIC, "CLOCK_MONOTONIC"));
			exit(0);
		case 'h':
			usage();
			if (fflush(stdout) != 0 || ferror(stdout))
				die("writing usage: %s", strerror(errno));
			exit(0);
		case ':':
			die("option '%s' requires an argument", argv[optind - 1]);
		default:
			if (optopt)
				die("unknown option '-%c' (see --help)", optopt);
			die("unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		die("unexpected argument '%s'", argv[optind]);
	if (opt->cpu < 0)
		die("missing required option -c/--cpu");
	if (opt->waker_cpu >= 0 && !opt->run_ns)
		die("option -W/--waker needs -C/--cycle");
	if (opt->waker_cpu >= 0 && opt->waker_cpu == opt->cpu)
		die("the waker's CPU must not be the probe's (%d)", opt->cpu);
}

/* Signal handler for SIGINT and SIGTERM: only request a stop. */
static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* Install on_signal for SIGINT and SIGTERM. */
static void setup_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	if (sigemptyset(&sa.sa_mask))
		die("sigemptyset: %s", strerror(errno));
	if (sigaction(SIGINT, &sa, NULL))
		die("sigaction(SIGINT): %s", strerror(errno));
	if (sigaction(SIGTERM, &sa, NULL))
		die("sigaction(SIGTERM): %s", strerror(errno));
}

/* The name of a scheduling policy, for output. */
static const char *policy_name(int policy)
{
	switch (policy) {
	case SCHED_FIFO:
		return "SCHED_FIFO";
	case SCHED_RR:
		return "SCHED_RR";
	case SCHED_DEADLINE:
		return "SCHED_DEADLINE";
	default:
		return "SCHED_OTHER";
	}
}

/* Pin to @cpu, check that we run there, and set the probe's policy. */
static void setup_sched(const struct options *opt)
{
	struct sched_param sp;
	cpu_set_t set;
	int now;

	CPU_ZERO(&set);
	CPU_SET(opt->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity(CPU %d): %s", opt->cpu, strerror(errno));
	now = sched_getcpu();
	if (now < 0)
		die("sched_getcpu: %s", strerror(errno));
	if (now != opt->cpu)
		die("running on CPU %d after pinning to CPU %d", now, opt->cpu);

	if (opt->policy == SCHED_DEADLINE) {
		struct probe_sched_attr attr = {
			.size = sizeof(attr),
			.sched_policy = SCHED_DEADLINE,
			.sched_runtime = opt->dl_runtime,
			.sched_deadline = opt->dl_deadline,
			.sched_period = opt->dl_period,
		};

		if (syscall(SYS_sched_setattr, 0, &attr, 0))
			die("sched_setattr(SCHED_DEADLINE, %" PRIu64 "/%" PRIu64 "/%" PRIu64 " ns): %s",
			    opt->dl_runtime, opt->dl_deadline, opt->dl_period,
			    strerror(errno));
		return;
	}
	if (opt->nice && setpriority(PRIO_PROCESS, 0, opt->nice))
		die("setpriority(nice %d): %s", opt->nice, strerror(errno));
	memset(&sp, 0, sizeof(sp));
#ifdef PROBE_POLICY_RT
	sp.sched_priority = opt->prio;
#endif
	if (sched_setscheduler(0, opt->policy, &sp))
		die("sched_setscheduler(%s, %d): %s", policy_name(opt->policy),
		    sp.sched_priority, strerror(errno));
}

/*
 * Lock every page, now and to come, in memory. The probe's code is read
 * from the checkout (9p in the guest): a first call into a page not yet
 * mapped would block in a page fault that the host's file server serves
 * when it can, and the probe would time that as a wait.
 */
static void lock_memory(void)
{
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		die("mlockall: %s", strerror(errno));
}

#ifdef PROBE_POLICY_RT
/*
 * After the window, become a fair task: the report takes tens of
 * milliseconds to write under an emulator, and as a real-time task it
 * would starve the CPU's fair tasks outside every probe's window, where
 * the tool, which stops a little later, still counts.
 */
static void leave_policy(void)
{
	struct sched_param sp = { .sched_priority = 0 };

	if (sched_setscheduler(0, SCHED_OTHER, &sp))
		die("sched_setscheduler(SCHED_OTHER): %s", strerror(errno));
}
#endif

/* Create @file: the probe runs on its CPU, with its policy. */
static void mark_ready(const char *file)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || close(fd))
		die("cannot create %s: %s", file, strerror(errno));
}

/*
 * The start time that @file holds once written (CLOCK_MONOTONIC ns), read
 * again at each change of its directory. Exits on a bad value or a stop.
 */
static int64_t read_start(const char *file)
{
	char buf[32], dir[PATH_MAX];
	uint64_t v;
	ssize_t n;
	int fd, ifd;

	/*
	 * Woken by the file's writes, not polling: a real-time probe that
	 * polled every 10 ms while a slow tool started (6 s on a stock
	 * kernel, campaign seed 32) ran 240 ms before its window, and the
	 * server served the fair probe it starved there, where no oracle
	 * looks.
	 */
	if (snprintf(dir, sizeof(dir), "%s", file) >= (int)sizeof(dir))
		die("path too long: %s", file);
	ifd = inotify_init1(IN_CLOEXEC);
	if (ifd < 0)
		die("inotify_init1: %s", strerror(errno));
	if (inotify_add_watch(ifd, dirname(dir), IN_CLOSE_WRITE | IN_MODIFY |
			      IN_MOVED_TO | IN_CREATE) < 0)
		die("cannot watch %s: %s", dir, strerror(errno));
	/*
	 * The writer may be caught between creating the file and writing
	 * it: only a line that ends in a newline is the whole start time.
	 */
	for (;;) {
		struct pollfd pfd = { .fd = ifd, .events = POLLIN };
		char ev[4096];

		fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0 && errno != ENOENT)
			die("cannot open %s: %s", file, strerror(errno));
		if (fd >= 0) {
			n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			if (n < 0)
				die("cannot read %s: %s", file, strerror(errno));
			buf[n] = '\0';
			if (memchr(buf, '\n', n))
				break;
		}
		if (stop_requested)
			exit(1);
		/* A second at most, to see a stop request. */
		if (poll(&pfd, 1, 1000) < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if ((pfd.revents & POLLIN) && read(ifd, ev, sizeof(ev)) < 0 &&
		    errno != EINTR)
			die("reading inotify events: %s", strerror(errno));
	}
	if (close(ifd))
		die("close(inotify): %s", strerror(errno));
	buf[strcspn(buf, "\n")] = '\0';
	if (parse_u64(buf, INT64_MAX, &v) || !v)
		die("invalid start time '%s' in %s", buf, file);
	return (int64_t)v;
}

/* Sleep until CLOCK_MONOTONIC @when; false if stopped meanwhile. */
static bool sleep_until(int64_t when)
{
	struct timespec ts = {
		.tv_sec = when / NSEC_PER_SEC,
		.tv_nsec = when % NSEC_PER_SEC,
	};
	int err;

	while ((err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				      NULL))) {
		if (err != EINTR)
			die("clock_nanosleep: %s", strerror(err));
		if (stop_requested)
			return false;
	}
	return true;
}

/* fair-probe -W's waker; cpu -1 while there is none. */
static struct waker waker = { .cpu = -1 };

/* The waker thread: sleep until each due time it is sent, then write. */
static void *waker_main(void *arg)
{
	struct waker *w = arg;
	int64_t due;
	ssize_t n;

	for (;;) {
		n = read(w->due_fd[0], &due, sizeof(due));
		if (n == 0)
			return NULL;
		if (n != sizeof(due))
			die("waker: read: %s", n < 0 ? strerror(errno) : "short read");
		if (!sleep_until(due))
			return NULL;
		if (write(w->wake_fd[1], "w", 1) != 1)
			die("waker: write: %s", strerror(errno));
	}
}

/*
 * Start the waker on @cpu as SCHED_FIFO: its signals blocked, so that
 * SIGINT and SIGTERM reach the probe's thread, and a small stack, as
 * mlockall locks it whole.
 */
static void start_waker(int cpu)
{
	struct sched_param sp = { .sched_priority = DEFAULT_PRIO };
	sigset_t block, old;
	pthread_attr_t attr;
	cpu_set_t set;
	int err;

	if (pipe2(waker.due_fd, O_CLOEXEC) || pipe2(waker.wake_fd, O_CLOEXEC))
		die("pipe2: %s", strerror(errno));
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	err = pthread_attr_init(&attr);
	if (!err)
		err = pthread_attr_setstacksize(&attr, 64 * 1024);
	if (!err)
		err = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (!err)
		err = pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	if (!err)
		err = pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	if (!err)
		err = pthread_attr_setschedparam(&attr, &sp);
	if (err)
		die("waker thread attributes: %s", strerror(err));
	if (sigemptyset(&block) || sigaddset(&block, SIGINT) ||
	    sigaddset(&block, SIGTERM))
		die("sigaddset: %s", strerror(errno));
	err = pthread_sigmask(SIG_BLOCK, &block, &old);
	if (!err)
		err = pthread_create(&waker.thread, &attr, waker_main, &waker);
	if (err)
		die("waker thread on CPU %d: %s", cpu, strerror(err));
	err = pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!err)
		err = pthread_attr_destroy(&attr);
	if (err)
		die("waker thread set-up: %s", strerror(err));
	waker.cpu = cpu;
}

/*
 * Block until @when: asleep on the probe's own timer, or, with a waker,
 * until the waker's byte comes. False if stopped meanwhile.
 */
static bool wait_due(int64_t when)
{
	char b;
	ssize_t n;

	if (waker.cpu < 0)
		return sleep_until(when);
	if (write(waker.due_fd[1], &when, sizeof(when)) != sizeof(when))
		die("write to the waker: %s", strerror(errno));
	while ((n = read(waker.wake_fd[0], &b, 1)) != 1) {
		if (n < 0 && errno != EINTR)
			die("read from the waker: %s", strerror(errno));
		if (n == 0)
			die("read from the waker: end of file");
		if (stop_requested)
			return false;
	}
	return true;
}

/* Stop the waker, wherever it is, and close its pipes. */
static void stop_waker(void)
{
	int err, i;

	if (waker.cpu < 0)
		return;
	err = pthread_cancel(waker.thread);
	if (!err)
		err = pthread_join(waker.thread, NULL);
	if (err)
		die("stopping the waker: %s", strerror(err));
	for (i = 0; i < 2; i++)
		if (close(waker.due_fd[i]) || close(waker.wake_fd[i]))
			die("close: %s", strerror(errno));
	waker.cpu = -1;
}

/* The thread's context switches at the last count (unseen_runs()). */
static long switch_mark;

/* The thread's context switches so far, voluntary or not. */
static long switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		die("getrusage(RUSAGE_THREAD): %s", strerror(errno));
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

/*
 * Called at the end of a gap or a wake-up latency: the thread's turns on
 * the CPU within it that it never saw, the switches since the last count
 * beyond the one that began it. Under an emulator a switch-in can outlast
 * a short turn, so the thread may not run a single instruction of its own
 * in a turn the kernel gave it: such a gap is several waits, not one.
 */
static long unseen_runs(void)
{
	long now = switches(), runs = now - switch_mark - 1;

	switch_mark = now;
	return runs > 0 ? runs : 0;
}

/*
 * Wait until CLOCK_MONOTONIC reaches @when; exit 1 if stopped meanwhile.
 * fair-probe spins, so that it is on the CPU at @when; rt-probe sleeps, so
 * that it leaves the CPU to the fair-probe until then.
 */
static void wait_until(int64_t when)
{
#ifdef PROBE_POLICY_RT
	if (!sleep_until(when))
		die("interrupted while waiting for the start time");
#else
	while (read_clock(CLOCK_MONOTONIC, "CLOCK_MONOTONIC") < when)
		if (stop_requested)
			die("interrupted while waiting for the start time");
#endif
}

/* Read @clk in nanoseconds; exit 1 on failure. */
static int64_t read_clock(clockid_t clk, const char *name)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		die("clock_gettime(%s): %s", name, strerror(errno));
	return (int64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* The two first fields of /proc/self/schedstat. */
struct schedstat {
	int64_t run;		/* ns on a CPU */
	int64_t wait;		/* ns runnable but waiting for a CPU */
};

/* /proc/self/schedstat, kept open for read_schedstat(); -2: not tried yet. */
static int schedstat_fd = -2;

/*
 * Read /proc/self/schedstat; both fields -1 if the file is missing. One
 * pread() of the file kept open: a wake-up's reading has to be short,
 * since a preemption after the kernel took the values and before the
 * clock is read counts as a wait before the wake-up.
 */
static struct schedstat read_schedstat(void)
{
	struct schedstat ss = { -1, -1 };
	unsigned long long run, wait;
	char buf[256];
	ssize_t len;

	if (schedstat_fd == -2) {
		schedstat_fd = open(SCHEDSTAT_PATH, O_RDONLY | O_CLOEXEC);
		if (schedstat_fd < 0 && errno != ENOENT)
			die("open(%s): %s", SCHEDSTAT_PATH, strerror(errno));
	}
	if (schedstat_fd < 0)
		return ss;
	len = pread(schedstat_fd, buf, sizeof(buf) - 1, 0);
	if (len < 0)
		die("pread(%s): %s", SCHEDSTAT_PATH, strerror(errno));
	buf[len] = '\0';

	if (sscanf(buf, "%llu %llu", &run, &wait) != 2 ||
	    run > INT64_MAX || wait > INT64_MAX)
		die("%s: unexpected contents", SCHEDSTAT_PATH);
	ss.run = (int64_t)run;
	ss.wait = (int64_t)wait;
	return ss;
}

/* Make room in @l for one more span; exit 1 when out of memory. */
static void spans_reserve(struct spans *l)
{
	struct span *grown;
	size_t cap;

	if (l->nr < l->cap)
		return;
	cap = l->cap ? l->cap * 2 : 1024;
	if (cap > SIZE_MAX / sizeof(*grown))
		die("too many spans to list");
	grown = realloc(l->v, cap * sizeof(*grown));
	if (!grown)
		die("realloc(%zu spans): %s", cap, strerror(errno));
	l->v = grown;
	l->cap = cap;
}

/* Append a span to @l; exit 1 when out of memory. */
static void spans_append(struct spans *l, int64_t at, int64_t len,
			 long runs, int64_t charged, int64_t queued)
{
	spans_reserve(l);
	l->v[l->nr].at = at;
	l->v[l->nr].len = len;
	l->v[l->nr].runs = runs;
	l->v[l->nr].charged = charged;
	l->v[l->nr].queued = queued;
	l->nr++;
}

/* Account one gap of @len ns that began at @start. */
static void record_gap(struct gap_stats *gs, int list, int64_t start,
		       int64_t len, long runs, int64_t charged)
{
	if (gs->count == 0 || len < gs->min)
		gs->min = len;
	if (gs->count == 0 || len > gs->max)
		gs->max = len;
	gs->count++;
	gs->sum += len;
	if (len > 1 * NSEC_PER_MSEC)
		gs->over_1ms++;
	if (len > 10 * NSEC_PER_MSEC)
		gs->over_10ms++;
	if (len > 100 * NSEC_PER_MSEC)
		gs->over_100ms++;
	if (len > 500 * NSEC_PER_MSEC)
		gs->over_500ms++;
	if (list)
		spans_append(&gs->list, start, len, runs, charged, -1);
}

/*
 * Account one clock jump from @start, @len ns long, in which the kernel
 * charged the thread @charged ns of CPU time it never saw itself run: its
 * virtual CPU was not run (or an interrupt ran) while it stayed current.
 */
static void record_stall(struct gap_stats *gs, int list, int64_t start,
			 int64_t len, int64_t charged)
{
	gs->stalls++;
	gs->last_stall = start;
	gs->last_stall_len = len;
	gs->last_stall_charged = charged;
	if (charged > gs->stall_max)
		gs->stall_max = charged;
	if (list)
		spans_append(&gs->stall_list, start, len, 0, charged, -1);
}

/*
 * With -o: the clock read @now is where the next measurement may start;
 * keep the thread's CPU time with it (read just after, while it runs).
 */
static void mark_read(struct gap_stats *gs, int64_t now)
{
	gs->last_read = now;
	gs->last_cpu = read_clock(CLOCK_THREAD_CPUTIME_ID,
				  "CLOCK_THREAD_CPUTIME_ID");
}

/*
 * The measurement loop: spin on CLOCK_MONOTONIC until stopped or until
 * @deadline (0: none). Returns the last clock read.
 */
static int64_t measure(const struct options *opt, struct gap_stats *gs,
		       int64_t first, int64_t deadline)
{
	int64_t prev = first;
	int64_t now = first;
	int64_t delta, cpu, mark = first, cpu_mark = 0, charged;
	long runs;

	if (opt->off_cpu)
		cpu_mark = first == gs->last_read ? gs->last_cpu :
			   read_clock(CLOCK_THREAD_CPUTIME_ID,
				      "CLOCK_THREAD_CPUTIME_ID");
	while (!stop_requested) {
		now = read_clock(CLOCK_MONOTONIC, "CLOCK_MONOTONIC");
		delta = now - prev;
		runs = delta > opt->gap_ns ? unseen_runs() : 0;
		charged = 0;
		if (delta > opt->gap_ns && opt->off_cpu) {
			/*
			 * Since the mark the thread ran all the time but in
			 * this gap: what the clock advanced beyond its CPU
			 * time is the time it spent off the CPU.
			 */
			cpu = read_clock(CLOCK_THREAD_CPUTIME_ID,
					 "CLOCK_THREAD_CPUTIME_ID");
			delta = (now - mark) - (cpu - cpu_mark);
			mark = now;
			cpu_mark = cpu;
			/*
			 * CPU time charged inside the jump: under an emulator
			 * a turn goes on while the virtual CPU is not run, at
			 * the jump's start or its end; where, the thread
			 * cannot tell.
			 */
			charged = now - prev - delta;
			if (charged > STALL_NS)
				record_stall(gs, opt->list, prev, now - prev,
					     charged);
		}
		if (delta > opt->gap_ns)
			record_gap(gs, opt->list, prev, delta, runs, charged);
		prev = now;
		if (deadline && now >= deadline)
			break;
	}
	if (opt->off_cpu)
		mark_read(gs, now);
	return now;
}

/*
 * Account one wake-up that was due at @due and ran @lat ns later, @queued
 * of them runnable (-1: not known).
 */
static void record_wake(struct wake_stats *ws, int list, int64_t due,
			int64_t lat, long runs, int64_t queued)
{
	if (ws->count == 0 || lat > ws->max)
		ws->max = lat;
	ws->count++;
	ws->sum += lat;
	if (lat > 1 * NSEC_PER_MSEC) {
		ws->over_1ms++;
		ws->sum_over_1ms += lat;
	}
	if (list)
		spans_append(&ws->list, due, lat, runs, 0, queued);
}

/*
 * One cycle's run (-C), from @now: until @due + run_ns, or with --work
 * until the thread's CPU time advanced by run_ns; never past @deadline.
 */
static int64_t run(const struct options *opt, struct gap_stats *gs,
		   int64_t now, int64_t due, int64_t deadline)
{
	int64_t cpu0, done, end = due + opt->run_ns;

	if (!opt->work)
		return measure(opt, gs, now,
			       deadline && end > deadline ? deadline : end);
	cpu0 = read_clock(CLOCK_THREAD_CPUTIME_ID, "CLOCK_THREAD_CPUTIME_ID");
	for (;;) {
		done = read_clock(CLOCK_THREAD_CPUTIME_ID,
				  "CLOCK_THREAD_CPUTIME_ID") - cpu0;
		if (done >= opt->run_ns || stop_requested ||
		    (deadline && now >= deadline))
			return now;
		/* The wall clock runs at least as fast as the CPU time. */
		end = now + opt->run_ns - done;
		if (deadline && end > deadline)
			end = deadline;
		now = measure(opt, gs, now, end);
	}
}

/*
 * A cycle's run went on to @now, past the next cycle's due time @due.
 * The emulator made it when a stall spanned @due and charged more than
 * the overrun and than the cycle's slack (period less run): the thread
 * stayed current, its virtual CPU unrun, through all the time it had
 * to sleep.
 */
static void overrun(const struct options *opt, struct gap_stats *gs,
		    struct wake_stats *ws, int64_t due, int64_t now)
{
	int64_t stalled = 0;
	bool emulator;

	if (gs->stalls && gs->last_stall < due &&
	    gs->last_stall + gs->last_stall_len >= due)
		stalled = gs->last_stall_charged;
	emulator = stalled > now - due &&
		   stalled >= opt->period_ns - opt->run_ns;
	ws->overruns++;
	if (emulator)
		ws->overruns_stalled++;
	/* The list keeps whether the emulator made it in runs. */
	if (opt->list)
		spans_append(&ws->overrun_list, due, now - due, emulator,
			     stalled, -1);
}

/*
 * The cycling loop (-C): spin for the run time, recording gaps, then sleep
 * until the next cycle is due, and record how late the wake-up ran. The
 * jitter is a fixed pseudo-random sequence, so runs repeat.
 */
static int64_t cycle(const struct options *opt, struct gap_stats *gs,
		     struct wake_stats *ws, int64_t first, int64_t deadline)
{
	uint64_t rnd = 0x9e3779b97f4a7c15ULL + (uint64_t)opt->cpu;
	int64_t due = first, now = first, cpu = 0, lat, delay = -1, queued;
	bool slept;
	long runs;

	for (;;) {
		now = run(opt, gs, now, due, deadline);
		if (stop_requested || (deadline && now >= deadline))
			break;
		due += opt->period_ns;
		if (opt->jitter_ns) {
			rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
			due += (int64_t)((rnd >> 33) % (uint64_t)opt->jitter_ns);
		}
		if (deadline && due >= deadline) {
			if (!sleep_until(deadline))
				break;
			now = read_clock(CLOCK_MONOTONIC, "CLOCK_MONOTONIC");
			break;
		}
		/*
		 * What it keeps for the sleep comes before a last clock read:
		 * a preemption in that work (system calls, an allocation) is
		 * a gap, not a wait the wake-up's latency would leave out.
		 * Only the entry into clock_nanosleep is left unseen.
		 */
		if (opt->off_cpu)
			cpu = read_clock(CLOCK_THREAD_CPUTIME_ID,
					 "CLOCK_THREAD_CPUTIME_ID");
		if (opt->list) {
			spans_reserve(&ws->sleeps);
			spans_reserve(&ws->overrun_list);
		}
		now = measure(opt, gs, now, now);
		/*
		 * The wake-up's unseen turns count from the last clock read;
		 * those before it belong to the gap that read may have ended.
		 */
		switch_mark = switches();
		/*
		 * Behind: the next cycle is due already, and it runs on with
		 * no sleep and so no wake-up (its time off the CPU is in its
		 * gaps).
		 */
		slept = due > now;
		if (!slept)
			overrun(opt, gs, ws, due, now);
		if (opt->list && slept)
			spans_append(&ws->sleeps, now, due - now, 0, 0, -1);
		/* The wake-up's run delay counts from here. */
		if (opt->list)
			delay = read_schedstat().wait;
		if (!wait_due(due))
			break;
		/*
		 * Behind, the next run goes on from the last clock read: a
		 * preemption here is its first gap, not lost between runs.
		 */
		if (!slept)
			continue;
		/*
		 * The run delay first: a preemption before the kernel takes
		 * it is in both figures, one after it in the latency only.
		 */
		queued = delay >= 0 ? read_schedstat().wait - delay : -1;
		now = read_clock(CLOCK_MONOTONIC, "CLOCK_MONOTONIC");
		lat = now - due;
		runs = unseen_runs();
		/* Less what it ran between going to sleep and now. */
		if (opt->off_cpu) {
			mark_read(gs, now);
			lat -= gs->last_cpu - cpu;
		}
		record_wake(ws, opt->list, due, lat, runs, queued);
	}
	return now;
}

/* Print the results as key=value lines (and the episodes with -l). */
static void report(const struct options *opt, const struct gap_stats *gs,
		   const struct wake_stats *ws, int64_t t0, int64_t wall,
		   int64_t cpu, const struct schedstat *ss)
{
	double share = wall > 0 ? (double)cpu * 100.0 / (double)wall : 0.0;
	size_t i;

	printf("probe=" PROBE_KIND "\n");
	printf("cpu=%d\n", opt->cpu);
	printf("policy=%s\n", policy_name(opt->policy));
	printf("pid=%d\n", (int)getpid());
	printf("wall_ns=%" PRId64 "\n", wall);
	printf("cpu_ns=%" PRId64 "\n", cpu);
	printf("schedstat_run_ns=%" PRId64 "\n", ss->run);
	printf("schedstat_wait_ns=%" PRId64 "\n", ss->wait);
	printf("share_pct=%.2f\n", share);
	if (opt->start_file)
		printf("late_ns=%" PRId64 "\n", opt->late_ns);
	printf("run_ns=%" PRId64 "\n", wall - gs->sum);
	printf("gaps=%" PRIu64 "\n", gs->count);
	printf("gap_min_ns=%" PRId64 "\n", gs->count ? gs->min : 0);
	printf("gap_avg_ns=%" PRId64 "\n",
	       gs->count ? gs->sum / (int64_t)gs->count : 0);
	printf("gap_max_ns=%" PRId64 "\n", gs->count ? gs->max : 0);
	printf("gaps_over_1ms=%" PRIu64 "\n", gs->over_1ms);
	printf("gaps_over_10ms=%" PRIu64 "\n", gs->over_10ms);
	printf("gaps_over_100ms=%" PRIu64 "\n", gs->over_100ms);
	printf("gaps_over_500ms=%" PRIu64 "\n", gs->over_500ms);
	if (opt->run_ns) {
		printf("wakes=%" PRIu64 "\n", ws->count);
		printf("wake_max_ns=%" PRId64 "\n", ws->count ? ws->max : 0);
		printf("wake_avg_ns=%" PRId64 "\n",
		       ws->count ? ws->sum / (int64_t)ws->count : 0);
		printf("wakes_over_1ms=%" PRIu64 "\n", ws->over_1ms);
		printf("wake_avg_over_1ms_ns=%" PRId64 "\n", ws->over_1ms ?
		       ws->sum_over_1ms / (int64_t)ws->over_1ms : 0);
		printf("overruns=%" PRIu64 "\n", ws->overruns);
		if (opt->off_cpu)
			printf("overruns_stalled=%" PRIu64 "\n",
			       ws->overruns_stalled);
	}
	if (opt->off_cpu) {
		printf("stalls=%" PRIu64 "\n", gs->stalls);
		printf("stall_max_ns=%" PRId64 "\n", gs->stall_max);
	}
	for (i = 0; i < gs->list.nr; i++)
		printf("gap start_ns=%" PRId64 " len_ns=%" PRId64
		       " runs=%ld charged_ns=%" PRId64 "\n",
		       gs->list.v[i].at - t0, gs->list.v[i].len,
		       gs->list.v[i].runs, gs->list.v[i].charged);
	for (i = 0; i < ws->list.nr; i++)
		printf("wake due_ns=%" PRId64 " lat_ns=%" PRId64
		       " runs=%ld queued_ns=%" PRId64 "\n",
		       ws->list.v[i].at - t0, ws->list.v[i].len,
		       ws->list.v[i].runs, ws->list.v[i].queued);
	for (i = 0; i < ws->sleeps.nr; i++)
		printf("sleep start_ns=%" PRId64 " len_ns=%" PRId64 "\n",
		       ws->sleeps.v[i].at - t0, ws->sleeps.v[i].len);
	for (i = 0; i < ws->overrun_list.nr; i++)
		printf("overrun due_ns=%" PRId64 " late_ns=%" PRId64
		       " stalled_ns=%" PRId64 " emulator=%d\n",
		       ws->overrun_list.v[i].at - t0, ws->overrun_list.v[i].len,
		       ws->overrun_list.v[i].charged,
		       (int)ws->overrun_list.v[i].runs);
	for (i = 0; i < gs->stall_list.nr; i++)
		printf("stall start_ns=%" PRId64 " len_ns=%" PRId64
		       " charged_ns=%" PRId64 "\n",
		       gs->stall_list.v[i].at - t0, gs->stall_list.v[i].len,
		       gs->stall_list.v[i].charged);
	if (fflush(stdout) != 0 || ferror(stdout))
		die("writing results: %s", strerror(errno));
}

/* Set up, wait for the start time, measure, and report. */
int main(int argc, char **argv)
{
	struct gap_stats gs;
	struct wake_stats ws;
	struct options opt;
	struct schedstat ss_start, ss_end, ss = { -1, -1 };
	int64_t cpu_start, cpu_end, proc_end;
	int64_t t0, t1, deadline;

	memset(&gs, 0, sizeof(gs));
	memset(&ws, 0, sizeof(ws));
	parse_args(argc, argv, &opt);
	/* Wake-ups on time, not up to the default 50 us of slack late. */
	if (opt.run_ns && prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0))
		die("prctl(PR_SET_TIMERSLACK): %s", strerror(errno));
	setup_signals();
	lock_memory();
	setup_sched(&opt);
	if (opt.waker_cpu >= 0)
		start_waker(opt.waker_cpu);
	if (opt.ready)
		mark_ready(opt.ready);
	if (opt.start_file)
		opt.start_at = read_start(opt.start_file);
	/*
	 * All set-up before the start: a probe still setting up in its window
	 * would count its own turns there as its first gap. fair-probe reads
	 * its schedstat at once and then spins, to be on the CPU (or waiting
	 * for it) at the start; rt-probe sleeps through the first half of
	 * the time left until the start (50 ms before it at the latest: a
	 * read of /proc takes milliseconds under an emulator), so as to
	 * leave the CPU to the fair-probe until then. Several real-time
	 * probes on one CPU set up one after the other, and a fair server
	 * that their set-up makes boost can take half the CPU from them: a
	 * fixed 50 ms was seen to leave the last of three 462 ms late. The
	 * run time over the window is taken from the thread's CPU clock at
	 * the start (the same sum_exec_runtime): fair-probe's spin before it
	 * is not in.
	 * A deadline task wakes a period earlier still: its set-up may have
	 * used its budget, and it then waits for the next period.
	 */
#ifdef PROBE_POLICY_RT
	if (opt.start_at) {
		int64_t lead = (opt.start_at -
				read_clock(CLOCK_MONOTONIC, "CLOCK_MONOTONIC")) / 2;

		if (lead < SCHEDSTAT_LEAD_NS)
			lead = SCHEDSTAT_LEAD_NS;
		wait_until(opt.start_at - lead -
			   (opt.policy == SCHED_DEADLINE ?
			    (int64_t)opt.dl_period : 0));
	}
#endif
	ss_start = read_schedstat();
	switch_mark = switches();
	if (opt.start_at) {
		int64_t now = read_clock(CLOCK_MONOTONIC, "CLOCK_MONOTONIC");

		if (now > opt.start_at)
			opt.late_ns = now - opt.start_at;
		wait_until(opt.start_at);
	}
	cpu_start = read_clock(CLOCK_THREAD_CPUTIME_ID,
			       "CLOCK_THREAD_CPUTIME_ID");
	t0 = opt.start_at ? opt.start_at :
	     read_clock(CLOCK_MONOTONIC, "CLOCK_MONOTONIC");
	deadline = opt.duration_s ?
		   t0 + (int64_t)opt.duration_s * NSEC_PER_SEC : 0;

	t1 = opt.run_ns ? cycle(&opt, &gs, &ws, t0, deadline) :
			  measure(&opt, &gs, t0, deadline);

	cpu_end = read_clock(CLOCK_THREAD_CPUTIME_ID,
			     "CLOCK_THREAD_CPUTIME_ID");
	proc_end = read_clock(CLOCK_PROCESS_CPUTIME_ID,
			      "CLOCK_PROCESS_CPUTIME_ID");
	ss_end = read_schedstat();
	stop_waker();
#ifdef PROBE_POLICY_RT
	leave_policy();
#endif
	if (ss_start.run >= 0 && ss_end.run >= 0) {
		ss.run = ss_end.run - cpu_start;
		ss.wait = ss_end.wait - ss_start.wait;
	}

	/* A window that ran to its end is exactly the duration long. */
	if (deadline && t1 >= deadline)
		t1 = deadline;
	report(&opt, &gs, &ws, t0, t1 - t0, cpu_end - cpu_start, &ss);
	free(gs.list.v);
	free(gs.stall_list.v);
	free(ws.list.v);
	free(ws.sleeps.v);
	free(ws.overrun_list.v);
	if (schedstat_fd >= 0 && close(schedstat_fd))
		die("close(%s): %s", SCHEDSTAT_PATH, strerror(errno));
	/*
	 * What the whole process ran from the end of the measurement to
	 * here, its report written, mostly as SCHED_OTHER (rt-probe left its
	 * policy): a fair server still serving as the window ends serves it.
	 */
	printf("cpu_after_ns=%" PRId64 "\n",
	       read_clock(CLOCK_PROCESS_CPUTIME_ID, "CLOCK_PROCESS_CPUTIME_ID") -
	       proc_end);
	if (fflush(stdout) != 0 || ferror(stdout))
		die("writing results: %s", strerror(errno));
	return 0;
}
