#!/usr/bin/env bash
# Writes what `usmpx` prints and exports for the bundled examples, the test fixtures and the
# ../shared inputs into OUT_DIR, one file per command, with run times blanked (the only figures
# that change from run to run). Two trees of such files compared with `diff -r` show whether a
# change kept every output byte-identical (a restructuring must):
#   scripts/usmpx-outputs.sh build/before/usmpx /tmp/before
#   scripts/usmpx-outputs.sh build/release/app/usmpx /tmp/after && diff -r /tmp/before /tmp/after
set -uo pipefail
usmpx=$(realpath "$1")
out=$(realpath -m "$2")
shared=$(realpath -m "${USMPX_SHARED_DIR:-$(dirname "$0")/../../shared}")
cd "$(dirname "$0")/.."
rm -rf "$out"
mkdir -p "$out"

inputs=(resources/examples/* tests/fixtures/mlf/* tests/fixtures/tvm_examples/*.json tests/fixtures/tir/*)
for f in "$shared"/mlf/*.tar "$shared"/mlf/firmware/*/model "$shared"/benchmarks/minimalloc/A.1048576.csv "$shared"/tflite/models/*.tflite; do
  [ -e "$f" ] && inputs+=("$f")
done

# Run times (ms in text, runtime_ms in JSON) vary between runs; nothing else may.
blank_times() { sed -E 's/"runtime_ms": [0-9.e+-]+/"runtime_ms": 0/; s/[0-9]+([.][0-9]+)? ms\b/_ ms/g; s/[0-9]+([.][0-9]+)? s\b/_ s/g'; }

run() {  # run NAME ARGS...: stdout, stderr and exit code into OUT/NAME
  local name=$1
  shift
  { "$usmpx" "$@" 2>&1; echo "exit $?"; } | sed "s#$out#OUT#g; s#$PWD#.#g; s#$(realpath -m "$shared")#SHARED#g" |
    blank_times >"$out/$name"
}

for input in "${inputs[@]}"; do
  key=$(echo "$input" | sed "s#^$shared#shared#; s#[/.]#_#g")
  run "$key.info" info "$input"
  run "$key.info.json" info "$input" --json
  for algorithm in greedy_by_size greedy_by_conflicts hill_climb as-built; do
    run "$key.plan.$algorithm" plan "$input" --algorithm "$algorithm"
    run "$key.plan.$algorithm.json" plan "$input" --algorithm "$algorithm" --json
  done
  run "$key.check" check "$input" --algorithm greedy_by_size
  for algorithm in as-built greedy_by_size; do
    dir=$out.export
    rm -rf "$dir"
    run "$key.export.$algorithm" export "$input" --algorithm "$algorithm" --out "$dir"
    if [ -d "$dir" ]; then
      (cd "$dir" && find . -type f | sort | while read -r f; do echo "$(blank_times <"$f" | md5sum | cut -c1-32)  $f"; done) \
        >"$out/$key.export.$algorithm.files"
    fi
    rm -rf "$dir"
  done
done
echo "wrote $(ls "$out" | wc -l) files to $out"
