// Package decontam keeps only real, distinct, credential-free code: it rejects
// templates and generated wrappers, caps samples per repository and per API, and
// redacts credentials.
package decontam
