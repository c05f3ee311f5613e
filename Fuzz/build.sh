#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer and AddressSanitizer, apart from the package:
# each library module the targets need is compiled from its sources with coverage
# instrumentation, then each target links against them.
#
#   Fuzz/build.sh            build every target (into .build/fuzz)
#   Fuzz/build.sh TARGET     build one (a file of Fuzz/targets: wire, manifest, links,
#                            intents, state, journal, session, program, schema)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/.build/fuzz"
mkdir -p "$out/modules"
flags=(-c -wmo -O -g -parse-as-library -swift-version 6 -enable-upcoming-feature ExistentialAny
       -enable-upcoming-feature InternalImportsByDefault -sanitize=fuzzer,address
       -package-name SceneCoordinator -I "$out/modules" -I "$out/modules/CSceneSystem")

# The C target (SceneCore reads the Swift runtime's table of distributed functions through
# it): its objects beside the modules' (the targets link every one), and a module map for
# its header, which SwiftPM would otherwise write.
include="$root/Sources/CSceneSystem/include"
mkdir -p "$out/modules/CSceneSystem"
map="module CSceneSystem {
    header \"$include/CSceneSystem.h\"
    export *
}"
[[ "$(cat "$out/modules/CSceneSystem/module.modulemap" 2>/dev/null)" == "$map" ]] || echo "$map" > "$out/modules/CSceneSystem/module.modulemap"
for source in "$root"/Sources/CSceneSystem/*.c; do
    object="$out/modules/CSceneSystem-$(basename "$source" .c).o"
    if [[ ! -f "$object" || "$source" -nt "$object" || "$include/CSceneSystem.h" -nt "$object" ]]; then
        echo "fuzz: compiling $(basename "$source")"
        cc -c -O1 -g -fPIC -I "$include" -o "$object" "$source"
    fi
done

# Modules in dependency order: the libraries the readers live in (SceneCoordinator reads
# state files, journals and sessions).
previous=""
module() {
    local name="$1"; shift
    local object="$out/modules/$name.o"
    # Rebuilt when a source is newer than the object, or a module before it (which it may
    # import) is newer.
    local stale=no
    [[ -f "$object" ]] || stale=yes
    [[ -n "$previous" && "$previous" -nt "$object" ]] && stale=yes
    [[ -n "$(find "$@" -newer "$object" -print -quit 2>/dev/null)" ]] && stale=yes
    previous="$object"
    [[ $stale == yes ]] || return 0
    echo "fuzz: compiling $name"
    swiftc "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$out/modules/$name.swiftmodule" \
        -o "$object" "$@" 2> >(grep -v "^ld.gold: warning" >&2)
}
# Every Swift file of a module's folder, its subfolders included, in a stable order.
sources() { find "$root/Sources/$1" -name '*.swift' -not -path '*.docc/*' | LC_ALL=C sort; }
mapfile -t files < <(sources SceneSync) && module SceneSync "${files[@]}"
mapfile -t files < <(sources SceneJSON) && module SceneJSON "${files[@]}"
mapfile -t files < <(sources SceneFlow) && module SceneFlow "${files[@]}"
mapfile -t files < <(sources SceneLinks) && module SceneLinks "${files[@]}"
mapfile -t files < <(sources SceneCore) && module SceneCore "${files[@]}"
mapfile -t files < <(sources SceneSocket) && module SceneSocket "${files[@]}"
mapfile -t files < <(sources SceneWire) && module SceneWire "${files[@]}"
mapfile -t files < <(sources SceneCoordinator) && module SceneCoordinator "${files[@]}"

# Every target is a file of Fuzz/targets; Fuzz/support is compiled with each.
all=$(cd "$root/Fuzz/targets" && ls *.swift | sed 's/\.swift$//' | tr '\n' ' ')
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && read -r -a targets <<< "$all"
for target in "${targets[@]}"; do
    source="$root/Fuzz/targets/$target.swift"
    [[ -f "$source" ]] || { echo "fuzz: no target $target (expected one of: $all)" >&2; exit 2; }
    binary="$out/$target"
    if [[ -f "$binary" ]] && [[ -z "$(find "$source" "$root"/Fuzz/support "$out"/modules/*.o -newer "$binary" -print -quit)" ]]; then continue; fi
    echo "fuzz: linking $target"
    rm -f "$binary"
    swiftc -parse-as-library -swift-version 6 -sanitize=fuzzer,address -O -g -package-name SceneCoordinator \
        -I "$out/modules" -I "$out/modules/CSceneSystem" \
        -module-name "Fuzz_$target" "$source" "$root"/Fuzz/support/*.swift "$out"/modules/*.o -o "$binary" 2>&1 \
        | { grep -v "^/usr/bin/ld.gold: warning" || true; }
    [[ -x "$binary" ]] || { echo "fuzz: linking $target failed" >&2; exit 1; }
done
