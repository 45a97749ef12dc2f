#!/bin/sh
# A made-up test script for check-rules.py's bite test (rules.json): it can skip.
echo "SKIP: nothing to test here"
exit 77
