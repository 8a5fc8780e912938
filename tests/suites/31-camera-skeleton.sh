#!/usr/bin/env bash
# s5p-qemu: plain (the tutorial as a reader runs it; the camera model runs under ASan in 06-camera-qemu and 30-camera)
# s5p-lava: no (the tutorial builds its module on the host and reads the frames from a host folder)
# s5p-timeout: 600
# The tutorial docs/v4l2-driver.md, run as written: every ```sh block of
# it, in order, from the top of the checkout, with HOME a scratch directory
# (the tutorial works in ~/mycam and ~/frames):
#   1. samples/camera-skeleton copied to ~/mycam;
#   2. scripts/kmod.sh ~/mycam: the module's path alone on stdout, built
#      without a warning;
#   3. goni, --module: the skeleton binds to the camera (boot.sh's
#      --module leaves a device its module has an alias for to it) and
#      v4l2-compliance -s10 passes every test;
#   4. goni, --module, cma= and cma_map= sending kind y to region "mine"
#      (0x52000000) and kind c to "mine-c" (0x44000000): YUYV and NV12M
#      640x480 captures to the host folder, each buffer in the region its
#      kind's rule names (debugfs chunks), the regions' counters, and every
#      frame equal to the camera's pattern (camera_pattern.py).
# The outputs the tutorial shows (the v4l2-compliance totals, the YUYV
# chunks) are compared with the run's, so the page cannot drift from it.
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 13

doc=$S5P_TOP/docs/v4l2-driver.md
home=$T_TMP/home
mkdir -p "$home"

# The ```sh blocks of the tutorial, one file each: step-1.sh ...
awk -v dir="$T_TMP" '
	/^```sh$/ { n++; f = dir "/step-" n ".sh"; printf "" >f; inblock = 1; next }
	/^```$/ && inblock { inblock = 0; close(f); next }
	inblock { print >f }
	END { print n + 0 >(dir "/steps") }' "$doc"
steps=$(cat "$T_TMP/steps")
t_check "docs/v4l2-driver.md has its four steps as sh blocks (found $steps)" [ "$steps" = 4 ]

# step N: run the tutorial's block N as a reader would (bash, from the top
# of the checkout, HOME the scratch home); its stdout in step-N.out, its
# stderr in step-N.err, its status in RC.
step() {
	local t0=$SECONDS
	(cd "$S5P_TOP" && HOME=$home bash -e -o pipefail "$T_TMP/step-$1.sh") \
		>"$T_TMP/step-$1.out" 2>"$T_TMP/step-$1.err"
	RC=$?
	echo "# step $1: status $RC in $((SECONDS - t0)) s"
	[ "$RC" = 0 ] || tail -n 12 "$T_TMP/step-$1.err" | sed 's/^/#   /'
}

step 1
t_check "1. the skeleton copied to ~/mycam (status $RC)" \
	bash -c "[ $RC = 0 ] && cmp -s '$S5P_TOP/samples/camera-skeleton/camera-skeleton.c' '$home/mycam/camera-skeleton.c'"

step 2
t_check "2. kmod.sh builds it and prints its path alone on stdout, without a compiler warning (status $RC)" \
	bash -c "[ $RC = 0 ] && [ \"\$(cat '$T_TMP/step-2.out')\" = '$home/mycam/camera-skeleton.ko' ] &&
		! grep -i 'warning:' '$T_TMP/step-2.err'"

step 3
out=$T_TMP/step-3.out
t_check "3. goni --module: the skeleton is the camera's driver (status $RC; driver: $(head -n1 "$out"))" \
	bash -c "[ $RC = 0 ] && [ \"\$(head -n1 '$out')\" = camera-skeleton ]"
total=$(grep '^Total for camera-skeleton' "$out")
t_check "3. v4l2-compliance -s10 passes every test, streaming included (${total#Total for })" \
	bash -c "grep -qE '^Total for camera-skeleton device /dev/video[0-9]+: ([0-9]+), Succeeded: \\1, Failed: 0' <<<'$total' &&
		[ \$(grep -cE 'test MMAP \\((no poll|select|epoll), (REQBUFS|CREATE_BUFS)\\): OK' '$out') = 6 ]"
