# Sourced by the shell checks after `set -e`: a command that fails (a grep that finds nothing, a
# Python assertion) stops the script naming the script, its line, the command with the expected
# pattern, and its exit status, instead of ending it without a word.
set -E
trap 'echo "FAIL: ${BASH_SOURCE[0]##*/}:${LINENO}: \`${BASH_COMMAND}\` exited $?" >&2' ERR
