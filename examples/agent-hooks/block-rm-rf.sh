#!/bin/sh
# pre_tool_call (matcher: terminal): refuse `rm -rf /…` before it runs.
# stdin is one line of JSON: {"hook_event_name": …, "tool_input": {"command": …}, …}.
# No jq needed: the pattern is looked for in the payload itself.
payload=$(cat)
if printf '%s' "$payload" | grep -qE '"command": "[^"]*rm[[:space:]]+-[a-zA-Z]*[rR][a-zA-Z]*f?[[:space:]]+/'; then
  printf '{"decision": "block", "reason": "blocked: rm -rf / is not permitted"}\n'
else
  printf '{}\n'
fi
