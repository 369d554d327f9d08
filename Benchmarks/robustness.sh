#!/usr/bin/env bash
# Measures how the release `modelgen validate` (and `checksum` for .momd cases) handles hostile and huge input: wall time and
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
# Deep structure: each check of the version must stay near-linear.
n = 2000
write("inheritance-chain.model.yaml", "entities:\n" + "".join(
    f"  E{i}:\n    attributes:\n      a{i}: String?\n" + (f"    parent: E{i-1}\n" if i else "") for i in range(n)))
write("deep-hierarchy.model.yaml", "entities:\n" + "".join(
    f"  E{i}:\n    attributes:\n      a{i}: String?\n    relationships:\n      r{i}: {{ to: E{i}, inverse: r{i}, toMany: true }}\n"
    f"    unique: [a{i}]\n    indexes:\n      byA{i}: [a{i}]\n" + (f"    parent: E{i-1}\n" if i else "") for i in range(n)))
write("inheritance-cycle.model.yaml", "entities:\n" + "".join(
    f"  E{i}:\n    attributes:\n      a{i}: String?\n    parent: E{(i+1)%n}\n" for i in range(n)))
write("composite-cycle.model.yaml", "entities:\n  Holder:\n    attributes:\n      c: { type: C0 }\ncomposites:\n" + "".join(
    f"  C{i}:\n    c{i}: C{(i+1)%n}\n" for i in range(n)))
write("unknown-destinations.model.yaml", "entities:\n" + "".join(
    f"  Entity{i}:\n    relationships:\n      r: {{ to: Missing{i}, oneWay: true }}\n" for i in range(4000)))
# Xcode contents whose attribute name is not UTF-8 (FoundationXML stops the process on it).
write("non-utf8-name.contents", b'<?xml version="1.0" encoding="UTF-8"?>\n<model><entity n\xffame="X"/></model>\n')
# A compiled model whose VersionInfo.plist is one array referencing the next twice, 60 deep.
import struct
def bplist(objects):
    out = bytearray(b"bplist00"); offsets = []
    for o in objects: offsets.append(len(out)); out += o
    table = len(out)
    for o in offsets: out += struct.pack(">H", o)
    out += bytes([0, 0, 0, 0, 0, 0, 2, 1]) + struct.pack(">QQQ", len(objects), 0, table)
    return bytes(out)
os.mkdir(os.path.join(d, "plist-bomb.momd"))
write("plist-bomb.momd/VersionInfo.plist", bplist([bytes([0xA2, i + 1, i + 1]) for i in range(60)] + [b"\x51x"]))
os.mkdir(os.path.join(d, "huge-uid.momd"))
write("huge-uid.momd/VersionInfo.plist", bplist([b"\x87\x80" + bytes(7)]))
PY

measure() {
    local label=$1; shift
    local command=(validate --quiet)
    case $1 in *.momd) command=(checksum) ;; esac
    /usr/bin/time -o "$work/time.txt" -f "%e %M" "$bin" "${command[@]}" "$@" >/dev/null 2>&1 || true
    echo "$label $(tail -1 "$work/time.txt")"
}

baseline=$(measure sample Samples/Trips/Trips.modeld)
base_kilobytes=$(echo "$baseline" | awk '{print $3}')
printf '%-22s %8s %9s %16s\n' case seconds "peak MB" "× sample memory"
for entry in "sample:Samples/Trips/Trips.modeld" empty garbage invalid-utf8 nesting alias-bomb ten-megabytes folder missing \
    inheritance-chain deep-hierarchy inheritance-cycle composite-cycle unknown-destinations \
    "non-utf8-name:non-utf8-name.contents" "plist-bomb:plist-bomb.momd" "huge-uid:huge-uid.momd"; do
    name=${entry%%:*}
    case $entry in
        sample:*) path=${entry#*:} ;;
        *:*) path=$work/${entry#*:} ;;
        folder) path=$work/folder ;;
        missing) path=$work/missing.model.yaml ;;
        *) path=$work/$name.model.yaml ;;
    esac
    read -r _ seconds kilobytes <<<"$(measure "$name" "$path")"
    awk -v n="$name" -v s="$seconds" -v k="$kilobytes" -v b="$base_kilobytes" \
        'BEGIN { printf "%-22s %8.2f %9.1f %16.1f\n", n, s, k / 1024, k / b }'
done
