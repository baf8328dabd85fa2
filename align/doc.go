// Package align binds each candidate function to the documented endpoint it calls
// (url, route or host_only evidence) and groups exact and near-duplicate functions
// across repositories.
package align
