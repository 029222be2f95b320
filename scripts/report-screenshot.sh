#!/usr/bin/env bash
# Rebuilds the figures of docs/img (models-throughput.png by fit --plot, as
# docs/models.md says) and the screenshot docs/img/report.png from
# the demo's report (the real async traces of testdata/asgd fitted on the runs
# with at most 2 workers; the example jobs plus the fitted job, 16 workers):
# copies its PNGs to docs/img, renders index.html in headless Chromium and runs
# the report's Chromium test.
#
#   scripts/report-screenshot.sh            # needs /usr/bin/chromium
#   INSTALL=1 scripts/report-screenshot.sh  # apt-get install -y chromium first
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

if [[ ! -x /usr/bin/chromium ]]; then
	if [[ "${INSTALL:-0}" == 1 ]]; then
		apt-get install -y chromium
	else
		echo "report-screenshot: /usr/bin/chromium is missing (INSTALL=1 installs it with apt-get)" >&2
		exit 1
	fi
fi

# Work in a temporary folder, so that the report shows short relative paths.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/sgdplan" ./cmd/sgdplan
(
	cd "$tmp"
	./sgdplan demo --out example/report >/dev/null
)
# The report's figures (the demo's fit-train.png is fit --plot's, not the report's).
for f in "$tmp"/example/report/*.png; do
	case "$(basename "$f")" in fit-train.png) continue ;; esac
	cp "$f" "docs/img/$(basename "$f")"
done

# docs/models.md's figure: fit --plot on the same traces (its command is in models.md)
"$tmp/sgdplan" fit testdata/asgd --train-workers 1,2 --out "$tmp/m.json" --plot docs/img/models-throughput.png >/dev/null 2>&1

profile=$(mktemp -d)
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--hide-scrollbars --force-device-scale-factor=1 \
	--user-data-dir="$profile" --screenshot="$repo/docs/img/report.png" \
	--window-size=1280,2000 "file://$tmp/example/report/index.html" 2>/dev/null
rm -rf "$profile"
echo "report-screenshot: wrote docs/img/*.png and docs/img/report.png"

# The rendering test (skipped where Chromium is absent).
go test -run TestReportInChromium -count=1 ./plots/
