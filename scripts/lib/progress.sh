# shellcheck shell=bash
# s5p_run_logged LOG WHAT CMD...: run a long build step with its full output in
# LOG, printing a progress line every 20 s (how many compile steps so far and
# the latest one).  On failure, shows the end of the log and where it is.
#
# Interrupted (Ctrl-C, SIGTERM, SIGHUP), it ends the build before it exits
# (s5p_run_interrupted): the build runs in the background, where a script
# without job control starts it with SIGINT ignored, so a Ctrl-C would
# otherwise leave make or ninja running on, holding the locks.  The run
# exits there, so nothing after it (the caller's stamp) is written.
s5p_run_logged() {
	local log=$1 what=$2 pid rc=0 start now n last saved
	shift 2
	mkdir -p "$(dirname "$log")"
	start=$(date +%s)
	s5p_info "$what (log: $log)"
	"$@" >"$log" 2>&1 &
	pid=$!
	S5P_RUN_PID=$pid S5P_RUN_WHAT=$what S5P_RUN_LOG=$log
	saved=$(trap -p INT TERM HUP)
	trap 's5p_run_interrupted 130' INT
	trap 's5p_run_interrupted 143' TERM
	trap 's5p_run_interrupted 129' HUP
	while kill -0 "$pid" 2>/dev/null; do
		sleep 2
		now=$(date +%s)
		if [ $(((now - start) % 20)) -lt 2 ] && [ $((now - start)) -ge 10 ]; then
			n=$(grep -cE '^ *(CC|AS|LD|\[[0-9]+/[0-9]+\])' "$log" 2>/dev/null || true)
			last=$(grep -E '^ *(CC|AS|LD|AR|\[[0-9]+/[0-9]+\])' "$log" 2>/dev/null | tail -n1 | cut -c1-90)
			s5p_info "  $((now - start))s: $n steps; ${last:-starting}"
		fi
	done
	wait "$pid" || rc=$?
	trap - INT TERM HUP
	eval "$saved"
	S5P_RUN_PID=
	if [ $rc != 0 ]; then
		if grep -qE '(error|Error)[: ]' "$log"; then
			printf '    --- first errors in %s ---\n' "$log" >&2
			grep -E -m 12 '(error|Error)[: ]|FAILED|\*\*\*' "$log" | cut -c1-240 | sed 's/^/    /' >&2
		else
			printf '    --- last lines of %s ---\n' "$log" >&2
			tail -n 30 "$log" | sed 's/^/    /' >&2
		fi
		s5p_die "$what failed (exit $rc); full log: $log"
	fi
	s5p_info "$what: done in $(s5p_elapsed "$start")"
}

# s5p_run_interrupted STATUS: the trap of s5p_run_logged.  SIGTERM to the
# build (make and ninja pass it on to their jobs and wait for them), SIGKILL
# if it is still there after 20 s; then exit with STATUS (128 + the signal).
s5p_run_interrupted() {
	local n=0
	trap '' INT TERM HUP
	if [ -n "${S5P_RUN_PID:-}" ]; then
		kill -TERM "$S5P_RUN_PID" 2>/dev/null
		while kill -0 "$S5P_RUN_PID" 2>/dev/null && [ $n -lt 100 ]; do
			sleep 0.2
			n=$((n + 1))
		done
		kill -KILL "$S5P_RUN_PID" 2>/dev/null
		wait "$S5P_RUN_PID" 2>/dev/null
		printf 'error: interrupted: stopped %s (log: %s); nothing was stamped as built, the next build goes on from there\n' \
			"$S5P_RUN_WHAT" "$S5P_RUN_LOG" >&2
	fi
	exit "$1"
}
