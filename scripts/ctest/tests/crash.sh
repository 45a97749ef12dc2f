#!/usr/bin/env bash
# The wrappers' self-tests: print LINE, then die of SIGNAL (a crash: exit status 128+N).
# usage: crash.sh LINE SIGNAL
ulimit -c 0
echo "$1"
kill -"$2" $$
