#!/bin/sh
# The guest side of scripts/bench-movable.sh: memory as the kernel reports
# it, then what one user process can fill before the OOM killer stops it
# (hog -g).  Prints
#   MEM <MemTotal> <MemAvailable> <CmaTotal> <CmaFree>      (kB)
#   FILL <MiB>
set -u
m() { sed -n "s/^$1: *\([0-9]*\) kB/\1/p" /proc/meminfo; }
echo "MEM $(m MemTotal) $(m MemAvailable) $(m CmaTotal) $(m CmaFree)"
hog -g >/tmp/fill.out 2>&1
echo "FILL $(sed -n 's/^hog: \([0-9]*\) MiB$/\1/p' /tmp/fill.out | tail -n 1)"
