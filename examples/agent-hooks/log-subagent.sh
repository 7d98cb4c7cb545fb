#!/bin/sh
# subagent_stop: append one JSON line per finished child agent to <hooks home>/logs/orchestration.log.
home=${HOOKGATE_HOME:-${HERMES_HOME:-$HOME/.hermes}}
log="$home/logs/orchestration.log"
mkdir -p "$home/logs"
payload=$(cat)
printf '{"ts": %s, "event": %s}\n' "$(date +%s)" "$payload" >> "$log"
printf '{}\n'
