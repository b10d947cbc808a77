#!/usr/bin/env bash
# The packages (installer/, issue "Installer and packaging"): build the .deb and the tarball
# with CPack from this build tree, install the .deb into a throw-away root (dpkg -x) and unpack
# the tarball into a temp folder, then from each, with a clean environment (env -i: no venv, no
# LD_LIBRARY_PATH, no display): probaudit --version, probaudit env --json, the workbench's
# offscreen self-check; the bundled libraries resolve inside the installed tree; no RUNPATH
# outside $ORIGIN and no build-machine path (source tree, build tree, venv) in any installed
# file; the AppStream metainfo and the desktop entry validate.
# The tarball is packed in the background while the .deb is built and checked (its gzip of the
# 3 GB of libtorch and CUDA libraries is the slowest step and uses one core); both packages'
# staging copies, packages and installed trees at once take about 15 GB of disk at the peak.
#   tests/test_package.sh SOURCE_DIR BUILD_DIR SITE_PACKAGES (the torch wheel's)
set -euo pipefail
src=$(realpath "$1")
build=$(realpath "$2")
site=$(realpath "$3")
[ -n "$src" ] && [ -n "$build" ] && [ -n "$site" ] || exit 2
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$build/CMakeCache.txt")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/probaudit-package.XXXXXX")
tgz_pid=
# The background cpack is stopped by its own pid (also when a check fails) before the folder goes.
trap '[ -z "$tgz_pid" ] || kill "$tgz_pid" 2>/dev/null || true; wait; rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

need_gb=15
free_gb=$(($(df -Pk "$tmp" | awk 'NR == 2 {print $4}') / 1024 / 1024))
echo "free disk under $tmp: $free_gb GB (a package's staging copy, package and installed tree)"
if [ "$free_gb" -lt "$need_gb" ]; then
    echo "FAIL: test_package needs $need_gb GB free under ${TMPDIR:-/tmp}, there are $free_gb GB"
    exit 1
fi
mkdir -p "$tmp/home"
clean() { env -i HOME="$tmp/home" PATH=/usr/bin:/bin "$@"; }

# build GENERATOR DIR: the package, in DIR, without CPack's staging copy.
build() {
    local start
    start=$(date +%s)
    cpack --config "$build/CPackConfig.cmake" -G "$1" -B "$2" > "$2.log" 2>&1 || {
        cat "$2.log"
        return 1
    }
    rm -rf "$2/_CPack_Packages"
    echo "cpack -G $1: $(($(date +%s) - start)) s"
}

# check_prefix PREFIX: the installed programs run, from the installed tree, with nothing of the
# build machine's environment.
check_prefix() {
    local prefix=$1 out got lib
    echo
    echo "== $prefix"
    out=$(clean "$prefix/bin/probaudit" --version) || bad "probaudit --version failed"
    echo "$out"
    [[ "$out" == *"$version"* ]] || bad "--version does not say $version"
    clean "$prefix/bin/probaudit" env --json > "$tmp/env.json" || bad "probaudit env --json failed"
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["torch"]["version"], d["torch"]
print("env --json: torch", d["torch"]["version"], "| invariant CPU", d["kernels"].get("invariant_cpu_isa"))' "$tmp/env.json" ||
        bad "env --json is not the fingerprint"
    # Every library the engine loads comes from the installed tree (or the system), none from
    # the build machine's venv.
    clean ldd "$prefix/bin/probaudit" > "$tmp/ldd.txt"
    grep -q "not found" "$tmp/ldd.txt" && bad "unresolved libraries: $(grep 'not found' "$tmp/ldd.txt")"
    for lib in torch/lib/libtorch_cpu.so torch/lib/libtorch_cuda.so nvidia/cu13/lib/libcublas.so.13 \
        nvidia/cudnn/lib/libcudnn.so.9; do
        got=$(awk -v n="$(basename "$lib")" '$1 == n {print $3}' "$tmp/ldd.txt")
        [ -n "$got" ] && [ "$(realpath "$got")" = "$(realpath "$prefix/lib/probaudit/$lib")" ] ||
            bad "$(basename "$lib") resolves to '$got', not inside the installed tree"
    done
    if clean "$prefix/bin/probaudit-workbench" --self-check > "$tmp/self.txt" 2> "$tmp/self.err"; then
        cat "$tmp/self.txt"
    else
        cat "$tmp/self.txt" "$tmp/self.err"
        bad "the workbench's self-check failed"
    fi
    # The installed demo studies find fetched models under $PROBAUDIT_HOME: point it at this
    # checkout's models and study B's "not fetched" note must go.
    grep -q "not fetched.*SmolLM2" "$tmp/self.txt" || bad "no note for the unfetched SmolLM2 model"
    if [ -d "$src/.cache/models/SmolLM2-135M-Instruct" ]; then
        env -i HOME="$tmp/home" PATH=/usr/bin:/bin PROBAUDIT_HOME="$src/.cache" \
            "$prefix/bin/probaudit-workbench" --self-check > "$tmp/self2.txt" 2>&1 ||
            bad "the workbench's self-check failed with PROBAUDIT_HOME=$src/.cache: $(cat "$tmp/self2.txt")"
        # (Study E's variants are made by its demo, not fetched: only study B's note must go.)
        grep -q "demo study sentiment-smollm2.study.json: not fetched.*SmolLM2" "$tmp/self2.txt" &&
            bad "PROBAUDIT_HOME=$src/.cache does not reach the installed study"
        grep -q "ok .*demo study sentiment-smollm2" "$tmp/self2.txt" || bad "study B not ok with models"
    fi
    [ -x "$prefix/bin/probaudit-fetch-demo-models" ] || bad "no probaudit-fetch-demo-models"
    # The transformers runner and the row hash library it loads, where the client looks.
    [ -f "$prefix/share/probaudit/runners/python/probaudit_runner/__main__.py" ] ||
        bad "no transformers runner under share/probaudit/runners/python"
    # Its fingerprint (probaudit_lock's), and the package a model's loader installs with pip.
    [ -f "$prefix/share/probaudit/runners/python/probaudit_lock/fingerprint.py" ] ||
        bad "no probaudit_lock beside the transformers runner"
    [ -f "$prefix/share/probaudit/python/probaudit_lock/pyproject.toml" ] ||
        bad "no installable probaudit_lock under share/probaudit/python"
    clean python3 -c 'import ctypes, sys; assert ctypes.CDLL(sys.argv[1]).probaudit_rowhash_abi() == 1' \
        "$prefix/lib/probaudit/libprobaudit_rowhash.so" || bad "lib/probaudit/libprobaudit_rowhash.so does not load"
}

