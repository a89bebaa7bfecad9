#!/usr/bin/env bash
# Fuzzing with libFuzzer + AddressSanitizer + UndefinedBehaviorSanitizer (Debian's clang 14:
# clang-14 and libclang-rt-14-dev). Seven targets over the text API (tests/fuzz/targets.cpp):
#   advise     a request text
#   data       a request and a provider's data object (advise_with_data_text)
#   jobs_csv   a job-history CSV inside a request
#   hf_config  a pasted config.json inside a request
#   validation a validation read-back file (validation-result.json or nvidia-smi CSV)
#   provider   a provider catalog document (advise_with_provider_text, provider_text)
#   scripts    a name that reaches the validation scripts; their command structure must not change
#
#   bash scripts/fuzz.sh short                  # 6 s per target (the fuzz_short test)
#   bash scripts/fuzz.sh 1800                   # 30 minutes per target
#   bash scripts/fuzz.sh 600 data hf_config     # some targets
#
# build-fuzz/ is built on first use (incrementally after). Each corpus (build-fuzz/corpus/<t>/)
# starts from the golden requests, tests/requests/, tests/fuzz/seeds/<t>/ and the kept findings
# tests/fuzz/regressions/<t>/, with the field-name dictionary tests/fuzz/fields.dict. A finding
# is written to build-fuzz/findings/<t>/ and the run fails; once fixed, copy the input to
# tests/fuzz/regressions/<t>/ (fuzz_regressions replays it in every test run).
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-short}"
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(advise data jobs_csv hf_config validation provider scripts)
seconds="$mode"
[ "$mode" = short ] && seconds=6
case "$seconds" in ''|*[!0-9]*) echo "usage: fuzz.sh short|SECONDS [TARGET...]" >&2; exit 2 ;; esac

cxx="${FUZZ_CXX:-clang++-14}"
if ! command -v "$cxx" >/dev/null; then
  echo "fuzz.sh: $cxx not found (apt-get install clang-14 libclang-rt-14-dev)" >&2
  exit 1
fi
flags="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined"
flags="$flags -fno-sanitize-recover=undefined"
mkdir -p build-fuzz
if ! { cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER="$cxx" \
         -DCMAKE_CXX_FLAGS="$flags" -DGPU_ADVISOR_FUZZ=ON &&
       cmake --build build-fuzz -j "$(nproc)" --target "${targets[@]/#/fuzz_}"; } \
     >build-fuzz/build.log 2>&1; then
  tail -30 build-fuzz/build.log >&2
  exit 1
fi
bin=build-fuzz/tests/fuzz

# Seeds: requests for advise; each golden request with one of the five data files for data.
seed() {
  local t="$1" dir="build-fuzz/corpus/$1"
  mkdir -p "$dir" "build-fuzz/findings/$t"
  [ -d "tests/fuzz/seeds/$t" ] && cp -n tests/fuzz/seeds/"$t"/* "$dir"/ 2>/dev/null || true
  case "$t" in
    validation)
      cp -n tests/validation/samples/* "$dir"/ 2>/dev/null || true ;;
    provider)
      cp -n data/examples/*.json "$dir"/ 2>/dev/null || true ;;
    advise)
      for f in tests/golden/*.request.json tests/requests/*.json; do
        cp -n "$f" "$dir/$(basename "$f")"
      done ;;
    data)
      for name in gpus models assumptions performance prices; do
        for r in tests/golden/finetune_llama31_8b tests/golden/inference_serving_target; do
          out="$dir/$(basename "$r")+$name"
          [ -e "$out" ] || { cat "$r.request.json"; printf '\n#data\n{"%s": ' "$name";
                             cat "data/$name.json"; printf '}'; } >"$out"
        done
      done ;;
  esac
}

failed=0
for t in "${targets[@]}"; do
  seed "$t"
  extra=()
  [ -d "tests/fuzz/regressions/$t" ] && extra+=("tests/fuzz/regressions/$t")
  echo "fuzz.sh: $t for ${seconds}s"
  if ! ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" "$bin/fuzz_$t" \
      -dict=tests/fuzz/fields.dict -max_total_time="$seconds" -max_len=262144 -timeout=60 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="build-fuzz/findings/$t/" \
      "build-fuzz/corpus/$t" "${extra[@]}" 2>"build-fuzz/$t.log"; then
    failed=1
    echo "fuzz.sh: $t FOUND A PROBLEM (build-fuzz/$t.log, input in build-fuzz/findings/$t/):" >&2
    grep -E "^(advise|advise_with_data|jobs_csv|hf_config|validation|provider|provider_text|scripts):|ERROR|SUMMARY|runtime error" \
      "build-fuzz/$t.log" | head -5 >&2
  fi
  { grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+ *DONE" \
      "build-fuzz/$t.log" || true; } | tr '\n' ' ' | sed "s/^/fuzz.sh: $t: /"
  echo
done
exit "$failed"
