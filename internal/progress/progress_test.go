package progress

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestNotATerminalPrintsNothing(t *testing.T) {
	var buf bytes.Buffer
	b := New(&buf, "work", 10, nil)
	if b != nil {
		t.Fatal("a bar on a bytes.Buffer, want nil")
	}
	for range 10 {
		b.Add(1) // nil bar: no panic, no output
	}
	b.Done()
	if buf.Len() != 0 {
		t.Errorf("printed %q on a non-terminal", buf.String())
	}
	// A regular file is not a terminal either.
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) || New(f, "work", 10, nil) != nil {
		t.Error("a regular file counts as a terminal")
	}
}

func TestForcedBar(t *testing.T) {
	var buf bytes.Buffer
	clock := time.Unix(0, 0)
	b := New(&buf, "sim", 4, &Options{Force: true, Width: 8, Every: -1})
	b.now = func() time.Time { return clock }
	b.start = clock
	b.Add(1)
	// 1/4 done: 2 of 8 cells full, then the arrow.
	if got, want := buf.String(), "\rsim [==>     ]  25% 1/4 0s"; got != want {
		t.Errorf("after 1: %q, want %q", got, want)
	}
	buf.Reset()
	clock = clock.Add(3 * time.Second)
	b.Add(10) // capped at the total
	if got, want := buf.String(), "\rsim [========] 100% 4/4 3s"; got != want {
		t.Errorf("after 11: %q, want %q", got, want)
	}
	buf.Reset()
	b.Done()
	if !strings.HasSuffix(buf.String(), "\n") {
		t.Errorf("Done does not end the line: %q", buf.String())
	}
}

func TestRedrawRate(t *testing.T) {
	var buf bytes.Buffer
	clock := time.Unix(0, 0)
	b := New(&buf, "x", 100, &Options{Force: true, Every: time.Second})
	b.now = func() time.Time { return clock }
	b.start = clock
	b.last = clock
	for range 50 {
		b.Add(1) // same instant: no redraw
	}
	if buf.Len() != 0 {
		t.Errorf("redrew %d bytes within the interval", buf.Len())
	}
	clock = clock.Add(time.Second)
	b.Add(1)
	if n := strings.Count(buf.String(), "\r"); n != 1 {
		t.Errorf("%d redraws after the interval, want 1", n)
	}
}

func TestConcurrentAdd(t *testing.T) {
	var buf bytes.Buffer
	b := New(&buf, "c", 1000, &Options{Force: true})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 250 {
				b.Add(1)
			}
		}()
	}
	wg.Wait()
	if b.done != 1000 {
		t.Errorf("done %d, want 1000", b.done)
	}
	if !strings.Contains(buf.String(), "1000/1000") {
		t.Errorf("final draw missing: %q", buf.String())
	}
}

// Grow adds work found on the way: a full bar falls back to its share of
// the new total, and a nil bar takes it as it takes Add.
func TestGrow(t *testing.T) {
	var buf bytes.Buffer
	clock := time.Unix(0, 0)
	b := New(&buf, "sim", 4, &Options{Force: true, Width: 8, Every: -1})
	b.now = func() time.Time { return clock }
	b.start = clock
	b.Add(4)
	buf.Reset()
	b.Grow(4)
	b.Add(2)
	if got, want := buf.String(), "\rsim [======> ]  75% 6/8 0s"; got != want {
		t.Errorf("after growing by 4 and 2 more: %q, want %q", got, want)
	}
	var none *Bar
	none.Grow(3)
	none.Add(1)
}
