#!/usr/bin/env bash
# The API-shape check: ModelRuntime's public Linux API against Apple's Core Data (and the
# Foundation and ObjectiveC types ModelRuntime declares on Linux), declaration by declaration.
# See docs/Verification.md ("API shape against Apple's SDK") for what it compares.
#
#   SDK_WORK=../apple-sdk Scripts/api-shape/check.sh [--report-dir DIR] [--update]
#
# Needs an iOS SDK (README of the apple-sdk tools: $APPLE_SDK, default
# $SDK_WORK/iPhoneOS17.4.sdk, prepared with `typecheck.sh prepare`), so it does not run in CI.
# Builds the ModelRuntime target, prints the interfaces of both sides with
# swift-synthesize-interface (the SDK's once, cached in $SDK_WORK/api-shape), and compares them
# with apishape.py. Exit status 0 when every difference is in known-differences.txt and every
# entry there still occurs, and runtime-only.txt (ModelRuntime's declarations that the SDK does
# not have, kept for review) is current; --update rewrites runtime-only.txt. Reports (all
# differences, SDK members not provided) are written to --report-dir (default .build/api-shape).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
WORK=${SDK_WORK:-sdk-work}
SDK=${APPLE_SDK:-$WORK/iPhoneOS17.4.sdk}
TARGET=arm64-apple-ios17.0
REPORT_DIR="$root/.build/api-shape"
UPDATE=()

while [ $# -gt 0 ]; do
    case "$1" in
    --report-dir) REPORT_DIR=$2; shift 2 ;;
    --update) UPDATE=(--update); shift ;;
    *) echo "check.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

[ -d "$SDK/System/Library/Frameworks/CoreData.framework" ] || {
    echo "check.sh: no iOS SDK at $SDK (set SDK_WORK or APPLE_SDK; see the apple-sdk tools' README)" >&2
    exit 2
}
WORK=$(cd "$WORK" && pwd)
SDK=$(cd "$SDK" && pwd)
[ -d "$WORK/rd" ] || { echo "check.sh: $WORK/rd is missing: run typecheck.sh prepare first" >&2; exit 2; }

# The SDK side: Core Data (with its Swift overlay), Foundation and ObjectiveC, printed once.
cache="$WORK/api-shape"
mkdir -p "$cache"
for module in CoreData Foundation ObjectiveC; do
    out="$cache/$module.swift"
    if [ ! -s "$out" ] || [ "$SDK" -nt "$out" ]; then
        echo "check.sh: printing the SDK's $module interface (once; about a minute for CoreData)" >&2
        # The SDK's `os` overlay does not build with this toolchain; its errors are noise here
        # (the printed interface is complete without it).
        swift-synthesize-interface -module-name "$module" -target "$TARGET" -sdk "$SDK" -resource-dir "$WORK/rd" \
            -module-cache-path "$WORK/mc" -include-submodules -o "$out.tmp" 2>/dev/null || true
        [ -s "$out.tmp" ] || { echo "check.sh: could not print the SDK's $module interface" >&2; exit 2; }
        mv "$out.tmp" "$out"
    fi
done

# The Linux side: ModelRuntime as built here.
cd "$root"
swift build --target ModelRuntime >&2
bin=$(swift build --show-bin-path)
mkdir -p "$REPORT_DIR"
swift-synthesize-interface -module-name ModelRuntime -target "$(uname -m)-unknown-linux-gnu" -I "$bin/Modules" \
    -Xcc -fmodule-map-file="$root/Sources/CSQLite/module.modulemap" \
    -Xcc -fmodule-map-file="$root/Sources/CZlib/module.modulemap" \
    -Xcc -fmodule-map-file="$root/Sources/CCrypto/module.modulemap" \
    -o "$REPORT_DIR/ModelRuntime-own.swift"
# The query types are ModelQuery's, re-exported by ModelRuntime under aliases of the same names:
# the API apps see is both modules' declarations, with each alias replaced by what it names.
swift-synthesize-interface -module-name ModelQuery -target "$(uname -m)-unknown-linux-gnu" -I "$bin/Modules" \
    -Xcc -fmodule-map-file="$root/Sources/CSQLite/module.modulemap" \
    -Xcc -fmodule-map-file="$root/Sources/CZlib/module.modulemap" \
    -Xcc -fmodule-map-file="$root/Sources/CCrypto/module.modulemap" \
    -o "$REPORT_DIR/ModelQuery.swift"
python3 - "$REPORT_DIR/ModelRuntime-own.swift" "$REPORT_DIR/ModelQuery.swift" >"$REPORT_DIR/ModelRuntime.swift" <<'COMBINE'
import re, sys
own, query = (open(path).read().split("\n") for path in sys.argv[1:3])
alias = re.compile(r"^public typealias (\w+) = ModelQuery\.\1$")
lines = [line for line in own if not alias.match(line) and line != "import ModelQuery"]
lines += [line for line in query if not line.startswith("import ")]
print("\n".join(line.replace("ModelQuery.", "") for line in lines))
COMBINE

# The Core Data stand-in's claims (client code the generated-code tests typecheck against the
# stand-in) must typecheck against the real SDK too.
claims="$root/Tests/ModelCompilerTests/Golden/CoreDataStandInClaims.swift"
claims_failed=0
if ! swiftc -typecheck -swift-version 6 -target "$TARGET" -sdk "$SDK" -resource-dir "$WORK/rd" -module-cache-path "$WORK/mc" \
    "$claims" >"$REPORT_DIR/standin-claims.log" 2>&1; then
    claims_failed=1
fi
grep -E "^$claims:[0-9]+:[0-9]+: error" "$REPORT_DIR/standin-claims.log" | sed 's/^/error: stand-in claim not true of the SDK: /' || true
if [ "$claims_failed" = 1 ] && ! grep -qE "^$claims:[0-9]+:[0-9]+: error" "$REPORT_DIR/standin-claims.log"; then
    echo "check.sh: the stand-in claims did not typecheck against the SDK (see $REPORT_DIR/standin-claims.log)" >&2
fi
echo "api-shape: stand-in claims against the SDK: $([ "$claims_failed" = 0 ] && echo "all hold" || echo "some fail")"

status=0
python3 "$here/apishape.py" \
    --runtime "$REPORT_DIR/ModelRuntime.swift" \
    --reference "$cache/CoreData.swift" --reference "$cache/Foundation.swift" --reference "$cache/ObjectiveC.swift" \
    --overlay "$SDK/System/Library/Frameworks/CoreData.framework/Modules/CoreData.swiftmodule/arm64-apple-ios.swiftinterface" \
    --errors-header "$SDK/System/Library/Frameworks/CoreData.framework/Headers/CoreDataErrors.h" \
    --runtime-sources "$root/Sources/ModelRuntime" \
    --known "$here/known-differences.txt" \
    --runtime-only "$here/runtime-only.txt" "${UPDATE[@]}" \
    --report-dir "$REPORT_DIR" || status=$?
exit $(( status != 0 || claims_failed != 0 ))
