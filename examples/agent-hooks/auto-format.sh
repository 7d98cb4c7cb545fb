#!/bin/sh
# post_tool_call (matcher: write_file|patch): format the file that was just written.
# The formatter defaults to `black` for Python files; set HOOKGATE_FORMATTER to use another.
payload=$(cat)
path=$(printf '%s' "$payload" | sed -n 's/.*"tool_input": {[^}]*"path": "\([^"]*\)".*/\1/p')
formatter=${HOOKGATE_FORMATTER:-black}
case "$path" in
  *.py) command -v "$formatter" >/dev/null 2>&1 && "$formatter" "$path" >/dev/null 2>&1 ;;
esac
printf '{}\n'
