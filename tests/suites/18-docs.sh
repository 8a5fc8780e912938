#!/usr/bin/env bash
# s5p-quiet: on the host only (no boot, no build, no timing check), so it may run beside 12-pipeline
# s5p-timeout: 300
# The facts README.md and docs/ state about the tree, checked against it
# (tests/host/docs/check-docs.py says each): the scripts and paths they
# cite exist, the options they give a script are in its --help, the board
# facts they quote are board.conf's, the boot parameters reference holds
# the series' kernel-parameters.txt entries, each figure the project
# measures is in docs/figures.md, once, with its date, commit and machine
# (or dated in its own paragraph, with its commit), and no page tells the
# project's history (issues, kernel patch numbers, sessions, branches).
# Then the checker itself: each check fails on a tree that breaks it.
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 17

cd "$S5P_TOP" || exit 1
checker=tests/host/docs/check-docs.py
python3 "$checker" "$S5P_TOP" >"$T_TMP/out" 2>"$T_TMP/err"
rc=$?
t_relay "" <"$T_TMP/out"
n=$(grep -c '^\(not \)\?ok - ' "$T_TMP/out")
t_check "the checker ran its 7 checks, nothing on its stderr (status $rc, $n results)" \
	[ "$n.$(wc -c <"$T_TMP/err")" = 7.0 ]
sed 's/^/#   /' "$T_TMP/err"

# The tree again, its docs and boards copied (the rest linked), each check
# broken once by an edit of the copy
copy=$T_TMP/tree
mkdir -p "$copy"
for f in .[!.]* *; do
	case $f in docs | README.md | boards) ;; *) ln -s "$S5P_TOP/$f" "$copy/$f" ;; esac
done
# broken CHECK SED-SCRIPT FILE WHAT FINDING: the check CHECK fails once
# FILE is edited, with a finding that matches FINDING (an ERE)
broken() {
	local check=$1 expr=$2 file=$3 what=$4 finding=$5
	rm -rf "$copy/docs" "$copy/README.md" "$copy/boards"
	cp -r docs README.md boards "$copy"/
	sed -i "$expr" "$copy/$file"
	if cmp -s "$file" "$copy/$file"; then
		t_fail "$what (the edit changed nothing: $file)"
		return
	fi
	python3 "$S5P_TOP/$checker" "$copy" "$check" >"$T_TMP/broken" 2>&1
	t_check "$what: '$check' fails ($(grep -E "^#   .*($finding)" "$T_TMP/broken" | head -n1 | cut -c5-))" \
		grep -qE "^#   .*($finding)" "$T_TMP/broken"
}
broken scripts 's|scripts/kmod.sh|scripts/kmodx.sh|' docs/getting-started.md "a script a guide cites is renamed" 'docs/getting-started.md:[0-9]+: scripts/kmodx.sh'
broken paths 's|docs/tuning.md|docs/tunning.md|' README.md "a page the README cites is gone" 'README.md:[0-9]+: docs/tunning.md'
broken options '0,/scripts\/boot-goni.sh --cmd/s//scripts\/boot-goni.sh --cmdx/' docs/getting-started.md \
	"a command gives boot-goni.sh an option it does not have" 'boot-goni.sh --cmdx \(not in its --help'
broken regions 's/^BOARD_CMA="cam=24M/BOARD_CMA="cam=16M/' boards/goni/board.conf \
	"Goni's cam region shrinks in board.conf and not in the docs" "cma=cam=24M@0x4c800000;.* is no board's BOARD_CMA"
broken parameters '0,/RULE := PATTERN/s/RULE := PATTERN/RULE := PATTERNS/' docs/boot-parameters.md \
	"the reference's cma_map= grammar drifts from the series'" "entry cma_map= is not there"
broken parameters 's/cma_movable=/cma_moveable=/' docs/cma.md \
	"a page cites a boot parameter the series does not have" 'cma_moveable= is no boot parameter'
broken figures '0,/^| [^-f]/s/| 20[0-9][0-9]-[0-9][0-9]-[0-9][0-9] |/| yesterday |/' docs/figures.md \
	"a figure loses its date" "docs/figures.md:[0-9]+: date 'yesterday'"
broken figures '1a\
The kernel build takes 325 s.' docs/v4l2-driver.md \
	"a page quotes a build time of its own" 'docs/v4l2-driver.md:2: "325 s"'
broken history '1a\
Since issue 12 the regions lend their memory (kernel patch 26).' docs/cma.md \
	"a page tells the project's history" 'docs/cma.md:2: "issue 12"'
t_done
