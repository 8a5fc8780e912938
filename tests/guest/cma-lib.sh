# shellcheck shell=sh
# Helpers for the CMA guest tests (busybox sh).  Source after /tests/lib.sh.
# docs/cma.md describes the boot log and the debugfs files they read.

CMA_DEBUGFS=/sys/kernel/debug/cma

# The kernel log without timestamps.
klog() { dmesg | sed 's/^\[[ 0-9.]*\] //'; }

# The boot log's line for region NAME ("cma: region NAME: base=...").
region_line() { klog | grep "^cma: region $1: base="; }

# field LINE KEY: the value of KEY=VALUE in LINE.
field() { echo "$1" | sed -n "s/.* $2=\([^ ]*\).*/\1/p"; }

# region NAME: sets R_BASE, R_SIZE, R_ALIGN (decimal) and R_ALLOC; fails
# if the boot log has no such region.
region() {
	_l=$(region_line "$1")
	[ -n "$_l" ] || return 1
	R_BASE=$(($(field "$_l" base)))
	R_SIZE=$(($(field "$_l" size)))
	# shellcheck disable=SC2034 # (for the callers, as R_BASE and R_SIZE)
	R_ALIGN=$(($(field "$_l" align)))
	# shellcheck disable=SC2034 # (for the callers, as R_BASE and R_SIZE)
	R_ALLOC=$(field "$_l" allocator)
}

# The memory banks of this board: "base size" pairs, in hex.
banks() {
	# shellcheck disable=SC2154 # (lib.sh's, sourced first)
	case "$board" in
	goni) echo "0x30000000 0x05000000 0x40000000 0x10000000 0x50000000 0x08000000" ;;
	aquila) echo "0x30000000 0x05000000 0x40000000 0x18000000" ;;
	esac
}

