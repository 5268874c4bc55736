#!/bin/bash
# Runs run-sim on a fixed corpus and prints, per case, the SHA-256 of every
# output it writes (or the error it reports), so that two builds of the
# interpreter can be compared bit for bit: testdata/run-sim/engine_*.test
# compare today's interpreter with the table recorded before its rewrite
# (testdata/run-sim/Inputs/corpus_*.golden).
#   run-sim-corpus.sh GROUP WORK_DIR [RUN_SIM_FLAG...]
# GROUP is one of
#   kernels    every testdata/kernels/*.tk at its header's sizes, at the
#              loop and the tensor level, on seeded inputs;
#   kernels-large  the same at sizes 3n+1 for the header's n (loops longer
#              than the interpreter's batches of iterations);
#   modules-run-sim, modules-emit-c   every .tir module of testdata/run-sim
#              or testdata/emit-c and its Inputs/, each entry, with the -D
#              values its RUN lines give, after the target libraries
#              its RUN lines read (CS-1 modules after targets/cs1/cs1.tir);
#   random-N   random kernels (scripts/random_kernel.py) of seeds N to N+19,
#              both levels, and random linear-algebra and Glenside kernels of
#              seeds N to N+4;
#   errors-N   the random kernels of seeds N to N+39 at the loop level, each
#              without one of its assignments of a literal (an initialisation,
#              most often), so that most read or reduce into an element not
#              written: the error reported.
# parse and run-sim are taken from PATH; the flags after WORK_DIR go to
# every run-sim command (--no-batching, say).
set -uo pipefail
shopt -s nullglob
here="$(cd "$(dirname "$0")" && pwd)"
testdata="$here/../testdata"
group="$1"
work="$2"
shift 2
flags=("$@")
mkdir -p "$work"

# Runs run-sim on module $2 with the flags that follow; prints "$1: ..." lines.
record() {
  local name="$1" module="$2"
  shift 2
  local out="$work/out"
  rm -rf "$out"
  if run-sim "$module" --outputs "$out" "$@" "${flags[@]}" >/dev/null \
      2>"$work/err"; then
    for file in $(cd "$out" && ls); do
      echo "$name: $file $(sha256sum < "$out/$file" | cut -c1-16)"
    done
  else
    # Locations name the work folder: keep the file's base name.
    sed -n '1s|^.*/||p' "$work/err" | sed "s|^|$name: |"
  fi
}

# Runs a kernel through parse at both levels, then run-sim.
record_kernel() {
  local name="$1" kernel="$2" seed="$3"
  shift 3
  for level in loops terms; do
    if parse "$kernel" "$@" --emit="$level" -o "$work/k.tir" 2>"$work/err"; then
      record "$name/$level" "$work/k.tir" --seed "$seed"
    else
      echo "$name/$level: parse failed: $(head -1 "$work/err")"
    fi
  done
}

case "$group" in
  kernels)
    for kernel in "$testdata"/kernels/*.tk; do
      read -r -a sizes < <(sed -n 's/^# sizes: //p' "$kernel")
      record_kernel "$(basename "$kernel")" "$kernel" 3 "${sizes[@]}"
    done
    ;;
  kernels-large)
    for kernel in "$testdata"/kernels/*.tk; do
      sizes=()
      for define in $(sed -n 's/^# sizes: //p' "$kernel" | grep -o '[A-Za-z_0-9]*=[0-9]*'); do
        sizes+=(-D "${define%=*}=$((3 * ${define#*=} + 1))")
      done
      record_kernel "$(basename "$kernel")" "$kernel" 4 "${sizes[@]}"
    done
    ;;
  modules-*)
    folder="${group#modules-}"
    for module in "$testdata/$folder"/*.tir "$testdata/$folder"/Inputs/*.tir; do
      read -r -a defines < <(grep -o -- '-D [A-Za-z_][A-Za-z_0-9]*=[0-9]*' \
        "$module" | sort -u | tr '\n' ' ')
      name="${module#"$testdata"/}"
      # A module runs after the target libraries its RUN lines read
      # (`cat %targets/x86/avx512.tir %s`); CS-1 modules after the library
      # that defines their memory.
      libraries=()
      while read -r library; do
        libraries+=("$testdata/../targets/${library#%targets/}")
      done < <(grep -o '%targets/[A-Za-z0-9_/]*\.tir' "$module" | sort -u)
      if [ ${#libraries[@]} -eq 0 ] && grep -q '@PE' "$module"; then
        libraries=("$testdata/../targets/cs1/cs1.tir")
      fi
      cat ${libraries[@]+"${libraries[@]}"} "$module" > "$work/m.tir"
      entries=$(run-sim "$work/m.tir" --seed 1 "${defines[@]}" 2>&1 >/dev/null |
        sed -n 's/.*several entries (\(.*\)); choose.*/\1/p' | tr -d ',@')
      if [ -z "$entries" ]; then
        record "$name" "$work/m.tir" --seed 1 "${defines[@]}"
      fi
      for entry in $entries; do
        record "$name@$entry" "$work/m.tir" --entry "$entry" --seed 1 \
          "${defines[@]}"
      done
    done
    ;;
  random-*)
    first="${group#random-}"
    for ((seed = first; seed < first + 20; seed++)); do
      /usr/bin/python3 "$here/random_kernel.py" "$seed" > "$work/r.tk"
      record_kernel "random$seed" "$work/r.tk" "$seed"
    done
    for ((seed = first; seed < first + 5; seed++)); do
      /usr/bin/python3 "$here/random_linalg_kernel.py" "$seed" > "$work/l.tk"
      record_kernel "linalg$seed" "$work/l.tk" "$seed"
      /usr/bin/python3 "$here/random_glenside_kernel.py" "$seed" > "$work/g.tir"
      record "glenside$seed" "$work/g.tir" --seed "$seed"
    done
    ;;
  errors-*)
    first="${group#errors-}"
    for ((seed = first; seed < first + 40; seed++)); do
      /usr/bin/python3 "$here/random_kernel.py" "$seed" > "$work/r.tk"
      parse "$work/r.tk" -o "$work/r.tir" || continue
      # The first (assign TARGET LITERAL) goes.
      sed -E '0,/\(assign (\([^()]*\)|[A-Za-z_0-9]+) -?[0-9.]+(e[-+]?[0-9]+)?\)/s///' \
        "$work/r.tir" > "$work/e.tir"
      record "errors$seed" "$work/e.tir" --seed "$seed"
    done
    ;;
  *)
    echo "run-sim-corpus.sh: unknown group '$group'" >&2
    exit 2
    ;;
esac
