#!/usr/bin/env bash
# scripts/sweep --engine ssh over a real ssh connection: an sshd of the test's own (its host
# key, a client key, port and config under a temporary folder, listening on 127.0.0.1 only) is
# started and stopped by PID; GNU parallel logs in with --sshlogin "ssh -p PORT ... root@127.0.0.1"
# and the outputs equal direct runs. Skips (exit 77) when not root or without openssh-server
# and GNU parallel (scripts/install-deps --batch).
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: the ssh test starts an sshd that lets root in; not root"; exit 77; }
for exe in /usr/sbin/sshd ssh ssh-keygen parallel; do
  command -v "$exe" >/dev/null || { echo "SKIP: $exe is not installed (scripts/install-deps --batch)"; exit 77; }
done

ssh_dir=$WORK/ssh
mkdir -p "$ssh_dir" /run/sshd
ssh-keygen -q -t ed25519 -N '' -f "$ssh_dir/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$ssh_dir/client_key"
port=$((40000 + ($$ % 20000)))
cat >"$ssh_dir/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $ssh_dir/host_key
AuthorizedKeysFile $ssh_dir/client_key.pub
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile $ssh_dir/sshd.pid
CONF
/usr/sbin/sshd -D -f "$ssh_dir/sshd_config" -E "$ssh_dir/sshd.log" &
sshd_pid=$!
trap 'kill $sshd_pid 2>/dev/null' EXIT
login="ssh -p $port -i $ssh_dir/client_key -o BatchMode=yes -o StrictHostKeyChecking=no"
login+=" -o UserKnownHostsFile=$ssh_dir/known_hosts root@127.0.0.1"
for _ in $(seq 1 40); do $login true 2>/dev/null && break; sleep 0.25; done
$login true || { cat "$ssh_dir/sshd.log" >&2; fail "cannot log in to the test's sshd"; finish; }

write_grid
run_sweep --grid grid.csv --out out --engine ssh --sshlogin "2/$login" -- "$RIDIM" "$ROBOTS/planar3.yaml"
check_first_pass
logins=$(grep -c "Accepted publickey" "$ssh_dir/sshd.log")
[ "$logins" -ge 6 ] || fail "expected a login per run, found $logins"

kill "$sshd_pid"
wait "$sshd_pid" 2>/dev/null
finish
