# Sourced by the sweep tests: arguments, a scratch folder, and checks that read the manifest.
# Usage of a test: bash TEST.sh RIDIM RFDSIM ROBOTS_DIR SWEEP
set -u
RIDIM=$(realpath "$1") RFDSIM=$(realpath "$2") ROBOTS=$(realpath "$3") SWEEP=$(realpath "$4")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sweep_test.XXXXXX")
cd "$WORK" || exit 1
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
expect_eq() { [ "$1" == "$2" ] || fail "$3: expected '$2', found '$1'"; }
expect_contains() { [[ "$1" == *"$2"* ]] || fail "$3: expected it to contain '$2', found '$1'"; }

# field RUN COLUMN [MANIFEST]: one cell of the manifest.
field() {
  python3 - "$1" "$2" "${3:-out/manifest.csv}" 2>/dev/null <<'PY'
import csv, sys
run, column, path = sys.argv[1:]
for row in csv.DictReader(open(path, newline="")):
    if row["run"] == run:
        print(row[column])
PY
}

# sweep_ok ARGS...: runs the sweep, keeps its exit status, standard output and error.
run_sweep() {
  "$SWEEP" "$@" >sweep.out 2>sweep.err
  SWEEP_STATUS=$?
  SWEEP_OUT=$(cat sweep.out)
}

# The grid every test uses: planar3 with link masses x gravity, run 3 a mass that the robot
# file rejects and run 5 a value that is not a number.
write_grid() {
  cat >grid.csv <<CSV
links[1].mass,gravity[1]
3,-9.81
4,-9.81
-1,-9.81
3,-1.62
heavy,-1.62
4,-1.62
CSV
}

# check_runs_against_direct RUN...: each run's output equals ridim run directly with its --set.
check_runs_against_direct() {
  local k mass gravity
  for k in "$@"; do
    mass=$(sed -n "$((k + 1))p" grid.csv | cut -d, -f1)
    gravity=$(sed -n "$((k + 1))p" grid.csv | cut -d, -f2)
    "$RIDIM" "$ROBOTS/planar3.yaml" --set "links[1].mass=$mass" --set "gravity[1]=$gravity" \
      -o "direct_$k.csv" || fail "direct run $k"
    cmp -s "out/run_$k.csv" "direct_$k.csv" || fail "run $k: output differs from the direct run"
  done
}

# expected_collect DIR RUN...: what `sweep collect DIR` should write for these runs of the grid:
# the manifest's first columns, then each output's lines as they are, prefixed by run and values.
expected_collect() {
  local dir=$1 k
  shift
  echo "run,links[1].mass,gravity[1],$(head -1 "$dir/run_$1.csv")"
  for k in "$@"; do
    tail -n +2 "$dir/run_$k.csv" | sed "s/^/$k,$(sed -n "$((k + 1))p" grid.csv),/"
  done
}

# The manifest and outputs of the grid's first pass: runs 3 and 5 failed, the others done.
check_first_pass() {
  expect_eq "$SWEEP_STATUS" 1 "first pass: exit status"
  expect_eq "$SWEEP_OUT" \
    "sweep: 6 runs: 4 done, 2 failed (runs 3, 5), 0 skipped (done before); manifest out/manifest.csv" \
    "first pass: summary"
  expect_eq "$(head -1 out/manifest.csv)" \
    "run,links[1].mass,gravity[1],command,exit_status,output,wall_s,error" "manifest header"
  expect_eq "$(($(wc -l <out/manifest.csv) - 1))" 6 "manifest rows"
  local k
  for k in 1 2 4 6; do
    expect_eq "$(field $k exit_status)" 0 "run $k exit_status"
    expect_eq "$(field $k output)" "out/run_$k.csv" "run $k output"
    expect_eq "$(field $k error)" "" "run $k error"
    python3 -c "import sys; w = float(sys.argv[1]); sys.exit(not 0 < w < 30)" "$(field $k wall_s)" ||
      fail "run $k wall_s '$(field $k wall_s)'"
  done
  expect_eq "$(field 1 command)" \
    "$RIDIM $ROBOTS/planar3.yaml --set 'links[1].mass=3' --set 'gravity[1]=-9.81' -o out/run_1.csv" \
    "run 1 command"
  expect_eq "$(field 3 exit_status)" 2 "run 3 exit_status"
  expect_eq "$(field 3 error)" "ridim: $ROBOTS/planar3.yaml: links[1].mass: must be positive" "run 3 error"
  expect_eq "$(field 5 exit_status)" 2 "run 5 exit_status"
  expect_eq "$(field 5 error)" "ridim: --set links[1].mass: 'heavy' is not a finite number" \
    "run 5 error"
  [ ! -e out/run_3.csv ] && [ ! -e out/run_5.csv ] || fail "failed runs left an output"
  check_runs_against_direct 1 2 4 6
}

finish() {
  if [ "$failures" -eq 0 ]; then
    echo "PASS"
    rm -rf "$WORK"
    exit 0
  fi
  echo "$failures check(s) failed; the scratch folder $WORK is kept" >&2
  exit 1
}
