#!/usr/bin/env bash
# Nothing a user typed runs: requests whose names carry shell and Python code ($(…), backticks,
# quotes, ;, a newline, a lone CR, Unicode line separators) go through the CLI's `scripts`, and
# every file it writes is then parsed (bash -n, Python's compiler) and run with no commands on
# PATH. Each payload tries to create a marker file with shell builtins or Python alone, so it
# would succeed if any text ended a comment or a quote; the marker must never appear.
# usage: script_injection.sh <gpu-advisor CLI>
set -euo pipefail
CLI="$1"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
EMPTY_PATH="$WORK/no-commands"
MARK="$WORK/marker"
mkdir -p "$EMPTY_PATH"
PASSED=0
FAILED=0
bad() { FAILED=$((FAILED + 1)); printf 'FAIL %s\n' "$1"; }

payloads=(
  $'My model\necho pwned > '"$MARK"$'\n#'
  $'x\rimport os; open("'"$MARK"$'", "w")\r#'
  "\$(echo pwned > $MARK)"
  "\`echo pwned > $MARK\`"
  "x'; echo pwned > $MARK; echo '"
  "x\"; echo pwned > $MARK; echo \""
  "a; echo pwned > $MARK"
  $'a\xe2\x80\xa8echo pwned > '"$MARK"$'\xc2\x85b'
  $'a\\\necho pwned > '"$MARK"
)

# request FIELD PAYLOAD: a request (and a provider document) carrying PAYLOAD in FIELD.
request() {
  node -e '
    const [field, text, dir] = process.argv.slice(1);
    const fs = require("fs");
    const pinned = { gpu: "h100-sxm-80gb", count: 8 };
    let req = { schema: 1, task: "lora", model: { preset: "llama-3.1-8b" }, hardware: pinned };
    if (field === "model_name")
      req.model = { name: text, layers: 32, hidden: 4096, ffn_hidden: 14336, heads: 32, kv_heads: 8, vocab: 128256 };
    if (field === "config_name")
      req.model = { hf_config: { _name_or_path: text, model_type: "llama", hidden_size: 4096, intermediate_size: 14336,
        num_attention_heads: 32, num_key_value_heads: 8, num_hidden_layers: 32, vocab_size: 128256 } };
    if (field === "registry") req.validation = { registry: text };
    fs.writeFileSync(dir + "/request.json", JSON.stringify(req));
    if (field === "provider_gpu") {
      const gpus = JSON.parse(fs.readFileSync(process.argv[4] + "/gpus.json")).gpus;
      const part = Object.assign({}, gpus.find((g) => g.id === pinned.gpu), { name: text });
      fs.writeFileSync(dir + "/provider.json", JSON.stringify({ schema: 1, name: "Test", as_of: "2026-12-01",
        currency: "CNY", gpus: [part], offers: [{ gpu: "h100-sxm-80gb", price_cny_per_gpu_hour: 12 }] }));
    }' "$1" "$2" "$3" "$DATA_DIR"
}

DATA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../data" && pwd)"
i=0
for field in model_name config_name provider_gpu registry; do
  for payload in "${payloads[@]}"; do
    i=$((i + 1))
    case_dir="$WORK/case$i"
    mkdir -p "$case_dir"
    request "$field" "$payload" "$case_dir"
    flags=()
    [ -f "$case_dir/provider.json" ] && flags=(--provider "$case_dir/provider.json")
    if ! "$CLI" scripts "$case_dir/request.json" -o "$case_dir/scripts" "${flags[@]}" > "$case_dir/cli.out"; then
      # Refused with a located error (a provider's part name must be one line): nothing written.
      if grep -q '"error"' "$case_dir/cli.out" && [ ! -d "$case_dir/scripts" ]; then PASSED=$((PASSED + 1)); continue; fi
      bad "$field #$i: the CLI failed without a located error"; continue
    fi
    for f in "$case_dir"/scripts/*.sh; do
      bash -n "$f" || bad "$field #$i: $(basename "$f") does not parse"
      (cd "$case_dir" && timeout 20 env -i PATH="$EMPTY_PATH" VALIDATION_DIR="$case_dir/out" \
        /bin/bash "$f" > /dev/null 2>&1) || true
    done
    if command -v python3 > /dev/null; then
      for f in "$case_dir"/scripts/*.py; do
        python3 -c 'import sys; compile(open(sys.argv[1], "rb").read(), sys.argv[1], "exec")' "$f" ||
          bad "$field #$i: $(basename "$f") does not compile"
        (cd "$case_dir" && timeout 20 env -i python3 -I -S "$f" > /dev/null 2>&1) || true
      done
    fi
    if [ -e "$MARK" ]; then bad "$field #$i: the payload ran: $(printf '%q' "$payload")"; rm -f "$MARK"; else PASSED=$((PASSED + 1)); fi
  done
done
echo "script_injection: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
