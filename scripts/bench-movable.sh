#!/usr/bin/env bash
# Movable regions against static ones, no regions, and 6.1's own CMA
# (docs/benchmarks.md, "Movable regions").  Not a test.
#
#   scripts/bench-movable.sh [--memory] [--pressure] [--out DIR]
#
#   --memory    four Goni boots: the memory each kernel leaves to the rest
#               of the system (MemTotal, MemAvailable, CmaTotal) and what one
#               user process fills before the OOM killer stops it (hog -g):
#                 movable       the board's defaults (cam, codec-a, codec-b
#                               movable, codec-fw static)
#                 static        the same with cma_movable=
#                 none          cma= cma_map= (no region)
#                 mainline-cma  6.1's CMA alone: cma= cma=24M cma_map= (no
#                               region, a 24 MiB default area), 6.1's
#                               balance (sysctl.vm.cma_first_ratio=50)
#   --pressure  per trace of bench/traces (media, random) and repetition,
#               a Goni boot per kernel below replaying it with
#               drivers/cma-bench twice: while tools/hog holds what the
#               static kernel has available less 24 MiB (anonymous, plus
#               16 MiB of page cache; load "hog"), then while tools/frag -l
#               holds every other page of that plus 16 MiB, locked (load
#               "pinned"); both checked afterwards.  Every kernel is timed
#               through the same call, dma_alloc_coherent() (api=dma) of
#               cma-bench's device; on the series' kernels one cma_map=
#               rule gives that device the trace's regions, tried in order:
#                 static        the trace's regions, rounded up to 4 MiB
#                               pageblocks, static (cma_movable=)
#                 movable       the same regions, cma_movable=*: claims
#                               placed where the fewest pages are in use;
#                               lent pages used last (the boards'
#                               sysctl.vm.cma_first_ratio=100)
#                 blind         the same, each allocator given "blind":
#                               no placement (the series before issue 25)
#                 mainline-cma  6.1's CMA in the same kernel: no region, a
#                               default area of the regions' size
#                               (cma= cma=NM cma_map=), 6.1's balance
#                               (ratio 50); cma-bench's device, which no
#                               rule names, allocates from the area
#                 page-alloc    no region: the page allocator (--rows)
#               A row KERNEL@R boots KERNEL with sysctl.vm.cma_first_ratio=R
#               after the board's (movable allocations, and compaction,
#               take lent pages first while they are more than R% of the
#               free pages; above 50 also once the rest is at its high
#               watermark, and the kernel's allocations move movable pages
#               into them before an OOM kill), e.g. movable@50 (6.1's rule)
#               or mainline-cma@100 (--rows)
#   --pipes     per kernel below and repetition, a Goni boot measuring the
#               room the kernel's own allocations have: tools/hog holds
#               what the first kernel has available outside its lent
#               memory less 16 MiB (the same on every kernel), then full
#               pipes are opened, two processes each (unmovable memory),
#               until the first OOM kill (scripts/guest/movable-pipes.sh).
#               Kernels (--pipe-rows, default
#               movable,movable@50,mainline-cma,none):
#                 none          no region (cma= cma_map=)
#                 mainline-cma  6.1's CMA alone, a 24 MiB default area
#                               (cma= cma=24M cma_map=), 6.1's balance
#                               (ratio 50)
#                 movable       the board's regions and balance
#               with KERNEL@R as for --rows
#   --reps N    repetitions of --pressure and --pipes (default 3): the table gives each
#               figure's median and its spread (min-max)
#   --rows LIST the --pressure kernels, comma-separated, in the order
#               each repetition boots them (default
#               static,movable,mainline-cma,blind; the first sets the hog)
#   --out DIR   where the boots' console logs, the results (memory.txt,
#               pressure.txt) and their charts (movable-memory.png,
#               movable-pressure.png, bench/plot-movable.py) go (default
#               $S5P_CACHE/bench-movable)
#
# Without --memory, --pressure or --pipes: --memory and --pressure.
set -u
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/movable-traces.sh"

memory=0 pressure=0 pipes=0 reps=3 rows=static,movable,mainline-cma,blind
pipe_rows=movable,movable@50,mainline-cma,none
out=$S5P_CACHE/bench-movable
while [ $# -gt 0 ]; do
	case "$1" in
	--memory) memory=1 ;;
	--pressure) pressure=1 ;;
	--pipes) pipes=1 ;;
	--pipe-rows) [ $# -ge 2 ] || s5p_die "--pipe-rows needs a list"; pipe_rows=$2; shift ;;
	--out) [ $# -ge 2 ] || s5p_die "--out needs a directory"; out=$2; shift ;;
	--reps) [ "${2:-}" -gt 0 ] 2>/dev/null || s5p_die "--reps needs a positive number"; reps=$2; shift ;;
	--rows) [ $# -ge 2 ] || s5p_die "--rows needs a list"; rows=$2; shift ;;
	-h | --help) sed -n '2,/^[^#]/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) s5p_die "unknown argument '$1' (try --help)" ;;
	esac
	shift
