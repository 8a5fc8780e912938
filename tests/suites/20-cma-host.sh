#!/usr/bin/env bash
# s5p-quiet: on the host only (no boot, no kernel or QEMU build, no timing check), so it may run beside 12-pipeline
# The CMA framework on the host: the kernel's own mm/cma-parse.c,
# mm/cma-regions.c and allocators (mm/cma-best-fit.c, cma-first-fit.c,
# cma-bitmap.c) from the patched tree built for the host and unit-tested
# (tests/host/cma; allocator cases run, and are named, once per
# allocator), alloc_contig_free_range()'s carving and the rule of
# vm.cma_first_ratio cut out of mm/page_alloc.c
# (tests/host/cma/test-contig-take.c, test-cma-first.c), the user-space tools
# (tools/cma), the UAPI header copy, and checkpatch on the kernel series
# (run once per content of its inputs: scripts/series.sh keeps the verdict).
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 209
. "$S5P_TOP/scripts/lib/kernel.sh"

s5p_kernel_source
echo "# kernel tree with the series: $KSRC"

# Unit tests of the kernel code, on the host.
build=$S5P_CACHE/host-build/cma
rm -rf "$build"
if make -s -C "$S5P_TOP/tests/host/cma" KSRC="$KSRC" O="$build" >"$T_TMP/build.log" 2>&1; then
	t_pass "host build of the kernel's CMA files"
	"$build/test-cma" "${CMA_SEED:-20100720}" "${CMA_STEPS:-3000}"
	t_check "host unit tests exit with status 0" [ $? = 0 ]
	# alloc_contig_free_range()'s carving (mm/page_alloc.c), every range
	"$build/test-contig-take"
	t_check "alloc_contig_free_range() carving tests exit with status 0" [ $? = 0 ]
	# vm.cma_first_ratio's rule (mm/page_alloc.c), every small zone and ratio
	"$build/test-cma-first"
	t_check "zone_cma_first() tests exit with status 0" [ $? = 0 ]
else
	t_fail "host build of the kernel's CMA files"
	sed 's/^/#   /' "$T_TMP/build.log" | tail -n 30
fi

# The cut-outs of mm/page_alloc.c fail the build, naming the function, when
# the source moves: a function renamed away, or defined twice.
# cut_fails TARGET MESSAGE: making TARGET with the moved page_alloc.c fails,
# says MESSAGE and leaves no TARGET behind.
cut_fails() {
	make -s -C "$S5P_TOP/tests/host/cma" KSRC="$T_TMP/moved" O="$T_TMP/moved-build" \
		"$T_TMP/moved-build/$1" >"$T_TMP/moved.log" 2>&1 && return 1
	sed 's/^/#   /' "$T_TMP/moved.log"
	grep -qF "$2" "$T_TMP/moved.log" && [ ! -e "$T_TMP/moved-build/$1" ]
}
mkdir -p "$T_TMP/moved/mm"
sed -E 's/^(static )?bool zone_cma_first\(/\1bool zone_cma_first_moved(/' "$KSRC/mm/page_alloc.c" >"$T_TMP/moved/mm/page_alloc.c"
t_check "a cut-out of a function page_alloc.c no longer defines fails the build, naming it" \
	cut_fails cma-first.c 'no definition of zone_cma_first()'
sed -n '/^static void contig_give_back(/,/^}/p' "$KSRC/mm/page_alloc.c" >>"$T_TMP/moved/mm/page_alloc.c"
t_check "a cut-out of a function page_alloc.c defines twice fails the build, naming it" \
	cut_fails contig-take.c 'contig_give_back() is defined twice'

# A second random sequence each run, so that many seeds get tried over time.
seed=$(date +%s)
if [ -x "$build/test-cma" ]; then
	"$build/test-cma" "$seed" 1000 >"$T_TMP/seed.log" 2>&1
	t_check "host unit tests with seed $seed" [ $? = 0 ]
	grep '^not ok' "$T_TMP/seed.log" | sed 's/^/#   /'
fi

# The UAPI header the tools build with is the kernel's.
t_check "tools/cma/include/linux/cma.h is the kernel's include/uapi/linux/cma.h" \
	cmp "$S5P_TOP/tools/cma/include/linux/cma.h" "$KSRC/include/uapi/linux/cma.h"

# The tools: native (for the checks below) and static armel (the initramfs).
tools=$T_TMP/tools
cp -a "$S5P_TOP/tools/cma" "$tools"
rm -rf "$tools/build"
t_check "tools/cma builds natively without warnings" \
	bash -o pipefail -c "make -s -C '$tools' 2>&1 | (! grep -E 'warning|error')"
t_check "tools/cma installs static armel binaries into DESTDIR/usr/bin" \
	bash -c "make -s -C '$tools' CROSS_COMPILE=arm-linux-gnueabi- DESTDIR='$T_TMP/dest' install &&
		file '$T_TMP/dest/usr/bin/cma-test' '$T_TMP/dest/usr/bin/cma-abi-test' |
		grep -c 'ARM.*statically linked' | grep -qx 2"

