#!/bin/bash
# Runs Bazel for Tessel: offline, quiet, with a disk cache under the user's
# cache directory so that fresh clones reuse earlier builds.
set -euo pipefail
cache="${XDG_CACHE_HOME:-$HOME/.cache}/tessel/bazel-disk-cache"
mkdir -p "$cache"
command="$1"
shift
exec bazel "$command" --disk_cache="$cache" "$@" \
  2> >(grep -v -e 'linux-sandbox' -e '^Loading' -e '^Analyzing' >&2)
