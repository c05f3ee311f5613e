#!/usr/bin/env bash
# Regenerates Examples/gtk-scene/screenshot.png, the picture in the README: runs the test
# with real windows (WindowTests: the GTK scene under Xvfb, which installs what it needs)
# and keeps the screenshot it saved, two scenes' windows and a sheet, as the X server
# showed them.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift test --filter WindowTests
cp .build/artifacts/gtk-windows.png Examples/gtk-scene/screenshot.png
echo "Examples/gtk-scene/screenshot.png: regenerated"
