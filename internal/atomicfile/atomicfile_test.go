package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A write lands whole, mode 0644; a failed one leaves neither the file
// nor a temporary one, and its error names the path, not the temporary.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.json")
	if err := WriteFile(p, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != "{}\n" {
		t.Fatalf("read back %q, %v", b, err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	// a writer that fails half-way: the old file stays, nothing else
	err := Write(p, func(w io.Writer) error {
		io.WriteString(w, "half")
		return errors.New("disk on fire")
	})
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "disk on fire") || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("failed write: %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "{}\n" {
		t.Errorf("the old file became %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
	// a folder that does not exist
	q := filepath.Join(dir, "no", "x.png")
	err = WriteFile(q, []byte("x"))
	if err == nil || !strings.Contains(err.Error(), q) || !strings.Contains(err.Error(), "does not exist") || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("missing folder: %v", err)
	}
}

// A link is followed: the file it points to gets the data and the link
// stays a link. A folder, a pipe or a device at the path is refused before
// anything is written, and Check says so up front.
func TestWriteTargets(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	if err := os.WriteFile(real, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("real.json", link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := WriteFile(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", fi, err)
	}
	if b, _ := os.ReadFile(real); string(b) != "new" {
		t.Errorf("the linked file holds %q, want the new data", b)
	}
	// a dangling link: the write creates its target
	dangling := filepath.Join(dir, "dangling.json")
	os.Symlink(filepath.Join(dir, "later.json"), dangling)
	if err := WriteFile(dangling, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "later.json")); string(b) != "x" {
		t.Errorf("dangling link's target holds %q", b)
	}
	// a folder at the path
	sub := filepath.Join(dir, "sub.png")
	os.Mkdir(sub, 0o755)
	for _, err := range []error{WriteFile(sub, []byte("x")), Check(sub)} {
		if err == nil || !strings.Contains(err.Error(), sub+" is a folder") {
			t.Errorf("folder at the path: %v", err)
		}
	}
	// a link to a folder
	os.Symlink("sub.png", filepath.Join(dir, "tosub"))
	if err := Check(filepath.Join(dir, "tosub")); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("link to a folder: %v", err)
	}
	// a device: refused, and left as it is
	if err := Check(os.DevNull); err == nil || !strings.Contains(err.Error(), os.DevNull+" is a device, not a regular file") {
		t.Errorf("%s: %v", os.DevNull, err)
	}
	// Check on a good path and on a missing folder
	if err := Check(filepath.Join(dir, "new.json")); err != nil {
		t.Errorf("a new file in an existing folder: %v", err)
	}
	if err := Check(filepath.Join(dir, "no", "x.json")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing folder: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 6 {
		t.Errorf("folder holds %d entries, want 6 (no temporary left): %v", len(ents), ents)
	}
}

// A link whose folder is itself a link, pointing through "..": the write
// lands where the system resolves it (out -> a/b/c, then
// c/m.json -> ../x.json is a/b/x.json), not where cleaning the text would
// (./x.json).
func TestWriteLinkThroughLinkedFolder(t *testing.T) {
	dir := t.TempDir()
	deep := filepath.Join(dir, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(deep, filepath.Join(dir, "out")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := os.Symlink("../x.json", filepath.Join(deep, "m.json")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(filepath.Join(dir, "out", "m.json"), []byte("data")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a", "b", "x.json")); err != nil || string(b) != "data" {
		t.Errorf("a/b/x.json: %q, %v; want the data there", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.json")); err == nil {
		t.Error("wrote ./x.json, where the text of the path points")
	}
}

// CheckFiles names the first file of the list that cannot be written, with
// Target's error; a folder of writable (or absent) files passes.
func TestCheckFiles(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.csv"), []byte("x"), 0o644)
	os.Mkdir(filepath.Join(dir, "c.csv"), 0o755)
	if name, err := CheckFiles(dir, "a.csv", "b.csv"); name != "" || err != nil {
		t.Errorf("writable files: %q, %v", name, err)
	}
	name, err := CheckFiles(dir, "a.csv", "c.csv", "b.csv")
	if name != "c.csv" || err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "c.csv")+" is a folder") {
		t.Errorf("a folder in the list: %q, %v", name, err)
	}
	if name, err := CheckFiles(filepath.Join(dir, "missing"), "a.csv"); name != "" || err != nil {
		t.Errorf("a missing folder: %q, %v", name, err)
	}
}

// WriteAll writes every file or none: the second writer failing leaves the
// first file as it was (convert wrote steps.csv and then failed on
// runs.csv), and no temporary file behind.
func TestWriteAllOrNone(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	os.WriteFile(a, []byte("old\n"), 0o644)
	err := WriteAll([]string{a, b}, []func(io.Writer) error{
		func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err },
		func(w io.Writer) error { return errors.New("disk full") },
	})
	if err == nil || !strings.Contains(err.Error(), b) {
		t.Fatalf("err %v, want one naming %s", err, b)
	}
	if got, _ := os.ReadFile(a); string(got) != "old\n" {
		t.Errorf("a.csv became %q: written although b.csv failed", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
	if err := WriteAll([]string{a, b}, []func(io.Writer) error{
		func(w io.Writer) error { _, err := io.WriteString(w, "A\n"); return err },
		func(w io.Writer) error { _, err := io.WriteString(w, "B\n"); return err },
	}); err != nil {
		t.Fatal(err)
	}
	ga, _ := os.ReadFile(a)
	gb, _ := os.ReadFile(b)
	if string(ga) != "A\n" || string(gb) != "B\n" {
		t.Errorf("wrote %q and %q", ga, gb)
	}
}

// CheckFiles refuses, before anything is written, a link whose target's
// folder does not exist; Check refuses a folder that exists but takes no
// file (/proc), with the system's reason, not "does not exist".
func TestCheckLinkAndUnwritableFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(dir, "nowhere", "runs.csv"), filepath.Join(dir, "runs.csv")); err != nil {
		t.Skip(err)
	}
	name, err := CheckFiles(dir, "steps.csv", "runs.csv")
	if name != "runs.csv" || err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("dangling link: %q, %v", name, err)
	}
	if fi, err := os.Stat("/proc"); err != nil || !fi.IsDir() {
		t.Skip("no /proc")
	}
	err = Check("/proc/m.json")
	if err == nil || strings.Contains(err.Error(), "does not exist") || !strings.Contains(err.Error(), "cannot write in folder /proc") {
		t.Errorf("/proc: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("the check left files: %v", ents)
	}
}

// A replaced file keeps its mode, as an editor keeps it: a private 0600
// file stayed readable by all (0644) after every write, and a 0664 one lost
// its group's write. Through a link, the linked file's mode is kept.
func TestWriteKeepsMode(t *testing.T) {
	dir := t.TempDir()
	for _, mode := range []os.FileMode{0o600, 0o664, 0o640} {
		p := filepath.Join(dir, "m"+mode.String()+".json")
		if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode) // not subject to the umask
		if err := WriteFile(p, []byte("new")); err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Stat(p)
		if b, _ := os.ReadFile(p); fi.Mode().Perm() != mode || string(b) != "new" {
			t.Errorf("%v file: now %v holding %q, want %v holding \"new\"", mode, fi.Mode().Perm(), b, mode)
		}
	}
	real := filepath.Join(dir, "real.json")
	os.WriteFile(real, []byte("old"), 0o600)
	os.Chmod(real, 0o600)
	if err := os.Symlink("real.json", filepath.Join(dir, "link.json")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := WriteFile(filepath.Join(dir, "link.json"), []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o600 {
		t.Errorf("the linked 0600 file is now %v", fi.Mode().Perm())
	}
}

// A file that no one may write (chmod a-w) is refused, by Check before any
// work and by Write, and stays as it was with nothing left beside it: a
// rename replaced it without a word (it needs the folder's permission
// only).
func TestWriteReadOnly(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.json")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(p, 0o444)
	want := p + " is read-only (mode -r--r--r--): refusing to replace it; make it writable (chmod u+w) or write elsewhere"
	for name, err := range map[string]error{"Write": WriteFile(p, []byte("new")), "Check": Check(p)} {
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("the read-only file became %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
}

// A name the system takes (up to 255 bytes) can be written: the temporary
// file's name, "."+name+".tmp"+digits, went past 255 bytes and the write
// failed with "file name too long" for a 250-byte name. A name cut short
// is not cut inside a character.
func TestWriteLongName(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{
		strings.Repeat("y", 245) + ".json", // 250 bytes
		strings.Repeat("z", 250) + ".json", // 255 bytes
		strings.Repeat("é", 120) + ".json", // 245 bytes, 2 a character
	} {
		p := filepath.Join(dir, name)
		if err := WriteFile(p, []byte("x")); err != nil {
			t.Errorf("%d-byte name: %v", len(name), err)
			continue
		}
		if b, _ := os.ReadFile(p); string(b) != "x" {
			t.Errorf("%d-byte name holds %q", len(name), b)
		}
		os.Remove(p)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}

// TestTempNameCut: a long name is cut to fit with its temporary suffix,
// back to a whole character when the cut falls inside one, and no further:
// a byte that is not UTF-8 earlier in the name (Linux takes any bytes) cut
// it back to that byte, down to nothing.
func TestTempNameCut(t *testing.T) {
	dir := t.TempDir()
	const keep = maxTempName - (1 + len(".tmp") + 10) // bytes of the name kept
	for _, c := range []struct {
		name string
		want string // the kept part of the name
	}{
		{"ab\xffcd" + strings.Repeat("y", 250), ("ab\xffcd" + strings.Repeat("y", 250))[:keep]},
		{"a" + strings.Repeat("é", 125), "a" + strings.Repeat("é", (keep-1)/2)}, // the cut falls inside an é
		{"short.json", "short.json"},
	} {
		f, err := createTemp(filepath.Join(dir, c.name), filepath.Join(dir, c.name))
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		os.Remove(f.Name())
		base := filepath.Base(f.Name())
		if !strings.HasPrefix(base, "."+c.want+".tmp") || len(base) > maxTempName {
			t.Errorf("temporary name %q (%d bytes), want .%s.tmpDIGITS within %d bytes", base, len(base), c.want, maxTempName)
		}
	}
}

// RemoveTemps, as on Ctrl-C in the middle of a write, removes the
// temporary file being written, and the write then neither lands nor fails
// but waits for the program's end, as does a later write: it left
// ".NAME.tmpN" beside the output, and a write that failed once the
// temporary file was gone made the program exit 1 with "m.json: no such
// file or directory" before its signal ended it.
func TestRemoveTemps(t *testing.T) {
	waited := make(chan string, 2)
	defer func(w func()) { waitForStop = w }(waitForStop)
	waitForStop = func() { waited <- "waiting"; select {} }
	defer func() { live.Lock(); live.closed = false; live.Unlock() }()
	dir := t.TempDir()
	p := filepath.Join(dir, "m.json")
	returned := make(chan error, 2)
	go func() {
		returned <- Write(p, func(w io.Writer) error {
			if ents, _ := os.ReadDir(dir); len(ents) != 1 {
				t.Errorf("while writing the folder holds %v, want the temporary file", ents)
			}
			RemoveTemps()
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("after RemoveTemps the folder holds %v", ents)
			}
			_, err := io.WriteString(w, "half")
			return err
		})
	}()
	go func() { <-waited; returned <- WriteFile(filepath.Join(dir, "n.json"), []byte("x")) }()
	// both writes reach waitForStop; neither returns
	if w := <-waited; w != "waiting" {
		t.Fatal(w)
	}
	select {
	case err := <-returned:
		t.Errorf("a write returned (%v) after RemoveTemps; want it waiting for the end", err)
	default:
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left %v", ents)
	}
}

// A file made outside Write and tracked (predict's spill, where the system
// cannot unlink it while open) is removed by RemoveTemps; once untracked,
// it is left to its owner.
func TestTrackedRemovedByRemoveTemps(t *testing.T) {
	defer func() { live.Lock(); live.closed = false; live.Unlock() }()
	dir := t.TempDir()
	kept, gone := filepath.Join(dir, "kept"), filepath.Join(dir, "gone")
	for _, p := range []string{kept, gone} {
		if err := os.WriteFile(p, []byte("rows"), 0o644); err != nil {
			t.Fatal(err)
		}
		Track(p)
	}
	Untrack(kept)
	RemoveTemps()
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Errorf("tracked file after RemoveTemps: %v, want it removed", err)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("untracked file after RemoveTemps: %v, want it kept", err)
	}
}
