#!/bin/bash
# The plug-in's GPU proofs, stock vs plug-in, each in a fresh process with fresh Triton/Inductor/Helion caches.
#   bash benchmarks/plugin_gpu.sh STEP...      (from the repo root on the GPU machine; PYTHONPATH has src/)
# Steps: launch autotune helion-none helion-none-plugin inductor-mm inductor-mm1 inductor-flex128 inductor-flex256
#        helion-quick helion-quick-seed helion-quick-seed-plugin device-tests
#        proof = inductor-flex256 inductor-flex128 inductor-mm1 helion-quick-seed device-tests (about 8 min on an H100)
# Writes $OUT/plugin_summary.jsonl (one line per run: wall seconds, exit code, the script's RESULT),
# $OUT/plugin_log.txt (every run's output) and $OUT/plugin_spy.jsonl (every compile of every run, by process).
set -u
OUT=${OUT:-out}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 TORCHINDUCTOR_FORCE_DISABLE_CACHES=1
PY=${PY:-python3}
SUMMARY=$OUT/plugin_summary.jsonl LOG=$OUT/plugin_log.txt
export PLUGIN_SPY_OUT=$OUT/plugin_spy.jsonl PLUGIN_SPY_RUN=

DEADLINE=$(( $(date +%s) + ${PLUGIN_GPU_BUDGET:-100000} ))  # PLUGIN_GPU_BUDGET: seconds for the whole script

one() {  # NAME TIMEOUT CMD...  (the timeout shrinks to what the budget leaves; under 20 s the run is skipped)
  local name=$1 limit=$2; shift 2
  local left=$(( DEADLINE - $(date +%s) ))
  if [ "$left" -lt 20 ]; then echo "{\"name\": \"$name\", \"skipped\": \"budget spent\"}" >>"$SUMMARY"; return; fi
  [ "$left" -lt "$limit" ] && limit=$left
  export TRITON_CACHE_DIR=$(mktemp -d) TORCHINDUCTOR_CACHE_DIR=$(mktemp -d) HELION_CACHE_DIR=$(mktemp -d)
  export PLUGIN_SPY_RUN=$name
  local tmp=$(mktemp) start=$EPOCHREALTIME
  timeout "$limit" "$@" >"$tmp" 2>&1
  local rc=$? end=$EPOCHREALTIME
  { echo "===== $name (rc=$rc): $*"; cat "$tmp"; } >>"$LOG"
  local result=$(grep '^RESULT ' "$tmp" | tail -1 | sed 's/^RESULT //')
  local first_error=$(grep -m1 -n 'OutOfResources\|NoConfigFits\|InvalidConfig\|Error:' "$tmp" | cut -c1-400 | $PY -c 'import json,sys; print(json.dumps(sys.stdin.read().strip()))')
  $PY - "$name" "$rc" "$start" "$end" "${result:-null}" "$first_error" "$*" >>"$SUMMARY" <<'PYEOF'
import json, sys
name, rc, start, end, result, err, cmd = sys.argv[1:]
print(json.dumps({"name": name, "rc": int(rc), "wall_s": round(float(end) - float(start), 2),
                  "result": json.loads(result), "first_error": json.loads(err), "cmd": cmd}))
PYEOF
  rm -f "$tmp"
}

TF="$PY -m tilefit run --"
steps=("$@")
[ "${1:-}" = proof ] && steps=(inductor-flex256 inductor-flex128 inductor-mm1 helion-quick-seed device-tests)
for step in "${steps[@]}"; do
  case $step in
    launch) one launch 120 $PY benchmarks/plugin_launch.py ;;
    autotune)
      one autotune-stock 200 $PY benchmarks/plugin_triton_autotune.py full
      one autotune-plugin 200 $TF $PY benchmarks/plugin_triton_autotune.py full
      one autotune-stock-fitting-only 200 $PY benchmarks/plugin_triton_autotune.py fitting ;;
    helion-none)
      one seed-small-none-stock 120 $PY benchmarks/plugin_helion_seed.py small none
      one seed-small-none-plugin 120 $TF $PY benchmarks/plugin_helion_seed.py small none
      one seed-large-none-plugin 120 $TF $PY benchmarks/plugin_helion_seed.py large none
      one seed-large-none-stock 120 $PY benchmarks/plugin_helion_seed.py large none ;;
    helion-none-plugin)
      one seed-small-none-plugin 120 $TF $PY benchmarks/plugin_helion_seed.py small none
      one seed-large-none-plugin 120 $TF $PY benchmarks/plugin_helion_seed.py large none ;;
    inductor-*)
      case_=${step#inductor-}
      one "inductor-$case_-stock" 150 $PY benchmarks/plugin_inductor.py "$case_"
      one "inductor-$case_-plugin" 150 $TF $PY benchmarks/plugin_inductor.py "$case_" ;;
    helion-quick)
      export HELION_AUTOTUNE_MAX_GENERATIONS=2 HELION_AUTOTUNE_RANDOM_SEED=0
      for c in seed matmul; do
        one "helion-quick-$c-stock" 120 $PY benchmarks/plugin_helion_matmul.py $c
        one "helion-quick-$c-plugin" 120 $TF $PY benchmarks/plugin_helion_matmul.py $c
      done ;;
    helion-quick-seed)
      export HELION_AUTOTUNE_MAX_GENERATIONS=2 HELION_AUTOTUNE_RANDOM_SEED=0
      one helion-quick-seed-stock 100 $PY benchmarks/plugin_helion_matmul.py seed
      one helion-quick-seed-plugin 100 $TF $PY benchmarks/plugin_helion_matmul.py seed ;;
    helion-quick-seed-plugin)  # the plug-in run alone, with room for the whole search
      export HELION_AUTOTUNE_MAX_GENERATIONS=2 HELION_AUTOTUNE_RANDOM_SEED=0
      one helion-quick-seed-plugin 300 $TF $PY benchmarks/plugin_helion_matmul.py seed ;;
    device-tests) one device-tests 150 $PY -m pytest -q -p no:cacheprovider tests/device/test_plugin_device.py ;;
    *) echo "unknown step $step" >&2; exit 2 ;;
  esac
done
