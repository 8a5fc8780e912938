#!/usr/bin/env bash
# s5p-quiet: on the host only (no boot, no build, no timing check), so it may run beside 12-pipeline
# s5p-timeout: 300
# Debian's shellcheck (scripts/setup.sh installs it) over every shell script
# of scripts/, tests/ and rootfs/init: the files named *.sh and those whose
# first line runs a shell.  The tree's .shellcheckrc makes it follow what a
# script sources (found next to it, or where a "# shellcheck source="
# directive says: the guest's /tests/lib.sh is tests/guest/lib.sh).  Every
# severity counts, style included; a line the code is right on says so with
# "# shellcheck disable=SCnnnn # (why)", never a whole file or check.
# About 45 s of CPU on this project's machine (docs/testing.md).
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 4

cd "$S5P_TOP" || exit 1
# shell_files DIR...: the shell scripts under each DIR (or the file DIR)
shell_files() {
	local f
	{
		if [ -e .git ]; then git ls-files -- "$@"; else find "$@" -type f; fi
	} | while IFS= read -r f; do
		case $f in
		*.sh) echo "$f" ;;
		*) [ -f "$f" ] && head -n1 "$f" | grep -qE '^#!.*\b(ba|da|busybox )?sh\b' && echo "$f" ;;
		esac
	done | sort -u
}

if ! command -v shellcheck >/dev/null; then
	t_fail "shellcheck is installed (Debian's package, scripts/setup.sh)"
else
	t_pass "shellcheck is installed: $(shellcheck --version | sed -n 's/^version: //p') (Debian's package, scripts/setup.sh)"
fi
for tree in scripts tests rootfs/init; do
	mapfile -t files < <(shell_files "$tree")
	if [ "${#files[@]}" = 0 ]; then
		t_fail "$tree: shell scripts found"
		continue
	fi
	shellcheck -f gcc "${files[@]}" >"$T_TMP/out" 2>&1
	rc=$?
	n=$(grep -c ': \(error\|warning\|note\|style\): ' "$T_TMP/out")
	t_check "$tree: ${#files[@]} shell script(s), no shellcheck finding (status $rc, $n)" \
		[ "$rc.$n" = 0.0 ]
	head -n 40 "$T_TMP/out" | sed 's/^/#   /'
done
t_done
