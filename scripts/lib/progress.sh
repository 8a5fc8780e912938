# shellcheck shell=bash
# s5p_run_logged LOG WHAT CMD...: run a long build step with its full output in
# LOG, printing a progress line every 20 s (how many compile steps so far and
# the latest one).  On failure, shows the end of the log and where it is.
s5p_run_logged() {
	local log=$1 what=$2 pid rc=0 start now n last
	shift 2
	mkdir -p "$(dirname "$log")"
	start=$(date +%s)
	s5p_info "$what (log: $log)"
	"$@" >"$log" 2>&1 &
	pid=$!
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
	s5p_info "$what: done in $(($(date +%s) - start))s"
}
