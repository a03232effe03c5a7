// SPDX-License-Identifier: GPL-2.0
/*
 * The actions of --on-threshold and --on-end, as rtla has them: save the
 * trace, send a signal, run a shell command, or go on measuring. They run
 * in order; the first that fails ends the list.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fairsrv.h"

/* Run @command with /bin/sh; 0 if it exited 0. */
static int shell(const char *command)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fs_err("cannot run '%s': %s", command, strerror(errno));
		return -1;
	}
	if (!pid) {
		/* The tool ignores SIGPIPE; the command must not. */
		signal(SIGPIPE, SIG_DFL);
		execl("/bin/sh", "sh", "-c", command, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fs_err("cannot wait for '%s': %s", command,
			       strerror(errno));
			return -1;
		}
	}
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	/* Not an error: a failing command is how a list is made conditional. */
	if (WIFEXITED(status))
		fs_debug("'%s' exited %d: the actions after it are not run",
			 command, WEXITSTATUS(status));
	else
		fs_debug("'%s' ended by signal %d: the actions after it are not run",
			 command, WTERMSIG(status));
	return 1;
}

/* Send the signal of @a; pid 0 stands for the parent. */
static int signal_to(const struct fs_action *a)
{
	pid_t pid = a->pid ? a->pid : getppid();

	if (kill(pid, a->signal)) {
		fs_err("cannot send signal %d to %d: %s", a->signal, (int)pid,
		       strerror(errno));
		return -1;
	}
	return 0;
}

/* Run the actions in order. */
int fs_actions_run(const struct fs_action *list, int n, struct fs_trace *t)
{
	int i, ret;

	for (i = 0; i < n; i++) {
		const struct fs_action *a = &list[i];

		switch (a->type) {
		case FS_ACT_TRACE:
			ret = fs_trace_save(t, a->file ? a->file :
						  FS_DEFAULT_TRACE_FILE);
			break;
		case FS_ACT_SIGNAL:
			ret = signal_to(a);
			break;
		case FS_ACT_SHELL:
			ret = shell(a->command);
			if (ret > 0)
				return 0;
			break;
		case FS_ACT_CONTINUE:
			return 1;
		default:
			ret = -1;
			break;
		}
		if (ret)
			return -1;
	}
	return 0;
}
