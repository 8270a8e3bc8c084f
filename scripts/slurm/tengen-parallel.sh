#!/bin/sh
# The shards of one tengen self-play or match run with GNU parallel, on this machine or, over ssh,
# on others: shard K of N plays the games whose index is K modulo N into OUT/shard-K-of-N, and
# `tengen summary OUT` merges them (see README.md here).
#
#   tengen-parallel.sh TENGEN OUT N selfplay|match OPTIONS...
#
# parallel runs as many shards at once as there are cores, each with --resume (run the same line
# again to finish shards that failed or were interrupted). Options of parallel itself come from the
# PARALLEL environment variable: PARALLEL='-j 2' for two shards at a time, PARALLEL='-S node1,node2'
# to run them over ssh (then TENGEN and OUT must be absolute paths that every machine sees).
set -eu
if [ "$#" -lt 4 ]; then
  echo "usage: $0 TENGEN OUT N selfplay|match OPTIONS..." >&2
  exit 2
fi
tengen=$1
out=$2
shards=$3
shift 3
# -q quotes the command, so options with blanks in them (--black "--playouts 400") survive;
# {} is the shard number. The exit status is the number of shards that failed.
seq 0 $((shards - 1)) | parallel --will-cite -q "$tengen" "$@" --shard "{}/$shards" --out "$out" --resume
