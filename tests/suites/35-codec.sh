#!/usr/bin/env bash
# s5p-flavours: default debug
# s5p-shared-boot: debug goni codec.sh main
# The codec end to end in the guest: the V4L2 mem2mem driver
# (drivers/codec) on videobuf2-dma-contig on the emulated codec
# (qemu-patches/), fed by the camera.  tests/guest/codec.sh runs in four
# boots:
#   goni, the board's defaults (codec-a bank 1, codec-b bank 2):
#       v4l2-compliance (MMAP; DMABUF from the camera), zero copy (the
#       camera's NM12 as two planes too), camera -> codec encodes (NV12M
#       from two MMAP planes too), placement, bad input, close/unbind/
#       rmmod while streaming, the single-planar API (multiplanar=1);
#   goni, cma_map= swapping the kinds (a in codec-b, b in codec-a), the
#       camera's chroma outside port A's window: its NM12 refused;
#   goni, cma_map= putting both kinds in codec-a: pictures in the
#       bitstream's bank refused at QBUF;
#   aquila, the board's defaults: compliance, encodes and placement;
#   goni, cma_map= with no rule for the codec's kind "b": no probe, the
#       log naming the rule;
#   goni, scripts/boot-goni.sh --demo: its PNGs and its stream checked here.
# Every encoded stream comes back base64 over the output UART; here each
# frame is decoded by djpeg and compared with the camera's pattern
# (codec_check.py: PSNR >= 30 dB, luma and RGB; 36 dB for the streams of
# the camera's gradient and noise pattern).  On the host, before the
# boots: the driver's error codes are the model's (qemu-patches/), its
# interrupt handler prints nothing without a rate limit, and the device
# tree bindings (drivers/bindings) pass dt-schema, the boards' trees too.
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 178 debug=96

check=$S5P_TOP/scripts/lib/codec_check.py

# run BOARD SCENARIO APPEND
run() {
	local board=$1 scenario=$2
	t_wanted "$board" "$scenario" || return 0
	t_guest_boot "$board" codec.sh "$scenario" "$3"
	if grep -q '^BEGIN-FILE MJPEG ' "$T_OUT"; then
		t_relay_cmd "$board $scenario: " python3 "$check" check <"$T_OUT"
	elif [ "$scenario" != onebank ] && [ "$scenario" != nokind ]; then
		t_fail "$board $scenario: no encoded stream came back"
	fi
	t_guest_end "$board" "$scenario"
}

drv=$S5P_TOP/drivers/codec/s5pv210-codec.c
if [ "${S5P_FLAVOUR:-default}" = default ]; then
	# The ERROR codes as the QEMU model defines them (the last definition
	# of each in the series' order wins) against the driver's enum.
	t_check "the driver's codec_error enum names the model's CODEC_ERR_* codes (qemu-patches/)" \
		python3 - "$drv" "$S5P_TOP/qemu-patches" <<-'EOF'
		import re, sys
		drv, qdir = sys.argv[1], sys.argv[2]
		model = {}
		for p in open(qdir + "/series").read().split():
		    for m in re.finditer(r"^\+\s*CODEC_ERR_(\w+) = (\d+),", open(qdir + "/" + p).read(), re.M):
		        model[int(m.group(2))] = m.group(1)
		body = re.search(r"enum codec_error \{(.*?)\};", open(drv).read(), re.S).group(1)
		ours, n = {}, 0
		for name, val in re.findall(r"CODEC_ERR_(\w+)(?:\s*=\s*(\d+))?,", body):
		    n = int(val) if val else n
		    ours[n] = name
		    n += 1
		print("# model:  " + " ".join(f"{k}={v}" for k, v in sorted(model.items())))
		print("# driver: " + " ".join(f"{k}={v}" for k, v in sorted(ours.items())))
		sys.exit(0 if model and ours == model else 1)
		EOF
	# A device error repeats at every job until STREAMOFF: the interrupt
	# handler's prints must be rate-limited (dev_*_ratelimited).
	t_check "the driver's interrupt handler (codec_irq) prints only rate-limited" \
		python3 -c '
