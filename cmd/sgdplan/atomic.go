package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sgdplan/sgdplan/internal/atomicfile"
	"github.com/sgdplan/sgdplan/internal/words"
	"github.com/urfave/cli/v2"
)

// writeFileAtomic writes data to path through a temporary file in the same
// folder and a rename, so that a reader never sees a half-written file.
func writeFileAtomic(path string, data []byte) error {
	return atomicfile.WriteFile(path, data)
}

// notAFile refuses an output folder (the command cmd's --out) that is an
// existing file: bad input, before any work is done.
func notAFile(cmd, out string) error {
	if fi, err := os.Stat(out); err == nil && !fi.IsDir() {
		what := "a file"
		if !fi.Mode().IsRegular() {
			what = "not a folder" // a pipe, a device
		}
		return badInput(fmt.Errorf("%s: --out %s is %s: --out must be a folder (created when missing)", cmd, out, what))
	}
	return nil
}

// outFolder checks, before any work is done, that the output file path
// (the flag's value) can be written: its folder exists and it is not a
// folder, device or pipe. A command then fails before writing any of its
// outputs instead of after some.
func outFolder(cmd, flag, path string) error {
	// the folder the file lands in (that of a link's target) must exist
	// and take a file: /proc exists but does not, and the command would
	// have done all its work before failing
	if err := atomicfile.Check(path); err != nil {
		return badInput(fmt.Errorf("%s: --%s %w", cmd, flag, err))
	}
	return nil
}

// emptyPath refuses the path flag of c given as "" (bad input, before any
// work): an empty --plot drew no figure and exited 0 without a word, and
// fit's empty --out failed (exit 1) after the whole fit; report's and
// convert's --out and check's --model are refused so when empty. without
// says what leaving the flag out does.
func emptyPath(c *cli.Context, flag, without string) error {
	return emptyFlag(c, flag, fmt.Sprintf("a file path (without --%s, %s)", flag, without))
}

// emptyFlag refuses the flag of c given as "" (bad input, before any work),
// saying that it wants want: emptyPath's and emptyFolder's test, and that of
// an input flag (--model=), which read as the flag left out ("missing
// --model", "give --jobs", or validate's default data).
func emptyFlag(c *cli.Context, flag, want string) error {
	if c.IsSet(flag) && c.String(flag) == "" {
		return badInput(fmt.Errorf("%s: --%s is empty: want %s", c.Command.Name, flag, want))
	}
	return nil
}

// emptyFolder is emptyPath for a flag that names a folder: validate's
// empty --out ran for 23 s, wrote ./img/validation.png and failed (exit 1,
// "sgdplan: : no such file or directory"); demo's failed on "mkdir ", and
// convert's said --out was missing. what says what the folder is for, or
// what leaving the flag out does.
func emptyFolder(c *cli.Context, flag, what string) error {
	return emptyFlag(c, flag, "a folder path ("+what+")")
}

// plotName refuses a --plot path of the command cmd that does not end in
// .png (any case), as an empty one is refused: the figure is a PNG
// whatever the name (out.txt, then p.svg, were written as one, with a
// warning at most).
func plotName(cmd, path string) error {
	if !strings.HasSuffix(strings.ToLower(path), ".png") {
		return badInput(fmt.Errorf("%s: --plot %s: want a path ending in .png (the figure is a PNG; no other format is drawn)", cmd, path))
	}
	return nil
}

// sameFile reports whether paths a and b name the same file: by identity
// when both exist, else by the file a write of each would replace (links
// followed), compared cleaned and absolute.
func sameFile(a, b string) bool {
	if fa, err := os.Stat(a); err == nil {
		if fb, err := os.Stat(b); err == nil {
			return os.SameFile(fa, fb)
		}
	}
	if ta, err := atomicfile.Target(a); err == nil {
		a = ta
	}
	if tb, err := atomicfile.Target(b); err == nil {
		b = tb
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// cellText is a name from the user's files as a table prints it: as it is
// when every character is printable, else quoted with Go's escapes. A raw
// tab or a 0xff byte (text/tabwriter's escape character) would break the
// table's columns, and control characters would reach the terminal.
func cellText(s string) string {
	if !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return strconv.Quote(s)
	}
	return s
}

// nameList is words.FirstOf(names, most) with each name shown as cellText
// shows it: a job or run name from the user's files may hold a newline (a
// quoted CSV field keeps one), which printed raw in a warning began a line
// that read as another "sgdplan: warning:".
func nameList(names []string, most int) string {
	shown := make([]string, len(names)) // (FirstOf counts the rest, unshown)
	for i := range min(len(names), most) {
		shown[i] = cellText(names[i])
	}
	return words.FirstOf(shown, most)
}
