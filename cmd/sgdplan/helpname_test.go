package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A folder named h or help is a path to a leaf command, not its help
// command (urfave/cli adds one unless told not to); help is still had by
// --help and by sgdplan help CMD.
func TestFolderNamedLikeHelp(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "synthetic", "async-ps"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, name := range []string{"h", "help"} {
		if err := os.CopyFS(filepath.Join(dir, name), os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	for _, name := range []string{"h", "help"} {
		code, stdout, stderr := runCmd(t, "inspect", name)
		if code != exitOK || strings.Contains(stdout, "USAGE") || !strings.Contains(stdout, "updates/s") {
			t.Errorf("inspect %s: exit %d, stdout:\n%s\nstderr:\n%s", name, code, stdout, stderr)
		}
		code, _, stderr = runCmd(t, "inspect", name, filepath.Join(name, "runs.csv"))
		if code != exitOK || strings.Contains(stderr, "unknown command") {
			t.Errorf("inspect %s %s/runs.csv: exit %d, stderr:\n%s", name, name, code, stderr)
		}
	}
	for _, args := range [][]string{{"inspect", "--help"}, {"help", "inspect"}, {"inspect", "-h"}} {
		code, stdout, _ := runCmd(t, args...)
		if code != exitOK || !strings.Contains(stdout, "sgdplan inspect - ") {
			t.Errorf("%v: exit %d, want inspect's help; stdout:\n%s", args, code, stdout)
		}
	}
}
