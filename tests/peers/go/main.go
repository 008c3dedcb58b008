// An upload server written the two ways Go programs take multipart forms, with Go's standard library only, for
// the probe's tests: a real parser that no one here wrote.
//
//	/stream     r.MultipartReader(): each part read as it arrives and counted, nothing kept; with ?hash=sha256
//	            each part's SHA-256 too (crypto/sha256), as our listener's default (scripts/bench-e2e)
//	/parseform  r.ParseMultipartForm(1 GiB): the whole form held in memory before the handler sees it (what
//	            the common tutorial does), then counted
//	/save       as /stream, and each file part written to a file of its own as it arrives (in a new folder per
//	            request under the folder given as the first argument, else the system's temporary folder), fields
//	            kept in memory: what our /file-part does, for scripts/bench-e2e
//
// All answer {"parts": [{"name", "size"}]} in the order the parts came. Prints its port, serves until killed.
package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
)

type part struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
}

func answer(w http.ResponseWriter, parts []part) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string][]part{"parts": parts})
}

func stream(w http.ResponseWriter, r *http.Request) { streamParts(w, r, "") }

func save(w http.ResponseWriter, r *http.Request) {
	folder := os.TempDir()
	if len(os.Args) > 1 {
		folder = os.Args[1]
	}
	if err := os.MkdirAll(folder, 0o755); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	dir, err := os.MkdirTemp(folder, "upload-")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	streamParts(w, r, dir)
}

// Reads each part as it arrives; with a folder, file parts go to files there and fields into memory.
func streamParts(w http.ResponseWriter, r *http.Request, dir string) {
	reader, err := r.MultipartReader()
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	parts := []part{}
	hashing := r.URL.Query().Get("hash") == "sha256" // once: a query parsed per part made Go look slower
	buffer := make([]byte, 32<<10)                   // one for the request: io.Copy into a hash would allocate 32 KiB a part
	for {
		p, err := reader.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		sink := io.Discard
		if hashing {
			sink = sha256.New()
		}
		var n int64
		if dir != "" && p.FileName() != "" {
			n, err = saveFile(filepath.Join(dir, strconv.Itoa(len(parts))), sink, p, buffer)
		} else if dir != "" {
			var value []byte
			value, err = io.ReadAll(io.TeeReader(p, sink))
			n = int64(len(value))
		} else {
			n, err = io.CopyBuffer(sink, p, buffer)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		parts = append(parts, part{p.FormName(), n})
	}
	answer(w, parts)
}

func saveFile(path string, sink io.Writer, p io.Reader, buffer []byte) (int64, error) {
	file, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	n, err := io.CopyBuffer(io.MultiWriter(file, sink), p, buffer)
	if closeErr := file.Close(); err == nil {
		err = closeErr
	}
	return n, err
}

func parseForm(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseMultipartForm(1 << 30); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	// The form's maps lose the parts' order: fields first, then files, as the probe's plans send them.
	parts := []part{}
	for name, values := range r.MultipartForm.Value {
		for _, v := range values {
			parts = append(parts, part{name, int64(len(v))})
		}
	}
	for name, files := range r.MultipartForm.File {
		for _, f := range files {
			parts = append(parts, part{name, f.Size})
		}
	}
	answer(w, parts)
}

func main() {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(listener.Addr().(*net.TCPAddr).Port)
	http.HandleFunc("/stream", stream)
	http.HandleFunc("/parseform", parseForm)
	http.HandleFunc("/save", save)
	http.Serve(listener, nil)
}
