#!/usr/bin/env bash
# Contention: what a claim migrating pages out of a movable region makes
# others wait for (docs/benchmarks.md, "Contention"; issue 23).  Not a test.
#
#   scripts/bench-contend.sh [--rounds N] [--out DIR]
#
# One Goni boot, the board's defaults (cam, codec-a, codec-b movable): two
# hogs fill memory, lent pageblocks included, the small one goes (room for
# the migration's destination pages), then drivers/cma-bench ("contend")
# makes N (default 6) claims of 4 MiB as s5p-cam/y, s5p-codec/a and
# s5p-codec/b in turn (regions cam, codec-a, codec-b: where the hog's
# pages are, they migrate), each freed again, while it times in a
# loop another device's 4 KiB dma_alloc_coherent() (cma-bench's own,
# which no cma_map= rule names), a read of /sys/kernel/mm/cma/<region>/used
# and the last cma_kind_put() of one of 64 page-sized chunks of the region.
# Prints the module's figures and one CONTEND line per region.  S5P_KERNEL_TREE picks the
# kernel as for every boot (docs/pipeline.md).
#
#   --out DIR   the console log (default $S5P_CACHE/bench-contend)
#   --dtb FILE  boot this device tree instead of the board's: a kernel
#               without the series' device tree patch reserves the regions from C, so it
#               needs the tree without its linux,cma-region nodes
#               (fdtput -r FILE /reserved-memory/<node> for each)
set -u
. "$(dirname "$0")/lib/common.sh"

rounds=6
out=$S5P_CACHE/bench-contend
dtb=
while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) rounds=$2; shift ;;
	--out) out=$2; shift ;;
	--dtb) dtb=$2; shift ;;
	-h | --help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) s5p_die "unknown option '$1' (--help)" ;;
	esac
	shift
done
[[ $rounds =~ ^[1-9][0-9]?$ ]] || s5p_die "--rounds: 1 to 99"
mkdir -p "$out"
s5p_log "host: $(nproc) CPUs, $(date -u '+%Y-%m-%d %H:%M UTC'), kernel tree ${S5P_KERNEL_TREE:-the series}"

cmd=$(cat <<END
avail=\$(sed -n 's/^MemAvailable: *\([0-9]*\) kB/\1/p' /proc/meminfo)
hog -a \$((avail / 1024 - 48)) -f 16 >/tmp/hog.out 2>&1 & big=\$!
while ! grep -q '^hog: holding' /tmp/hog.out; do sleep 0.2; done
hog -a 20 >/tmp/hog2.out 2>&1 & small=\$!
while ! grep -q '^hog: holding' /tmp/hog2.out; do sleep 0.2; done
grep CmaFree /proc/meminfo
kill -TERM \$small; wait \$small
modprobe cma-bench
for dk in 's5p-cam y' 's5p-codec a' 's5p-codec b'; do
m0=\$(sed -n 's/^pgmigrate_success //p' /proc/vmstat)
echo "\$dk $((4 << 20)) $rounds" >/sys/kernel/debug/cma-bench/contend; echo "contend \$dk status \$?"
echo "migrated \$((\$(sed -n 's/^pgmigrate_success //p' /proc/vmstat) - m0)) pages"
cat /sys/kernel/debug/cma-bench/contend
done
kill -TERM \$big; wait \$big; echo "hog status \$?"
END
)
res=$("$S5P_TOP/scripts/boot-goni.sh" --timeout 900 --log "$out/console.log" ${dtb:+--dtb "$dtb"} --cmd "$cmd" 2>&1) ||
	{ printf '%s\n' "$res" | tail -n 20 >&2; s5p_die "the boot failed (log: $out/console.log)"; }
printf '%s\n' "$res"
printf '%s\n' "$res" | awk -v r="$rounds" '
	/^contend / { reg = $3 == "y" ? "cam" : "codec-" $3 }
	/^migrated / { mig = $2 }
	/^claims / { cl = ""; for (i = 6; i <= NF; i++) cl = cl (cl ? "," : "") $i }
	function us(f, k,   i) { for (i = 2; i <= NF; i++) if ($i ~ "^" k "=") { sub("^" k "=", "", $i); return int($i / 1000) } }
	/^dma4k-ns / { d50 = us($0, "p50"); dmax = us($0, "max") }
	/^used-read-ns / { umax = us($0, "max") }
	/^put-ns / { printf "CONTEND region=%s rounds=%s migrated=%s claim_ms=%s dma4k_p50_us=%s dma4k_max_us=%s used_max_us=%s put_max_us=%s\n", reg, r, mig, cl, d50, dmax, umax, us($0, "max") }'
