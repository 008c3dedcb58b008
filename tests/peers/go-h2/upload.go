// An HTTP/2 upload by Go's net/http client over TLS, as a Go service would send one: a multipart form with one
// file, the certificate trusted from a PEM file. Prints the answer's protocol and status, then its body.
//
//	go run upload.go URL CA_PEM FILE
package main

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
)

func main() {
	url, caFile, path := os.Args[1], os.Args[2], os.Args[3]
	pem, err := os.ReadFile(caFile)
	check(err)
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pem)
	// A Transport with a TLS configuration of its own speaks HTTP/2 only when asked to (ForceAttemptHTTP2), as
	// http.DefaultTransport does.
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots},
		ForceAttemptHTTP2: true}}
	var body bytes.Buffer
	form := multipart.NewWriter(&body)
	part, err := form.CreateFormFile("upload", filepath.Base(path))
	check(err)
	file, err := os.Open(path)
	check(err)
	_, err = io.Copy(part, file)
	check(err)
	check(form.WriteField("note", "from go"))
	check(form.Close())
	answer, err := client.Post(url, form.FormDataContentType(), &body)
	check(err)
	defer answer.Body.Close()
	text, err := io.ReadAll(answer.Body)
	check(err)
	fmt.Printf("%s %d\n%s\n", answer.Proto, answer.StatusCode, text)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
