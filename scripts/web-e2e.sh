#!/usr/bin/env bash
# The web board's browser test (docs/web.md): installs headless Chromium, its driver and
# Selenium when they are missing, then plays every game in the page through target/debug's
# web-board and tabula (built by `cargo test`; rebuilt here if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  apt-get update -q
  apt-get install -y -q --no-install-recommends chromium chromium-driver
fi
if ! python3 -c 'import selenium' 2>/dev/null; then
  python3 -m pip install --quiet selenium || python3 -m pip install --quiet --break-system-packages selenium
fi
# The binaries the server test uses (a no-op after `cargo test --all-targets`).
cargo test --quiet --no-run --test tools
python3 scripts/web-e2e.py target/debug
