package archive

import (
	"bufio"
	"bytes"
	"container/heap"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/langcrawl/langcrawl/internal/atomicfile"
	"github.com/langcrawl/langcrawl/internal/dirglob"
)

// DefaultSortMemory is the memory a Sorter uses for lines before it spills
// them to a sorted run on disk, when NewSorter is given 0.
const DefaultSortMemory = 64 << 20

// maxFanIn is the most runs merged at once: more are merged in rounds, so
// that the open files stay few whatever the number of runs.
const maxFanIn = 64

// errUnsorted reports an input of a merge whose lines are out of order.
var errUnsorted = errors.New("archive: index lines out of order")

// Sorter sorts CDXJ lines in byte order (as LC_ALL=C sort, what pywb's
// binary search needs) in bounded memory: it holds lines up to its memory
// budget, then sorts them and spills them to a run file in its directory,
// and WriteTo merges the runs. It is not safe for concurrent use. Close
// removes the runs.
type Sorter struct {
	dir    string
	memory int
	lines  [][]byte
	size   int
	runs   []string
}

// NewSorter returns a Sorter that spills runs into dir ("" means
// os.TempDir()) once it holds memory bytes of lines (0 means
// DefaultSortMemory).
func NewSorter(dir string, memory int) *Sorter {
	if memory <= 0 {
		memory = DefaultSortMemory
	}
	return &Sorter{dir: dir, memory: memory}
}

// Add adds one line; a missing final newline is added.
func (s *Sorter) Add(line []byte) error {
	l := make([]byte, len(line), len(line)+1)
	copy(l, line)
	if len(l) == 0 || l[len(l)-1] != '\n' {
		l = append(l, '\n')
	}
	s.lines = append(s.lines, l)
	s.size += len(l) + 24 // the slice header too
	if s.size >= s.memory {
		return s.spill()
	}
	return nil
}

// spill sorts the lines held and writes them to a new run.
func (s *Sorter) spill() error {
	if len(s.lines) == 0 {
		return nil
	}
	slices.SortFunc(s.lines, bytes.Compare)
	f, err := os.CreateTemp(s.dir, "langcrawl-cdxj-run-*")
	if err != nil {
		return fmt.Errorf("archive: sort index: %w", err)
	}
	s.runs = append(s.runs, f.Name())
	bw := bufio.NewWriterSize(f, 256<<10)
	for _, l := range s.lines {
		bw.Write(l)
	}
	err = bw.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("archive: sort index: write %s: %w", f.Name(), err)
	}
	s.lines, s.size = s.lines[:0], 0
	return nil
}

// WriteTo writes every line added, sorted, each distinct line once, to w.
func (s *Sorter) WriteTo(w io.Writer) (int64, error) {
	if len(s.runs) > 0 {
		if err := s.spill(); err != nil {
			return 0, err
		}
		return mergeFiles(w, s.runs, s.dir)
	}
	slices.SortFunc(s.lines, bytes.Compare)
	cw := &countWriter{w: w}
	bw := bufio.NewWriterSize(cw, 256<<10)
	var last []byte
	for _, l := range s.lines {
		if last != nil && bytes.Equal(l, last) {
			continue
		}
		bw.Write(l)
		last = l
	}
	err := bw.Flush()
	return cw.n, err
}

// Close removes the sorter's runs. The Sorter may not be used again.
func (s *Sorter) Close() error {
	var errs []error
	for _, r := range s.runs {
		if err := os.Remove(r); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	s.runs, s.lines = nil, nil
	return errors.Join(errs...)
}

// mergeFiles merges the sorted files at paths into w, each distinct line
// once, in rounds of at most maxFanIn files (the intermediate ones go to
// tmpDir and are removed). It returns errUnsorted, wrapped with the file,
// if a file is not sorted.
func mergeFiles(w io.Writer, paths []string, tmpDir string) (int64, error) {
	var temps []string
	defer func() {
		for _, t := range temps {
			os.Remove(t)
		}
	}()
	for len(paths) > maxFanIn {
		var next []string
		for i := 0; i < len(paths); i += maxFanIn {
			group := paths[i:min(i+maxFanIn, len(paths))]
			f, err := os.CreateTemp(tmpDir, "langcrawl-cdxj-merge-*")
			if err != nil {
				return 0, fmt.Errorf("archive: merge index: %w", err)
			}
			temps = append(temps, f.Name())
			_, err = mergeOpen(f, group)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return 0, err
			}
			next = append(next, f.Name())
		}
		paths = next
	}
	return mergeOpen(w, paths)
}

// mergeOpen opens the files and merges them into w.
func mergeOpen(w io.Writer, paths []string) (int64, error) {
	var rs []*mergeInput
	defer func() {
		for _, r := range rs {
			r.f.Close()
		}
	}()
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return 0, fmt.Errorf("archive: merge index: %w", err)
		}
		rs = append(rs, &mergeInput{f: f, name: p, r: bufio.NewReaderSize(f, 64<<10)})
	}
	return merge(w, rs)
}

type mergeInput struct {
	f    io.Closer
	name string
	r    *bufio.Reader
	line []byte // current line, with its newline
}

// next reads the input's next line into in.line; it returns io.EOF at the
// end. A last line without a newline gets one.
func (in *mergeInput) next() error {
	prev := in.line
	l, err := in.r.ReadBytes('\n')
	if len(l) == 0 && err != nil {
		if errors.Is(err, io.EOF) {
			return io.EOF
		}
		return fmt.Errorf("archive: merge index: read %s: %w", in.name, err)
	}
	if l[len(l)-1] != '\n' {
		l = append(l, '\n')
	}
	if prev != nil && bytes.Compare(l, prev) < 0 {
		return fmt.Errorf("%w: %s", errUnsorted, in.name)
	}
	in.line = l
	return nil
}

