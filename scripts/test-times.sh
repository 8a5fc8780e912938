#!/usr/bin/env bash
# The per-suite times of the last `make check` (tests/run.sh), as the
# Markdown table docs/testing.md keeps:
#
#   scripts/test-times.sh [TIMES.tsv]   (default: $S5P_CACHE/test-logs/times.tsv)
#   scripts/test-times.sh --builds      the builds of the last make check:
#                                       each step a build log of
#                                       $S5P_CACHE/test-logs/build-*.log
#                                       timed ("done in", "ready", "assembled")
#   scripts/test-times.sh --boots [BOOTS.tsv]  the guest boots of the last
#                                       make check (scripts/boot.sh's record,
#                                       $S5P_CACHE/test-logs/boots.tsv): per
#                                       suite, how many, their seconds, and
#                                       how much went to the kernel's start,
#                                       /init's modules, the commands and
#                                       what follows them (kmemleak's scans)
#
# One row a suite (the longest first): seconds, checks passed, failed and
# skipped, when it started after the first suite did, and the CPU seconds
# it and what it waited for (QEMU, builds) used; then the sums
# of each pass and of all suites, against the wall time the suites took
# in their lanes (two at a time, tests/run.sh).
set -u
. "$(dirname "$0")/lib/common.sh"
case "${1:-}" in
-h | --help) sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'; exit 0 ;;
--builds)
	# (a warm run's logs say "ready ...: 0 s": nothing was built)
	shopt -s nullglob
	logs=("$S5P_CACHE"/test-logs/build-*.log)
	[ ${#logs[@]} -gt 0 ] || s5p_die "no build logs in $S5P_CACHE/test-logs: run 'make check' first"
	echo "| build log | step | seconds |"
	echo "| --- | --- | ---: |"
	for l in "${logs[@]}"; do
		sed -E 's/, every step above: /: /' "$l" |
			sed -nE 's/^ *(==> )?(.*): (done in )?([0-9]+) s( \(.*\))?$/\2\t\4/p' |
			awk -F'\t' -v b="$(basename "$l" .log)" '{ printf "| %s | %s | %d |\n", b, $1, $2; t += $2 }'
	done
	exit 0
	;;
--boots)
	f=${2:-$S5P_CACHE/test-logs/boots.tsv}
	[ -s "$f" ] || s5p_die "no boot times in $f: run 'make check' (or tests/run.sh SUITE...) first"
	awk -F'\t' '
	function add(k, v) { return (v == "-") ? 0 : v }
	NR == 1 { next }
	{
		k = $1 "\t" $3 "\t" $4; if (!(k in n)) order[++m] = k
		n[k]++; s[k] += $5; kr[k] += add(k, $6); mo[k] += add(k, $7); c[k] += add(k, $8); a[k] += add(k, $9)
		N++; S += $5; KR += add(k, $6); MO += add(k, $7); C += add(k, $8); A += add(k, $9)
	}
	END {
		print "| suite | kernel | QEMU | boots | seconds | kernel start | modules | commands | after (kmemleak) |"
		print "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
		# the most seconds first
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (s[order[j]] > s[order[i]]) {
			t = order[i]; order[i] = order[j]; order[j] = t }
		for (i = 1; i <= m; i++) { k = order[i]; split(k, f, "\t")
			printf "| %s | %s | %s | %d | %.0f | %.0f | %.0f | %.0f | %.0f |\n", f[1], f[2], f[3], n[k], s[k], kr[k], mo[k], c[k], a[k] }
		printf "| **all** | | | **%d** | **%.0f** | **%.0f** | **%.0f** | **%.0f** | **%.0f** |\n", N, S, KR, MO, C, A
	}' "$f"
	exit 0
	;;
esac
f=${1:-$S5P_CACHE/test-logs/times.tsv}
[ -s "$f" ] || s5p_die "no times in $f: run 'make check' (or tests/run.sh SUITE...) first"
awk -F'\t' '
NR == 1 { next }
{
	n++; name[n] = $1; sec[n] = $2; p[n] = $3; f[n] = $4; k[n] = $5; st[n] = $6; cpu[n] = $7; cpus += $7
	pass = ($1 ~ /@/) ? substr($1, index($1, "@") + 1) : "default"
	sum[pass] += $2; all += $2; np += $3; nf += $4; nk += $5
	if ($6 + $2 > wall) wall = $6 + $2
}
END {
	# longest first
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (sec[j] > sec[i]) {
		t = name[i]; name[i] = name[j]; name[j] = t; t = sec[i]; sec[i] = sec[j]; sec[j] = t
		t = p[i]; p[i] = p[j]; p[j] = t; t = f[i]; f[i] = f[j]; f[j] = t
		t = k[i]; k[i] = k[j]; k[j] = t; t = st[i]; st[i] = st[j]; st[j] = t
		t = cpu[i]; cpu[i] = cpu[j]; cpu[j] = t
	}
	print "| suite | seconds | passed | failed | skipped | started at | CPU s |"
	print "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
	for (i = 1; i <= n; i++)
		printf "| %s | %d | %d | %d | %d | %d s | %s |\n", name[i], sec[i], p[i], f[i], k[i], st[i], cpu[i]
	for (q in sum) printf "| all of the %s pass | %d | | | | | |\n", q, sum[q]
	printf "| **all suites, one after the other** | **%d** | %d | %d | %d | | %d |\n", all, np, nf, nk, cpus
	printf "| **wall time of the suites in their lanes** | **%d** | | | | | |\n", wall
}' "$f"