import re, sys
src = open(sys.argv[1]).read()
body = re.search(r"\nstatic irqreturn_t codec_irq\(.*?\n\}\n", src, re.S).group(0)
bad = re.findall(r"\b((?:dev|pr)_(?:emerg|alert|crit|err|warn|notice|info)|printk)\(", body)
print("# unlimited: " + (" ".join(bad) or "none"))
sys.exit(1 if bad else 0)' "$drv"
	# The bindings: dt-schema's own checks of each, then both boards'
	# device trees validated against them (the nodes of these two
	# compatibles reported on, nothing else: the tree's other nodes are
	# checked against no kernel binding here), and a node that breaks
	# them caught.
	# (memory-region's type is the kernel's binding's)
	. "$S5P_TOP/scripts/lib/kernel.sh"
	s5p_kernel_source >/dev/null
	b=$S5P_TOP/drivers/bindings
	t_check "the bindings qemu,s5pv210-camera.yaml and qemu,s5pv210-codec.yaml pass dt-doc-validate" \
		dt-doc-validate -u "$b" "$b"/media/qemu,s5pv210-camera.yaml "$b"/media/qemu,s5pv210-codec.yaml
	dtbs=
	for board in goni aquila; do
		dtbs+=" $(s5p_dtb "$board" >/dev/null 2>&1 && echo "$DTB")"
	done
	cat >"$T_TMP/bad.dts" <<-'EOF'
	/dts-v1/;
	/ { #address-cells = <1>; #size-cells = <1>; model = "bad"; compatible = "bad";
		soc { #address-cells = <1>; #size-cells = <1>; ranges; compatible = "simple-bus";
			video-codec@f1700000 { compatible = "qemu,s5pv210-codec"; reg = <0xf1700000 0x10000>;
				interrupts = <14>; memory-region = <1>, <2>; memory-region-names = "a", "q"; };
			camera@fb200000 { compatible = "qemu,s5pv210-camera"; reg = <0xfb200000 0x1000>; }; }; };
	EOF
	# Every step's status judged (dt-validate skips a file that is not
	# there and exits 0 whatever it finds: its "Check:" lines say which
	# trees it read), both trees validated, then what it said.
	dtv() {
		local d n=0 rc
		dt-mk-schema -j "$b" "$KSRC/Documentation/devicetree/bindings/reserved-memory/memory-region.yaml" \
			>"$T_TMP/schema.json" || { echo "dt-mk-schema failed (status $?)"; return 1; }
		dtc -q -I dts -O dtb -o "$T_TMP/bad.dtb" "$T_TMP/bad.dts" || { echo "dtc failed on bad.dts (status $?)"; return 1; }
		for d in $dtbs; do
			[ -s "$d" ] || { echo "no device tree at $d"; return 1; }
			n=$((n + 1))
		done
		[ "$n" = 2 ] || { echo "$n device trees, not the two boards'"; return 1; }
		# shellcheck disable=SC2086 # (the two boards' trees, split on purpose)
		dt-validate -v -s "$T_TMP/schema.json" $dtbs >"$T_TMP/dtv.log" 2>&1
		rc=$?
		[ "$rc" = 0 ] || { echo "dt-validate failed on the boards' trees (status $rc)"; tail -n 5 "$T_TMP/dtv.log"; return 1; }
		n=$(grep -c '^Check: ' "$T_TMP/dtv.log")
		[ "$n" = 2 ] || { echo "dt-validate read $n of the 2 trees"; return 1; }
		! grep -E 'video-codec@|camera@fb2' "$T_TMP/dtv.log" || return 1
		dt-validate -s "$T_TMP/schema.json" "$T_TMP/bad.dtb" >"$T_TMP/dtv-bad.log" 2>&1
		rc=$?
		[ "$rc" = 0 ] || { echo "dt-validate failed on the bad tree (status $rc)"; tail -n 5 "$T_TMP/dtv-bad.log"; return 1; }
		grep -q "video-codec@f1700000: memory-region-names:1: 'q' is not one of" "$T_TMP/dtv-bad.log" ||
			{ echo "the bad codec node's memory-region-names not caught"; return 1; }
		grep -A2 'camera@fb200000:' "$T_TMP/dtv-bad.log" | grep -q "'interrupts' is a required property" ||
			{ echo "the bad camera node's missing interrupts not caught"; return 1; }
	}
	t_check "dt-validate: the boards' codec and camera nodes follow the bindings ($(wc -w <<<"$dtbs") trees); a node that breaks them is caught" \
		dtv
