#!/bin/sh
# The image's command: manager | worker | translator (with their own arguments), or any program.
set -e
manager=/app/packages/manager/dist/manager.js
translator=/app/packages/translator/dist/translator.js
# The flags of scripts/service-node-flags.mjs (less memory); NODE_OPTIONS may not carry --optimize-for-size.
flags="--max-semi-space-size=4"
case "$1" in
manager) shift && exec node $flags "$manager" "$@" ;;
worker) shift && exec node $flags "$manager" --role worker "$@" ;;
translator) shift && exec node $flags --optimize-for-size "$translator" "$@" ;;
*) exec "$@" ;;
esac