type mergeHeap []*mergeInput

func (h mergeHeap) Len() int           { return len(h) }
func (h mergeHeap) Less(i, j int) bool { return bytes.Compare(h[i].line, h[j].line) < 0 }
func (h mergeHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *mergeHeap) Push(x any)        { *h = append(*h, x.(*mergeInput)) }
func (h *mergeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// merge writes the lines of the sorted inputs to w in order, each distinct
// line once. Memory: one line and one buffer per input.
func merge(w io.Writer, inputs []*mergeInput) (int64, error) {
	h := mergeHeap{}
	for _, in := range inputs {
		err := in.next()
		if errors.Is(err, io.EOF) {
			continue
		}
		if err != nil {
			return 0, err
		}
		h = append(h, in)
	}
	heap.Init(&h)
	cw := &countWriter{w: w}
	bw := bufio.NewWriterSize(cw, 256<<10)
	var last []byte
	for h.Len() > 0 {
		in := h[0]
		if last == nil || !bytes.Equal(in.line, last) {
			if _, err := bw.Write(in.line); err != nil {
				return cw.n, err
			}
			last = append(last[:0], in.line...)
		}
		err := in.next()
		switch {
		case errors.Is(err, io.EOF):
			heap.Pop(&h)
		case err != nil:
			return cw.n, err
		default:
			heap.Fix(&h, 0)
		}
	}
	err := bw.Flush()
	return cw.n, err
}

// SortIndex sorts the lines of a CDXJ file in byte order (as LC_ALL=C
// sort), which pywb's binary search needs, dropping repeated lines. It
// sorts in bounded memory (runs spilled beside the file) and writes a
// temporary file that it renames over the original, so a failure leaves
// the original as it was.
func SortIndex(path string) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("archive: sort index %s: %w", path, err)
	}
	defer f.Close()
	s := NewSorter(filepath.Dir(path), 0)
	defer s.Close()
	r := bufio.NewReaderSize(f, 256<<10)
	for {
		l, err := r.ReadBytes('\n')
		if len(l) > 0 {
			if err := s.Add(l); err != nil {
				return fmt.Errorf("archive: sort index %s: %w", path, err)
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("archive: sort index %s: %w", path, err)
		}
	}
	err = atomicfile.Write(path, mode, func(w io.Writer) error {
		_, err := s.WriteTo(w)
		return err
	})
	if err != nil {
		return fmt.Errorf("archive: sort index %s: %w", path, err)
	}
	return nil
}

// RunsDir is the directory, inside a Writer's Dir, that holds the index
// lines of each closed WARC file, sorted, until they are merged into
// IndexName: runs/<WARC file name>.cdxj.
const RunsDir = "index.d"

// MergeIndex merges the runs in dir/RunsDir into dir/IndexName, in
// bounded memory, and removes them. The index is replaced atomically
// (temporary file, fsync, rename), so a kill or a full disk leaves either
// the old index with every run still there or the new one; a line that is
// in both (a kill after the rename, before the runs were removed) is
// written once. An index that is not sorted (one from an older langcrawl
// that was killed) is sorted first. It does nothing if there is no run.
func MergeIndex(dir string) error {
	runs, err := dirglob.Glob(filepath.Join(dir, RunsDir), "*.cdxj")
	if err != nil || len(runs) == 0 {
		return err
	}
	index := filepath.Join(dir, IndexName)
	inputs := runs
	if _, err := os.Stat(index); err == nil {
		inputs = append([]string{index}, runs...)
	}
	do := func() error {
		return atomicfile.Write(index, 0o644, func(w io.Writer) error {
			_, err := mergeFiles(w, inputs, filepath.Join(dir, RunsDir))
			return err
		})
	}
	err = do()
	if errors.Is(err, errUnsorted) && len(inputs) > len(runs) {
		if err = SortIndex(index); err == nil {
			err = do()
		}
	}
	if err != nil {
		return fmt.Errorf("archive: merge index %s: %w", index, err)
	}
	var errs []error
	for _, r := range runs {
		if err := os.Remove(r); err != nil {
			errs = append(errs, fmt.Errorf("archive: merge index %s: %w", index, err))
		}
	}
	if err := syncDir(filepath.Join(dir, RunsDir)); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// writeRun writes the lines of the WARC file named name, sorted, as the
// run dir/RunsDir/name.cdxj, atomically and durably.
func writeRun(dir, name string, lines []byte) error {
	runs := filepath.Join(dir, RunsDir)
	if err := os.Mkdir(runs, 0o755); err == nil {
		if err := syncDir(dir); err != nil {
			return err
		}
	} else if !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("archive: index run for %s: %w", name, err)
	}
	ls := bytes.SplitAfter(lines, []byte("\n"))
	if n := len(ls); n > 0 && len(ls[n-1]) == 0 {
		ls = ls[:n-1]
	}
	slices.SortFunc(ls, bytes.Compare)
	path := filepath.Join(runs, name+".cdxj")
	err := atomicfile.Write(path, 0o644, func(w io.Writer) error {
		for _, l := range ls {
			if _, err := w.Write(l); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("archive: index run %s: %w", path, err)
	}
	return nil
}
