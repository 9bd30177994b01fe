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
