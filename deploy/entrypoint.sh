#!/bin/sh
# Entry point of the one image (deploy/Dockerfile): the first argument, or APP when there is none, names the app.
#   entrypoint.sh payments            node dist/apps/payments/src/main.js (any app under dist/apps)
#   entrypoint.sh admin db:migrate    the operator CLI (npm run admin), with its arguments
# exec: node becomes PID 1 and gets SIGTERM itself (every app shuts down cleanly on it).
set -eu
cd "$(dirname "$0")"
app="${1:-${APP:-}}"
[ "$#" -gt 0 ] && shift
case "$app" in
  admin) entry=dist/apps/launcher/src/admin.js ;;
  "" | */* | .*) entry= ;;
  *) entry="dist/apps/$app/src/main.js" ;;
esac
if [ -z "$entry" ] || [ ! -f "$entry" ]; then
  echo "usage: <app> [args...] (or APP=<app>), app one of: admin $(ls dist/apps | tr '\n' ' ')" >&2
  exit 2
fi
exec node "$entry" "$@"
