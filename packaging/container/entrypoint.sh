#!/bin/sh
# The image's command: manager | worker | translator (with their own arguments), or any program.
set -e
manager=/app/packages/manager/dist/src/main.js
translator=/app/packages/translator/dist/src/main.js
case "$1" in
manager) shift && exec node "$manager" "$@" ;;
worker) shift && exec node "$manager" --role worker "$@" ;;
translator) shift && exec node "$translator" "$@" ;;
*) exec "$@" ;;
esac
