#!/bin/sh
# pre_llm_call: add the working tree's uncommitted changes to the turn's context.
# (Claude Code's UserPromptSubmit fires at the same place.)
cat >/dev/null   # the payload is not needed
status=$(git status --porcelain 2>/dev/null) || status=''
if [ -n "$status" ]; then
  # JSON-escape without jq: backslashes, quotes and tabs by sed, lines joined with \n by awk.
  text=$(printf 'Uncommitted changes in cwd:\n%s\n' "$status" |
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' |
    awk 'BEGIN { ORS = "" } { if (NR > 1) print "\\n"; print }')
  printf '{"context": "%s"}\n' "$text"
else
  printf '{}\n'
fi
