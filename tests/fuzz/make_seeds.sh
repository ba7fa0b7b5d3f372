#!/usr/bin/env bash
# Builds the seed corpora for the fuzz targets from the project's examples and fixtures and the
# shared real inputs: make_seeds.sh OUT_DIR [SHARED_DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$1"
shared="${2:-$root/../shared}"
mkdir -p "$out"
seed() {  # seed TARGET FILE...
  local target="$1"; shift
  mkdir -p "$out/$target"
  for f in "$@"; do [ -f "$f" ] && cp "$f" "$out/$target/$(echo "$f" | sed 's|/|_|g')"; done
  return 0
}
shopt -s nullglob globstar
problems=()
for f in "$root"/tests/fixtures/**/*.json "$root"/resources/examples/*.json; do
  grep -q '"usmpx-problem"' "$f" && problems+=("$f")
done
seed problem_json "${problems[@]}"
seed minimalloc_csv "$shared"/benchmarks/minimalloc/*.csv "$shared"/benchmarks/derived/*.csv "$shared"/benchmarks/idealloc/iopddl/G_1.csv
seed session_file "$root"/tests/fuzz/seeds/session_file/*
seed tvmscript "$root"/resources/examples/*.py "$root"/tests/fixtures/tir/**/*.py
seed legacy_tir "$root"/resources/examples/*.txt "$root"/tests/fixtures/tir/**/*.txt
seed mlf_metadata "$root"/tests/fixtures/mlf/**/metadata.json
seed c_analysis "$root"/tests/fixtures/mlf/**/*.c
seed mlf_export "$root"/tests/fixtures/mlf/**/*.c "$root"/tests/fuzz/regressions/mlf_export/*
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for tarball in "$shared"/mlf/*.tar; do
  name="$(basename "$tarball" .tar)"
  mkdir -p "$tmp/$name"
  tar -xf "$tarball" -C "$tmp/$name" 2>/dev/null || true
  seed mlf_metadata "$tmp/$name/metadata.json"
done
# Small C files of the real tarballs (letscope's 2 MB lib1.c is too big to mutate usefully).
for f in "$tmp"/*/codegen/host/src/*.c; do
  [ "$(stat -c %s "$f")" -lt 200000 ] && seed c_analysis "$f"
done
mkdir -p "$out/mlf_archive"
for dir in "$root"/tests/fixtures/mlf/usmp_*/; do
  name="$(basename "$dir")"
  tar -C "$dir" -cf "$out/mlf_archive/$name.tar" .
  tar -C "$dir" -czf "$out/mlf_archive/$name.tgz" .
done
[ -f "$shared/mlf/sine_aot_v5.tar" ] && cp "$shared/mlf/sine_aot_v5.tar" "$out/mlf_archive/"
# Firmware trees: the fixtures without metadata.json in several layouts, and the real CMSIS-NN tree.
mkdir -p "$out/firmware_tree"
for dir in "$root"/tests/fixtures/mlf/usmp_*/; do
  name="$(basename "$dir")"
  flat="$tmp/fw_$name/flat"; split="$tmp/fw_$name/split"
  mkdir -p "$flat" "$split/src" "$split/inc"
  cp "$dir"/codegen/host/src/*.c "$dir"/codegen/host/include/*.h "$flat/"
  cp "$dir"/codegen/host/src/*.c "$split/src/"; cp "$dir"/codegen/host/include/*.h "$split/inc/"
  tar -C "$flat" -cf "$out/firmware_tree/${name}_flat.tar" .
  tar -C "$split" -czf "$out/firmware_tree/${name}_split.tgz" .
done
# Every layout and era: a flat MLF folder, a graph-executor MLF, Arm DSP code with absent CMSIS
# headers, an operator calling an iteratee; libraries recognised by content (no tvmgen_<mod>.h).
for name in flat_mnist graph_executor cmsis_dsp_headers nested_iteratee; do
  tar -C "$root/tests/fixtures/mlf/$name" -cf "$out/mlf_archive/$name.tar" .
done
for name in operator_library aot_2021_tree; do
  tar -C "$root/tests/fixtures/mlf/$name" -cf "$out/firmware_tree/$name.tar" .
done
[ -d "$shared/mlf/firmware/mlperf_tiny_ic_cmsis_nn/model" ] &&
  tar -C "$shared/mlf/firmware/mlperf_tiny_ic_cmsis_nn/model" -cf "$out/firmware_tree/mlperf_tiny_ic.tar" .
seed external_operators "$root"/tests/fixtures/mlf/usmp_cmsis_nn/codegen/host/src/default_lib2.c \
  "$shared"/mlf/firmware/mlperf_tiny_ic_cmsis_nn/model/codegen/host/src/default_lib2.c
seed selftest_checks "$root"/tests/fixtures/mlf/usmp_cmsis_nn/codegen/host/src/default_lib2.c \
  "$root"/tests/fixtures/mlf/selftest_refusals/esp_dl_kernels/codegen/host/src/default_lib2.c \
  "$root"/tests/fixtures/mlf/selftest_refusals/esp_idf_heap/codegen/host/src/default_lib0.c
seed tflite "$root"/resources/examples/*.tflite "$shared"/tflite/models/*.tflite "$root"/tests/fuzz/regressions/tflite/*
seed executorch "$root"/resources/examples/*.pte "$shared"/executorch/models/*.pte "$root"/tests/fuzz/regressions/executorch/*
for t in "$out"/*; do echo "$(basename "$t"): $(ls "$t" | wc -l) seeds"; done
