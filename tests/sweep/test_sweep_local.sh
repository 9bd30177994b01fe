#!/usr/bin/env bash
# scripts/sweep through GNU parallel on this machine: the manifest, the exit status and the
# summary with two failing runs, the runs against direct runs, the re-run that does only what is
# missing or failed, a traj column, parallel's --sshlogin path (":" is this machine without
# ssh), and usage errors.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh"
command -v parallel >/dev/null || { echo "SKIP: GNU parallel is not installed (scripts/install-deps --batch)"; exit 77; }

write_grid
run_sweep --grid grid.csv --out out -j 2 -- "$RIDIM" "$ROBOTS/planar3.yaml"
check_first_pass

# collect joins the outputs of the runs that succeeded, their text unchanged.
expected_collect out 1 2 4 6 >expected.csv
"$SWEEP" collect out -o all.csv 2>collect.err
expect_eq "$?" 0 "collect: exit status"
cmp -s all.csv expected.csv || fail "collect: all.csv differs from the runs' rows (see $WORK/all.csv)"
expect_eq "$(wc -l <all.csv)" $((1 + 4 * 1001)) "collect: rows"
expect_contains "$(cat collect.err)" "4004 rows from 4 runs; not collected (failed or not finished): runs 3, 5" \
  "collect: summary"
"$SWEEP" collect out >stdout.csv 2>/dev/null && cmp -s stdout.csv expected.csv || fail "collect to standard output"
"$SWEEP" collect out -o - >stdout.csv 2>/dev/null && cmp -s stdout.csv expected.csv || fail "collect -o -"

# Run again unchanged: nothing is redone; the two failures are kept as failed.
touch -d '2000-01-01' out/run_1.csv
run_sweep --grid grid.csv --out out -- "$RIDIM" "$ROBOTS/planar3.yaml"
expect_eq "$SWEEP_STATUS" 1 "unchanged re-run: exit status"
expect_contains "$SWEEP_OUT" "6 runs: 0 done, 2 failed (runs 3, 5), 4 skipped" "unchanged re-run"
expect_eq "$(stat -c %Y out/run_1.csv)" "$(date -d 2000-01-01 +%s)" "run 1 not redone"

# --retry-failed redoes the failed runs (still failing: the grid is unchanged).
run_sweep --grid grid.csv --out out --retry-failed -- "$RIDIM" "$ROBOTS/planar3.yaml"
expect_contains "$SWEEP_OUT" "6 runs: 0 done, 2 failed (runs 3, 5), 4 skipped" "--retry-failed re-run"

# Fix the grid: only runs 3 and 5 run (their commands changed); the sweep completes.
sed -i 's/^-1,/2.5,/; s/^heavy,/3.5,/' grid.csv
run_sweep --grid grid.csv --out out -- "$RIDIM" "$ROBOTS/planar3.yaml"
expect_eq "$SWEEP_STATUS" 0 "fixed re-run: exit status"
expect_eq "$SWEEP_OUT" \
  "sweep: 6 runs: 2 done, 0 failed, 4 skipped (done before); manifest out/manifest.csv" "fixed re-run"
for k in 1 2 3 4 5 6; do expect_eq "$(field $k exit_status)" 0 "fixed: run $k exit_status"; done
expect_eq "$(field 3 error)" "" "fixed: run 3 error"
check_runs_against_direct 1 2 3 4 5 6

expected_collect out 1 2 3 4 5 6 >expected.csv
"$SWEEP" collect out -o all.csv 2>/dev/null && cmp -s all.csv expected.csv || fail "collect: all six runs"

# collect refuses (exit 2, naming the file, nothing written) runs whose headers differ, an output
# the manifest lists as done that is gone, a folder without a manifest, and -o naming an input.
cp -r out mixed
sed -i '1s/tau2/h2/' mixed/run_4.csv
"$SWEEP" collect mixed -o mixed.csv 2>collect.err
expect_eq "$?" 2 "collect, headers differ: exit status"
expect_contains "$(cat collect.err)" "mixed/run_4.csv:1: header 't,tau1,h2,tau3' differs from mixed/run_1.csv's" \
  "collect, headers differ"
cp out/run_4.csv mixed/run_4.csv
rm mixed/run_5.csv
"$SWEEP" collect mixed -o mixed.csv 2>collect.err
expect_eq "$?" 2 "collect, output gone: exit status"
expect_contains "$(cat collect.err)" "mixed/run_5.csv: missing, though mixed/manifest.csv says run 5 succeeded" \
  "collect, output gone"
[ ! -e mixed.csv ] || fail "a refused collect wrote its output"
"$SWEEP" collect . -o mixed.csv 2>collect.err
expect_eq "$?" 2 "collect, no manifest: exit status"
expect_contains "$(cat collect.err)" "manifest.csv: cannot read the manifest" "collect, no manifest"
"$SWEEP" collect out -o out/./run_2.csv 2>collect.err
expect_eq "$?" 2 "collect -o an input: exit status"
expect_contains "$(cat collect.err)" "-o out/./run_2.csv: is one of the inputs" "collect -o an input"
check_runs_against_direct 2

# A lost output is redone.
rm out/run_4.csv
run_sweep --grid grid.csv --out out -- "$RIDIM" "$ROBOTS/planar3.yaml"
expect_contains "$SWEEP_OUT" "6 runs: 1 done, 0 failed, 5 skipped" "lost output"
check_runs_against_direct 4

# The ssh engine is GNU parallel's --sshlogin; ":" runs on this machine without ssh.
run_sweep --grid grid.csv --out ssh --engine ssh --sshlogin 2/: -- "$RIDIM" "$ROBOTS/planar3.yaml"
expect_eq "$SWEEP_STATUS" 0 "ssh engine: exit status"
for k in 1 2 3 4 5 6; do cmp -s "ssh/run_$k.csv" "out/run_$k.csv" || fail "ssh engine: run $k"; done

