#!/usr/bin/env bash
# Where the lent pages in use are when claims come, and which claims
# migrate them (docs/benchmarks.md, "Where lent pages go").  Not a test.
#
#   scripts/bench-claims.sh [--trace media|random] [--rows LIST] [--hog MIB] [--out DIR]
#
#   --trace  the trace of bench/traces replayed (default media)
#   --rows   movable and/or blind, comma-separated (default movable,blind):
#            the regions of scripts/bench-movable.sh's rows of that name;
#            ROW@R boots with sysctl.vm.cma_first_ratio=R (the boards' 100
#            leaves lent memory free under this hog: movable@50 for 6.1's
#            balance, the figures of docs/benchmarks.md)
#   --hog    MiB of anonymous memory tools/hog holds (default 338: what the
#            static kernel leaves less 24 MiB, bench-movable.sh's figure)
#   --out    where the console logs and outputs go (default
#            $S5P_CACHE/bench-claims)
#
# One Goni boot a row (scripts/guest/movable-claims.sh); per region, the
# lent pages in use before the trace (the pageblock view), the claims, those
# that migrated and the pages they migrated (the cma_regions_alloc_finish
# trace event), and the lent pages in use after.
set -u
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/movable-traces.sh"

trace=media rows=movable,blind hog=338 out=$S5P_CACHE/bench-claims
while [ $# -gt 0 ]; do
	case "$1" in
	--trace) [ "${2:-}" = media ] || [ "${2:-}" = random ] || s5p_die "--trace takes media or random"; trace=$2; shift ;;
	--rows) [ $# -ge 2 ] || s5p_die "--rows needs a list"; rows=$2; shift ;;
	--hog) [ "${2:-}" -gt 0 ] 2>/dev/null || s5p_die "--hog needs a positive number of MiB"; hog=$2; shift ;;
	--out) [ $# -ge 2 ] || s5p_die "--out needs a directory"; out=$2; shift ;;
	-h | --help) sed -n '2,/^[^#]/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) s5p_die "unknown argument '$1' (try --help)" ;;
	esac
	shift
done
mkdir -p "$out" || s5p_die "cannot create $out"
s5p_log "host: $(nproc) CPUs, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$S5P_TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)"

regions=$(trace_regions "$trace")

IFS=, read -r -a krows <<<"$rows"
for row in "${krows[@]}"; do
	case ${row%@*} in
	movable) c=$(trace_cma "$trace") ;;
	blind) c=$(trace_cma_blind "$trace") ;;
	*) s5p_die "--rows: unknown row '$row' (movable, blind, ROW@RATIO)" ;;
	esac
	row_ratio "$row" >/dev/null
	ratio=$(row_ratio "$row")
	log=$out/claims-$trace-$row.log res=$out/claims-$trace-$row.out
	echo "== $trace, $row (hog $hog MiB)"
	"$S5P_TOP/scripts/boot-goni.sh" --timeout 900 --log "$log" \
		--append "cma=$c cma_map=cma-bench=$regions cma_movable=*$ratio" --cmd "$(
			echo "cat >/tmp/t.trace <<'S5P_TRACE_END'"
			cat "$S5P_TOP/bench/traces/$trace.trace"
			echo "S5P_TRACE_END"
			echo "cat >/tmp/mc.sh <<'S5P_MC_END'"
			cat "$S5P_TOP/scripts/guest/movable-claims.sh"
			echo "S5P_MC_END"
			echo "sh /tmp/mc.sh /tmp/t.trace $hog"
		)" >"$res" 2>&1 || s5p_die "the $row boot failed (console log: $log; output: $res)"
	grep -q '^RES allocations' "$res" || s5p_die "the $row boot printed no result (output: $res)"
	awk '
	function val(s,   a) { split(s, a, "="); return a[2] }
	$1 ~ /^PB[01]$/ { for (i = 3; i <= NF; i++) if ($i ~ /^movable=/) { inuse[$1, $2] += val($i); reg[$2] = 1 } }
	$1 == "EV" {
		for (i = 3; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
		r = v["region"]; reg[r] = 1; claims[r]++
		if (v["migrated"] > 0) { mig[r]++; pages[r] += v["migrated"] }
		total += v["migrated"]
	}
	$1 ~ /^VM[01]$/ { vm[$1, $2] = $3 }
	$1 == "RES" && $2 == "allocations" { allocs = $3; failed = $5 }
	$1 == "RES" && $2 == "alloc-ns" { p50 = $4 }
	END {
		printf "| region | lent pages in use before | claims | claims migrating | pages migrated | lent pages in use after |\n| --- | ---: | ---: | ---: | ---: | ---: |\n"
		for (r in reg)
			printf "| %s | %d | %d | %d | %d | %d |\n", r, inuse["PB0", r], claims[r], mig[r], pages[r], inuse["PB1", r]
		printf "allocations %s, failed %s, %s; pages migrated %d (pgmigrate_success %d)\n", allocs, failed, p50,
			total, vm["VM1", "pgmigrate_success"] - vm["VM0", "pgmigrate_success"]
	}' "$res"
done
