// SPDX-License-Identifier: GPL-2.0
/*
 * gst-run: GStreamer pipelines one after another in one process, so that
 * GStreamer's start-up (linking a dozen libraries, gst_init(), loading
 * the registry) is paid once and not once a pipeline, as one
 * gst-launch-1.0 a pipeline pays it (about 1 s each in a TCG guest;
 * tests/guest/gst.sh, docs/camera.md "GStreamer").
 *
 *   gst-run [-t SECONDS] <LIST
 *
 * LIST has one item a line:
 *   [>LOG ]PIPELINE  a pipeline in gst-launch-1.0's syntax, run as
 *                    gst-launch-1.0 runs it: parsed (an erroneous
 *                    description fails), set to PLAYING, until end of
 *                    stream (status 0) or an error (status 1; its message
 *                    as gst-launch-1.0 prints it, to LOG or to stderr),
 *                    or SECONDS (default 120; status 1), then set to NULL
 *                    and freed, in a child process forked for it after
 *                    gst_init() (a fresh heap and no file descriptor of
 *                    an earlier pipeline, as under gst-launch-1.0);
 *   !COMMAND         COMMAND run by /bin/sh, with GST_RUN_STATUS and
 *                    GST_RUN_SECONDS (wall time, rounded to whole
 *                    seconds) of the last pipeline in its environment;
 *                    if it fails, gst-run stops there (status 3).
 * Empty lines and lines starting with '#' are skipped.  Exit status: 0, 1
 * if a pipeline failed, 2 on bad usage or when GStreamer cannot be
 * loaded, 3 when a command failed.
 *
 * GStreamer is loaded with dlopen() and called through the few functions
 * below, so that the tool builds with the cross compiler alone (Debian's
 * armel GStreamer has no headers in the initramfs build).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct { unsigned int domain; int code; char *message; } GError;
enum { GST_STATE_NULL = 1, GST_STATE_PLAYING = 4 };
enum { GST_STATE_CHANGE_FAILURE = 0 };
enum { GST_MESSAGE_EOS = 1 << 0, GST_MESSAGE_ERROR = 1 << 1 };
#define GST_SECOND 1000000000ULL

static struct {
	int (*init_check)(int *, char ***, GError **);
	void *(*parse_launch)(const char *, GError **);
	int (*set_state)(void *, int);
	void *(*get_bus)(void *);
	void *(*timed_pop_filtered)(void *, unsigned long long, int);
	const void *(*get_structure)(void *);
	void (*parse_error)(void *, GError **, char **);
	void (*mini_object_unref)(void *);
	void (*object_unref)(void *);
	void (*error_free)(GError *);
	void (*free)(void *);
} gst;

static int load(void)
{
	static const struct { const char *lib, *name; size_t off; } syms[] = {
#define S(lib, name, field) { lib, name, offsetof(typeof(gst), field) }
		S("libgstreamer-1.0.so.0", "gst_init_check", init_check),
		S("libgstreamer-1.0.so.0", "gst_parse_launch", parse_launch),
		S("libgstreamer-1.0.so.0", "gst_element_set_state", set_state),
		S("libgstreamer-1.0.so.0", "gst_element_get_bus", get_bus),
		S("libgstreamer-1.0.so.0", "gst_bus_timed_pop_filtered", timed_pop_filtered),
		S("libgstreamer-1.0.so.0", "gst_message_get_structure", get_structure),
		S("libgstreamer-1.0.so.0", "gst_message_parse_error", parse_error),
		S("libgstreamer-1.0.so.0", "gst_mini_object_unref", mini_object_unref),
		S("libgstreamer-1.0.so.0", "gst_object_unref", object_unref),
		S("libglib-2.0.so.0", "g_error_free", error_free),
		S("libglib-2.0.so.0", "g_free", free),
#undef S
	};
	size_t i;

	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		void *h = dlopen(syms[i].lib, RTLD_NOW | RTLD_GLOBAL), *f;

		if (!h || !(f = dlsym(h, syms[i].name))) {
			fprintf(stderr, "gst-run: %s\n", dlerror());
			return -1;
		}
		memcpy((char *)&gst + syms[i].off, &f, sizeof(f));
	}
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The error message @msg holds, as gst-launch-1.0 prints it (the
 * element's path is in the debug info). */
static void print_error(FILE *log, void *msg)
{
	GError *err = NULL;
	char *debug = NULL;

	gst.parse_error(msg, &err, &debug);
	fprintf(log, "ERROR: %s\n", err ? err->message : "(no message)");
	if (debug)
		fprintf(log, "Additional debug info:\n%s\n", debug);
	if (err)
		gst.error_free(err);
	gst.free(debug);
}

