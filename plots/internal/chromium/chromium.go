// Package chromium takes screenshots of local pages with headless Chromium,
// for the report's rendering test.
package chromium

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Screenshot renders the local file page (an absolute or relative path) in
// headless Chromium bin at a w by h window and writes a PNG to out. The
// browser runs offline-friendly: no sandbox, GPU, network services, sync or
// first-run tasks, with a throwaway profile.
func Screenshot(bin, page, out string, w, h int, timeout time.Duration) error {
	abs, err := filepath.Abs(page)
	if err != nil {
		return fmt.Errorf("chromium: %w", err)
	}
	outAbs, err := filepath.Abs(out)
	if err != nil {
		return fmt.Errorf("chromium: %w", err)
	}
	profile, err := os.MkdirTemp("", "sgdplan-chromium-")
	if err != nil {
		return fmt.Errorf("chromium: %w", err)
	}
	defer os.RemoveAll(profile)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--hide-scrollbars", "--force-device-scale-factor=1",
		"--user-data-dir="+profile,
		"--screenshot="+outAbs,
		fmt.Sprintf("--window-size=%d,%d", w, h),
		"file://"+abs)
	cmd.Dir = profile
	b, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("chromium: %s: %w\n%s", bin, err, b)
	}
	if _, err := os.Stat(outAbs); err != nil {
		return fmt.Errorf("chromium: no screenshot written: %w\n%s", err, b)
	}
	return nil
}
