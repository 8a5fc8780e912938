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
	R_ALIGN=$(($(field "$_l" align)))
	R_ALLOC=$(field "$_l" allocator)
}

# The memory banks of this board: "base size" pairs, in hex.
banks() {
	case "$board" in
	goni) echo "0x30000000 0x05000000 0x40000000 0x10000000 0x50000000 0x08000000" ;;
	aquila) echo "0x30000000 0x05000000 0x40000000 0x18000000" ;;
	esac
}

# bank ADDR SIZE: the number of the bank holding [ADDR, ADDR + SIZE), or -1.
bank() {
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

# no_leaks WHAT: no chunk is held and every region is empty again.
no_leaks() {
	if [ -s "$CMA_DEBUGFS/chunks" ]; then
		not_ok "$1: chunks still held"
		sed 's/^/# /' "$CMA_DEBUGFS/chunks"
	elif grep ' used=' "$CMA_DEBUGFS/regions" | grep -qv ' used=0x00000000 '; then
		not_ok "$1: a region is not empty"
		sed 's/^/# /' "$CMA_DEBUGFS/regions"
	else
		ok "$1"
	fi
}
