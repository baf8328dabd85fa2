// Package evaluate scores generated code: it runs each completion in a sandboxed
// virtual environment that records the HTTP requests it tries to send, computes the
// benchmark metrics, and renders summaries and tables.
package evaluate
