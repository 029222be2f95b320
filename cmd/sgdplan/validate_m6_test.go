package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The page's "this run" line quotes an --async path for a shell as it does
// --data and --out: a folder "async traces" is one word, in single quotes
// (POSIX: nothing inside them is special), or the line run again would
// read two folders, one ending in /async and another named traces.
func TestValidateThisRunQuotesAsync(t *testing.T) {
	if testing.Short() {
		t.Skip("fits every public dataset (a few seconds)")
	}
	data := sharedData(t)
	dir := t.TempDir()
	async := filepath.Join(dir, "async traces")
	if err := os.CopyFS(async, os.DirFS(fitAsync)); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "validation.md")
	_, md := validatePage(t, out, "--data", data, "--async", async)
	if want := " --async '" + filepath.ToSlash(async) + "'`)"; !strings.Contains(md, want) {
		t.Errorf("no %q on the page", want)
	}
}
