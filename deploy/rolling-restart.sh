#!/usr/bin/env bash
# Restarts the service's instances one at a time, so that no request fails: before each restart, every other
# instance must answer /readyz with 200; after it, the restarted one must, before the next is touched. Each
# instance drains itself on SIGTERM (SHUTDOWN_DRAIN_MS: still serving, /readyz 503, no connection kept alive),
# then finishes what is in flight; the proxy sends what it refuses meanwhile to the others (docs/deployment.md).
# Stops at the first instance that does not come back; the others keep serving.
#
#   deploy/rolling-restart.sh 127.0.0.1:3001 127.0.0.1:3002
#
# Settings (environment):
#   RESTART_COMMAND  restarts one instance and returns; {address} and {port} are replaced
#                    (default: systemctl restart svc-open-api@{port}, with deploy/systemd/svc-open-api@.service)
#   READY_TIMEOUT    seconds an instance has to answer /readyz with 200 after its restart (default 120)
#   SETTLE_SECONDS   wait after an instance is ready, before the next restart (default 5: nginx's fail_timeout,
#                    after which it sends to the restarted instance again)
set -euo pipefail

RESTART_COMMAND=${RESTART_COMMAND:-'systemctl restart svc-open-api@{port}'}
READY_TIMEOUT=${READY_TIMEOUT:-120}
SETTLE_SECONDS=${SETTLE_SECONDS:-5}

say() { printf '[rolling-restart %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
fail() { say "FAILED: $*"; exit 1; }
ready() { [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://$1/readyz")" = 200 ]; }

[ $# -gt 0 ] || { echo "usage: $0 HOST:PORT [HOST:PORT ...]" >&2; exit 2; }

for address in "$@"; do
  for other in "$@"; do
    [ "$other" = "$address" ] || ready "$other" || fail "$other is not ready; not restarting $address"
  done
  started=$(date +%s.%N)
  command=${RESTART_COMMAND//\{address\}/$address}
  command=${command//\{port\}/${address##*:}}
  say "$address: restarting ($command)"
  bash -c "$command" || fail "$address: the restart command failed"
  deadline=$(( $(date +%s) + READY_TIMEOUT ))
  until ready "$address"; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "$address: not ready ${READY_TIMEOUT}s after its restart"
    sleep 0.2
  done
  say "$address: ready again after $(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $started }") s"
  sleep "$SETTLE_SECONDS"
done
say "done: $# instances restarted"