done
[ $memory = 1 ] || [ $pressure = 1 ] || [ $pipes = 1 ] || { memory=1; pressure=1; }
mkdir -p "$out" || s5p_die "cannot create $out"

s5p_log "host: $(nproc) CPUs, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$S5P_TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)"

# boot NAME ARGS...: a Goni boot, its console log in $out/NAME.log; its
# output in BOOT_OUT.  Dies when it fails.
boot() {
	local name=$1
	shift
	BOOT_OUT=$("$S5P_TOP/scripts/boot-goni.sh" --timeout 900 --log "$out/$name.log" "$@" 2>&1) ||
		s5p_die "the $name boot failed (console log: $out/$name.log): $(tail -n 5 <<<"$BOOT_OUT")"
}

# boot_try NAME ARGS...: boot(), but a failed boot (the guest's command
# failed: a load OOM-killed, say) returns 1 with BOOT_OUT kept, the
# reason printed.
boot_try() {
	local name=$1
	shift
	BOOT_OUT=$("$S5P_TOP/scripts/boot-goni.sh" --timeout 900 --log "$out/$name.log" "$@" 2>&1) && return 0
	s5p_info "the $name boot failed (console log: $out/$name.log): $(tail -n 3 <<<"$BOOT_OUT" | tr '\n' ' ')"
	grep -h 'Out of memory: Killed process' "$out/$name.log" | sed 's/^/    /'
	return 1
}

run_memory() {
	local row
	declare -A total avail cmat fill
	local mem_rows=(none movable static mainline-cma)
	: >"$out/memory.txt"
	for row in "${mem_rows[@]}"; do
		local args=()
		case $row in
		static) args=(--append "cma_movable=") ;;
		none) args=(--append "cma= cma_map=") ;;
		mainline-cma) args=(--append "cma= cma=24M cma_map= sysctl.vm.cma_first_ratio=50") ;;
		esac
		boot "memory-$row" "${args[@]}" --cmd 'sh /usr/lib/s5p/movable-mem.sh'
		read -r _ "total[$row]" "avail[$row]" "cmat[$row]" _ < <(grep '^MEM ' <<<"$BOOT_OUT")
		fill[$row]=$(sed -n 's/^FILL //p' <<<"$BOOT_OUT")
		[ -n "${fill[$row]}" ] || s5p_die "the $row boot printed no FILL line (console log: $out/memory-$row.log)"
		s5p_info "$row: MemTotal ${total[$row]} kB, MemAvailable ${avail[$row]} kB, CmaTotal ${cmat[$row]:-0} kB, filled ${fill[$row]} MiB"
		echo "MEMORY $row ${total[$row]} ${avail[$row]} ${cmat[$row]:-0} ${fill[$row]}" >>"$out/memory.txt"
	done
	printf '\n| kernel | MemTotal kB | MemAvailable kB | CmaTotal kB | one process fills MiB | fill vs no regions |\n'
	printf '| --- | --- | --- | --- | --- | --- |\n'
	for row in "${mem_rows[@]}"; do
		printf '| %s | %s | %s | %s | %s | %s |\n' "$row" "${total[$row]}" "${avail[$row]}" \
			"${cmat[$row]:-0}" "${fill[$row]}" \
			"$(awk -v a="${fill[$row]}" -v b="${fill[none]}" 'BEGIN { printf "%.1f%%", 100 * a / b }')"
	done
}

