#!/usr/bin/env bash
# Measures how the release `modelgen validate` handles hostile and huge input: wall time and
# peak memory per case, next to the bundled sample as the baseline of the same run.
# Targets: every case answers within 2 s and under 200 MB.
# Usage: Benchmarks/robustness.sh   (needs python3 and GNU time at /usr/bin/time)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product modelgen >/dev/null
bin=.build/release/modelgen
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import os, random, sys
d = sys.argv[1]
def write(name, data):
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
write("empty.model.yaml", "")
random.seed(7)
write("garbage.model.yaml", bytes(random.getrandbits(8) for _ in range(1 << 20)))
write("invalid-utf8.model.yaml", b"entities:\n  Trip:\n    attributes:\n      name: Str\xc3\x28ing\n")
write("nesting.model.yaml", "[" * 10000 + "]" * 10000)
bomb = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
for i in range(1, 12):
    p, n = chr(97 + i - 1), chr(97 + i)
    bomb += f"{n}: &{n} [" + ", ".join([f"*{p}"] * 9) + "]\n"
write("alias-bomb.model.yaml", bomb)
parts = ["entities:\n"]
size, i = 0, 0
while size < 10 * 1024 * 1024:
    block = f"  Entity{i}:\n    attributes:\n" + "".join(
        f"      attribute{j}: {{ type: String, optional: true, maxLength: 100 }}\n" for j in range(20))
    block += f"    relationships:\n      next: {{ to: Entity{i}, inverse: previous }}\n      previous: {{ to: Entity{i}, inverse: next }}\n"
    parts.append(block); size += len(block); i += 1
write("ten-megabytes.model.yaml", "".join(parts))
os.mkdir(os.path.join(d, "folder"))
PY

measure() {
    local label=$1; shift
    local stats
    /usr/bin/time -o "$work/time.txt" -f "%e %M" "$bin" validate --quiet "$@" >/dev/null 2>&1 || true
    echo "$label $(tail -1 "$work/time.txt")"
}

baseline=$(measure sample Samples/Trips/Trips.modeld)
base_kilobytes=$(echo "$baseline" | awk '{print $3}')
printf '%-16s %8s %9s %16s\n' case seconds "peak MB" "× sample memory"
for entry in "sample:Samples/Trips/Trips.modeld" empty garbage invalid-utf8 nesting alias-bomb ten-megabytes folder missing; do
    name=${entry%%:*}
    case $entry in
        sample:*) path=${entry#*:} ;;
        folder) path=$work/folder ;;
        missing) path=$work/missing.model.yaml ;;
        *) path=$work/$name.model.yaml ;;
    esac
    read -r _ seconds kilobytes <<<"$(measure "$name" "$path")"
    awk -v n="$name" -v s="$seconds" -v k="$kilobytes" -v b="$base_kilobytes" \
        'BEGIN { printf "%-16s %8.2f %9.1f %16.1f\n", n, s, k / 1024, k / b }'
done
