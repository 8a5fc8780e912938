# shellcheck shell=sh
# The CMA guest test scenarios: the kernel arguments each boot gets.
# Sourced by tests/suites/40-cma-guest.sh (bash, on the host) and by
# /tests/cma-guest.sh (busybox sh, in the guest).

# cma_append BOARD SCENARIO: the --append string for that boot.
set -u
cma_append() {
	case "$1:$2" in
	*:defaults) echo "" ;;
	goni:override)
		echo "cma=cam=8M@0x44000000;codec-a=16M@0x48000000;codec-b=16M@0x50000000;extra=4M/1M" \
			"cma_map=s5p-codec/a=codec-a;s5p-codec/b=codec-b;s5p-cam*/*=cam;test/*=extra,cam"
		;;
	aquila:override)
		echo "cma_map=*/*=cam;s5p-codec/a=codec-a"
		;;
	goni:bad)
		echo "cma=ok=1M;bad1=0;bad2=1M/3;bad3=1M:nope;bad4=1M@0x60000000;bad.5=1M;ok=2M;bad6=1M:bf(x;ovl=2M@0x44000000;ovl2=1M@0x44100000;r64=64M:ff(x);bad7=1M:bf(;ovl3=1M:ff()" \
			"cma_map=s5p-cam=ok;nope;x=missing,ok;a*b=ok"
		;;
	aquila:bad)
		# cma= of more than 512 characters, and two bad map rules
		_i=0 _s=
		while [ ${#_s} -le 600 ]; do
			_s="$_s${_s:+;}region$_i=1M"
			_i=$((_i + 1))
		done
		echo "cma=$_s cma_map=s5p-cam*/*=cam;/x=cam;s5p-codec/a,,b=codec-a;q=codec-a,zz"
		;;
	esac
}
