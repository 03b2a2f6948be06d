#!/bin/sh
# The image's command: manager | worker | translator (with their own arguments), or any program.
set -e
manager=/app/packages/manager/dist/manager.js
translator=/app/packages/translator/dist/translator.js
case "$1" in
manager) shift && exec node "$manager" "$@" ;;
worker) shift && exec node "$manager" --role worker "$@" ;;
translator) shift && exec node "$translator" "$@" ;;
*) exec "$@" ;;
esac
