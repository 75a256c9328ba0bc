#!/bin/bash
# expect_status.sh ok|refused COMMAND...: runs COMMAND (its output passes through) and prints
# "expect_status: exit status N, wanted ..." when its exit status is not the one wanted: ok is
# 0, refused a nonzero exit that is not a signal (a clear error, not a crash). CTest ignores the
# exit status of a test with PASS_REGULAR_EXPRESSION; the tests that have one run through this
# and fail on that line (FAIL_REGULAR_EXPRESSION, tests/CMakeLists.txt: aries_cli_test).
want=$1
shift
"$@"
rc=$?
case $want in
  ok) good=$((rc == 0)) ;;
  refused) good=$((rc != 0 && rc < 128)) ;;
  *) echo "expect_status: wanted '$want': allowed ok, refused"; exit 2 ;;
esac
if [ "$good" != 1 ]; then
  echo "expect_status: exit status $rc, wanted $want"
fi
exit $rc
