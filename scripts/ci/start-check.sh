#!/usr/bin/env bash
# Sourced by the CI scripts that try the README's `npm start` somewhere (a fresh root, another Node.js):
#   start_check RUN DIR LOG   runs `npm start` in DIR through RUN (a command prefix: a function such as
#                             `in_root ROOT`, or `env`), waits up to 180 s for both services to answer
#                             (on MANAGER_PORT and TRANSLATOR_PORT, 3000 and 3100 unless set), then stops
#                             it with SIGTERM; fails when they do not answer or it does not stop within
#                             10 s. Its output goes to LOG.
start_check() {
  local run=$1 dir=$2 log=$3 starter up=false
  local urls="[\"http://127.0.0.1:${MANAGER_PORT:-3000}/api/v1/health\", \"http://127.0.0.1:${TRANSLATOR_PORT:-3100}/api\"]"
  # Its own process group (job control), so stopping it stops npm, the start script and both services.
  set -m
  $run sh -c "cd '$dir' && exec npm start" >"$log" 2>&1 &
  starter=$!
  set +m
  for _ in $(seq 1 180); do
    if $run node -e '
      Promise.all('"$urls"'.map((url) => fetch(url)))
        .then((answers) => process.exit(answers.every((answer) => answer.ok) ? 0 : 1), () => process.exit(1));' 2>/dev/null; then
      up=true
      break
    fi
    sleep 1
  done
  kill -TERM -- -"$starter" 2>/dev/null || true
  wait "$starter" || true
  for _ in $(seq 1 20); do kill -0 -- -"$starter" 2>/dev/null || break; sleep 0.5; done
  if kill -KILL -- -"$starter" 2>/dev/null; then echo "npm start did not stop within 10 s of SIGTERM"; return 1; fi
  if [ "$up" != true ]; then
    echo "npm start did not bring both services up:"
    tail -40 "$log"
    return 1
  fi
  echo "both services answered"
}