run_pressure() {
	local name t map cma hog row line rep results=$out/pressure.txt
	local -a krows
	IFS=, read -r -a krows <<<"$rows"
	for row in "${krows[@]}"; do
		case ${row%@*} in
		static | movable | blind | mainline-cma | page-alloc) ;;
		*) s5p_die "--rows: unknown kernel '${row%@*}'" ;;
		esac
		row_ratio "$row" >/dev/null
	done
	: >"$results"
	declare -A hogs=([media]=auto [random]=auto)
	# Repetitions outermost, so that a run cut short still has every trace.
	for rep in $(seq 1 "$reps"); do
		for name in media random; do
			t=$S5P_TOP/bench/traces/$name.trace
			[ -f "$t" ] || s5p_die "no trace $t"
			map="cma-bench=$(trace_regions "$name")"
			cma=$(trace_cma "$name")
			hog=${hogs[$name]}
			for row in "${krows[@]}"; do
				local args=() kargs=
				case ${row%@*} in
				static) kargs="cma=$cma cma_map=$map cma_movable=" ;;
				movable) kargs="cma=$cma cma_map=$map cma_movable=*" ;;
				blind) kargs="cma=$(trace_cma_blind "$name") cma_map=$map cma_movable=*" ;;
				mainline-cma)
					# 6.1's balance, unless the row gives @R
					kargs="cma= cma=$(trace_area_mib "$name")M cma_map="
					[ "$row" != mainline-cma ] || kargs+=" sysctl.vm.cma_first_ratio=50" ;;
				page-alloc) kargs="cma= cma_map=" ;;
				esac
				args+=(--append "$kargs$(row_ratio "$row")")
				echo "== pressure: $name, $row, repetition $rep of $reps (hog: $hog MiB)"
				# A row whose boot fails (6.1's kernel OOM-kills the
				# hog) keeps the lines it printed, marked "bootfailed",
				# and the run goes on with the next row.
				local mark=
				boot_try "pressure-$name-$row-$rep" "${args[@]}" --cmd "$(
					echo "cat >/tmp/$name.trace <<'S5P_TRACE_END'"
					cat "$t"
					echo "S5P_TRACE_END"
					echo "sh /usr/lib/s5p/movable-pressure.sh /tmp/$name.trace dma $hog"
				)" || mark=" bootfailed 1"
				line=$(grep '^PRESSURE [a-z]* allocs ' <<<"$BOOT_OUT") || {
					[ "$row" != "${krows[0]}" ] || [ "$hog" != auto ] ||
						s5p_die "the $name $row boot printed no PRESSURE line and sets the hog (console log: $out/pressure-$name-$row-$rep.log)"
					s5p_info "the $name $row boot printed no PRESSURE line: no row (console log: $out/pressure-$name-$row-$rep.log)"
					continue
				}
				[ "$(wc -l <<<"$line")" = 2 ] || [ -n "$mark" ] ||
					s5p_die "the $name $row boot printed $(wc -l <<<"$line") PRESSURE lines, not 2 (console log: $out/pressure-$name-$row-$rep.log)"
				# (each of the lines: sed's job)
				# shellcheck disable=SC2001
				sed "s/^PRESSURE \(.*\)\$/PRESSURE $name $row \1 rep $rep$mark/" <<<"$line" | tee -a "$results"
				# Every row holds what the first boot's kernel could (the
				# first row's figure, for every repetition; with the
				# default rows, what static regions leave less 24 MiB).
				[ "$hog" != auto ] || hog=$(head -n 1 <<<"$line" |
					awk '{ for (i = 1; i < NF; i++) if ($i == "hogmib") print $(i + 1) }')
				hogs[$name]=$hog
			done
		done
	done
	pressure_table "$results"
}

run_pipes() {
	local row rep kargs line hog=auto results=$out/pipes.txt
	local -a prows
	IFS=, read -r -a prows <<<"$pipe_rows"
	for row in "${prows[@]}"; do
		case ${row%@*} in
		none | mainline-cma | movable) ;;
		*) s5p_die "--pipe-rows: unknown kernel '${row%@*}'" ;;
		esac
		row_ratio "$row" >/dev/null
	done
	: >"$results"
	for rep in $(seq 1 "$reps"); do
		for row in "${prows[@]}"; do
			case ${row%@*} in
			none) kargs="cma= cma_map=" ;;
			mainline-cma)
				# 6.1's balance, unless the row gives @R
				kargs="cma= cma=24M cma_map="
				[ "$row" != mainline-cma ] || kargs+=" sysctl.vm.cma_first_ratio=50" ;;
			movable) kargs= ;;
			esac
			echo "== pipes: $row, repetition $rep of $reps"
			boot_try "pipes-$row-$rep" --append "$kargs$(row_ratio "$row")" \
				--cmd "sh /usr/lib/s5p/movable-pipes.sh $hog" || true
			line=$(grep '^PIPES ' <<<"$BOOT_OUT") || {
				s5p_info "the $row boot printed no PIPES line (console log: $out/pipes-$row-$rep.log)"
				continue
			}
			grep '^# hog' <<<"$BOOT_OUT" | sed 's/^/    /'
			echo "PIPES $row ${line#PIPES } rep $rep" | tee -a "$results"
			[ "$hog" != auto ] || hog=$(awk '{ print $4 }' <<<"$line")
		done
	done
	printf '\n| kernel | runs | pipes before the first OOM kill | lent memory free then, kB | OOM request order | hog MiB | pages migrated meanwhile | compact_stall | compact_success |\n'
	printf '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n'
	awk '
	function cell(k, f,   n, i, j, x, v, m) {
		n = split(vals[k, f], v, " ")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
		m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		return v[1] == v[n] ? m : m " (" v[1] "-" v[n] ")"
	}
	$1 == "PIPES" {
		k = $2
		if (!(k in runs)) order[++nk] = k
		runs[k]++
		split("", v)
		v["pipes"] = $3
		for (i = 4; i < NF; i++) v[$i] = $(i + 1)
		for (i = 4; i < NF; i++) if ($i == "compact") { v["stall"] = $(i + 1); v["csucc"] = $(i + 4) }
		split("pipes cmafreeoom oomorder hogmib migrated stall csucc", fs, " ")
		for (i in fs) vals[k, fs[i]] = vals[k, fs[i]] " " v[fs[i]]
	}
	END {
		for (i = 1; i <= nk; i++) {
			k = order[i]
			printf "| %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", k, runs[k], cell(k, "pipes"),
				cell(k, "cmafreeoom"), cell(k, "oomorder"), cell(k, "hogmib"), cell(k, "migrated"),
				cell(k, "stall"), cell(k, "csucc")
		}
	}' "$results"
}