ct=$tools/build/native/cma-test
# ct_says INPUT LINE [COUNT]: cma-test, given INPUT (printf %b) and no
# device, prints LINE (COUNT times, default once).
ct_says() {
	local n
	n=$(printf '%b' "$1" | "$ct" -q -d "$T_TMP/no-such-device" 2>&1 | grep -cxF "$2")
	[ "$n" = "${3:-1}" ]
}
t_check "cma-test: alloc without a name" ct_says 'a\n' 'a: expecting name'
t_check "cma-test: alloc without a size" ct_says 'alloc dev\n' 'alloc: expecting size after name'
t_check "cma-test: size 0 is refused" ct_says 'a dev 0\n' 'a: invalid size'
t_check "cma-test: a bad alignment is refused" ct_says 'a dev 1M/x\n' 'a: invalid alignment'
t_check "cma-test: trailing garbage is refused" ct_says 'a dev 1M/4Kx\n' 'a: unknown arguments at the end: x'
t_check "cma-test: names and kinds longer than 16 characters are refused" \
	ct_says 'a seventeen-chars-x 1M\na dev/seventeen-chars-x 1M\n' 'a: name or kind too long' 2
t_check "cma-test: size and alignment with suffixes reach the device" \
	ct_says 'a dev/kind 3M/64K\n' 'a: allocating 0x300000/0x10000'
t_check "cma-test: a missing device is reported by its name, with its errno" \
	ct_says 'a dev 1M\n' "a: $T_TMP/no-such-device: No such file or directory (ENOENT)"
t_check "cma-test: comments are ignored and an empty line repeats the last command" \
	ct_says '# comment\nfree\n\n' 'free: no chunks' 2
t_check "cma-test: unknown commands are reported" ct_says 'frobnicate\n' 'frobnicate: unknown command'
t_check "cma-test: exit status 1 when a command failed" \
	bash -c "printf 'f\n' | '$ct' -q >/dev/null 2>&1; [ \$? = 1 ]"
printf 'alloc 1 dev - 0x1000 0x0 0x40000000\nbogus line\nfree 7\n' >"$T_TMP/bad.rec"
t_check "cma-test: replay reports unreadable lines and unknown chunks" \
	bash -c "'$ct' -d '$T_TMP/none' -p '$T_TMP/bad.rec' >'$T_TMP/rp.out' 2>&1; rc=\$?;
		grep -q 'cannot parse: bogus line' '$T_TMP/rp.out' &&
		grep -q 'free 7: no such chunk' '$T_TMP/rp.out' &&
		grep -q 'alloc 1: ENOENT, recorded 0x40000000' '$T_TMP/rp.out' &&
		grep -qx 'replay: 1 allocations, 1 frees, 3 mismatches' '$T_TMP/rp.out' && [ \$rc = 1 ]"

# cma-test stats, on a fake sysfs directory and debugfs chunk list.
fake=$T_TMP/fake-sysfs
mkdir -p "$fake/cma/cam" "$fake/cma/half"
for f in base size allocator used free chunks largest_free alloc_ok alloc_fail; do
	echo 7 >"$fake/cma/cam/$f"
done
echo 0x4f000000 >"$fake/cma/cam/base"
echo ff >"$fake/cma/cam/allocator"
echo bf >"$fake/cma/half/allocator"
printf '0x4f000000: size=0x00001000 region=cam refs=2 owner=s5p-cam/y\n0x57800000: size=0x00002000 region=codec-b refs=1 owner=x\n' >"$fake/chunks"
t_check "cma-test stats: one line per region with every sysfs value, then its chunks" \
	bash -c "[ \"\$(printf 'stats cam\n' | '$ct' -q -s '$fake/cma' -c '$fake/chunks')\" = \
'cam: base=0x4f000000 size=7 allocator=ff used=7 free=7 chunks=7 largest_free=7 alloc_ok=7 alloc_fail=7
    0x4f000000: size=0x00001000 region=cam refs=2 owner=s5p-cam/y' ]"
t_check "cma-test stats: every region in name order; a missing file is '?' and an error" \
	bash -c "out=\$(printf 'stats\n' | '$ct' -q -s '$fake/cma' -c '$fake/chunks' 2>&1); rc=\$?;
		[ \$rc = 1 ] && echo \"\$out\" | grep -n '^[a-z]*:' | grep -q '^1:cam: ' &&
		echo \"\$out\" | grep -qx 'half: base=? size=? allocator=bf used=? free=? chunks=? largest_free=? alloc_ok=? alloc_fail=?' &&
		echo \"\$out\" | grep -qx 'stats: region half: cannot read every file of $fake/cma/half'"