fi

cam='fb200000.camera/*=cam'
run goni main ''
run goni swapped "cma_map=f1700000.video-codec/a=codec-b;f1700000.video-codec/b=codec-a;fb200000.camera/y=codec-b;fb200000.camera/c=cam"
run goni onebank "cma_map=f1700000.video-codec/*=codec-a;$cam"
run aquila basic ''
run goni nokind "cma_map=f1700000.video-codec/a=codec-a;$cam"

# ---- scripts/boot-goni.sh --demo DIR ----
t_wanted goni demo || { t_done; exit 0; }
demo=$T_TMP/demo
echo "# goni, --demo $demo"
"$S5P_TOP/scripts/boot-goni.sh" --demo "$demo" >"$T_TMP/demo.out" 2>&1
rc=$?
t_check "--demo exits with status 0 (got $rc)" [ "$rc" = 0 ]
[ "$rc" = 0 ] || tail -n 15 "$T_TMP/demo.out" | sed 's/^/#   /'
t_check "--demo says what it wrote" grep -q "^wrote $demo/codec-640x480-YUYV.mjpeg\$" "$T_TMP/demo.out"
npng=0 njpg=0
for f in "$demo"/camera-640x480-YUYV-*.png; do
	[ -e "$f" ] || continue
	seq=${f##*-} seq=${seq%.png}
	t_relay_cmd "demo: " python3 "$check" image "$f" "$seq"
	npng=$((npng + 1))
done
for f in "$demo"/codec-640x480-YUYV-*.jpg; do
	[ -e "$f" ] || continue
	seq=${f##*-} seq=${seq%.jpg}
	t_relay_cmd "demo: " python3 "$check" image "$f" "$seq"
	njpg=$((njpg + 1))
done
t_check "--demo wrote 6 PNG frames and 6 JPEG frames (got $npng and $njpg)" [ "$npng:$njpg" = 6:6 ]
# The frames are named by the camera's sequence numbers (demo.txt lists
# them in order): on a loaded host the camera drops some, 0,1,2,3,6,9.
seqs=$(awk '$1 == "MJPEG" { print $5 }' "$demo/demo.txt" 2>/dev/null | tr , ' ')
t_check "--demo: the .mjpeg stream is the 6 JPEG frames one after the other (sequence ${seqs:-unknown})" \
	cmp "$demo/codec-640x480-YUYV.mjpeg" <(for s in $seqs; do cat "$demo/codec-640x480-YUYV-$s.jpg"; done)
t_check "--demo shows the GStreamer pipeline it runs" \
	grep -q '^demo: GStreamer: gst-launch-1.0 v4l2src .* ! v4l2jpegenc ' "$T_TMP/demo.out"
ngst=0
for f in "$demo"/gstreamer/frame-*.jpg; do
	[ -e "$f" ] && [ "$(djpeg -pnm "$f" 2>/dev/null | head -c 15 | sed -n 2p)" = "640 480" ] &&
		ngst=$((ngst + 1))
done
t_check "--demo: GStreamer's 6 JPEG frames decode to 640x480 (got $ngst)" [ "$ngst" = 6 ]
t_done