# check_tree DIR PREFIX: no RUNPATH outside $ORIGIN and no build-machine path in any installed
# file; the executables are stripped.
check_tree() {
    local dir=$1 prefix=$2 elfs=0 f paths p hits exe
    while IFS= read -r -d '' f; do
        if [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ]; then
            elfs=$((elfs + 1))
            paths=$(readelf -d "$f" | sed -n 's/.*(R\(UN\)\?PATH).*\[\(.*\)\]/\2/p' | tr ':' '\n')
            while IFS= read -r p; do
                [ -z "$p" ] || [[ "$p" == '$ORIGIN'* || "$p" == '${ORIGIN}'* ]] || bad "$f: RUNPATH entry $p"
            done <<< "$paths"
        fi
    done < <(find "$dir" -type f -print0)
    # the executables and the bundled libraries (libtorch, CUDA): dozens, never none
    [ "$elfs" -ge 20 ] || bad "$dir: only $elfs ELF files found"
    echo "$elfs ELF files, every RUNPATH entry relative to \$ORIGIN"
    for p in "$src" "$build" "$site"; do
        hits=$(grep -rlF "$p" "$dir" | head -5 || true)
        [ -z "$hits" ] || bad "files that contain $p: $hits"
    done
    for exe in probaudit probaudit-workbench probaudit-report; do
        f=$prefix/bin/$exe
        [ -x "$f" ] || bad "no $f"
        readelf -S "$f" | grep -q '\.debug_info' && bad "$exe is not stripped"
        if strings "$f" | grep -E '\.venv|site-packages|/build/default' > "$tmp/paths.txt"; then
            head -3 "$tmp/paths.txt"
            bad "$exe names a build path"
        fi
    done
    echo "no installed file names $src, $build or $site"
}

tgz_start=$(date +%s)
cpack --config "$build/CPackConfig.cmake" -G TGZ -B "$tmp/pkg-tgz" > "$tmp/pkg-tgz.log" 2>&1 &
tgz_pid=$!
echo "== the .deb"
build DEB "$tmp/pkg" || exit 1
deb=$tmp/pkg/probaudit_${version}_amd64.deb
ar t "$deb" | grep -q '^data.tar.zst$' || bad "the .deb's data is not zstd-compressed: $(ar t "$deb" | tr '\n' ' ')"
ls -l "$deb"
echo "Depends: $(dpkg-deb -f "$deb" Depends)"
dpkg-deb -f "$deb" Depends | grep -q 'libqt6widgets6' || bad "the .deb does not depend on Qt"
dpkg -x "$deb" "$tmp/root"
rm -f "$deb"
echo "installed size: $(du -sh "$tmp/root" | cut -f1)"
check_prefix "$tmp/root/usr"
check_tree "$tmp/root" "$tmp/root/usr"
echo
echo "== metadata"
appstreamcli validate --no-net "$tmp/root/usr/share/metainfo/io.github.probaudit.workbench.metainfo.xml" ||
    bad "AppStream metainfo does not validate"
desktop-file-validate "$tmp/root/usr/share/applications/io.github.probaudit.workbench.desktop" ||
    bad "the desktop entry does not validate"
echo "desktop-file-validate: ok"
[ -f "$tmp/root/usr/share/icons/hicolor/scalable/apps/io.github.probaudit.workbench.svg" ] || bad "no icon"
rm -rf "$tmp/root"

echo
echo "== the tarball"
wait "$tgz_pid" || {
    tgz_pid=
    cat "$tmp/pkg-tgz.log"
    echo "FAIL: cpack -G TGZ"
    exit 1
}
tgz_pid=
rm -rf "$tmp/pkg-tgz/_CPack_Packages"
echo "cpack -G TGZ (beside the .deb's checks): $(($(date +%s) - tgz_start)) s"
tgz=$tmp/pkg-tgz/probaudit-${version}-linux-x86_64.tar.gz
ls -l "$tgz"
mkdir "$tmp/tar"
tar -xzf "$tgz" -C "$tmp/tar"
rm -f "$tgz"
echo "installed size: $(du -sh "$tmp/tar" | cut -f1)"
check_prefix "$tmp/tar/probaudit-${version}-linux-x86_64"
check_tree "$tmp/tar" "$tmp/tar/probaudit-${version}-linux-x86_64"
rm -rf "$tmp/tar"

if [ "$fail" != 0 ]; then
    echo "test_package: FAILED"
    exit 1
fi
echo "test_package: passed"