t_check "cma-test stats: an unknown region, extra arguments and no sysfs are reported" \
	bash -c "out=\$(printf 'stats nope\nstats cam x\n' | '$ct' -q -s '$fake/cma' 2>&1;
		printf 'stats\n' | '$ct' -q -s '$fake/none' 2>&1);
		echo \"\$out\" | grep -qx 'stats: no region nope in $fake/cma' &&
		echo \"\$out\" | grep -qx 'stats: unknown arguments at the end: x' &&
		echo \"\$out\" | grep -qx 'stats: $fake/none: No such file or directory (no CMA regions, or no sysfs)'"
t_check "cma-test COMMAND ARGS: one command from the arguments (cma-test stats cam, as docs/cma.md shows it)" \
	bash -c "[ \"\$('$ct' -s '$fake/cma' -c '$fake/chunks' stats cam)\" = \"\$(printf 'stats cam\n' | '$ct' -q -s '$fake/cma' -c '$fake/chunks')\" ] &&
		'$ct' -s '$fake/cma' -c '$fake/chunks' stats cam | grep -q '^cam: base=0x4f000000 '"

# A region's name typed where a device is expected (a cam 1M): /dev/cma
# answers ENOENT (no cma_map= rule matches); an ioctl() that does so (a
# preloaded library) on a fake device shows what cma-test says then.
printf '#include <errno.h>\nint ioctl(int fd, unsigned long req, ...) { (void)fd; (void)req; errno = ENOENT; return -1; }\n' \
	>"$T_TMP/enoent.c"
printf '1: fb200000.camera/*,s5p-cam*/*=cam\n' >"$fake/map"
: >"$T_TMP/fake-dev"
gcc -shared -fPIC -o "$T_TMP/enoent.so" "$T_TMP/enoent.c" 2>"$T_TMP/enoent.log"
printf 'a cam 1M\n' | LD_PRELOAD=$T_TMP/enoent.so "$ct" -q -d "$T_TMP/fake-dev" -s "$fake/cma" -c "$fake/chunks" \
	>/dev/null 2>"$T_TMP/noroute.err"
t_check "cma-test: a region's name as the device: no rule matches device \"cam\", the regions, the usage and the rules are said" \
	bash -c "grep -qx 'a: no cma_map= rule matches device \"cam\": cma_alloc: No such file or directory (ENOENT)' '$T_TMP/noroute.err' &&
		grep -qx 'a: the regions are cam, half ($fake/cma)' '$T_TMP/noroute.err' &&
		grep -qx 'a: \"cam\" is a region: alloc takes a device, which the cma_map= rules send to a region' '$T_TMP/noroute.err' &&
		grep -qx 'a: usage: a <dev>\[/<kind>\] <size>\[/<align>\]' '$T_TMP/noroute.err' &&
		grep -qx 'a:     1: fb200000.camera/\*,s5p-cam\*/\*=cam' '$T_TMP/noroute.err'"

# checkpatch on every patch of the series: every one "clean", nothing else
# said.  (PATH: checkpatch's spdxcheck.py wants the distribution's python3,
# with python3-ply and python3-git, not a pyenv or virtualenv python3.)
checkpatch_clean() {
	local out
	out=$(env PATH="/usr/bin:$PATH" "$S5P_TOP/scripts/series.sh" kernel check 2>"$T_TMP/checkpatch.err" |
		tee "$T_TMP/checkpatch.out"; exit "${PIPESTATUS[0]}") || {
		printf '%s\n' "$out"
		cat "$T_TMP/checkpatch.err"
		return 1
	}
	# (the pipeline's progress on stderr, when the tree is set up again
	# for this series, is no verdict: "==> ..." and "    [N/M] PATCH")
	out=$(cat "$T_TMP/checkpatch.err" - <<<"$out" |
		grep -vE '^    checkpatch: inputs unchanged since |^==> |^    \[[0-9]+/[0-9]+\] ')
	# Without python3-ply and python3-git, checkpatch only skips its SPDX
	# check (with a Python traceback): say so, and judge the rest.
	if printf '%s\n' "$out" | grep -q 'spdxcheck.py'; then
		echo "# note: checkpatch's SPDX check did not run (install python3-ply python3-git)" >&2
		out=$(printf '%s\n' "$out" | grep -vE '^Traceback|spdxcheck\.py|^    (from ply|import git)|^ModuleNotFoundError')
	fi
	[ -n "$out" ] && ! printf '%s\n' "$out" | grep -v ': clean$'
}
t_check "checkpatch.pl is clean on every patch of kernel-patches/" checkpatch_clean
sed -n 's/^    checkpatch: /# checkpatch: /p' "$T_TMP/checkpatch.err"
# The verdict is kept by the hash of checkpatch's inputs (scripts/series.sh):
# a second check on the same inputs prints it again without a run.
t_check "checkpatch: a second check on the same inputs gives the kept verdict, line for line, without running" \
	bash -c "env PATH=/usr/bin:\$PATH '$S5P_TOP/scripts/series.sh' kernel check 2>&1 >'$T_TMP/checkpatch-2.out' |
		grep -q '^    checkpatch: inputs unchanged since ' && cmp '$T_TMP/checkpatch.out' '$T_TMP/checkpatch-2.out'"

t_done
