#!/usr/bin/env bash
# Build an out-of-tree kernel module against exactly the kernel a board boots.
#
# usage: scripts/kmod.sh [--board goni|aquila] [--flavour NAME] [--clean] DIR
#
# DIR holds a Kbuild file (or a Makefile with obj-m lines) and the module's
# sources.  The board's kernel is built first if the cache does not have it
# (the same build scripts/boot-<board>.sh boots: the series, the board's
# .config, Debian's arm-linux-gnueabi- cross compiler), then
#
#   make ARCH=arm CROSS_COMPILE=arm-linux-gnueabi- -C <kernel source> \
#        O=<that kernel's build directory> M=DIR modules
#
# with the symbols of the project's drivers (drivers/: camera,
# codec...) known, so a module may use their exports.  As with any
# out-of-tree module, the objects and FILE.ko are left in DIR; the path of
# each .ko is printed on stdout.  Load one in the guest with
#
#   scripts/boot-goni.sh --module DIR/FILE.ko --cmd 'dmesg | tail'
#
#   --board B     goni (default) or aquila (today both boot the same kernel)
#   --flavour F   default (the default) or debug: build for that kernel
#                 flavour, and boot it with the same --flavour
#   --clean       make clean in DIR first
#   -h, --help    this text
#
# Exit status: 0 built; 1 the build failed (make's output above); 2 bad usage.
# docs/driver-loop.md walks through writing, building, loading a module.
set -u
. "$(dirname "$0")/lib/common.sh"
. "$S5P_TOP/scripts/lib/kernel.sh"

usage() { sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'; }
bad_usage() { printf 'error: %s (try --help)\n' "$1" >&2; exit 2; }

board=goni flavour=${S5P_FLAVOUR:-default} clean=0 dir=
while [ $# -gt 0 ]; do
	case "$1" in
	--board) [ $# -ge 2 ] || bad_usage "--board needs a value"; board=$2; shift 2 ;;
	--flavour) [ $# -ge 2 ] || bad_usage "--flavour needs a value"; flavour=$2; shift 2 ;;
	--clean) clean=1; shift ;;
	-h | --help) usage; exit 0 ;;
	-*) bad_usage "unknown option '$1'" ;;
	*) [ -z "$dir" ] || bad_usage "one module directory only ('$dir', then '$1')"; dir=$1; shift ;;
	esac
done
[ -n "$dir" ] || bad_usage "no module directory given"
[ -d "$dir" ] || bad_usage "'$dir' is not a directory"
[ -f "$dir/Kbuild" ] || [ -f "$dir/Makefile" ] || bad_usage "'$dir' has no Kbuild or Makefile"
[ -f "$S5P_TOP/boards/$board/$board.dts" ] || bad_usage "unknown board '$board' (goni or aquila)"
s5p_kernel_flavours | grep -xF -- "$flavour" >/dev/null ||
	bad_usage "unknown kernel flavour '$flavour' (one of: $(s5p_kernel_flavours | tr '\n' ' '))"
dir=$(realpath "$dir")

if ! "$S5P_TOP/scripts/setup.sh" --check >/dev/null 2>&1; then
	s5p_log "first run: installing the Debian packages the project needs"
	"$S5P_TOP/scripts/setup.sh" >&2 || exit 1
fi
# The cached kernel (built when missing) and the project's drivers; the
# module builds against the tree at this checkout's series, which no other
# run may check out meanwhile (the tree's lock, docs/pipeline.md).  What
# they print goes to standard error: standard output is the .ko paths.
exec 3>&1 1>&2
s5p_kernel_build "$board" "$flavour"
[ -n "${S5P_KERNEL_TREE:-}" ] || s5p_tree_lock "$KDIR"
s5p_kernel_checkout
exec 1>&3 3>&-
rel=$(cat "$KBUILD/include/config/kernel.release")
syms=()
[ ! -f "$KBUILD/s5p-drivers/Module.symvers" ] ||
	syms=(KBUILD_EXTRA_SYMBOLS="$KBUILD/s5p-drivers/Module.symvers")

if [ $clean = 1 ]; then
	"${S5P_KMAKE[@]}" -s -C "$KSRC" O="$KBUILD" M="$dir" clean >&2 || exit 1
fi
s5p_log "kmod: building $dir against $rel ($board, $flavour flavour: $KBUILD)"
rm -f "$dir/modules.order"
"${S5P_KMAKE[@]}" -C "$KSRC" O="$KBUILD" M="$dir" "${syms[@]}" modules >&2 ||
	{ printf 'error: building the module in %s failed (above)\n' "$dir" >&2; exit 1; }

# modules.order names every module of this build (DIR/NAME.ko in 6.1;
# NAME.o relative to DIR in older kernels).
n=0
while read -r m; do
	[[ $m != *.o ]] || m=${m%.o}.ko
	[[ $m == /* ]] || m=$dir/$m
	[ -f "$m" ] || continue
	printf '%s\n' "$m"
	n=$((n + 1))
done <"$dir/modules.order"
[ $n -gt 0 ] || { printf 'error: %s built no module (no obj-m in its Kbuild?)\n' "$dir" >&2; exit 1; }
s5p_info "kmod: $n module(s) for $rel; load with: scripts/boot-$board.sh${flavour:+$([ "$flavour" = default ] || echo " --flavour $flavour")} --module FILE.ko"