/* Run @desc to its end; 0 at end of stream, 1 otherwise. */
static int run_here(const char *desc, FILE *log, unsigned int timeout)
{
	GError *err = NULL;
	void *pipeline, *bus, *msg;
	int status = 1;

	pipeline = gst.parse_launch(desc, &err);
	if (!pipeline || err) {
		fprintf(log, "%s: %s\n", pipeline ? "WARNING: erroneous pipeline" :
			"ERROR: pipeline could not be constructed",
			err ? err->message : "(no message)");
		if (err)
			gst.error_free(err);
		if (pipeline)
			gst.object_unref(pipeline);
		return 1;
	}
	bus = gst.get_bus(pipeline);
	if (gst.set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
		msg = gst.timed_pop_filtered(bus, 0, GST_MESSAGE_ERROR);
		if (msg) {
			print_error(log, msg);
			gst.mini_object_unref(msg);
		} else {
			fprintf(log, "ERROR: pipeline doesn't want to play.\n");
		}
	} else {
		msg = gst.timed_pop_filtered(bus, timeout * GST_SECOND,
					     GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
		if (!msg) {
			fprintf(log, "ERROR: no end of stream after %u s\n", timeout);
		} else {
			/* an end of stream has no structure, an error has */
			if (gst.get_structure(msg))
				print_error(log, msg);
			else
				status = 0;
			gst.mini_object_unref(msg);
		}
	}
	gst.set_state(pipeline, GST_STATE_NULL);
	gst.object_unref(bus);
	gst.object_unref(pipeline);
	return status;
}

/*
 * Run @desc in a child forked after gst_init(): the start-up is paid once,
 * in this process, and each pipeline still starts from the state
 * gst-launch-1.0's would, with no other pipeline's heap or file
 * descriptors.  In one process, GStreamer 1.22's v4l2src kept /dev/video0
 * open after its pipeline was freed, and the buffer it copies a frame
 * into when downstream takes no video meta (NV12 at 200x150: 45000 bytes
 * of frame in a buffer of the driver's 46800) came from reused heap, so
 * its last 1800 bytes held an earlier pipeline's data, where a fresh
 * process has zeros (tests/guest/gst.sh, docs/testing.md).
 */
static int run(const char *desc, FILE *log, unsigned int timeout)
{
	pid_t pid;
	int ws;

	fflush(stdout);
	fflush(stderr);
	fflush(log);
	pid = fork();
	if (pid < 0) {
		fprintf(log, "ERROR: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		int status = run_here(desc, log, timeout);

		fflush(log);
		fflush(stderr);
		_exit(status);
	}
	while (waitpid(pid, &ws, 0) < 0) {
		if (errno != EINTR) {
			fprintf(log, "ERROR: waitpid: %s\n", strerror(errno));
			return 1;
		}
	}
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws) ? 1 : 0;
	fprintf(log, "ERROR: the pipeline's process ended by signal %d\n",
		WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
	return 1;
}

int main(int argc, char **argv)
{
	unsigned int timeout = 120;
	char *line = NULL, buf[32];
	size_t cap = 0;
	ssize_t len;
	int opt, failed = 0, status = 0;
	double secs = 0;
	GError *err = NULL;

	while ((opt = getopt(argc, argv, "t:")) != -1) {
		if (opt != 't' || !(timeout = strtoul(optarg, NULL, 10))) {
			fprintf(stderr, "usage: gst-run [-t SECONDS] <LIST\n");
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "usage: gst-run [-t SECONDS] <LIST\n");
		return 2;
	}
	if (load() || !gst.init_check(NULL, NULL, &err)) {
		fprintf(stderr, "gst-run: GStreamer does not start%s%s\n",
			err ? ": " : "", err ? err->message : "");
		return 2;
	}
	while ((len = getline(&line, &cap, stdin)) > 0) {
		char *p = line, *desc;
		FILE *log = stderr;
		double t0;

		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (!*p || *p == '#')
			continue;
		if (*p == '!') {
			snprintf(buf, sizeof(buf), "%d", status);
			setenv("GST_RUN_STATUS", buf, 1);
			snprintf(buf, sizeof(buf), "%.0f", secs);
			setenv("GST_RUN_SECONDS", buf, 1);
			fflush(stdout);
			if (system(p + 1) != 0) {
				fprintf(stderr, "gst-run: '%s' failed\n", p + 1);
				free(line);
				return 3;
			}
			continue;
		}
		desc = p;
		if (*p == '>') {
			desc = strchr(p, ' ');
			if (!desc) {
				fprintf(stderr, "gst-run: '%s': a log file and no pipeline\n", p);
				return 2;
			}
			*desc++ = '\0';
			log = fopen(p + 1, "w");
			if (!log) {
				perror(p + 1);
				return 2;
			}
		}
		t0 = now();
		status = run(desc, log, timeout);
		secs = now() - t0;
		failed |= status;
		if (log != stderr)
			fclose(log);
	}
	free(line);
	return failed;
}