# bank ADDR SIZE: the number of the bank holding [ADDR, ADDR + SIZE), or -1.
bank() {
	# shellcheck disable=SC2046 # (the banks' words)
	set -- $(($1)) $(($2)) $(banks)
	_a=$1 _s=$2 _n=0
	shift 2
	while [ $# -ge 2 ]; do
		if [ "$_a" -ge $(($1)) ] && [ $((_a + _s)) -le $(($1 + $2)) ]; then
			echo $_n
			return
		fi
		_n=$((_n + 1))
		shift 2
	done
	echo -1
}

# in_region ADDR SIZE NAME: [ADDR, ADDR + SIZE) lies in region NAME.
in_region() {
	region "$3" || return 1
	[ $(($1)) -ge "$R_BASE" ] && [ $(($1 + $2)) -le $((R_BASE + R_SIZE)) ]
}

# cma-test output: "  N: 0xSIZE@0xSTART" lines -> "N SIZE START"
chunks_of() { sed -n 's/^ *\([0-9]*\): \(0x[0-9a-f]*\)@\(0x[0-9a-f]*\)$/\1 \2 \3/p' "$1"; }

# chunk_start FILE I: the start of the I-th chunk cma-test printed (1-based).
chunk_start() { chunks_of "$1" | sed -n "$2p" | cut -d' ' -f3; }

# check_chunk WHAT FILE I SIZE REGION [BANK]: the I-th allocation in FILE
# came from REGION (and lies in bank BANK).
check_chunk() {
	_s=$(chunk_start "$2" "$3")
	if [ -z "$_s" ]; then
		not_ok "$1: no allocation #$3"
		sed 's/^/# /' "$2" | head -n 30
		return
	fi
	if ! in_region "$_s" "$4" "$5"; then
		not_ok "$1: $_s is not in region $5"
		region_line "$5" | sed 's/^/# /'
		return
	fi
	if [ -n "${6:-}" ] && [ "$(bank "$_s" "$4")" != "$6" ]; then
		not_ok "$1: $_s is in bank $(bank "$_s" "$4"), not $6"
		return
	fi
	ok "$1 ($_s in $5${6:+, bank $6})"
}

# The problems reported at boot.
errors() { klog | grep '^cma: error: '; }

CMA_SYSFS=/sys/kernel/mm/cma

# cma_stat REGION FILE: a region's value from sysfs (docs/cma.md, Statistics).
cma_stat() { cat "$CMA_SYSFS/$1/$2" 2>/dev/null; }

# What drivers held before the test began: with a cma_map= rule that
# matches any device (*/*), the DMA API's allocations of the drivers probed
# at boot come from the regions too (the PL330 DMA controllers' descriptor
# pages, docs/cma.md "The DMA API").  Those chunks are the baseline the
# checks below compare with; they are listed once, not counted as lost.
CMA_BASE_CHUNKS=/tmp/cma-base-chunks
[ -e "$CMA_BASE_CHUNKS" ] || cat "$CMA_DEBUGFS/chunks" >"$CMA_BASE_CHUNKS" 2>/dev/null
# cma_base_used REGION: bytes of REGION the baseline chunks hold.
cma_base_used() {
	_u=0
	# shellcheck disable=SC2013 # (one word a line: a size)
	for _z in $(sed -n "s/.* size=\(0x[0-9a-f]*\) region=$1 .*/\1/p" "$CMA_BASE_CHUNKS"); do
		_u=$((_u + _z))
	done
	echo $_u
}

# cma_lost: prints what is lost, one line each, nothing when nothing is:
# a chunk held that was not held when the test began (debugfs), or a region
# whose allocator runs that is not back where it was (sysfs: used and chunks
# those of the baseline, free the rest; largest_free the whole region when
# the baseline holds none of it).  Regions whose allocator did not start
# ("unused" in debugfs) have nothing to lose.
cma_lost() {
	# (debugfs files have size 0: test -s cannot tell; read them.)
	if [ -s "$CMA_BASE_CHUNKS" ]; then
		grep -vxF -f "$CMA_BASE_CHUNKS" "$CMA_DEBUGFS/chunks"
	else
		cat "$CMA_DEBUGFS/chunks"
	fi | sed 's/^/chunk held: /'
	for _d in "$CMA_SYSFS"/*; do
		[ -d "$_d" ] || continue
		_n=${_d##*/}
		grep -q "^$_n: .* unused\$" "$CMA_DEBUGFS/regions" 2>/dev/null && continue
		_size=$(cma_stat "$_n" size)
		_bu=$(cma_base_used "$_n")
		_bc=$(grep -c " region=$_n " "$CMA_BASE_CHUNKS")
		[ "$(cma_stat "$_n" used)" = "$_bu" ] && [ "$(cma_stat "$_n" chunks)" = "$_bc" ] &&
			[ "$(cma_stat "$_n" free)" = $((_size - _bu)) ] &&
			{ [ "$_bu" != 0 ] || [ "$(cma_stat "$_n" largest_free)" = "$_size" ]; } && continue
		echo "region $_n: size=$_size used=$(cma_stat "$_n" used) chunks=$(cma_stat "$_n" chunks)" \
			"free=$(cma_stat "$_n" free) largest_free=$(cma_stat "$_n" largest_free)" \
			"(held before the test: $_bc chunks, $_bu bytes)"
	done
}

# cma_nothing_lost WHAT: one TAP line: ok when cma_lost finds nothing, and
# there is a statistics directory for every region of the boot log.
cma_nothing_lost() {
	_lost=$(cma_lost)
	for _n in $(klog | sed -n 's/^cma: region \([^:]*\): base=.*/\1/p'); do
		[ -d "$CMA_SYSFS/$_n" ] || _lost="$_lost${_lost:+
}region $_n: no $CMA_SYSFS/$_n"
	done
	if [ -z "$_lost" ]; then
		ok "$1"
	else
		not_ok "$1"
		echo "$_lost" | sed 's/^/# /'
	fi
}

# no_leaks WHAT: the same, under the name the older checks use.
no_leaks() { cma_nothing_lost "$1"; }