# The table of a pressure.txt: per trace, kernel and load, each figure's
# median over the repetitions and its spread (min-max; one repetition: the
# figure alone).
pressure_table() {
	printf '\n| trace | kernel | load | runs | served | failed | pages claims migrated | claims migrating nothing | other pages migrated | p50 µs | p99 µs | max µs | pages bad |\n'
	printf '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n'
	awk '
	function med(k, f,   n, i, j, x, v) {
		n = split(vals[k, f], v, " ")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
		lo = v[1]; hi = v[n]
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	function cell(k, f, scale, fmt,   m) {
		m = med(k, f)
		if (m !~ /^[0-9.]+$/)
			return m
		if (lo == hi)
			return sprintf(fmt, m / scale)
		return sprintf(fmt " (" fmt "-" fmt ")", m / scale, lo / scale, hi / scale)
	}
	$1 == "PRESSURE" {
		kern = $3
		for (i = 5; i < NF; i++) if ($i == "bootfailed") kern = kern " (boot failed)"
		k = $2 SUBSEP kern SUBSEP $4
		if (!(k in runs)) order[++nk] = k
		runs[k]++
		split("", v)
		for (i = 5; i < NF; i++) v[$i] = $(i + 1)
		for (i = 5; i <= NF; i++) if ($i == "alloc-ns") { v["p50"] = $(i + 1); v["p99"] = $(i + 2); v["max"] = $(i + 3) }
		v["served"] = v["allocs"] - v["failed"]
		v["cleanpct"] = v["allocs"] ? 100 * v["clean"] / v["allocs"] : 0
		if (!("othermig" in v))
			v["othermig"] = "?"
		split("served failed migrated clean cleanpct othermig p50 p99 max bad", fs, " ")
		for (i in fs) vals[k, fs[i]] = vals[k, fs[i]] " " v[fs[i]]
	}
	END {
		for (i = 1; i <= nk; i++) {
			k = order[i]
			split(k, id, SUBSEP)
			printf "| %s | %s | %s | %d | %s | %s | %s | %s, %s | %s | %s | %s | %s | %s |\n", id[1], id[2], id[3], runs[k],
				cell(k, "served", 1, "%d"), cell(k, "failed", 1, "%d"), cell(k, "migrated", 1, "%d"),
				cell(k, "clean", 1, "%d"), cell(k, "cleanpct", 1, "%.0f%%"), cell(k, "othermig", 1, "%d"),
				cell(k, "p50", 1000, "%.1f"), cell(k, "p99", 1000, "%.1f"), cell(k, "max", 1000, "%.1f"),
				cell(k, "bad", 1, "%s")
		}
	}' "$1"
}

[ $memory = 1 ] && run_memory
[ $pressure = 1 ] && run_pressure
[ $pipes = 1 ] && run_pipes
[ $memory = 1 ] || [ $pressure = 1 ] || exit 0
# The charts (docs/img/movable-*.png come from here)
files=()
[ $memory = 1 ] && files+=("$out/memory.txt")
[ $pressure = 1 ] && files+=("$out/pressure.txt")
py=python3
python3 -c 'import matplotlib' 2>/dev/null || py=/usr/bin/python3
"$py" "$S5P_TOP/bench/plot-movable.py" -o "$out" "${files[@]}" ||
	s5p_info "no charts: bench/plot-movable.py failed (the tables above stand)"
exit 0
