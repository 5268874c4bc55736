#!/bin/bash
# Runs Bazel for Tessel: offline (everything is local, see WORKSPACE), with a
# disk cache under the user's cache directory so that fresh clones reuse
# earlier builds.
#   scripts/bazel.sh COMMAND [ARGS...]
set -euo pipefail
cache="${XDG_CACHE_HOME:-$HOME/.cache}/tessel/bazel-disk-cache"
mkdir -p "$cache"
command="$1"
shift
case "$command" in
  build | test | run | coverage | cquery | aquery | fetch)
    exec bazel "$command" --disk_cache="$cache" "$@" ;;
  *) exec bazel "$command" "$@" ;;  # info, shutdown, clean: no cache flag
esac
