#!/usr/bin/env bash
# `systemd-analyze verify` of the manager's, worker's and translator's units with their shared hardening
# drop-in (packaging/systemd/fleet-.service.d) and their own (fleet-NAME.service.d). It needs no running
# systemd, but the ExecStart program must exist: /usr/bin/node. Any message counts as a failure (an
# unknown setting is only a warning).
# The site agent's units are verified where its package is installed (agent-package.sh).
set -uo pipefail
cd "$(dirname "$0")/../../packaging/systemd"
messages=$(systemd-analyze verify ./fleet-*.service 2>&1)
status=$?
[ -n "$messages" ] && echo "$messages"
[ "$status" -eq 0 ] && [ -z "$messages" ] && echo "verified: $(ls fleet-*.service fleet-*.service.d/*.conf | xargs)"
