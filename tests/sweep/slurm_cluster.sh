# Sourced by the Slurm tests: starts a real single-node Slurm cluster (munged, slurmctld,
# slurmd; this host as its one node) under a temporary folder and stops it by PID on exit.
# Needs root and Debian's munge and slurm-wlm (scripts/install-deps --batch).
#   slurm_cluster_start DIR   -> exports SLURM_CONF; returns 77 (skip) when it cannot run
#   slurm_cluster_stop        -> kills the daemons it started, by PID

slurm_cluster_skip() { echo "SKIP: $*" >&2; return 77; }

slurm_cluster_start() {
  local dir=$1
  [ "$(id -u)" -eq 0 ] || { slurm_cluster_skip "the Slurm test starts munged, slurmctld and slurmd as root; not root"; return; }
  local missing=()
  for exe in munged mungekey slurmctld slurmd sbatch squeue; do
    command -v "$exe" >/dev/null || missing+=("$exe")
  done
  [ ${#missing[@]} -eq 0 ] || { slurm_cluster_skip "not installed: ${missing[*]} (scripts/install-deps --batch)"; return; }

  mkdir -p "$dir"/{munge,state,spool,log}
  chmod 700 "$dir/munge"
  mungekey --create --keyfile="$dir/munge/munge.key" >/dev/null 2>&1 ||
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge/munge.key"
  munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed" 2>"$dir/log/munged.err" ||
    { cat "$dir/log/munged.err" >&2; slurm_cluster_skip "munged did not start"; return; }
  SLURM_CLUSTER_PIDS=("$(cat "$dir/munge/munged.pid")")

  # Ports of our own, so that a Slurm already on this host (or a parallel test) is not disturbed.
  local base=$((20000 + ($$ % 20000)))
  local host cpus
  host=$(hostname -s)
  cpus=$(nproc)
  cat >"$dir/slurm.conf" <<CONF
ClusterName=sweeptest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
SlurmctldTimeout=30
SlurmdTimeout=30
MinJobAge=60
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=sweep Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -D -i -f "$SLURM_CONF" >"$dir/log/slurmctld.out" 2>&1 &
  SLURM_CLUSTER_PIDS+=($!)
  slurmd -D -f "$SLURM_CONF" -N "$host" >"$dir/log/slurmd.out" 2>&1 &
  SLURM_CLUSTER_PIDS+=($!)
  # Wait (up to 30 s) for the node to be idle.
  local i
  for i in $(seq 1 120); do
    if sinfo -h -N -o '%T' 2>/dev/null | grep -q '^idle'; then return 0; fi
    sleep 0.25
  done
  echo "slurmctld log:" >&2; tail -n 20 "$dir/log/slurmctld.log" "$dir/log/slurmctld.out" >&2
  echo "slurmd log:" >&2; tail -n 20 "$dir/log/slurmd.log" "$dir/log/slurmd.out" >&2
  echo "the test cluster's node did not become idle" >&2
  return 1
}

slurm_cluster_stop() {
  local pid
  for pid in "${SLURM_CLUSTER_PIDS[@]}"; do
    kill "$pid" 2>/dev/null
  done
  for pid in "${SLURM_CLUSTER_PIDS[@]}"; do
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -9 "$pid" 2>/dev/null
  done
  SLURM_CLUSTER_PIDS=()
}