grep 'warn' "$out" | sed 's/^/#   /'
# (the node's number and the warnings aside: a loaded host may warn)
want=$(grep '^Total for camera-skeleton' "$doc" | sed 's,/dev/video[0-9]*,/dev/videoN,; s/, Warnings: [0-9]*$//')
# shellcheck disable=SC2001 # (a regular expression, which ${//} has not)
t_check "3. the totals the tutorial shows are the run's" \
	test "$want" = "$(sed 's,/dev/video[0-9]*,/dev/videoN,; s/, Warnings: [0-9]*$//' <<<"$total")"

step 4
out=$T_TMP/step-4.out
t_check "4. goni --module with cma=/cma_map=: both captures ran (status $RC)" [ "$RC" = 0 ]
# The chunks: the first 4 lines YUYV's, the next 8 NV12M's
chunks=$(grep -E '^0x[0-9a-f]+: size=' "$out")
t_check "4. YUYV: 4 buffers of kind y, in region mine at 0x52000000 (debugfs chunks)" \
	bash -c "[ \$(head -n 4 <<<'$chunks' | grep -cE '^0x52[0-7][0-9a-f]{5}: size=0x00096000 region=mine refs=[0-9]+ owner=fb200000.camera/y\$') = 4 ]"
t_check "4. NV12M: 4 luma planes of kind y in mine, 4 chroma planes of kind c in mine-c at 0x44000000" \
	bash -c "rest=\$(tail -n +5 <<<'$chunks');
		[ \$(grep -cE '^0x52[0-7][0-9a-f]{5}: size=0x0004b000 region=mine refs=[0-9]+ owner=fb200000.camera/y\$' <<<\"\$rest\") = 4 ] &&
		[ \$(grep -cE '^0x44[0-3][0-9a-f]{5}: size=0x00026000 region=mine-c refs=[0-9]+ owner=fb200000.camera/c\$' <<<\"\$rest\") = 4 ] &&
		[ \$(wc -l <<<\"\$rest\") = 8 ]"
t_check "4. the regions' counters: mine served 8, mine-c 4, none failed, nothing left in use" \
	bash -c "grep -qx 'mine/alloc_ok:8' '$out' && grep -qx 'mine/alloc_fail:0' '$out' &&
		grep -qx 'mine-c/alloc_ok:4' '$out' && grep -qx 'mine/used:0' '$out'"
t_check "4. the YUYV chunks the tutorial shows are the run's" \
	test "$(grep -m4 -E '^0x52[0-9a-f]+: size=0x00096000' "$doc")" = "$(head -n 4 <<<"$chunks")"

# Every frame: the pattern frame whose number its sequence-number band
# (rows 0-7: bit b of the number in columns b*W/32...) names, numbers
# increasing.
cat >"$T_TMP/frames.py" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import camera_pattern
w, h = 640, 480
for fourcc, path in (("YUYV", sys.argv[2]), ("NM12", sys.argv[3])):
    size = w * h * 2 if fourcc == "YUYV" else w * h * 3 // 2
    data = open(path, "rb").read()
    n, last, bad = len(data) // size, -1, []
    for i in range(n):
        f = data[i * size:(i + 1) * size]
        step = 2 if fourcc == "YUYV" else 1
        seq = 0
        for b in range(32):
            seq = seq << 1 | (f[step * (b * w // 32 + w // 64)] > 128)
        if seq <= last or f != camera_pattern.frame(fourcc, w, h, 0, seq):
            bad.append("%d (number %d)" % (i, seq))
        last = seq
    ok = n == 30 and len(data) == 30 * size and not bad
    print("%sok - 4. %s: %d frames of 640x480 on the host, each the pattern frame it names%s"
          % ("" if ok else "not ", fourcc, n, "; wrong: " + ", ".join(bad[:5]) if bad else ""))
EOF
if [ -s "$home/frames/YUYV.raw" ] && [ -s "$home/frames/NM12.raw" ]; then
	t_relay_cmd "" python3 "$T_TMP/frames.py" "$S5P_TOP/scripts/lib" "$home/frames/YUYV.raw" "$home/frames/NM12.raw"
else
	t_fail "4. YUYV: no frames in ~/frames"
	t_fail "4. NM12: no frames in ~/frames"
fi
t_done
