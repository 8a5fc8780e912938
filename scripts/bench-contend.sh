#!/usr/bin/env bash
# Contention: what a claim migrating pages out of a movable region makes
# others wait for (docs/benchmarks.md, "Contention"; issue 23).  Not a test.
#
#   scripts/bench-contend.sh [--rounds N] [--out DIR]
#
# One Goni boot, the board's defaults (cam, codec-a, codec-b movable): two
# hogs fill memory, lent pageblocks included, the small one goes (room for
# the migration's destination pages), then drivers/cma-bench ("contend")
# makes N (default 6) claims of 4 MiB as s5p-codec/a (region codec-a),
# each migrating the hog's pages out and freed again, while it times in a
# loop another device's 4 KiB dma_alloc_coherent() (cma-bench's own,
# which no cma_map= rule names), a read of /sys/kernel/mm/cma/codec-a/used
# and the last cma_put() of one of 64 page-sized chunks of codec-a.  Prints
# the module's figures and one CONTEND line.  S5P_KERNEL_TREE picks the
# kernel as for every boot (docs/pipeline.md).
#
#   --out DIR   the console log (default $S5P_CACHE/bench-contend)
. "$(dirname "$0")/lib/common.sh"

rounds=6
out=$S5P_CACHE/bench-contend
while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) rounds=$2; shift ;;
	--out) out=$2; shift ;;
	-h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
m0=\$(sed -n 's/^pgmigrate_success //p' /proc/vmstat)
echo 's5p-codec a $((4 << 20)) $rounds' >/sys/kernel/debug/cma-bench/contend; echo "contend status \$?"
echo "migrated \$((\$(sed -n 's/^pgmigrate_success //p' /proc/vmstat) - m0)) pages"
cat /sys/kernel/debug/cma-bench/contend
kill -TERM \$big; wait \$big; echo "hog status \$?"
END
)
res=$("$S5P_TOP/scripts/boot-goni.sh" --timeout 900 --log "$out/console.log" --cmd "$cmd" 2>&1) ||
	{ printf '%s\n' "$res" | tail -n 20 >&2; s5p_die "the boot failed (log: $out/console.log)"; }
printf '%s\n' "$res"
pick() { printf '%s\n' "$res" | awk -v w="$1" '$1 == w { for (i = 2; i <= NF; i++) if ($i ~ /^'"$2"'=/) { sub(/^'"$2"'=/, "", $i); print $i } }'; }
echo "CONTEND rounds=$rounds migrated=$(printf '%s\n' "$res" | sed -n 's/^migrated \([0-9]*\) pages/\1/p')" \
	"dma4k_max_us=$(( $(pick dma4k-ns max) / 1000 )) dma4k_p50_us=$(( $(pick dma4k-ns p50) / 1000 ))" \
	"used_max_us=$(( $(pick used-read-ns max) / 1000 )) put_max_us=$(( $(pick put-ns max) / 1000 ))"
