#!/usr/bin/env bash
# Installs what tools/replaycheck needs, and nothing when it is already there:
#   - Debian's chromium (/usr/bin/chromium), with apt-get, only when root
#     (otherwise it says so and goes on; the replay test then fails saying
#     what is missing);
#   - the npm packages pinned in package-lock.json (replaywebpage,
#     playwright-core), when node_modules is missing.
# Safe to run again.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x /usr/bin/chromium ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "replaycheck: /usr/bin/chromium is missing and this is not root: apt-get install chromium as root" >&2
	else
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq >/dev/null
		apt-get install -y -qq --no-install-recommends chromium >/dev/null
	fi
fi
if [ ! -d node_modules/replaywebpage ] || [ ! -d node_modules/playwright-core ]; then
	if [ -f package-lock.json ]; then
		npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	else
		npm install --ignore-scripts --no-audit --no-fund --loglevel=error
	fi
fi