# A traj column replaces {traj}: rfdsim driven by two torque files.
printf 't,tau1,tau2,tau3\n0,1,0,0\n1,1,0,0\n' >push.csv
printf 't,tau1,tau2,tau3\n0,0,0,-1\n1,0,0,-1\n' >twist.csv
printf 'traj,links[2].mass\npush.csv,2\ntwist.csv,2.5\n' >traj.csv
run_sweep --grid traj.csv --out traj -- "$RFDSIM" "$ROBOTS/planar3.yaml" --torques '{traj}' --t-end 0.2
expect_eq "$SWEEP_STATUS" 0 "traj: exit status"
expect_eq "$(field 2 command traj/manifest.csv)" \
  "$RFDSIM $ROBOTS/planar3.yaml --torques twist.csv --t-end 0.2 --set 'links[2].mass=2.5' -o traj/run_2.csv" \
  "traj: run 2 command"
"$RFDSIM" "$ROBOTS/planar3.yaml" --torques twist.csv --t-end 0.2 --set 'links[2].mass=2.5' -o direct.csv
cmp -s traj/run_2.csv direct.csv || fail "traj: run 2 differs from the direct run"

# --help alone (no -- and no command): the usage on standard output, exit 0.
"$SWEEP" --help >help.out 2>help.err
expect_eq "$?" 0 "--help: exit status"
expect_contains "$(head -1 help.out)" "usage: sweep --grid GRID.csv --out DIR" "--help: usage on standard output"
expect_eq "$(cat help.err)" "" "--help: standard error"
"$SWEEP" collect --help >help.out 2>&1
expect_eq "$?" 0 "collect --help: exit status"
expect_contains "$(head -1 help.out)" "usage: sweep collect DIR" "collect --help"

# An sbatch that refuses the job (a partition the cluster does not have) is the user's to fix, not
# a failure of the runs: exit 2 with sbatch's message, the manifest untouched. The fake sbatch
# also shows that --slurm-args and its value as two words (the value starting with --) reach it.
mkdir fakebin
cat >fakebin/sbatch <<'SH'
#!/usr/bin/env bash
printf '%s\n' "$@" >"$(dirname "$0")/sbatch.args"
echo "sbatch: error: Batch job submission failed: Invalid partition name specified" >&2
exit 1
SH
printf '#!/bin/sh\nexit 0\n' >fakebin/squeue
chmod +x fakebin/sbatch fakebin/squeue
rm out/run_4.csv  # one run to do
cp out/manifest.csv manifest.before
PATH=$WORK/fakebin:$PATH run_sweep --grid grid.csv --out out --engine slurm \
  --slurm-args "--partition=short" -- "$RIDIM" "$ROBOTS/planar3.yaml"
expect_eq "$SWEEP_STATUS" 2 "sbatch refused: exit status"
expect_contains "$(cat sweep.err)" "sbatch: error: Batch job submission failed: Invalid partition name specified" \
  "sbatch refused: its message"
expect_eq "$SWEEP_OUT" "" "sbatch refused: no summary of runs"
cmp -s out/manifest.csv manifest.before || fail "sbatch refused: the manifest changed"
grep -qx -- "--partition=short" fakebin/sbatch.args || fail "--slurm-args \"--partition=short\" did not reach sbatch"
PATH=$WORK/fakebin:$PATH run_sweep --grid grid.csv --out fresh --engine slurm --slurm-args "--time=10" \
  -- "$RIDIM" "$ROBOTS/planar3.yaml"
expect_eq "$SWEEP_STATUS" 2 "sbatch refused, fresh folder: exit status"
[ ! -e fresh/manifest.csv ] || fail "sbatch refused: a manifest was written"
grep -qx -- "--time=10" fakebin/sbatch.args || fail "--slurm-args \"--time=10\" did not reach sbatch"

# Bad usage: exit 2, a message, nothing run.
for bad in \
           "--grid grid.csv --out u $RIDIM" \
           "--grid nonexistent.csv --out u -- $RIDIM" \
           "--grid grid.csv --out u -- ls" \
           "--grid grid.csv --out u -- $RIDIM x.yaml -o y.csv" \
           "--grid grid.csv --out u -- $RIDIM x.yaml {traj}" \
           "--grid grid.csv --out u --engine ssh -- $RIDIM x.yaml" \
           "--grid grid.csv --out u --engine pbs -- $RIDIM x.yaml"; do
  run_sweep $bad
  expect_eq "$SWEEP_STATUS" 2 "usage error: sweep $bad"
  [ -s sweep.err ] || fail "usage error without a message: sweep $bad"
done
printf 'links[1].mass;gravity\n' >bad_grid.csv
run_sweep --grid bad_grid.csv --out u -- "$RIDIM" x.yaml
expect_contains "$(cat sweep.err)" "bad_grid.csv:1: column 1: 'links[1].mass;gravity' is neither traj nor a --set key" "bad grid"
printf 'links[1].mass\n2\n\n3,4\n' >bad_row.csv
run_sweep --grid bad_row.csv --out u -- "$RIDIM" x.yaml
expect_contains "$(cat sweep.err)" "bad_row.csv:4: expected 1 fields, found 2" "bad row"
printf 'run,links[1].mass\n1,2\n' >bad_column.csv
run_sweep --grid bad_column.csv --out u -- "$RIDIM" x.yaml
expect_contains "$(cat sweep.err)" "bad_column.csv:1: column 1: 'run' is a column of the manifest" "run column"
[ ! -e u/manifest.csv ] || fail "a usage error wrote a manifest"

finish
