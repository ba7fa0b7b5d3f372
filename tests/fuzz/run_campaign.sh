#!/usr/bin/env bash
# Runs a fuzzing campaign over every reader with the libFuzzer binaries of the 'fuzz' preset
# (cmake --preset fuzz && cmake --build --preset fuzz). Each target gets SECONDS of wall time on
# one core; corpora grow under OUT/corpus, findings (crash-*, leak-*, timeout-*, oom-*) land in
# OUT/findings/<target>. Copy each finding, once fixed, to tests/fuzz/regressions/<target>/.
#   run_campaign.sh [SECONDS=1800] [OUT=build/fuzz-campaign] [TARGET...]
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
seconds="${1:-1800}"
out="${2:-$root/build/fuzz-campaign}"
shift 2 2>/dev/null || shift $#
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(problem_json minimalloc_csv session_file tvmscript legacy_tir mlf_metadata
                                     c_analysis mlf_archive mlf_export tir_export firmware_tree external_operators selftest_checks)
bin="$root/build/fuzz/tests/fuzz"
[ -d "$out/seeds" ] || "$root/tests/fuzz/make_seeds.sh" "$out/seeds" >/dev/null
# The export targets read the same inputs as their readers.
[ -d "$out/seeds/mlf_export" ] || cp -r "$out/seeds/c_analysis" "$out/seeds/mlf_export"
[ -d "$out/seeds/tir_export" ] || cp -r "$out/seeds/tvmscript" "$out/seeds/tir_export"
status=0
for t in "${targets[@]}"; do
  mkdir -p "$out/corpus/$t" "$out/findings/$t"
  log="$out/$t.log"
  echo "== $t: ${seconds}s"
  # Large inputs are allowed for the archives and the C (whole files); detect_leaks off because
  # libclang keeps process-wide caches.
  max_len=65536
  case "$t" in mlf_archive|c_analysis|mlf_export|firmware_tree) max_len=262144 ;; esac
  TIMEFORMAT="%U %S"
  cpu=$( { time ASAN_OPTIONS=detect_leaks=0 "$bin/fuzz_$t" "$out/corpus/$t" "$out/seeds/$t" -max_total_time="$seconds" \
    -max_len="$max_len" -timeout=20 -rss_limit_mb=4096 -artifact_prefix="$out/findings/$t/" -print_final_stats=1 \
    >"$log" 2>&1; echo "exit $?" >"$log.exit"; } 2>&1 )
  code=$(awk '{print $2}' "$log.exit")
  cpu_seconds=$(echo "$cpu" | awk '{printf "%d", $1 + $2}')
  runs=$(grep -a "stat::number_of_executed_units" "$log" | awk '{print $2}')
  echo "   exit $code, ${cpu_seconds} CPU seconds, ${runs:-?} runs, corpus $(ls "$out/corpus/$t" | wc -l), findings $(ls "$out/findings/$t" | wc -l)"
  [ "$code" -ne 0 ] && status=1
done
exit $status
