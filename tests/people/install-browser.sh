#!/bin/sh
# Installs Debian's chromium and chromium-driver for the browser tests (tests/people/test_serve.py)
# when they are missing. Needs root (apt-get); says so otherwise.
set -e
# WeasyPrint (the filed PDFs) loads Pango; chromium depends on it too
if ! ldconfig -p 2>/dev/null | grep -q libpangoft2 && [ "$(id -u)" = 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libpango-1.0-0 libpangoft2-1.0-0 >/dev/null
fi
if command -v chromedriver >/dev/null 2>&1 && { command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; }; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "install-browser: chromium and chromium-driver are missing; run as root: apt-get install chromium chromium-driver" >&2
  exit 0
fi
echo "install-browser: installing chromium and chromium-driver (apt-get)" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
