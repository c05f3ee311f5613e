#!/usr/bin/env bash
# Builds the documentation of every library module into a static site, and fails on any
# warning or on a public symbol without a doc comment.
#
#   Tests/docs.sh    writes .build/docs/<Module>/ (open index.html through any static file
#                    server; each module's site is hosted under /<Module>/)
#
# Symbol graphs come from a debug build in a scratch directory of its own (.build/docs-build),
# so the build flags never invalidate the main build. Each catalog in Sources/<Module>/
# <Module>.docc is converted with the toolchain's docc; a member that implements a protocol
# requirement inherits that requirement's documentation and needs no comment of its own.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out="$root/.build/docs"
# Kept with the scratch build: an up-to-date module is not compiled again, and so does not
# write its graph again.
graphs="$root/.build/docs-build/symbol-graphs"
rm -rf "$out"
mkdir -p "$out" "$graphs"

modules=()
for catalog in Sources/*/*.docc; do modules+=("$(basename "$catalog" .docc)"); done
echo "docs: extracting symbol graphs for ${modules[*]}"
status=0
for target in "${modules[@]}"; do
    # A module that does not build leaves an old graph behind: that is a failure, not a
    # pass on stale documentation.
    if ! swift build --scratch-path "$root/.build/docs-build" --target "$target" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
        -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public > "$out/build-$target.log" 2>&1; then
        grep -E "error:" "$out/build-$target.log" | head -20
        echo "docs: $target does not build" >&2
        exit 1
    fi
done
echo "docs: checking every public symbol has a doc comment"
python3 - "$graphs" "${modules[@]}" <<'PY' || status=1
import glob, json, os, sys
directory, modules = sys.argv[1], set(sys.argv[2:])
missing = []
for path in sorted(glob.glob(os.path.join(directory, "*.symbols.json"))):
    if os.path.basename(path).split("@")[0].split(".")[0] not in modules:
        continue
    graph = json.load(open(path))
    # A member with a source origin implements a protocol requirement and inherits its docs.
    inherited = {r["source"] for r in graph["relationships"] if r["kind"] == "memberOf" and "sourceOrigin" in r}
    for symbol in graph["symbols"]:
        if symbol.get("accessLevel") not in ("public", "open") or "location" not in symbol:
            continue
        if symbol.get("docComment") or symbol["identifier"]["precise"] in inherited:
            continue
        location = symbol["location"]
        file = location["uri"].split("/Sources/", 1)[-1]
        missing.append(f"Sources/{file}:{location['position']['line'] + 1}: "
                       f"{'.'.join(symbol['pathComponents'])} has no doc comment")
for line in sorted(set(missing)):
    print(line)
if missing:
    print(f"docs: {len(set(missing))} public symbols without a doc comment", file=sys.stderr)
    sys.exit(1)
PY

for module in "${modules[@]}"; do
    own="$out/graphs/$module"
    mkdir -p "$own"
    cp "$graphs/$module.symbols.json" "$own/"
    compgen -G "$graphs/$module@*.symbols.json" > /dev/null && cp "$graphs/$module"@*.symbols.json "$own/"
    log="$out/$module.log"
    if ! docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$own" \
        --fallback-display-name "$module" --fallback-bundle-identifier "scenecoordinator.$module" \
        --transform-for-static-hosting --hosting-base-path "$module" \
        --output-path "$out/$module" --warnings-as-errors > "$log" 2>&1; then
        status=1
    fi
    if grep -qE "warning:|error:" "$log"; then
        grep -E -A3 "warning:|error:" "$log"
        status=1
    fi
    echo "docs: $module → .build/docs/$module"
done
rm -rf "$out/graphs"
if [[ $status -ne 0 ]]; then
    echo "docs: FAILED (see above)" >&2
    exit 1
fi
echo "docs: every module built with no warnings"
