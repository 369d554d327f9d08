#!/bin/bash
# Runs modelruntime-benchmark N times for each given build, alternating the builds, and prints
# per phase the best rows/second of the runtime and of the SQLite floor (the floor's best taken
# over every run, since every build runs the same floor code). On a machine shared with other
# work, single runs move by ±30%; the best of several is the closest to what the code can do.
#
# usage: Benchmarks/runtime-best-of.sh N BINARY... [-- BENCHMARK OPTIONS]
# e.g.:  Benchmarks/runtime-best-of.sh 5 .build/release/modelruntime-benchmark -- --batch-insert-rows 1000
set -euo pipefail
runs=$1
shift
binaries=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do binaries+=("$1"); shift; done
[ $# -gt 0 ] && shift
options=("$@")
results=$(mktemp)
trap 'rm -f "$results"' EXIT
for _ in $(seq "$runs"); do
    for binary in "${binaries[@]}"; do
        "$binary" "${options[@]}" 2>&1 | grep -E '^\| [0-9] ' | awk -v binary="$binary" '{ print binary "\t" $0 }' >>"$results" || true
    done
done
python3 - "$results" <<'PY'
import collections, sys
runtime = collections.defaultdict(float)
floor = collections.defaultdict(float)
names = {}
for line in open(sys.argv[1]):
    binary, row = line.rstrip("\n").split("\t", 1)
    cells = [cell.strip() for cell in row.split("|")[1:-1]]
    name, r, f = cells[0], cells[1], cells[2]
    key = (name.split(" ", 1)[0], name)
    names[key] = name
    runtime[(binary, key)] = max(runtime[(binary, key)], float(r))
    floor[key] = max(floor[key], float(f))
for (binary, key) in sorted(runtime, key=lambda k: (k[1], k[0])):
    best, base = runtime[(binary, key)], floor[key]
    ratio = 100 * best / base if base else 0
    print(f"{names[key]:<48} {binary}: runtime {best:,.0f}/s, floor {base:,.0f}/s, {ratio:.1f}%")
PY
