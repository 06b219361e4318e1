#!/usr/bin/env bash
# Makes sure Debian's chromium is at /usr/bin/chromium for the browser tests (apps/web-demo).
# Installs it with apt when it is missing and we are root; otherwise says what to do and fails.
# Safe to run repeatedly and from several test processes at once (apt is serialised by a lock).
set -euo pipefail

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  exit 0
fi

if [ "$(id -u)" != "0" ]; then
  echo "ensure-chromium: $CHROMIUM is missing; install Debian's chromium (sudo apt-get install -y chromium) or set CHROMIUM_PATH." >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
lock="/tmp/baton-ensure-chromium.lock"
(
  # Several vitest workers may get here together: one installs, the others wait for it.
  flock 9
  if [ ! -x "$CHROMIUM" ]; then
    echo "ensure-chromium: installing chromium with apt-get" >&2
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends chromium >&2
  fi
) 9>"$lock"

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing." >&2
  exit 1
fi
