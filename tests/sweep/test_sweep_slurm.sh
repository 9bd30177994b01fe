#!/usr/bin/env bash
# scripts/sweep on a real single-node Slurm cluster that this test starts (munged, slurmctld,
# slurmd, under a temporary folder) and stops by PID: a job array with a failing member gives
# the right manifest, exit status and summary; the outputs equal direct runs; a partition that
# does not exist is sbatch's error, not the runs'; the re-run with the grid fixed completes it, in
# blocks of runs per array task. Skips (exit 77) when not root or
# without the packages (scripts/install-deps --batch).
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh"
source "$here/slurm_cluster.sh"
started=$(date +%s.%N)
trap slurm_cluster_stop EXIT
slurm_cluster_start "$WORK/cluster"
status=$?
[ $status -eq 77 ] && exit 77
[ $status -eq 0 ] || { fail "the test cluster did not start"; finish; }

write_grid
run_sweep --grid grid.csv --out out --engine slurm --slurm-args "--time=5 --job-name=sweep-test" \
  -- "$RIDIM" "$ROBOTS/planar3.yaml"
check_first_pass
expect_contains "$(cat sweep.err)" "in 6 array tasks" "one array task per run"
ls out/.sweep/slurm/*_6.out >/dev/null 2>&1 || fail "no Slurm output of array task 6"

# A partition the cluster does not have: sbatch's own message, exit 2, the manifest untouched.
sed -i 's/^-1,/2.5,/; s/^heavy,/3.5,/' grid.csv
cp out/manifest.csv manifest.before
run_sweep --grid grid.csv --out out --engine slurm --slurm-args "--partition=short" \
  -- "$RIDIM" "$ROBOTS/planar3.yaml"
expect_eq "$SWEEP_STATUS" 2 "no such partition: exit status"
expect_contains "$(cat sweep.err)" "Invalid partition name specified" "no such partition: sbatch's message"
cmp -s out/manifest.csv manifest.before || fail "no such partition: the manifest changed"

# Fixed, the two failed runs go in one array task of two runs; --slurm-args and its value as two
# words, the value one option.
run_sweep --grid grid.csv --out out --engine slurm --runs-per-task 2 --slurm-args "--time=5" \
  -- "$RIDIM" "$ROBOTS/planar3.yaml"
expect_eq "$SWEEP_STATUS" 0 "fixed re-run: exit status"
expect_eq "$SWEEP_OUT" \
  "sweep: 6 runs: 2 done, 0 failed, 4 skipped (done before); manifest out/manifest.csv" "fixed re-run"
expect_contains "$(cat sweep.err)" "2 runs in 1 array task" "a block of two runs"
check_runs_against_direct 1 2 3 4 5 6

slurm_cluster_stop
for pid in "${SLURM_CLUSTER_PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && fail "daemon $pid still running"; done
echo "Slurm test: $(python3 -c "import sys, time; print(f'{time.time() - float(sys.argv[1]):.1f}')" "$started") s, cluster start and stop included"
finish
