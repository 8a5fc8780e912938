# Cut kernel functions out of a source file for the host tests:
#
#   awk -v funcs="NAME..." -f cut-out.awk FILE.c >OUT.c
#
# prints the definition of each NAME, in the order given: from the line at
# column 0 that names it before a "(" (its return type and name) to the
# first "}" at column 0 after it, with exactly one "{" at column 0 in
# between (a prototype or a macro use is not a definition).  A function
# that is missing, defined twice or not cut cleanly is an error that names
# it, with status 1 and nothing printed: when the kernel's source moves,
# the cut-out says so instead of compiling something else.
BEGIN {
	n = split(funcs, name, " ")
	if (n == 0) {
		print "cut-out.awk: no function named (-v funcs=...)" > "/dev/stderr"
		exit 2
	}
}
{ line[NR] = $0 }
END {
	if (n == 0)
		exit 2
	bad = 0
	for (i = 1; i <= n; i++) {
		f = name[i]
		first[f] = 0
		for (l = 1; l <= NR; l++) {
			if (line[l] !~ ("^[A-Za-z_].*[ *]" f "[(]") && line[l] !~ ("^" f "[(]"))
				continue
			if (line[l] ~ /;[ \t]*$/)
				continue
			if (first[f]) {
				printf "%s: %s() is defined twice (lines %d and %d): the cut-out needs updating\n",
					FILENAME, f, first[f], l > "/dev/stderr"
				bad = 1
				break
			}
			first[f] = l
		}
		if (!first[f]) {
			printf "%s: no definition of %s(): the cut-out needs updating\n", FILENAME, f > "/dev/stderr"
			bad = 1
			continue
		}
		opens = 0
		last[f] = 0
		for (l = first[f]; l <= NR; l++) {
			if (line[l] ~ /^[{]/)
				opens++
			if (line[l] ~ /^[}]/) {
				last[f] = l
				break
			}
		}
		if (!last[f] || opens != 1) {
			printf "%s: %s() (line %d) does not run from a \"{\" line to a \"}\" line at column 0: the cut-out needs updating\n",
				FILENAME, f, first[f] > "/dev/stderr"
			bad = 1
		}
	}
	if (bad)
		exit 1
	for (i = 1; i <= n; i++) {
		f = name[i]
		for (l = first[f]; l <= last[f]; l++)
			print line[l]
		print ""
	}
}
