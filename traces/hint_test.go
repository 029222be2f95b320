package traces

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// A folder or file of raw data that convert reads gets, beside "no
// canonical trace file", the convert command to run: a user who pointed
// inspect or fit at ../shared/data/pollux-osdi21 or at a TensorBoard log
// folder was told only which file names were expected. A folder whose
// subfolders hold traces names them; other folders get no hint.
func TestConvertHints(t *testing.T) {
	root := t.TempDir()
	mk := func(rel string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mk("data/pollux-osdi21/README.md")
	mk("data/dl2-mxnet-ps-speed/speed.csv")
	mk("data/notes.txt")
	mk("logs/events.out.tfevents.1700000000.host")
	mk("runs/a/steps.csv")
	mk("runs/b/evals.csv.gz")
	mk("runs/c/other.csv")
	mk("empty/x.txt")
	mk("keras/train/events.out.tfevents.1700000000.host")
	mk("keras/validation/events.out.tfevents.1700000001.host")
	mk("estimator/eval/events.out.tfevents.1700000002.host")
	ev := mk("timeline.json")
	for _, c := range []struct {
		path string
		want string // "" : no hint
	}{
		{filepath.Join(root, "data/pollux-osdi21"), "; it is the public dataset pollux-osdi21: convert it first (sgdplan convert --from pollux-osdi21 " + filepath.Join(root, "data/pollux-osdi21") + " --out DIR"},
		{filepath.Join(root, "data"), "; it holds the public datasets dl2-mxnet-ps-speed, pollux-osdi21: convert one first (sgdplan convert --from dl2-mxnet-ps-speed " + filepath.Join(root, "data") + " --out DIR"},
		{filepath.Join(root, "logs"), "; it holds TensorBoard event files: convert them first (sgdplan convert --from tfevents " + filepath.Join(root, "logs") + " --out DIR"},
		{filepath.Join(root, "runs"), "; folders inside it hold traces: name them (" + filepath.Join(root, "runs/a") + ", " + filepath.Join(root, "runs/b") + ")"},
		{filepath.Join(root, "logs/events.out.tfevents.1700000000.host"), "; it looks like a TensorBoard event file: convert it first (sgdplan convert --from tfevents " + filepath.Join(root, "logs/events.out.tfevents.1700000000.host") + " --out DIR"},
		{ev, "; if it is a Chrome trace (TensorFlow timeline, PyTorch profiler, Horovod timeline), convert it first (sgdplan convert --from chrome " + ev + " --out DIR"},
		// a Keras log folder and an Estimator's with its events one down
		// (convert named them; inspect and fit did not)
		{filepath.Join(root, "keras"), "; its subfolders " + filepath.Join(root, "keras/train") + " and " + filepath.Join(root, "keras/validation") + " hold TensorBoard event files, a run each: convert one first (sgdplan convert --from tfevents " + filepath.Join(root, "keras/train") + " --out DIR"},
		{filepath.Join(root, "estimator"), "; its subfolder " + filepath.Join(root, "estimator/eval") + " holds TensorBoard event files: convert them first (sgdplan convert --from tfevents " + filepath.Join(root, "estimator/eval") + " --out DIR"},
		{filepath.Join(root, "empty"), ""},
		{filepath.Join(root, "data/notes.txt"), ""},
	} {
		_, err := Files(c.path)
		if err == nil {
			t.Fatalf("%s: no error", c.path)
		}
		msg := err.Error()
		if c.want == "" {
			if strings.Contains(msg, ";") {
				t.Errorf("%s: a hint where none applies: %s", c.path, msg)
			}
			continue
		}
		if !strings.Contains(msg, c.want) {
			t.Errorf("%s:\n got %s\nwant it to hold %q", c.path, msg, c.want)
		}
	}
	// "." inside the dataset's folder (its name is the folder's)
	t.Chdir(filepath.Join(root, "data/pollux-osdi21"))
	if _, err := Files("."); err == nil || !strings.Contains(err.Error(), "; it is the public dataset pollux-osdi21: convert it first (sgdplan convert --from pollux-osdi21 . --out DIR") {
		t.Errorf(".: error %v, want the dataset's hint", err)
	}
	// the same on a file system given as fs.FS (slash paths)
	fsys := fstest.MapFS{
		"d/gavel-osdi20/x.csv": {},
		"t/run1/runs.csv":      {},
	}
	for path, want := range map[string]string{
		"d": "; it holds the public dataset gavel-osdi20: convert one first (sgdplan convert --from gavel-osdi20 d --out DIR",
		"t": "; folders inside it hold traces: name them (t/run1)",
	} {
		if _, err := FilesFS(fsys, path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("fs %s: error %v, want it to hold %q", path, err, want)
		}
	}
}

// A model.json that sgdplan fit wrote, given where a trace is wanted, is
// named as one, at its schema's value, with where it goes (fit m1.json
// advised converting it as a Chrome trace). Other JSON keeps the Chrome
// hint.
func TestModelFileNotATrace(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	m1 := write("m1.json", "{\n  \"schema\": \"sgdplan/model/v1\",\n  \"family\": \"amdahl\"\n}\n")
	// schema after other fields, a byte-order mark (not counted)
	m2 := write("m2.json", "\xef\xbb\xbf{\"x\": [1, {\"a\": 2}], \"schema\": \"sgdplan/model/v2\"}")
	for _, c := range []struct{ path, want string }{
		{m1, "traces: " + m1 + `:2:13: a model.json written by sgdplan fit (schema "sgdplan/model/v1"), not a trace: give it to predict, check or report with --model ` + m1 + "; a trace is a folder, or a file named steps.csv, updates.csv, runs.csv, evals.csv, throughput.csv, optionally .gz"},
		{m2, "traces: " + m2 + `:1:32: a model.json written by sgdplan fit (schema "sgdplan/model/v2"), not a trace`},
		{write("other.json", `{"schema": "other/v1"}`), "convert --from chrome"},
		{write("trace.json", `[{"name": "a", "ph": "X"}]`), "convert --from chrome"},
		{write("cut.json", `{"traceEvents": [`), "convert --from chrome"},
	} {
		_, err := Files(c.path)
		if err == nil || !strings.HasPrefix(err.Error(), "traces: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", filepath.Base(c.path), err, c.want)
		}
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: %T, want a *ParseError", filepath.Base(c.path), err)
		}
	}
	fsys := fstest.MapFS{"d/m.json": {Data: []byte(`{"schema": "sgdplan/model/v1"}`)}}
	if _, err := FilesFS(fsys, "d/m.json"); err == nil || !strings.Contains(err.Error(), "d/m.json:1:12: a model.json written by sgdplan fit") {
		t.Errorf("fs: %v", err)
	}
}
